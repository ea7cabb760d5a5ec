"""``playtest strength``: how strong a game's search player is, and how fast, by budget.

For each rollouts-per-option budget, the search player plays ``games`` games against one
opponent strategy (by default the game's strongest heuristic at that table, as named by the
caller), seats balanced by the seat design, on common random numbers (the same seed for every
budget). Each row gives the search player's win rate with a Wilson interval, its games per
second (the engine alone, on every thread, with the machine's other load: a median of one
timing is noisy, so quote ratios), and the opponent against itself as the 1/players reference.
Written as strength.json, strength.md and strength.png (win rate and speed against budget).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import polars as pl

from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.errors import UsageError
from simulator.core.game import get_game
from simulator.core.search import SEARCH_WEIGHTS


def measure(game: str, against: str, budgets: list[int], games: int, players: int | None = None,
            seed: int = 0, threads: int | None = None, log=None) -> dict:
    spec = get_game(game)
    if spec.strategies.search is None:
        raise UsageError(f"strength: {game} has no search player")
    if not budgets or any(b < 1 for b in budgets):
        raise UsageError(f"--rollouts {budgets}: give budgets of at least 1 rollout")
    if games < 1:
        raise UsageError(f"--games {games}: must be at least 1")
    search = spec.strategies.search
    spec.strategies.index(against)
    if against == search:
        raise UsageError(f"--against {against}: the search player against a heuristic")
    names = spec.strategies.weight_names
    default = spec.strategies.default_weights[spec.strategies.index(search)]
    rollouts_at = names.index(SEARCH_WEIGHTS[0])
    rows = []
    from reports.stats import wilson_interval
    for b in budgets:
        w = default.copy()
        w[rollouts_at] = b
        config = make_config(game, players, strategies=[search, against], seed=seed,
                             weights={search: list(w)})
        batch.play_in_memory(config, 1, threads=threads)  # compiled before the clock starts
        start = time.perf_counter()
        seats = batch.play_in_memory(config, games, threads=threads)
        seconds = time.perf_counter() - start
        mine = seats.filter(pl.col("strategy") == search)["win_share"].to_numpy()
        low, high = wilson_interval(np.array([mine.sum()]), np.array([len(mine)]), 0.95)
        rows.append({"rollouts": b, "win_rate": float(mine.mean()), "low": float(low[0]),
                     "high": float(high[0]), "seats": int(len(mine)), "games": games,
                     "seconds": seconds, "games_per_second": games / seconds})
        if log:
            log(f"  {b} rollouts: {100 * mine.mean():.1f}% ({games / seconds:.1f} games/s)")
    return {"game": game, "players": config.n_players, "search": search, "against": against,
            "seed": seed, "games": games, "fair": 1 / config.n_players,
            "default_rollouts": int(default[rollouts_at]),
            "budget_weights": dict(zip(SEARCH_WEIGHTS, map(float, default[-len(SEARCH_WEIGHTS):]))),
            "rows": rows}


def write(result: dict, out: Path) -> Path:
    from reports import charts

    out.mkdir(parents=True, exist_ok=True)
    (out / "strength.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [f"# {result['search']} against {result['against']}: {result['game']}, "
             f"{result['players']} players, {result['games']:,} games per budget (seed "
             f"{result['seed']})", "",
             "| Rollouts per option | Win rate | 95% interval | Games per second |",
             "|---:|---:|---:|---:|"]
    for r in result["rows"]:
        lines.append(f"| {r['rollouts']} | {100 * r['win_rate']:.1f}% | {100 * r['low']:.1f}-"
                     f"{100 * r['high']:.1f}% | {r['games_per_second']:.1f} |")
    (out / "strength.md").write_text("\n".join(lines) + "\n")
    fig = charts.new_figure(8.5, 4.2)
    ax = fig.subplots()
    x = [r["rollouts"] for r in result["rows"]]
    rate = np.array([r["win_rate"] for r in result["rows"]])
    err = np.array([[r["win_rate"] - r["low"] for r in result["rows"]],
                    [r["high"] - r["win_rate"] for r in result["rows"]]])
    ax.errorbar(x, 100 * rate, yerr=100 * err, marker="o", color="#4e79a7", capsize=4,
                label=f"{result['search']} win rate")
    ax.axhline(100 * result["fair"], color="#555555", linestyle="--", linewidth=1.2,
               label="fair share")
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [str(v) for v in x])
    ax.set_xlabel("Rollouts per option")
    ax.set_ylabel("Win rate (%)")
    speed = ax.twinx()
    speed.plot(x, [r["games_per_second"] for r in result["rows"]], marker="s", color="#f28e2b",
               label="games per second")
    speed.set_yscale("log")
    speed.set_ylabel("Games per second (all threads)")
    handles = ax.get_legend_handles_labels()[0] + speed.get_legend_handles_labels()[0]
    ax.legend(handles=handles, loc="center right", fontsize=9)
    ax.set_title(f"How strong is the search? {result['search']} against {result['against']}, "
                 f"{result['game']}, {result['players']} players", loc="left", fontsize=11)
    charts.save(fig, out / "strength.png")
    return out
