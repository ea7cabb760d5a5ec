"""Known probabilities, checked on the engine's own games."""

import numpy as np
import pytest
from scipy import stats

from simulator import api


def _binomial_p(successes, trials, p):
    return stats.binomtest(int(successes), int(trials), p).pvalue


def test_expedition_success_is_6_7_or_8(small_run):
    games = api.load(small_run).games
    won, sailed = games["expeditions_won"].sum(), games["expeditions"].sum()
    assert sailed > 5000
    assert _binomial_p(won, sailed, 16 / 36) > 1e-4, won / sailed


def test_sevens_come_one_roll_in_six(small_run):
    games = api.load(small_run).games
    assert _binomial_p(games["sevens"].sum(), games["rolls"].sum(), 1 / 6) > 1e-4


def test_expedition_range_override_moves_success_rate(tmp_path):
    path = api.run("gremios", games=1500, seed=2, out=tmp_path / "r", progress=False,
                   settings={"expedition_success_low": 5, "expedition_success_high": 9})
    games = api.load(path).games
    assert _binomial_p(games["expeditions_won"].sum(), games["expeditions"].sum(), 24 / 36) > 1e-4


@pytest.mark.slow
def test_roll_phase_totals_follow_2d6():
    counts = np.zeros(13, dtype=np.int64)
    for index in range(300):
        for event in api.replay("gremios", seed=8, game_index=index, players=4):
            if event["kind"] == "roll":
                counts[event["roll"]] += 1
    expected = np.array([6 - abs(t - 7) for t in range(2, 13)]) / 36 * counts[2:].sum()
    assert stats.chisquare(counts[2:], expected).pvalue > 1e-4
