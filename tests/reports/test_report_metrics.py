"""The report's aggregations on small hand-built tables whose answers are worked out by hand."""

import math

import numpy as np
import polars as pl
import pytest
import scipy.stats as ss

from reports import metrics, stats


def seats_frame(games, extra=None):
    """Seat rows from a list of games, each a list of seat dicts (seat order = turn order)."""
    rows = []
    for game_id, seats in enumerate(games):
        winners = sum(bool(s.get("winner")) for s in seats)
        for seat, s in enumerate(seats):
            won = bool(s.get("winner"))
            row = {"game_id": game_id, "seat": seat, "strategy": s.get("strategy", "x"),
                   "role": s.get("role"), "score": s.get("score", 0), "rank": 1 if won else 2,
                   "winner": won, "win_share": 1.0 / winners if won else 0.0,
                   "n_players": len(seats)}
            for key in extra or ():
                row[key] = s.get(key)
            rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None).lazy()


def row_of(table, **keys):
    rows = table.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items())).to_dicts()
    assert len(rows) == 1, (keys, rows)
    return rows[0]


# --- win rates ----------------------------------------------------------------------------

def two_and_three_player_games():
    games = []
    games += [[{"winner": True}, {}] for _ in range(30)]                  # seat 0 wins 30
    games += [[{"winner": True}, {"winner": True}] for _ in range(4)]     # 4 ties
    games += [[{}, {"winner": True}] for _ in range(6)]                   # seat 1 wins 6
    games += [[{"winner": True}, {}, {}] for _ in range(20)]
    games += [[{}, {"winner": True}, {}] for _ in range(10)]
    games += [[{}, {}, {"winner": True}] for _ in range(10)]
    return seats_frame(games)


def test_win_rates_share_ties_and_use_the_fair_share_of_each_player_count():
    table = metrics.win_rates(two_and_three_player_games(), "seat", 0.95)
    assert table.height == 5
    s0 = row_of(table, seat=0, n_players=2)
    assert (s0["n"], s0["wins"]) == (40, 32.0)                             # 30 + 4 halves
    assert s0["win_rate"] == pytest.approx(0.8) and s0["fair"] == pytest.approx(0.5)
    assert (s0["low"], s0["high"]) == pytest.approx(stats.wilson_interval(32, 40, 0.95))
    assert row_of(table, seat=1, n_players=2)["win_rate"] == pytest.approx(0.2)
    three = table.filter(pl.col("n_players") == 3).sort("seat")
    assert three["win_rate"].to_list() == pytest.approx([0.5, 0.25, 0.25])
    assert three["fair"].to_list() == pytest.approx([1 / 3] * 3)
    # p-values: the score test against each row's own fair share, Holm-adjusted over the table
    raw = stats.proportion_pvalue(table["wins"].to_numpy(), table["n"].to_numpy(),
                                  table["fair"].to_numpy())
    assert table["p_value"].to_numpy() == pytest.approx(raw)
    assert table["p_adjusted"].to_numpy() == pytest.approx(stats.holm(raw))
    assert table["significant"].to_list() == list(stats.holm(raw) < 0.05)
    assert s0["significant"]


def test_a_group_with_too_few_games_shows_no_number():
    games = [[{"winner": True, "strategy": "rare"}, {"strategy": "common"}]
             for _ in range(stats.MIN_SAMPLE - 1)]
    table = metrics.win_rates(seats_frame(games), "strategy")
    rare = row_of(table, strategy="rare")
    assert rare["n"] == stats.MIN_SAMPLE - 1 and rare["enough"] is False
    assert all(rare[k] is None for k in ("win_rate", "low", "high", "p_value", "p_adjusted"))
    assert rare["significant"] is False
    games.append([{"strategy": "rare"}, {"winner": True, "strategy": "common"}])
    table = metrics.win_rates(seats_frame(games), "strategy")
    assert row_of(table, strategy="rare")["win_rate"] == pytest.approx(29 / 30)


def test_seat_adjusted_rate_weighs_every_seat_the_same():
    # A plays seat 0 in 40 games (wins 30) and seat 1 in 80 games (wins 20): plain rate 50/120,
    # seat-adjusted (30/40 + 20/80) / 2 = 0.5
    games = ([[{"strategy": "A", "winner": True}, {"strategy": "B"}] for _ in range(30)]
             + [[{"strategy": "A"}, {"strategy": "B", "winner": True}] for _ in range(10)]
             + [[{"strategy": "B"}, {"strategy": "A", "winner": True}] for _ in range(20)]
             + [[{"strategy": "B", "winner": True}, {"strategy": "A"}] for _ in range(60)])
    seats = seats_frame(games)
    plain = row_of(metrics.win_rates(seats, "strategy"), strategy="A")
    assert plain["win_rate"] == pytest.approx(50 / 120)
    adjusted = metrics.adjusted_rates(seats, "strategy", "seat", 0.95)
    a = row_of(adjusted, strategy="A")
    assert a["adjusted_rate"] == pytest.approx(0.5)
    assert a["balance"] == pytest.approx(0.5) and a["cells"] == 2 and a["n"] == 120
    z = ss.norm.ppf(0.975)
    # each cell's variance is Agresti-Coull's: its rate pulled z^2/2 wins and losses to a half
    p0, p1 = (30 + z * z / 2) / (40 + z * z), (20 + z * z / 2) / (80 + z * z)
    se = math.sqrt(p0 * (1 - p0) / (40 + z * z) + p1 * (1 - p1) / (80 + z * z)) / 2
    assert (a["adjusted_low"], a["adjusted_high"]) == pytest.approx((0.5 - z * se, 0.5 + z * se))
    assert row_of(adjusted, strategy="B")["adjusted_rate"] == pytest.approx(0.5)


def test_strategy_adjusted_seat_rate_weighs_every_strategy_the_same():
    # The same games seen by seat: seat 0 holds A in 40 games (A wins 30) and B in 80 (B wins
    # 60): plain rate 90/120, strategy-adjusted (30/40 + 60/80) / 2 = 0.75; seat 1: 30/120 and
    # (10/40 + 20/80) / 2 = 0.25.
    games = ([[{"strategy": "A", "winner": True}, {"strategy": "B"}] for _ in range(30)]
             + [[{"strategy": "A"}, {"strategy": "B", "winner": True}] for _ in range(10)]
             + [[{"strategy": "B"}, {"strategy": "A", "winner": True}] for _ in range(20)]
             + [[{"strategy": "B", "winner": True}, {"strategy": "A"}] for _ in range(60)])
    adjusted = metrics.adjusted_rates(seats_frame(games), "seat", "strategy", 0.95)
    assert row_of(adjusted, seat=0)["adjusted_rate"] == pytest.approx(0.75)
    assert row_of(adjusted, seat=1)["adjusted_rate"] == pytest.approx(0.25)
    assert row_of(adjusted, seat=0)["cells"] == 2


# --- roles --------------------------------------------------------------------------------

MATRIX_GAMES = [
    [{"role": "a", "winner": True}, {"role": "b"}, {"role": "c"}],
    [{"role": "a"}, {"role": "b", "winner": True}, {"role": "d"}],
    [{"role": "b"}, {"role": "c", "winner": True}, {"role": "d", "winner": True}],
]
# (role, opponent): (seats of the role in games where the opponent is at the table, wins)
MATRIX_BY_HAND = {
    ("a", "b"): (2, 1.0), ("a", "c"): (1, 1.0), ("a", "d"): (1, 0.0),
    ("b", "a"): (2, 1.0), ("b", "c"): (2, 0.0), ("b", "d"): (2, 1.0),
    ("c", "a"): (1, 0.0), ("c", "b"): (2, 0.5), ("c", "d"): (1, 0.5),
    ("d", "a"): (1, 0.0), ("d", "b"): (2, 0.5), ("d", "c"): (1, 0.5),
}


def matrix_dict(table):
    return {(r["role"], r["opponent_role"]): (r["n"], r["wins"]) for r in table.iter_rows(named=True)}


def test_role_matrix_by_hand():
    table = metrics.role_matrix(metrics.split_roles(seats_frame(MATRIX_GAMES)))
    assert matrix_dict(table) == MATRIX_BY_HAND
    assert not table["enough"].any() and table["win_rate"].null_count() == table.height


def test_role_matrix_summed_over_parts_equals_the_whole():
    whole = seats_frame(MATRIX_GAMES * 30).collect()
    parts = [whole.filter(pl.col("game_id") < 40).lazy(), whole.filter(pl.col("game_id") >= 40).lazy()]
    table = metrics.role_matrix([metrics.split_roles(p) for p in parts])
    assert matrix_dict(table) == {k: (30 * n, 30 * w) for k, (n, w) in MATRIX_BY_HAND.items()}
    ab = row_of(table, role="a", opponent_role="b")
    assert ab["enough"] and ab["win_rate"] == pytest.approx(0.5)
    assert (ab["low"], ab["high"]) == pytest.approx(stats.wilson_interval(30, 60))
    assert ab["fair"] == pytest.approx(1 / 3)


def test_a_seat_holding_two_roles_counts_for_each_and_never_meets_itself():
    games = [[{"role": "a+b", "winner": True}, {"role": "c+d"}]]
    roles = metrics.split_roles(seats_frame(games))
    assert sorted(roles.collect()["role"].to_list()) == ["a", "b", "c", "d"]
    table = metrics.role_matrix(roles)
    assert matrix_dict(table) == {(x, y): (1, 1.0 if x in "ab" else 0.0)
                                  for x in "abcd" for y in "abcd"
                                  if (x in "ab") != (y in "ab")}
    rates = metrics.win_rates(roles, "role")
    assert dict(zip(rates["role"], rates["wins"])) == {"a": 1.0, "b": 1.0, "c": 0.0, "d": 0.0}


def test_role_choice_counts_only_seats_that_chose():
    games = ([[{"role": "a", "rnc": "b", "winner": True}, {"role": "c", "rnc": "a"}]
              for _ in range(40)]
             # seat 0 was given role a (no choice): it must not count as a deal of a
             + [[{"role": "a", "rnc": None, "winner": True}, {"role": "c", "rnc": "b"}]
                for _ in range(10)])
    table = metrics.role_choice(seats_frame(games, extra=["rnc"]), "rnc", 0.95)
    a, b, c = (row_of(table, role=r) for r in "abc")
    assert (a["dealt"], a["chosen"], a["passed"]) == (80, 40, 40)
    assert a["chosen_rate"] == pytest.approx(0.5)
    assert (a["chosen_low"], a["chosen_high"]) == pytest.approx(stats.wilson_interval(40, 80))
    assert a["win_rate_chosen"] == pytest.approx(1.0)         # won every game it was kept in
    assert (b["dealt"], b["chosen"], b["chosen_rate"]) == (50, 0, 0.0)
    assert (c["dealt"], c["chosen"], c["chosen_rate"]) == (50, 50, 1.0)
    assert c["win_rate_chosen"] == pytest.approx(0.0)
    assert table["random_rate"].to_list() == pytest.approx([0.5, 0.5, 0.5])
    assert b["choice_significant"] and c["choice_significant"] and not a["choice_significant"]


def test_role_choice_with_several_cards_uses_the_random_rate_of_each_deal():
    # seat 0 keeps a out of {a, b, c} (random keep rate 1/3); seat 1 keeps d out of {d, a} (1/2)
    games = [[{"role": "a", "rnc": "b+c"}, {"role": "d", "rnc": "a", "winner": True}]
             for _ in range(30)]
    table = metrics.role_choice(seats_frame(games, extra=["rnc"]), "rnc")
    a = row_of(table, role="a")
    assert (a["dealt"], a["chosen"]) == (60, 30)
    assert a["random_rate"] == pytest.approx((30 / 3 + 30 / 2) / 60)
    assert row_of(table, role="b")["random_rate"] == pytest.approx(1 / 3)
    assert row_of(table, role="d")["random_rate"] == pytest.approx(1 / 2)
    assert row_of(table, role="d")["win_rate_chosen"] == pytest.approx(1.0)


# --- scores -------------------------------------------------------------------------------

def score_games(big=1200, small=100, tiny=20, seed=0):
    rng = np.random.default_rng(seed)
    values = {"big": rng.poisson(7, big), "small": rng.geometric(0.2, small),
              "tiny": rng.integers(0, 10, tiny)}
    games = [[{"strategy": name, "score": int(v)}] for name, vs in values.items() for v in vs]
    return seats_frame(games), values


def test_score_stats_by_hand_and_against_scipy():
    seats, values = score_games()
    table = metrics.score_stats(seats, "strategy", 0.95)
    qs = [0.05, 0.25, 0.5, 0.75, 0.95]
    for name in ("big", "small"):
        x = values[name].astype(float)
        r = row_of(table, strategy=name)
        assert r["n"] == x.size and r["enough"]
        assert r["mean"] == pytest.approx(x.mean()) and r["sd"] == pytest.approx(x.std(ddof=1))
        assert [r["q05"], r["q25"], r["q50"], r["q75"], r["q95"]] == pytest.approx(np.quantile(x, qs))
        assert (r["min"], r["max"]) == (x.min(), x.max())
    big = row_of(table, strategy="big")
    assert big["method"] == "t"
    x = values["big"]
    assert (big["low"], big["high"]) == pytest.approx(
        ss.t.interval(0.95, x.size - 1, loc=x.mean(), scale=x.std(ddof=1) / math.sqrt(x.size)))
    small = row_of(table, strategy="small")
    assert small["method"] == "bootstrap"
    assert (small["low"], small["high"]) == pytest.approx(
        stats.bootstrap_mean_interval(np.sort(values["small"]), 0.95))
    tiny = row_of(table, strategy="tiny")
    assert tiny["n"] == 20 and not tiny["enough"]
    assert all(tiny[k] is None for k in ("mean", "low", "high", "method", "q50"))


def test_score_stats_of_float_values_agree_with_integer_counts():
    seats, values = score_games(seed=4)
    as_int = metrics.score_stats(seats, "strategy").sort("strategy")
    as_float = metrics.score_stats(seats.with_columns(pl.col("score").cast(pl.Float64)),
                                   "strategy").sort("strategy")
    for col in ("n", "mean", "sd", "min", "q05", "q25", "q50", "q75", "q95", "max"):
        assert as_float[col].to_list() == pytest.approx(as_int[col].to_list(), nan_ok=True), col
    big_int, big_float = row_of(as_int, strategy="big"), row_of(as_float, strategy="big")
    assert (big_float["low"], big_float["high"]) == pytest.approx((big_int["low"], big_int["high"]))
    small = row_of(as_float, strategy="small")       # bootstrap of the values in table order
    assert (small["low"], small["high"]) == pytest.approx(
        stats.bootstrap_mean_interval(values["small"].astype(float), 0.95))


def test_score_stats_without_groups():
    seats, values = score_games()
    r = metrics.score_stats(seats, None).row(0, named=True)
    everything = np.concatenate(list(values.values()))
    assert r["n"] == everything.size and r["mean"] == pytest.approx(everything.mean())


def test_source_means_and_the_unexplained_rest():
    games = [[{"strategy": "A", "score": 5, "p1": 2, "p2": 3},
              {"strategy": "B", "score": 4, "p1": 1, "p2": 1}] for _ in range(30)]
    table = metrics.source_means(seats_frame(games, extra=["p1", "p2"]), "strategy", ["p1", "p2"])
    a, b = row_of(table, strategy="A"), row_of(table, strategy="B")
    assert (a["p1"], a["p2"], a["score"], a["other"]) == pytest.approx((2, 3, 5, 0))
    assert (b["p1"], b["p2"], b["score"], b["other"]) == pytest.approx((1, 1, 4, 2))
    no_total = metrics.source_means(seats_frame(games, extra=["p1", "p2"]), "strategy",
                                    ["p1", "p2"], total=None)
    assert "other" not in no_total.columns


# --- distributions ------------------------------------------------------------------------

def test_histogram_of_integers_counts_every_value():
    frame = pl.LazyFrame({"v": [1, 1, 2, 5, 5, 5]})
    h = metrics.histogram(frame, "v")
    assert h.to_dicts() == [{"left": 1.0, "right": 2.0, "count": 2},
                            {"left": 2.0, "right": 3.0, "count": 1},
                            {"left": 5.0, "right": 6.0, "count": 3}]
    wide = metrics.histogram(pl.LazyFrame({"v": list(range(0, 1001))}), "v", max_bins=60)
    assert wide["count"].sum() == 1001 and wide.height <= 60
    assert (wide["right"] - wide["left"]).unique().to_list() == [17.0]   # ceil(1001 / 60)


def test_histogram_of_floats_keeps_the_maximum_in_the_last_bin():
    x = np.random.default_rng(2).normal(size=1000)
    h = metrics.histogram(pl.LazyFrame({"v": x}), "v", max_bins=40)
    assert h["count"].sum() == 1000 and h.height <= 40
    assert h["left"].min() == pytest.approx(x.min()) and h["right"].max() == pytest.approx(x.max())


def test_winning_scores_and_game_length():
    games = [[{"score": 10, "winner": True}, {"score": 12}],            # best score did not win
             [{"score": 11, "winner": True}, {"score": 11, "winner": True}]]
    w = metrics.winning_scores(seats_frame(games)).sort("game_id").collect()
    assert w["winning_score"].to_list() == [10, 11]
    turns = pl.LazyFrame({"game_id": range(5), "turns": [10, 20, 30, 40, 200],
                          "truncated": [False, False, False, False, True]})
    length = metrics.game_length(turns)
    assert (length["games"], length["truncated"]) == (5, 1)
    assert length["truncated_share"] == pytest.approx(0.2)
    assert length["q50"] == 30 and length["mean"] == pytest.approx(60)


def test_game_count_means_against_scipy():
    x = np.random.default_rng(5).poisson(3, 500)
    table = metrics.game_count_means(pl.LazyFrame({"events": x, "other": x * 2}),
                                     ["events", "missing_column"])
    assert table["count"].to_list() == ["events"]
    r = table.row(0, named=True)
    assert r["mean"] == pytest.approx(x.mean())
    assert (r["low"], r["high"]) == pytest.approx(
        ss.t.interval(0.95, 499, loc=x.mean(), scale=x.std(ddof=1) / math.sqrt(500)))


def test_games_winning_score_column_matches_the_winners_seats(small_run):
    """The report reads a game's recorded winning score where it has one: the same numbers."""
    from simulator import api
    data = api.load(small_run)
    from_seats = metrics.winning_scores(data.seats.lazy()).sort("game_id").collect()
    assert from_seats["winning_score"].to_list() == data.games.sort("game_id")["winning_score"].to_list()
