"""Comparing runs: what a tweak changed, with intervals, paired where that is tighter.

Runs of an experiment share their seed, so game ``i`` starts from the same random stream in
each (common random numbers). A seat's outcome in the baseline and in a variant is then a
matched pair; the difference of matched pairs usually varies much less than two independent
samples, which makes the interval tighter. Each change is computed both ways and the tighter
valid one is reported, with the method named. Pairs are used only when the two runs cover the
same games and (for roles) the seats hold the same labels in nearly all pairs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from reports import stats
from reports.metrics import ENGINE
from simulator.core.dataset import load

PAIRED_MIN_MATCH = 0.95  # share of seat pairs with the same label needed to pair them
GROUPS = ("seat", "strategy", "role")


@dataclass
class Change:
    """One quantity's change from the baseline to a variant."""

    metric: str      # "win_rate", "score", "turns", a point source...
    group: str       # "seat", "strategy", "role" or "all"
    label: str       # the seat/strategy/role, or "all"
    baseline: float
    variant: float
    delta: float
    low: float
    high: float
    n: int
    method: str      # "paired" or "unpaired"

    @property
    def detected(self) -> bool:
        return not (self.low <= 0.0 <= self.high)

    def verdict(self, percent: bool) -> str:
        scale, unit = (100.0, " pts") if percent else (1.0, "")
        if not math.isfinite(self.low):
            return "too few games"
        if not self.detected:
            return "no detectable change"
        half = (self.high - self.low) / 2
        return f"changed by {scale * self.delta:+.2f} ± {scale * half:.2f}{unit}"

    def as_dict(self) -> dict:
        return {"metric": self.metric, "group": self.group, "label": self.label,
                "baseline": self.baseline, "variant": self.variant, "delta": self.delta,
                "low": self.low, "high": self.high, "n": self.n, "method": self.method,
                "detected": self.detected}


def _difference(paired: np.ndarray | None, a: np.ndarray, b: np.ndarray, confidence: float):
    """(delta, low, high, n, method) for mean(b) - mean(a), paired when that is tighter."""
    na, nb = len(a), len(b)
    if na < stats.MIN_SAMPLE or nb < stats.MIN_SAMPLE:
        delta = float(np.mean(b) - np.mean(a)) if na and nb else math.nan
        return delta, math.nan, math.nan, min(na, nb), "too few"
    delta = float(b.mean() - a.mean())
    se_unpaired = math.sqrt(a.var(ddof=1) / na + b.var(ddof=1) / nb)
    z = stats.z_value(confidence)
    best = (delta, delta - z * se_unpaired, delta + z * se_unpaired, min(na, nb), "unpaired")
    if paired is not None and len(paired) >= stats.MIN_SAMPLE:
        sd = float(paired.std(ddof=1))
        low, high = stats.t_interval(float(paired.mean()), sd, len(paired), confidence)
        if high - low <= best[2] - best[1]:
            best = (float(paired.mean()), float(low), float(high), len(paired), "paired")
    return best


def _seat_frame(path: Path, columns: list[str]) -> pl.DataFrame:
    data = load(path, lazy=True)
    have = data.seats.collect_schema().names()
    return data.seats.select([c for c in ["game_id", "seat", *columns] if c in have]).collect(engine=ENGINE)


def compare_runs(baseline: Path, variant: Path, confidence: float = 0.95) -> list[Change]:
    """Every headline change from ``baseline`` to ``variant``."""
    mb, mv = load(baseline).manifest, load(variant).manifest
    sources = list((mb.get("columns") or {}).get("point_sources", []))
    columns = ["strategy", "role", "win_share", "score", *sources]
    a, b = _seat_frame(baseline, columns), _seat_frame(variant, columns)
    sources = [s for s in sources if s in a.columns and s in b.columns]  # a mode's own sources
    same_games = mb["seed"] == mv["seed"] and mb["n_players"] == mv["n_players"] and \
        mb["game"] == mv["game"]
    joined = a.join(b, on=["game_id", "seat"], suffix="_v") if same_games else None
    changes = []
    metrics = [("win_rate", "win_share"), ("score", "score")] + [(s, s) for s in sources]
    for group in GROUPS:
        if group not in a.columns or a[group].null_count() == a.height:
            continue
        pairable = joined
        if joined is not None and group != "seat":
            match = (joined[group] == joined[f"{group}_v"]).mean()
            pairable = joined.filter(pl.col(group) == pl.col(f"{group}_v")) \
                if match is not None and match >= PAIRED_MIN_MATCH else None
        for label in sorted(set(a[group].drop_nulls().to_list()) | set(b[group].drop_nulls().to_list()),
                            key=str):
            xa = a.filter(pl.col(group) == label)
            xb = b.filter(pl.col(group) == label)
            pa = pairable.filter(pl.col(group) == label) if pairable is not None else None
            for metric, column in metrics[:2] if group != "strategy" else metrics:
                diff = None if pa is None else (pa[f"{column}_v"] - pa[column]).to_numpy().astype(float)
                delta, low, high, n, method = _difference(
                    diff, xa[column].to_numpy().astype(float), xb[column].to_numpy().astype(float),
                    confidence)
                changes.append(Change(metric, group, str(label), float(xa[column].mean() or 0),
                                      float(xb[column].mean() or 0), delta, low, high, n, method))
    # Whole-table quantities: game length and where the points come from.
    ga = load(baseline, lazy=True).games.select("game_id", "turns").collect(engine=ENGINE)
    gb = load(variant, lazy=True).games.select("game_id", "turns").collect(engine=ENGINE)
    paired = None
    if same_games:
        g = ga.join(gb, on="game_id", suffix="_v")
        paired = (g["turns_v"] - g["turns"]).to_numpy().astype(float)
    delta, low, high, n, method = _difference(paired, ga["turns"].to_numpy().astype(float),
                                              gb["turns"].to_numpy().astype(float), confidence)
    changes.append(Change("turns", "all", "all", float(ga["turns"].mean()), float(gb["turns"].mean()),
                          delta, low, high, n, method))
    for source in sources:
        diff = None if joined is None else (joined[f"{source}_v"] - joined[source]).to_numpy().astype(float)
        delta, low, high, n, method = _difference(diff, a[source].to_numpy().astype(float),
                                                  b[source].to_numpy().astype(float), confidence)
        changes.append(Change(source, "all", "all", float(a[source].mean()), float(b[source].mean()),
                              delta, low, high, n, method))
    return changes


def win_rates(path: Path, confidence: float = 0.95) -> pl.DataFrame:
    """Win rate with Wilson interval for every seat, strategy and role of a run."""
    seats = load(path, lazy=True).seats
    frames = []
    for group in GROUPS:
        table = (seats.filter(pl.col(group).is_not_null())
                 .group_by(group).agg(pl.len().alias("n"), pl.col("win_share").sum().alias("wins"))
                 .collect(engine=ENGINE))
        if table.height == 0:
            continue
        low, high = stats.wilson_interval(table["wins"].to_numpy(), table["n"].to_numpy(), confidence)
        frames.append(pl.DataFrame({
            "group": group, "label": table[group].cast(pl.String),
            "n": table["n"], "rate": table["wins"] / table["n"], "low": low, "high": high}))
    return pl.concat(frames)


def headline_half_width(path: Path, confidence: float = 0.95) -> float:
    """The widest ± of the run's headline win rates (every seat, strategy and role)."""
    rates = win_rates(path, confidence)
    return float(((rates["high"] - rates["low"]) / 2).max())


def balance_index(path: Path, confidence: float = 0.95) -> dict:
    """Single numbers to rank configurations: spreads between strongest and weakest, first-seat edge."""
    rates = win_rates(path, confidence)
    manifest = load(path).manifest
    out = {"first_seat_advantage": None, "strategy_spread": None, "role_spread": None}
    seat0 = rates.filter((pl.col("group") == "seat") & (pl.col("label") == "0"))
    if seat0.height:
        out["first_seat_advantage"] = float(seat0["rate"][0] - 1 / manifest["n_players"])
    for group in ("strategy", "role"):
        part = rates.filter(pl.col("group") == group)
        if part.height > 1:
            out[f"{group}_spread"] = float(part["rate"].max() - part["rate"].min())
    main = out["role_spread"] if out["role_spread"] is not None else out["strategy_spread"]
    out["index"] = (main or 0.0) + abs(out["first_seat_advantage"] or 0.0)
    out["index_definition"] = ("spread between the strongest and weakest role (or strategy when "
                               "the game has no roles) plus the first seat's distance from a fair "
                               "share; 0 is perfectly balanced")
    return out

