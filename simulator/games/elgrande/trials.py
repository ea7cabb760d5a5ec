"""El Grande: a place, a scoreboard's move, tried on a copy of the table for the player choosing.

A player chooses the option that leaves the table worth most to it. What an option leaves is
the rules' to say, so the rules try each option out here, on a copy, with no log, and the
player values each copy (``strategies/elgrande.py``: ``copy_value``, ``better``, its random
player's draw); the players import no rule. The trials of a whole action card, a special action
or the Veto's are ``turn.py``'s (they play the rules' own turn steps). Called by the rules
(``turn.py``, ``expansion.py``) where they ask a player for a place.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.trace import no_log
from simulator.games.elgrande import codes as L
from simulator.games.elgrande import effects as E
from simulator.games.elgrande.board import (
    BLACK, CASTILLO, MAX_PLAYERS, N_COLOURS, N_PLACES, N_REGIONS, SPECIAL, black_all_out,
    copy_of, holds_space, may_enter, table_load,
)
from strategies import elgrande as players


@compiled
def choose_place(s, r, p, plans, rng, purpose, allowed, extra, may_decline):
    """Which allowed place (``allowed[:N_PLACES + 1]``, the last one the court) ``p`` chooses
    for ``purpose`` (``codes.P_*``), or -1 (only when it ``may_decline``): each option tried on
    a copy (``apply_option``), the one leaving the table worth most to ``p``."""
    if players.at_random(plans, p):
        return players.random_flag(rng, allowed, N_PLACES + 1, 1 if may_decline else 0)
    w, judge = players.judge_places(s, r, p, plans)
    best = players.judged_worth(s, p, w, judge) + 1e-9 if may_decline else -1e18
    pick = -1
    ties = 0
    table = copy_of(s)
    for g in range(N_PLACES + 1):
        if not allowed[g]:
            continue
        table[0] = s
        x = table[0]
        apply_option(x, r, p, purpose, g, extra)
        v = players.copy_value(table, s, r, p, w, judge, rng)
        replace, ties = players.better(v, best, ties, rng)
        if replace:
            best, pick = v, g
    return pick


@compiled
def choose_scoreboard(s, r, p, plans, rng, options):
    """Which mobile scoreboard goes to which region (``m * N_REGIONS + region``): each move
    tried on a copy."""
    if players.at_random(plans, p):
        return players.random_flag(rng, options, options.shape[0], 0)
    w, judge = players.judge_places(s, r, p, plans)
    table = copy_of(s)
    nl = no_log()
    best = -1e18
    pick = -1
    ties = 0
    for o in range(options.shape[0]):
        if not options[o]:
            continue
        table[0] = s
        x = table[0]
        E.move_scoreboard(x, o // N_REGIONS, o % N_REGIONS, nl)
        v = players.copy_value(table, s, r, p, w, judge, rng)
        replace, ties = players.better(v, best, ties, rng)
        if replace:
            best, pick = v, o
    return pick


@compiled
def apply_option(x, r, p, purpose, g, extra):
    """What choosing place ``g`` for ``purpose`` does to the table ``x`` (a copy), as far as
    the chooser can tell: the Caballeros an 'all out' or a dispersal sends elsewhere are
    counted as back in the court, their destinations not yet chosen."""
    nl = no_log()
    if purpose == L.P_PLACE:
        E.place(x, p, g, nl)
    elif purpose == L.P_ALL_OUT:
        while x.cab[p, g] > 0:
            E.move(x, p, g, L.COURT, p, nl)
        if black_all_out(x, r, p, g) > 0:  # the holder's black ones go too
            black_out_on_copy(x, r, p, g)
    elif purpose == L.P_DESTINATION:
        E.move(x, p, extra, g, p, nl)
    elif purpose == L.P_RETURN_OWN:
        E.send_home(x, p, g, nl)
    elif purpose == L.P_VICTIM:
        E.send_home(x, extra, g, nl)
    elif purpose == L.P_SECRET_RETURN:
        for _ in range(extra):
            E.send_home(x, p, g, nl)
    elif purpose == L.P_SECRET_RETURN_ALL:
        while x.cab[p, g] > 0:
            E.send_home(x, p, g, nl)
    elif purpose == L.P_SCORE or purpose == L.P_UNIQUE:
        E.score_place(x, r, g, SPECIAL, False, nl)
    elif purpose == L.P_DISC:
        if x.cab[p, CASTILLO] > 0:
            E.empty_castillo(x, p, g, nl)
    elif purpose == L.P_KING:
        E.move_king(x, g, nl)
    elif purpose == L.P_GRANDE:
        E.move_grande(x, p, g, nl)
    elif purpose == L.P_DISPERSE_FROM:
        for q in range(x.n_players):
            if q != p:
                while x.cab[q, g] > 0:
                    E.move(x, q, g, L.COURT, p, nl)
    elif purpose == L.P_DISPERSE_TO:
        while x.cab[p, extra] > 0:
            E.move(x, p, extra, g, p, nl)
    else:
        apply_expansion_option(x, r, p, purpose, g, extra)


@compiled
def apply_expansion_option(x, r, p, purpose, g, extra):
    """``apply_option`` for the expansion's purposes."""
    nl = no_log()
    if purpose == L.P_SETUP:
        E.place_from_provinces(x, p, g, extra, nl)
    elif purpose == L.P_FREE_MOVE or purpose == L.P_FREE_MOVE_BLACK:
        E.move(x, p if purpose == L.P_FREE_MOVE else BLACK, extra, g, p, nl)
        E.take_tokens(x, p, nl)
    elif purpose == L.P_DESTINATION_BLACK:
        E.move(x, BLACK, extra, g, p, nl)
    else:  # P_LIMIT_TABLE: the chooser's own go onto it first
        E.put_table(x, g, nl)
        for c in range(N_COLOURS):
            q = (p + c) % N_COLOURS
            while x.on_table[q] < x.cab[q, g] - holds_space(x, q, g) and \
                    table_load(x) < x.table_size:
                x.on_table[q] += 1


@compiled
def black_out_on_copy(x, r, p, a):
    """'All out of one region' tried on the copy ``x`` (``apply_option``): the holder ``p``'s
    black Caballeros in ``a`` go, each to the place where it adds most to his own points (his
    pick of each, ``P_DESTINATION_BLACK``, comes after the region's)."""
    coef = np.zeros(MAX_PLAYERS, dtype=np.float64)
    coef[p] = 1.0
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    for _ in range(black_all_out(x, r, p, a)):
        best = -1e18
        to = -1
        for b in range(N_PLACES):
            if b != a and may_enter(x, r, b):
                v = players.term_with(x, r, BLACK, b, 1, coef, pts) - \
                    players.place_term(x, r, b, coef, pts)
                if v > best:
                    best, to = v, b
        if to < 0:
            return
        E.move(x, BLACK, a, to, p, no_log())
