"""Known probabilities, checked on the engine's own Grimoire games."""

import polars as pl
from scipy import stats

from simulator import api


def test_random_spell_picks_are_shared_at_the_rate_of_uniform_choice(tmp_path):
    """With the marker held at 6 (spell_level_step=0) and every player choosing uniformly, a
    player's spell is shared with someone else with chance 1 - (5/6)^(n-1); each round is an
    independent trial for a given seat."""
    n = 5
    path = api.run("grimoire", players=n, games=3000, seed=21, out=tmp_path / "r",
                   strategies=["random"], settings={"spell_level_step": 0}, progress=False)
    seat0 = api.load(path).seats.filter(pl.col("seat") == 0)
    trials = int(seat0.select(pl.sum_horizontal([pl.col(f"cast_level_{k}") for k in range(1, 7)])
                              .sum()).item())
    shared = int(seat0["spells_duplicated"].sum())
    assert trials > 20_000
    assert int(seat0.select(pl.sum_horizontal([pl.col(f"cast_level_{k}") for k in range(7, 16)])
                            .sum()).item()) == 0  # never above the marker
    p = 1 - (5 / 6) ** (n - 1)
    assert stats.binomtest(shared, trials, p).pvalue > 1e-4, shared / trials


def test_random_players_pick_each_allowed_spell_equally(tmp_path):
    path = api.run("grimoire", players=3, games=2000, seed=22, out=tmp_path / "r",
                   strategies=["random"], settings={"spell_level_step": 0}, progress=False)
    seats = api.load(path).seats
    counts = [int(seats[f"cast_level_{k}"].sum()) for k in range(1, 7)]
    assert stats.chisquare(counts).pvalue > 1e-4, counts
