"""El Grande: what the rules do to the table, with no decision in it.

Every change of the board goes through these functions, so each is logged once and counted for
the dataset the same way whoever calls it: the rules (``turn.py``) with the game's log, and the
players (``strategies/elgrande.py``) on copies of the table with no log, to see what an option
would leave.
"""

import numpy as np
from numba import njit

from simulator.core.trace import record
from simulator.games.elgrande import story as L
from simulator.games.elgrande.board import (
    CASTILLO, FROM_CASTILLO, FROM_GRANDE, FROM_KING, FROM_REGIONS, FROM_SPECIAL, GENERAL,
    MAX_PLAYERS, bonus_parts, new_table, placings, scoreboard, scoring_index, sole_most, standings,
)


@njit(cache=True)
def copy_of(s):
    """A table holding a copy of the state ``s`` (keep the table in hand while reading it)."""
    table = new_table()
    table[0] = s
    return table


@njit(cache=True)
def to_court(s, p, k, log):
    """Up to ``k`` of ``p``'s Caballeros from the provinces to the court; returns how many."""
    k = min(k, s.provinces[p])
    s.provinces[p] -= k
    s.court[p] += k
    record(log, L.TO_COURT, p, k, s.court[p], s.provinces[p])
    return k


@njit(cache=True)
def place(s, p, g, log):
    """One of ``p``'s Caballeros from the court into place ``g``."""
    s.court[p] -= 1
    s.cab[p, g] += 1
    s.placed[p] += 1
    record(log, L.PLACED, p, g, s.cab[p, g], s.court[p])


@njit(cache=True)
def move(s, q, a, b, by, log):
    """One of ``q``'s Caballeros from place ``a`` to place ``b`` (``L.COURT``: to the court)."""
    s.cab[q, a] -= 1
    if b == L.COURT:
        s.court[q] += 1
        there = s.court[q]
    else:
        s.cab[q, b] += 1
        there = s.cab[q, b]
    s.moved[q] += 1
    record(log, L.MOVED, q, a, b, by, s.cab[q, a], there)


@njit(cache=True)
def send_home(s, q, g, log):
    """One of ``q``'s Caballeros from place ``g`` (or ``L.COURT``) back to the provinces."""
    if g == L.COURT:
        s.court[q] -= 1
        left = s.court[q]
    else:
        s.cab[q, g] -= 1
        left = s.cab[q, g]
    s.provinces[q] += 1
    s.returned[q] += 1
    record(log, L.RETURNED, q, g, left)


@njit(cache=True)
def gain(s, p, points, source, kind, round_no, r):
    s.score[p] += points
    s.vp[p, source] += points
    if kind == GENERAL:
        s.vp_scoring[p, scoring_index(r, round_no)] += points


@njit(cache=True)
def score_place(s, r, g, kind, first_only, log):
    """Score place ``g``: each player's place by the tie rule (or a sole first only), then the
    King's and the Grandes' bonuses. Returns the points scored in all."""
    record(log, L.SCORING, kind, g, 1 if first_only else 0)
    n = s.n_players
    places = np.empty(MAX_PLAYERS, dtype=np.int64)
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    placings(s, g, places)
    board = scoreboard(s, g)
    anyone = False
    total = 0
    source = FROM_SPECIAL if kind != GENERAL else (FROM_CASTILLO if g == CASTILLO else FROM_REGIONS)
    for p in range(n):
        at = places[p]
        if at < 0:
            continue
        anyone = True
        points = board[at] if at <= 2 and (not first_only or at == 0) else 0
        gain(s, p, points, source, kind, s.round_no, r)
        total += points
        record(log, L.PLACE_SCORED, g, p, s.cab[p, g], at, points, s.score[p])
    if not anyone:
        record(log, L.NOBODY_SCORES, g)
        return 0
    if kind == GENERAL and g != CASTILLO and sole_most(s, g) >= 0:
        s.firsts[sole_most(s, g), scoring_index(r, s.round_no)] += 1
    top = sole_most(s, g)
    if top >= 0:
        king, grande = bonus_parts(s, r, g, top, first_only)
        if king > 0:
            gain(s, top, king, FROM_KING, kind, s.round_no, r)
            record(log, L.BONUS, g, top, 0, king, s.score[top])
        if grande > 0:
            gain(s, top, grande, FROM_GRANDE, kind, s.round_no, r)
            record(log, L.BONUS, g, top, 1, grande, s.score[top])
        total += king + grande
    return total


@njit(cache=True)
def move_king(s, g, log):
    record(log, L.KING_MOVED, s.king, g)
    s.king = g
    s.king_moves += 1


@njit(cache=True)
def move_grande(s, p, g, log):
    record(log, L.GRANDE_MOVED, p, s.grande[p], g)
    s.grande[p] = g


@njit(cache=True)
def move_scoreboard(s, m, g, log):
    record(log, L.SCOREBOARD_MOVED, m, s.mobile[m], g)
    s.mobile[m] = g


@njit(cache=True)
def empty_castillo(s, p, g, log):
    """``p``'s Caballeros in the Castillo go to region ``g`` (to the court if it is the King's)."""
    k = s.cab[p, CASTILLO]
    to = L.COURT if g == s.king else g
    record(log, L.CASTILLO_EMPTIED, p, k, to)
    s.cab[p, CASTILLO] = 0
    if to == L.COURT:
        s.court[p] += k
    else:
        s.cab[p, g] += k


@njit(cache=True)
def standing_points(s, r, g, first_only):
    """``standings`` as a fresh array (for tests and the players)."""
    out = np.zeros(MAX_PLAYERS, dtype=np.int64)
    standings(s, r, g, first_only, out)
    return out

