"""The learnt expert: it sees only the table, carries the shipped weights, and takes the action
its weights value most."""

import numpy as np

from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.gnomeland import turn
from simulator.games.gnomeland.codes import DECIDE_ACTION
from simulator.games.gnomeland.search import copy_of, redeal_hidden
from strategies import gnomeland as players
from tests.experts import assert_plays_the_weights_it_ships_with

N_PLAYERS = 3
DECKS = ("mission_deck", "action_deck", "spell_deck")


def mid_game_decision(seed=4):
    """A table two rounds into the game, in the first player's turn after one action, and the
    actions open to them: (rules, state's table, player, options, how many)."""
    config = make_config("gnomeland", N_PLAYERS, strategies=["balanced"], seed=seed)
    r = config.rules.as_record()[0]
    ids = np.full(4, players.BALANCED)
    plans = (ids, players.DEFAULT_WEIGHTS[ids].copy())
    rng = seed_stream(seed, 0)
    table = turn.new_game(r, N_PLAYERS, plans, rng, no_log()).view(np.recarray)
    s = table[0]
    turn.play_round(s, r, plans, rng, no_log())
    turn.play_round(s, r, plans, rng, no_log())
    turn.begin_round(s, r, rng, no_log())
    s.turn_in_round = 0
    p = s.first_player
    turn.start_turn(s, r, rng, no_log(), p)
    opts = np.zeros((turn.MAX_OPTIONS, 4), dtype=np.int64)
    n = turn.list_options(s, r, p, opts)
    turn.apply_option(s, r, plans, rng, no_log(), p, opts[0, 0], opts[0, 1], opts[0, 2])
    n = turn.list_options(s, r, p, opts)
    assert n > 1 and not s.over
    return r, table, p, opts, n


def test_the_features_see_nothing_the_player_cannot():
    r, table, p, opts, n = mid_game_decision()
    seen = players.option_features(DECIDE_ACTION, table[0], r, p, opts, n)
    changed = False
    for k in range(5):
        other = copy_of(table[0]).view(np.recarray)
        redeal_hidden(other[0], seed_stream(100 + k, 0))
        changed |= any(not np.array_equal(getattr(table[0], d), getattr(other[0], d))
                       for d in DECKS)
        assert np.array_equal(players.option_features(DECIDE_ACTION, other[0], r, p, opts, n),
                              seen)
    assert changed, "the re-deal changed no deck: the test would prove nothing"
    assert seen.shape == (n, players.N_FEATURES)
    assert np.any(seen[:, players.F_BALANCED_VALUE] != 0)  # balanced valued the options


def test_the_expert_plays_the_weights_it_ships_with():
    assert_plays_the_weights_it_ships_with("gnomeland", players)
    row = players.DEFAULT_WEIGHTS[players.EXPERT]
    # what it does not value it decides as balanced
    first = players.W_FIRST_VALUE
    assert np.array_equal(row[:first], players.DEFAULT_WEIGHTS[players.BALANCED][:first])


def test_the_expert_takes_the_action_of_greatest_weighted_features():
    r, table, p, opts, n = mid_game_decision(seed=9)
    ids = np.full(4, players.EXPERT)
    plans = (ids, players.DEFAULT_WEIGHTS[ids].copy())
    values = np.zeros(turn.MAX_OPTIONS)
    choice = players.choose_option(table[0], r, p, plans, seed_stream(1, 0), opts, n, values)
    f = players.option_features(DECIDE_ACTION, table[0], r, p, opts, n)
    first = players.W_FIRST_VALUE
    worth = f @ players.DEFAULT_WEIGHTS[players.EXPERT][first:first + players.N_FEATURES]
    assert choice == int(np.argmax(worth))
    assert len(set(np.round(worth, 9))) > 1  # the options are not all valued alike
