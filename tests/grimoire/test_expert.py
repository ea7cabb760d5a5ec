"""The learnt expert: it sees only what a player sees, plays the weights it ships with, and
takes the option its weights value most."""

import numpy as np

from simulator.core.rng import seed_stream
from simulator.games.grimoire.board import MAX_ZONE, take_options
from simulator.games.grimoire.search import copy_of, redeal_hidden
from strategies import grimoire as players
from tests.experts import assert_plays_the_weights_it_ships_with
from tests.grimoire.test_search import positions, shuffled_hidden


def decision(kind, s, p):
    """The options of the spell or card decision at ``s``: (code, options, n)."""
    if kind == "spell":
        return players.DECIDE_SPELL, np.arange(1, s.level + 1), s.level
    options = np.zeros(MAX_ZONE, dtype=np.int64)
    return players.DECIDE_CARD, options, take_options(s, p, options)


def test_the_features_do_not_change_when_the_hidden_cards_are_redealt():
    r, tables = positions(games=3)
    checked = {"spell": 0, "card": 0}
    moved = 0
    for i, (kind, table, p) in enumerate(tables[:24]):
        s = copy_of(table[0]).view(np.recarray)[0]
        code, options, n = decision(kind, s, p)
        seen = players.option_features(code, s, r, p, options, n)
        # the search's own re-deal, and a rearrangement made apart from it
        others = [copy_of(table[0]).view(np.recarray) for _ in range(2)]
        for k, other in enumerate(others):
            redeal_hidden(other[0], r, p, seed_stream(300 + k, i))
        others.append(copy_of(shuffled_hidden(table, p, 400 + i)[0]).view(np.recarray))
        for other in others:
            moved += other.tobytes() != table.tobytes()
            code, options, n = decision(kind, other[0], p)
            assert np.array_equal(players.option_features(code, other[0], r, p, options, n),
                                  seen), kind
        checked[kind] += 1
    # both decisions came up, and the re-deals did move hidden cards
    assert checked["spell"] >= 5 and checked["card"] >= 5 and moved >= 30


def test_the_expert_takes_the_option_its_weights_value_most():
    r, tables = positions(games=3)
    w = players.DEFAULT_WEIGHTS[players.EXPERT]
    values = w[players.W_FIRST_VALUE:players.W_FIRST_VALUE + players.N_FEATURES]
    ids = np.full(5, players.EXPERT)
    plans = (ids, players.DEFAULT_WEIGHTS[ids].copy())
    differs = 0
    for kind, table, p in tables[:24]:
        v = copy_of(table[0]).view(np.recarray)[0]
        code, options, n = decision(kind, v, p)
        f = players.option_features(code, v, r, p, options, n)
        assert f.shape == (n, players.N_FEATURES)
        pick = players.expert_choice(code, v, r, p, plans, options, n)
        assert pick == int(np.argmax(f[:n] @ values))
        differs += pick != 0
    assert differs > 0


def test_the_expert_plays_the_weights_it_ships_with():
    assert_plays_the_weights_it_ships_with("grimoire", players)
