"""The per-game random streams: reproducible, independent of order, and fair dice."""

import numpy as np
from numba import njit
from scipy import stats

from simulator.core.rng import below, flagged, jitter, roll_2d6, seed_stream, shuffle


@njit(cache=True)
def _totals(run_seed, n_games, rolls_per_game):
    out = np.zeros(13, dtype=np.int64)
    for g in range(n_games):
        rng = seed_stream(run_seed, g)
        for _ in range(rolls_per_game):
            a, b = roll_2d6(rng)
            out[a + b] += 1
    return out


@njit(cache=True)
def _first_draws(run_seed, indices):
    out = np.zeros(len(indices), dtype=np.int64)
    for k in range(len(indices)):
        out[k] = below(seed_stream(run_seed, indices[k]), 1_000_000)
    return out


def test_stream_depends_only_on_seed_and_game_index():
    forward = _first_draws(5, np.arange(100))
    backward = _first_draws(5, np.arange(100)[::-1])[::-1]
    assert np.array_equal(forward, backward)
    assert not np.array_equal(forward, _first_draws(6, np.arange(100)))
    # neighbouring games do not share streams
    assert len(set(forward.tolist())) > 95


def test_two_dice_frequencies_match_2d6():
    counts = _totals(11, 2000, 50)[2:]
    expected = np.array([6 - abs(t - 7) for t in range(2, 13)]) / 36 * counts.sum()
    chi2, p = stats.chisquare(counts, expected)
    assert p > 1e-4, (counts, p)


def test_below_is_uniform():
    rng = seed_stream(1, 0)
    draws = np.array([below(rng, 7) for _ in range(70_000)])
    chi2, p = stats.chisquare(np.bincount(draws, minlength=7))
    assert p > 1e-4


def test_flagged_chooses_each_set_entry_and_none_equally_often():
    # flags set at 1, 3 and 4 of the first five (6 lies beyond n), one decline: four outcomes
    flags = np.array([0, 1, 0, 1, 1, 0, 1])
    rng = seed_stream(3, 0)
    draws = np.array([flagged(rng, flags, 5, 1) for _ in range(40_000)])
    assert set(draws.tolist()) == {-1, 1, 3, 4}
    counts = [int((draws == i).sum()) for i in (-1, 1, 3, 4)]
    chi2, p = stats.chisquare(counts)
    assert p > 1e-4, counts


def test_flagged_takes_one_draw_as_below_does():
    # the same stream position after it as after below(k + declines): a random player's choices
    # that use it leave the game's later draws where they were
    flags = np.array([1, 0, 1, 1])
    a, b = seed_stream(4, 0), seed_stream(4, 0)
    for _ in range(100):
        i = flagged(a, flags, 4, 0)
        assert i == [0, 2, 3][below(b, 3)]
    assert (a == b).all()


def test_shuffle_is_a_permutation():
    rng = seed_stream(2, 0)
    cards = np.arange(44)
    shuffle(rng, cards, 44)
    assert sorted(cards.tolist()) == list(range(44))
    assert cards.tolist() != list(range(44))


def test_jitter_spans_the_amount_and_draws_nothing_when_it_is_zero():
    """The players' noise: uniform in [-amount/2, amount/2); with none, nothing is drawn, so
    the rest of the game's random stream is as it would be without the call."""
    rng = seed_stream(4, 0)
    draws = np.array([jitter(3.0, rng) for _ in range(30_000)])
    assert draws.min() >= -1.5 and draws.max() < 1.5
    assert stats.kstest(draws, stats.uniform(loc=-1.5, scale=3.0).cdf).pvalue > 1e-4
    quiet, plain = seed_stream(4, 1), seed_stream(4, 1)
    assert jitter(0.0, quiet) == 0.0
    assert below(quiet, 1_000_000) == below(plain, 1_000_000)
