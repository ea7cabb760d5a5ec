"""Build the balance report of a run: report.html, report.md, charts/*.png and summary.json.

    from reports.build import build_report
    path = build_report("runs/demo", confidence=0.95)      # -> runs/demo/report

The report is generic over games: it reads the core columns every dataset has and the columns
the game declares in ``manifest["columns"]`` (point and coin sources, game counts, the role
dealt but not chosen). Sections a game has no data for say so instead of showing a chart.

Every section is described once as a list of blocks (headings, paragraphs, tables, images)
that render to both Markdown and HTML, so the two files always carry the same findings.
The report is written into a temporary folder next to the destination and renamed into place
when complete: an interrupted build never leaves a half report.
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import json
import math
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from reports import charts, metrics, stats
from reports.charts import level, pretty, seat_label
from simulator.core.dataset import atomic_write_bytes, require_verified
from simulator.core.errors import UsageError

REPORT_FORMAT = 1
SUMMARY = "summary.json"
MAX_FINDINGS = 6


# --- blocks: one description, two renderings ----------------------------------------------

@dataclass
class Heading:
    level: int
    text: str
    anchor: str = ""


@dataclass
class Para:
    text: str
    note: bool = False


@dataclass
class Bullets:
    items: list[str]


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    numeric: list[bool] = field(default_factory=list)

    def __post_init__(self):
        widths = {len(self.headers)} | {len(r) for r in self.rows}
        if self.numeric:
            widths.add(len(self.numeric))
        if len(widths) != 1:
            raise ValueError(f"table columns disagree: {sorted(widths)} ({self.headers})")


@dataclass
class Image:
    key: str
    file: str
    alt: str


@dataclass
class Details:
    summary: str
    blocks: list


def _md(blocks) -> str:
    out = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"{'#' * b.level} {b.text}\n")
        elif isinstance(b, Para):
            out.append(f"{'_' + b.text + '_' if b.note else b.text}\n")
        elif isinstance(b, Bullets):
            out.append("\n".join(f"- {item}" for item in b.items) + "\n")
        elif isinstance(b, Table):
            numeric = b.numeric or [False] * len(b.headers)
            out.append("| " + " | ".join(h.replace("|", "\\|") for h in b.headers) + " |")
            out.append("|" + "|".join("---:" if r else "---" for r in numeric) + "|")
            for row in b.rows:
                out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |")
            out.append("")
        elif isinstance(b, Image):
            out.append(f"![{b.alt}]({b.file})\n")
        elif isinstance(b, Details):
            out.append(f"**{b.summary}**\n")
            out.append(_md(b.blocks))
    return "\n".join(out)


def _html_blocks(blocks, images: dict[str, bytes]) -> str:
    out = []
    for b in blocks:
        if isinstance(b, Heading):
            anchor = f' id="{html.escape(b.anchor)}"' if b.anchor else ""
            out.append(f"<h{b.level}{anchor}>{html.escape(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            cls = ' class="note"' if b.note else ""
            out.append(f"<p{cls}>{html.escape(b.text)}</p>")
        elif isinstance(b, Bullets):
            out.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Table):
            numeric = b.numeric or [False] * len(b.headers)
            head = "".join(f'<th class="{"num" if r else ""}">{html.escape(h)}</th>'
                           for h, r in zip(b.headers, numeric))
            body = "".join("<tr>" + "".join(f'<td class="{"num" if r else ""}">'
                                            f"{html.escape(str(c))}</td>"
                                            for c, r in zip(row, numeric)) + "</tr>"
                           for row in b.rows)
            out.append(f'<div class="table"><table><thead><tr>{head}</tr></thead>'
                       f"<tbody>{body}</tbody></table></div>")
        elif isinstance(b, Image):
            data = base64.b64encode(images[b.key]).decode("ascii")
            out.append(f'<figure><img src="data:image/png;base64,{data}" '
                       f'alt="{html.escape(b.alt)}" data-chart="{html.escape(b.key)}"></figure>')
        elif isinstance(b, Details):
            out.append(f"<details><summary>{html.escape(b.summary)}</summary>"
                       f"{_html_blocks(b.blocks, images)}</details>")
    return "\n".join(out)


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1180px;margin:2em auto;
padding:0 1.2em;color:#1d1d1f;line-height:1.45}
h1{font-size:1.7em;margin-bottom:.2em}h2{margin-top:1.8em;border-bottom:2px solid #e3e3e3;padding-bottom:.2em}
h3{margin-top:1.3em}.note{color:#555;font-size:.92em}
figure{margin:1em 0}img{max-width:100%;height:auto;border:1px solid #eee}
.table{overflow-x:auto}table{border-collapse:collapse;margin:.6em 0;font-size:.9em}
th,td{padding:.25em .7em;border-bottom:1px solid #e5e5e5;text-align:left;vertical-align:top}
th{background:#f5f5f7}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
#findings li{margin:.35em 0}#findings{background:#fbfaf4;border:1px solid #e8e2c8;padding:.6em 1.2em;
border-radius:6px}details{margin:.6em 0}summary{cursor:pointer;font-weight:600}
nav a{margin-right:1em}
"""


def _html(title: str, blocks, images: dict[str, bytes], findings_blocks, nav) -> str:
    links = "".join(f'<a href="#{a}">{html.escape(t)}</a>' for a, t in nav)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            f"<h1>{html.escape(title)}</h1>\n<nav>{links}</nav>\n"
            f'<section id="findings">{_html_blocks(findings_blocks, images)}</section>\n'
            f"{_html_blocks(blocks, images)}\n</body></html>\n")


def write_pages(folder: Path, stem: str, title: str, intro, blocks, images: dict[str, bytes]) -> None:
    """``stem.md`` and ``stem.html`` in ``folder`` from the same blocks, each written whole
    (the intro heads the page; every heading with an anchor is in its navigation)."""
    nav = [(b.anchor, b.text) for b in blocks if isinstance(b, Heading) and b.anchor]
    atomic_write_bytes(folder / f"{stem}.md", (f"# {title}\n\n" + _md(intro + blocks)).encode())
    atomic_write_bytes(folder / f"{stem}.html", _html(title, blocks, images, intro, nav).encode())


# --- formatting ---------------------------------------------------------------------------

def _num(x) -> float | None:
    if x is None:
        return None
    try:
        value = float(x)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _pct(x, digits: int = 1) -> str:
    x = _num(x)
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def _share(x: float) -> str:
    """A small share with enough digits to be non-zero: 57.0%, 0.35%, 0.004%."""
    if x >= 0.01:
        return f"{100 * x:.1f}%"
    return f"{100 * x:.2g}%"


def _pm(rate, low, high) -> str:
    """``31.2% ± 0.4%`` (half the interval's width)."""
    if _num(rate) is None:
        return charts.TOO_FEW
    return f"{100 * rate:.1f}% ± {100 * (high - low) / 2:.1f}%"


def _interval(low, high, pct: bool = True, digits: int = 1) -> str:
    if _num(low) is None or _num(high) is None:
        return "–"
    if pct:
        return f"{100 * low:.{digits}f}–{100 * high:.{digits}f}%"
    return f"{low:.{digits}f}–{high:.{digits}f}"


def _pvalue(p) -> str:
    p = _num(p)
    if p is None:
        return "–"
    if p < 1e-4:
        return "< 0.0001"
    return f"{p:.4f}" if p < 0.01 else f"{p:.3f}"


def _sure(p, confidence: float) -> str:
    p = _num(p)
    if p is None:
        return "too few games to say"
    shown = _pvalue(p) if p < 1e-4 else "= " + _pvalue(p)
    if p < 1 - confidence:
        return f"beyond chance, Holm-adjusted p {shown}"
    return f"within chance, Holm-adjusted p {shown}"


def _float(x, digits: int = 2) -> str:
    x = _num(x)
    return "–" if x is None else f"{x:.{digits}f}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _records(frame: pl.DataFrame) -> list[dict]:
    """Rows for JSON: NaN and infinities become null."""
    rows = frame.to_dicts()
    for row in rows:
        for k, v in row.items():
            if isinstance(v, float) and not math.isfinite(v):
                row[k] = None
    return rows


# --- the analysis -------------------------------------------------------------------------

class Builder:
    """Computes every table of the report, draws the charts and lays out the sections."""

    def __init__(self, run: metrics.Run, confidence: float, chart_dir: Path):
        self.run = run
        self.confidence = confidence
        self.chart_dir = chart_dir
        self.m = run.manifest
        self.cols = run.columns
        self.multi_n = len(run.player_counts) > 1
        self.seats = metrics.with_player_count(run.seats, run.games, run.player_counts)
        self.summary: dict = {}
        self.blocks: list = []
        self.charts: dict[str, str] = {}
        self.findings: list[tuple[str, float, str]] = []   # (family, size, text)
        self.notes: list[str] = []                     # findings shown after the ranked ones
        self.nav: list[tuple[str, str]] = []
        self.has_roles = metrics.has_values(run.seats, "role")
        self.combined_roles = self.has_roles and metrics.has_combined_roles(self.seats)
        self.roles = (metrics.split_roles(self.seats, combined=self.combined_roles)
                      if self.has_roles else None)
        strategies = (self.seats.select(pl.col("strategy").unique()).collect(engine=metrics.ENGINE)["strategy"].to_list())
        self.n_strategies = len(strategies)
        self.strategy_colours = charts.Palette(strategies, charts.STRATEGY_COLOURS)
        if self.has_roles:
            names = self.roles.select(pl.col("role").unique()).collect(engine=metrics.ENGINE)["role"].to_list()
        else:
            names = []
        self.role_colours = charts.Palette(names, charts.ROLE_COLOURS)
        self.sources = {}
        for key in ("point_sources", "coin_sources"):
            schema = run.seats.collect_schema()
            present = [c for c in self.cols.get(key, []) if c in schema]
            if present:
                self.sources[key] = present
        self.source_colours = {s: charts.SOURCE_COLOURS[i % len(charts.SOURCE_COLOURS)]
                               for i, s in enumerate(
                                   [s for v in self.sources.values() for s in v] + ["other"])}
        self.source_colours["other"] = charts.MUTED

    # helpers
    def label(self, name, n_players) -> str:
        text = pretty(name)
        return f"{text} · {n_players}p" if self.multi_n else text

    def fair_text(self, n_players) -> str:
        return f"{100 / n_players:.1f}%"

    def where(self, n_players) -> str:
        return f" in {n_players}-player games" if self.multi_n else ""

    def section(self, anchor: str, title: str) -> None:
        self.blocks.append(Heading(2, title, anchor))
        self.nav.append((anchor, title.split(":")[0]))

    def chart(self, key: str, path: Path, alt: str) -> None:
        self.charts[key] = f"charts/{path.name}"
        self.blocks.append(Image(key, f"charts/{path.name}", alt))

    def chart_path(self, name: str) -> Path:
        return self.chart_dir / f"{name}.png"

    def rate_rows(self, table: pl.DataFrame, name_col: str, name_fn=pretty) -> list[list[str]]:
        rows = []
        for r in table.iter_rows(named=True):
            enough = r["enough"]
            rows.append([
                name_fn(r[name_col]) + (f" · {r['n_players']}p" if self.multi_n else ""),
                f"{r['n']:,}",
                _pct(r["win_rate"]) if enough else charts.TOO_FEW,
                _interval(r["low"], r["high"]),
                self.fair_text(r["n_players"]),
                (f"{100 * (r['win_rate'] - r['fair']):+.1f}" if enough else "–"),
                _pvalue(r.get("p_adjusted")),
                ("yes" if r.get("significant") else "no") if enough else "–",
            ])
        return rows

    RATE_HEADERS = ["{name}", "Seats", "Win rate", "{conf} interval", "Fair", "Diff. (points)",
                    "Holm p", "Significant"]

    def rate_headers(self, name: str) -> list[str]:
        return [h.format(name=name, conf=f"{level(self.confidence)}") for h in self.RATE_HEADERS]

    def rank_finding(self, family: str, subject: str, row: dict, rate_name: str = "") -> None:
        """A ranked finding: a row departing significantly from its fair share (``rate_name``:
        which rate it is, when not the plain one, e.g. "strategy-adjusted")."""
        if not row["enough"] or not row.get("significant"):
            return
        diff = row["win_rate"] - row["fair"]
        text = (f"{_cap(subject)} wins {_pm(row['win_rate'], row['low'], row['high'])} of games"
                f"{f' ({rate_name})' if rate_name else ''}"
                f"{self.where(row['n_players'])} against a fair {self.fair_text(row['n_players'])} "
                f"({100 * diff:+.1f} points; {_sure(row['p_adjusted'], self.confidence)}).")
        self.findings.append((f"{family}{'+' if diff > 0 else '-'}", abs(diff), text))

    # sections
    def design_note(self) -> str:
        """How the run seated its strategies, and why seat and strategy rates do not mix."""
        design = self.m.get("seat_assignment")
        if not isinstance(design, dict) or design.get("mix_length", 1) < 2:
            return ""
        cycle, k = design["arrangements"], design["mix_length"]
        full = self.m.get("n_games", 0) // cycle
        share = full * cycle / max(1, self.m.get("n_games", 1))
        return (f"Strategies are seated by a balanced design: over every cycle of {cycle:,} games "
                f"each strategy sits in every seat equally often and every ordered combination of "
                f"strategies at the table occurs once, and every block of {k} games seats each "
                f"strategy once in every seat (this run: {full:,} complete cycles, "
                f"{100 * share:.1f}% of its games). So a seat's rate is not confounded with who "
                f"sits there or whom it faces, nor a strategy's with its seats. As a check, each "
                f"table also gives the rate adjusted for the other factor: the mean of the "
                f"per-cell rates (seat by strategy), each cell weighing the same. ")

    def seat_effect(self) -> None:
        fixed = not metrics.first_seat_varies(self.run.games)
        label = (lambda seat: seat_label(seat, fixed))
        table = metrics.win_rates(self.seats, "seat", self.confidence)
        mixed = self.n_strategies > 1
        if mixed:
            adjusted = metrics.adjusted_rates(self.seats, "seat", "strategy", self.confidence)
            table = table.join(adjusted.select("seat", "n_players", "adjusted_rate", "adjusted_low",
                                               "adjusted_high", "balance"),
                               on=["seat", "n_players"], how="left")
        self.summary["seat_effect"] = _records(table)
        self.summary["first_player_is_seat_0"] = fixed
        self.section("seats", "Seat effect: does turn order matter?" if fixed
                     else "Seat effect: do seat and turn order matter?")
        self.rate_family(table, "seat", label, "seat_effect",
                         "Does turn order matter? Win rate by seat (first player at the top)"
                         if fixed else "Does the seat matter? Win rate by seat at the table",
                         ("Seat 0 plays first in every game of this run. " if fixed else
                          "Who opens the game changes from game to game in this run "
                          "(games.first_seat), so seats are places at the table; turn order "
                          "follows below. ") + (self.design_note() if mixed else ""),
                         adjusted="Strategy-adjusted" if mixed else None)
        if fixed:
            self.summary["turn_order"] = None
            return
        positions = metrics.win_rates(metrics.with_turn_position(self.seats, self.run.games),
                                      "position", self.confidence)
        self.summary["turn_order"] = _records(positions)
        self.blocks.append(Heading(3, "Turn order"))
        self.rate_family(positions, "position", charts.position_label, "turn_order",
                         "Does going first matter? Win rate by place in the opening turn order",
                         "Place in the opening turn order, counted round the table from the seat "
                         "that opened the game. Where the game decides during play who opens, "
                         "this describes rather than explains: going first may be a result of "
                         "good play. ")

    def rate_family(self, table, column, label, key, title, intro, adjusted=None) -> None:
        """Chart, table and findings of win rates by seat or turn position (``adjusted``: the
        header of the table's column of adjusted rates, when the table has one)."""
        what = "seat" if column == "seat" else "position"
        per_n = [(n, table.filter(pl.col("n_players") == n)) for n in self.run.player_counts]
        path = charts.seat_chart(self.chart_path(key), per_n, column, label, title, self.confidence)
        self.chart(key, path, title)
        self.blocks.append(Para(
            intro + f"Each {what}'s win rate (ties shared) against the fair share 1 / players; "
            "intervals are Wilson score intervals and the significance test is corrected for "
            f"the {table.height} {what}s compared (Holm)."))
        headers, rows = self.rate_headers(_cap(what)), self.rate_rows(table, column, label)
        if adjusted:
            headers.insert(4, adjusted)
            for row, r in zip(rows, table.iter_rows(named=True)):
                row.insert(4, _pct(r["adjusted_rate"]))
        self.blocks.append(Table(headers, rows, [False] + [True] * (len(headers) - 2) + [False]))
        for n, t in per_n:
            ok = t.filter(pl.col("enough"))
            if ok.height == 0:
                continue
            worst = ok.with_columns((pl.col("win_rate") - pl.col("fair")).abs().alias("d")
                                    ).sort("d", descending=True).row(0, named=True)
            name = label(worst[column])
            if worst["significant"]:
                subject = f"the player {name}" if what != "seat" else \
                    (name if name.startswith("seat") else f"the {name}")  # "Seat 2", "The 1st player"
                self.rank_finding(f"{what}{n}", subject, worst)
            else:
                self.notes.append(f"No {what} departs from the fair {self.fair_text(n)} beyond "
                                  f"chance{self.where(n)} (largest: {name} "
                                  f"{_pm(worst['win_rate'], worst['low'], worst['high'])}).")

    def strategies(self) -> None:
        rates = metrics.win_rates(self.seats, "strategy", self.confidence)
        adjusted = metrics.adjusted_rates(self.seats, "strategy", "seat", self.confidence)
        scores = metrics.score_stats(self.seats, ["strategy", "n_players"], self.confidence)
        balanced = bool(adjusted.height and (adjusted["balance"].min() >= 0.98)
                        and all(adjusted["cells"] == adjusted["n_players"].cast(pl.UInt32)))
        rates = rates.join(adjusted.select("strategy", "n_players", "adjusted_rate",
                                           "adjusted_low", "adjusted_high", "balance"),
                           on=["strategy", "n_players"], how="left")
        rates = rates.sort("win_rate", descending=True, nulls_last=True)
        order = rates.select("strategy", "n_players")
        scores_sorted = order.join(scores, on=["strategy", "n_players"], how="left",
                                   maintain_order="left")
        self.summary["strategies"] = {
            "win_rates": _records(rates), "scores": _records(scores_sorted),
            "seat_balanced": balanced, "seat_assignment": self.m.get("seat_assignment")}
        self.section("strategies", "Strategy strength: which strategy wins?")
        if balanced:
            note = (self.design_note() or "Every strategy played every seat equally often, so "
                    "the plain win rate is free of the seat effect. ") + (
                    "The seat-adjusted rate (the mean of the per-seat rates) is in the table.")
            plotted = rates
        else:
            note = ("Strategies did not play every seat equally often, so the chart shows the "
                    "seat-adjusted win rate (mean of the per-seat rates, each seat weighing the "
                    "same, with a normal interval); the table also gives the plain rate.")
            plotted = rates.with_columns(pl.col("adjusted_rate").alias("win_rate"),
                                         pl.col("adjusted_low").alias("low"),
                                         pl.col("adjusted_high").alias("high"))
        labels = [self.label(s, n) for s, n in order.iter_rows()]
        colours = [self.strategy_colours[s] for s in order["strategy"]]
        path = charts.strategy_chart(self.chart_path("strategy_strength"), labels, plotted,
                                     scores_sorted, colours, self.confidence,
                                     note="Seats balanced by the seat design."
                                     if balanced else "Seat-adjusted rates.")
        self.chart("strategy_strength", path, "Win rate and mean score per strategy")
        self.blocks.append(Para(note))
        rows = self.rate_rows(rates, "strategy")
        for row, r, s in zip(rows, rates.iter_rows(named=True), scores_sorted.iter_rows(named=True)):
            row.insert(4, _pct(r["adjusted_rate"]))
            row.append(_float(s["mean"]) if s["enough"] else charts.TOO_FEW)
            row.append(_interval(s["low"], s["high"], pct=False, digits=2))
        headers = self.rate_headers("Strategy")
        headers.insert(4, "Seat-adjusted")
        headers += ["Mean score", f"{level(self.confidence)} interval"]
        self.blocks.append(Table(headers, rows, [False] + [True] * 7 + [False, True, True]))
        for r in rates.iter_rows(named=True):
            self.rank_finding("strategy", f"strategy {pretty(r['strategy'])}", r)

    def roles_section(self) -> None:
        self.section("roles", "Role strength: which roles win?")
        if not self.has_roles:
            self.summary["roles"] = None
            self.blocks.append(Para("This game (or mode) has no roles: nothing to show."))
            return
        rates = metrics.win_rates(self.roles, "role", self.confidence)
        mixed = self.n_strategies > 1
        if mixed:
            adjusted = metrics.adjusted_rates(self.roles, "role", "strategy", self.confidence)
            rates = rates.join(adjusted.select(
                "role", "n_players", "adjusted_rate", "adjusted_low", "adjusted_high",
                "adjusted_p_adjusted", "adjusted_significant", "n_min", "balance",
                pl.col("enough").alias("adjusted_enough")), on=["role", "n_players"], how="left")
        rates = rates.sort("adjusted_rate" if mixed else "win_rate", descending=True,
                           nulls_last=True)
        multi_role = self.combined_roles
        self.summary["roles"] = {"win_rates": _records(rates), "roles_per_seat_combined": multi_role,
                                 "verdict_rate": "strategy-adjusted" if mixed else "pooled"}
        labels = [self.label(r, n) for r, n in rates.select("role", "n_players").iter_rows()]
        colours = [self.role_colours[r] for r in rates["role"]]
        path = charts.win_rate_chart(
            self.chart_path("role_strength"),
            "Which roles are too strong or too weak? Win rate per role (strongest at the top)",
            labels, rates, colours, self.confidence,
            note=("Pooled over strategies; the verdicts use the strategy-adjusted rates of the "
                  "table." if mixed else ""))
        self.chart("role_strength", path, "Win rate per role against the fair share")
        sig = rates.filter(pl.col("significant"))
        pooled = (f"{sig.height} of {rates.height} roles depart from the fair share beyond chance "
                  f"(score test at {level(self.confidence)}, Holm-corrected for {rates.height} "
                  "roles).")
        if mixed:
            verdicts = rates.filter(pl.col("adjusted_significant"))
            text = (f"{verdicts.height} of {rates.height} roles depart from the fair share beyond "
                    "chance once strategy-adjusted (z test on the normal interval at "
                    f"{level(self.confidence)}, Holm-corrected for {rates.height} roles). Roles "
                    "are dealt and often chosen, so a strong strategy may hold one role more "
                    "often than another, and a role's pooled rate then shows who holds it as much "
                    "as how good it is. "
                    "The strategy-adjusted rate is the mean of the role's win rates within each "
                    "strategy, each strategy weighing the same (the strategies' own rates average "
                    "to the fair share when the mix seats each strategy equally often). A role "
                    f"that some strategy held fewer than {stats.MIN_SAMPLE} times, or never, "
                    "gets no adjusted rate and no verdict. Pooled over strategies: " + pooled)
        else:
            text = pooled
        if multi_role:
            text += (" Seats hold several roles at once here; a seat counts towards each role "
                     "it holds.")
        self.blocks.append(Para(text))
        if mixed:
            conf = level(self.confidence)
            headers = ["Role", "Seats", "Strategy-adjusted", f"{conf} interval", "Fair",
                       "Diff. (points)", "Holm p", "Significant", "Pooled", f"{conf} interval",
                       "Pooled Holm p"]
            rows = []
            for r in rates.iter_rows(named=True):
                ok = r["adjusted_enough"]
                rows.append([
                    self.label(r["role"], r["n_players"]), f"{r['n']:,}",
                    _pct(r["adjusted_rate"]) if ok else charts.TOO_FEW,
                    _interval(r["adjusted_low"], r["adjusted_high"]),
                    self.fair_text(r["n_players"]),
                    f"{100 * (r['adjusted_rate'] - r['fair']):+.1f}" if ok else "–",
                    _pvalue(r["adjusted_p_adjusted"]),
                    ("yes" if r["adjusted_significant"] else "no") if ok else "–",
                    _pct(r["win_rate"]) if r["enough"] else charts.TOO_FEW,
                    _interval(r["low"], r["high"]), _pvalue(r["p_adjusted"])])
        else:
            headers, rows = self.rate_headers("Role"), self.rate_rows(rates, "role")
        self.blocks.append(Table(headers, rows, [False] + [True] * 6 + [False]
                                 + [True] * (len(headers) - 8)))
        for r in rates.iter_rows(named=True):
            if mixed:
                self.rank_finding("role", pretty(r["role"]), {
                    **r, "win_rate": r["adjusted_rate"], "low": r["adjusted_low"],
                    "high": r["adjusted_high"], "p_adjusted": r["adjusted_p_adjusted"],
                    "significant": r["adjusted_significant"], "enough": r["adjusted_enough"]},
                    rate_name="strategy-adjusted")
            else:
                self.rank_finding("role", pretty(r["role"]), r)
        self.notes.insert(0, text)
        if mixed:
            self.roles_by_strategy(rates)

        # role against role
        matrix = metrics.role_matrix([metrics.split_roles(part, combined=self.combined_roles)
                                      for part in self.run.part_seats()], self.confidence)
        self.summary["roles"]["matrix"] = _records(matrix)
        self.blocks.append(Heading(3, "Role against role"))
        for n in self.run.player_counts:
            sub = matrix.filter(pl.col("n_players") == n)
            order = [r for r in rates.filter(pl.col("n_players") == n)["role"]]
            if not order or sub.height == 0:
                continue
            grid = np.full((len(order), len(order)), np.nan)
            ok = np.zeros_like(grid, dtype=bool)
            index = {r: i for i, r in enumerate(order)}
            for r in sub.iter_rows(named=True):
                if r["role"] in index and r["opponent_role"] in index:
                    i, j = index[r["role"]], index[r["opponent_role"]]
                    grid[i, j] = np.nan if r["win_rate"] is None else r["win_rate"]
                    ok[i, j] = r["enough"]
            suffix = f"_{n}p" if self.multi_n else ""
            names = [pretty(r) for r in order]
            path = charts.matrix_chart(
                self.chart_path(f"role_matrix{suffix}"),
                f"How does each role fare against each other role?{self.where(n)}",
                names, names, grid, ok, 1 / n, self.confidence,
                note="Rows and columns sorted by overall win rate.")
            self.chart(f"role_matrix{suffix}", path, "Role against role win-rate matrix")
            header = ["Role \\ opponent"] + names
            rows = [[names[i]] + [("–" if not ok[i, j] else f"{100 * grid[i, j]:.0f}")
                                  for j in range(len(order))] for i in range(len(order))]
            self.blocks.append(Details(
                f"Role-against-role win rates (%) as a table{self.where(n)}",
                [Para("Row role's win rate (%) in games where an opponent holds the column "
                      "role; '–' = too few games or not possible."),
                 Table(header, rows, [False] + [True] * len(order))]))
        spread = matrix.filter(pl.col("enough")).join(
            rates.select("role", "n_players", pl.col("win_rate").alias("overall")),
            on=["role", "n_players"]).with_columns(
            (pl.col("win_rate") - pl.col("overall")).alias("shift"))
        if spread.height:
            top = spread.sort(pl.col("shift").abs(), descending=True).row(0, named=True)
            self.blocks.append(Para(
                f"Largest matchup effect: {pretty(top['role'])} wins "
                f"{_pm(top['win_rate'], top['low'], top['high'])} when {pretty(top['opponent_role'])} "
                f"is at the table, against {_pct(top['overall'])} overall "
                f"({100 * top['shift']:+.1f} points; not corrected for the "
                f"{spread.height} cells compared)."))

        # role choice
        rnc = self.cols.get("role_not_chosen")
        choice = None
        if rnc and metrics.has_values(self.seats, rnc):
            choice = metrics.role_choice(self.seats, rnc, self.confidence).sort(
                "chosen_rate", descending=True, nulls_last=True)
        self.summary["roles"]["choice"] = _records(choice) if choice is not None else None
        self.blocks.append(Heading(3, "Which roles are picked when dealt?"))
        if choice is None or choice.height == 0:
            self.blocks.append(Para("No role choices are recorded in this run (roles were fixed "
                                    "or every dealt role was kept)."))
        else:
            labels = [self.label(r, n) for r, n in choice.select("role", "n_players").iter_rows()]
            colours = [self.role_colours[r] for r in choice["role"]]
            path = charts.choice_chart(self.chart_path("role_choice"), labels, choice, colours,
                                       self.confidence)
            self.chart("role_choice", path, "How often each role is kept when dealt")
            self.blocks.append(Para(
                f"A role counts as dealt when it is held or in the '{rnc}' column, on seats that "
                "made a choice; kept rate = kept / dealt. 'Random' is the rate a choice at random "
                "would give. The win rate when kept is the role's win rate on those seats."))
            rows = []
            for r in choice.iter_rows(named=True):
                rows.append([self.label(r["role"], r["n_players"]), f"{r['dealt']:,}",
                             f"{r['chosen']:,}",
                             _pct(r["chosen_rate"]) if r["choice_enough"] else charts.TOO_FEW,
                             _interval(r["chosen_low"], r["chosen_high"]),
                             _pct(r["random_rate"]),
                             _pct(r["win_rate_chosen"]) if r["enough"] else charts.TOO_FEW,
                             _interval(r["low"], r["high"])])
            self.blocks.append(Table(
                ["Role", "Dealt", "Kept", "Kept rate", f"{level(self.confidence)} interval",
                 "Random", "Win rate when kept", f"{level(self.confidence)} interval"],
                rows, [False] + [True] * 7))
            ok = choice.filter(pl.col("choice_enough"))
            if ok.height >= 2:
                hi, lo = ok.row(0, named=True), ok.row(ok.height - 1, named=True)
                self.notes.append(
                    f"Players keep {pretty(hi['role'])} most often when dealt it "
                    f"({_pm(hi['chosen_rate'], hi['chosen_low'], hi['chosen_high'])}) and "
                    f"{pretty(lo['role'])} least often "
                    f"({_pm(lo['chosen_rate'], lo['chosen_low'], lo['chosen_high'])}); "
                    f"a choice at random keeps {_pct(hi['random_rate'], 0)}.")

    def roles_by_strategy(self, rates: pl.DataFrame) -> None:
        """Each role's win rate in the hands of each strategy, against that strategy's own rate;
        a note names the strategies too thin in a role for its adjusted verdict."""
        within = metrics.rates_within(self.roles, "role", "strategy", self.seats, self.confidence)
        strategies = within.group_by("n_players").agg(pl.col("strategy").unique())
        for r in rates.filter(pl.col("enough") & ~pl.col("adjusted_enough")).iter_rows(named=True):
            held = within.filter((pl.col("role") == r["role"]) & (pl.col("n_players") == r["n_players"]))
            counts = dict(zip(held["strategy"], held["n"]))
            everyone = strategies.filter(pl.col("n_players") == r["n_players"])["strategy"][0]
            thin = [f"{pretty(st)} held it {counts[st]} times" if st in counts
                    else f"{pretty(st)} never held it"
                    for st in sorted(everyone) if counts.get(st, 0) < stats.MIN_SAMPLE]
            self.notes.append(
                f"No strategy-adjusted verdict on {pretty(r['role'])}{self.where(r['n_players'])}: "
                f"{', '.join(thin)} (under {stats.MIN_SAMPLE}); its pooled "
                f"{_pm(r['win_rate'], r['low'], r['high'])} mostly shows the other strategies.")
        self.summary["roles"]["by_strategy"] = _records(within)
        self.blocks.append(Heading(3, "Roles within each strategy"))
        self.blocks.append(Para(
            "Each role's win rate on the seats of one strategy, beside that strategy's win rate "
            "over all its seats: a role helps a strategy when it wins above the strategy's own "
            "rate. Descriptive (Wilson intervals, no test)."))
        rows = [[self.label(r["role"], r["n_players"]), pretty(r["strategy"]), f"{r['n']:,}",
                 _pct(r["win_rate"]) if r["enough"] else charts.TOO_FEW,
                 _interval(r["low"], r["high"]), _pct(r["baseline"]),
                 f"{100 * (r['win_rate'] - r['baseline']):+.1f}" if r["enough"] else "–"]
                for r in within.iter_rows(named=True)]
        self.blocks.append(Table(
            ["Role", "Strategy", "Seats", "Win rate", f"{level(self.confidence)} interval",
             "Strategy's rate", "Diff. (points)"], rows, [False, False] + [True] * 5))

    def scores(self) -> None:
        self.section("scores", "Expected score: how many points?")
        overall = metrics.score_stats(self.seats, ["n_players"], self.confidence)
        by_strategy = metrics.score_stats(self.seats, ["strategy", "n_players"], self.confidence
                                          ).sort("mean", descending=True, nulls_last=True)
        self.summary["scores"] = {"overall": _records(overall),
                                  "by_strategy": _records(by_strategy)}
        groups = [("strategy", by_strategy, self.strategy_colours)]
        if self.has_roles:
            by_role = metrics.score_stats(self.roles, ["role", "n_players"], self.confidence
                                          ).sort("mean", descending=True, nulls_last=True)
            self.summary["scores"]["by_role"] = _records(by_role)
            groups.insert(0, ("role", by_role, self.role_colours))
        else:
            self.summary["scores"]["by_role"] = None
        self.blocks.append(Para(
            f"Mean final score with {level(self.confidence)} intervals (t intervals for groups of "
            f"{stats.BOOTSTRAP_BELOW:,} or more, a percentile bootstrap of the mean below that), "
            "and the distribution of scores as box plots."))
        for name, table, palette in groups:
            labels = [self.label(v, n) for v, n in table.select(name, "n_players").iter_rows()]
            colours = [palette[v] for v in table[name]]
            path = charts.score_chart(self.chart_path(f"score_by_{name}"),
                                      f"How many points does each {name} score?", labels,
                                      table, colours, self.confidence)
            self.chart(f"score_by_{name}", path, f"Final score per {name}")
            rows = [[self.label(r[name], r["n_players"]), f"{r['n']:,}",
                     _float(r["mean"]) if r["enough"] else charts.TOO_FEW,
                     _interval(r["low"], r["high"], pct=False, digits=2), r["method"] or "–",
                     _float(r["q50"], 1), _interval(r["q25"], r["q75"], pct=False, digits=0),
                     _interval(r["q05"], r["q95"], pct=False, digits=0)]
                    for r in table.iter_rows(named=True)]
            self.blocks.append(Table(
                [_cap(name), "Seats", "Mean score", f"{level(self.confidence)} interval", "Method",
                 "Median", "Middle half", "5th-95th pct."], rows,
                [False, True, True, True, False, True, True, True]))
        if self.has_roles:
            top = by_role.filter(pl.col("enough"))
            if top.height >= 2:
                hi, lo = top.row(0, named=True), top.row(top.height - 1, named=True)
                self.notes.append(
                    f"Highest mean score: {pretty(hi['role'])} {hi['mean']:.2f} ± "
                    f"{(hi['high'] - hi['low']) / 2:.2f} points; lowest: {pretty(lo['role'])} "
                    f"{lo['mean']:.2f} ± {(lo['high'] - lo['low']) / 2:.2f}.")

        # winning score
        # A game that records its winning score saves a pass grouping every seat row by game.
        winners = (self.run.games.select("winning_score")
                   if "winning_score" in self.run.games.collect_schema()
                   else metrics.winning_scores(self.seats))
        hist = metrics.histogram(winners, "winning_score")
        w = metrics.score_stats(winners, None, self.confidence, value="winning_score").row(
            0, named=True)
        self.summary["scores"]["winning_score"] = {
            "histogram": _records(hist), **{k: _num(v) if k != "method" else v for k, v in w.items()}}
        self.blocks.append(Heading(3, "What score wins?"))
        total = int(hist["count"].sum())
        path = charts.histogram_chart(
            self.chart_path("winning_score"), "What score wins? Winning score per game", hist,
            "Winning score (points)", total, colour="#59a14f",
            markers={f"mean {w['mean']:.2f}": w["mean"]} if w["enough"] else None)
        self.chart("winning_score", path, "Distribution of the winning score")
        self.blocks.append(Para(
            f"Over {total:,} games the winner scored {_float(w['mean'])} points on average "
            f"({level(self.confidence)} interval {_interval(w['low'], w['high'], pct=False, digits=2)}; median "
            f"{_float(w['q50'], 0)}, 90% of games between {_float(w['q05'], 0)} and "
            f"{_float(w['q95'], 0)})."))

    def sources_section(self) -> None:
        self.section("sources", "Where points come from")
        self.summary["sources"] = {}
        # The gains the game tracks by source are coins unless it names them (Gnomeland's are
        # coins, mana and weapons together).
        gained = self.cols.get("resource_unit", "coins")
        specs = [("point_sources", "points", "score", "Mean points per player per game",
                  "Where do the points come from?"),
                 ("coin_sources", gained, None, f"Mean {gained} gained per player per game",
                  f"Where do the {gained} come from?")]
        any_shown = False
        for key, unit, total, xlabel, question in specs:
            sources = self.sources.get(key)
            if not sources:
                continue
            any_shown = True
            entry = {"sources": sources}
            has_other = False
            groups = [("strategy", self.seats, self.strategy_colours)]
            if self.has_roles:
                groups.insert(0, ("role", self.roles, self.role_colours))
            for name, frame, palette in groups:
                table = metrics.source_means(frame, [name, "n_players"], sources, total)
                table = table.with_columns(pl.sum_horizontal(sources).alias("_sum")).sort(
                    total or "_sum", descending=True, nulls_last=True).drop("_sum")
                entry[f"by_{name}"] = _records(table)
                labels = [self.label(v, n) for v, n in table.select(name, "n_players").iter_rows()]
                colours = [palette[v] for v in table[name]]
                path = charts.sources_chart(
                    self.chart_path(f"{unit}_by_{name}"), f"{question} Mean {unit} per {name} by source",
                    labels, table, sources, colours, xlabel, self.source_colours)
                self.chart(f"{unit}_by_{name}", path, f"Where the {unit} come from, per {name}")
                other = "other" in table.columns and any((v or 0) != 0 for v in table["other"])
                has_other = has_other or other
                cols = sources + (["other"] if other else [])
                rows = [[self.label(r[name], r["n_players"]), f"{r['n']:,}"]
                        + [_float(r[c]) if r["enough"] else "–" for c in cols]
                        + ([_float(r[total]) if r["enough"] else "–"] if total else [])
                        for r in table.iter_rows(named=True)]
                self.blocks.append(Table([_cap(name), "Seats"] + [pretty(c) for c in cols]
                                         + (["total score"] if total else []), rows,
                                         [False] + [True] * (len(cols) + 1 + bool(total))))
            if has_other:
                self.blocks.append(Para("'other' is the part of the score the declared point "
                                        "sources do not explain.", note=True))
            self.summary["sources"][key] = entry
        if not any_shown:
            self.blocks.append(Para("This game declares no point sources: nothing to show."))

    def game_length(self) -> None:
        self.section("length", "Game length")
        length = metrics.game_length(self.run.games)
        hist = metrics.histogram(self.run.games, "turns", flag="truncated")
        counts = metrics.game_count_means(self.run.games, self.cols.get("game_counts", []),
                                          self.confidence)
        self.summary["game_length"] = {**{k: _num(v) for k, v in length.items()},
                                       "histogram": _records(hist)}
        self.summary["game_counts"] = _records(counts)
        truncated = int(length["truncated"])
        if truncated:
            callout = (f"{truncated:,} games ({_share(length['truncated_share'])}) hit the turn "
                       "limit and were truncated")
        else:
            callout = "No game was truncated"
        path = charts.histogram_chart(
            self.chart_path("game_length"), "How long are games? Turns per game", hist,
            "Turns per game", length["games"], colour="#4e79a7",
            markers={f"mean {length['mean']:.1f}": length["mean"],
                     f"median {length['q50']:.0f}": length["q50"]},
            callout=callout, callout_alarm=bool(truncated),
            flagged_label="truncated (hit the turn limit)")
        self.chart("game_length", path, "Distribution of the number of turns")
        self.blocks.append(Para(
            f"{length['games']:,} games lasted {length['mean']:.1f} turns on average (median "
            f"{length['q50']:.0f}; 90% between {length['q05']:.0f} and {length['q95']:.0f}; "
            f"shortest {length['min']}, longest {length['max']})."))
        if truncated:
            text = (f"{truncated:,} games ({_share(length['truncated_share'])}) hit the turn "
                    "limit and were truncated: they are counted as recorded, but a truncated game "
                    "has no natural winner, so treat results that depend on them with care.")
            self.blocks.append(Para("Warning: " + text))
            self.findings.append(("truncated", float("inf"), text))
        else:
            self.notes.append(f"No game was truncated; games last {length['mean']:.1f} turns on "
                              f"average (90% between {length['q05']:.0f} and {length['q95']:.0f}).")
        if counts.height:
            self.blocks.append(Heading(3, "What happens in a game"))
            rows = [[pretty(r["count"]), _float(r["mean"]),
                     _interval(r["low"], r["high"], pct=False, digits=2), _float(r["sd"])]
                    for r in counts.iter_rows(named=True)]
            self.blocks.append(Table(["Count per game", "Mean", f"{level(self.confidence)} interval",
                                      "Std. dev."], rows, [False, True, True, True]))

    def unfolding(self) -> None:
        """Who leads as games go, and whether the leader wins (a runaway leader, a comeback)."""
        if "lead_changes" not in self.run.games.collect_schema():
            return  # a run made before the unfolding columns
        self.section("unfolding", "How games unfold")
        u = metrics.unfolding(self.run.games, self.confidence)
        self.summary["unfolding"] = {k: ({kk: _num(vv) for kk, vv in v.items()}
                                         if isinstance(v, dict) else _num(v))
                                     for k, v in u.items()}
        leading = self.m.get("notes", {}).get("leading")
        if leading:
            self.blocks.append(Para(f"Leading, in this game: {leading}"))
        labels = ["leader at one third", "leader at two thirds"]
        thirds = [u["leader_at_third"], u["leader_at_two_thirds"]]
        departs = stats.holm(stats.proportion_pvalue(
            [t["won"] for t in thirds], [t["games_led"] for t in thirds], u["fair"]))
        table = pl.DataFrame({
            "significant": list(departs < 1 - self.confidence),
            "win_rate": [t["win_rate"] for t in thirds], "low": [t["low"] for t in thirds],
            "high": [t["high"] for t in thirds], "fair": [u["fair"]] * 2,
            "enough": [bool(stats.enough(t["games_led"])) for t in thirds],
            "n": [t["games_led"] for t in thirds]})
        path = charts.win_rate_chart(
            self.chart_path("leader_wins"), "Does the leader win? The leader at one and two "
            "thirds of the game", labels, table, ["#4e79a7"] * 2,
            self.confidence, value_label="Games the leader went on to win (%)",
            reference_label="a seat's fair share (1 / players)")
        self.chart("leader_wins", path, "How often the leader at one and two thirds of the game won")
        rows = []
        for label, t in zip(labels, thirds):
            rows.append([_cap(label), f"{t['games_led']:,} ({_share(t['led_share'] or 0)})",
                         _pm(t["win_rate"], t["low"], t["high"]) if t["games_led"] else "–"])
        self.blocks.append(Table(["Leader", "Games with a leader", "Went on to win"], rows,
                                 [False, True, True]))
        means = [("Lead changes per game", u["lead_changes"]),
                 ("Decisions per turn", u["decisions_per_turn"]),
                 ("Final margin (winner's score less the best other)", u["final_margin"])]
        self.blocks.append(Table(
            ["Per game", "Mean", f"{level(self.confidence)} interval"],
            [[name, _float(v["mean"]), _interval(v["low"], v["high"], pct=False, digits=2)]
             for name, v in means], [False, True, True]))
        late = u["leader_at_two_thirds"]
        if late["games_led"]:
            self.notes.append(
                f"The leader at two thirds of the game went on to win {_share(late['win_rate'])} of "
                f"the games that had one (a fair share is {_share(u['fair'])}); the lead changed "
                f"{u['lead_changes']['mean']:.1f} times a game and the final margin was "
                f"{u['final_margin']['mean']:.1f} points on average (median "
                f"{u['median_final_margin']:.0f}).")

    def provenance(self) -> None:
        self.section("provenance", "Provenance")
        m = self.m
        keys = ["game", "mode", "n_players", "strategies", "seat_assignment", "roles",
                "rules_version", "seed", "n_games", "created", "package_version", "git_commit",
                "numba_version", "python_version", "wall_time_s", "games_per_second", "command"]
        prov = {k: m.get(k) for k in keys if k in m}
        params = m.get("parameters") or []
        prov["overrides"] = [p for p in params if p.get("overridden")]
        prov["assumptions"] = [p for p in params if p.get("assumption")]
        prov["notes"] = m.get("notes") or {}
        prov["parameters"] = params
        self.summary["provenance"] = prov
        rows = []
        for k in keys:
            if k not in m:
                continue
            v = m[k]
            if k == "seat_assignment" and isinstance(v, dict):
                v = f"{v['kind']} design, {v['arrangements']:,} arrangements per cycle: {v['rule']}"
            elif isinstance(v, list):
                v = ", ".join(map(str, v))
            elif isinstance(v, float):
                v = f"{v:,.1f}"
            elif isinstance(v, int) and not isinstance(v, bool) and k != "seed":
                v = f"{v:,}"
            rows.append([k.replace("_", " "), str(v)])
        self.blocks.append(Table(["", "Value"], rows))
        overrides = prov["overrides"]
        self.blocks.append(Heading(3, "Rules in force: overrides and assumptions"))
        if overrides:
            self.blocks.append(Para(f"{len(overrides)} rule parameter(s) differ from the rulebook "
                                    "default in this run:"))
            self.blocks.append(Table(["Parameter", "Value", "Default", "Allowed"],
                                     [[p["name"], str(p["value"]), str(p.get("default")),
                                       str(p.get("allowed", ""))] for p in overrides]))
        else:
            self.blocks.append(Para("No rule parameter is overridden: every value is the "
                                    "default."))
        if prov["assumptions"]:
            self.blocks.append(Para("Parameters whose value is a modelling assumption (the "
                                    "rulebook does not settle them):"))
            self.blocks.append(Table(["Parameter", "Value", "Source / reasoning"],
                                     [[p["name"], str(p["value"]), str(p.get("source", ""))]
                                      for p in prov["assumptions"]]))
        if prov["notes"]:
            self.blocks.append(Para("Modelling notes:"))
            self.blocks.append(Bullets([f"{k.replace('_', ' ')}: {v}"
                                        for k, v in prov["notes"].items()]))
        if params:
            self.blocks.append(Details(f"All {len(params)} rule parameters", [Table(
                ["Parameter", "Value", "Default", "Overridden", "Assumption", "Source"],
                [[p["name"], str(p["value"]), str(p.get("default")),
                  "yes" if p.get("overridden") else "", "yes" if p.get("assumption") else "",
                  str(p.get("source", ""))] for p in params])]))

    def methods(self) -> None:
        self.section("methods", "How to read this report")
        c = f"{level(self.confidence)}"
        items = [
            "Win rates count ties through win_share: a k-way tie gives each tied winner 1/k "
            "of a win, so the win rates of one game sum to 1 and the fair share is 1 / players.",
            f"Intervals on win rates and kept rates are {c} Wilson score intervals; 'a ± b' "
            "gives half the interval's width.",
            "A departure from the fair share is tested with the score test the Wilson interval "
            "inverts; p-values are Holm-corrected over all rows of the same table (seats, "
            "strategies, roles), and 'significant' / 'beyond chance' means the corrected "
            f"p-value is below {1 - self.confidence:.2g}.",
            f"Mean scores use t intervals for groups of {stats.BOOTSTRAP_BELOW:,} or more "
            f"seats and a percentile bootstrap of the mean ({stats.BOOTSTRAP_RESAMPLES:,} "
            "resamples, fixed seed) for smaller groups.",
            f"Groups with fewer than {stats.MIN_SAMPLE} observations show 'too few games' "
            "instead of a number.",
            "Seats of one game are not independent (their win shares sum to 1); this makes the "
            "intervals of groups that can meet in one game slightly conservative.",
            "The role-against-role matrix is descriptive: its cells are not corrected for the "
            "number of cells.",
        ]
        self.blocks.append(Bullets(items))
        self.summary["methods"] = {
            "confidence": self.confidence, "proportion_interval": "wilson",
            "proportion_test": "score test against the fair share",
            "multiple_comparisons": "holm", "mean_interval": "t (n >= "
            f"{stats.BOOTSTRAP_BELOW}), percentile bootstrap below",
            "bootstrap_resamples": stats.BOOTSTRAP_RESAMPLES, "bootstrap_seed": stats.BOOTSTRAP_SEED,
            "min_sample": stats.MIN_SAMPLE, "ties": "win_share"}

    def findings_blocks(self) -> list:
        ranked = sorted(self.findings, key=lambda x: -x[1])
        # the largest departure of each kind first (seat effect, strongest and weakest role or
        # strategy, truncation), then the largest of the rest, shown largest first
        chosen, families = [], set()
        for item in ranked:
            if item[0] not in families and len(chosen) < MAX_FINDINGS:
                chosen.append(item)
                families.add(item[0])
        for item in ranked:
            if item not in chosen and len(chosen) < MAX_FINDINGS:
                chosen.append(item)
        shown = [t for _, _, t in sorted(chosen, key=lambda x: -x[1])]
        more = len(ranked) - len(shown)
        items = shown + ([f"… and {more} more departures beyond chance in the sections below."]
                         if more > 0 else [])
        if not ranked:
            items.append("No seat, strategy or role departs from its fair share beyond chance "
                         f"at {level(self.confidence)} (Holm-corrected).")
        items += self.notes
        small = []
        for key, rows in (("seat", self.summary.get("seat_effect") or []),
                          ("strategy", (self.summary.get("strategies") or {}).get("win_rates") or []),
                          ("role", ((self.summary.get("roles") or {}).get("win_rates")) or [])):
            small += [f"{key} {pretty(r[key])}" for r in rows if not r["enough"]]
        if small:
            items.append(f"Too few games to judge: {', '.join(small)} (under {stats.MIN_SAMPLE} "
                         "seats each); run more games.")
        self.summary["findings"] = items
        return [Heading(2, "Findings", "findings-list"), Bullets(items)]

    def build(self) -> None:
        self.seat_effect()
        self.strategies()
        self.roles_section()
        self.scores()
        self.sources_section()
        self.game_length()
        self.unfolding()
        self.provenance()
        self.methods()

    def title(self) -> str:
        m = self.m
        mode = m.get("mode")
        counts = "/".join(map(str, self.run.player_counts))
        return (f"Balance report: {m['game']}{' (' + mode + ')' if mode else ''}, {counts} players, "
                f"{self.run.n_games:,} games")


# --- entry point --------------------------------------------------------------------------

def _check_out(out: Path, run_dir: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a folder")
    if out.resolve() == run_dir.resolve() or out.resolve() in run_dir.resolve().parents:
        raise UsageError(f"--out {out}: would replace the run itself; give a folder of its own")
    if out.is_dir() and any(out.iterdir()) and not (out / SUMMARY).is_file():
        raise UsageError(f"--out {out}: folder exists and is not a playtest report; "
                         "give a new or empty folder")
    if (out / SUMMARY).is_file():
        try:
            old = json.loads((out / SUMMARY).read_text())
        except (OSError, json.JSONDecodeError):
            old = None
        if not isinstance(old, dict) or "report" not in old:
            raise UsageError(f"--out {out}: folder holds a {SUMMARY} that is not a playtest "
                             "report's; give a new or empty folder")


def build_report(run_dir: str | Path, out: str | Path | None = None,
                 confidence: float = 0.95) -> Path:
    """Write the balance report of the run in ``run_dir``; returns the report folder.

    ``out`` defaults to ``run_dir/report``. An earlier report there is replaced; any other
    non-empty folder is refused. Raises ``UsageError`` for a bad confidence or a folder that is
    not a complete dataset.
    """
    start = time.perf_counter()
    confidence = stats.check_confidence(confidence)
    run = metrics.open_run(run_dir)
    require_verified(run.path)
    out = Path(out) if out is not None else run.path / "report"
    _check_out(out, run.path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)
    try:
        (tmp / "charts").mkdir()
        builder = Builder(run, confidence, tmp / "charts")
        try:
            builder.build()
        except pl.exceptions.PolarsError as e:    # a part that cannot be read past its footer
            raise UsageError(f"{run.path}: the dataset cannot be read (truncated or corrupt "
                             f"part?): {metrics._first_line(e)}") from None
        findings = builder.findings_blocks()
        title = builder.title()
        images = {k: (tmp / rel).read_bytes() for k, rel in builder.charts.items()}
        seconds = time.perf_counter() - start
        builder.summary = {
            "report": {"format": REPORT_FORMAT, "title": title, "confidence": confidence,
                       "run_dir": str(run.path.resolve()),
                       "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                       "seconds": round(seconds, 3), "n_games": run.n_games,
                       "player_counts": run.player_counts},
            "findings": builder.summary.pop("findings"),
            "charts": builder.charts,
            "colours": {"roles": builder.role_colours.as_dict(),
                        "strategies": builder.strategy_colours.as_dict()},
            **builder.summary}
        (tmp / SUMMARY).write_text(json.dumps(builder.summary, indent=2, default=str) + "\n")
        intro = [Para(f"Run {run.path.name}: {builder.m.get('game')} rules version "
                      f"{builder.m.get('rules_version')}, seed {builder.m.get('seed')}, created "
                      f"{builder.m.get('created', '?')}. {level(confidence)} confidence throughout.",
                      note=True)]
        md = (f"# {title}\n\n" + _md(intro + findings + builder.blocks))
        (tmp / "report.md").write_text(md)
        (tmp / "report.html").write_text(
            _html(title, builder.blocks, images, intro + findings,
                  [("findings-list", "Findings")] + builder.nav))
        _replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _replace(tmp: Path, out: Path) -> None:
    """Move the finished report into place; an earlier report is removed only afterwards."""
    if out.exists():
        old = out.with_name(f".{out.name}.old-{time.time_ns()}")
        out.rename(old)
        try:
            tmp.rename(out)
        except BaseException:
            old.rename(out)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(out)


def terminal_summary(report_dir: str | Path) -> str:
    """The short text ``playtest report`` prints: the title and the findings."""
    summary = json.loads((Path(report_dir) / SUMMARY).read_text())
    lines = [summary["report"]["title"]]
    lines += [f"  - {item}" for item in summary["findings"]]
    return "\n".join(lines)
