"""El Grande replay: the log codes of ``codes.py`` read as a story.

``turn.py`` and ``effects.py`` record (code, a, b, c, d, e, f) rows with
``simulator.core.trace.record``; ``tell`` turns them into events (dicts for ``--format jsonl``)
with a sentence each for the text story. The story is an omniscient referee's: it names every
card turned up, every power card, every placement, move and return with the counts it leaves,
every decision with the number of options it was taken from, every secret choice as it is
revealed, every scoring place by place, and every rule that fired without effect.
"""

from simulator.core import trace
from simulator.games.elgrande.board import CARD_KEYS, REGION_NAMES
from simulator.games.elgrande.codes import *  # every code: told here, and re-exported

# The decisions whose options are logged, in the order of the DECIDE_ codes.
DECISIONS = ("power card", "action card", "placement", "move", "place", "veto", "take back",
             "alternative", "free move", "limit table space", "held card",
             "Grand Inquisitor's extra Caballero")

# What a secret choice or a chosen place is for, in the order of the SECRET_ codes.
PURPOSES = ("the scoring disc", "return 2", "return all", "destination", "unique region",
            "two Caballeros at setup")
TOKENS = ("Ware", "Gold")
SPACES = {9: ("ambassador", "envoy"), 10: ("Captain",), 11: ("Viceroy",)}
HELD = ("execute action card", "copycat", "free choice")
SCORING_KINDS = ("general scoring", "special scoring")

# Why nothing happened, in the order of the NO_EFFECT reason codes.
WHY = ("no Caballero to move", "nowhere to go", "nothing to return", "no region qualifies",
       "no power card to take back", "no mobile scoreboard may move", "the King stays",
       "the Grande stays", "the provinces are empty", "the supply is empty",
       "the limit table stays in the King's region", "no card to execute")


def place_name(g: int) -> str:
    if g == COURT:
        return "the court"
    if g == PROVINCES:
        return "the provinces"
    if g < 0:
        return "nowhere"
    return REGION_NAMES[g]


def card_name(card: int) -> str:
    return CARD_KEYS[card].replace("_", " ")


def _p(p: int) -> str:
    return "black" if p == 5 else f"P{p}"


def _colour(c: int):
    """A colour for the structured fields: the player's number, or "black"."""
    return "black" if c == 5 else c


def _describe(code, a, b, c, d, e, f) -> tuple[str, dict]:
    if code == SETUP:
        return (f"El Grande, {a} players: the King in {place_name(b)}.",
                {"players": a, "king": place_name(b)})
    if code == HOME:
        return (f"{_p(a)}'s home region: {place_name(b)} (Grande and {c} Caballeros there, {d} "
                f"in the court, {e} in the provinces).",
                {"player": a, "home": place_name(b), "home_caballeros": c, "court": d,
                 "provinces": e})
    if code == ROUND:
        return f"=== Round {a} ===", {"round": a}
    if code == CARD_UP:
        return f"Stack {a + 1} turns up {card_name(b)}.", {"stack": a + 1, "card": CARD_KEYS[b]}
    if code == STACK_EMPTY:
        return f"Stack {a + 1} is empty.", {"stack": a + 1}
    if code == POWER_CARD:
        return (f"{_p(a)} plays power card {b}.", {"player": a, "power": b})
    if code == POWER_CLASH:
        return (f"{_p(a)} has only values already played: plays {b} and acts after its first "
                "player.", {"player": a, "power": b})
    if code == TURN_ORDER:
        order = [(a >> (4 * i)) & 0xF for i in range(b)]
        return ("Turn order: " + ", ".join(map(_p, order)) + f"; {_p(c)} starts the next round's "
                "card play.", {"order": order, "next_starter": c})
    if code == TO_COURT:
        return (f"{_p(a)} moves {b} Caballero(s) from the provinces to the court (court {c}, "
                f"provinces {d}).", {"player": a, "caballeros": b, "court": c, "provinces": d})
    if code == TURN:
        return (f"--- {_p(a)}'s turn (score {b}, court {c}) ---",
                {"player": a, "score": b, "court": c})
    if code == CARD_TAKEN:
        when = ("special action first", "placement first", "no special action")[c]
        return (f"{_p(a)} takes {card_name(b)} (stack {d + 1}): {when}.",
                {"player": a, "card": CARD_KEYS[b], "stack": d + 1, "order": when})
    if code == PLACED:  # e: 1 from the provinces (the expansion's setup), d then what is left
        if e:
            return (f"{_p(a)} places a Caballero from the provinces in {place_name(b)} ({c} "
                    f"there, provinces {d}).", {"player": a, "place": place_name(b), "there": c,
                                               "from": "the provinces", "provinces": d})
        return (f"{_p(a)} places a Caballero from the court in {place_name(b)} ({c} there, "
                f"court {d}).", {"player": a, "place": place_name(b), "there": c,
                                 "from": "the court", "court": d})
    if code == MOVED:
        return (f"{_p(d)} moves a Caballero of {_p(a)} from {place_name(b)} to {place_name(c)} "
                f"({e} left, {f} there).", {"owner": a, "from": place_name(b),
                                            "to": place_name(c), "by": d, "left": e, "there": f})
    if code == RETURNED:
        return (f"A Caballero of {_p(a)} goes back from {place_name(b)} to the provinces "
                f"({c} left there).", {"owner": a, "from": place_name(b), "left": c})
    if code == SPECIAL:  # c: 1 for a Copycat's, outside its player's turn
        return (f"{_p(a)} carries out {card_name(b)}" + (" (Copycat: not in its turn)." if c
                                                         else "."),
                {"player": a, "card": CARD_KEYS[b], "copycat": bool(c)})
    if code == SPECIAL_DECLINED:
        return (f"{_p(a)} does not use the special action of {card_name(b)}.",
                {"player": a, "card": CARD_KEYS[b]})
    if code == VETO_HELD:
        return (f"{_p(a)} holds a Veto ({b} held).", {"player": a, "vetoes": b})
    if code == VETOED:
        return (f"{_p(a)} plays a Veto: {_p(b)}'s {card_name(c)} is cancelled.",
                {"player": a, "cancelled": b, "card": CARD_KEYS[c]})
    if code == SCORING:
        return (f"{SCORING_KINDS[a].capitalize()} of {place_name(b)}"
                + (" (first places only)" if c else "") + ".",
                {"scoring": SCORING_KINDS[a], "place": place_name(b), "first_only": bool(c)})
    if code == PLACE_SCORED:
        return (f"{place_name(a)}: {_p(b)} with {c} Caballero(s) takes place {d + 1} for {e} "
                f"points (score {f}).", {"place": place_name(a), "player": b, "caballeros": c,
                                         "rank": d + 1, "points": e, "score": f})
    if code == BONUS:
        what = ("King's", "Grande")[c]
        return (f"{place_name(a)}: {_p(b)} scores the {what} bonus, {d} points (score {e}).",
                {"place": place_name(a), "player": b, "bonus": what.lower().rstrip("'s"),
                 "points": d, "score": e})
    if code == NOBODY_SCORES:
        return f"{place_name(a)}: no Caballero there, nobody scores.", {"place": place_name(a)}
    if code == KING_MOVED:
        return (f"The King moves from {place_name(a)} to {place_name(b)}.",
                {"from": place_name(a), "to": place_name(b)})
    if code == GRANDE_MOVED:
        return (f"{_p(a)}'s Grande moves from {place_name(b)} to {place_name(c)}.",
                {"player": a, "from": place_name(b), "to": place_name(c)})
    if code == SCOREBOARD_MOVED:
        return (f"Mobile scoreboard {a + 1} goes from {place_name(b)} to {place_name(c)}.",
                {"scoreboard": a + 1, "from": place_name(b), "to": place_name(c)})
    if code == SECRET_CHOICE:
        return (f"{_p(a)} reveals {place_name(b)} ({PURPOSES[c]}).",
                {"player": a, "place": place_name(b), "purpose": PURPOSES[c]})
    if code == CASTILLO_EMPTIED:
        return (f"{_p(a)} moves {b} Caballero(s) from the Castillo to {place_name(c)}.",
                {"player": a, "caballeros": b, "to": place_name(c)})
    if code == DISCARDED:
        return f"Unused {card_name(a)} is discarded.", {"card": CARD_KEYS[a]}
    if code == POWER_TAKEN_BACK:
        return f"{_p(a)} takes back power card {b}.", {"player": a, "power": b}
    if code == DECISION:
        text = f"{_p(a)} decides the {DECISIONS[b]}: option {d + 1} of {c}"
        fields = {"player": a, "decision": DECISIONS[b], "options": c, "chosen": d}
        if b == DECIDE_FREE_MOVE:  # e: the destination (-1: the Caballero stays)
            fields["destination"] = None if e < 0 else place_name(e)
            return f"{text} ({'stay' if e < 0 else place_name(e)}).", fields
        if b == DECIDE_TABLE_SPACE:  # e: the colour going onto the space
            fields["colour"] = _colour(e)
            return f"{text} (a Caballero of {_p(e)}).", fields
        if b == DECIDE_HELD_CARD:  # e: the kept card; f: the card it would carry out (-1: none)
            fields["card"] = HELD[e]
            fields["on"] = CARD_KEYS[f] if f >= 0 else None
            if e == 0:  # Execute Action Card: option 0 keeps it, the others name a face-up card
                what = f"carry out {card_name(f)}" if d else "keep it"
            else:  # Copycat: option 1 copies the special action just carried out
                what = f"copy {card_name(f)}" if d else f"not copy {card_name(f)}"
            return f"{text}: {HELD[e]}, {what}.", fields
        return f"{text}.", fields
    if code == NO_EFFECT:
        return (f"{_p(a)}'s {card_name(b)}: {WHY[c]}.",
                {"player": a, "card": CARD_KEYS[b], "why": WHY[c]})
    if code == BLACK_PLACED:
        return (f"{b} black Caballero(s) of the Grand Inquisitor in {place_name(a)}.",
                {"place": place_name(a), "caballeros": b})
    if code == TABLE_PLACED:
        return (f"The limit table ({c} spaces) goes from {place_name(a)} to {place_name(b)} "
                f"({d} Caballero(s) on it).", {"from": place_name(a), "to": place_name(b),
                                               "spaces": c, "on_table": d})
    if code == BLACK_STAY:
        return (f"{b} black Caballero(s) stay in the Castillo: {_p(a)}, the Grand Inquisitor's "
                "holder, named the King's region, and black Caballeros never go to a court.",
                {"player": a, "caballeros": b})
    if code == TABLE_FILLED:
        return (f"{_p(b)} puts a Caballero of {_p(a)} on the limit table in {place_name(c)} "
                f"({d} of its colour on it).", {"colour": _colour(a), "by": _colour(b),
                                                "place": place_name(c), "on_table": d})
    if code == INQUISITOR_TAKEN:
        return (f"{_p(a)} takes the Grand Inquisitor card" + (f" from {_p(b)}." if b >= 0 else ".")
                , {"player": a, "from": b})
    if code == EXTRA_CABALLERO:
        how = ("places one more Caballero", "takes one more Caballero to the court")[b]
        return (f"{_p(a)}, the Grand Inquisitor's holder, {how} this round.",
                {"player": a, "extra": ("placement", "court")[b]})
    if code == TOKENS_LAID:
        return (f"{b} {TOKENS[a]} token(s) laid in {place_name(c)} ({d} lying there, {e} in "
                "the supply).", {"token": TOKENS[a], "laid": b, "place": place_name(c),
                                 "lying": d, "supply": e})
    if code == TOKEN_TAKEN:
        return (f"{d} Caballero(s) of {_p(a)} take {TOKENS[b]} in "
                f"{place_name(c)} ({e} left lying).", {"colour": _colour(a), "token": TOKENS[b],
                                                       "place": place_name(c), "taken": d,
                                                       "lying": e})
    if code == TOKEN_HOME:
        return (f"A Caballero of {_p(a)} brings {TOKENS[b]} to {place_name(c)}: {d} points "
                f"(score {e}).", {"colour": _colour(a), "token": TOKENS[b],
                                  "place": place_name(c), "points": d, "score": e})
    if code == TOKEN_LOST:
        return (f"A Caballero of {_p(a)} goes to {place_name(c)}: its {TOKENS[b]} is lost to the "
                "supply.", {"colour": _colour(a), "token": TOKENS[b], "to": place_name(c)})
    if code == SPACE_SCORED:
        space = SPACES[a][c]
        return (f"{place_name(a)}: {_p(b)} on the {space}'s space scores {d} points (score {e}).",
                {"place": place_name(a), "player": b, "space": space, "points": d, "score": e})
    if code == CARD_HELD:
        return f"{_p(a)} keeps {HELD[b]} for later.", {"player": a, "card": HELD[b]}
    if code == HELD_CARD_USED:
        return (f"{_p(a)} uses {HELD[b]}" + (f" on {card_name(c)}." if c >= 0 else "."),
                {"player": a, "card": HELD[b], "on": CARD_KEYS[c] if c >= 0 else None})
    if code == FREE_MOVE:  # MOVED's row: colour, from, to, by, left, there
        return (f"{_p(d)} moves a Caballero of {_p(a)} from {place_name(b)} to {place_name(c)} "
                f"as a free move, no action ({e} left, {f} there).",
                {"player": d, "colour": _colour(a), "from": place_name(b), "to": place_name(c),
                 "left": e, "there": f})
    if code == SETUP_CABALLEROS:
        return (f"{_p(a)} takes {b} more Caballeros into the provinces (provinces {c}).",
                {"player": a, "caballeros": b, "provinces": c})
    if code == COPYCAT_ACTION:
        return (f"--- {_p(a)}'s Copycat action after {_p(b)}'s turn: {card_name(c)} (not a turn "
                f"of {_p(a)}'s) ---", {"player": a, "after": b, "card": CARD_KEYS[c]})
    if code == TABLE_MOVE:
        there = ("beside the table", "on the table")
        how = ("takes a Caballero of {} off the limit table in {}: it stays beside it",
               "puts a Caballero of {} beside the limit table in {} onto a free space")[d]
        return (f"{_p(a)} " + how.format(_p(b), place_name(c)) + f" ({e} of its colour on "
                "it; one movement).", {"player": a, "colour": _colour(b), "place": place_name(c),
                                       "from": there[1 - d], "to": there[d], "on_table": e})
    if code == TRUNCATED:
        return "The game is cut short.", {}
    if code == GAME_END:
        scores = [b, c, d, e, f][:a]
        return ("Game over. Final scores: " + " ".join(f"P{i}={v}" for i, v in enumerate(scores))
                + ".", {"scores": scores})
    raise ValueError(f"unknown log code {code}")


def tell(log) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields."""
    return trace.tell(log, _describe, LOG_KINDS)

