"""GEMMiS replay: the log codes of ``codes.py`` read as a story.

``turn.py`` records (code, a, b, c, d, e, f) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story.
``EVENTS`` describes each code: its sentence and its fields (``simulator.core.story``).
The story is an omniscient referee's: it names every gem drawn from the sack, every decision with
the number of options it was taken from, and every rule that fired, including those that changed
nothing (a street with no gap to close, a combination left standing, a small gem kept).
Gems are logged as ``colour * 10 + printed value`` (``board.gem_code``), cells as ``row * 6 +
column`` (row 0 outer, row 1 inner), combinations as 12-bit masks of cells.
"""

from simulator.core import story
from simulator.core.story import Choose, Event, fixed, numbered
from simulator.games.gemmis.board import (
    CELLS, COLOUR_NAMES, COLUMNS, DIRECTION_NAMES, JOKER, MODE_NAMES, OWN_COLOUR, SKILL_NAMES,
    SWITCH_IN_ZONE,
)
from simulator.games.gemmis.codes import *  # every code: told here, and re-exported

# The decisions whose options are logged, in the order of the DECIDE_ codes.
DECISIONS = ("switch", "combination", "fill", "direction", "extra switch")

# Why gems were drawn into the street, in the order of the BY_ codes.
STREET_CAUSES = ("the first player opens the market", "refilling the street",
                 "the Alguazil cleans the street")

SETUPS = ("card", "dealt")


def gem_name(code: int) -> str:
    if code < 0:
        return "nothing"
    colour, value = divmod(code, 10)
    if colour == JOKER:
        return "joker"
    return COLOUR_NAMES[colour] + (f" {value}" if value else "")


def colour_name(colour: int) -> str:
    return "a colour of its own" if colour == OWN_COLOUR else COLOUR_NAMES[colour]


def cell_name(cell: int) -> str:
    row, column = divmod(cell, COLUMNS)
    return f"{'inner' if row else 'outer'} {column}"


def cells_of(mask: int) -> list[int]:
    return [c for c in range(CELLS) if mask >> c & 1]


def alert_state(level, top) -> str:
    return "available" if level >= top else "not available yet" if level > 0 else "not available"


def rose(level, before) -> bool:
    return level > before


def alert_change(level, before) -> str:
    return "rises to" if rose(level, before) else "stays at"


def switched_with(where) -> str:
    return "zone" if where == SWITCH_IN_ZONE else "street"


def switch_places(where, cell, other) -> str:
    if where == SWITCH_IN_ZONE:
        return f"{cell_name(cell)} with {cell_name(other)}"
    return f"{cell_name(cell)} with street place {other}"


def combination_kind(cascade) -> str:
    return "combination" if cascade == 0 else f"cascade combination {cascade}"


def cell_list(mask) -> str:
    return ", ".join(map(cell_name, cells_of(mask)))


def one_place_more(shift) -> str:
    return " and one place more" if shift else ""


SWITCH_FIELDS = {"player": "a", "with": (switched_with, "b"), "cell": "c", "other": "d",
                 "gem": (gem_name, "e"), "other_gem": (gem_name, "f")}
SWITCH_WORDS = {"places": (switch_places, "b", "c", "d")}
NO_COMBINATION_FIELDS = {"player": "a", "cascade": "b"}
ZONE_FILLED_FIELDS = {"player": "a", "cell": "b", "gem": (gem_name, "c")}

EVENTS = {
    SETUP: Event(
        "GEMMiS, {mode} mode: {b} chips in {c} colours, zones set up by the {setup}; the market "
        "closes at {e} points; the Alguazil is available at alert level {f}.",
        {"mode": (MODE_NAMES, "a"), "chips": "b", "colours": "c", "setup": (SETUPS, "d"),
         "closing_score": "e", "alguazil_available_level": "f"}),
    ZONE_GEM: Event("P{a}'s zone, {where}: {gem}.",
                    {"player": "a", "cell": "b", "gem": (gem_name, "c")},
                    words={"where": (cell_name, "b")}),
    SMALL_GEM_PLACED: Event("A small gem is placed on cell {a} of the score track.",
                            {"cell": "a"}),
    STREET_FILLED: Event("Street place {a}: {gem} from the sack ({cause}).",
                         {"place": "a", "gem": (gem_name, "b"), "cause": (STREET_CAUSES, "c")}),
    TURN: Event("--- Turn {turn}: P{a} (points P0={c} P1={d}) ---",
                {"player": "a", "turn": (numbered, "b"), "points": ("c", "d")}),
    SWITCH: Event("P{a} switches, {places} ({gem} <-> {other_gem}).",
                  {**SWITCH_FIELDS, "small_gem": fixed(False)}, words=SWITCH_WORDS),
    SMALL_GEM_SWITCH: Event(
        "P{a} spends a small gem: one more switch, {places} ({gem} <-> {other_gem}).",
        {**SWITCH_FIELDS, "small_gem": fixed(True)}, words=SWITCH_WORDS),
    NO_SWITCH: Event("P{a} has no two connected gems to switch.", {"player": "a"}),
    SMALL_GEM_KEPT: Event("P{a} keeps their small gem(s) ({b} unused).",
                          {"player": "a", "unused": "b"}),
    OPTIONS: Event("P{a} chooses the {decision}: option {option} of {c}.",
                   {"player": "a", "decision": (DECISIONS, "b"), "options": "c", "chosen": "d"},
                   words={"option": (numbered, "d")}),
    COMBINATION: Event(
        "P{a} triggers a {combination} of {b} gems ({where}): {c} points + {d} in printed values.",
        {"player": "a", "size": "b", "table_points": "c", "values": "d", "cells": (cells_of, "e"),
         "cascade": "f"},
        words={"combination": (combination_kind, "f"), "where": (cell_list, "e")}),
    JOKER_COLOUR: Event("P{a}'s joker at {where} is {colour}.",
                        {"player": "a", "cell": "b", "colour": (colour_name, "c")},
                        words={"where": (cell_name, "b")}),
    NO_COMBINATION: Choose("b", {0: Event("P{a} did not get a combination.",
                                          NO_COMBINATION_FIELDS)},
                           otherwise=Event("No cascade combination: P{a}'s turn ends.",
                                           NO_COMBINATION_FIELDS)),
    KEPT: Event("P{a} declares the jokers not to join: the {b} combination(s) they could make "
                "stay to be built on.", {"player": "a", "options": "b"}),
    LEFT_STANDING: Event("Advanced mode: P{a}'s cascade of {b} gems is not bigger than the last "
                         "({c}); it stays in the zone and the turn ends.",
                         {"player": "a", "size": "b", "last_size": "c"}),
    DEFERRED: Event("P{a}'s new combination of {b} gems waits for their next turn (cascades = "
                    "next_turn).", {"player": "a", "size": "b"}),
    ZONE_FILLED: Choose("d", {FROM_STREET: Event(
        "P{a} fills {where} with {gem} from street place {e}.",
        {**ZONE_FILLED_FIELDS, "from": fixed("street"), "place": "e"},
        words={"where": (cell_name, "b")})},
        otherwise=Event("P{a} fills {where} with {gem} from the sack.",
                        {**ZONE_FILLED_FIELDS, "from": fixed("sack"), "place": fixed(None)},
                        words={"where": (cell_name, "b")})),
    ZONE_SETTLED: Event("P{a}'s {gem} slides out from {origin} to {where}.",
                        {"player": "a", "from_cell": "b", "cell": "c", "gem": (gem_name, "d")},
                        words={"origin": (cell_name, "b"), "where": (cell_name, "c")}),
    ZONE_LEFT_EMPTY: Event("The market is closed and the street is empty: {b} place(s) of P{a}'s "
                           "zone stay empty.", {"player": "a", "cells": "b"}),
    DIRECTION: Event("P{a} moves the street {direction}.",
                     {"player": "a", "direction": (DIRECTION_NAMES, "b")}),
    STREET_MOVED: Event("The street's gems close its {c} gap(s) {direction}{shift}.",
                        {"direction": (DIRECTION_NAMES, "a"), "gaps": "c",
                         "shift_one": (bool, "b")},
                        words={"shift": (one_place_more, "b")}),
    STREET_STILL: Event("The street has no gap: it does not move."),
    STREET_CLOSED: Event("The market is closed: the street neither moves nor is refilled."),
    STREET_GEM_RETURNED: Event("The {gem} pushed off street place {b} goes back into the sack.",
                               {"gem": (gem_name, "a"), "place": "b"}),
    STREET_LEFT_EMPTY: Event("Street place {a} stays empty: no gem is left to draw.",
                             {"place": "a"}),
    SACK_REFILLED: Event("The sack is empty: the {a} gems used in combinations go back into it.",
                         {"gems": "a"}),
    SACK_EMPTY: Event("The sack is empty and no gem has been used in a combination yet."),
    POINTS: Event("P{a}'s marker moves from {b} to {c}.",
                  {"player": "a", "before": "b", "after": "c"}),
    SMALL_GEM_TAKEN: Event("P{a} takes the small gem on cell {b} ({c} held).",
                           {"player": "a", "cell": "b", "held": "c"}),
    # The kernel logs the level after the opponent's combination, also when it was at the top
    # already and stays there: the level before it (``AlertLevels``) tells a rise from a stay.
    ALERT: Event("P{a}'s Alguazil alert {change} level {b} ({state}).",
                 {"player": "a", "level": "b", "rose": (rose, "b", "before"),
                  "available_at": "c"},
                 words={"change": (alert_change, "b", "before"), "state": (alert_state, "b", "c")}),
    ALGUAZIL_USED: Event("P{a} uses the Alguazil: {skill}.",
                         {"player": "a", "skill": (SKILL_NAMES, "b")}),
    ALERT_AFTER_SKILL: Event("P{a}'s Alguazil alert drops to level {b} ({state}).",
                             {"player": "a", "level": "b", "available_at": "c"},
                             words={"state": (alert_state, "b", "c")}),
    ALGUAZIL_CANCELLED: Event("P{a}'s Alguazil cancels it ({skill}).",
                              {"player": "a", "skill": (SKILL_NAMES, "b")}),
    INTERRUPTED: Event("P{a}'s combination of {b} gems is interrupted: it stays for their next "
                       "turn, and the turn ends.", {"player": "a", "size": "b"}),
    STREET_CLEANED: Event("P{a}'s Alguazil clears the street: {b} gems are put beside the board.",
                          {"player": "a", "gems": "b"}),
    ASIDE_RETURNED: Event("The {a} gems put beside the board go back into the sack.",
                          {"gems": "a"}),
    DIRECTION_CHANGED: Event("P{a}'s Alguazil turns the street round: it moves {direction}.",
                             {"player": "a", "direction": (DIRECTION_NAMES, "b")}),
    MARKET_CLOSED: Event("P{a} reaches {b} points: the market closes; {c} more turn(s) to play.",
                         {"player": "a", "points": "b", "final_turns": "c"}),
    LAST_TURN: Event("P{a} plays a last turn (the market is closed).", {"player": "a"}),
    PENALTY: Event("Advanced mode: P{a} loses the {b} points printed on the gems left in the "
                   "zone.", {"player": "a", "values": "b"}),
    SMALL_GEM_POINTS: Event("P{a}'s {b} unused small gem(s) score {c} points.",
                            {"player": "a", "unused": "b", "points": "c"}),
    CASCADE_LIMIT: Event("P{a}'s turn has triggered {b} combinations, the cascade_limit: the turn "
                         "ends, and a combination still standing waits for their next switch.",
                         {"player": "a", "combinations": "b"}),
    TRUNCATED: Event("The game reaches the {a}-turn limit and is cut short.", {"turns": "a"}),
    GAME_END: Event("Game over. Scores: P0={a} P1={b}; small gems: P0={c} P1={d}.",
                    {"scores": ("a", "b"), "small_gems": ("c", "d")}),
}


class AlertLevels:
    """Each player's Alguazil alert level as the story goes: a row's ``before`` is the level of
    its player before it. They start at the lowest level, 0; the kernel logs the level after
    each of the opponent's combinations and the level a skill leaves."""

    def __init__(self):
        self.levels = [0, 0]

    def __call__(self, code, row) -> dict:
        if code not in (ALERT, ALERT_AFTER_SKILL):
            return {}
        before, self.levels[row["a"]] = self.levels[row["a"]], row["b"]
        return {"before": before}


def tell(log) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields."""
    return story.tell(log, EVENTS, LOG_KINDS, running=AlertLevels())
