"""Gnomeland replay: the log codes of ``codes.py`` read as a story.

``turn.py`` records (code, a, b, c, d, e, f) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story;
``EVENTS`` describes each code: its sentence and its fields (``simulator.core.story``).
Resource bundles travel packed as ``coin + 10 * mana + 100 * weapons`` (``pack``), or three digits
a resource where a count may pass 9 (``pack_wide``: a hand, a payment, what is kept).
"""

from simulator.core import story
from simulator.core.story import Choose, Event, each_player, first, fixed, missing
from simulator.games.gnomeland.board import (
    ACTION_NAMES, COIN, CURSE, HEX, MERCENARY_NAMES, MISSION_NAMES, NORMAL_NAMES, RESOURCE_NAMES,
    SOURCE_NAMES, SPECIAL_NAMES, SPELL_NAMES, SUMMONING, WEAPON,
)
from simulator.games.gnomeland.codes import *  # every code: told here, and re-exported

# the option kinds, in the order of the OPT_ codes
OPTION_NAMES = ("end turn", "spend die", "tavern", "cast spell", "palace die", "change die",
                "re-roll die", "convert", "income", "hire", "build normal", "build special",
                "upgrade normal", "upgrade special", "mission")


def unpack(x: int) -> dict:
    """A packed bundle as {"coin", "mana", "weapons"} (mercenaries in the thousands, if any)."""
    out = {"coin": x % 10, "mana": (x // 10) % 10, "weapons": (x // 100) % 10}
    if x >= 1000:
        out["mercenaries"] = x // 1000
    return out


def unpack_wide(x: int) -> dict:
    """A bundle packed three digits a resource (``turn.pack_wide``: a hand, a payment, what is
    kept, where a count may pass 9)."""
    return {"coin": x % 1000, "mana": (x // 1000) % 1000, "weapons": x // 1_000_000}


def _bundle(x: int) -> str:
    return _words(unpack(x))


def _words(b: dict) -> str:
    parts = [f"{b['coin']} Coin"] if b["coin"] else []
    if b["mana"]:
        parts.append(f"{b['mana']} Mana")
    if b["weapons"]:
        parts.append(f"{b['weapons']} Weapons")
    if b.get("mercenaries"):
        parts.append(f"{b['mercenaries']} Mercenary card(s)")
    return ", ".join(parts) if parts else "nothing"


def _normal(t, side):
    return NORMAL_NAMES[t][side]


def describe_option(kind, a, b) -> str:
    if kind == OPT_DIE:
        if b >= 2:
            return f"spend die {a} for a {MERCENARY_NAMES[b - 2]}"
        return f"spend die {a}" + (" (the other side of '/')" if b == 1 else "")
    if kind == OPT_TAVERN:
        return f"gnome on {ACTION_NAMES[b]} (Tavern card {a})"
    if kind == OPT_SPELL:
        return f"cast {SPELL_NAMES[b]}" + _spell_variant(a, b)
    if kind == OPT_DIE_CHANGE:
        return f"change die {b // 2} by {'+1' if b % 2 == 0 else '-1'}"
    if kind == OPT_REROLL:
        return f"re-roll die {b}"
    if kind == OPT_CONVERT:
        return f"convert Coins into {RESOURCE_NAMES[b]}"
    if kind == OPT_HIRE:
        return f"hire a {MERCENARY_NAMES[a]} paying {RESOURCE_NAMES[b]}"
    if kind == OPT_BUILD_NORMAL:
        return f"build {NORMAL_NAMES[a][0]} on slot {b}"
    if kind == OPT_BUILD_SPECIAL:
        return f"build {SPECIAL_NAMES[a][0]} on special slot {b}"
    if kind == OPT_UPGRADE_NORMAL:
        return f"upgrade {NORMAL_NAMES[b][0]} to {NORMAL_NAMES[b][1]} (slot {a})"
    if kind == OPT_UPGRADE_SPECIAL:
        return f"upgrade {SPECIAL_NAMES[b][0]} to {SPECIAL_NAMES[b][1]} (special slot {a})"
    if kind == OPT_MISSION:
        return f"complete {MISSION_NAMES[b][0 if a < 2 else 1]} (space {a})"
    return OPTION_NAMES[kind]


def _spell_variant(a, spell) -> str:
    """Which target a spell option (variant ``a``) takes: see ``turn.cast_spell``."""
    if spell == SUMMONING:
        return f" for a {MERCENARY_NAMES[a]}"
    if spell == HEX:
        return f" on mission space {a}"
    if spell == CURSE:
        if a == 0:
            return " on the supply"
        return f" on P{(a - 1) // 2}'s {RESOURCE_NAMES[COIN if (a - 1) % 2 == 0 else WEAPON]}"
    return ""


def option_card(kind, a, b):
    """The name of the card an option plays (a Tavern action, the spell, a building, a mission),
    or None."""
    if kind == OPT_TAVERN:
        return ACTION_NAMES[b]
    if kind == OPT_SPELL:
        return SPELL_NAMES[b]
    if kind == OPT_BUILD_NORMAL:
        return NORMAL_NAMES[a][0]
    if kind == OPT_BUILD_SPECIAL:
        return SPECIAL_NAMES[a][0]
    if kind == OPT_UPGRADE_NORMAL:
        return NORMAL_NAMES[b][1]
    if kind == OPT_UPGRADE_SPECIAL:
        return SPECIAL_NAMES[b][1]
    if kind == OPT_MISSION:
        return MISSION_NAMES[b][0 if a < 2 else 1]
    return None


def _digits(x, n):
    """``n`` dice packed one decimal digit each, the first die the most significant."""
    return [int(ch) for ch in str(x).zfill(n)] if n else []


def _unpack_points(f, n):
    return [(f >> (8 * i)) & 0xFF for i in range(n)]


# Why a die was added or re-rolled (the BY_ codes), a Mercenary taken, points scored.
DIE_CAUSES = ("building", "spell", "action")
MERCENARY_CAUSES = ("a building", "a spell", "a mission", "hired")
SCORE_CAUSES = ("mission", "contest")


def rolled_dice(*dice) -> list[int]:
    return [x for x in dice if x > 0]


def option_cost(f) -> dict:
    """An option's cost: the thousands of its f (the rest is its value)."""
    return unpack(f // 1000)


def option_value(f) -> float:
    return (f % 1000) / 10.0 - 50.0


def chosen_mark(chosen) -> str:
    return " <- chosen" if chosen else ""


def spent_die(d) -> int:
    return d // 10  # turn.spend_die packs the die and the alternative in one field


def alternative(d) -> int:
    return d % 10


def building_side(f) -> str:
    return _normal(f // 2, f % 2)


def copy_refusal(why) -> str:
    return "has no gnome" if why else "declines"


def no_gnome(why) -> bool:
    return why == 1


def supply_empty(why) -> bool:
    return why == 2


def mercenary_counts(packed) -> dict:
    """Mercenary cards by kind, packed one decimal digit each."""
    return dict(zip(MERCENARY_NAMES, (packed % 10, (packed // 10) % 10, (packed // 100) % 10)))


def mercenaries_told(counts) -> str:
    return ", ".join(f"{v} {m}" for m, v in counts.items() if v)


def discarded_told(counts) -> str:
    named = mercenaries_told(counts)
    return f": {named}" if named else ""


def hire_ending(in_contest) -> str:
    return " in the contest and spends it at once." if in_contest else "."


def building_names(special):
    return NORMAL_NAMES if special == 0 else SPECIAL_NAMES


def building_kind(special) -> str:
    return "normal" if special == 0 else "special"


def special_slot(special) -> str:
    return "special " if special else ""


def built(special, card) -> str:
    return building_names(special)[card][0]


def covered(special, card, side) -> str:
    return building_names(special)[card][side] if card >= 0 else "(empty)"


def upgraded(special, card) -> str:
    return building_names(special)[card][1]


def mission_name(card, side) -> str:
    return MISSION_NAMES[card][side]


def mission_side(side) -> str:
    return "base" if side == 0 else "advanced"


def hexed_told(hexed) -> str:
    return f" ({hexed} less for the Hex)" if hexed else ""


def special_name(card, side) -> str:
    return SPECIAL_NAMES[card][side]


def counted_as(rolled, dice) -> str:
    return f"; counted as {dice} after the die changers" if dice != rolled else ""


def base_mission(card) -> str:
    return MISSION_NAMES[card][0]


def advanced_mission(card) -> str:
    return MISSION_NAMES[card][1]


def discarded_mission(card):
    return MISSION_NAMES[card][1] if card >= 0 else None


def discarding_told(discarded) -> str:
    return f", discarding {discarded}." if discarded is not None else "."


def upgraded_special(card) -> str:
    return SPECIAL_NAMES[card][1]


COPY_DECLINED_FIELDS = {"player": "a", "copied": "b", "no_gnome": (no_gnome, "c"),
                        "supply_empty": (supply_empty, "c")}

EVENTS = {
    ROUND: Event("=== Round {a}: first player P{b} ===", {"round": "a", "first_player": "b"}),
    FIRST_ROLL: Event("P{a} rolls {b} for first player.", {"player": "a", "total": "b"}),
    ROLL: Event("P{a} rolls {dice}.",
                {"player": "a", "dice": (rolled_dice, "b", "c", "d", "e", "f")}),
    TURN: Event("--- P{a}'s turn ---", {"player": "a"}),
    HAND: Event("P{a} takes into hand {stored_told} (Warehouses) and {copied_told} (copied).",
                {"player": "a", "stored": (unpack_wide, "b"), "copied": (unpack_wide, "c")},
                words={"stored_told": (_words, "stored"), "copied_told": (_words, "copied")}),
    EXTRA_DIE: Event("P{a} rolls a neutral die ({why}): {b}.",
                     {"player": "a", "value": "b", "why": (DIE_CAUSES, "c"), "die": "d"}),
    OPTIONS: Event("P{a} chooses among {b} options.", {"player": "a", "options": "b"}),
    # a: chosen, b: its index, c: its kind, d and e: its arguments, f: its cost and value
    OPTION: Event("  option {b}: {option_told} (cost {cost_told}){chosen_told}",
                  {"chosen": (bool, "a"), "index": "b", "option": (OPTION_NAMES, "c"),
                   "a": "d", "b": "e", "card": (option_card, "c", "d", "e"),
                   "cost": (option_cost, "f"), "value": (option_value, "f")},
                  words={"option_told": (describe_option, "c", "d", "e"),
                         "cost_told": (_words, "cost"), "chosen_told": (chosen_mark, "a")}),
    DIE: Event("P{a} spends die {die} (a {b}) on {building} (slot {c}): {gained_told}.",
               {"player": "a", "die": (spent_die, "d"), "value": "b", "slot": "c",
                "alternative": (alternative, "d"), "building": (building_side, "f"),
                "gained": (unpack, "e")},
               words={"gained_told": (_bundle, "e")}),
    MERCENARY: Event("P{a} takes a {mercenary} ({why}).",
                     {"player": "a", "mercenary": (MERCENARY_NAMES, "b"),
                      "why": (MERCENARY_CAUSES, "c")}),
    COPY: Event("P{a} spends a gnome to copy P{b}: {gained_told} kept for the next turn.",
                {"player": "a", "copied": "b", "gained": (unpack, "c"), "gnomes_left": "d"},
                words={"gained_told": (_bundle, "c")}),
    COPY_DECLINED: Choose((supply_empty, "c"), {
        True: Event("P{a} cannot copy P{b}: the supply has none of it.", COPY_DECLINED_FIELDS),
        False: Event("P{a} {refusal} to copy P{b}.", COPY_DECLINED_FIELDS,
                     words={"refusal": (copy_refusal, "c")})}),
    GAIN: Event("P{a} gains {gained_told} ({source}).",
                {"player": "a", "source": (SOURCE_NAMES, "b"), "gained": (unpack, "c")},
                words={"gained_told": (_bundle, "c")}),
    SUPPLY_SHORT: Event("The supply has no more {resource}: P{a} misses {c}.",
                        {"player": "a", "resource": (RESOURCE_NAMES, "b"), "missed": "c"}),
    SUPPLY: Event("  (the supply now: {a} Coin, {b} Mana, {c} Weapons)",
                  {"coin": "a", "mana": "b", "weapons": "c"}),
    PAY: Event("P{a} pays {paid_told} (discarding {c} Mercenary card(s) for resources"
               "{discarded_told}).",
               {"player": "a", "paid": (unpack_wide, "b"), "mercenaries_discarded": "c",
                "discarded": (mercenary_counts, "d")},
               words={"paid_told": (_words, "paid"), "discarded_told": (discarded_told,
                                                                         "discarded")}),
    HIRE: Event("P{a} hires a {mercenary} for {c} {paid_in}{ending}",
                {"player": "a", "mercenary": (MERCENARY_NAMES, "b"), "price": "c",
                 "paid_in": (RESOURCE_NAMES, "d"), "in_contest": (bool, "e")},
                words={"ending": (hire_ending, "e")}),
    # building_kind, not kind: a field named kind would overwrite the event's own
    BUILD: Event("P{a} builds {built} on {special}slot {d}, covering {replaced}.",
                 {"player": "a", "building_kind": (building_kind, "b"),
                  "building": (built, "b", "c"), "slot": "d",
                  "replaced": (covered, "b", "e", "f")},
                 words={"built": (built, "b", "c"), "special": (special_slot, "b")}),
    UPGRADE: Event("P{a} upgrades {built} to {building} (slot {c}).",
                   {"player": "a", "building_kind": (building_kind, "b"), "slot": "c",
                    "building": (upgraded, "b", "d")},
                   words={"built": (built, "b", "d")}),
    WAREHOUSE_DISCARDED: Event("P{a}'s Warehouse on special slot {b} is covered: "
                               "{discarded_told} kept on it discarded.",
                               {"player": "a", "slot": "b", "discarded": (unpack_wide, "c")},
                               words={"discarded_told": (_words, "discarded")}),
    GNOMES_DISCARDED: Event("P{a}'s Gnome House is covered: {b} gnome(s) on it leave the game.",
                            {"player": "a", "gnomes": "b"}),
    MISSION_MERCENARIES: Event("P{a} hands in {handed} for the mission on space {c}.",
                               {"player": "a", "space": "c",
                                "mercenaries": (mercenary_counts, "b")},
                               words={"handed": (mercenaries_told, "mercenaries")}),
    MISSION: Event("P{a} completes {mission} (space {b}): {e} VP{hex}.",
                   {"player": "a", "space": "b", "mission": (mission_name, "c", "d"),
                    "side": (mission_side, "d"), "vp": "e", "hexed": "f"},
                   words={"hex": (hexed_told, "f")}),
    TAVERN: Event("P{a} places a gnome on {action} (Tavern card {b}).",
                  {"player": "a", "slot": "b", "action": (ACTION_NAMES, "c")}),
    REROLL: Event("P{a} re-rolls die {b}: {c} -> {d} ({why}).",
                  {"player": "a", "die": "b", "old": "c", "new": "d", "why": (DIE_CAUSES, "e")}),
    DIE_CHANGE: Event("P{a} turns die {b} from {c} to {d} ({building}).",
                      {"player": "a", "die": "b", "old": "c", "new": "d",
                       "building": (special_name, "e", "f")}),
    SPELL: Event("P{a} casts {spell}.",
                 {"player": "a", "spell": (SPELL_NAMES, "b"), "variant": "c"}),
    HEX: Event("P{a}'s Hex on mission space {b}: it gives {c} VP this round.",
               {"player": "a", "space": "b", "vp_now": "c"}),
    RECALL: Event("P{a} recovers a gnome ({b} at home).", {"player": "a", "gnomes_home": "b"}),
    CURSE: Choose((missing, "b"), {
        True: Event("P{a}'s Curse takes {d} Coin from the supply.",
                    {"player": "a", "from": fixed(None), "resource": (RESOURCE_NAMES, "c"),
                     "amount": "d"}),
        False: Event("P{a}'s Curse steals {d} {resource} from P{b}'s Warehouses.",
                     {"player": "a", "from": "b", "resource": (RESOURCE_NAMES, "c"),
                      "amount": "d"})}),
    SPECIAL: Event("P{a} uses {building}: {gained_told}.",
                   {"player": "a", "building": (special_name, "b", "c"), "gained": (unpack, "d")},
                   words={"gained_told": (_bundle, "d")}),
    KEEP: Event("P{a} ends the turn keeping {kept_told} in the Warehouses; {c} resource(s) go "
                "back.", {"player": "a", "kept": (unpack_wide, "b"), "discarded": "c"},
                words={"kept_told": (_words, "kept")}),
    CONTEST: Event("*** {contest} (Tavern card {b}): {c} gnome(s) on it ***",
                   {"contest": (ACTION_NAMES, "a"), "slot": "b", "gnomes": "c"}),
    CONTEST_ROLL: Event("P{a} counts {b} (dice and buildings {c}, Warehouses {d}, Mercenaries "
                        "{e}, gnome {f}).", {"player": "a", "total": "b", "dice": "c",
                                             "warehouses": "d", "mercenaries": "e",
                                             "gnome": "f"}),
    CONTEST_DICE: Event("P{a} rolls {rolled}{changed}.",
                        {"player": "a", "rolled": (_digits, "c", "b"),
                         "dice": (_digits, "d", "b")},
                        words={"changed": (counted_as, "rolled", "dice")}),
    CONTEST_POINTS: Event("P{a} beats {b} player(s): {c} VP.",
                          {"player": "a", "beaten": "b", "vp": "c"}),
    MISSION_FLIP: Event("Mission {base} turns to its Advanced side {mission} (space {b})"
                        "{discarding}",
                        {"mission": (advanced_mission, "a"), "space": "b",
                         "discarded": (discarded_mission, "c")},
                        words={"base": (base_mission, "a"),
                               "discarding": (discarding_told, "discarded")}),
    MISSION_DRAWN: Choose((missing, "b"), {
        True: Event("No mission left for space {a}.", {"space": "a", "mission": fixed(None)}),
        False: Event("New Base mission on space {a}: {mission}.",
                     {"space": "a", "mission": (base_mission, "b")})}),
    TAVERN_CARD: Choose((missing, "b"), {
        True: Event("No Action card for Tavern space {a}.", {"slot": "a", "action": fixed(None)}),
        False: Event("Tavern card {a}: {action}.", {"slot": "a", "action": (ACTION_NAMES, "b")})}),
    ACTION_RESHUFFLE: Event("The Action deck is empty: {a} used cards are shuffled into a new "
                            "one.", {"cards": "a"}),
    SPELL_CARD: Choose((missing, "a"), {
        True: Event("The Spell deck is empty: no spell this round.", {"spell": fixed(None)}),
        False: Event("The Wizard's Tower shows {spell}.", {"spell": (SPELL_NAMES, "a")})}),
    GNOMES_REMOVED: Event("P{a}'s {b} gnome(s) on the Tavern leave the game.",
                          {"player": "a", "gnomes": "b"}),
    FIRST_PLAYER: Event("The First Player marker goes to P{a} ({b} VP).",
                        {"player": "a", "vp": "b"}),
    NO_NEUTRAL_DIE: Event("P{a}: no neutral die left in the pool for the {building}.",
                          {"player": "a"}, words={"building": (upgraded_special, "b")}),
    SCORE: Event("P{a} scores {b} VP ({why}): {d} on the track.",
                 {"player": "a", "vp": "b", "why": (SCORE_CAUSES, "c"), "total": "d"}),
    TRUNCATED: Event("P{a}'s turn reaches the step limit and is cut short.", {"player": "a"}),
    GAME_END: Event("Game over. Final scores: {told}.",
                    {"scores": (first, "a", "b", "c", "d", "e"),
                     "building_points": (_unpack_points, "f", "a")},
                    words={"told": (each_player, "scores")}),
}


def tell(log) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields."""
    return story.tell(log, EVENTS, LOG_KINDS)
