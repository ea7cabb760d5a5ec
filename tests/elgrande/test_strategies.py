"""The heuristic players beat random clearly, and each personality plays as it says."""

import polars as pl
import pytest

from simulator import api


@pytest.fixture(scope="module")
def against_random(tmp_path_factory):
    path = tmp_path_factory.mktemp("elgrande") / "vs_random"
    return api.load(api.run("elgrande", players=2, games=120, seed=3,
                            strategies=["greedy", "random"], out=path, progress=False)).seats


def test_greedy_beats_random_clearly(against_random):
    share = against_random.group_by("strategy").agg(pl.col("win_share").mean())
    greedy = share.filter(pl.col("strategy") == "greedy")["win_share"].item()
    assert greedy >= 0.9, greedy


def test_greedy_beats_random_clearly_in_the_expansion(tmp_path):
    seats = api.load(api.run("elgrande", players=2, games=60, seed=3,
                             mode="grand_inquisitor_colonies", strategies=["greedy", "random"],
                             out=tmp_path / "vs_random", progress=False)).seats
    share = seats.group_by("strategy").agg(pl.col("win_share").mean())
    greedy = share.filter(pl.col("strategy") == "greedy")["win_share"].item()
    assert greedy >= 0.9, greedy


def test_personalities_show_their_style(small_runs):
    seats = api.load(small_runs[5]).seats
    by = seats.group_by("strategy").agg(
        pl.col("cards_stack_5").mean(), pl.col("cards_stack_1").mean(),
        pl.col("vp_castillo").mean(), pl.col("power_13_round").gt(0).mean().alias("played_13"),
    )
    row = {n: by.filter(pl.col("strategy") == n) for n in by["strategy"]}
    others = [n for n in row if n != "king_shadow"]
    assert all(row["king_shadow"]["cards_stack_5"].item() > row[n]["cards_stack_5"].item()
               for n in others)
    assert all(row["intriguer"]["cards_stack_1"].item() > row[n]["cards_stack_1"].item()
               for n in row if n != "intriguer")
    assert all(row["castillo_schemer"]["vp_castillo"].item() > row[n]["vp_castillo"].item()
               for n in row if n != "castillo_schemer")


def test_expansion_personalities_show_their_style(expansion_run):
    """The colonial merchant brings home the most Gold and Wares; the inquisitor takes the Holy
    Inquisition (stack 6) most often."""
    seats = api.load(expansion_run).seats
    by = seats.group_by("strategy").agg(pl.col("vp_gold_and_wares").mean(),
                                        pl.col("cards_stack_6").mean())
    row = {n: by.filter(pl.col("strategy") == n) for n in by["strategy"]}
    assert all(row["colonial_merchant"]["vp_gold_and_wares"].item()
               > row[n]["vp_gold_and_wares"].item() for n in row if n != "colonial_merchant")
    assert all(row["inquisitor"]["cards_stack_6"].item() > row[n]["cards_stack_6"].item()
               for n in row if n != "inquisitor")
