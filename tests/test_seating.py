"""The seat design: every strategy in every seat, every ordered table, equally often."""

import collections
import itertools

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings, strategies as st

from simulator import api
from simulator.core.errors import UsageError
from simulator.core.seating import design_size, seat_design


@settings(max_examples=60, deadline=None)
@given(k=st.integers(1, 8), n=st.integers(1, 5))
def test_design_balances_seats_and_tables(k, n):
    design = seat_design(k, n)
    assert design.shape == (design_size(k, n), n)
    rows = [tuple(r) for r in design]
    assert len(set(rows)) == len(rows)  # every arrangement once
    # each strategy as evenly represented at every table as the table allows
    for row in rows:
        counts = np.bincount(row, minlength=k)
        assert counts.min() >= n // k and counts.max() <= n // k + 1
    # every strategy in every seat equally often over the cycle...
    for seat in range(n):
        per_slot = np.bincount(design[:, seat], minlength=k)
        assert (per_slot == per_slot[0]).all()
    # ... and in every block of k games, once each
    for block in range(0, len(rows), k):
        for seat in range(n):
            assert sorted(design[block:block + k, seat]) == list(range(k))


def test_five_strategies_at_two_seats_are_all_twenty_ordered_pairs():
    rows = {tuple(r) for r in seat_design(5, 2)}
    assert rows == set(itertools.permutations(range(5), 2))


def test_a_short_mix_fills_the_table_evenly():
    # two strategies at four seats: each in two seats, all six arrangements of {0, 0, 1, 1}
    rows = {tuple(r) for r in seat_design(2, 4)}
    assert rows == set(itertools.permutations((0, 0, 1, 1)))
    # three at four: one strategy takes the spare seat, in turn
    assert design_size(3, 4) == 3 * 12


def test_the_first_block_is_the_plain_rotation():
    design = seat_design(5, 4)
    for i in range(5):
        assert list(design[i]) == [(s + i) % 5 for s in range(4)]


def test_a_design_too_large_is_refused():
    with pytest.raises(UsageError, match="arrangements"):
        seat_design(40, 5)


def test_a_two_player_run_of_five_strategies_plays_all_twenty_pairings_equally(tmp_path):
    strategies = ["greedy", "guild_baron", "inn_builder", "expedition_gambler", "balanced"]
    path = api.run("gremios", players=2, games=400, seed=3, strategies=strategies,
                   out=tmp_path / "run", progress=False)
    seats = api.load(path).seats.sort("game_id", "seat")
    tables = seats.group_by("game_id", maintain_order=True).agg(pl.col("strategy"))
    pairs = collections.Counter(tuple(t) for t in tables["strategy"].to_list())
    assert set(pairs) == set(itertools.permutations(strategies, 2))
    assert set(pairs.values()) == {20}


def test_one_strategy_at_every_seat_plays_the_same_games_however_the_mix_is_written(tmp_path):
    # Three identical entries are permuted by the design, but identical players make identical
    # games: the seat effect of a table of one strategy is what the design leaves unchanged.
    one = api.load(api.run("gremios", players=3, games=300, seed=5, strategies=["balanced"],
                           out=tmp_path / "one", progress=False)).seats
    three = api.load(api.run("gremios", players=3, games=300, seed=5,
                             strategies=["balanced"] * 3, out=tmp_path / "three",
                             progress=False)).seats
    columns = ["game_id", "seat", "score", "rank", "win_share"]
    assert one.select(columns).equals(three.select(columns))
