"""Ratings of strategies from a tournament run: a Plackett-Luce model fitted with ``choix``.

Every game of the run is one ranking of the strategies at its table (best first). The
Plackett-Luce model gives each strategy a strength ``theta`` (log scale, mean 0): the chance that
``a`` finishes ahead of ``b`` is ``1 / (1 + exp(theta_b - theta_a))``. The fit is choix's I-LSR
(maximum likelihood, lightly regularised so a strategy that never loses stays finite). Tied
players are put in a random order (fixed seed): a k-way tie is each tied order with chance
1/k!, which is what a tie says about who is ahead. Intervals are percentile intervals of a
bootstrap over games (resampled with a fixed seed). Besides ``theta`` the table gives it on the
Elo scale (400 / ln 10 per unit) and each strategy's chance to finish ahead of a strategy of
average strength.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl

from reports import charts
from reports.metrics import ENGINE, open_run
from simulator.core.errors import UsageError

BOOTSTRAP_RESAMPLES = 200
BOOTSTRAP_SEED = 20261201
TIE_SEED = 7
REGULARISATION = 0.01
ELO_PER_UNIT = 400 / math.log(10)


def rankings(seats: pl.DataFrame, names: list[str]) -> list[tuple[int, ...]]:
    """One ranking per game: the strategies' indices in ``names``, best first (ties shuffled)."""
    rng = np.random.default_rng(TIE_SEED)
    frame = (seats.select("game_id", "strategy", "rank")
             .with_columns(pl.col("strategy").replace_strict(names, list(range(len(names))))
                           .alias("item"),
                           pl.Series("tie_break", rng.random(seats.height)))
             .sort("game_id", "rank", "tie_break"))
    games = frame.group_by("game_id", maintain_order=True).agg(pl.col("item"))
    return [tuple(items) for items in games["item"].to_list()]


def fit(n_items: int, data: list[tuple[int, ...]]) -> np.ndarray:
    import choix
    theta = choix.ilsr_rankings(n_items, data, alpha=REGULARISATION)
    return theta - theta.mean()


def ratings(run_dir: str | Path, confidence: float = 0.95) -> dict:
    """The Plackett-Luce ratings of a run's strategies, with bootstrap intervals."""
    run = open_run(run_dir)
    seats = run.seats.select("game_id", "strategy", "rank").collect(engine=ENGINE)
    names = sorted(seats["strategy"].unique().to_list())
    if len(names) < 2:
        raise UsageError(f"{run_dir}: a tournament needs at least two strategies")
    per_table = seats.group_by("game_id").agg(pl.col("strategy").n_unique().alias("u"),
                                              pl.len().alias("n"))
    if (per_table["u"] < per_table["n"]).any():
        raise UsageError(f"{run_dir}: some tables seat one strategy twice; a tournament needs at "
                         "least as many strategies as seats")
    data = rankings(seats, names)
    theta = fit(len(names), data)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    boot = np.empty((BOOTSTRAP_RESAMPLES, len(names)))
    for b in range(BOOTSTRAP_RESAMPLES):
        pick = rng.integers(0, len(data), len(data))
        boot[b] = fit(len(names), [data[i] for i in pick])
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
    wins = seats.with_columns((pl.col("rank") == 1).alias("first")).group_by("strategy").agg(
        pl.len().alias("seats"), pl.col("first").mean().alias("first_share"))
    by_name = {r["strategy"]: r for r in wins.iter_rows(named=True)}
    rows = []
    for i, name in sorted(enumerate(names), key=lambda x: -theta[x[0]]):
        rows.append({
            "strategy": name, "theta": float(theta[i]), "low": float(low[i]), "high": float(high[i]),
            "elo": float(theta[i] * ELO_PER_UNIT), "elo_low": float(low[i] * ELO_PER_UNIT),
            "elo_high": float(high[i] * ELO_PER_UNIT),
            "ahead_of_average": float(1 / (1 + math.exp(-theta[i]))),
            "seats": int(by_name[name]["seats"]), "first_place_share": float(by_name[name]["first_share"]),
        })
    return {"game": run.manifest.get("game"), "n_players": run.manifest.get("n_players"),
            "games": len(data), "confidence": confidence, "model": "Plackett-Luce (choix I-LSR)",
            "regularisation": REGULARISATION, "bootstrap_resamples": BOOTSTRAP_RESAMPLES,
            "bootstrap_seed": BOOTSTRAP_SEED, "ties": "random order (fixed seed)",
            "seat_assignment": run.manifest.get("seat_assignment"), "ratings": rows}


def write_tournament(result: dict, out: Path) -> Path:
    """tournament.json, tournament.md and tournament.png in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "tournament.json").write_text(json.dumps(result, indent=2) + "\n")
    level = f"{100 * result['confidence']:g}%"
    lines = [f"# Tournament: {result['game']}, {result['n_players']} players, {result['games']:,} games",
             "", f"{result['model']}; {level} intervals from {result['bootstrap_resamples']} bootstrap "
             "resamples of the games. Elo: 400/ln 10 per unit of strength, mean 0. 'Ahead of "
             "average': the chance to finish ahead of a strategy of average strength.", "",
             f"| Strategy | Strength | {level} interval | Elo | {level} interval | Ahead of average "
             "| First place | Seats |", "|---|---|---|---|---|---|---|---|"]
    for r in result["ratings"]:
        lines.append(f"| {r['strategy']} | {r['theta']:+.3f} | {r['low']:+.3f} to {r['high']:+.3f} | "
                     f"{r['elo']:+.0f} | {r['elo_low']:+.0f} to {r['elo_high']:+.0f} | "
                     f"{100 * r['ahead_of_average']:.1f}% | {100 * r['first_place_share']:.1f}% | "
                     f"{r['seats']:,} |")
    (out / "tournament.md").write_text("\n".join(lines) + "\n")
    charts.rating_chart(out / "tournament.png", result)
    return out
