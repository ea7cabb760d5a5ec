"""The ladder report: each headline verdict as a line across rungs of increasing strength.

Per rung (a run of one player set): every role's win rate, every strategy's (rungs of several
strategies), the first seat's edge over the fair share and the balance index, each with its
interval and verdict. A role's rate must not mix up who holds it with how good it is: in a rung
of one strategy the rung's own table is it; in a mixed rung it is the strategy-adjusted rate
(``metrics.adjusted_rates``, the mean of the role's rates within each strategy).

A verdict is **settled** from the expert rung up when every rung from the expert rung (the tuned
experts, else the heuristic mix) upward gives the same verdict and no rung's estimate differs
from the expert rung's beyond chance (z tests on the difference, Holm over the rungs); it
**flips** when one of those rungs finds it too strong and another too weak; otherwise it
**drifts**. ``classify`` is that rule, a pure function.

The rungs' strengths come from one match (``out/runs/match``) seating every player of every
rung against every other in every seat: Plackett-Luce strengths fitted with choix to each
game's ranking (``reports.ratings``), a rung's strength the mean of its players', counted from
the heuristic mix's, with bootstrap intervals over the match's games. One match puts every rung
on one scale, at the cost of one run; rating each rung only within its own games could not
(every rung of one strategy wins its fair share against itself).

How near each rung comes to the strongest: the mean absolute difference of its role win rates
from the last rung's, with an interval, and how much nearer than the heuristic mix's
(``closeness``).

Real games (``--real``) are put beside the rungs: their role rates and first-seat edge against
each rung's, z tests of each difference (Holm over the rows) and the mean absolute difference
with a bootstrap interval over the real games.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from pathlib import Path

import numpy as np
import polars as pl
from scipy.stats import bootstrap, norm

from reports import charts, metrics, ratings, stats
from reports.build import Bullets, Heading, Image, Para, Table, _html, _md, _replace
from reports.charts import level, pretty
from reports.compare import BALANCE_RESAMPLES, MAX_RESAMPLED_UNITS, bias_corrected_interval
from reports.verdicts import FAIR, STRONG, TOO_FEW, WEAK
from simulator.core.errors import UsageError

SETTLED, DRIFTS, FLIPS, UNTOLD = "settled", "drifts", "flips", "too few games to tell"
CLASS_COLOURS = {SETTLED: "#2ca02c", DRIFTS: "#ff7f0e", FLIPS: "#d62728", UNTOLD: "#7f7f7f"}
FAMILIES = ("role", "strategy", "first_seat", "balance")
TITLES = {"role": "Roles", "strategy": "Strategies", "first_seat": "First seat",
          "balance": "Balance index"}
FIRST_SEAT = "first seat edge"
BALANCE = "balance index"
SIDELESS = ""  # the balance index's verdict: it has no side to flip to
REAL = "real"
REAL_COLUMNS = ("game", "seat", "role", "score", "winner")
REAL_RESAMPLES = 2000
REAL_SEED = 20261205


# --- each rung's verdicts -----------------------------------------------------------------

def _verdict(enough: bool, significant: bool, above: bool) -> str:
    if not enough:
        return TOO_FEW
    if not significant:
        return FAIR
    return STRONG if above else WEAK


def _cell(value, low, high, n, verdict, reference) -> dict:
    return {"value": value, "low": low, "high": high, "n": int(n), "verdict": verdict,
            "reference": reference}


def _rate_cells(table: pl.DataFrame, column: str, adjusted: bool = False) -> dict:
    pre = "adjusted_" if adjusted else ""
    value = "adjusted_rate" if adjusted else "win_rate"
    out = {}
    for r in table.iter_rows(named=True):
        ok = bool(r["enough"])
        out[str(r[column])] = _cell(r[value], r[f"{pre}low"] if adjusted else r["low"],
                                    r[f"{pre}high"] if adjusted else r["high"], r["n"],
                                    _verdict(ok, bool(r[f"{pre}significant"] if adjusted
                                                      else r["significant"]),
                                             ok and r[value] > r["fair"]), r["fair"])
    return out


def _first_seat(seats: pl.LazyFrame, games: pl.LazyFrame, confidence: float) -> dict:
    """The edge of whoever plays first over the fair share, tested among every place at the
    table (Holm), as the report's seat table does."""
    if metrics.first_seat_varies(games):
        seats, column = metrics.with_turn_position(seats, games), "position"
    else:
        column = "seat"
    table = metrics.win_rates(seats, column, confidence).filter(pl.col(column) == 0)
    r = table.row(0, named=True)
    ok, fair = bool(r["enough"]), r["fair"]
    if not ok:
        return _cell(None, None, None, r["n"], TOO_FEW, 0.0)
    return _cell(r["win_rate"] - fair, r["low"] - fair, r["high"] - fair, r["n"],
                 _verdict(True, bool(r["significant"]), r["win_rate"] > fair), 0.0)


def rung_verdicts(path: Path, confidence: float) -> dict:
    """One rung's headline cells: {family: {label: cell}} and how its roles were judged."""
    run = metrics.open_run(path)
    seats = metrics.with_player_count(run.seats, run.games, run.player_counts)
    n_strategies = seats.select(pl.col("strategy").n_unique()).collect(engine=metrics.ENGINE).item()
    out = {"role": {}, "role_pooled": {}, "strategy": {}, "n_strategies": n_strategies,
           "games": run.n_games,
           "role_basis": None, "manifest": {k: run.manifest.get(k) for k in
                                            ("game", "n_players", "mode")}}
    if metrics.has_values(run.seats, "role"):
        roles = metrics.split_roles(seats)
        # pooled over the rung's players, as real games can only be: what they are set beside
        out["role_pooled"] = _rate_cells(metrics.win_rates(roles, "role", confidence), "role")
        if n_strategies > 1:
            out["role"] = _rate_cells(metrics.adjusted_rates(roles, "role", "strategy", confidence),
                                      "role", adjusted=True)
            out["role_basis"] = "strategy-adjusted"
        else:
            out["role"] = out["role_pooled"]
            out["role_basis"] = "one strategy: its own table"
    if n_strategies > 1:  # a rung of one strategy wins its fair share by definition
        out["strategy"] = _rate_cells(metrics.win_rates(seats, "strategy", confidence), "strategy")
    out["first_seat"] = {FIRST_SEAT: _first_seat(seats, run.games, confidence)}
    value, low, high = balance_index(seats, run.n_games, run.manifest["n_players"], confidence)
    out["balance"] = {BALANCE: _cell(value, low, high, run.n_games,
                                     SIDELESS if stats.enough(run.n_games) else TOO_FEW, 0.0)}
    return out


def balance_index(seats: pl.LazyFrame, n_games: int, n_players: int, confidence: float):
    """The balance index of experiments (the spread between the strongest and weakest role, or
    strategy in a game without roles, plus seat 0's distance from the fair share) with each
    role's rate strategy-adjusted, as the rung's role verdicts are (in a rung of one strategy
    the two are the same), and Efron's bias-corrected bootstrap interval over games (in blocks
    of consecutive games beyond ``MAX_RESAMPLED_UNITS``, as ``compare.balance_index``)."""
    frame = seats.select("game_id", "seat", "strategy", "role", "win_share")
    has_roles = metrics.has_values(frame, "role")
    cells = (metrics.split_roles(frame) if has_roles else frame).with_columns(
        pl.col("role" if has_roles else "strategy").alias("row")).collect(engine=metrics.ENGINE)
    first = frame.filter(pl.col("seat") == 0).select("game_id", "win_share").collect(
        engine=metrics.ENGINE)
    block = -(-n_games // MAX_RESAMPLED_UNITS)
    units = -(-n_games // block)
    rows, row_of = np.unique(cells["row"].to_numpy(), return_inverse=True)
    # a role's cells are its strategies (each weighing the same); a strategy is one cell
    kinds, kind_of = np.unique(cells["strategy"].to_numpy() if has_roles else
                               np.zeros(cells.height, dtype=np.int64), return_inverse=True)
    column = row_of * len(kinds) + kind_of
    unit = cells["game_id"].to_numpy() // block
    wins = np.zeros((units, len(rows) * len(kinds)))
    held = np.zeros_like(wins)
    np.add.at(wins, (unit, column), cells["win_share"].to_numpy())
    np.add.at(held, (unit, column), 1.0)
    first_wins = np.bincount(first["game_id"].to_numpy() // block, first["win_share"].to_numpy(),
                             units)
    first_games = np.bincount(first["game_id"].to_numpy() // block, None, units)

    def index(counts: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            # a role some strategy never held has no adjusted rate, as in metrics.adjusted_rates
            rate = ((counts @ wins) / (counts @ held)).reshape(len(counts), len(rows), len(kinds))
            rate = rate.mean(axis=2)
            spread = np.nanmax(rate, axis=1) - np.nanmin(rate, axis=1) if len(rows) > 1 else 0.0
            edge = np.abs(counts @ first_wins / (counts @ first_games) - 1.0 / n_players)
        return spread + edge

    point = float(index(np.ones((1, units)))[0])
    rng = np.random.default_rng(stats.BOOTSTRAP_SEED)
    resampled = np.concatenate([  # 100 resamples at a time: memory stays small
        index(rng.multinomial(units, np.full(units, 1.0 / units), size=100).astype(float))
        for _ in range(BALANCE_RESAMPLES // 100)])
    return (point, *bias_corrected_interval(resampled, point, confidence))


# --- settled, drifts, flips ---------------------------------------------------------------

def _se(cell: dict, z: float) -> float:
    return (cell["high"] - cell["low"]) / (2 * z)


def classify(cells: list, start: int, names: list[str], confidence: float = 0.95) -> dict:
    """Whether a verdict is settled, drifts or flips from rung ``start`` up. ``cells[i]`` is
    rung ``names[i]``'s cell (None where the rung has no such row): ``value``, ``low``,
    ``high`` and ``verdict`` (too strong, too weak, within chance, too few games, or '' for a
    number without a side)."""
    played = [i for i, c in enumerate(cells) if i >= start and c is not None]
    upper = [(names[i], cells[i]) for i in played if cells[i]["verdict"] != TOO_FEW]
    if len(upper) < 2:
        why = (f"played by {len(played)} rung from the expert rung up" if len(played) < 2 else
               "too few games on all but one rung from the expert rung up")
        return {"class": UNTOLD, "why": why}
    sides = {c["verdict"]: name for name, c in upper}
    if STRONG in sides and WEAK in sides:
        return {"class": FLIPS, "why": f"too strong under {sides[STRONG]}, too weak under "
                                       f"{sides[WEAK]}"}
    z = stats.z_value(confidence)
    (first, ref), rest = upper[0], upper[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.array([2 * norm.sf(abs(c["value"] - ref["value"]) /
                                  math.hypot(_se(ref, z), _se(c, z))) for _, c in rest])
    moved = [name for (name, _), q in zip(rest, stats.holm(np.nan_to_num(p, nan=1.0)))
             if q < 1 - confidence]
    changed = [(name, c) for name, c in rest if c["verdict"] != ref["verdict"]]
    widest = max((c["high"] - c["low"]) / 2 for _, c in upper)
    if not moved and not changed:
        # settled says no rung contradicts the expert rung: how wide "within chance" was
        return {"class": SETTLED, "why": f"the same from {first} up, within chance (widest "
                                         f"interval ±{100 * widest:.1f} points)"}
    # a verdict lost (or gained) where one interval still holds the other rung's estimate is
    # too few games to tell apart from a settled one, not a drift
    unclear = [name for name, c in changed
               if c["low"] <= ref["value"] <= c["high"] or ref["low"] <= c["value"] <= ref["high"]]
    why = []
    if changed:
        why.append(f"{ref['verdict']} under {first}, " +
                   ", ".join(f"{c['verdict']} under {name}" for name, c in changed))
    if moved:
        why.append(f"moves beyond chance from {first} to {', '.join(moved)}")
    if changed and not moved and len(unclear) == len(changed):
        why.append(f"{', '.join(unclear)}'s interval and {first}'s still hold each other's "
                   f"estimate (widest ±{100 * widest:.1f} points): more games would tell")
        return {"class": UNTOLD, "why": "; ".join(why)}
    return {"class": DRIFTS, "why": "; ".join(why)}


# --- the rungs' strengths -----------------------------------------------------------------

def rung_strengths(match_dir: Path, rung_names: list[str], reference: str,
                   confidence: float) -> dict:
    """Each rung's Plackett-Luce strength (the mean of its players') from the match, counted
    from ``reference``'s, with percentile bootstrap intervals over the match's games."""
    run = metrics.open_run(match_dir)
    seats = run.seats.select("game_id", "strategy", "rank").collect(engine=metrics.ENGINE)
    names = sorted(seats["strategy"].unique().to_list())
    data = ratings.rankings(seats, names)
    owner = np.array([rung_names.index(n.split("/", 1)[0]) for n in names])
    ref = rung_names.index(reference)

    def strengths(theta: np.ndarray) -> np.ndarray:
        mean = np.array([theta[owner == r].mean() for r in range(len(rung_names))])
        return mean - mean[ref]

    point = strengths(ratings.fit(len(names), data))
    rng = np.random.default_rng(ratings.BOOTSTRAP_SEED)
    boot = np.empty((ratings.BOOTSTRAP_RESAMPLES, len(rung_names)))
    for b in range(ratings.BOOTSTRAP_RESAMPLES):
        pick = rng.integers(0, len(data), len(data))
        boot[b] = strengths(ratings.fit(len(names), [data[i] for i in pick]))
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
    return {"games": len(data), "reference": reference, "model": "Plackett-Luce (choix I-LSR)",
            "bootstrap_resamples": ratings.BOOTSTRAP_RESAMPLES,
            "rungs": [{"rung": name, "strength": float(point[i]), "low": float(low[i]),
                       "high": float(high[i]),
                       "ahead_of_reference": float(1 / (1 + math.exp(-point[i])))}
                      for i, name in enumerate(rung_names)]}


# --- real games ---------------------------------------------------------------------------

def read_real(path: str | Path, config) -> pl.DataFrame:
    """The designer's real games as seat rows (``game_id``, ``seat``, ``role``, ``score``,
    ``winner``, ``win_share``), checked against the ladder's game and player count."""
    where = f"--real {path}"
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"{where}: no such file")
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise UsageError(f"{where}: give a .csv or .parquet file")
    try:
        frame = pl.read_csv(path) if suffix == ".csv" else pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError, ValueError) as e:
        text = str(e).strip().splitlines()
        raise UsageError(f"{where}: cannot be read as {suffix[1:]} "
                         f"({text[0] if text else type(e).__name__})") from None
    missing = [c for c in REAL_COLUMNS if c not in frame.columns]
    if missing:
        raise UsageError(f"{where}: no column {', '.join(missing)} (it has "
                         f"{', '.join(frame.columns) or 'none'}; needs {', '.join(REAL_COLUMNS)})")
    if frame.height == 0:
        raise UsageError(f"{where}: holds no games")
    try:
        frame = frame.select(
            pl.col("game").cast(pl.String), pl.col("seat").cast(pl.Int64, strict=True),
            pl.col("role").cast(pl.String), pl.col("score").cast(pl.Float64, strict=True),
            _winner(frame["winner"]))
    except (pl.exceptions.PolarsError, ValueError):
        raise UsageError(f"{where}: seat must be whole numbers, score numbers and winner true/"
                         "false or 1/0") from None
    for column in ("game", "seat", "score", "winner"):
        if frame[column].null_count():
            raise UsageError(f"{where}: column {column} has empty cells")
    n = config.n_players
    per_game = frame.group_by("game").agg(pl.len().alias("n"), pl.col("seat").n_unique().alias("u"),
                                          pl.col("seat").min().alias("lo"),
                                          pl.col("seat").max().alias("hi"),
                                          pl.col("winner").sum().alias("w"))
    bad = per_game.filter((pl.col("n") != n) | (pl.col("u") != n) | (pl.col("lo") != 0)
                          | (pl.col("hi") != n - 1))
    if bad.height:
        raise UsageError(f"{where}: game {bad['game'][0]} does not have seats 0 to {n - 1} once "
                         f"each (the ladder plays {n} players)")
    none = per_game.filter(pl.col("w") == 0)
    if none.height:
        raise UsageError(f"{where}: game {none['game'][0]} has no winner")
    roles = config.game.roles
    given = {r for value in frame["role"].drop_nulls().to_list()
             for r in value.split(metrics.ROLE_SEPARATOR)}
    if given - set(roles):
        unknown = sorted(given - set(roles))[0]
        allowed = ", ".join(roles) if roles else f"none: {config.game.name} has no roles"
        raise UsageError(f"{where}: role {unknown!r} is not one of {config.game.name}'s "
                         f"({allowed})")
    ids = frame["game"].unique(maintain_order=True)
    return (frame.with_columns(
        pl.col("game").replace_strict(ids, list(range(len(ids)))).alias("game_id"),
        (pl.col("winner").cast(pl.Float64) / pl.col("winner").sum().over("game"))
        .alias("win_share"),
        pl.lit(REAL).alias("strategy"), pl.lit(n, dtype=pl.Int8).alias("n_players"))
        .drop("game").sort("game_id", "seat"))


def _winner(column: pl.Series) -> pl.Expr:
    """true/false, or 1/0 (a CSV gives either)."""
    if column.dtype == pl.Boolean:
        return pl.col("winner")
    if column.dtype == pl.String:
        if not set(column.drop_nulls().str.to_lowercase().to_list()) <= {"true", "false", "1", "0"}:
            raise ValueError("winner")
        return pl.col("winner").str.to_lowercase().is_in(["true", "1"]).alias("winner")
    if not set(column.drop_nulls().to_list()) <= {0, 1}:
        raise ValueError("winner")
    return pl.col("winner").cast(pl.Boolean)


def real_verdicts(real: pl.DataFrame, confidence: float) -> dict:
    """The real games' cells: role rates (pooled: the real players are one table) and the edge
    of seat 0, the first player."""
    seats = real.lazy()
    out = {"role": {}, "strategy": {}, "games": int(real["game_id"].n_unique()),
           "role_basis": "pooled over the real players"}
    if real["role"].null_count() < real.height:
        out["role"] = _rate_cells(metrics.win_rates(metrics.split_roles(seats), "role",
                                                    confidence), "role")
    out["first_seat"] = {FIRST_SEAT: _first_seat(seats, seats.select("game_id").unique(),
                                                 confidence)}
    out["balance"] = {}
    return out


def agreement(real: pl.DataFrame, real_cells: dict, rung_cells: dict, confidence: float) -> dict:
    """How the real games compare with one rung on the rows both have (roles, first seat):
    each difference's z test (Holm over the rows), the verdicts shared, and the mean absolute
    difference in points with a BCa bootstrap interval over the real games (the rung's
    estimates held fixed). The real players cannot be told apart by strategy, so their role
    rates are pooled, and so are the rung's they are set beside."""
    rung_cells = {**rung_cells, "role": rung_cells["role_pooled"]}
    rows = [(f, label) for f in ("role", "first_seat") for label, c in real_cells[f].items()
            if c["verdict"] != TOO_FEW and rung_cells[f].get(label) is not None
            and rung_cells[f][label]["verdict"] != TOO_FEW]
    if not rows:
        return {"rows": 0}
    z = stats.z_value(confidence)
    mine = [real_cells[f][x] for f, x in rows]
    theirs = [rung_cells[f][x] for f, x in rows]
    diff = np.array([a["value"] - b["value"] for a, b in zip(mine, theirs)])
    se = np.array([math.hypot(_se(a, z), _se(b, z)) for a, b in zip(mine, theirs)])
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * norm.sf(np.abs(diff) / se)
    differ = [pretty(x) for (f, x), q in zip(rows, stats.holm(np.nan_to_num(p, nan=1.0)))
              if q < 1 - confidence]
    # per real game, each row's wins and seats: the rows' rates of any resample of games
    games = int(real["game_id"].max()) + 1
    wins, held = np.zeros((games, len(rows))), np.zeros((games, len(rows)))
    split = real.with_columns(pl.col("role").str.split(metrics.ROLE_SEPARATOR)).explode("role")
    for k, (family, label) in enumerate(rows):
        part = split.filter(pl.col("role") == label) if family == "role" else \
            real.filter(pl.col("seat") == 0)
        ids = part["game_id"].to_numpy()
        np.add.at(wins[:, k], ids, part["win_share"].to_numpy())
        np.add.at(held[:, k], ids, 1.0)
    fair = 1 / real["n_players"][0]  # the first seat's cell is its edge over the fair share
    target = np.array([b["value"] + (fair if f == "first_seat" else 0.0)
                       for (f, _), b in zip(rows, theirs)])

    def distance(pick):
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = wins[pick].sum(axis=0) / held[pick].sum(axis=0)
        return float(np.nanmean(np.abs(rate - target)))

    point = distance(np.arange(games))
    if games >= 2:  # BCa: noise inflates a mean of absolute differences; percentiles sit high
        boot = bootstrap((np.arange(games),), distance, vectorized=False,
                         n_resamples=REAL_RESAMPLES, method="BCa",
                         confidence_level=confidence, rng=np.random.default_rng(REAL_SEED))
        low, high = float(boot.confidence_interval.low), float(boot.confidence_interval.high)
    else:
        low = high = math.nan
    shared = sum(a["verdict"] == b["verdict"] for a, b in zip(mine, theirs))
    return {"rows": len(rows), "differ": differ, "consistent": not differ,
            "verdicts_shared": int(shared), "distance": point, "low": low, "high": high}


# --- how near each rung's role verdicts come to the strongest rung's -----------------------

CLOSENESS_DRAWS = 4000
CLOSENESS_SEED = 20261205


def closeness(role_rows: list[dict], names: list[str], confidence: float) -> dict:
    """Each rung's mean absolute difference from the strongest (last) rung's role win rates, in
    points, over the roles both estimated, and how much nearer it comes than the heuristic mix (on
    the roles all three estimated);
    intervals from normal draws of every cell about its estimate (its interval's spread), the
    same draws for all rungs, so a rung and the mix are compared on the same top-rung noise.
    Noise inflates a mean of absolute differences: a rung's own distance is biased up, by less
    the more games both rungs played, and the draws are shifted to centre on the estimate.
    ``fair_share``: the distance of a table where every role wins its fair share (the cells'
    ``reference``), on the mix's roles, with the top rung's noise alone."""
    z = stats.z_value(confidence)
    top = len(names) - 1
    rng = np.random.default_rng(CLOSENESS_SEED)
    draws = {}
    for k, row in enumerate(role_rows):
        cells = row["cells"]
        for i, c in enumerate(cells):
            # a cell with too few games for a verdict still has an estimate: its wide
            # interval widens the distance's
            if c is not None and all(isinstance(c[k], (int, float)) and math.isfinite(c[k])
                                     for k in ("value", "low", "high")):
                draws[k, i] = rng.normal(c["value"], _se(c, z), CLOSENESS_DRAWS)

    def distances(i, also=None):
        """Rung ``i``'s distance from the top rung (on the roles ``also`` estimated too);
        ``i`` None: a table where every role wins its fair share (the cells' ``reference``)."""
        def side(k):  # rung i's estimate of role k and its draws (a fair table has no noise)
            if i is None:
                return (role_rows[k]["cells"][top]["reference"],) * 2
            return role_rows[k]["cells"][i]["value"], draws[k, i]
        shared = [k for k in range(len(role_rows)) if (k, top) in draws
                  and ((k, i) in draws if i is not None
                       else role_rows[k]["cells"][top].get("reference") is not None)
                  and (also is None or (k, also) in draws)]
        if not shared:
            return None, None, 0
        point = float(np.mean([abs(side(k)[0] - role_rows[k]["cells"][top]["value"])
                               for k in shared]))
        drawn = np.mean([np.abs(side(k)[1] - draws[k, top]) for k in shared], axis=0)
        # the draws add noise to estimates that hold noise already, which inflates a mean of
        # absolute differences: shifted back to centre on the estimate
        return point, drawn - (drawn.mean() - point), len(shared)

    tail = (1 - confidence) / 2 * 100

    def interval(drawn, floor=None) -> dict:
        low = float(np.percentile(drawn, tail))
        return {"low": low if floor is None else max(floor, low),
                "high": float(np.percentile(drawn, 100 - tail))}

    out = {"reference": names[top], "rungs": {}}
    mix = names.index("heuristics") if "heuristics" in names else None
    for i, name in enumerate(names[:top]):
        point, drawn, roles = distances(i)
        if point is None:
            continue
        entry = {"distance": point, **interval(drawn, 0.0), "roles": roles}
        if mix is not None and i != mix:  # on the roles all three estimated
            theirs, their_draws, _ = distances(mix, also=i)
            mine, my_draws, roles = distances(i, also=mix)
            if theirs is not None:
                entry["nearer_than_heuristics"] = {
                    "difference": theirs - mine, **interval(their_draws - my_draws),
                    "roles": roles}
        out["rungs"][name] = entry
    # A table where every role wins exactly its fair share takes no side; how near it comes is
    # what a rung must beat before its nearness says which roles are strong.
    point, drawn, roles = distances(None, also=mix)
    if point is not None:
        out["fair_share"] = {"distance": point, **interval(drawn, 0.0), "roles": roles}
    return out


# --- the report ---------------------------------------------------------------------------

def _fmt(cell: dict | None, family: str) -> str:
    if cell is None:
        return "–"
    if cell["verdict"] == TOO_FEW:
        return TOO_FEW
    half = (cell["high"] - cell["low"]) / 2
    if family == "balance":
        return f"{100 * cell['value']:.1f} ({100 * cell['low']:.1f}-{100 * cell['high']:.1f})"
    sign = "+" if family == "first_seat" else ""
    word = {STRONG: "favoured", WEAK: "disadvantaged"}.get(cell["verdict"], cell["verdict"]) \
        if family == "first_seat" else cell["verdict"]
    return f"{100 * cell['value']:{sign}.1f}% ± {100 * half:.1f} ({word})"


def _panels(path: Path, family: str, rows: list, names: list[str], expert: int, real: bool,
            confidence: float) -> None:
    """One small panel per row: its value on every rung (and the real games) with intervals,
    coloured by whether it is settled, drifts or flips."""
    cols = min(4, len(rows))
    lines = -(-len(rows) // cols)
    fig = charts.new_figure(charts.WIDTH, 1.2 + 2.3 * lines)
    axes = fig.subplots(lines, cols, squeeze=False).ravel()
    xs = list(range(len(names) + (1 if real else 0)))
    for ax, row in zip(axes, rows):
        colour = CLASS_COLOURS[row["class"]["class"]]
        shown = [c if c and c["verdict"] != TOO_FEW else None for c in row["cells"]]
        # a rung without the row leaves a gap in the line rather than a bridge over it
        y = np.array([c["value"] if c else np.nan for c in shown])
        err = np.array([[c["value"] - c["low"] if c else 0.0 for c in shown],
                        [c["high"] - c["value"] if c else 0.0 for c in shown]])
        ax.errorbar(range(len(names)), y, yerr=np.clip(err, 0, None), color=colour, marker="o",
                    markersize=4, capsize=2, linewidth=1.4)
        ref = row.get("real")
        if real and ref and ref["verdict"] != TOO_FEW:
            ax.errorbar([len(names)], [ref["value"]], yerr=[[ref["value"] - ref["low"]],
                                                            [ref["high"] - ref["value"]]],
                        color="black", marker="s", markersize=4, capsize=2)
        if family != "balance":
            reference = next((c["reference"] for c in row["cells"] if c), 0.0)
            ax.axhline(reference, color=charts.FAIR_COLOUR, linestyle="--", linewidth=1)
        ax.axvspan(-0.5, expert - 0.5, color=charts.MUTED, alpha=0.12, linewidth=0)
        ax.set_title(f"{row['name']}: {row['class']['class']}", fontsize=9, color=colour)
        ax.set_xticks(xs)
        ax.set_xticklabels(names + ([REAL] if real else []), rotation=45, ha="right", fontsize=7)
        ax.yaxis.set_major_formatter(charts.PERCENT)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[len(rows):]:
        ax.set_visible(False)
    dashed = {"role": "; dashed: fair share", "strategy": "; dashed: fair share",
              "first_seat": "; dashed: no edge"}.get(family, "")
    fig.suptitle(f"{TITLES[family]} along the ladder "
                 f"({'points' if family == 'balance' else '%'}{dashed})",
                 x=0.01, ha="left", fontsize=11, fontweight="bold")
    charts._footnote(fig, f"Bars: {level(confidence)} intervals. Green: settled from the expert "
                          "rung up; orange: drifts; red: flips; grey: too few games to tell. "
                          "Shaded: the rungs below the expert rung, not judged."
                          + (" Black square: the real games (pooled over their players)."
                             if real else ""))
    charts.save(fig, path)


def build_ladder_report(ladder, folders: list[Path], match_dir: Path, expert: int, out: Path,
                        confidence: float, real: pl.DataFrame | None = None,
                        real_path: str | None = None) -> Path:
    """ladder.html, ladder.md, ladder.json and charts/ in ``out``; returns ``out``'s parent,
    the ladder's folder."""
    names = [r.name for r in ladder]
    cells = [rung_verdicts(f, confidence) for f in folders]
    strength = rung_strengths(match_dir, names, "heuristics", confidence)
    real_cells = real_verdicts(real, confidence) if real is not None else None
    families = {}
    for family in FAMILIES:
        labels = sorted({x for c in cells for x in c[family]})
        rows = []
        for label in labels:
            row_cells = [c[family].get(label) for c in cells]
            name = label if family in ("first_seat", "balance") else pretty(label)
            row = {"label": label, "name": name, "cells": row_cells,
                   "class": classify(row_cells, expert, names, confidence)}
            if real_cells is not None:
                row["real"] = real_cells[family].get(label)
            rows.append(row)
        if rows:
            families[family] = rows
    result = {**cells[0]["manifest"], "confidence": confidence, "expert_rung": names[expert],
              "rungs": [{"name": r.name, "description": r.description, "games": c["games"],
                         "strategies": r.strategies, "weights": r.weights,
                         "role_basis": c["role_basis"],
                         "folder": str(Path(f).relative_to(out.parent))}
                        for r, c, f in zip(ladder, cells, folders)],
              "strength": strength, "families": families}
    # a game without roles: the first seat's edge, its one verdict of who wins
    rated = "role" if "role" in families else "first_seat"
    if rated in families and len(names) > 1:
        result["closeness"] = {**closeness(families[rated], names, confidence), "rows": rated}
    if real is not None:
        result["real"] = {"file": Path(real_path).name, "games": real_cells["games"],
                          "agreement": {n: agreement(real, real_cells, c, confidence)
                                        for n, c in zip(names, cells)}}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        _write(tmp, result, names, confidence)
        _replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out.parent


def _summary_lines(result: dict) -> list[str]:
    """What the ladder says: each verdict's class, the rungs' strengths, the real games."""
    by_class = {SETTLED: [], DRIFTS: [], FLIPS: [], UNTOLD: []}
    for family, rows in result["families"].items():
        for row in rows:
            what = row["name"] if family in ("first_seat", "balance") else \
                f"{family} {row['name']}"
            by_class[row["class"]["class"]].append((what, row["class"]["why"]))
    expert = result["expert_rung"]
    lines = [f"Settled from the {expert} rung up: " +
             (", ".join(w for w, _ in by_class[SETTLED]) or "none") + "."]
    for kind in (FLIPS, DRIFTS):
        for what, why in by_class[kind]:
            lines.append(f"{what} {kind}: {why}.")
    if by_class[UNTOLD]:
        lines.append("Too few games to tell: " + ", ".join(w for w, _ in by_class[UNTOLD]) + ".")
    near = result.get("closeness")
    if near and near["rungs"]:
        pct = level(result["confidence"])
        parts = []
        for name, e in near["rungs"].items():
            part = f"{name} {100 * e['distance']:.1f} ({100 * e['low']:.1f}-{100 * e['high']:.1f})"
            gain = e.get("nearer_than_heuristics")
            if gain:
                part += (f", {100 * gain['difference']:+.1f} nearer than the heuristics "
                         f"({100 * gain['low']:+.1f} to {100 * gain['high']:+.1f})")
            parts.append(part)
        roles = near.get("rows", "role") == "role"
        what = "Role win rates'" if roles else "The first seat's edge:"
        lines.append(f"{what} mean absolute difference from {near['reference']}'s, in "
                     f"points ({pct} intervals): " + "; ".join(parts) + ".")
        fair = near.get("fair_share")
        if fair:
            side = (f"every role won its fair share, on the {fair['roles']} roles the "
                    "heuristics estimated too," if roles else "the first seat had no edge")
            lines.append(f"A table where {side} would be {100 * fair['distance']:.1f} "
                         f"({100 * fair['low']:.1f}-{100 * fair['high']:.1f}) from "
                         f"{near['reference']}'s: a rung no nearer takes sides no better than "
                         "taking none.")
    real = result.get("real")
    if real:
        lines += _real_lines(real, result["confidence"])
    return lines


def _real_lines(real: dict, confidence: float) -> list[str]:
    scored = {n: a for n, a in real["agreement"].items() if a["rows"]}
    if not scored:
        return [f"The {real['games']:,} real games share no role or first-seat row with the rungs."]
    closest = min(scored, key=lambda n: scored[n]["distance"])
    a = scored[closest]
    consistent = [n for n, x in scored.items() if x["consistent"]]
    return [f"The {real['games']:,} real games are closest to the {closest} rung (mean absolute "
            f"difference {100 * a['distance']:.1f} points, {level(confidence)} interval "
            f"{100 * a['low']:.1f}-{100 * a['high']:.1f}); consistent within chance with: "
            f"{', '.join(consistent) or 'no rung'}. Few real games give wide intervals: "
            "'consistent' may only mean too few games to tell."]


def _write(tmp: Path, result: dict, names: list[str], confidence: float) -> None:
    (tmp / "charts").mkdir()
    title = (f"Verdicts along a skill ladder: {result['game']}, {result['n_players']} players"
             f"{', ' + result['mode'] if result['mode'] else ''}, {len(names)} rungs")
    real = result.get("real")
    intro = [Heading(2, "What the ladder says", "findings"), Bullets(_summary_lines(result)),
             Para(f"A verdict is settled when every rung from the expert rung "
                  f"({result['expert_rung']}) up gives the same verdict and no rung's estimate "
                  f"differs from the expert rung's beyond chance (z tests of the differences, "
                  f"Holm over the rungs, {level(confidence)}); it flips when one of those rungs "
                  "finds it too strong and another too weak; otherwise it drifts. Settled means "
                  "no stronger rung contradicts it: where the search rungs' intervals are wide "
                  "(few games), more games may still move it.", note=True)]
    s = result["strength"]
    blocks = [Heading(2, "The rungs", "rungs"),
              Para("Each rung is one set of players, weakest first. Strength: Plackett-Luce "
                   f"(choix) from one match of {s['games']:,} games in which every player of every "
                   "rung met every other in every seat; a rung's strength is the mean of its "
                   f"players', counted from the {s['reference']} rung's (log scale), with "
                   f"{level(confidence)} bootstrap intervals over the match's games. 'Ahead': the "
                   f"chance its average player finishes ahead of the {s['reference']} rung's."),
              Table(["Rung", "Players", "Games", "Strength", f"{level(confidence)} interval",
                     "Ahead", "Role verdicts on"],
                    [[r["name"], r["description"], f"{r['games']:,}", f"{x['strength']:+.2f}",
                      "reference" if r["name"] == s["reference"] else
                      f"{x['low']:+.2f} to {x['high']:+.2f}",
                      f"{100 * x['ahead_of_reference']:.0f}%", r["role_basis"] or "no roles"]
                     for r, x in zip(result["rungs"], s["rungs"])],
                    [False, False, True, True, True, True, False])]
    blocks.append(Para("A mixed rung's role rates are strategy-adjusted (the mean of the role's "
                       "win rates within each strategy), so a strong strategy that takes a role "
                       "more often does not make the role look strong; a rung of one strategy is "
                       "its own table. The balance index is experiments' (the spread between the "
                       "strongest and weakest role plus the first seat's distance from its fair "
                       "share), its role rates strategy-adjusted in the same way.", note=True))
    images = {}
    for family, rows in result["families"].items():
        file = f"{family}.png"
        _panels(tmp / "charts" / file, family, rows, names, names.index(result["expert_rung"]),
                real is not None, confidence)
        images[family] = (tmp / "charts" / file).read_bytes()
        headers = [{"role": "Role", "strategy": "Strategy"}.get(family, "Verdict")] \
            + names + ([REAL] if real else []) + ["From the expert rung up"]
        blocks += [Heading(2, TITLES[family], family),
                   Image(family, f"charts/{file}", f"{TITLES[family]} along the ladder"),
                   Table(headers, [[r["name"]] + [_fmt(c, family) for c in r["cells"]]
                                   + ([_fmt(r.get("real"), family)] if real else [])
                                   + [f"{r['class']['class']}: {r['class']['why']}"]
                                   for r in rows],
                         [False] + [True] * (len(headers) - 2) + [False])]
    if real:
        blocks += [Heading(2, "Real games", "real"),
                   Para(f"{real['games']:,} real games from {real['file']}: their role "
                        "rates pooled over the real players (who cannot be told apart by "
                        "strategy), set beside each rung's pooled role rates, and the edge of "
                        "seat 0, the first player. Each rung against them on the rows both "
                        "have: differences tested by z tests "
                        f"(Holm over the rows, {level(confidence)}), and the mean absolute "
                        "difference with a bootstrap interval over the real games (the rung's "
                        "own uncertainty not in it). Few real games give wide intervals."),
                   Table(["Rung", "Rows", "Differ beyond chance", "Verdicts shared",
                          "Mean abs. difference", f"{level(confidence)} interval"],
                         [[n, str(a["rows"]), ", ".join(a.get("differ", [])) or "none",
                           f"{a.get('verdicts_shared', 0)} of {a['rows']}",
                           f"{100 * a['distance']:.1f} pts" if a["rows"] else "–",
                           f"{100 * a['low']:.1f}-{100 * a['high']:.1f}" if a["rows"] else "–"]
                          for n, a in real["agreement"].items()],
                         [False, True, False, True, True, True])]
    (tmp / "ladder.json").write_text(json.dumps(result, indent=2, default=float) + "\n")
    (tmp / "ladder.md").write_text(f"# {title}\n\n" + _md(intro + blocks))
    nav = [("findings", "What it says"), ("rungs", "Rungs")] + \
        [(f, TITLES[f]) for f in result["families"]] + ([("real", "Real games")] if real else [])
    (tmp / "ladder.html").write_text(_html(title, blocks, images, intro, nav))


def terminal_summary(report_dir: Path) -> str:
    """What ``playtest ladder`` prints: the rungs with their strengths, then the verdicts."""
    result = json.loads((Path(report_dir) / "ladder.json").read_text())
    lines = ["rung            games   strength (vs heuristics)"]
    for r, x in zip(result["rungs"], result["strength"]["rungs"]):
        span = ("reference" if r["name"] == result["strength"]["reference"] else
                f"{x['low']:+.2f} to {x['high']:+.2f}")
        lines.append(f"  {r['name']:<14}{r['games']:>7,}   {x['strength']:+.2f} ({span})")
    return "\n".join(lines + [f"- {line}" for line in _summary_lines(result)])
