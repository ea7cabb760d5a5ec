"""The search player's skeleton in the core: it plays every option it tries out on the game's own
verbs, chosen by the type of the game's state, re-deals before each rollout, keeps the policy's
choice unless the rollouts are sure, and leaves the decision's table and stream alone when it
does not search.

Two toy games: in ``TOY`` an option scores its value, in ``MIRROR`` its negative, each with a
little noise of the rollout's own; in both a rollout that plays on the real hidden card instead
of a re-dealt one scores the opposite. Their rules (``r``) count the re-deals and rollouts."""

import numpy as np
import pytest
from numba import njit

from simulator.core.rng import below, seed_stream
from simulator.core.search import (
    SEARCHING, declares, play_on, redeal, rollout_scores, searched, searches, take_option,
    tried_options,
)

TOY = np.dtype([("n_players", np.int64), ("hidden", np.int64), ("points", np.int64, 2)])
MIRROR = np.dtype([("n_players", np.int64), ("hidden", np.int64), ("points", np.int64, 2),
                   ("sign", np.int64)])
SKIPPED = 9  # a decision the toy games never search
ROLLOUTS, CONFIDENCE = 8, 2.0


def declare_toy(state, sign):
    @declares(searches, state)
    def searched_unless_skipped():
        return lambda decision, s, n: decision != SKIPPED

    @declares(tried_options, state)
    def all_from_the_first():
        return lambda decision, s, r, p, policy, own, options, n: (np.arange(n), n, 0)

    @declares(redeal, state)
    def hidden_card_to_nought():
        def deal(x, r, p, rng):
            x.hidden = 0
            r[0] += 1
        return deal

    @declares(take_option, state)
    def value_on_the_dealt_card():
        def take(decision, x, r, p, policy, rng, options, o):
            x.points[p] = sign * options[o] if x.hidden == 0 else -sign * options[o]
            x.points[p] += below(rng, 2) * o
        return take

    @declares(play_on, state)
    def counted():
        def on(s, x, r, policy, rng, turns):
            r[1] += 1
        return on

    @declares(rollout_scores, state)
    def points():
        return lambda table, r: table[0].points.copy()


declare_toy(TOY, 1)
declare_toy(MIRROR, -1)


@njit(cache=True)
def search(decision, table, counts, p, plans, rng, options, n):
    return searched(decision, table[0], counts, p, plans, rng, options, n)


def table_of(state):
    table = np.zeros(1, dtype=state)
    table[0]["n_players"] = 2
    table[0]["hidden"] = 1  # the real card: a rollout that kept it would score the opposite
    return table


def searching_plans(confidence=CONFIDENCE):
    weights = np.array([[ROLLOUTS, 0, 0, confidence]] * 2, dtype=np.float64)
    return (np.full(2, 6, dtype=np.int64), weights, SEARCHING)


def searched_with(state=TOY, decision=0, n=3, confidence=CONFIDENCE, rng=None):
    """(the option taken, (re-deals, rollouts played on))."""
    counts = np.zeros(2, dtype=np.int64)
    rng = seed_stream(1, 0) if rng is None else rng
    o = search(decision, table_of(state), counts, 0, searching_plans(confidence), rng, OPTIONS, n)
    return o, tuple(counts)


OPTIONS = np.array([1, 5, 3, 0], dtype=np.int64)


@pytest.mark.parametrize("state, best", [(TOY, 1), (MIRROR, 0)])
def test_each_game_searches_on_its_own_verbs_every_option_every_rollout_re_dealt(state, best):
    assert searched_with(state) == (best, (3 * ROLLOUTS, 3 * ROLLOUTS))


def test_the_rollouts_play_on_copies():
    table = table_of(TOY)
    before = table.copy()
    search(0, table, np.zeros(2, dtype=np.int64), 1, searching_plans(), seed_stream(1, 0),
           OPTIONS, 4)
    assert table.tobytes() == before.tobytes()


def test_it_keeps_the_policy_choice_unless_the_rollouts_are_sure():
    assert searched_with(confidence=1e9)[0] == 0  # the first option: the policy's own choice


def test_a_decision_it_does_not_search_draws_nothing():
    rng, untouched = seed_stream(1, 0), seed_stream(1, 0)
    assert searched_with(decision=SKIPPED, rng=rng) == (0, (0, 0))
    assert np.array_equal(rng, untouched)
    searched_with(rng=rng)
    assert not np.array_equal(rng, untouched)  # a searched one draws its rollouts' seed


def test_a_lone_option_is_taken_without_rollouts():
    assert searched_with(n=1) == (0, (0, 0))


def test_heuristic_plans_never_search():
    weights = np.zeros((2, 4), dtype=np.float64)
    with pytest.raises(RuntimeError):
        search(0, table_of(TOY), np.zeros(2, dtype=np.int64), 0, (np.zeros(2, dtype=np.int64), weights),
               seed_stream(1, 0), OPTIONS, 3)
