"""What every game's replay tells the same way: who sits where, and how the game ended.

A game's own story (its ``tell``) says what happened; the core opens it with a ``seating`` event
(the strategy in each seat) and completes its last event, ``game_end``, with the result as the
dataset records it: each seat's rank, the winners and their win shares, the role each held.
"""

from __future__ import annotations


def _values(column) -> list:
    """A seat column (numpy or pyarrow) as plain Python values, None where missing."""
    if hasattr(column, "to_pylist"):
        return column.to_pylist()
    return [v.item() if hasattr(v, "item") else v for v in column]


def told_with_seats_and_result(events: list[dict], columns: dict) -> list[dict]:
    """``events`` of one game opened by its seating and closed by its result; ``columns`` are
    the game's seat columns for that game (``Game.seat_columns``: strategy, role, score, rank,
    winner, ...), one entry per seat."""
    strategies = _values(columns["strategy"])
    roles = _values(columns["role"])
    ranks = [int(r) for r in _values(columns["rank"])]
    winners = [p for p, w in enumerate(_values(columns["winner"])) if w]
    shares = [1 / len(winners) if p in winners else 0.0 for p in range(len(ranks))]
    seating = {"kind": "seating",
               "text": "Seats: " + ", ".join(f"P{p} {s}" for p, s in enumerate(strategies))
                       + ".",
               "strategies": strategies}
    end = dict(events[-1])
    if end.get("kind") != "game_end":
        raise ValueError(f"a replay must end with game_end, not {end.get('kind')!r}")
    order = sorted(range(len(ranks)), key=lambda p: (ranks[p], p))
    end["text"] += " Result: " + ", ".join(f"P{p} rank {ranks[p]}" for p in order)
    if any(r is not None for r in roles):
        end["text"] += "; roles held: " + ", ".join(f"P{p} {r}" for p, r in enumerate(roles)
                                                    if r is not None)
    end["text"] += "."
    end.update(ranks=ranks, winners=winners, win_shares=shares, roles=roles)
    return [seating] + events[:-1] + [end]
