"""What ``sensitivity`` and ``balance`` share: the metrics a scan ranks by, their paired
differences on common random numbers, and running one configuration as an ordinary dataset.

A metric is a function of per-game sums: for each game, a numerator and a denominator per group
(a role's or strategy's win shares and seats, or one number such as the game's length). Its value
over a set of games is computed from the sums over those games, so a paired bootstrap that
resamples games (the same games for the baseline and the variant: common random numbers) gives
an interval for the difference of any metric, including the spread between the strongest and
weakest group, which is not a mean of anything.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import math
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from simulator.core import batch, dataset
from simulator.core.config import RunConfig
from simulator.core.errors import UsageError
from simulator.core.game import Game
from simulator.core.ruledata import Param, unknown_name
from simulator.core.folders import RUN_PLAN

RESAMPLES = 2000
BOOTSTRAP_SEED = 20261201
METRICS = ("balance", "first_seat", "turns", "truncation", "role:NAME", "strategy:NAME")


@dataclass(frozen=True)
class Metric:
    """A quantity of a run to rank configurations by."""

    name: str        # as given: "balance", "role:Governor", ...
    group: str       # "role", "strategy", "position" (in the turn order) or "" (a per-game number)
    label: str       # the one role/strategy, or "" for all groups
    title: str
    short: str       # for chart titles
    unit: str        # how a difference is shown
    scale: float     # a difference is multiplied by this when shown (100: percentage points)

    def groups(self, seats: pl.DataFrame) -> list[str]:
        if not self.group:
            return [""]
        if self.label:
            return [self.label]
        if self.group == "position":
            return [str(i) for i in range(int(seats["seat"].max()) + 1)]
        return sorted({str(v) for v in seats[self.group].drop_nulls().to_list()})

    def sums(self, seats: pl.DataFrame, games: pl.DataFrame, groups: list[str]):
        """Per game, the numerator and denominator of each group: two (games, groups) arrays."""
        n_games = games.height
        if not self.group:
            column = "turns" if self.name == "turns" else "truncated"
            values = games.sort("game_id")[column].to_numpy().astype(float)[:, None]
            return values, np.ones_like(values)
        first = int(games["game_id"].min())
        game = seats["game_id"].to_numpy() - first
        share = seats["win_share"].to_numpy().astype(float)
        if self.group == "position":  # place in the turn order: 0 played first
            starts = games.sort("game_id")["first_seat"].to_numpy()
            n_players = int(seats["seat"].max()) + 1
            labels = ((seats["seat"].to_numpy() - starts[game]) % n_players).astype(str)
        else:
            labels = seats[self.group].cast(pl.String).to_numpy()
        num = np.zeros((n_games, len(groups)))
        den = np.zeros((n_games, len(groups)))
        for j, g in enumerate(groups):
            mine = labels == g
            num[:, j] = np.bincount(game[mine], share[mine], minlength=n_games)
            den[:, j] = np.bincount(game[mine], minlength=n_games)
        return num, den

    def value(self, num, den, n_players: int):
        """The metric from summed numerators and denominators (last axis: groups)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            rates = num / den
        if self.name == "first_seat":
            return rates[..., 0] - 1.0 / n_players
        if self.group and not self.label:  # the spread between the strongest and weakest
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                return np.nanmax(rates, axis=-1) - np.nanmin(rates, axis=-1)
        return rates[..., 0]


GOALS = {"roles": "role", "strategies": "strategy", "seats": "position"}


def spread_metric(group: str) -> Metric:
    """The spread between the strongest and weakest role, strategy or place in the turn order."""
    what = {"role": "role", "strategy": "strategy", "position": "place in the turn order"}[group]
    return Metric(f"balance:{group}", group, "", f"balance index (spread between the strongest "
                  f"and weakest {what}, win rate)", "balance index", "pts", 100.0)


def parse_metric(text: str, game: Game) -> Metric:
    """``--metric``: balance, first_seat, turns, truncation, role:NAME or strategy:NAME."""
    pts = ("pts", 100.0)
    if text == "balance":
        return spread_metric("role" if game.roles else "strategy")
    if text == "first_seat":
        return Metric(text, "position", "0", "first player's advantage (win rate above a fair "
                      "share)", "first player's advantage", *pts)
    if text == "turns":
        return Metric(text, "", "", "game length (turns)", "game length", "turns", 1.0)
    if text == "truncation":
        return Metric(text, "", "", "truncated games (share)", "truncated share", *pts)
    kind, sep, name = text.partition(":")
    if sep and kind in ("role", "strategy"):
        allowed = game.roles if kind == "role" else game.strategies.names
        if name not in allowed:
            raise UsageError("--metric " + text + ": " + unknown_name(kind, name, allowed, f"of {game.name}"))
        return Metric(text, kind, name, f"{name}'s win rate", f"{name}'s win rate", *pts)
    raise UsageError(f"--metric {text}: unknown; allowed: {', '.join(METRICS)}")


def measure(metric: Metric, data, groups: list[str], n_players: int) -> tuple:
    """(value, sums) of a loaded run (``data`` from ``load_run``)."""
    num, den = metric.sums(data["seats"], data["games"], groups)
    return float(metric.value(num.sum(0), den.sum(0), n_players)), (num, den)


def paired_difference(metric: Metric, base, variant, n_players: int, confidence: float,
                      seed: int = BOOTSTRAP_SEED, keep_resamples: bool = False) -> dict:
    """variant - baseline for ``metric`` over the same games: estimate, percentile bootstrap
    interval (games resampled jointly, scipy), and a two-sided bootstrap p-value; with
    ``keep_resamples``, the bootstrap distribution too (``resamples``), to draw the interval
    again at another level."""
    from scipy import stats as sps
    (bn, bd), (vn, vd) = base, variant
    n = bn.shape[0]
    delta = float(metric.value(vn.sum(0), vd.sum(0), n_players)
                  - metric.value(bn.sum(0), bd.sum(0), n_players))
    if np.array_equal(bn, vn) and np.array_equal(bd, vd):
        return {"delta": 0.0, "low": 0.0, "high": 0.0, "p": 1.0, "identical": True}

    def statistic(index, axis=-1):
        i = index.astype(np.int64)
        return (metric.value(vn[i].sum(-2), vd[i].sum(-2), n_players)
                - metric.value(bn[i].sum(-2), bd[i].sum(-2), n_players))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = sps.bootstrap((np.arange(n),), statistic, vectorized=True,
                               confidence_level=confidence, n_resamples=RESAMPLES,
                               method="percentile", rng=np.random.default_rng(seed),
                               batch=max(1, 2_000_000 // (n * bn.shape[1])))
    spread = result.bootstrap_distribution
    p = min(1.0, 2.0 * min(np.mean(spread <= 0.0), np.mean(spread >= 0.0)))
    out = {"delta": delta, "low": float(result.confidence_interval.low),
           "high": float(result.confidence_interval.high), "p": max(p, 1.0 / RESAMPLES),
           "identical": False}
    if keep_resamples:
        out["resamples"] = spread
    return out


def select_params(game: Game, patterns: list[str] | None, keep: list[str] | None = None) -> list[Param]:
    """The parameters named by ``--params`` (names or shell patterns), less those kept fixed."""
    params = game.rules().params
    chosen = list(params.values())
    if patterns:
        chosen = []
        for pattern in patterns:
            hits = [p for p in params.values() if fnmatch.fnmatchcase(p.name, pattern)]
            if not hits:
                    raise UsageError("--params: " + unknown_name("parameter", pattern, params, f"of {game.name}"))
            chosen += [p for p in hits if p not in chosen]
    for name in keep or []:
        if name not in params:
            raise UsageError("--keep: " + unknown_name("parameter", name, params, f"of {game.name}"))
    return [p for p in chosen if p.name not in (keep or [])]


def scan_values(param: Param, printed, steps: int, near: int = 0) -> list:
    """The values a one-at-a-time scan tries: every other choice; for a number, first the
    designer's question, 1 to ``near`` steps either side of the printed value, then both ends
    of its range and ``steps`` evenly spaced values between (the printed value left out)."""
    if param.choices:
        return [c for c in param.choices if c != printed]
    close = [printed + d * k for k in range(1, near + 1) for d in (-1, 1)
             if param.low <= printed + d * k <= param.high]
    points = np.linspace(param.low, param.high, steps + 2)
    wide = sorted({int(round(x)) for x in points} - set(close) - {printed})
    return close + wide


def load_run(path: Path) -> dict:
    data = dataset.load(path)
    return {"seats": data.seats.select("game_id", "seat", "strategy", "role", "win_share"),
            "games": data.games.select("game_id", "first_seat", "turns", "truncated"),
            "manifest": data.manifest}


def ensure_run(config: RunConfig, n_games: int, folder: Path, threads, backend, scheduler,
               progress: bool | None = False) -> Path:
    """The dataset of ``config`` in ``folder``: played, finished if interrupted, or reused when a
    complete run of the same configuration and code is already there (a scan is resumable)."""
    if (folder / dataset.MANIFEST).exists():
        plan = batch.read_plan(folder)
        same = (json.dumps(plan["request"], sort_keys=True) == json.dumps(config.request, sort_keys=True)
                and plan["provenance"] == json.loads(json.dumps(batch.provenance(config)))
                and dataset.read_manifest(folder)["n_games"] == n_games)
        if not same:
            raise UsageError(f"{folder}: holds a run with other options or code; use a new --out")
        return folder
    if (folder / RUN_PLAN).exists():
        return batch.resume(folder, threads, None, progress, backend, scheduler)
    return batch.run(config, n_games, folder, threads, None, progress, "", backend, scheduler)


def folder_name(settings: dict) -> str:
    if not settings:
        return "baseline"
    text = ",".join(f"{k}={v}" for k, v in sorted(settings.items()))
    safe = "".join(c if c.isalnum() or c in "_.=,+-" else "_" for c in text)
    return safe if len(safe) <= 120 else safe[:100] + "-" + hashlib.sha256(text.encode()).hexdigest()[:10]


def fmt(value: float, metric: Metric, signed: bool = True) -> str:
    if value is None or not math.isfinite(value):
        return "n/a"
    x = value * metric.scale
    text = f"{x:+.2f}" if signed else f"{x:.2f}"
    return f"{text} {metric.unit}"
