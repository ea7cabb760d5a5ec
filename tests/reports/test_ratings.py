"""Tournament ratings: Plackett-Luce strengths from rankings, with bootstrap intervals."""

import json

import numpy as np
import polars as pl
import pytest

from reports import ratings
from simulator import api
from simulator.core.errors import UsageError


def test_rankings_put_each_table_best_first_and_shuffle_only_ties():
    seats = pl.DataFrame({"game_id": [0, 0, 0, 1, 1, 1], "strategy": ["a", "b", "c"] * 2,
                          "rank": [2, 1, 3, 1, 1, 3]})
    data = ratings.rankings(seats, ["a", "b", "c"])
    assert data[0] == (1, 0, 2)
    assert set(data[1][:2]) == {0, 1} and data[1][2] == 2


def test_a_strategy_that_always_finishes_ahead_rates_higher():
    # a beats b beats c in 70% of three-player games, the reverse order otherwise
    rng = np.random.default_rng(1)
    data = [(0, 1, 2) if rng.random() < 0.7 else (2, 1, 0) for _ in range(2000)]
    theta = ratings.fit(3, data)
    assert theta[0] > theta[1] > theta[2]
    assert theta.sum() == pytest.approx(0.0)
    # two items: Plackett-Luce is Bradley-Terry, theta_a - theta_b = log odds of a ahead
    two = [(0, 1)] * 750 + [(1, 0)] * 250
    t = ratings.fit(2, two)
    assert t[0] - t[1] == pytest.approx(np.log(3), abs=0.02)


# A personality of each game's, rated beside greedy and random.
PERSONALITY = {"gremios": "guild_baron", "grimoire": "spell_timer", "gemmis": "quick_scorer",
               "gnomeland": "balanced", "elgrande": "spoiler"}


@pytest.mark.parametrize("game", list(PERSONALITY))
def test_tournament_command_writes_ratings_with_intervals(playtest, tmp_path, game):
    personality = PERSONALITY[game]
    code, out, err = playtest("tournament", game, "-s", f"greedy,{personality},random", "-p", "2",
                              "-n", "600", "--out", tmp_path / "t")
    assert code == 0, err
    result = json.loads((tmp_path / "t" / "tournament.json").read_text())
    rows = {r["strategy"]: r for r in result["ratings"]}
    assert set(rows) == {"greedy", personality, "random"}
    for r in rows.values():
        assert r["low"] <= r["theta"] <= r["high"]
        assert r["seats"] == 400  # each strategy in 2 of every 3 tables of two
    assert rows["random"]["theta"] < min(rows["greedy"]["theta"], rows[personality]["theta"])
    assert rows["random"]["high"] < 0
    assert (tmp_path / "t" / "tournament.png").stat().st_size > 0
    assert "| Strategy | Strength |" in (tmp_path / "t" / "tournament.md").read_text()


@pytest.mark.parametrize("args, message", [
    (["-s", "greedy"], "at least two different strategies"),
    (["-s", "greedy,greedy"], "at least two different strategies"),
    (["-s", "greedy,random", "-p", "3"], "at least one per seat"),
    (["-s", "greedy,nobody"], "unknown strategy 'nobody'"),
])
def test_bad_tournaments_are_one_line_errors(playtest, tmp_path, args, message):
    code, out, err = playtest("tournament", "gremios", *args, "--out", tmp_path / "t")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t").exists()


def test_a_run_with_a_strategy_twice_at_a_table_cannot_be_rated(tmp_path):
    path = api.run("gremios", players=3, games=30, seed=1, strategies=["greedy", "random"],
                   out=tmp_path / "r", progress=False)
    with pytest.raises(UsageError, match="twice"):
        ratings.ratings(path)
