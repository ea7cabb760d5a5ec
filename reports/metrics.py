"""Polars aggregations behind the balance report: lazy in, small plain tables out.

Every function takes polars frames (lazy or not) with the dataset's core columns and returns a
small ``polars.DataFrame`` (one row per seat, role, strategy, histogram bin...). Only those
small tables reach the statistics and the charts, so a run of millions of games reports in
seconds and in bounded memory.

Conventions shared by every table:

* ``n_players`` is always a grouping column: the fair share of wins is ``1 / n_players``.
* Win rates are the mean of ``win_share`` (a k-way tie gives each winner 1/k).
* A group with fewer than ``stats.MIN_SAMPLE`` observations keeps its count ``n`` but has every
  estimate set to null and ``enough = False``: the report says "too few games" there.
* A seat holding several roles at once (``"pirate+trader"``) counts towards each of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from scipy.stats import norm

from reports import stats
from simulator.core.dataset import load
from simulator.core.errors import UsageError

# Every query runs on polars' streaming engine: a report's memory is bounded by polars' batches,
# not by the run (ten million games: under 200 MB of working tables, against about 2 GB in memory).
ENGINE = "streaming"

ROLE_SEPARATOR = "+"

ESTIMATES = ("win_rate", "low", "high", "p_value", "p_adjusted")


# --- loading ------------------------------------------------------------------------------

@dataclass
class Run:
    """A run opened for reporting: lazy tables, the manifest and a few checked facts."""

    path: Path
    manifest: dict
    seats: pl.LazyFrame
    games: pl.LazyFrame
    n_games: int
    n_seat_rows: int
    player_counts: list[int]

    @property
    def columns(self) -> dict:
        return self.manifest.get("columns") or {}

    def part_seats(self) -> list[pl.LazyFrame]:
        """The seats table one part at a time (each part holds whole games), with n_players."""
        frames = []
        for seats_part, games_part in zip(self.manifest["parts"]["seats"],
                                          self.manifest["parts"]["games"]):
            seats = pl.scan_parquet(self.path / "seats" / seats_part["file"])
            games = pl.scan_parquet(self.path / "games" / games_part["file"])
            frames.append(with_player_count(seats, games, self.player_counts))
        return frames


def _polars_errors():
    return (pl.exceptions.ComputeError, pl.exceptions.PolarsError, OSError)


def open_run(path: str | Path) -> Run:
    """Open a run folder lazily and check it is a complete, readable, non-empty dataset.

    Raises ``UsageError`` (one line) for a folder that is not a run, an unfinished run, missing
    or unreadable (truncated) parts, row counts that disagree with the manifest, or no games.
    """
    path = Path(path)
    data = load(path, lazy=True)
    manifest = data.manifest
    for key in ("game", "n_players", "parts"):
        if key not in manifest:
            raise UsageError(f"{path}: the manifest has no '{key}', so this is not a playtest run")
    if not manifest["parts"].get("seats") or not manifest["parts"].get("games"):
        raise UsageError(f"{path}: the run holds no games (no data parts); nothing to report")
    try:
        counts = pl.collect_all([data.seats.select(pl.len()), data.games.select(pl.len()),
                                 data.games.select(pl.col("n_players").unique().sort())])
    except _polars_errors() as e:
        raise UsageError(f"{path}: a data part cannot be read (truncated or corrupt?): "
                         f"{_first_line(e)}") from None
    n_seats, n_games = counts[0].item(), counts[1].item()
    expected_games = sum(p.get("games", 0) for p in manifest["parts"]["games"])
    expected_rows = sum(p.get("rows", 0) for p in manifest["parts"]["seats"])
    if n_games == 0 or n_seats == 0:
        raise UsageError(f"{path}: the run holds no games; nothing to report")
    if n_games != expected_games or (expected_rows and n_seats != expected_rows):
        raise UsageError(f"{path}: the parts hold {n_games:,} games and {n_seats:,} seat rows but "
                         f"the manifest lists {expected_games:,} and {expected_rows:,}; "
                         "the dataset is incomplete or mixed")
    missing = [c for c in ("game_id", "seat", "strategy", "role", "score", "rank", "winner",
                           "win_share") if c not in data.seats.collect_schema()]
    if missing:
        raise UsageError(f"{path}: the seats table lacks the core column(s) {', '.join(missing)}")
    return Run(path, manifest, data.seats, data.games, n_games, n_seats,
               [int(v) for v in counts[2]["n_players"]])


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


# --- frames -------------------------------------------------------------------------------

def with_player_count(seats: pl.LazyFrame, games: pl.LazyFrame,
                      player_counts: list[int] | None = None) -> pl.LazyFrame:
    """The seats with the game's ``n_players`` (a constant when the run has one player count)."""
    seats = seats.lazy()
    if "n_players" in seats.collect_schema():
        return seats
    if player_counts is not None and len(player_counts) == 1:
        return seats.with_columns(pl.lit(player_counts[0], dtype=pl.Int8).alias("n_players"))
    return seats.join(games.lazy().select("game_id", "n_players"), on="game_id", how="left")


def first_seat_varies(games: pl.LazyFrame) -> bool:
    """Whether some game was opened by another seat than seat 0 (``games.first_seat``)."""
    games = games.lazy()
    if "first_seat" not in games.collect_schema():
        return False
    return bool(games.select((pl.col("first_seat") != 0).any()).collect(engine=ENGINE).item())


def with_turn_position(seats: pl.LazyFrame, games: pl.LazyFrame) -> pl.LazyFrame:
    """The seats with ``position``: place in the opening turn order (0 = opened the game),
    counted round the table from ``games.first_seat``."""
    return (seats.lazy().join(games.lazy().select("game_id", "first_seat"), on="game_id", how="left")
            .with_columns(((pl.col("seat").cast(pl.Int16) - pl.col("first_seat").cast(pl.Int16)
                            + pl.col("n_players").cast(pl.Int16)) % pl.col("n_players").cast(pl.Int16))
                          .alias("position"))
            .drop("first_seat"))


def split_roles(seats: pl.LazyFrame, column: str = "role", combined: bool | None = None) -> pl.LazyFrame:
    """One row per (seat, role held): ``"a+b"`` becomes two rows; seats without a role drop out.

    ``combined`` says whether any seat holds several roles (``None``: look it up); when none
    does, the split is skipped (it is the costly part on millions of rows).
    """
    lf = seats.lazy().filter(pl.col(column).is_not_null())
    if combined is None:
        combined = has_combined_roles(lf, column)
    if not combined:
        return lf
    return lf.with_columns(pl.col(column).str.split(ROLE_SEPARATOR)).explode(column)


def has_combined_roles(seats: pl.LazyFrame, column: str = "role") -> bool:
    """Whether any seat holds several roles at once (``"a+b"``)."""
    return bool(seats.lazy().select(pl.col(column).str.contains(ROLE_SEPARATOR, literal=True)
                                    .any()).collect(engine=ENGINE).item())


def has_values(frame: pl.LazyFrame, column: str) -> bool:
    """Whether ``column`` exists and holds at least one non-null value."""
    frame = frame.lazy()
    if column not in frame.collect_schema():
        return False
    return bool(frame.select(pl.col(column).is_not_null().any()).collect(engine=ENGINE).item())


# --- win rates ----------------------------------------------------------------------------

def _finish_rates(table: pl.DataFrame, confidence: float, fair_col: str | None = "fair",
                  correct: bool = True) -> pl.DataFrame:
    """Add Wilson intervals, score-test p-values against ``fair`` and Holm-adjusted p-values."""
    n = table["n"].to_numpy().astype(float)
    wins = table["wins"].to_numpy().astype(float)
    ok = stats.enough(n)
    low, high = stats.wilson_interval(wins, n, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = wins / n
    columns = {"win_rate": rate, "low": low, "high": high}
    if fair_col is not None:
        p = stats.proportion_pvalue(wins, n, table[fair_col].to_numpy().astype(float))
        p = np.where(ok, p, np.nan)
        adjusted = stats.holm(p) if correct else p
        columns["p_value"] = p
        columns["p_adjusted"] = adjusted
    out = table.with_columns(pl.Series(k, np.where(ok, v, np.nan)) for k, v in columns.items())
    out = out.with_columns(pl.Series("enough", ok))
    if fair_col is not None:
        out = out.with_columns(
            (pl.col("p_adjusted") < 1 - confidence).fill_null(False).alias("significant"))
    return out.with_columns(pl.col(c).fill_nan(None) for c in columns)


def win_rates(seats: pl.LazyFrame, by: str | list[str], confidence: float = 0.95) -> pl.DataFrame:
    """Win rate of each group (and player count) against the fair share ``1 / n_players``.

    Columns: the ``by`` columns, ``n_players``, ``n`` (seats), ``wins`` (sum of win_share),
    ``win_rate``, ``low``/``high`` (Wilson), ``fair``, ``p_value`` (score test against fair),
    ``p_adjusted`` (Holm over the rows of the table), ``significant``, ``enough``.
    """
    by = [by] if isinstance(by, str) else list(by)
    keys = by + ["n_players"]
    table = (seats.lazy().filter(pl.all_horizontal(pl.col(c).is_not_null() for c in by))
             .group_by(keys)
             .agg(pl.len().alias("n"), pl.col("win_share").sum().alias("wins"),
                  pl.col("score").mean().alias("mean_score"))
             .with_columns((1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair"))
             .sort(keys)
             .collect(engine=ENGINE))
    return _finish_rates(table, confidence)


def adjusted_rates(seats: pl.LazyFrame, by: str, over: str,
                   confidence: float = 0.95) -> pl.DataFrame:
    """Win rate of each ``by`` group averaged over the ``over`` groups (each weighing the same).

    ``by="strategy", over="seat"`` gives a strategy's seat-adjusted rate, ``by="seat",
    over="strategy"`` a seat's strategy-adjusted rate and ``by="role", over="strategy"`` a role's:
    the mean of the per-cell rates, so neither effect leaks into the other however unevenly the
    cells were played. With the balanced seat design (every strategy in every seat equally often)
    the seat's equals the plain rate; a role is dealt or chosen, so who holds it is not balanced.
    The interval is a normal interval on the average of per-cell proportions (each cell's variance
    Agresti-Coull's, so a thin cell at 0% or 100% keeps a width), tested against the fair share
    by the z test it inverts (``adjusted_p_value``; ``adjusted_p_adjusted`` and
    ``adjusted_significant``: Holm over the rows). ``balance`` = fewest / most seats played in
    one cell (1.0 = perfectly balanced); ``cells`` = how many ``over`` groups the row met,
    ``strata`` = how many were played at its player count; ``n_min`` = seats in its thinnest
    cell. A row missing a stratum, or with a cell under ``stats.MIN_SAMPLE`` seats, gets no
    estimate (``enough = False``): an average over some strata only is not the adjusted rate.
    """
    seats = seats.lazy().filter(pl.col(by).is_not_null() & pl.col(over).is_not_null())
    strata = (seats.group_by("n_players").agg(pl.col(over).n_unique().alias("strata"))
              .collect(engine=ENGINE))
    z = stats.z_value(confidence)
    # A cell's variance is the Agresti-Coull one (its rate pulled z^2/2 wins and losses towards
    # one half): a thin cell that won all or none of its games still counts as uncertain.
    pulled = (pl.col("wins") + z * z / 2) / (pl.col("n") + z * z)
    per_cell = (seats.group_by(by, "n_players", over)
                .agg(pl.len().alias("n"), pl.col("win_share").sum().alias("wins"))
                .with_columns((pl.col("wins") / pl.col("n")).alias("rate"),
                              (pulled * (1 - pulled) / (pl.col("n") + z * z)).alias("var")))
    table = (per_cell.group_by(by, "n_players")
             .agg(pl.col("rate").mean().alias("adjusted_rate"),
                  (pl.col("var").sum().sqrt() / pl.len()).alias("se"),
                  pl.len().alias("cells"), pl.col("n").min().alias("n_min"),
                  (pl.col("n").min() / pl.col("n").max()).alias("balance"),
                  pl.col("n").sum().alias("n"))
             .join(strata.lazy(), on="n_players", how="left")
             .with_columns((1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair"))
             .sort(by, "n_players").collect(engine=ENGINE))
    ok = stats.enough(table["n_min"].to_numpy()) & (table["cells"] == table["strata"]).to_numpy()
    rate = table["adjusted_rate"].to_numpy()
    se = table["se"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        p = 2 * norm.sf(np.abs(rate - table["fair"].to_numpy()) / se)
    p = np.where(ok, p, np.nan)
    p_adjusted = stats.holm(p)
    return table.with_columns(
        pl.Series("adjusted_rate", np.where(ok, rate, np.nan)).fill_nan(None),
        pl.Series("adjusted_low", np.where(ok, np.clip(rate - z * se, 0, 1), np.nan)).fill_nan(None),
        pl.Series("adjusted_high", np.where(ok, np.clip(rate + z * se, 0, 1), np.nan)).fill_nan(None),
        pl.Series("adjusted_p_value", p).fill_nan(None),
        pl.Series("adjusted_p_adjusted", p_adjusted).fill_nan(None),
        pl.Series("adjusted_significant", (p_adjusted < 1 - confidence) & ok),
        pl.Series("enough", ok)).drop("se")


def rates_within(seats: pl.LazyFrame, by: str, within: str, all_seats: pl.LazyFrame,
                 confidence: float = 0.95) -> pl.DataFrame:
    """Win rate of each ``by`` group within each ``within`` group, beside that group's own rate.

    ``by="role", within="strategy"`` (``seats``: the split roles): how each role does in the
    hands of each strategy, against ``baseline``, the strategy's win rate over all its seats in
    ``all_seats`` (so a strong strategy's roles are judged against what that strategy wins
    anyway, not against the fair share). Columns: ``by``, ``within``, ``n_players``, ``n``,
    ``wins``, ``win_rate`` with Wilson ``low``/``high``, ``baseline``, ``enough``. Descriptive:
    no test, no correction.
    """
    rates = win_rates(seats, [by, within], confidence).drop(
        "p_value", "p_adjusted", "significant", "fair", "mean_score")
    baseline = (all_seats.lazy().filter(pl.col(within).is_not_null())
                .group_by(within, "n_players").agg(pl.col("win_share").mean().alias("baseline"))
                .collect(engine=ENGINE))
    return rates.join(baseline, on=[within, "n_players"], how="left").sort(by, within, "n_players")


def role_matrix(role_seats: pl.LazyFrame | list[pl.LazyFrame], confidence: float = 0.95) -> pl.DataFrame:
    """How role A fares when role B is held by another player at the table.

    ``role_seats`` is ``split_roles(...)`` output, or a list of such frames holding whole games
    each (a run's parts: the pairing join then never holds more than one part). One row per
    (role, opponent_role, n_players): ``n`` = seats holding A in games where an opponent holds
    B, ``win_rate`` = A's mean win_share there, Wilson interval, ``fair``. No multiple-comparison
    correction (descriptive).
    """
    frames = role_seats if isinstance(role_seats, list) else [role_seats]
    parts = []
    for frame in frames:
        a = frame.lazy().select("game_id", "seat", "role", "n_players", "win_share")
        b = a.select("game_id", pl.col("seat").alias("seat_b"), pl.col("role").alias("opponent_role"))
        parts.append(a.join(b, on="game_id").filter(pl.col("seat") != pl.col("seat_b"))
                     .group_by("role", "opponent_role", "n_players")
                     .agg(pl.len().alias("n"), pl.col("win_share").sum().alias("wins"))
                     .collect(engine=ENGINE))
    table = (pl.concat(parts).group_by("role", "opponent_role", "n_players")
             .agg(pl.col("n").sum(), pl.col("wins").sum())
             .with_columns((1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair"))
             .sort("role", "opponent_role", "n_players"))
    return _finish_rates(table, confidence, fair_col="fair", correct=False).drop(
        "p_value", "p_adjusted", "significant")


def role_choice(seats: pl.LazyFrame, not_chosen: str, confidence: float = 0.95) -> pl.DataFrame:
    """How often each role is kept when dealt, and how it does when kept.

    Only seats that made a choice count (``not_chosen`` is not null there); a seat given a fixed
    role made none. On such a seat every role in ``role`` and ``not_chosen`` was dealt; those in
    ``role`` were chosen. ``random_rate`` is the rate a choice at random would give (kept /
    dealt cards of each choice, averaged over the role's deals: 50% when keeping 1 of 2).
    Columns: ``role``, ``n_players``, ``dealt``, ``chosen``, ``chosen_rate`` and its Wilson
    ``chosen_low``/``chosen_high``, ``random_rate``, ``win_rate_chosen`` with ``low``/``high``
    against ``fair`` (p-values Holm-adjusted over roles), ``enough`` (for the choice rate).
    """
    chose = seats.lazy().filter(pl.col(not_chosen).is_not_null() & pl.col("role").is_not_null())
    if has_combined_roles(chose, "role") or has_combined_roles(chose, not_chosen):
        base = (chose.select("n_players", "win_share",
                             pl.col("role").str.split(ROLE_SEPARATOR).alias("kept"),
                             pl.col(not_chosen).str.split(ROLE_SEPARATOR).alias("passed"))
                .with_columns((pl.col("kept").list.len() / (pl.col("kept").list.len()
                                                          + pl.col("passed").list.len()))
                              .alias("random_share")))
        kept_rows, passed_rows = base.explode("kept"), base.explode("passed")
    else:   # one role kept, one passed on every seat: no lists needed
        base = chose.select("n_players", "win_share", pl.col("role").alias("kept"),
                            pl.col(not_chosen).alias("passed"), pl.lit(0.5).alias("random_share"))
        kept_rows = passed_rows = base
    # Two separate streaming queries, joined once small: a plan that used ``base`` twice would
    # hold all of it in memory to share it.
    kept = (kept_rows.group_by(pl.col("kept").alias("role"), "n_players")
            .agg(pl.len().alias("chosen"), pl.col("win_share").sum().alias("wins"),
                 pl.col("random_share").sum().alias("random_kept")).collect(engine=ENGINE))
    passed = (passed_rows.group_by(pl.col("passed").alias("role"), "n_players")
              .agg(pl.len().alias("passed"), pl.col("random_share").sum().alias("random_passed"))
              .collect(engine=ENGINE))
    table = (kept.lazy().join(passed.lazy(), on=["role", "n_players"], how="full", coalesce=True)
             .with_columns(pl.col("chosen", "passed", "wins", "random_kept", "random_passed")
                           .fill_null(0))
             .with_columns((pl.col("chosen") + pl.col("passed")).alias("dealt"))
             .with_columns(((pl.col("random_kept") + pl.col("random_passed")) / pl.col("dealt"))
                           .alias("random_rate"),
                           (1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair"))
             .drop("random_kept", "random_passed")
             .sort("role", "n_players").collect(engine=ENGINE))
    dealt = table["dealt"].to_numpy().astype(float)
    chosen = table["chosen"].to_numpy().astype(float)
    ok = stats.enough(dealt)
    low, high = stats.wilson_interval(chosen, dealt, confidence)
    p = np.where(ok, stats.proportion_pvalue(chosen, dealt, table["random_rate"].to_numpy()), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = chosen / dealt
    choice_cols = {"chosen_rate": rate, "chosen_low": low, "chosen_high": high,
                   "chosen_p_adjusted": stats.holm(p)}
    table = table.with_columns(pl.Series(k, np.where(ok, v, np.nan)).fill_nan(None)
                               for k, v in choice_cols.items())
    table = table.with_columns(pl.Series("choice_enough", ok),
                               (pl.col("chosen_p_adjusted") < 1 - confidence).fill_null(False)
                               .alias("choice_significant"))
    wins = _finish_rates(table.select("role", "n_players", pl.col("chosen").alias("n"),
                                      "wins", "fair"), confidence)
    return table.join(wins.select("role", "n_players", pl.col("win_rate").alias("win_rate_chosen"),
                                  "low", "high", "p_adjusted", "significant", "enough"),
                      on=["role", "n_players"])


# --- scores -------------------------------------------------------------------------------

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def score_stats(seats: pl.LazyFrame, by: str | list[str] | None, confidence: float = 0.95,
                value: str = "score") -> pl.DataFrame:
    """Mean of ``value`` per group with an interval, and its distribution's quantiles.

    Groups of at least ``stats.BOOTSTRAP_BELOW`` use the t interval; smaller ones a percentile
    bootstrap of the mean (``method`` says which); fewer than ``stats.MIN_SAMPLE``: nulls.
    Integer values (scores) are reduced to counts per (group, value) first: a small table
    whatever the number of games, from which the mean, spread and exact quantiles follow.
    Columns: groups, ``n``, ``mean``, ``sd``, ``low``, ``high``, ``method``, ``min``, ``q05``,
    ``q25``, ``q50``, ``q75``, ``q95``, ``max``, ``enough``.
    """
    by = [] if by is None else ([by] if isinstance(by, str) else list(by))
    lf = seats.lazy()
    if by:
        lf = lf.filter(pl.all_horizontal(pl.col(c).is_not_null() for c in by))
    lf = lf.filter(pl.col(value).is_not_null())
    dtype = lf.collect_schema()[value]
    qnames = [f"q{round(q * 100):02d}" for q in QUANTILES]
    if dtype.is_integer() or dtype == pl.Boolean:
        counts = (lf.group_by(*by, value).agg(pl.len().alias("count"))
                  .sort(*by, value).collect(engine=ENGINE))
        groups = (counts.partition_by(by, maintain_order=True, as_dict=True) if by
                  else {(): counts})
        rows = []
        for key, g in groups.items():
            v = g[value].cast(pl.Float64).to_numpy()
            c = g["count"].to_numpy().astype(np.int64)
            n = int(c.sum())
            mean = float((v * c).sum() / n)
            sd = float(np.sqrt((c * (v - mean) ** 2).sum() / (n - 1))) if n > 1 else float("nan")
            row = dict(zip(by, key)) if by else {}
            row.update({"n": n, "mean": mean, "sd": sd, "min": float(v.min()), "max": float(v.max())})
            row.update(zip(qnames, stats.weighted_quantiles(v, c, QUANTILES)))
            row["_values"], row["_counts"] = v, c
            rows.append(row)
        if not rows:
            return pl.DataFrame(schema={**{c: pl.String for c in by}, "n": pl.UInt32})
        samples = [(r.pop("_values"), r.pop("_counts")) for r in rows]
        schema = {c: counts.schema[c] for c in by}
        table = pl.DataFrame(rows, schema_overrides=schema, infer_schema_length=None)
    else:
        aggs = [pl.len().alias("n"), pl.col(value).cast(pl.Float64).mean().alias("mean"),
                pl.col(value).cast(pl.Float64).std().alias("sd"),
                pl.col(value).min().cast(pl.Float64).alias("min"),
                pl.col(value).max().cast(pl.Float64).alias("max")]
        aggs += [pl.col(value).cast(pl.Float64).quantile(q, interpolation="linear").alias(name)
                 for q, name in zip(QUANTILES, qnames)]
        table = (lf.group_by(by).agg(aggs).sort(by) if by else lf.select(aggs)).collect(engine=ENGINE)
        samples = None
    n = table["n"].to_numpy()
    ok = stats.enough(n)
    low, high = stats.t_interval(table["mean"].to_numpy(), table["sd"].to_numpy(), n, confidence)
    low, high = np.atleast_1d(low).copy(), np.atleast_1d(high).copy()
    method = np.where(n >= stats.BOOTSTRAP_BELOW, "t", "bootstrap")
    small = ok & (n < stats.BOOTSTRAP_BELOW)
    for i in np.flatnonzero(small):
        if samples is not None:
            values, counts_i = samples[i]
        else:
            mask = (pl.all_horizontal(pl.col(c) == table[c][int(i)] for c in by) if by
                    else pl.lit(True))
            values, counts_i = lf.filter(mask).select(value).collect(engine=ENGINE)[value].to_numpy(), None
        low[i], high[i] = stats.bootstrap_mean_interval(values, confidence, counts=counts_i)
    estimate_cols = ["mean", "sd", "min", "max"] + qnames
    table = table.with_columns(
        pl.Series("low", np.where(ok, low, np.nan)), pl.Series("high", np.where(ok, high, np.nan)),
        pl.Series("method", np.where(ok, method, None)),
        *[pl.Series(c, np.where(ok, table[c].to_numpy().astype(float), np.nan)) for c in estimate_cols],
        pl.Series("enough", ok))
    table = table.select(*by, "n", "mean", "sd", "low", "high", "method", "min", *qnames, "max",
                         "enough")
    return table.with_columns(pl.col(c).fill_nan(None) for c in ["low", "high"] + estimate_cols)


def source_means(seats: pl.LazyFrame, by: str | list[str], sources: list[str],
                 total: str | None = "score") -> pl.DataFrame:
    """Mean of each source column per group (a stacked bar), with ``other`` = total - sources.

    ``other`` is the part of ``total`` the sources do not explain (0 when they sum to it; absent
    without a ``total``). Groups smaller than ``stats.MIN_SAMPLE`` get nulls.
    """
    by = [by] if isinstance(by, str) else list(by)
    aggs = [pl.len().alias("n"), *[pl.col(s).cast(pl.Float64).mean().alias(s) for s in sources]]
    if total is not None:
        aggs.append(pl.col(total).cast(pl.Float64).mean().alias(total))
    lf = (seats.lazy().filter(pl.all_horizontal(pl.col(c).is_not_null() for c in by))
          .group_by(by).agg(aggs))
    value_cols = list(sources)
    if total is not None:
        lf = (lf.with_columns((pl.col(total) - pl.sum_horizontal(sources)).alias("other"))
              .with_columns(pl.when(pl.col("other").abs() < 1e-9).then(0.0)
                            .otherwise(pl.col("other")).alias("other")))
        value_cols += [total, "other"]
    table = lf.sort(by).collect(engine=ENGINE)
    ok = pl.Series(stats.enough(table["n"].to_numpy()))
    return table.with_columns(
        pl.when(ok).then(pl.col(c)).otherwise(None).alias(c) for c in value_cols
    ).with_columns(ok.alias("enough"))


# --- distributions ------------------------------------------------------------------------

def histogram(frame: pl.LazyFrame, column: str, max_bins: int = 60,
              flag: str | None = None) -> pl.DataFrame:
    """Counts of ``column``: one bin per value for integers with few values, else equal bins.

    Columns: ``left``, ``right`` (bin edges; ``right - left`` = 1 for integer values), ``count``,
    and with ``flag`` (a boolean column) ``flagged``: how many of the bin's rows have it set.
    """
    cols = [column] + ([flag] if flag else [])
    lf = frame.lazy().select(cols).filter(pl.col(column).is_not_null())
    dtype = lf.collect_schema()[column]
    info = lf.select(pl.col(column).min().alias("lo"), pl.col(column).max().alias("hi"),
                     pl.len().alias("n")).collect(engine=ENGINE).row(0, named=True)
    schema = {"left": pl.Float64, "right": pl.Float64, "count": pl.UInt32}
    if flag:
        schema["flagged"] = pl.UInt32
    if info["n"] == 0:
        return pl.DataFrame(schema=schema)
    lo, hi = float(info["lo"]), float(info["hi"])
    if dtype.is_integer() or dtype == pl.Boolean:
        width = max(1.0, float(np.ceil((hi - lo + 1) / max_bins)))
        last = np.floor((hi - lo) / width)
    else:
        width = (hi - lo) / max_bins if hi > lo else 1.0
        last = max_bins - 1 if hi > lo else 0
    aggs = [pl.len().alias("count")]
    if flag:
        aggs.append(pl.col(flag).cast(pl.UInt32).sum().alias("flagged"))
    binned = (lf.with_columns(((pl.col(column).cast(pl.Float64) - lo) / width).floor()
                              .clip(0.0, float(last)).alias("bin"))
              .group_by("bin").agg(aggs).sort("bin").collect(engine=ENGINE))
    return binned.select((lo + pl.col("bin") * width).alias("left"),
                         (lo + (pl.col("bin") + 1) * width).alias("right"),
                         *[pl.col(c).cast(pl.UInt32) for c in schema if c not in ("left", "right")])


def winning_scores(seats: pl.LazyFrame) -> pl.LazyFrame:
    """One row per game: the winning score (the best score among the winners)."""
    return (seats.lazy().filter(pl.col("winner"))
            .group_by("game_id").agg(pl.col("score").max().alias("winning_score")))


def game_length(games: pl.LazyFrame) -> dict:
    """Turns per game: count, mean, quantiles, truncated games."""
    row = (games.lazy().select(
        pl.len().alias("games"), pl.col("truncated").sum().alias("truncated"),
        pl.col("turns").mean().alias("mean"), pl.col("turns").std().alias("sd"),
        pl.col("turns").min().alias("min"), pl.col("turns").max().alias("max"),
        *[pl.col("turns").cast(pl.Float64).quantile(q, interpolation="linear")
          .alias(f"q{round(q * 100):02d}") for q in QUANTILES])
        .collect(engine=ENGINE).row(0, named=True))
    row["truncated_share"] = row["truncated"] / row["games"] if row["games"] else None
    return row


def game_count_means(games: pl.LazyFrame, columns: list[str], confidence: float = 0.95) -> pl.DataFrame:
    """Mean per game of each game count column, with a t interval. One row per column."""
    schema = games.lazy().collect_schema()
    columns = [c for c in columns if c in schema]
    if not columns:
        return pl.DataFrame(schema={"count": pl.String, "n": pl.UInt32, "mean": pl.Float64,
                                    "sd": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    row = games.lazy().select(
        pl.len().alias("n"),
        *[pl.col(c).cast(pl.Float64).mean().alias(f"mean:{c}") for c in columns],
        *[pl.col(c).cast(pl.Float64).std().alias(f"sd:{c}") for c in columns]).collect(engine=ENGINE).row(0, named=True)
    n = row["n"]
    means = np.array([row[f"mean:{c}"] for c in columns], dtype=float)
    sds = np.array([row[f"sd:{c}"] for c in columns], dtype=float)
    low, high = stats.t_interval(means, sds, np.full(len(columns), n), confidence)
    ok = bool(stats.enough(n))
    nan = np.full(len(columns), np.nan)
    return pl.DataFrame({"count": columns, "n": [n] * len(columns),
                         "mean": means if ok else nan, "sd": sds if ok else nan,
                         "low": low if ok else nan, "high": high if ok else nan}
                        ).with_columns(pl.col("mean", "sd", "low", "high").fill_nan(None))


def unfolding(games: pl.LazyFrame, confidence: float = 0.95) -> dict:
    """How games unfold (``simulator/core/unfolding.py``): lead changes, decisions per turn and
    the final margin as means with t intervals, and for the leaders at one and two thirds of the
    game how often someone led and how often that leader won (Wilson intervals, against the
    fair share 1 / players)."""
    row = games.lazy().select(
        pl.len().alias("games"),
        (1.0 / pl.col("n_players").cast(pl.Float64)).mean().alias("fair"),
        *[pl.col(c).cast(pl.Float64).mean().alias(f"mean:{c}") for c in UNFOLDING_MEANS],
        *[pl.col(c).cast(pl.Float64).std().alias(f"sd:{c}") for c in UNFOLDING_MEANS],
        (pl.col("decisions") / pl.col("turns").clip(lower_bound=1)).mean().alias("mean:per_turn"),
        (pl.col("decisions") / pl.col("turns").clip(lower_bound=1)).std().alias("sd:per_turn"),
        pl.col("final_margin").cast(pl.Float64).median().alias("median_margin"),
        *[pl.col(f"leader_at_{at}_won").is_not_null().sum().alias(f"led:{at}") for at in THIRDS],
        *[pl.col(f"leader_at_{at}_won").cast(pl.Int64).sum().alias(f"won:{at}") for at in THIRDS],
    ).collect(engine=ENGINE).row(0, named=True)
    n = row["games"]
    out = {"games": n, "fair": row["fair"], "median_final_margin": row["median_margin"]}
    for key in (*UNFOLDING_MEANS, "per_turn"):
        mean, sd = row[f"mean:{key}"], row[f"sd:{key}"]
        low, high = stats.t_interval(mean, sd, n, confidence)
        out["decisions_per_turn" if key == "per_turn" else key] = {
            "mean": mean, "low": low, "high": high}
    for at in THIRDS:
        led, won = row[f"led:{at}"], row[f"won:{at}"] or 0
        low, high = stats.wilson_interval(won, led, confidence)
        out[f"leader_at_{at}"] = {
            "games_led": led, "led_share": led / n if n else None, "won": won,
            "win_rate": won / led if led else math.nan, "low": low, "high": high}
    return out


UNFOLDING_MEANS = ("lead_changes", "final_margin")
THIRDS = ("third", "two_thirds")
