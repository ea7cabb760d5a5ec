"""The learnt expert: it sees only what a player sees, plays the weights it ships with, and
takes the option its weights value most."""

import numpy as np

from simulator.core.rng import seed_stream
from simulator.core.search import SEARCHING
from simulator.games.gemmis import board
from simulator.games.gemmis.search import copy_of, redeal_hidden
from strategies import gemmis as players
from tests.experts import assert_plays_the_weights_it_ships_with
from tests.gemmis.test_search import positions

VALUES = slice(players.W_FIRST_VALUE, players.W_FIRST_VALUE + players.N_FEATURES)


def decisions(v, r, p):
    """Both kinds of decision the expert values, at the table ``v``: (code, options, n)."""
    switches = np.empty((board.MAX_SWITCHES, 3), dtype=np.int64)
    n = board.switches(v, r, p, v.street, switches)
    directions = np.zeros((2, 3), dtype=np.int64)
    directions[1, 0] = board.TOWARDS_LAST
    return [(players.DECIDE_SWITCH, switches, n), (players.DECIDE_DIRECTION, directions, 2)]


def expert_plans(searching):
    """Plans seating the expert at both seats: searching plans (a run seating the expert has
    them: its features play options out) or heuristic plans (a rollout's)."""
    ids = np.full(board.N_PLAYERS, players.EXPERT)
    weights = players.DEFAULT_WEIGHTS[ids].copy()
    return (ids, weights, SEARCHING) if searching else (ids, weights)


def features_seen(table, r, p, plans=expert_plans(True)):
    v = copy_of(table[0]).view(np.recarray)[0]
    v.player = p
    return [players.option_features(code, v, r, p, plans, options, n)
            for code, options, n in decisions(v, r, p)]


def test_the_features_do_not_change_when_the_sack_is_re_dealt():
    r, tables = positions()
    moved = 0
    for i, table in enumerate(tables):
        p = int(table[0].turn % 2)
        views = []
        for k in (1, 2):
            view = copy_of(table[0]).view(np.recarray)
            redeal_hidden(view[0], r, p, seed_stream(500 + k, i))
            views.append(view)
        moved += not np.array_equal(views[0][0].sack, table[0].sack)
        seen = [features_seen(view, r, p) for view in [table] + views]
        for other in seen[1:]:
            for a, b in zip(seen[0], other):
                assert a.shape == b.shape and np.array_equal(a, b)
    assert moved >= len(tables) - 1  # the re-deal really moved the hidden sack


def test_the_turn_is_played_out_only_at_a_table_of_searching_plans():
    """With searching plans the turn's points count its cascades, so somewhere they exceed
    what the switch's own combination scores; a rollout's heuristic plans play nothing out and
    take that combination's points."""
    r, tables = positions()
    cascades = 0
    for table in tables:
        p = int(table[0].turn % 2)
        searching = features_seen(table, r, p)
        heuristic = features_seen(table, r, p, expert_plans(False))
        for played, not_played in zip(searching, heuristic):
            turn = played[:, players.F_TURN_POINTS]
            assert np.all(turn >= 0)
            cascades += np.sum(turn > played[:, players.F_POINTS_NOW])
            assert np.array_equal(not_played[:, players.F_TURN_POINTS],
                                  not_played[:, players.F_POINTS_NOW])
            others = [k for k in range(players.N_FEATURES) if k != players.F_TURN_POINTS]
            assert np.array_equal(played[:, others], not_played[:, others])
    assert cascades > 0


def test_the_expert_takes_the_option_its_weights_value_most():
    r, tables = positions()
    values = players.DEFAULT_WEIGHTS[players.EXPERT][VALUES]
    differs = 0
    for searching in (True, False):
        plans = expert_plans(searching)
        for table in tables:
            p = int(table[0].turn % 2)
            v = copy_of(table[0]).view(np.recarray)[0]
            v.player = p
            for code, options, n in decisions(v, r, p):
                f = players.option_features(code, v, r, p, plans, options, n)
                assert f.shape == (n, players.N_FEATURES)
                pick = players.expert_choice(code, v, r, p, plans, options, n)
                assert pick == int(np.argmax(f @ values))
                differs += pick != 0
    assert differs > 0


def test_the_expert_plays_the_weights_it_ships_with():
    assert_plays_the_weights_it_ships_with("gemmis", players)
