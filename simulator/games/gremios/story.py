"""Gremios replay: the log codes of ``codes.py`` read as a story.

``turn.py`` records (code, a, b, c, d, e, f) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story;
``EVENTS`` describes each code: its sentence and its fields (``simulator.core.story``).
The story is an omniscient referee's: it names face-down cards (the event cards set aside, the
treasures drawn), every decision with the options it was taken from, and every rule that fired,
including those that changed nothing, so the game can be followed step by step with the rulebook.
"""

from operator import add, ne, sub

from simulator.core import story, trace
from simulator.core.story import Choose, Event, each_player, first, fixed, missing, numbered
from simulator.games.gremios.board import BANKRUPTCY as BANKRUPTCY_CARD  # BANKRUPTCY: a log code
from simulator.games.gremios.board import (
    BAD_HARVEST, BLOCKADE_GUILDS, BLOCKADE_NAMES, EVENT_NAMES, FOREIGN_INVASION,
    GOOD_HARVEST, GUILD_NAMES, GUILD_NUMBERS, LAND_EXPROPRIATION, MAX_PLAYERS, MODE_NAMES,
    ROLE_NAMES, TAX_COLLECTION, TREASURE_NAMES,
)
from simulator.games.gremios.codes import *  # every code: told here, and re-exported

# The investment-phase actions, in the order of their codes.
ACTION_NAMES = ("end turn", "invest in guild", "invest in expedition", "buy land", "cultivate",
                "build inn", "repair inn", "exchange wealth", "buy treasure (Craftsman)",
                "sell treasure (Craftsman)", "cause mutiny (Mercenary)")

# Why something happened, in the order of the BY_ codes.
CAUSES = ("the event card", "a second blockade", "a third blockade", "the Mercenary",
          "a roll of 7", "the Age of Prosperity")
# The role's rule that paid, in the order of the R_ codes.
ROLE_REASONS = ("Archbishop: a rival invested in the Church/Monastery or bought land",
                "Doctor: Foreign Invasion", "Doctor: Plague lifted", "Innkeeper: a rival built an inn",
                "Mercenary: rival inns destroyed", "Peasant: Good Harvest bonus",
                "Pirate: failed expedition", "Shopkeeper: a rival invested in the Farm/Tavern",
                "Shopkeeper: active Famine", "Stowaway: expedition and Port stakes",
                "Trader: investments lost", "Governor: Tax Collection")
# A role's rule that fired with nothing to pay: why (the fields c, d of the row, where used);
# any other rule pays nothing only when its coins are set to 0.
NO_COINS_REASONS = {
    R_DOCTOR_PLAGUE: "they top no guild but the Church and the Monastery",
    R_MERCENARY: "no rival inn was destroyed",
    R_PEASANT: "{c} cultivated plot(s), not more than the rivals' {d} together",
    R_SHOPKEEPER_FAMINE: "no Famine is active",
    R_STOWAWAY: "{c} stake(s) in the Expedition and the Port, {d} needed",
    R_GOVERNOR: "nobody paid tax",
}

# Why the Stowaway does not sneak on board.
STOWAWAY_REASONS = ("declines the free stake", "already has a stake on board",
                    "finds no ship: nobody has invested (stowaway_boards_empty_ship = no)")

# The plot an inn is built on.
PLOT_NAMES = ("a plot bought for it", "an uncultivated plot", "a cultivated plot")

END_RULES = ("at_once", "finish_action")  # rules.end_rule

# Why an action event changed nothing (the row's b field is the Tax Collection threshold).
NO_EFFECT_REASONS = {
    GOOD_HARVEST: "nobody has a cultivated plot",
    BAD_HARVEST: "nobody has a cultivated plot",
    FOREIGN_INVASION: "nobody has a standing inn",
    LAND_EXPROPRIATION: "nobody holds a plot",
    TAX_COLLECTION: "nobody (the Governor aside) has {b} or more coins",
}


def numbered_guild(g: int, numbers) -> str:
    """A guild with its number in this game (the rules' ``famine_numbers``)."""
    return f"{GUILD_NAMES[g]} ({numbers[g]})"


def blockaded_guilds(blockade: int, numbers) -> str:
    one, other = BLOCKADE_GUILDS[blockade]
    return f"the {numbered_guild(one, numbers)} and the {numbered_guild(other, numbers)}"


def set_aside_when(reshuffle) -> str:
    return "setup" if reshuffle == 0 else f"reshuffle {reshuffle}"


def roles_dealt(*dealt) -> list[str]:
    return [ROLE_NAMES[x] for x in dealt if x >= 0]


def roles_held(*held) -> str:
    return "+".join(ROLE_NAMES[x] for x in held if x >= 0)


def roles_not_chosen(first, second, third, held, also_held) -> list[str]:
    kept = roles_held(held, also_held).split("+")
    return [x for x in roles_dealt(first, second, third) if x not in kept]


def dealt_told(dealt) -> str:
    return ", ".join(dealt) or "a fixed role"


def no_effect_reason(card, threshold) -> str:
    return NO_EFFECT_REASONS[card].format(b=threshold)


def lifted_counts(*active) -> dict:
    """The temporary events lifted, by name: the four blockades' counts, then the Plague's."""
    counts = {BLOCKADE_NAMES[k]: n for k, n in enumerate(active[:4]) if n}
    if active[4]:
        counts["Plague"] = active[4]
    return counts


def any_lifted(*active) -> bool:
    return bool(lifted_counts(*active))


def lifted_told(counts) -> str:
    return ", ".join(f"{n} {name}" for name, n in counts.items())


def another_plague(active) -> bool:
    return active > 1


def roll_for(sailing) -> str:
    return "roll phase" if sailing == 0 else "expedition sails"


def nobody_loses_reason(card) -> str:
    if card == BANKRUPTCY_CARD:
        return "nobody has invested there"
    return "nobody has more than one investment there"


def outcome(success) -> str:
    return "success" if success else "failure"


def role_no_coins_reason(rule, c, d) -> str:
    return NO_COINS_REASONS.get(rule, "its coins are set to 0").format(c=c, d=d)


def price_told(price) -> str:
    return f" for {price}" if price >= 0 else f" receiving {-price}"


def none_if_negative(player):
    return player if player >= 0 else None


def emblem_change(before, holder) -> str:
    if before == holder:
        return "stays"
    return "discarded" if holder < 0 else "passes"


def emblem_stays(holder) -> str:
    return f"stays with P{holder}" if holder >= 0 else "stays unclaimed"


def game_ends(end_rule) -> str:
    if end_rule == "at_once":
        return "the game ends at once"
    return "the game ends once this action is resolved"


def winners_of(players, *scores) -> list[int]:
    scores = first(players, *scores)
    best = max(scores)
    return [p for p, v in enumerate(scores) if v == best]


def players_told(players) -> str:
    return ", ".join(f"P{p}" for p in players)


def truncation(truncated) -> str:
    return " (truncated at the turn limit)" if truncated else ""


def guild_told(slot):
    """The words naming the guild in slot ``slot``, with its number."""
    return {"numbered_guild": (numbered_guild, slot, "numbers")}


GUILD = (GUILD_NAMES, "a")  # the guild most rows name, in their slot a
CHOSEN_ACTION = {"action": (ACTION_NAMES, "b")}


def investment(sentence: str, end_turn: Event, first_fields=None, last_fields=None) -> Choose:
    """An investment-phase action (b) on what (c) for how much (d): its words fill
    ``sentence``'s ``{what}``, its fields come between ``first_fields`` and ``last_fields``;
    ``end_turn`` is ending the turn."""
    opening, closing = sentence.split("{what}")

    def told(what, fields, words):
        return Event(opening + what + closing,
                     {**(first_fields or {}), **fields, "arg": "c", "cost": "d",
                      **(last_fields or {})},
                     words={**words, "price": (price_told, "d")})

    on_guild = told("{action}: {numbered_guild}{price}",
                    {**CHOSEN_ACTION, "guild": (GUILD_NAMES, "c")}, guild_told("c"))
    on_treasure = told("{action}: {treasure}{price}",
                       {**CHOSEN_ACTION, "treasure": (TREASURE_NAMES, "c")}, {})
    return Choose("b", {INVEST_GUILD: on_guild, MERCENARY_MUTINY: on_guild,
                        EXCHANGE_WEALTH: on_treasure, CRAFTSMAN_SELL: on_treasure,
                        END_TURN: end_turn}, otherwise=told("{action}{price}", CHOSEN_ACTION, {}))


ROLE_NO_COINS_FIELDS = {"player": "a", "rule": (ROLE_REASONS, "b"),
                        "reason": (role_no_coins_reason, "b", "c", "d")}
EMBLEM_FIELDS = {"before": (none_if_negative, "a"), "holder": (none_if_negative, "b"),
                 "changed": (ne, "a", "b"),
                 "treasure_cards": (first, "players", "c", "d", "e", "f")}

EVENTS = {
    SETUP: Event("Setup: {a} players, {mode} mode, {c} victory points to win (end rule "
                 "{end_rule}), {d} coins each.",
                 {"players": "a", "mode": (MODE_NAMES, "b"), "target": "c",
                  "starting_coins": "d", "end_rule": (END_RULES, "e")}),
    SETUP_GUILD: Event("Setup: the {numbered_guild} is on the board.", {"guild": GUILD},
                       words=guild_told("a")),
    SET_ASIDE: Event("Set aside into the discard pile ({when}, {b} of {c}): {card}.",
                     {"card": (EVENT_NAMES, "a"), "number": "b", "of": "c", "reshuffle": "d"},
                     words={"when": (set_aside_when, "d")}),
    ROLES_DEALT: Event("Setup: P{a} is dealt {dealt_roles} and plays {role}.",
                       {"player": "a", "dealt": (roles_dealt, "b", "c", "d"),
                        "role": (roles_held, "e", "f"),
                        "not_chosen": (roles_not_chosen, "b", "c", "d", "e", "f")},
                       words={"dealt_roles": (dealt_told, "dealt")}),
    STARTING_PLOTS: Event("Setup: P{a} (Innkeeper) starts with {b} uncultivated plot(s); {c} "
                          "land card(s) left.", {"player": "a", "plots": "b", "land_deck": "c"}),
    TURN: Event("--- Turn {turn}: P{a} ---", {"player": "a", "turn": (numbered, "b")}),
    RESHUFFLE: Event("The event deck ran out: the discard pile's {a} cards are shuffled into a "
                     "new deck (reshuffle {b}).", {"deck": "a", "reshuffle": "b"}),
    NO_EVENT: Event("No event card is left to reveal."),
    REVEAL: Event("P{a} reveals {card}.", {"player": "a", "card": (EVENT_NAMES, "b")}),
    GOVERNOR_CHOICE: Event("P{a} (Governor) applies {applied} and puts {returned} back on top.",
                           {"player": "a", "applied": (EVENT_NAMES, "b"),
                            "returned": (EVENT_NAMES, "c")}),
    GUILD_FOUNDED: Event("The {numbered_guild} is founded.", {"guild": GUILD},
                         words=guild_told("a")),
    EVENT_COINS: Event("P{a} receives {b} coin(s) from {card} (now {d}).",
                       {"player": "a", "coins": "b", "card": (EVENT_NAMES, "c"), "purse": "d"}),
    EVENT_NO_EFFECT: Event("{card} changes nothing: {reason}.",
                           {"card": (EVENT_NAMES, "a"), "reason": (no_effect_reason, "a", "b")}),
    BLOCKADE_PLACED: Event("{blockade} placed: {b} active, blocking {guilds}.",
                           {"blockade": (BLOCKADE_NAMES, "a"), "active": "b"},
                           words={"guilds": (blockaded_guilds, "a", "numbers")}),
    BLOCKADES_DISCARDED: Event("The {b} {blockade} cards go to the discard pile.",
                               {"blockade": (BLOCKADE_NAMES, "a"), "cards": "b"}),
    NOT_ON_BOARD: Event("The {effect} of {cause} has no effect on the {numbered_guild}: it is not "
                        "on the board.", {"guild": GUILD, "effect": (EVENT_NAMES, "b"),
                                          "cause": (CAUSES, "c")},
                        words=guild_told("a")),
    BLOCKADES_LIFTED: Choose((any_lifted, "b", "c", "d", "e", "f"), {
        False: Event("No temporary event is active: {cause} lifts nothing.",
                     {"cause": (CAUSES, "a"), "lifted": (lifted_counts, "b", "c", "d", "e", "f")}),
        True: Event("All temporary events are lifted by {cause}: {listed}.",
                    {"cause": (CAUSES, "a"), "lifted": (lifted_counts, "b", "c", "d", "e", "f")},
                    words={"listed": (lifted_told, "lifted")})}),
    PLAGUE_PLACED: Choose((another_plague, "a"), {
        True: Event("Another Plague ({a} active): nothing more changes.", {"active": "a"}),
        False: Event("The Plague: only the Church and the Monastery pay.", {"active": "a"})}),
    PENDING: Event("{card} waits for the roll.", {"card": (EVENT_NAMES, "a")}),
    PENDING_NO_GUILD: Choose((missing, "c"), {
        True: Event("{card} on a roll of {b} has no effect: a 7 names no guild.",
                    {"card": (EVENT_NAMES, "a"), "roll": "b", "guild": fixed(None),
                     "reason": fixed("seven")}),
        False: Event("{card} on a roll of {b} has no effect: the {numbered_guild} is not on the "
                     "board.", {"card": (EVENT_NAMES, "a"), "roll": "b",
                                "guild": (GUILD_NAMES, "c"), "reason": fixed("not founded")},
                     words=guild_told("c"))}),
    EXPEDITION_NO_STAKES: Event("Nobody has invested in the expedition: no ship sails."),
    ROLL: Event("P{a} rolls {b} ({for}).", {"player": "a", "roll": "b", "for": (roll_for, "c")}),
    ROLL_PAYS_NOBODY: Choose("c", {0: Event(
        "The roll of {a} names the {numbered_guild}, which pays nobody: it is not on the board.",
        {"roll": "a", "guild": (GUILD_NAMES, "b"), "reason": fixed("not founded")},
        words=guild_told("b"))}, otherwise=Event(
        "The roll of {a} names the {numbered_guild}, which pays nobody: nobody has invested in "
        "it.", {"roll": "a", "guild": (GUILD_NAMES, "b"), "reason": fixed("no investments")},
        words=guild_told("b"))),
    INCOME: Event("P{a} collects {c} coin(s) from the {numbered_guild} (now {d}).",
                  {"player": "a", "guild": (GUILD_NAMES, "b"), "coins": "c", "purse": "d"},
                  words=guild_told("b")),
    BLOCKED: Event("The {numbered_guild} is blocked by {blocked_by}: P{b} collects nothing of "
                   "their {c} coin(s) there.",
                   {"guild": GUILD, "player": "b", "withheld": "c",
                    "blocked_by": (EVENT_NAMES, "d")}, words=guild_told("a")),
    MUTINY: Event("Mutiny in the {numbered_guild} (by {cause}).",
                  {"guild": GUILD, "cause": (CAUSES, "b")}, words=guild_told("a")),
    BANKRUPTCY: Event("Bankruptcy in the {numbered_guild} (by {cause}): all investments lost.",
                      {"guild": GUILD, "cause": (CAUSES, "b")}, words=guild_told("a")),
    NOBODY_LOSES: Event("The {card} in the {numbered_guild} takes nothing: {reason}.",
                        {"guild": GUILD, "card": (EVENT_NAMES, "b"),
                         "reason": (nobody_loses_reason, "b")}, words=guild_told("a")),
    LOST_INVESTMENTS: Event("P{a} loses {c} investment(s) in the {numbered_guild}.",
                            {"player": "a", "guild": (GUILD_NAMES, "b"), "lost": "c"},
                            words=guild_told("b")),
    EXPEDITION_SAILS: Event("The expedition sails with {a} stake(s); roll {b}: {outcome}. The "
                            "stakes go back to the reserve.",
                            {"stakes": "a", "roll": "b", "success": (bool, "c")},
                            words={"outcome": (outcome, "c")}),
    TREASURE_TAKEN: Event("P{a} takes a treasure ({treasure}); {c} left in the deck.",
                          {"player": "a", "treasure": (TREASURE_NAMES, "b"),
                           "treasure_deck": "c"}),
    TREASURE_DECK_EMPTY: Event("The treasure deck is empty: no treasure for the rest."),
    STOWAWAY_SNEAKS: Event("P{a} (Stowaway) sneaks on board for free ({b} stake(s) now).",
                           {"player": "a", "stakes": "b"}),
    STOWAWAY_STAYS: Event("P{a} (Stowaway) {reason} ({c} stake(s) on board).",
                          {"player": "a", "reason": (STOWAWAY_REASONS, "b"), "stakes": "c"}),
    INNS_DESTROYED: Event("P{a} has {b} inn(s) destroyed.", {"player": "a", "destroyed": "b"}),
    LANDS_LOST: Event("P{a} must give up {given} of {held} plot(s) ({d} cultivated, {e} "
                      "uncultivated) and chooses {b} cultivated and {c} uncultivated.",
                      {"player": "a", "cultivated": "b", "uncultivated": "c",
                       "held_cultivated": "d", "held_uncultivated": "e"},
                      words={"given": (add, "b", "c"), "held": (add, "d", "e")}),
    CULTIVATION_LOST: Event("P{a} loses the cultivation of a plot.", {"player": "a"}),
    TAX_PAID: Event("P{a} pays {b} coin(s) in tax (now {c}).",
                    {"player": "a", "tax": "b", "purse": "c"}),
    COLLECTION: Event("P{a} collects {b} for the turn and {c} from inns (now {d}).",
                      {"player": "a", "turn_coins": "b", "inn_coins": "c", "purse": "d"}),
    ROLE_COINS: Event("P{a} receives {b} coin(s): {reason} (now {d}).",
                      {"player": "a", "coins": "b", "reason": (ROLE_REASONS, "c"),
                       "purse": "d"}),
    ROLE_NO_COINS: Choose("b", {
        R_PEASANT: Event("P{a} receives nothing ({rule}): {reason}.",
                         {**ROLE_NO_COINS_FIELDS, "cultivated": "c", "rivals_cultivated": "d"}),
        R_STOWAWAY: Event("P{a} receives nothing ({rule}): {reason}.",
                          {**ROLE_NO_COINS_FIELDS, "stakes": "c", "needed": "d"})},
        otherwise=Event("P{a} receives nothing ({rule}): {reason}.", ROLE_NO_COINS_FIELDS)),
    # One of the legal options of an investment-phase decision (e: its index); ``tell`` joins
    # a decision's options into one ``options`` event.
    OPTION: investment("{what}", end_turn=Event("{action}", {**CHOSEN_ACTION, "arg": "c",
                                                             "cost": "d"})),
    ACTION: investment("P{a}: {what} (purse was {e}).", end_turn=Event(
        "P{a} ends the turn with {e} coin(s).",
        {"player": "a", **CHOSEN_ACTION, "arg": fixed(0), "cost": fixed(0), "purse_before": "e"}),
        first_fields={"player": "a"}, last_fields={"purse_before": "e"}),
    INN_BUILT: Event("P{a} builds the inn on {plot} (the plot goes back to the land deck); {c} "
                     "standing inn(s).", {"player": "a", "plot": (PLOT_NAMES, "b"), "inns": "c"}),
    EMBLEM: Choose((emblem_change, "a", "b"), {
        "stays": Event("Discoverer emblem check (treasure cards {treasure_cards}): it {where}.",
                       EMBLEM_FIELDS, words={"where": (emblem_stays, "b")}),
        "discarded": Event("The discoverer emblem is discarded (treasure cards "
                           "{treasure_cards}).", EMBLEM_FIELDS),
        "passes": Event("P{b} now holds the discoverer emblem (treasure cards "
                        "{treasure_cards}).", EMBLEM_FIELDS)}),
    TOP_INVESTOR: Choose((missing, "b"), {
        True: Event("The {numbered_guild} has no top investor.",
                    {"guild": GUILD, "holder": fixed(None)}, words=guild_told("a")),
        False: Event("P{b} is now top investor of the {numbered_guild}.",
                     {"guild": GUILD, "holder": "b"}, words=guild_told("a"))}),
    POINTS: Event("P{a} now has {c} victory point(s) ({gained:+d}).",
                  {"player": "a", "before": "b", "points": "c"},
                  words={"gained": (sub, "c", "b")}),
    TARGET_REACHED: Event("P{a} has reached {b} victory point(s) (target {c}): {then}.",
                          {"player": "a", "points": "b", "target": "c",
                           "end_rule": (END_RULES, "d")},
                          words={"then": (game_ends, "end_rule")}),
    GAME_END: Event("Game over{cut}. Victory points: {told}. Winner(s): {winners_told}.",
                    {"scores": (first, "a", "b", "c", "d", "e"),
                     "winners": (winners_of, "a", "b", "c", "d", "e"),
                     "truncated": (bool, "f")},
                    words={"cut": (truncation, "f"), "told": (each_player, "scores"),
                           "winners_told": (players_told, "winners")}),
}


def tell(log, famine_numbers: int = 0) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields.

    ``famine_numbers`` is the rules' choice of guild numbers, for the numbers in the text. The
    legal options of one investment-phase decision (rows from option 0, ending the turn) become
    one ``options`` event listing them all, followed by the ``action`` chosen.
    """
    numbers = GUILD_NUMBERS[famine_numbers]
    players = MAX_PLAYERS  # the emblem's treasure cards are told for the players of the game
    events = []
    for entry in trace.entries(log):
        code, row = story.row_of(entry)
        if code == SETUP:
            players = row["a"]
        text, fields = story.describe(EVENTS, code, {**row, "numbers": numbers,
                                                     "players": players})
        if code == OPTION:
            if row["e"] == 0:
                events.append({"kind": LOG_KINDS[code], "text": f"P{row['a']} may: {text}",
                               "player": row["a"], "options": []})
            else:
                events[-1]["text"] += f"; {text}"
            events[-1]["options"].append(fields)
            continue
        events.append({"kind": LOG_KINDS[code], "text": text, **fields})
    if trace.is_full(log):
        events.append(dict(story.LOG_FULL))
    return events
