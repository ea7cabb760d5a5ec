"""The replay tells everything (issue 30): every game rebuilt from its JSONL events alone.

``Rebuild`` walks the events of ``playtest replay gnomeland --format jsonl`` (the same dicts,
through ``api.replay`` and a JSON round trip) knowing only the rulebook and the rule data
(rules.toml's values): it keeps every player's resources (in hand or kept on the Warehouses,
and those copied for their next turn), Mercenaries, buildings and their sides, gnomes, completed
missions and score, and the table's supply, Mercenary decks, missions, Hexes, Tavern and Spell;
and it checks each total an event states (the supply, a score, gnomes left, a contest's count,
a die's value and yield, a mission's points) against its own count as it goes, and counts the
decisions (every choice among two or more) from what the events tell. At the end it
is compared with the engine: the seats and games tables of the same games, and the final state
record of the same game played again through the game's compiled functions. Nothing of the
engine's rules code (turn.py, board.py) is used to rebuild; ``board`` only names the engine's
own arrays for the comparison.
"""

import json
from collections import Counter

import numpy as np
import pytest

from simulator import api
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.game import search_marker
from simulator.core.rng import seed_stream
from simulator.core.seating import seat_plans
from simulator.core.trace import no_log
from simulator.games.gnomeland import board
from simulator.games.gnomeland.turn import begin_round, end_of_round, new_game, play_turn
from strategies import gnomeland as players
from tests.game_fixtures import unfolding_of

# --- what the rulebook names --------------------------------------------------------------------

RESOURCES = ("coin", "mana", "weapons")
# the rule data's word for a resource (``shop_coin``, ``shop_cost_weapon``...)
RULE_WORD = {"coin": "coin", "mana": "mana", "weapons": "weapon"}
# a Mercenary gives the resource of its kind (FAQ Q3): Traders Coins, Wizards Mana, Soldiers Weapons
MERCENARY_OF = {"coin": "Trader", "mana": "Wizard", "weapons": "Soldier"}
MERCENARIES = ("Trader", "Wizard", "Soldier")
HIRE_PRICE = {"Trader": "trader_cost_coin", "Wizard": "wizard_cost", "Soldier": "soldier_cost"}
# each building card's Base and Advanced side; the printed buildings have one side
NORMAL_SIDES = {"Kiosk": ("Kiosk", "Kiosk"), "Guard Post": ("Guard Post", "Guard Post"),
                "Shop": ("Shop", "Bank"), "Inn": ("Inn", "Hotel"), "Forge": ("Forge", "Armoury"),
                "Shrine": ("Shrine", "Abbey"), "Market": ("Market", "Exchange")}
SPECIAL_SIDES = {"Warehouse": ("Warehouse", "Warehouse"),
                 "Gnome House": ("Gnome House", "Gnome House"), "Pier": ("Pier", "Port"),
                 "Court": ("Court", "Town Hall"), "Obelisk": ("Obelisk", "Monument"),
                 "Palace": ("Palace", "Castle"), "Sanctuary": ("Sanctuary", "Temple")}
PRINTED = ("Kiosk", "Guard Post", "Warehouse", "Gnome House")  # not cards: no points
MISSION_SIDES = {"Embassy": "Grand Embassy", "Watchtower": "Dragons' Lair",
                 "Market Day": "Trade Fair", "Apprentice": "Arcane Rite", "Militia": "War Camp",
                 "Coven": "Circle of Mages", "Caravan": "Trade Route", "Festival": "Grand Festival",
                 "Bridge": "Fortress Bridge", "Library": "Great Library"}
BASE_OF = {advanced: base for base, advanced in MISSION_SIDES.items()}
SPELLS = ("Abundance", "Gnome Recall", "Summoning", "Hex", "Curse")
ACTIONS = ("Little Folk's Fortune", "Favour of the Gods", "Brawl", "Magic Challenge", "Two Coins")
SOURCES = ("dice", "copied", "tavern", "spell", "special", "mission", "mercenary")


def key(name):
    """A card's name as its rule parameters begin: ``Dragons' Lair`` -> ``dragons_lair``."""
    return name.lower().replace("'", "").replace(" ", "_")


def bundle():
    return dict.fromkeys(RESOURCES, 0)


def ways_to_keep(hand, limit):
    """The choices of which ``limit`` resources of ``hand`` to keep (all of them, if fewer)."""
    m = min(limit, sum(hand.values()))
    return sum(1 for a in range(hand["coin"] + 1) for b in range(hand["mana"] + 1)
               if 0 <= m - a - b <= hand["weapons"])


class Untold(AssertionError):
    """The events disagree with themselves or with the rebuilt state."""


def check(condition, *what):
    if not condition:
        raise Untold(*what)


class Player:
    def __init__(self, rules):
        self.res = bundle()          # in hand during the turn, on the Warehouses between turns
        self.stored = bundle()       # of res, still on the Warehouses (the active player)
        self.copied = bundle()       # copied for the next turn
        self.mercs = dict.fromkeys(MERCENARIES, 0)
        self.normal = [["Kiosk", 0], ["Kiosk", 0], ["Guard Post", 0]]  # [card, side]
        warehouses = min(rules.value("warehouses"), 2)
        self.special = [["Warehouse", 0] if k < warehouses else None for k in range(2)] + \
            [["Gnome House", 0]]
        self.gnomes_home = rules.value("gnomes_per_player")
        self.gnomes_tavern = 0
        self.gnomes_out = 0
        self.score = 0
        self.reached = 0             # when the score marker reached its space
        self.done = set()            # (mission card, side) completed
        self.magic = 0
        self.columns = Counter()     # the seat columns counted as events happen


class Rebuild:
    def __init__(self, rules):
        self.rules = rules
        self.value = rules.value
        self.limited = rules.value("supply_limited") == "yes"

    # --- setup and the table ------------------------------------------------------------------

    def walk(self, events):
        for e in events:
            handler = getattr(self, "on_" + e["kind"], None)
            check(handler is not None, "an event the rebuild does not know", e)
            handler(e)
        check(self.over, "the replay ends before the game")
        return self

    def on_seating(self, e):
        self.strategies = e["strategies"]
        n = self.n = len(e["strategies"])
        self.players = [Player(self.rules) for _ in range(n)]
        self.supply = {k: self.value(f"supply_{RULE_WORD[k]}") for k in RESOURCES}
        per_deck = self.value(f"mercenaries_{min(n, 4)}p")
        self.merc_deck = dict.fromkeys(MERCENARIES, per_deck)
        self.missions = [None] * 4   # Base missions on spaces 0-1, Advanced on 2-3 (base names)
        self.hexes = [0] * 4
        self.mission_deck = len(MISSION_SIDES)
        self.tavern = [None, None]
        self.tavern_gnomes = [[0] * n for _ in range(2)]
        self.spell = None
        self.round = 0
        self.first_player = None
        self.first_seat = None
        self.current = None
        self.clock = 0
        self.game = Counter()
        self.over = False
        self.contest = None
        self.short = bundle()        # what the supply could not pay of the gain being told
        self.paid = bundle()         # the last payment
        self.gained = self.gain_short = bundle()  # the last gain, and what it missed
        self.standings = []          # every seat's total as it stands, after each turn

    def on_mission_drawn(self, e):
        self.missions[e["space"]] = e["mission"]
        self.hexes[e["space"]] = 0
        if e["mission"] is not None:
            self.mission_deck -= 1

    def on_tavern_card(self, e):
        self.tavern[e["slot"]] = e["action"]

    def on_spell_card(self, e):
        self.spell = e["spell"]

    def on_action_reshuffle(self, e):
        self.game["action_reshuffles"] += 1

    def on_first_roll(self, e):
        pass

    def on_round(self, e):
        self.round += 1
        check(e["round"] == self.round, "round number", e)
        if self.round == 1:
            self.first_player = self.first_seat = e["first_player"]
        check(e["first_player"] == self.first_player, "first player", e, self.first_player)
        self.rolls = {}
        self.turn_in_round = 0

    def on_roll(self, e):
        check(len(e["dice"]) == self.value("dice_per_player"), "dice rolled", e)
        self.rolls[e["player"]] = list(e["dice"])

    # --- resources ----------------------------------------------------------------------------

    def take(self, k, amount):
        if self.limited:
            self.supply[k] -= amount
            check(self.supply[k] >= 0, "the supply pays what it has not got", k, amount)

    def give_back(self, k, amount):
        if self.limited:
            self.supply[k] += amount

    def receive(self, p, gained, source):
        me = self.players[p]
        for k in RESOURCES:
            me.res[k] += gained[k]
            self.take(k, gained[k])
            me.columns[f"gained_{k}"] += gained[k]
            me.columns[f"gained_{source}"] += gained[k]

    def on_supply(self, e):
        check(self.limited, "a supply told under an unlimited supply", e)
        told = {"coin": e["coin"], "mana": e["mana"], "weapons": e["weapons"]}
        check(told == self.supply, "the supply", told, dict(self.supply))

    def on_supply_short(self, e):
        k = {"Coin": "coin", "Mana": "mana", "Weapons": "weapons"}[e["resource"]]
        check(self.limited and e["missed"] > 0, "a shortage", e)
        self.short[k] += e["missed"]
        self.players[e["player"]].columns["supply_short"] += e["missed"]

    def on_gain(self, e):
        if e["source"] == "mission":  # the completed mission's resources, as far as the supply has
            check(all(e["gained"][k] + self.short[k] == self.bonus[k] for k in RESOURCES),
                  "a mission's resources", e, self.bonus)
        self.receive(e["player"], e["gained"], e["source"])
        self.gained, self.gain_short = e["gained"], self.short
        self.short = bundle()

    def on_pay(self, e):
        me = self.players[e["player"]]
        self.paid = e["paid"]
        for k in RESOURCES:
            c = e["paid"][k]
            me.res[k] -= c
            check(me.res[k] >= 0, "a payment the hand cannot make", e, me.res)
            me.stored[k] -= min(c, me.stored[k])  # what the Warehouses hold goes first
            self.give_back(k, c)
        check(sum(e["discarded"].values()) == e["mercenaries_discarded"], "discards", e)
        for m, count in e["discarded"].items():
            me.mercs[m] -= count
            check(me.mercs[m] >= 0, "a Mercenary discarded that is not held", e)
            self.merc_deck[m] += count

    def on_mercenary(self, e):
        me = self.players[e["player"]]
        me.mercs[e["mercenary"]] += 1
        self.merc_deck[e["mercenary"]] -= 1
        check(self.merc_deck[e["mercenary"]] >= 0, "a Mercenary from an empty deck", e)

    def on_hire(self, e):
        me = self.players[e["player"]]
        me.columns["mercenaries_hired"] += 1
        check(e["price"] == self.value(HIRE_PRICE[e["mercenary"]]), "a hire's price", e)
        if e["in_contest"]:  # hired and spent at once: counted by the contest
            self.contest["hired"][e["player"]] += 1

    # --- the turn -----------------------------------------------------------------------------

    def on_turn(self, e):
        p = self.current = e["player"]
        self.game["turns"] += 1
        self.turn_in_round += 1
        self.dice = [[v, False] for v in self.rolls[p]]   # [value, spent]
        self.used = [False] * 3                           # Special Buildings used this turn
        self.short = bundle()

    def on_hand(self, e):
        me = self.players[e["player"]]
        check(e["stored"] == me.res, "the Warehouses at the start of a turn", e, me.res)
        check(e["copied"] == me.copied, "the copies at the start of a turn", e, me.copied)
        me.stored = dict(me.res)
        for k in RESOURCES:
            me.res[k] += me.copied[k]
        me.copied = bundle()

    def on_extra_die(self, e):
        check(e["die"] == len(self.dice), "a neutral die's place", e)
        check(sum(1 for d in self.dice[self.value("dice_per_player"):] if not d[1])
              < self.value("neutral_dice"), "a neutral die the pool has not got", e)
        self.dice.append([e["value"], False])

    def on_no_neutral_die(self, e):
        pass

    def decided(self, options):
        """A choice among ``options`` (a decision when there are two or more)."""
        self.game["decisions"] += options > 1

    def on_options(self, e):
        self.decided(e["options"])

    def on_option(self, e):
        pass

    def die(self, e):
        check(0 <= e["die"] < len(self.dice), "a die the player has not got", e, self.dice)
        return self.dice[e["die"]]

    def on_die(self, e):
        p = e["player"]
        me = self.players[p]
        die = self.die(e)
        check(die[0] == e["value"] and not die[1], "the die spent", e, self.dice)
        die[1] = True
        me.columns["dice_spent"] += 1
        slot = (e["value"] - 1) // 2
        check(e["slot"] == slot, "a die's building slot", e)
        card, side = me.normal[slot]
        name = NORMAL_SIDES[card][side]
        check(e["building"] == name, "the building a die activates", e, name)
        if e["alternative"] >= 2:  # a Mercenary instead: told by the mercenary event
            check(self.value(f"{key(name)}_mercenary") == 1, "a Mercenary choice", e)
            check(sum(e["gained"].values()) == 0, "a Mercenary choice gains nothing", e)
            return
        alt = "_alt" if e["alternative"] else ""
        for k in RESOURCES:
            printed = self.value(f"{key(name)}{alt}_{RULE_WORD[k]}")
            check(e["gained"][k] == printed - self.short[k], "a die's yield", e, k, printed)
        self.receive(p, e["gained"], "dice")
        self.short = bundle()

    def on_copy(self, e):
        q = e["player"]
        copier = self.players[q]
        copier.gnomes_home -= 1
        copier.gnomes_out += 1
        check(copier.gnomes_home == e["gnomes_left"] >= 0, "gnomes left after a copy", e)
        copier.columns["copies"] += 1
        self.players[e["copied"]].columns["copied_by_others"] += 1
        self.decided(2)
        for k in RESOURCES:
            copier.copied[k] += e["gained"][k]
            self.take(k, e["gained"][k])
            copier.columns[f"gained_{k}"] += e["gained"][k]
            copier.columns["gained_copied"] += e["gained"][k]
        self.short = bundle()

    def on_copy_declined(self, e):
        if e["no_gnome"]:
            check(self.players[e["player"]].gnomes_home == 0, "no gnome to copy with", e)
        elif not e["supply_empty"]:
            self.decided(2)

    def on_tavern(self, e):
        me = self.players[e["player"]]
        check(self.tavern[e["slot"]] == e["action"], "the Tavern card", e, self.tavern)
        me.gnomes_home -= 1
        check(me.gnomes_home >= 0, "a gnome from an empty Gnome House", e)
        me.gnomes_tavern += 1
        self.tavern_gnomes[e["slot"]][e["player"]] += 1
        me.columns[f"tavern_{key(e['action'])}"] += 1
        if e["action"] == "Favour of the Gods":  # any set of the unspent dice re-rolled
            self.decided(2 ** sum(1 for d in self.dice if not d[1]))

    def on_reroll(self, e):
        die = self.die(e)
        check(die[0] == e["old"] and not die[1], "the die re-rolled", e, self.dice)
        die[0] = e["new"]

    def on_die_change(self, e):
        die = self.die(e)
        check(die[0] == e["old"] and not die[1], "the die changed", e, self.dice)
        check((e["new"] - e["old"]) % 6 in (1, 5), "a die turned by one", e)
        die[0] = e["new"]

    def on_spell(self, e):
        me = self.players[e["player"]]
        check(e["spell"] == self.spell and not me.magic, "the spell cast", e, self.spell)
        me.magic = 1
        me.columns[f"cast_{key(e['spell'])}"] += 1

    def on_hex(self, e):
        self.hexes[e["space"]] += 1
        check(e["vp_now"] == self.mission_vp(e["space"]), "a Hexed mission's points", e)

    def on_recall(self, e):
        me = self.players[e["player"]]
        me.gnomes_out -= 1
        me.gnomes_home += 1
        me.columns["gnomes_recalled"] += 1
        check(me.gnomes_home == e["gnomes_home"], "gnomes after a recall", e)

    def on_curse(self, e):
        if e["from"] is None:  # from the supply: the gain event before it told what came
            check(e["amount"] == self.gained["coin"] and e["amount"] + self.gain_short["coin"]
                  == self.value("curse_coins"), "a Curse on the supply", e)
            return
        k = {"Coin": "coin", "Weapons": "weapons"}[e["resource"]]
        me, victim = self.players[e["player"]], self.players[e["from"]]
        amount = min(self.value("curse_coins"), victim.res[k])
        check(e["amount"] == amount > 0, "what a Curse steals", e, amount)
        victim.res[k] -= amount
        me.res[k] += amount
        me.columns[f"gained_{k}"] += amount
        me.columns["gained_spell"] += amount

    def on_special(self, e):
        pass  # what it gains and pays is told by the gain and pay events

    def on_build(self, e):
        me = self.players[e["player"]]
        card = e["building"]
        if e["building_kind"] == "normal":
            slots, sides = me.normal, NORMAL_SIDES
        else:
            slots, sides = me.special, SPECIAL_SIDES
        old = slots[e["slot"]]
        told = sides[old[0]][old[1]] if old else "(empty)"
        check(e["replaced"] == told, "the building covered", e, told)
        if old and old[0] == "Gnome House":
            check(me.gnomes_home == 0, "gnomes left on a covered Gnome House", e)
        price = {k: self.value(f"{key(card)}_cost_{RULE_WORD[k]}") for k in RESOURCES}
        check(self.paid == price, "a building's price", e, self.paid)
        slots[e["slot"]] = [card, 0]
        me.columns[f"built_{e['building_kind']}"] += 1
        me.columns[f"card_{key(card)}"] = max(1, me.columns[f"card_{key(card)}"])

    def on_upgrade(self, e):
        me = self.players[e["player"]]
        slots = me.normal if e["building_kind"] == "normal" else me.special
        sides = NORMAL_SIDES if e["building_kind"] == "normal" else SPECIAL_SIDES
        card, side = slots[e["slot"]]
        check(side == 0 and sides[card][1] == e["building"], "the building upgraded", e)
        price = {k: self.value(f"{key(card)}_upgrade_{RULE_WORD[k]}") for k in RESOURCES}
        check(self.paid == price, "an upgrade's price", e, self.paid)
        slots[e["slot"]][1] = 1
        me.columns[f"upgraded_{e['building_kind']}"] += 1
        me.columns[f"card_{key(card)}"] = 2

    def on_warehouse_discarded(self, e):
        me = self.players[e["player"]]
        check(me.special[e["slot"]] == ["Warehouse", 0], "a Warehouse covered", e)
        room = (sum(1 for b in me.special if b and b[0] == "Warehouse") - 1) * \
            self.value("warehouse_capacity")
        check(sum(me.stored.values()) > room, "a Warehouse covered with room to spare", e)
        self.decided(ways_to_keep(me.stored, room))
        for k in RESOURCES:
            drop = e["discarded"][k]
            check(drop <= me.stored[k], "discarded from a Warehouse what it did not hold", e)
            me.res[k] -= drop
            me.stored[k] -= drop
            self.give_back(k, drop)
            me.columns["resources_discarded"] += drop

    def on_gnomes_discarded(self, e):
        me = self.players[e["player"]]
        check(e["gnomes"] == me.gnomes_home > 0, "gnomes on a covered Gnome House", e)
        me.gnomes_out += me.gnomes_home
        me.columns["gnomes_lost"] += me.gnomes_home
        me.gnomes_home = 0

    # --- missions -----------------------------------------------------------------------------

    def mission_name(self, space):
        base = self.missions[space]
        return base if space < 2 else MISSION_SIDES[base]

    def mission_vp(self, space):
        printed = self.value(f"{key(self.mission_name(space))}_vp")
        return max(0, printed - self.hexes[space] * self.value("hex_penalty"))

    def on_mission_mercenaries(self, e):
        me = self.players[e["player"]]
        name = key(self.mission_name(e["space"]))
        named = sum(self.value(f"{name}_{m.lower()}s") for m in MERCENARIES)
        check(sum(e["mercenaries"].values()) == named + self.value(f"{name}_mercenaries"),
              "the Mercenaries a mission takes", e)
        for m, count in e["mercenaries"].items():
            check(count >= self.value(f"{name}_{m.lower()}s"), "a named Mercenary", e)
            me.mercs[m] -= count
            check(me.mercs[m] >= 0, "a Mercenary handed in that is not held", e)
            self.merc_deck[m] += count

    def on_mission(self, e):
        me = self.players[e["player"]]
        space, side = e["space"], 0 if e["side"] == "base" else 1
        check(e["mission"] == self.mission_name(space) and side == (space >= 2),
              "the mission completed", e, self.missions)
        base = self.missions[space]
        if self.value("mission_once_per") == "card":
            check(not {(base, 0), (base, 1)} & me.done, "a mission completed twice", e)
        check((base, side) not in me.done, "a mission side completed twice", e)
        me.done.add((base, side))
        vp = self.mission_vp(space)
        check(e["vp"] == vp and e["hexed"] == self.value(f"{key(e['mission'])}_vp") - vp,
              "a mission's points", e, vp)
        name = key(e["mission"])
        price = {k: self.value(f"{name}_{RULE_WORD[k]}") for k in RESOURCES}
        check(sum(price.values()) == 0 or self.paid == price, "a mission's price", e, self.paid)
        self.bonus = {k: self.value(f"{name}_bonus_{RULE_WORD[k]}") for k in RESOURCES}
        me.columns["missions_completed"] += 1
        me.columns[f"vp_mission_{key(base)}"] += vp
        self.game["missions_completed"] += 1

    def on_score(self, e):
        me = self.players[e["player"]]
        check(e["vp"] > 0, "a score of nothing", e)
        me.score += e["vp"]
        self.clock += 1
        me.reached = self.clock
        me.columns[f"vp_{e['why']}s"] += e["vp"]
        check(me.score == e["total"], "the score track", e, me.score)

    # --- the end of the turn and of the round -------------------------------------------------

    def on_keep(self, e):
        me = self.players[e["player"]]
        check(all(d[1] for d in self.dice) or self.game["truncated"],
              "a turn ends with a die unspent", e, self.dice)
        limit = sum(1 for b in me.special if b and b[0] == "Warehouse") * \
            self.value("warehouse_capacity")
        check(sum(e["kept"].values()) <= limit, "kept beyond the Warehouses", e, limit)
        self.decided(ways_to_keep(me.res, limit))
        dropped = 0
        for k in RESOURCES:
            drop = me.res[k] - e["kept"][k]
            check(drop >= 0, "kept what the hand has not got", e, me.res)
            dropped += drop
            self.give_back(k, drop)
            me.res[k] = e["kept"][k]
        check(dropped == e["discarded"], "resources discarded", e, dropped)
        me.columns["resources_discarded"] += dropped
        self.current = None
        if self.turn_in_round < self.n:  # a round's last turn stands after the end of the round
            self.note_standing()

    def on_truncated(self, e):
        self.game["truncated"] = 1

    def on_contest(self, e):
        slot = e["slot"]
        check(self.tavern[slot] == e["contest"], "the contest's card", e, self.tavern)
        check(e["gnomes"] == sum(self.tavern_gnomes[slot]) > 0, "gnomes on the card", e)
        self.game["brawls" if e["contest"] == "Brawl" else "magic_challenges"] += 1
        self.contest = {"slot": slot, "resource": "weapons" if e["contest"] == "Brawl" else "mana",
                        "hired": [0] * self.n}

    def building_yield(self, name, alternative):
        """What a Normal Building side gives (the printed ones have no other side of a '/')."""
        if alternative and name in PRINTED:
            return bundle()
        alt = "_alt" if alternative else ""
        return {k: self.value(f"{key(name)}{alt}_{RULE_WORD[k]}") for k in RESOURCES}

    def on_contest_dice(self, e):
        """A player's dice as counted: what their buildings make of them, and how many
        Mercenaries of the contest's kind they may spend and hire (their decision)."""
        check(len(e["dice"]) == len(e["rolled"]) >= self.value("dice_per_player"),
              "contest dice", e)
        q, k = e["player"], self.contest["resource"]
        me = self.players[q]
        counted, coins, income_coins = 0, 0, 0
        for v in e["dice"]:  # each die's building, on the side of a '/' giving more of k
            card, side = me.normal[(v - 1) // 2]
            gives = [self.building_yield(NORMAL_SIDES[card][side], alt) for alt in (0, 1)]
            best = gives[1] if gives[1][k] > gives[0][k] else gives[0]
            counted += best[k]
            coins += best["coin"]
        for building in me.special:
            if not building or building[0] in PRINTED:
                continue
            card, side = building
            name = SPECIAL_SIDES[card][side]
            if card == "Pier" and (k == "weapons" or name == "Port"):  # Coins into one k
                price = self.value(f"{key(name)}_pay_coin")
                if 0 < price <= coins:
                    counted += 1
                    coins -= price
            elif card == "Obelisk":
                counted += self.value(f"{key(name)}_{RULE_WORD[k]}")
                income_coins += self.value(f"{key(name)}_coin")
        self.contest["counted"] = counted
        # FAQ Q3: Mercenaries of the kind bought in the contest with the count's Coins, the
        # Warehouses' Coins and Traders (as far as the supply has their Coin)
        kind = MERCENARY_OF[k]
        price, y = self.value(HIRE_PRICE[kind]), self.value("mercenary_yield")
        traders = me.mercs["Trader"]
        if self.limited and y > 0:
            traders = min(traders, self.supply["coin"] // y)
        hires = 0
        if self.value("contest_mercenaries") == "hire_and_spend" and y > 0 and \
                (self.merc_deck[kind] > 0 or me.mercs[kind] > 0):
            hires = ((coins + income_coins + me.res["coin"] + traders * y) // price if price > 0
                     else self.merc_deck[kind] + me.mercs[kind])
        self.decided((me.mercs[kind] + 1) * (hires + 1))

    def on_contest_roll(self, e):
        q, k = e["player"], self.contest["resource"]
        me = self.players[q]
        check(e["warehouses"] == me.res[k], "the Warehouses counted", e, me.res)
        check(e["gnome"] == self.tavern_gnomes[self.contest["slot"]][q]
              * self.value("contest_gnome_bonus"), "a gnome's bonus", e)
        check(e["dice"] == self.contest["counted"], "the dice and buildings counted", e,
              self.contest["counted"])
        check(e["total"] == e["dice"] + e["warehouses"] + e["mercenaries"]
              * self.value("mercenary_yield") + e["gnome"], "a contest's total", e)
        self.give_back(k, me.res[k])
        me.res[k] = 0
        held = e["mercenaries"] - self.contest["hired"][q]
        me.mercs[MERCENARY_OF[k]] -= held
        check(held >= 0 and me.mercs[MERCENARY_OF[k]] >= 0, "Mercenaries spent", e)
        self.merc_deck[MERCENARY_OF[k]] += held

    def on_contest_points(self, e):
        me = self.players[e["player"]]
        me.columns["rivals_beaten"] += e["beaten"]
        check(e["vp"] == e["beaten"] * self.value(f"contest_points_{min(self.n, 4)}p"),
              "a contest's points", e)

    def on_mission_flip(self, e):
        check(self.missions[e["space"] - 2] == BASE_OF[e["mission"]], "the mission flipped", e)
        old = self.missions[e["space"]]
        check(e["discarded"] == (MISSION_SIDES[old] if old else None), "the mission discarded", e)
        self.missions[e["space"]] = BASE_OF[e["mission"]]
        self.hexes[e["space"]] = 0

    def on_gnomes_removed(self, e):
        me = self.players[e["player"]]
        check(e["gnomes"] == me.gnomes_tavern, "gnomes on the Tavern", e)
        me.gnomes_out += me.gnomes_tavern
        me.gnomes_tavern = 0

    def on_first_player(self, e):
        """The last event of the end of the round: the marker to the leader (ties: who reached
        the space first), the Tavern's cards and gnomes cleared, the Magic markers back."""
        holder = best = self.first_player
        for i in range(1, self.n):
            q = (holder + i) % self.n
            a, b = self.players[q], self.players[best]
            if a.score > b.score or (a.score == b.score and a.reached < b.reached):
                best = q
        check(e["player"] == best and e["vp"] == self.players[best].score, "the first player", e)
        self.first_player = best
        for me in self.players:
            check(me.gnomes_tavern == 0, "gnomes left on the Tavern", e)
            me.magic = 0
        self.tavern_gnomes = [[0] * self.n for _ in range(2)]
        self.hexes = [0] * 4
        self.contest = None
        if self.round >= self.value("rounds"):
            self.tavern = [None, None]
        self.note_standing()

    def note_standing(self):
        """Who leads is judged by the total the game is won by: the track and the buildings."""
        self.standings.append([me.score + self.building_points(p)
                               for p, me in enumerate(self.players)])

    def building_points(self, p):
        me = self.players[p]
        points = sum(self.value("vp_advanced_normal") for card, side in me.normal
                     if card not in PRINTED and side == 1)
        return points + sum(self.value("vp_advanced_special" if b[1] else "vp_base_special")
                            for b in me.special if b and b[0] not in PRINTED)

    def on_game_end(self, e):
        check(self.round == self.value("rounds") and self.current is None, "the game's end", e)
        scores = [me.score + self.building_points(p) for p, me in enumerate(self.players)]
        points = [self.building_points(p) for p in range(self.n)]
        check(e["scores"] == scores and e["building_points"] == points, "final scores", e, scores)
        # End of the Game: the highest total; a tie to more building points; still tied, shared
        ranks = [1 + sum((scores[q], points[q]) > (scores[p], points[p]) for q in range(self.n))
                 for p in range(self.n)]
        winners = [p for p in range(self.n) if ranks[p] == 1]
        check(e["ranks"] == ranks and e["winners"] == winners, "ranks and winners", e, ranks)
        check(e["win_shares"] == [1 / len(winners) if p in winners else 0.0 for p in range(self.n)],
              "win shares", e)
        self.scores, self.ranks, self.winners = scores, ranks, winners
        self.over = True

    # --- the rebuilt tables and state ---------------------------------------------------------

    def seat_rows(self):
        rows = []
        for p, me in enumerate(self.players):
            c = me.columns
            normal_points = sum(self.value("vp_advanced_normal") for card, side in me.normal
                                if card not in PRINTED and side == 1)
            row = {"seat": p, "strategy": self.strategies[p], "role": None,
                   "score": self.scores[p], "rank": self.ranks[p], "winner": p in self.winners,
                   "win_share": 1 / len(self.winners) if p in self.winners else 0.0,
                   "vp_missions": c["vp_missions"], "vp_contests": c["vp_contests"],
                   "vp_normal_buildings": normal_points,
                   "vp_special_buildings": self.building_points(p) - normal_points,
                   "building_points": self.building_points(p),
                   "gnomes_spent": c["copies"] + sum(c[f"tavern_{key(a)}"] for a in ACTIONS),
                   "gnomes_left": me.gnomes_home, "first_player": p == self.first_seat}
            for name in ("gained_coin", "gained_mana", "gained_weapons", "resources_discarded",
                         "supply_short", "dice_spent", "copies", "copied_by_others",
                         "gnomes_recalled", "gnomes_lost", "mercenaries_hired", "built_normal",
                         "built_special", "upgraded_normal", "upgraded_special",
                         "missions_completed", "rivals_beaten"):
                row[name] = c[name]
            row.update({f"gained_{s}": c[f"gained_{s}"] for s in SOURCES})
            row.update({f"cast_{key(s)}": c[f"cast_{key(s)}"] for s in SPELLS})
            row.update({f"tavern_{key(a)}": c[f"tavern_{key(a)}"] for a in ACTIONS})
            row.update({f"vp_mission_{key(m)}": c[f"vp_mission_{key(m)}"] for m in MISSION_SIDES})
            row.update({f"card_{key(b)}": c[f"card_{key(b)}"]
                        for b in (*NORMAL_SIDES, *SPECIAL_SIDES) if b not in PRINTED})
            rows.append(row)
        return rows

    def game_row(self):
        g = self.game
        return {"n_players": self.n, "first_seat": self.first_seat, "turns": g["turns"],
                "truncated": bool(g["truncated"]), "rounds": self.round, "brawls": g["brawls"],
                "magic_challenges": g["magic_challenges"],
                "contests": g["brawls"] + g["magic_challenges"],
                "action_reshuffles": g["action_reshuffles"],
                "missions_completed": g["missions_completed"],
                "copies": sum(me.columns["copies"] for me in self.players),
                "winning_score": max(self.scores), "winners": len(self.winners),
                "decisions": g["decisions"], **self.unfolding()}

    def unfolding(self):
        changes, third, two_thirds = unfolding_of(self.standings)
        losers = [x for p, x in enumerate(self.scores) if p not in self.winners]
        return {"lead_changes": changes, "leader_at_third": third,
                "leader_at_third_won": third in self.winners if third >= 0 else None,
                "leader_at_two_thirds": two_thirds,
                "leader_at_two_thirds_won": two_thirds in self.winners if two_thirds >= 0 else None,
                "final_margin": max(self.scores) - max(losers) if losers else 0}

    def final_state(self):
        def named(slot, sides):
            return sides[slot[0]][slot[1]] if slot else None

        return {
            "players": [{
                "res": me.res, "copied": me.copied, "mercs": me.mercs,
                "normal": [named(b, NORMAL_SIDES) for b in me.normal],
                "special": [named(b, SPECIAL_SIDES) for b in me.special],
                "gnomes": (me.gnomes_home, me.gnomes_tavern, me.gnomes_out),
                "score": me.score, "magic": me.magic,
                "done": sorted(MISSION_SIDES[m] if side else m for m, side in me.done),
            } for me in self.players],
            "supply": self.supply, "merc_deck": self.merc_deck,
            "missions": [self.mission_name(i) if self.missions[i] else None for i in range(4)],
            "hexes": self.hexes, "mission_deck": self.mission_deck, "tavern": self.tavern,
            "spell": self.spell, "first_player": self.first_player, "round": self.round,
        }


# --- the engine's side ---------------------------------------------------------------------------

def engine_state(config, game_index):
    """Game ``game_index`` of ``config`` played again through the game's compiled functions,
    seated and seeded as the batch kernel seats and seeds it; its final state as plain values."""
    setup = config.setup
    n = config.n_players
    r = config.rules.as_record()[0]
    plans, _ = seat_plans(game_index, n, board.MAX_PLAYERS, setup.seatings, setup.mix_ids,
                          setup.mix_weights, search_marker(setup))
    rng = seed_stream(np.uint64(config.seed), game_index)
    table = new_game(r, n, plans, rng, no_log()).view(np.recarray)
    s = table[0]
    while not s.over:  # as the kernel's play_game: the round, each turn, the end of the round
        begin_round(s, r, rng, no_log())
        for i in range(n):
            s.turn_in_round = i
            play_turn(s, r, plans, rng, no_log(), (s.first_player + i) % n)
        end_of_round(s, r, plans, rng, no_log())
        if s.round_no >= r.rounds:
            s.over = 1

    def bundle_of(row):
        return dict(zip(RESOURCES, map(int, row)))

    def building(names, t, side):
        return names[t][side] if t >= 0 else None

    missions = []
    for space in range(4):
        card = s.missions[space]
        missions.append(board.MISSION_NAMES[card][space >= 2] if card >= 0 else None)
    supply = bundle_of(s.supply)
    return {
        "players": [{
            "res": bundle_of(s.res[p]), "copied": bundle_of(s.copied[p]),
            "mercs": dict(zip(MERCENARIES, map(int, s.mercs[p]))),
            "normal": [building(board.NORMAL_NAMES, s.normal[p, k], s.normal_side[p, k])
                       for k in range(3)],
            "special": [building(board.SPECIAL_NAMES, s.special[p, k], s.special_side[p, k])
                        for k in range(3)],
            "gnomes": (int(s.gnomes_home[p]), int(s.gnomes_tavern[p]), int(s.gnomes_out[p])),
            "score": int(s.score[p]), "magic": int(s.magic[p]),
            "done": sorted(board.MISSION_NAMES[m][side] for m in range(board.N_MISSIONS)
                           for side in range(2) if s.done[p, m, side]),
        } for p in range(n)],
        "supply": supply, "merc_deck": dict(zip(MERCENARIES, map(int, s.merc_deck))),
        "missions": missions, "hexes": [int(x) for x in s.hexes],
        "mission_deck": int(s.mission_deck_n),
        "tavern": [board.ACTION_NAMES[a] if a >= 0 else None for a in s.tavern],
        "spell": board.SPELL_NAMES[s.spell] if s.spell >= 0 else None,
        "first_player": int(s.first_player), "round": int(s.round_no),
    }


def jsonl_events(config, game_index, mix, weights):
    """The events ``playtest replay gnomeland --format jsonl`` prints for this game, read back."""
    events = api.replay("gnomeland", seed=config.seed, game_index=game_index,
                        players=config.n_players, strategies=mix, weights=weights)
    return [json.loads(json.dumps(e)) for e in events]


def differences(rebuilt, seats, games, state):
    """Where the rebuild and the engine disagree, as (what, rebuilt, engine)."""
    found = []
    for p, row in enumerate(rebuilt.seat_rows()):
        engine_row = seats[p]
        missing = set(engine_row) - set(row) - {"game_id"}
        if missing:
            found.append(("seat columns not rebuilt", sorted(missing), None))
        found += [(f"seat {p} {name}", value, engine_row[name]) for name, value in row.items()
                  if engine_row[name] != value]
    row = rebuilt.game_row()
    missing = set(games) - set(row) - {"game_id"}
    if missing:
        found.append(("game columns not rebuilt", sorted(missing), None))
    found += [(f"game {name}", value, games[name]) for name, value in row.items()
              if games[name] != value]
    mine = rebuilt.final_state()
    for name in state:
        if name == "players":
            for p, (a, b) in enumerate(zip(mine["players"], state["players"])):
                found += [(f"P{p} {k}", a[k], b[k]) for k in b if a[k] != b[k]]
        elif mine[name] != state[name]:
            found.append((name, mine[name], state[name]))
    return found


# --- the games -----------------------------------------------------------------------------------

# A search player that looks one rollout to the end of the round: the same searching code, fast.
SMALL_SEARCH = players.DEFAULT_WEIGHTS[players.LOOKAHEAD].copy()
SMALL_SEARCH[players.W_ROLLOUTS] = 1
SMALL_SEARCH[players.W_ROLLOUT_TURNS] = 1
# (label, mix, weights, games): the default mix, random players, the search player and a heuristic
MIXES = [("default", None, None, 100), ("random", ["random"], None, 100),
         ("search", ["lookahead", "balanced"], {"lookahead": list(SMALL_SEARCH)}, 12)]
# the readings rules.toml leaves open, each away from its default (the Warehouses' discards, a
# Curse for more than one, cubes without end...), with the default mix and random together
# (a Warehouse covered while it holds more than the others can take: about one game in 40; cubes
# without end: a pile of ten copied Weapons, which the replay once told as a Mercenary card)
READINGS = [({"covered_warehouse": "resources_discarded"}, 40), ({"supply_limited": "no"}, 15),
            ({"mission_once_per": "side", "contest_mercenaries": "spend_held"}, 15),
            ({"curse_coins": 2, "supply_coin": 6, "warehouses": 1, "warehouse_capacity": 3}, 15)]
READING_MIX = ["greedy", "mission_hunter", "engine_builder", "copier", "brawler", "balanced",
               "random"]
SEED = 3030


def disagreements(config, game_index, seats, games, events):
    """Where the rebuild of ``events`` disagrees with the engine's game ``game_index``."""
    try:
        rebuilt = Rebuild(config.rules).walk(events)
    except Untold as untold:
        return [("untold", untold.args)]
    return differences(rebuilt, seats.filter(seats["game_id"] == game_index).rows(named=True),
                       games.row(game_index, named=True), engine_state(config, game_index))


def check_games(config, n_games, mix, weights):
    seats, games = batch.play_in_memory(config, n_games, with_games=True)
    for i in range(n_games):
        found = disagreements(config, i, seats, games, jsonl_events(config, i, mix, weights))
        assert not found, f"game {i}: {found}"


@pytest.mark.parametrize("label, mix, weights, n_games", MIXES, ids=[m[0] for m in MIXES])
@pytest.mark.parametrize("n_players", (2, 3, 4))
def test_every_game_rebuilt_from_its_replay(n_players, label, mix, weights, n_games,
                                            heuristics_compiled):
    """Every seeded game of the configuration rebuilt from its JSONL events alone agrees with
    the engine: each seat's columns, the game's columns and the final state, holding by holding."""
    config = make_config("gnomeland", n_players, "standard", mix, seed=SEED, weights=weights)
    check_games(config, n_games, mix, weights)


@pytest.mark.parametrize("settings, n_games", READINGS,
                         ids=[",".join(f"{k}={x}" for k, x in v.items()) for v, _ in READINGS])
@pytest.mark.parametrize("n_players", (2, 4))
def test_every_reading_rebuilt_from_its_replay(n_players, settings, n_games):
    """The same under each reading rules.toml leaves open, the heuristics and random together."""
    config = make_config("gnomeland", n_players, "standard", READING_MIX, seed=SEED,
                         settings=settings)
    seats, games = batch.play_in_memory(config, n_games, with_games=True)
    kinds = Counter()
    for i in range(n_games):
        events = [json.loads(json.dumps(e)) for e in api.replay(
            "gnomeland", seed=SEED, game_index=i, players=n_players, strategies=READING_MIX,
            settings=settings)]
        found = disagreements(config, i, seats, games, events)
        assert not found, f"game {i}: {found}"
        kinds.update(e["kind"] for e in events)
        kinds.update("curse for 2" for e in events if e["kind"] == "curse" and e["amount"] == 2)
    if settings.get("covered_warehouse") and n_players == 2:
        assert kinds["warehouse_discarded"]  # the reading's own event was rebuilt
    if settings.get("curse_coins"):
        assert kinds["curse for 2"]


@pytest.mark.slow
@pytest.mark.parametrize("label, mix, weights, n_games", MIXES, ids=[m[0] for m in MIXES])
@pytest.mark.parametrize("n_players", (2, 3, 4))
def test_a_longer_sweep_rebuilt_from_its_replay(n_players, label, mix, weights, n_games,
                                                heuristics_compiled):
    config = make_config("gnomeland", n_players, "standard", mix, seed=SEED + 1, weights=weights)
    check_games(config, 10 * n_games, mix, weights)


def test_an_untold_change_is_caught():
    """The rebuild can fail: the same game with one told change left out, or a supply count
    that counts a change not yet told, disagrees with the engine."""
    config = make_config("gnomeland", 4, "standard", None, seed=SEED)
    seats, games = batch.play_in_memory(config, 1, with_games=True)
    events = jsonl_events(config, 0, None, None)
    assert not disagreements(config, 0, seats, games, events)
    for kind in ("gain", "pay", "mercenary", "copy", "keep", "build", "upgrade", "tavern", "spell",
                 "mission_mercenaries", "mission", "score", "contest_roll", "gnomes_removed",
                 "mission_flip", "recall", "curse", "hex", "reroll", "extra_die"):
        # the first that changes something (a turn's end keeps the whole hand)
        cut = [e for e in events if e["kind"] == kind and e.get("discarded") != 0][:1]
        if cut:
            assert disagreements(config, 0, seats, games, [e for e in events if e is not cut[0]]), \
                kind
    # the supply told with a cube back that no event has paid yet, as the kernel told it when a
    # Mercenary's gain came after another kind's payment (before this test)
    k = next(k for k, e in enumerate(events) if e["kind"] == "supply")
    told = dict(events[k], coin=events[k]["coin"] + 1)
    assert disagreements(config, 0, seats, games, events[:k] + [told] + events[k + 1:])
