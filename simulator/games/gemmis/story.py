"""GEMMiS replay: the log codes of ``codes.py`` read as a story.

``turn.py`` records (code, a, b, c, d, e, f) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story.
The story is an omniscient referee's: it names every gem drawn from the sack, every decision with
the number of options it was taken from, and every rule that fired, including those that changed
nothing (a street with no gap to close, a combination left standing, a small gem kept).
Gems are logged as ``colour * 10 + printed value`` (``board.gem_code``), cells as ``row * 6 +
column`` (row 0 outer, row 1 inner), combinations as 12-bit masks of cells.
"""

from simulator.core import trace
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


def _alert_state(level, top) -> str:
    return "available" if level >= top else "not available yet" if level > 0 else "not available"


def _alert(player, level, top, before) -> tuple[str, dict]:
    """The alert after the opponent's combination. The kernel logs the level after it, also
    when it was at the top already and stays there."""
    state = _alert_state(level, top)
    how = "rises to" if level > before else "stays at"
    return (f"P{player}'s Alguazil alert {how} level {level} ({state}).",
            {"player": player, "level": level, "rose": level > before, "available_at": top})


def _describe(code, a, b, c, d, e, f) -> tuple[str, dict]:
    if code == SETUP:
        return (f"GEMMiS, {MODE_NAMES[a]} mode: {b} chips in {c} colours, zones set up by the "
                f"{SETUPS[d]}; the market closes at {e} points; the Alguazil is available at "
                f"alert level {f}.",
                {"mode": MODE_NAMES[a], "chips": b, "colours": c, "setup": SETUPS[d],
                 "closing_score": e, "alguazil_available_level": f})
    if code == ZONE_GEM:
        return (f"P{a}'s zone, {cell_name(b)}: {gem_name(c)}.",
                {"player": a, "cell": b, "gem": gem_name(c)})
    if code == SMALL_GEM_PLACED:
        return f"A small gem is placed on cell {a} of the score track.", {"cell": a}
    if code == STREET_FILLED:
        return (f"Street place {a}: {gem_name(b)} from the sack ({STREET_CAUSES[c]}).",
                {"place": a, "gem": gem_name(b), "cause": STREET_CAUSES[c]})
    if code == TURN:
        return (f"--- Turn {b + 1}: P{a} (points P0={c} P1={d}) ---",
                {"player": a, "turn": b + 1, "points": [c, d]})
    if code in (SWITCH, SMALL_GEM_SWITCH):
        extra = code == SMALL_GEM_SWITCH
        where = (f"{cell_name(c)} with {cell_name(d)}" if b == SWITCH_IN_ZONE
                 else f"{cell_name(c)} with street place {d}")
        fields = {"player": a, "with": "zone" if b == SWITCH_IN_ZONE else "street",
                  "cell": c, "other": d, "gem": gem_name(e), "other_gem": gem_name(f),
                  "small_gem": extra}
        lead = f"P{a} spends a small gem: one more switch" if extra else f"P{a} switches"
        return f"{lead}, {where} ({gem_name(e)} <-> {gem_name(f)}).", fields
    if code == NO_SWITCH:
        return f"P{a} has no two connected gems to switch.", {"player": a}
    if code == SMALL_GEM_KEPT:
        return (f"P{a} keeps their small gem(s) ({b} unused).", {"player": a, "unused": b})
    if code == OPTIONS:
        return (f"P{a} chooses the {DECISIONS[b]}: option {d + 1} of {c}.",
                {"player": a, "decision": DECISIONS[b], "options": c, "chosen": d})
    if code == COMBINATION:
        kind = "combination" if f == 0 else f"cascade combination {f}"
        return (f"P{a} triggers a {kind} of {b} gems ({', '.join(map(cell_name, cells_of(e)))}): "
                f"{c} points + {d} in printed values.",
                {"player": a, "size": b, "table_points": c, "values": d, "cells": cells_of(e),
                 "cascade": f})
    if code == JOKER_COLOUR:
        return (f"P{a}'s joker at {cell_name(b)} is {colour_name(c)}.",
                {"player": a, "cell": b, "colour": colour_name(c)})
    if code == NO_COMBINATION:
        text = "P{a} did not get a combination." if b == 0 else "No cascade combination: P{a}'s turn ends."
        return text.format(a=a), {"player": a, "cascade": b}
    if code == KEPT:
        return (f"P{a} declares the jokers not to join: the {b} combination(s) they could make stay "
                "to be built on.", {"player": a, "options": b})
    if code == LEFT_STANDING:
        return (f"Advanced mode: P{a}'s cascade of {b} gems is not bigger than the last ({c}); it "
                "stays in the zone and the turn ends.", {"player": a, "size": b, "last_size": c})
    if code == DEFERRED:
        return (f"P{a}'s new combination of {b} gems waits for their next turn (cascades = "
                "next_turn).", {"player": a, "size": b})
    if code == ZONE_FILLED:
        source = f"street place {e}" if d == FROM_STREET else "the sack"
        return (f"P{a} fills {cell_name(b)} with {gem_name(c)} from {source}.",
                {"player": a, "cell": b, "gem": gem_name(c), "from": "street" if d == FROM_STREET
                 else "sack", "place": e if d == FROM_STREET else None})
    if code == ZONE_SETTLED:
        return (f"P{a}'s {gem_name(d)} slides out from {cell_name(b)} to {cell_name(c)}.",
                {"player": a, "from_cell": b, "cell": c, "gem": gem_name(d)})
    if code == ZONE_LEFT_EMPTY:
        return (f"The market is closed and the street is empty: {b} place(s) of P{a}'s zone stay "
                "empty.", {"player": a, "cells": b})
    if code == DIRECTION:
        return (f"P{a} moves the street {DIRECTION_NAMES[b]}.", {"player": a,
                                                                  "direction": DIRECTION_NAMES[b]})
    if code == STREET_MOVED:
        shift = " and one place more" if b else ""
        return (f"The street's gems close its {c} gap(s) {DIRECTION_NAMES[a]}{shift}.",
                {"direction": DIRECTION_NAMES[a], "gaps": c, "shift_one": bool(b)})
    if code == STREET_STILL:
        return "The street has no gap: it does not move.", {}
    if code == STREET_CLOSED:
        return "The market is closed: the street neither moves nor is refilled.", {}
    if code == STREET_GEM_RETURNED:
        return (f"The {gem_name(a)} pushed off street place {b} goes back into the sack.",
                {"gem": gem_name(a), "place": b})
    if code == STREET_LEFT_EMPTY:
        return (f"Street place {a} stays empty: no gem is left to draw.", {"place": a})
    if code == SACK_REFILLED:
        return (f"The sack is empty: the {a} gems used in combinations go back into it.", {"gems": a})
    if code == SACK_EMPTY:
        return "The sack is empty and no gem has been used in a combination yet.", {}
    if code == POINTS:
        return f"P{a}'s marker moves from {b} to {c}.", {"player": a, "before": b, "after": c}
    if code == SMALL_GEM_TAKEN:
        return (f"P{a} takes the small gem on cell {b} ({c} held).",
                {"player": a, "cell": b, "held": c})
    if code == ALGUAZIL_USED:
        return (f"P{a} uses the Alguazil: {SKILL_NAMES[b]}.", {"player": a, "skill": SKILL_NAMES[b]})
    if code == ALERT_AFTER_SKILL:
        return (f"P{a}'s Alguazil alert drops to level {b} ({_alert_state(b, c)}).",
                {"player": a, "level": b, "available_at": c})
    if code == ALGUAZIL_CANCELLED:
        return (f"P{a}'s Alguazil cancels it ({SKILL_NAMES[b]}).", {"player": a,
                                                                      "skill": SKILL_NAMES[b]})
    if code == INTERRUPTED:
        return (f"P{a}'s combination of {b} gems is interrupted: it stays for their next turn, and "
                "the turn ends.", {"player": a, "size": b})
    if code == STREET_CLEANED:
        return (f"P{a}'s Alguazil clears the street: {b} gems are put beside the board.",
                {"player": a, "gems": b})
    if code == ASIDE_RETURNED:
        return f"The {a} gems put beside the board go back into the sack.", {"gems": a}
    if code == DIRECTION_CHANGED:
        return (f"P{a}'s Alguazil turns the street round: it moves {DIRECTION_NAMES[b]}.",
                {"player": a, "direction": DIRECTION_NAMES[b]})
    if code == MARKET_CLOSED:
        return (f"P{a} reaches {b} points: the market closes; {c} more turn(s) to play.",
                {"player": a, "points": b, "final_turns": c})
    if code == LAST_TURN:
        return f"P{a} plays a last turn (the market is closed).", {"player": a}
    if code == PENALTY:
        return (f"Advanced mode: P{a} loses the {b} points printed on the gems left in the zone.",
                {"player": a, "values": b})
    if code == SMALL_GEM_POINTS:
        return (f"P{a}'s {b} unused small gem(s) score {c} points.",
                {"player": a, "unused": b, "points": c})
    if code == CASCADE_LIMIT:
        return (f"P{a}'s turn has triggered {b} combinations, the cascade_limit: the turn ends, and "
                "a combination still standing waits for their next switch.",
                {"player": a, "combinations": b})
    if code == TRUNCATED:
        return f"The game reaches the {a}-turn limit and is cut short.", {"turns": a}
    if code == GAME_END:
        return (f"Game over. Scores: P0={a} P1={b}; small gems: P0={c} P1={d}.",
                {"scores": [a, b], "small_gems": [c, d]})
    raise ValueError(f"unknown log code {code}")


def tell(log) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields.

    The alert levels are followed, for telling a rise from a stay at the top: the kernel logs
    the level after each of the opponent's combinations, also when it stays at the top."""
    # They start at the lowest level, 0; the kernel logs the level a skill leaves too.
    alerts = [0, 0]

    def describe(code, a, b, c, d, e, f):
        if code == ALERT:
            before, alerts[a] = alerts[a], b
            return _alert(a, b, c, before)
        if code == ALERT_AFTER_SKILL:
            alerts[a] = b
        return _describe(code, a, b, c, d, e, f)

    return trace.tell(log, describe, LOG_KINDS)
