"""A role's verdict must not mix up who holds the role with how good it is: when a strong
strategy holds one role more often, the pooled rate shows a role effect that the
strategy-adjusted rate (the mean of the role's rates within each strategy) does not, and the
reverse when the weak strategy holds the good role more often. Hand-built seats first, then a
real run whose seats are rewritten so, through the report and the run's summary table."""

import json

import polars as pl
import pytest

from reports import metrics, stats
from reports.build import build_report
from reports.summary import summary_table
from simulator import api


def duel(games):
    """Two-player seat rows from (count, strong's role, weak's role, strong's wins) groups."""
    rows, game_id = [], 0
    for count, strong_role, weak_role, strong_wins in games:
        for i in range(count):
            strong_won = i < strong_wins
            for seat, (strategy, role, won) in enumerate(
                    [("strong", strong_role, strong_won), ("weak", weak_role, not strong_won)]):
                rows.append({"game_id": game_id, "seat": seat, "strategy": strategy,
                             "role": role, "score": 0, "winner": won,
                             "win_share": float(won), "n_players": 2})
            game_id += 1
    return pl.DataFrame(rows).lazy()


def row_of(table, **keys):
    rows = table.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items())).to_dicts()
    assert len(rows) == 1, (keys, rows)
    return rows[0]


def test_a_strong_strategy_holding_a_role_more_often_is_no_role_effect():
    # The strong strategy wins 75% whatever it holds, and holds the captain in 120 games of 160:
    # the captain's pooled rate is (90 + 10) / 160 = 62.5%, its adjusted (75% + 25%) / 2 = 50%.
    seats = duel([(120, "captain", "sailor", 90), (40, "sailor", "captain", 30)])
    pooled = metrics.win_rates(seats, "role")
    assert row_of(pooled, role="captain")["win_rate"] == pytest.approx(0.625)
    assert row_of(pooled, role="captain")["significant"]
    assert row_of(pooled, role="sailor")["significant"]
    adjusted = metrics.adjusted_rates(seats, "role", "strategy")
    for role in ("captain", "sailor"):
        row = row_of(adjusted, role=role)
        assert row["adjusted_rate"] == pytest.approx(0.5)
        assert row["adjusted_low"] < 0.5 < row["adjusted_high"]
        assert row["enough"] and not row["adjusted_significant"]


def test_a_good_role_held_mostly_by_the_weak_strategy_is_found():
    # Within each strategy the captain wins 30 points more (strong: 90% against 60%; weak: 40%
    # against 10%), but the weak strategy holds it in 120 games of 160: pooled 84/160 = 52.5%,
    # within chance; adjusted (90% + 40%) / 2 = 65%, beyond it.
    seats = duel([(40, "captain", "sailor", 36), (120, "sailor", "captain", 72)])
    pooled = metrics.win_rates(seats, "role")
    assert row_of(pooled, role="captain")["win_rate"] == pytest.approx(84 / 160)
    assert not row_of(pooled, role="captain")["significant"]
    adjusted = metrics.adjusted_rates(seats, "role", "strategy")
    captain, sailor = row_of(adjusted, role="captain"), row_of(adjusted, role="sailor")
    assert captain["adjusted_rate"] == pytest.approx(0.65)
    assert sailor["adjusted_rate"] == pytest.approx(0.35)
    assert captain["adjusted_significant"] and sailor["adjusted_significant"]
    assert captain["adjusted_p_adjusted"] < 0.05 < row_of(pooled, role="captain")["p_adjusted"]


def test_adjusted_interval_keeps_a_width_when_every_cell_is_all_or_nothing():
    # The strong strategy wins every game: each cell is 100% or 0%, so a plain normal interval
    # would have no width; the Agresti-Coull variance of each cell keeps one.
    seats = duel([(60, "captain", "sailor", 60), (60, "sailor", "captain", 60)])
    row = row_of(metrics.adjusted_rates(seats, "role", "strategy"), role="captain")
    z2 = stats.z_value(0.95) ** 2
    pulled = (60 + z2 / 2) / (60 + z2)
    se = ((2 * pulled * (1 - pulled) / (60 + z2)) ** 0.5) / 2
    assert row["adjusted_rate"] == pytest.approx(0.5)
    assert row["adjusted_high"] - row["adjusted_low"] == pytest.approx(2 * stats.z_value(0.95) * se)


def test_a_role_one_strategy_held_rarely_or_never_gets_no_adjusted_rate():
    thin = stats.MIN_SAMPLE - 1
    seats = duel([(100, "captain", "sailor", 60), (thin, "sailor", "captain", 20),
                  (50, "bosun", "sailor", 30), (40, "sailor", "sailor", 20)])
    adjusted = metrics.adjusted_rates(seats, "role", "strategy")
    captain = row_of(adjusted, role="captain")       # the weak strategy held it 29 times
    assert captain["n_min"] == thin and not captain["enough"]
    assert captain["adjusted_rate"] is None and captain["adjusted_p_adjusted"] is None
    bosun = row_of(adjusted, role="bosun")           # the weak strategy never held it
    assert (bosun["cells"], bosun["strata"]) == (1, 2) and not bosun["enough"]
    assert bosun["adjusted_rate"] is None and not bosun["adjusted_significant"]
    assert row_of(adjusted, role="sailor")["enough"]


def test_rates_within_a_strategy_stand_beside_its_own_rate():
    seats = duel([(120, "captain", "sailor", 90), (40, "sailor", "captain", 30)])
    within = metrics.rates_within(seats, "role", "strategy", seats)
    strong_captain = row_of(within, role="captain", strategy="strong")
    assert (strong_captain["n"], strong_captain["win_rate"]) == (120, pytest.approx(0.75))
    assert strong_captain["baseline"] == pytest.approx(120 / 160)
    weak_captain = row_of(within, role="captain", strategy="weak")
    assert weak_captain["win_rate"] == pytest.approx(0.25)
    assert weak_captain["baseline"] == pytest.approx(40 / 160)


# --- through the report and the run's summary table ----------------------------------------

def strong_holds_the_captain(df: pl.DataFrame) -> pl.DataFrame:
    """Seats rewritten so: the strong strategy sits in seat game % 2, holds the captain unless
    game % 5 == 0 and wins unless game % 7 < 2, whatever its role."""
    strong = pl.col("seat") == pl.col("game_id") % 2
    strong_has_captain = pl.col("game_id") % 5 != 0
    strong_wins = pl.col("game_id") % 7 >= 2
    won = strong == strong_wins
    return df.with_columns(
        pl.when(strong).then(pl.lit("strong")).otherwise(pl.lit("weak")).alias("strategy"),
        pl.when(strong == strong_has_captain).then(pl.lit("captain")).otherwise(pl.lit("sailor"))
        .alias("role"),
        pl.lit(None, pl.String).alias("role_not_chosen"),
        won.alias("winner"), won.cast(pl.Float64).alias("win_share"),
        pl.when(won).then(1).otherwise(2).cast(df.schema["rank"]).alias("rank"))


@pytest.fixture
def confounded_run(tmp_path, rewrite_run):
    base = api.run("gremios", players=2, games=400, seed=2, out=tmp_path / "two", progress=False)
    return rewrite_run(base, tmp_path / "run", seats_fn=strong_holds_the_captain)


def test_the_report_judges_roles_on_the_strategy_adjusted_rate(confounded_run, tmp_path):
    report = build_report(confounded_run, tmp_path / "r")
    summary = json.loads((report / "summary.json").read_text())
    roles = summary["roles"]
    assert roles["verdict_rate"] == "strategy-adjusted"
    captain = next(r for r in roles["win_rates"] if r["role"] == "captain")
    assert captain["significant"] and captain["win_rate"] > 0.6          # pooled: who holds it
    assert not captain["adjusted_significant"]
    assert captain["adjusted_rate"] == pytest.approx(0.5, abs=0.03)       # adjusted: no effect
    assert not any("Captain wins" in f or "Sailor wins" in f for f in summary["findings"])
    md = (report / "report.md").read_text()
    assert "0 of 2 roles depart from the fair share beyond chance once strategy-adjusted" in md
    assert "| Strategy-adjusted |" in md and "Roles within each strategy" in md
    assert {(r["role"], r["strategy"]) for r in roles["by_strategy"]} == {
        (role, s) for role in ("captain", "sailor") for s in ("strong", "weak")}


def test_the_run_summary_adds_the_strategy_adjusted_role_rates(confounded_run):
    text = summary_table(confounded_run)
    adjusted = text.split("role, strategy-adjusted")[1].split("role within strategy")[0]
    captain = next(line for line in adjusted.splitlines() if line.strip().startswith("captain"))
    assert float(captain.split()[1].rstrip("%")) == pytest.approx(50, abs=3)
    assert "captain · strong" in text and "sailor · weak" in text
