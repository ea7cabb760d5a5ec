"""Which strategy plays which seat: a balanced design, so seat and strategy confound nothing.

A run's mix is a list of ``k`` strategies (its entries are the mix slots). The design is every
arrangement of the mix at an ``n``-seat table in which the slots are as evenly represented as the
table allows: each slot sits ``n // k`` or ``n // k + 1`` times (``n mod k`` of them once more).
With ``k >= n`` that is every ordered choice of ``n`` different slots; with ``k < n`` every table
holds every strategy, and every way of giving the spare seats to strategies occurs. Over one
cycle of the design, every strategy sits in every seat equally often and every ordered
combination of strategies at the table occurs equally often (once).

The rows are grouped in blocks of ``k``: an arrangement whose seat 0 holds slot 0, then the same
arrangement with every slot shifted by 1, 2, ... ``k - 1`` (mod ``k``). Each block therefore
seats every strategy in every seat exactly once, so even a run shorter than a cycle is balanced
seat by seat after every ``k`` games; the first block is the plain rotation (seat ``s`` of game
``i`` plays ``mix[(s + i) mod k]``).

Game ``i`` plays row ``i mod L`` (``L`` = rows in the design): a pure function of the game index
and the mix, so a game's table never depends on thread count, chunk size or backend.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from simulator.core.errors import UsageError
from simulator.core.jit import compiled
from simulator.core.search import attach_marker

MAX_ARRANGEMENTS = 1_000_000  # 5 seats from a mix of 14 strategies is 240,240


def design_size(k: int, n: int) -> int:
    """How many arrangements the design of a ``k``-strategy mix at ``n`` seats has."""
    base, extra = divmod(n, k)
    per_composition = math.factorial(n) // (math.factorial(base + 1) ** extra *
                                            math.factorial(base) ** (k - extra))
    return math.comb(k, extra) * per_composition


def seat_design(k: int, n: int) -> np.ndarray:
    """The design's rows (``L`` x ``n`` mix slots), in the block order described above."""
    size = design_size(k, n)
    if size > MAX_ARRANGEMENTS:
        raise UsageError(f"--strategies: a mix of {k} strategies at {n} seats has {size:,} "
                         f"arrangements; at most {MAX_ARRANGEMENTS:,} are supported (use fewer "
                         "strategies)")
    base, extra = divmod(n, k)
    if k >= n:
        starts = (a for a in itertools.permutations(range(k), n) if a[0] == 0)
    else:
        def even(a):
            counts = np.bincount(a, minlength=k)
            return counts.min() >= base and counts.max() <= base + 1
        starts = (a for a in itertools.product(range(k), repeat=n) if a[0] == 0 and even(a))
    rows = [[(slot + shift) % k for slot in start] for start in starts for shift in range(k)]
    design = np.array(rows, dtype=np.int64).reshape(-1, n)
    assert design.shape[0] == size
    return design


def describe_design(k: int, n: int) -> dict:
    """The design as recorded in a run's manifest."""
    return {
        "kind": "balanced",
        "rule": "game i plays arrangement i mod L of the design: every arrangement of the mix at "
                "the table with each strategy as evenly represented as the table allows, grouped "
                "in blocks of len(mix) arrangements that each seat every strategy in every seat "
                "once",
        "mix_length": k,
        "seats": n,
        "arrangements": design_size(k, n),
        "seats_per_strategy": [n // k, n // k + (1 if n % k else 0)],
    }


@compiled
def seat_plans(game_index, n_players, max_players, seatings, mix_ids, mix_weights, searching):
    """The strategies of game ``game_index``'s seats, from its row of the design.

    Returns the seats' strategy ids and weight rows (``plans``, what every decision reads:
    searching plans when ``searching`` is the marker of ``core/search.py``, heuristic plans when
    it is None) and each seat's position in the mix (for the dataset's ``strategy`` column).
    """
    row = seatings[game_index % seatings.shape[0]]
    ids = np.zeros(max_players, dtype=np.int64)
    mix_slot = np.zeros(max_players, dtype=np.int64)
    weights = np.zeros((max_players, mix_weights.shape[1]), dtype=np.float64)
    for seat in range(n_players):
        j = row[seat]
        mix_slot[seat] = j
        ids[seat] = mix_ids[j]
        weights[seat, :] = mix_weights[j, :]
    return attach_marker(ids, weights, searching), mix_slot


@compiled
def seat_fixed_roles(mix_slot, n_players, fixed_roles, slot_roles):
    """Each seat's fixed role(s) in one game (-1: dealt): its mix entry's if the entry always
    holds a role (``slot_roles``), else the seat's own (``fixed_roles``, from ``--roles``)."""
    roles = fixed_roles.copy()
    for seat in range(n_players):
        if slot_roles[mix_slot[seat], 0] >= 0:
            roles[seat, :] = slot_roles[mix_slot[seat], :]
    return roles
