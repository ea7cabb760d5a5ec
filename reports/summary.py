"""The short table ``playtest run`` prints: who wins, by seat, strategy and role."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from simulator.core.dataset import load


def _rate_table(seats: pl.LazyFrame, by: str, n_players: int) -> pl.DataFrame:
    """Win rate (ties shared through win_share) with a normal-approximation 95% margin."""
    return (seats.group_by(by)
            .agg(pl.len().alias("seats"), pl.col("win_share").mean().alias("win_rate"),
                 pl.col("score").mean().alias("mean_score"))
            .with_columns(((pl.col("win_rate") * (1 - pl.col("win_rate")) / pl.col("seats")).sqrt()
                           * 1.96).alias("margin"))
            .sort("win_rate", descending=True)
            .collect())


def summary_table(path: str | Path) -> str:
    data = load(path, lazy=True)
    m = data.manifest
    n = m["n_players"]
    games = data.games.select(pl.len().alias("games"), pl.col("truncated").sum().alias("truncated"),
                              pl.col("turns").mean().alias("turns")).collect().row(0, named=True)
    lines = [f"{m['game']} {m['mode']}, {n} players, {games['games']:,} games "
             f"(seed {m['seed']}) in {m['wall_time_s']:.1f} s, {m['games_per_second']:,.0f} games/s; "
             f"mean length {games['turns']:.1f} turns; {games['truncated']:,} truncated",
             f"fair share of wins: {100 / n:.1f}%"]
    for by in ("seat", "strategy", "role"):
        table = _rate_table(data.seats, by, n)
        if table.height == 0 or table[by].null_count() == table.height:
            continue
        lines.append(f"  {by:<22} {'win rate':>16} {'mean score':>11}")
        for row in table.iter_rows(named=True):
            lines.append(f"  {str(row[by]):<22} {100 * row['win_rate']:7.1f}% ± {100 * row['margin']:4.1f}"
                         f" {row['mean_score']:11.2f}")
    return "\n".join(lines)
