"""Comparing runs: what a tweak changed, with intervals, paired where that is tighter.

A comparison tests every row it reports (each seat, strategy and role's win rate and score, the
point sources, the game length), so its verdicts are Holm-corrected over those rows, as the
report's are: with 67 rows and no real change, uncorrected 95% intervals would call about three
of them changes by chance.

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
from scipy import stats as sps
from statsmodels.stats.weightstats import ttost_ind, ttost_paired

from reports import stats
from reports.metrics import ENGINE
from simulator.core.dataset import load

TRUNCATION_WARNING = 0.01  # share of games cut off at the turn limit that earns a warning
PAIRED_MIN_MATCH = 0.95  # share of seat pairs with the same label needed to pair them
GROUPS = ("seat", "strategy", "role")


@dataclass
class Change:
    """One quantity's change from the baseline to a variant.

    ``low``/``high`` is the interval at ``level``: the base confidence, or after the Holm
    correction over the rows of the comparison the level of the row's Holm step, so that an
    interval excludes zero exactly when the row is called a change (``detected``)."""

    metric: str      # "win_rate", "score", "turns", a point source...
    group: str       # "seat", "strategy", "role" or "all"
    label: str       # the seat/strategy/role, or "all"
    baseline: float
    variant: float
    delta: float
    low: float
    high: float
    n: int
    method: str      # "paired" (the same games, seat by seat), "unpaired" or "too few"
    p: float = math.nan           # two-sided, no change
    p_adjusted: float = math.nan  # Holm over the comparison's rows
    level: float = math.nan       # the confidence of low/high
    margin: float | None = None   # --min-effect in this row's unit (None: not asked, or turns)
    p_equivalent: float = math.nan  # two one-sided tests against +-margin, Holm over the rows
    se: float = math.nan
    df: float = math.inf
    confidence: float = 0.95

    @property
    def detected(self) -> bool:
        return math.isfinite(self.p_adjusted) and self.p_adjusted <= 1 - self.confidence

    @property
    def equivalent(self) -> bool:
        """Shown to be within +-margin (a positive verdict of no change that matters)."""
        return (self.margin is not None and not self.detected and math.isfinite(self.p_equivalent)
                and self.p_equivalent <= 1 - self.confidence)

    def verdict(self, percent: bool) -> str:
        scale, unit = (100.0, " pts") if percent else (1.0, "")
        if not math.isfinite(self.low):
            return "too few games"
        if self.detected:
            half = (self.high - self.low) / 2
            return f"changed by {scale * self.delta:+.2f} ± {scale * half:.2f}{unit}"
        if self.equivalent:
            return f"no change larger than {scale * self.margin:g}{unit}"
        return "no detectable change"

    def as_dict(self) -> dict:
        return {"metric": self.metric, "group": self.group, "label": self.label,
                "baseline": self.baseline, "variant": self.variant, "delta": self.delta,
                "low": self.low, "high": self.high, "level": self.level, "n": self.n,
                "method": self.method, "p": self.p, "p_adjusted": self.p_adjusted,
                "detected": self.detected, "margin": self.margin,
                "p_equivalent": self.p_equivalent, "equivalent": self.equivalent}


def _difference(paired: np.ndarray | None, a: np.ndarray, b: np.ndarray, confidence: float,
                margin: float | None) -> dict:
    """mean(b) - mean(a): paired (a t test of the matched differences) when that gives the
    tighter interval, else unpaired (Welch's normal approximation); its standard error, the
    p-value of no change and, given ``margin``, of the two one-sided tests (statsmodels)."""
    na, nb = len(a), len(b)
    if na < stats.MIN_SAMPLE or nb < stats.MIN_SAMPLE:
        delta = float(np.mean(b) - np.mean(a)) if na and nb else math.nan
        return {"delta": delta, "n": min(na, nb), "method": "too few"}
    se = math.sqrt(a.var(ddof=1) / na + b.var(ddof=1) / nb)
    best = {"delta": float(b.mean() - a.mean()), "se": se, "df": math.inf, "n": min(na, nb),
            "method": "unpaired"}
    if paired is not None and len(paired) >= stats.MIN_SAMPLE:
        n = len(paired)
        se_paired = float(paired.std(ddof=1)) / math.sqrt(n)
        if se_paired * sps.t.ppf(0.5 + confidence / 2, n - 1) <= se * stats.z_value(confidence):
            best = {"delta": float(paired.mean()), "se": se_paired, "df": n - 1, "n": n,
                    "method": "paired"}
    best["p"] = _two_sided_p(best["delta"], best["se"], best["df"])
    if margin is not None:
        with np.errstate(divide="ignore", invalid="ignore"):  # no spread at all: p is 0 or nan
            best["p_equivalent"] = _equivalence_p(best["method"], paired, a, b, margin)
    return best


def _equivalence_p(method: str, paired, a, b, margin: float) -> float:
    """The two one-sided tests' p-value that the change lies within +-margin."""
    if method == "paired":
        return float(ttost_paired(paired, np.zeros_like(paired), -margin, margin)[0])
    return float(ttost_ind(b, a, -margin, margin, usevar="unequal")[0])


def _two_sided_p(delta: float, se: float, df: float) -> float:
    if se == 0:
        return 0.0 if delta != 0 else 1.0
    return float(2 * sps.t.sf(abs(delta) / se, df))


def _interval(delta: float, se: float, df: float, confidence: float) -> tuple[float, float]:
    half = float(sps.t.ppf(0.5 + confidence / 2, df)) * se
    return delta - half, delta + half


def holm_correct(changes: list[Change], confidence: float) -> None:
    """Holm's step-down correction over ``changes`` (those with a p-value): adjusted p-values,
    and each interval recomputed at its step's level (1 - alpha / (m - k) for the k-th smallest
    p; every row after the first not rejected at that row's level), so verdict and interval
    agree. Equivalence p-values are Holm-adjusted over the rows that have them."""
    alpha = 1 - confidence
    tested = [c for c in changes if math.isfinite(c.p)]
    for c, adjusted in zip(tested, stats.holm([c.p for c in tested])):
        c.p_adjusted = float(adjusted)
    m = len(tested)
    stopped = None
    for k, c in enumerate(sorted(tested, key=lambda c: c.p)):
        if stopped is None and c.p > alpha / (m - k):
            stopped = alpha / (m - k)
        c.level = 1 - (stopped if stopped is not None else alpha / (m - k))
        c.low, c.high = _interval(c.delta, c.se, c.df, c.level)
    with_margin = [c for c in tested if c.margin is not None and math.isfinite(c.p_equivalent)]
    for c, adjusted in zip(with_margin, stats.holm([c.p_equivalent for c in with_margin])):
        c.p_equivalent = float(adjusted)


def _seat_frame(path: Path, columns: list[str]) -> pl.DataFrame:
    data = load(path, lazy=True)
    have = data.seats.collect_schema().names()
    return data.seats.select([c for c in ["game_id", "seat", *columns] if c in have]).collect(engine=ENGINE)


def compare_runs(baseline: Path, variant: Path, confidence: float = 0.95,
                 min_effect: float | None = None) -> list[Change]:
    """Every headline change from ``baseline`` to ``variant``, Holm-corrected over all of them.

    ``min_effect`` (points: percentage points of a win rate, game points of a score or a point
    source) is the smallest change that matters; a row shown to lie within it (two one-sided
    tests) says so."""
    mb, mv = load(baseline).manifest, load(variant).manifest
    sources = list((mb.get("columns") or {}).get("point_sources", []))
    columns = ["strategy", "role", "win_share", "score", *sources]
    a, b = _seat_frame(baseline, columns), _seat_frame(variant, columns)
    sources = [s for s in sources if s in a.columns and s in b.columns]  # a mode's own sources
    joined = a.join(b, on=["game_id", "seat"], suffix="_v") if same_games(mb, mv) else None
    changes = []

    def add(metric, group, label, xa, xb, diff):
        margin = None if min_effect is None or metric == "turns" else \
            min_effect / 100 if metric == "win_rate" else min_effect
        d = _difference(diff, xa, xb, confidence, margin)
        changes.append(Change(metric, group, str(label), float(xa.mean()) if len(xa) else 0.0,
                              float(xb.mean()) if len(xb) else 0.0, d["delta"], math.nan,
                              math.nan, d["n"], d["method"], p=d.get("p", math.nan),
                              margin=margin, p_equivalent=d.get("p_equivalent", math.nan),
                              se=d.get("se", math.nan), df=d.get("df", math.inf),
                              confidence=confidence))

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
                add(metric, group, label, xa[column].to_numpy().astype(float),
                    xb[column].to_numpy().astype(float), diff)
    # Whole-table quantities: game length and where the points come from.
    ga = load(baseline, lazy=True).games.select("game_id", "turns").collect(engine=ENGINE)
    gb = load(variant, lazy=True).games.select("game_id", "turns").collect(engine=ENGINE)
    paired = None
    if joined is not None:
        g = ga.join(gb, on="game_id", suffix="_v")
        paired = (g["turns_v"] - g["turns"]).to_numpy().astype(float)
    add("turns", "all", "all", ga["turns"].to_numpy().astype(float),
        gb["turns"].to_numpy().astype(float), paired)
    for source in sources:
        diff = None if joined is None else (joined[f"{source}_v"] - joined[source]).to_numpy().astype(float)
        add(source, "all", "all", a[source].to_numpy().astype(float),
            b[source].to_numpy().astype(float), diff)
    holm_correct(changes, confidence)
    return changes


def changed_games(baseline: Path, variant: Path) -> int | None:
    """How many of the same games (``same_games``) the variant changed: games in which a seat's
    strategy, role, score or win share, or the game's length, differs from the baseline's. None
    when the runs did not play the same games. The others played exactly as in the baseline:
    whatever the tweak does, it made no difference there."""
    a, b = load(baseline), load(variant)
    if not same_games(a.manifest, b.manifest) or a.manifest["n_games"] != b.manifest["n_games"]:
        return None
    keys = ["game_id", "seat"]
    columns = [c for c in ("strategy", "role", "score", "win_share")
               if c in a.seats.columns and c in b.seats.columns]
    seats_a, seats_b = (d.seats.select(keys + columns).sort(keys) for d in (a, b))
    games_a, games_b = (d.games.select("game_id", "turns").sort("game_id") for d in (a, b))
    seat_differs = pl.Series([False] * seats_a.height)
    for c in columns:
        seat_differs |= seats_a[c].ne_missing(seats_b[c])
    changed = set(seats_a["game_id"].filter(seat_differs).to_list())
    changed |= set(games_a["game_id"].filter(games_a["turns"] != games_b["turns"]).to_list())
    return len(changed)


def tweaked(mb: dict, mv: dict) -> list[str]:
    """The parameters whose values differ between two runs' manifests."""
    base = {p["name"]: p["value"] for p in mb["parameters"]}
    return [p["name"] for p in mv["parameters"] if base.get(p["name"]) != p["value"]]


def came_up_notes(mb: dict, mv: dict) -> list[str]:
    """For each rule the variant changes, how often it came up in both runs' games (the counts
    the kernel keeps where a rule's value can make a difference: ``rules_came_up``)."""
    notes = []
    for name in tweaked(mb, mv):
        counts = [m.get("rules_came_up", {}).get(name) for m in (mb, mv)]
        if None in counts:
            notes.append(f"{name} is not among the rules this game counts (it is read in every "
                         "game, or not counted)")
        elif counts == [0, 0]:
            notes.append(f"{name} never came up: in neither run's {mb['n_games']:,} games was "
                         "it read where its value could make a difference")
        else:
            notes.append(f"{name} came up {counts[0]:,} times in the baseline's games and "
                         f"{counts[1]:,} in the variant's")
    return notes


def same_games(mb: dict, mv: dict) -> bool:
    """Whether two runs played the same games (same game, seed and player count): game i then
    started from the same random stream in both, and seats can be paired."""
    return mb["seed"] == mv["seed"] and mb["n_players"] == mv["n_players"] and mb["game"] == mv["game"]


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


BALANCE_RESAMPLES = 1000
MAX_RESAMPLED_UNITS = 20_000  # beyond, consecutive games are resampled in equal blocks


def balance_index(path: Path, confidence: float = 0.95) -> dict:
    """Single numbers to rank configurations: spreads between strongest and weakest, first-seat
    edge, and the index with a percentile bootstrap interval over games (``low``, ``high``)."""
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
    main = "role" if out["role_spread"] is not None else \
        "strategy" if out["strategy_spread"] is not None else None
    out["index"] = (out[f"{main}_spread"] if main else 0.0) + abs(out["first_seat_advantage"] or 0.0)
    out["low"], out["high"] = _bootstrap_index(path, main, manifest["n_players"], out["index"],
                                               confidence)
    out["index_definition"] = ("spread between the strongest and weakest role (or strategy when "
                               "the game has no roles) plus the first seat's distance from a fair "
                               "share; 0 is perfectly balanced; its interval is a bias-corrected "
                               f"percentile bootstrap over games ({BALANCE_RESAMPLES} resamples)")
    return out


def _bootstrap_index(path: Path, group: str | None, n_players: int, point: float,
                     confidence: float):
    """Percentile interval of the balance index, resampling whole games (in blocks of
    consecutive games when there are more than ``MAX_RESAMPLED_UNITS``: games are independent,
    so blocks of them are too). A fixed seed: the same run gives the same interval."""
    columns = ["game_id", "seat", "win_share"] + ([group] if group else [])
    seats = load(path, lazy=True).seats.select(columns).collect(engine=ENGINE)
    n_games = int(seats["game_id"].max()) + 1
    block = -(-n_games // MAX_RESAMPLED_UNITS)
    unit = (seats["game_id"] // block).to_numpy()
    n_units = int(unit.max()) + 1
    win = seats["win_share"].to_numpy().astype(float)
    seat0 = seats["seat"].to_numpy() == 0
    first_wins = np.bincount(unit[seat0], win[seat0], n_units)
    first_games = np.bincount(unit[seat0], None, n_units).astype(float)
    if group:
        codes, labels = np.unique(seats[group].cast(pl.String).fill_null("").to_numpy(),
                                  return_inverse=True)
        keep = codes != ""
        wins = np.zeros((n_units, len(codes)))
        np.add.at(wins, (unit, labels), win)
        played = np.zeros((n_units, len(codes)))
        np.add.at(played, (unit, labels), 1.0)
        wins, played = wins[:, keep], played[:, keep]
    rng = np.random.default_rng(stats.BOOTSTRAP_SEED)
    index = []
    for _ in range(BALANCE_RESAMPLES // 100):  # 100 resamples at a time: memory stays small
        counts = rng.multinomial(n_units, np.full(n_units, 1.0 / n_units), size=100).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.abs(counts @ first_wins / (counts @ first_games) - 1.0 / n_players)
            if group:
                rate = (counts @ wins) / (counts @ played)
                value = value + np.nanmax(rate, axis=1) - np.nanmin(rate, axis=1)
        index.append(value)
    return bias_corrected_interval(np.concatenate(index), point, confidence)


def bias_corrected_interval(resampled: np.ndarray, point: float, confidence: float):
    """Efron's bias-corrected percentile interval: a spread between the strongest and weakest
    of several groups is larger in most resamples than in the data (the extremes are picked
    after the noise), so the plain percentiles sit too high; their levels are shifted by the
    share of resamples below the point estimate."""
    resampled = resampled[np.isfinite(resampled)]
    n = len(resampled)
    below = np.clip((np.sum(resampled < point) + 0.5 * np.sum(resampled == point)) / n,
                    0.5 / n, 1 - 0.5 / n)
    z0 = sps.norm.ppf(below)
    z = sps.norm.ppf(0.5 + confidence / 2)
    low, high = np.quantile(resampled, sps.norm.cdf([2 * z0 - z, 2 * z0 + z]))
    return float(low), float(high)
