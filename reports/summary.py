"""The short table ``playtest run`` prints: who wins, by seat, strategy and role.

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
    seats = run.seats
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
    return "\n".join(lines)
