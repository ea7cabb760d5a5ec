"""The short table ``playtest run`` prints: who wins, by seat, strategy and role (in a mix of
strategies also each role adjusted for which strategy held it, and within each strategy).

Win rates count ties through ``win_share`` and carry a 95% Wilson margin (half the interval's
width); ``playtest report`` gives the full balance report.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reports import metrics, stats

CONFIDENCE = 0.95


def _rate_table(seats: pl.LazyFrame, by: str) -> pl.DataFrame:
    """Win rate (ties shared through win_share) with a 95% Wilson margin, best first."""
    table = (seats.lazy().filter(pl.col(by).is_not_null())
             .group_by(by)
             .agg(pl.len().alias("seats"), pl.col("win_share").sum().alias("wins"),
                  pl.col("win_share").mean().alias("win_rate"),
                  pl.col("score").mean().alias("mean_score"))
             .sort("win_rate", descending=True)
             .collect(engine=metrics.ENGINE))
    low, high = stats.wilson_interval(table["wins"].to_numpy(), table["seats"].to_numpy(),
                                      CONFIDENCE)
    return table.with_columns(pl.Series("margin", (high - low) / 2))


def summary_table(path: str | Path) -> str:
    run = metrics.open_run(path)
    m = run.manifest
    games = run.games.select(pl.len().alias("games"), pl.col("truncated").sum().alias("truncated"),
                             pl.col("turns").mean().alias("turns")).collect(engine=metrics.ENGINE).row(0, named=True)
    counts = "/".join(map(str, run.player_counts))
    fair = ", ".join(f"{100 / n:.1f}%" for n in run.player_counts)
    lines = [f"{m['game']} {m.get('mode', '')}, {counts} players, {games['games']:,} games "
             f"(seed {m.get('seed')}) in {m.get('wall_time_s', 0):.1f} s, "
             f"{m.get('games_per_second', 0):,.0f} games/s; "
             f"mean length {games['turns']:.1f} turns; {games['truncated']:,} truncated",
             f"fair share of wins: {fair}"]
    seats = metrics.with_player_count(run.seats, run.games, run.player_counts)
    for by in ("seat", "strategy", "role"):
        frame = metrics.split_roles(seats) if by == "role" else seats
        if by == "role" and not metrics.has_values(seats, "role"):
            continue
        table = _rate_table(frame, by)
        if table.height == 0:
            continue
        lines.append(f"  {by:<22} {'win rate':>16} {'mean score':>11}")
        for row in table.iter_rows(named=True):
            if row["seats"] < stats.MIN_SAMPLE:
                rate = f"{'too few games':>16}"
            else:
                rate = f"{100 * row['win_rate']:7.1f}% ± {100 * row['margin']:4.1f}"
            lines.append(f"  {str(row[by]):<22} {rate} {row['mean_score']:11.2f}")
        if by == "role" and _strategy_count(seats) > 1:
            lines += _roles_by_strategy(frame, seats)
    return "\n".join(lines)


def _strategy_count(seats: pl.LazyFrame) -> int:
    return seats.select(pl.col("strategy").n_unique()).collect(engine=metrics.ENGINE).item()


def _roles_by_strategy(roles: pl.LazyFrame, seats: pl.LazyFrame) -> list[str]:
    """A mixed run's roles adjusted for who holds them, and within each strategy: a strong
    strategy holding one role more often would otherwise pass for a strong role."""
    adjusted = metrics.adjusted_rates(roles, "role", "strategy", CONFIDENCE).sort(
        "adjusted_rate", descending=True, nulls_last=True)
    lines = [f"  {'role, strategy-adjusted':<22} {'win rate':>16}   (mean of its rates within "
             "each strategy)"]
    for row in adjusted.iter_rows(named=True):
        if row["enough"]:
            margin = (row["adjusted_high"] - row["adjusted_low"]) / 2
            rate = f"{100 * row['adjusted_rate']:7.1f}% ± {100 * margin:4.1f}"
        else:
            rate = f"{'too few games':>16}"
        lines.append(f"  {str(row['role']):<22} {rate}{_player_count(row, adjusted)}")
    within = metrics.rates_within(roles, "role", "strategy", seats, CONFIDENCE)
    lines.append(f"  {'role within strategy':<26} {'win rate':>16} {'its strategy':>12}")
    for row in within.iter_rows(named=True):
        if row["enough"]:
            margin = (row["high"] - row["low"]) / 2
            rate = f"{100 * row['win_rate']:7.1f}% ± {100 * margin:4.1f}"
        else:
            rate = f"{'too few games':>16}"
        name = f"{row['role']} · {row['strategy']}"
        lines.append(f"  {name:<26} {rate} {100 * row['baseline']:11.1f}%"
                     f"{_player_count(row, within)}")
    return lines


def _player_count(row: dict, table: pl.DataFrame) -> str:
    return f"  ({row['n_players']} players)" if table["n_players"].n_unique() > 1 else ""
