"""The learnt expert: it sees only what a player sees, plays the weights it ships with, and
takes the option its weights value most."""

import numpy as np

from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.gremios import board
from simulator.games.gremios.search import copy_of
from simulator.games.gremios.turn import collection_phase, legal_actions
from strategies import gremios as players
from tests.experts import assert_plays_the_weights_it_ships_with
from tests.gremios.test_search import positions, shuffled_hidden


def decisions(v, r, p):
    """Every kind of decision the expert values, at the table ``v``: (code, options, n)."""
    collection_phase(v, r, no_log())
    actions = np.zeros((64, 2), dtype=np.int64)
    n = legal_actions(v, r, p, actions)
    events = np.array([[board.TAX_COLLECTION, 0], [board.EXPEDITION, 0]])
    roles = np.array([[board.PIRATE, 0], [board.GOVERNOR, 0], [board.TRADER, 0]])
    return [(players.DECIDE_ACTION, actions, n), (players.DECIDE_EVENT, events, 2),
            (players.DECIDE_ROLE, roles, 3)]


def features_seen(table, r, p):
    v = copy_of(table[0]).view(np.recarray)[0]
    v.player = p
    return [players.option_features(code, v, r, p, options, n)
            for code, options, n in decisions(v, r, p)]


def test_the_features_do_not_change_when_the_hidden_cards_are_swapped():
    r, tables = positions(games=16)
    moved = 0
    for i, table in enumerate(tables[:10]):
        p = (table[0].player + 1) % table[0].n_players
        views = [table, shuffled_hidden(table, p, 300 + i), shuffled_hidden(table, p, 400 + i)]
        moved += views[1].tobytes() != table.tobytes()
        seen = [features_seen(view, r, p) for view in views]
        for a, b in zip(seen[0], seen[1]):
            assert np.array_equal(a, b)
        for a, b in zip(seen[0], seen[2]):
            assert np.array_equal(a, b)
    assert moved >= 5  # the swaps really moved hidden cards


def test_the_expert_takes_the_option_its_weights_value_most():
    r, tables = positions(games=16)
    w = players.DEFAULT_WEIGHTS[players.EXPERT]
    values = w[players.W_FIRST_VALUE:players.W_FIRST_VALUE + players.N_FEATURES]
    ids = np.full(board.MAX_PLAYERS, players.EXPERT)
    plans = (ids, players.DEFAULT_WEIGHTS[ids].copy())
    differs = 0
    for i, table in enumerate(tables[:10]):
        p = table[0].player
        v = copy_of(table[0]).view(np.recarray)[0]
        for code, options, n in decisions(v, r, p):
            f = players.option_features(code, v, r, p, options, n)
            assert f.shape == (n, players.N_FEATURES)
            pick = players.expert_choice(code, v, r, p, plans, options, n)
            assert pick == int(np.argmax(f[:n] @ values))
            differs += pick != 0
    assert differs > 0


def test_the_expert_plays_the_weights_it_ships_with():
    assert_plays_the_weights_it_ships_with("gremios", players)
