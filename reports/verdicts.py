"""Verdicts that survive stronger play: one game's balance under several sets of players.

Every balance verdict ("the Governor is too strong", "the first seat is favoured") is a
statement about the game as played by some players. Given runs of the same game and rules
with different players (say the default mix, a tuned mix and the search player, in order of
strength), this puts each seat's, role's and strategy's win rate under each side by side, with
the verdict each run supports, and flags every verdict that changes sign or loses significance
against the first run:

- a verdict is "too strong" / "too weak" (for a seat: "favoured" / "disadvantaged") when the
  win rate departs from the fair share beyond chance (score test, Holm-corrected within the
  run's table, as in the balance report), else "within chance";
- "changes sign": strong in one run, weak in the other;
- "loses significance": a verdict of the first run is "within chance" in a later one, told apart
  by whether the later interval excludes the first run's estimate (the effect shrank) or not
  (too few games to say: run more games before reading it as a change).

The same flags judge a tweak under several sets of players (``compare_effects``): each set's
variant against the baseline played by the same set is an effect with an interval, and an
effect of the first set that changes sign or significance under another set is flagged.
"""

from __future__ import annotations

import datetime
import json
import math
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.lines import Line2D

from reports import charts, metrics
from reports.build import Bullets, Heading, Image, Para, Table, _html, _md, _replace
from reports.charts import level, pretty, seat_label
from reports.compare import Change
from reports.stats import check_confidence
from simulator.core.dataset import require_verified
from simulator.core.errors import UsageError

FAMILIES = ("seat", "role", "strategy")
PLURAL = {"seat": "Seats", "role": "Roles", "strategy": "Strategies"}
STRONG, WEAK, FAIR, TOO_FEW = "too strong", "too weak", "within chance", "too few games"
SEAT_WORDS = {STRONG: "favoured", WEAK: "disadvantaged"}


@dataclass
class PlayerSet:
    label: str
    path: Path


def verdict(row: dict) -> str:
    if not row["enough"]:
        return TOO_FEW
    if not row["significant"]:
        return FAIR
    return STRONG if row["win_rate"] > row["fair"] else WEAK


def _rates(run: metrics.Run, family: str, confidence: float) -> pl.DataFrame:
    seats = metrics.with_player_count(run.seats, run.games, run.player_counts)
    if family == "role":
        if not metrics.has_values(run.seats, "role"):
            return pl.DataFrame()
        seats = metrics.split_roles(seats)
    table = metrics.win_rates(seats, family, confidence)
    return table.with_columns(pl.col(family).cast(pl.String).alias("label"))


def compare_verdicts(sets: list[PlayerSet], confidence: float = 0.95) -> dict:
    """Every seat's, role's and strategy's rate and verdict under each player set, flagged."""
    confidence = check_confidence(confidence)
    if len(sets) < 2:
        raise UsageError("report: give at least two runs to compare their verdicts")
    runs = []
    for s in sets:
        require_verified(s.path)
        runs.append(metrics.open_run(s.path))
    first = runs[0].manifest
    for s, run in zip(sets[1:], runs[1:]):
        m = run.manifest
        for key, what in (("game", "game"), ("mode", "mode"), ("n_players", "player count")):
            if m.get(key) != first.get(key):
                raise UsageError(f"report: {s.path} is of another {what} ({m.get(key)}) than "
                                 f"{sets[0].path} ({first.get(key)}); verdicts compare players, "
                                 "not games")
        if _rules(m) != _rules(first):
            raise UsageError(f"report: {s.path} plays other rules than {sets[0].path}; to see "
                             "what a rule change does, use playtest compare")
    out = {"confidence": confidence, "game": first["game"], "mode": first.get("mode"),
           "n_players": first["n_players"],
           "player_sets": [{"label": s.label, "path": str(s.path), "games": r.n_games,
                            "strategies": r.manifest["strategies"]} for s, r in zip(sets, runs)],
           "first_player_is_seat_0": not metrics.first_seat_varies(runs[0].games),
           "families": {}, "flags": []}
    for family in FAMILIES:
        tables = [_rates(run, family, confidence) for run in runs]
        if family == "strategy":  # one strategy at every seat wins its fair share by definition
            tables = [t if t.height > 1 else pl.DataFrame() for t in tables]
        if all(t.height == 0 for t in tables):
            continue
        labels = sorted({x for t in tables if t.height for x in t["label"].to_list()},
                        key=lambda x: (int(x) if family == "seat" else 0, x))
        rows = []
        for label in labels:
            cells = []
            for t in tables:
                hit = t.filter(pl.col("label") == label).to_dicts() if t.height else []
                if not hit:
                    cells.append(None)
                    continue
                r = hit[0]
                cells.append({"win_rate": r["win_rate"], "low": r["low"], "high": r["high"],
                              "fair": r["fair"], "n": r["n"], "p_adjusted": r["p_adjusted"],
                              "verdict": verdict(r)})
            row = {"label": label, "name": _name(family, label, out["first_player_is_seat_0"]),
                   "cells": cells}
            row["flags"] = _flags(family, label, row["name"], sets, cells)
            out["flags"] += row["flags"]
            rows.append(row)
        out["families"][family] = rows
    return out


def _rules(manifest: dict) -> list:
    return [(p["name"], p["value"]) for p in manifest.get("parameters", [])]


def flag_kind(first: str, then: str, first_value: float, then_low: float, then_high: float,
              up: str, down: str) -> str | None:
    """How the first players' verdict ``first`` (``up``, ``down`` or a null) fares as ``then``
    under other players, whose interval is ``then_low``..``then_high``; None when it holds.
    A lost verdict is told apart by whether the later interval excludes the first estimate."""
    if {first, then} == {up, down}:
        return "changes sign"
    if first in (up, down) and then not in (up, down):
        shrank = not (then_low <= first_value <= then_high)
        return ("loses significance: the effect shrank" if shrank else
                "loses significance: too few games to confirm it")
    if first not in (up, down) and then in (up, down):
        return "becomes significant"
    return None


def _flags(family: str, label: str, name: str, sets: list[PlayerSet], cells: list) -> list[dict]:
    ref = cells[0]
    if ref is None or ref["verdict"] == TOO_FEW:
        return []
    flags = []
    for s, c in zip(sets[1:], cells[1:]):
        if c is None or c["verdict"] == TOO_FEW:
            continue
        kind = flag_kind(ref["verdict"], c["verdict"], ref["win_rate"], c["low"], c["high"],
                         STRONG, WEAK)
        if kind:
            flags.append({"family": family, "label": label, "name": name, "under": s.label, "kind": kind,
                          "first": ref["verdict"], "then": c["verdict"],
                          "first_rate": ref["win_rate"], "then_rate": c["win_rate"],
                          "then_low": c["low"], "then_high": c["high"]})
    return flags


def _name(family: str, label: str, first_is_seat_0: bool) -> str:
    if family == "seat":
        return seat_label(int(label), first_is_seat_0)
    return pretty(label)


def _word(family: str, v: str) -> str:
    return SEAT_WORDS.get(v, v) if family == "seat" else v


def _cell(c, family: str) -> str:
    if c is None:
        return "–"
    if c["verdict"] == TOO_FEW:
        return TOO_FEW
    half = (c["high"] - c["low"]) / 2
    return f"{100 * c['win_rate']:.1f}% ± {100 * half:.1f} ({_word(family, c['verdict'])})"


def _chart(path: Path, family: str, result: dict, rows: list) -> None:
    """Each label's win rate under every player set: one row per label, one colour per set."""
    sets_chart(path, [p["label"] for p in result["player_sets"]], rows, "win_rate",
               (STRONG, WEAK), 1 / result["n_players"],
               "Win rate (% of games won, ties shared; dashed: fair share)",
               f"Does the {family} verdict survive stronger play? Win rate per {family} under "
               "each set of players",
               f"Bars: {level(result['confidence'])} Wilson intervals; a black rim marks a "
               "departure from the fair share beyond chance (Holm-corrected within each run).")


def sets_chart(path: Path, sets: list[str], rows: list, value: str, significant: tuple,
               reference: float, xlabel: str, title: str, footnote: str) -> None:
    """Rows of dots and intervals, one colour per set of players (named in the legend): each
    row's ``cells[i][value]`` with ``low``..``high``, a black rim where its verdict is one of
    ``significant``, and a dashed line at ``reference``."""
    palette = charts.Palette(sets, charts.STRATEGY_COLOURS)
    fig, (ax,) = charts._figure(len(rows) * (1 + len(sets)) // 2, row_height=0.5)
    y0 = np.arange(len(rows))[::-1]
    step = 0.7 / max(1, len(sets))
    for i, name in enumerate(sets):
        y = y0 + 0.35 - step / 2 - i * step
        for yi, row in zip(y, rows):
            c = row["cells"][i]
            if c is None or c["verdict"] == TOO_FEW:
                continue
            ax.hlines(yi, c["low"], c["high"], colors=palette[name], linewidth=2.8, alpha=0.55)
            ax.plot([c[value]], [yi], "o", color=palette[name], markersize=6, zorder=3,
                    markeredgecolor="black" if c["verdict"] in significant else palette[name])
    ax.axvline(reference, color=charts.FAIR_COLOUR, linestyle="--", linewidth=1.3)
    ax.set_yticks(y0)
    ax.set_yticklabels([r["name"] for r in rows])
    ax.xaxis.set_major_formatter(charts.PERCENT)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(handles=[Line2D([], [], marker="o", linestyle="", color=palette[n], label=n)
                       for n in sets], loc="lower right", fontsize=9, title="players")
    fig.suptitle(title, x=0.01, ha="left", fontsize=12, fontweight="bold")
    charts._footnote(fig, footnote)
    charts.save(fig, path)


def _flag_text(f: dict) -> str:
    name = f["name"]
    first, then = _word(f["family"], f["first"]), _word(f["family"], f["then"])
    return (f"{name}: {first} ({100 * f['first_rate']:.1f}%) with the first players, {then} "
            f"under {f['under']} ({100 * f['then_rate']:.1f}%, interval "
            f"{100 * f['then_low']:.1f}-{100 * f['then_high']:.1f}%): {f['kind']}.")


RAISED, LOWERED, NO_CHANGE, NEGLIGIBLE = "raised", "lowered", "no detectable change", "negligible"
EFFECT_METRICS = ("win_rate", "turns")  # judged under every set: each win rate, the game length
EFFECT_WORDS = {
    "changes sign": "the effect reverses under {under}",
    "loses significance: the effect shrank": "the effect does not hold under {under}",
    "loses significance: too few games to confirm it":
        "not confirmed under {under}: too few games to tell (its interval still holds the "
        "first estimate)",
    "becomes significant": "an effect only under {under}",
}
# an effect only a later set shows, whose estimate the first set's interval still holds
ONLY_LATER_BUT_CONSISTENT = ("an effect only under {under}, though {first}'s interval still "
                             "holds it (too few games under {first} to tell)")


def effect_verdict(change: Change) -> str:
    if not math.isfinite(change.low):
        return TOO_FEW
    if change.detected:
        return RAISED if change.delta > 0 else LOWERED
    return NEGLIGIBLE if change.equivalent else NO_CHANGE


def compare_effects(sets: list[str], changes: list[list[Change]],
                    one_strategy: list[bool]) -> dict:
    """A tweak's effect under each set of players, row by row (every seat's, strategy's and
    role's win rate, and the game length). ``changes[i]`` is the set's variant against the
    baseline played by the same set (``compare_runs``: paired on the same games, intervals and
    verdicts Holm-corrected over its rows); ``one_strategy[i]``: the set seats one strategy
    only, whose win rate is a fair share by definition. Every effect of the first set that
    changes sign or significance under a later set is flagged, as is one only a later set shows."""
    rows: dict[tuple, dict] = {}
    for i, (set_changes, single) in enumerate(zip(changes, one_strategy)):
        for c in set_changes:
            if c.metric not in EFFECT_METRICS or (c.group == "strategy" and single):
                continue
            name = "game length" if c.metric == "turns" else f"{c.group} {pretty(c.label)}"
            row = rows.setdefault((c.metric, c.group, c.label), {
                "metric": c.metric, "group": c.group, "label": c.label, "name": name,
                "cells": [None] * len(sets)})
            cell = {k: v for k, v in c.as_dict().items() if k not in ("metric", "group", "label")}
            row["cells"][i] = {"player_set": sets[i], **cell, "verdict": effect_verdict(c)}
    out = {"player_sets": sets, "rows": list(rows.values()), "flags": []}
    for row in out["rows"]:
        row["flags"] = _effect_flags(row, sets)
        out["flags"] += row["flags"]
    return out


def _effect_flags(row: dict, sets: list[str]) -> list[dict]:
    ref = row["cells"][0]
    if ref is None or ref["verdict"] == TOO_FEW:
        return []
    flags = []
    for name, c in zip(sets[1:], row["cells"][1:]):
        if c is None or c["verdict"] == TOO_FEW:
            continue
        kind = flag_kind(ref["verdict"], c["verdict"], ref["delta"], c["low"], c["high"],
                         RAISED, LOWERED)
        if kind:
            flag = {"metric": row["metric"], "group": row["group"], "label": row["label"],
                    "name": row["name"], "first_set": sets[0], "under": name, "kind": kind,
                    "first": ref, "then": c}
            words = EFFECT_WORDS[kind]
            if kind == "becomes significant" and ref["low"] <= c["delta"] <= ref["high"]:
                words = ONLY_LATER_BUT_CONSISTENT
            flag["text"] = (f"{row['name']}: {effect_text(ref, row['metric'])} under {sets[0]}, "
                            f"{effect_text(c, row['metric'])} under {name}: "
                            f"{words.format(under=name, first=sets[0])}.")
            flags.append(flag)
    return flags


def effect_text(cell: dict, metric: str) -> str:
    """``-4.63 ± 0.72 pts (lowered)``: the effect, its interval's half-width and verdict."""
    if cell["verdict"] == TOO_FEW:
        return TOO_FEW
    scale, unit = (100.0, " pts") if metric == "win_rate" else (1.0, " turns")
    half = (cell["high"] - cell["low"]) / 2
    return f"{scale * cell['delta']:+.2f} ± {scale * half:.2f}{unit} ({cell['verdict']})"


def effect_chart(path: Path, label: str, players: int, result: dict, confidence: float) -> bool:
    """Each win rate's change under every set of players; False when there is none to draw."""
    rows = [r for r in result["rows"] if r["metric"] == "win_rate"]
    if not rows:
        return False
    sets_chart(path, result["player_sets"], rows, "delta", (RAISED, LOWERED), 0.0,
               "Change in win rate against the baseline of the same players (percentage points)",
               f"Does '{label}' do the same under every set of players? ({players} players)",
               "Each set's variant against the baseline played by the same set (paired on the "
               "same games where tighter). Each interval is at its row's Holm step over the "
               f"rows of its set's comparison ({level(confidence)} family-wise), so a black rim "
               "(a change) marks exactly the intervals that exclude zero.")
    return True


def build_verdicts(sets: list[PlayerSet], out: Path | None = None,
                   confidence: float = 0.95) -> Path:
    """Write verdicts.html, verdicts.md, verdicts.json and charts/ in ``out``; returns it."""
    result = compare_verdicts(sets, confidence)
    if out is None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = Path("runs") / f"verdicts-{result['game']}-{stamp}"
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not (out / "verdicts.json").is_file():
        raise UsageError(f"--out {out}: folder is not empty and holds no earlier verdicts report")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        (tmp / "charts").mkdir()
        title = (f"Verdicts under stronger play: {result['game']}, {result['n_players']} players, "
                 f"{len(sets)} sets of players")
        names = [p["label"] for p in result["player_sets"]]
        intro = [Heading(2, "What changes with the players", "flags"),
                 Bullets([_flag_text(f) for f in result["flags"]] or
                         ["Every verdict of the first players holds under the others."]),
                 Para(f"The first run ({names[0]}) is the reference. Verdicts test each win rate "
                      "against the fair share (score test, Holm-corrected within each run's "
                      f"table) at {level(confidence)}; a lost verdict is told apart by whether the "
                      "later interval excludes the first estimate (the effect shrank) or not (too "
                      "few games to say).", note=True)]
        blocks = [Heading(2, "The players", "players"),
                  Table(["Players", "Run", "Games", "Strategies"],
                        [[p["label"], Path(p["path"]).name, f"{p['games']:,}",
                          ", ".join(dict.fromkeys(p["strategies"]))] for p in result["player_sets"]],
                        [False, False, True, False])]
        images = {}
        for family, rows in result["families"].items():
            file = f"{family}.png"
            _chart(tmp / "charts" / file, family, result, rows)
            images[family] = (tmp / "charts" / file).read_bytes()
            blocks += [Heading(2, PLURAL[family], family),
                       Image(family, f"charts/{file}", f"Win rate per {family} under each set of players"),
                       Table([family.capitalize()] + names + ["Flag"],
                             [[r["name"]] + [_cell(c, family) for c in r["cells"]]
                              + ["; ".join(f"{f['kind']} under {f['under']}" for f in r["flags"])]
                              for r in rows], [False] + [True] * len(names) + [False])]
        (tmp / "verdicts.json").write_text(json.dumps(result, indent=2) + "\n")
        (tmp / "verdicts.md").write_text(f"# {title}\n\n" + _md(intro + blocks))
        nav = [("flags", "What changes"), ("players", "Players")] + \
            [(f, PLURAL[f]) for f in result["families"]]
        (tmp / "verdicts.html").write_text(_html(title, blocks, images, intro, nav))
        _replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
