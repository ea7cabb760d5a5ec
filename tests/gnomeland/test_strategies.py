"""The scripted players: legal, and the heuristics beat random."""

import polars as pl
import pytest

from simulator import api
from strategies import gnomeland as players

HEURISTICS = [n for n in players.NAMES if n not in ("random", "lookahead")]


def test_weights_are_named_for_every_strategy():
    assert players.DEFAULT_WEIGHTS.shape == (len(players.NAMES), len(players.WEIGHT_NAMES))
    assert len(players.DESCRIPTIONS) == len(players.NAMES)
    assert players.WEIGHT_NAMES[-4:] == ("rollouts", "rollout_turns", "rollout_policy",
                                         "search_confidence")


@pytest.mark.parametrize("strategy", HEURISTICS)
def test_heuristics_beat_random(tmp_path, strategy):
    """Against a random player, seats rotated, at two players: a clear majority of wins."""
    path = api.run("gnomeland", players=2, games=200, seed=11, strategies=[strategy, "random"],
                   out=tmp_path / "r", progress=False)
    shares = api.load(path).seats.group_by("strategy").agg(pl.col("win_share").mean())
    share = dict(zip(shares["strategy"], shares["win_share"]))
    assert share[strategy] > 0.6, share


@pytest.mark.slow
def test_heuristics_beat_random_at_four_players(tmp_path):
    path = api.run("gnomeland", players=4, games=4000, seed=12,
                   strategies=["balanced", "random", "random", "random"], out=tmp_path / "r",
                   progress=False)
    shares = api.load(path).seats.group_by("strategy").agg(pl.col("win_share").sum() / 4000)
    share = dict(zip(shares["strategy"], shares["win_share"]))
    assert share["balanced"] > 0.5, share
