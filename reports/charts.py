"""The report's charts: matplotlib (Agg, no pyplot state), one PNG each.

Every chart states its question in the title, labels its axes with units, draws the fair share
where one applies and the confidence intervals, and colours each role and strategy the same way
in every chart (``Palette``: a stable mapping from the sorted names). Categories run down the
y axis so long names never overlap; figure heights grow with the number of rows.
"""

from __future__ import annotations

import gc
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib import colormaps  # noqa: E402
from matplotlib.colors import TwoSlopeNorm, to_hex, to_rgb  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

DPI = 110
WIDTH = 10.0
FAIR_COLOUR = "#555555"
MUTED = "#9a9a9a"
TOO_FEW = "too few games"

# Distinct colours: roles draw from the first list, strategies from the second, so a role and a
# strategy never look alike; both fall back to evenly spaced hues when there are many names.
ROLE_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                "#0f9fb0", "#7f7f00", "#393b79", "#637939", "#843c39", "#7b4173", "#3182bd",
                "#e6550d", "#31a354"]
STRATEGY_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#8c6bb1", "#b6992d",
                    "#499894", "#d37295", "#9d7660", "#79706e"]
# Point and coin sources: pastel, so a stacked segment never looks like a role or strategy.
SOURCE_COLOURS = ["#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5",
                  "#ffed6f", "#bc80bd", "#ccebc5", "#d9d9d9", "#e5c494"]


def level(confidence: float) -> str:
    """A confidence level as people write it: 95%, 97.5%."""
    return f"{round(100 * confidence, 4):g}%"


def _text_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = to_rgb(colour)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


PERCENT = FuncFormatter(lambda v, _: f"{round(100 * v, 6):g}")
"""Axis ticks of a proportion in percent, without a spurious decimal (22.5, 25, 27.5)."""


def pretty(name) -> str:
    """A data name as a reader sees it: ``master_builder`` -> ``master builder``."""
    return str(name).replace("_", " ")


class Palette:
    """A colour for every name, fixed by the names' sorted order (the same in every chart)."""

    def __init__(self, names, colours=ROLE_COLOURS):
        names = sorted({str(n) for n in names if n is not None})
        if len(names) > len(colours):
            cmap = colormaps["hsv"]
            colours = [to_hex(cmap(i / len(names))) for i in range(len(names))]
        self.colours = {name: colours[i] for i, name in enumerate(names)}

    def __getitem__(self, name) -> str:
        return self.colours.get(str(name), MUTED)

    def as_dict(self) -> dict:
        return dict(self.colours)


def new_figure(width: float, height: float) -> Figure:
    """A chart's figure at the reports' resolution, laid out by matplotlib's constrained layout."""
    _freeze_the_heap_once()
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def save(fig: Figure, path: Path) -> Path:
    """Write ``fig`` as a PNG without a timestamp or version in it (the same bytes every time)."""
    path = Path(path)
    fig.savefig(path, format="png", dpi=DPI, metadata={"Software": None})
    return path


_heap_frozen = False


def _freeze_the_heap_once() -> None:
    """Spare every later garbage collection from walking what is alive before the first chart.

    Drawing makes many short-lived cycles, and each full collection would otherwise walk the
    imported modules and numba's compiled code as well: a fifth of an experiment's comparison.
    Garbage is collected first, so none is kept."""
    global _heap_frozen
    if not _heap_frozen:
        gc.collect()
        gc.freeze()
        _heap_frozen = True


def _figure(rows: int, cols: int = 1, width: float = WIDTH, row_height: float = 0.42,
            base: float = 1.6) -> tuple[Figure, list]:
    height = max(3.0, base + row_height * rows)
    fig = new_figure(width, height)
    axes = fig.subplots(1, cols, squeeze=False)[0]
    return fig, list(axes)


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def rate_panel(ax, labels, rate, low, high, fair, colours, significant=None, enough=None, n=None,
               value_label: str = "Win rate (%)", annotate: bool = True) -> None:
    """Dot-and-interval rows (top to bottom in the given order) against a dashed reference.

    Rows with too few games show the words instead of a dot. ``significant`` rows get a star
    and a black rim. Values are written in an aligned column at the right of the panel.
    """
    rows = len(labels)
    y = np.arange(rows)[::-1]
    rate = np.asarray(rate, dtype=float)
    low = np.asarray(low, dtype=float)
    high = np.asarray(high, dtype=float)
    fair = np.asarray(fair, dtype=float)
    enough = np.ones(rows, bool) if enough is None else np.asarray(enough, bool)
    significant = np.zeros(rows, bool) if significant is None else np.asarray(significant, bool)
    finite = np.concatenate([v[np.isfinite(v)] for v in (low, high, fair)] or [np.array([0.0])])
    lo_lim, hi_lim = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    span = max(hi_lim - lo_lim, 0.02)
    left, right = max(0.0, lo_lim - 0.08 * span), hi_lim + 0.5 * span
    if right - left < 0.05:
        right = min(1.0, left + 0.05)
    for i in range(rows):
        if np.isfinite(fair[i]):
            ax.vlines(fair[i], y[i] - 0.5, y[i] + 0.5, colors=FAIR_COLOUR, linestyles="--",
                      linewidth=1.3)
        if not enough[i] or not np.isfinite(rate[i]):
            note = TOO_FEW + (f" (n = {int(n[i]):,})" if n is not None else "")
            ax.text(left + 0.02 * (right - left), y[i], note, va="center", ha="left",
                    color=MUTED, fontsize=9, style="italic")
            continue
        ax.hlines(y[i], low[i], high[i], colors=colours[i], linewidth=3.2, alpha=0.55)
        ax.plot([rate[i]], [y[i]], "o", color=colours[i], markersize=8, zorder=3,
                markeredgecolor="black" if significant[i] else colours[i], markeredgewidth=1.2)
        if annotate:
            half = (high[i] - low[i]) / 2
            text = f"{_pct(rate[i])} ± {100 * half:.1f}" + (" *" if significant[i] else "  ")
            ax.text(0.985, y[i], text, va="center", ha="right", fontsize=9,
                    transform=ax.get_yaxis_transform(),
                    fontweight="bold" if significant[i] else "normal")
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.set_ylim(-0.7, rows - 0.3)
    ax.set_xlim(left, right)
    ax.xaxis.set_major_formatter(PERCENT)
    ax.set_xlabel(value_label)
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)


def _colour_ticks(ax, colours) -> None:
    for tick, colour in zip(ax.get_yticklabels(), colours):
        tick.set_color(colour)


def _footnote(fig: Figure, text: str) -> None:
    """A small explanatory note under the chart, wrapped to the figure's width."""
    width_chars = int(fig.get_figwidth() * 72 / (8.5 * 0.56))
    fig.supxlabel(textwrap.fill(text, width_chars), fontsize=8.5, color="#444444", x=0.01,
                  ha="left", multialignment="left")


# --- win rates ----------------------------------------------------------------------------

def win_rate_chart(path, title: str, labels, table, colours, confidence: float,
                   note: str = "", value_label: str = "Win rate (% of games won, ties shared)",
                   reference_label: str = "fair share (1 / players)") -> Path:
    """Win rate of each row against its fair share, with intervals and significance stars."""
    fig, (ax,) = _figure(len(labels))
    rate_panel(ax, labels, table["win_rate"], table["low"], table["high"], table["fair"], colours,
               table["significant"] if "significant" in table.columns else None,
               table["enough"], table["n"], value_label=value_label)
    _colour_ticks(ax, colours)
    ax.set_title(title, loc="left", fontsize=12, fontweight="bold")
    _footnote(fig, f"Dashed line: {reference_label}. Bars: {level(confidence)} Wilson intervals; "
                   "values are rate ± half the interval. * = departs from the fair share "
                   f"after Holm correction for {len(labels)} comparisons." + (f" {note}" if note else ""))
    return save(fig, path)


def strategy_chart(path, labels, rates, scores, colours, confidence: float, note: str = "") -> Path:
    """Two panels: each strategy's win rate against the fair share, and its mean score."""
    fig, (ax1, ax2) = _figure(len(labels), cols=2, width=11.5)
    rate_panel(ax1, labels, rates["win_rate"], rates["low"], rates["high"], rates["fair"], colours,
               rates["significant"], rates["enough"], rates["n"],
               value_label="Win rate (% of games won, ties shared)")
    _colour_ticks(ax1, colours)
    ax1.set_title("Win rate (dashed: fair share 1 / players)", loc="left", fontsize=10.5)
    _mean_panel(ax2, labels, scores, colours)
    ax2.set_yticklabels([])
    ax2.set_title("Mean final score", loc="left", fontsize=10.5)
    fig.suptitle("Which strategy is strongest? Win rate and expected score per strategy",
                 x=0.01, ha="left", fontsize=12, fontweight="bold")
    _footnote(fig, f"Bars: {level(confidence)} intervals (Wilson for win rates; t or bootstrap for "
                   "means); values are estimate ± half the interval. * = departs from the fair "
                   "share after Holm correction." +
              (f" {note}" if note else ""))
    return save(fig, path)


def _mean_panel(ax, labels, scores, colours, value_label: str = "Mean final score (points)") -> None:
    rows = len(labels)
    y = np.arange(rows)[::-1]
    mean = np.asarray(scores["mean"], dtype=float)
    low = np.asarray(scores["low"], dtype=float)
    high = np.asarray(scores["high"], dtype=float)
    finite = np.concatenate([low[np.isfinite(low)], high[np.isfinite(high)]])
    lo_lim, hi_lim = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    span = max(hi_lim - lo_lim, 0.1)
    left, right = lo_lim - 0.1 * span, hi_lim + 0.5 * span
    for i in range(rows):
        if not np.isfinite(mean[i]):
            ax.text(left + 0.02 * (right - left), y[i], TOO_FEW, va="center", color=MUTED,
                    fontsize=9, style="italic")
            continue
        ax.hlines(y[i], low[i], high[i], colors=colours[i], linewidth=3.2, alpha=0.55)
        ax.plot([mean[i]], [y[i]], "D", color=colours[i], markersize=7, zorder=3)
        ax.text(0.985, y[i], f"{mean[i]:.2f} ± {(high[i] - low[i]) / 2:.2f}", va="center",
                ha="right", fontsize=9, transform=ax.get_yaxis_transform())
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.set_ylim(-0.7, rows - 0.3)
    ax.set_xlim(left, right)
    ax.set_xlabel(value_label)
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)


def score_chart(path, title: str, labels, scores, colours, confidence: float,
                unit: str = "points") -> Path:
    """Two panels per group: mean score with its interval, and the score distribution (box)."""
    fig, (ax1, ax2) = _figure(len(labels), cols=2, width=11.5)
    _mean_panel(ax1, labels, scores, colours, value_label=f"Mean final score ({unit})")
    _colour_ticks(ax1, colours)
    ax1.set_title(f"Mean with {level(confidence)} interval", loc="left", fontsize=10.5)
    rows = len(labels)
    y = np.arange(rows)[::-1]
    boxes, positions, faces = [], [], []
    for i in range(rows):
        row = {k: scores[k][i] for k in ("q05", "q25", "q50", "q75", "q95", "mean")}
        if row["q50"] is None or not np.isfinite(row["q50"]):
            ax2.text(0.02, y[i], TOO_FEW, va="center", color=MUTED, fontsize=9, style="italic",
                     transform=ax2.get_yaxis_transform())
            continue
        boxes.append({"med": row["q50"], "q1": row["q25"], "q3": row["q75"],
                      "whislo": row["q05"], "whishi": row["q95"], "mean": row["mean"],
                      "fliers": [], "label": ""})
        positions.append(y[i])
        faces.append(colours[i])
    if boxes:
        art = ax2.bxp(boxes, positions=positions, orientation="horizontal", widths=0.6,
                      patch_artist=True, showmeans=True, showfliers=False,
                      meanprops={"marker": "D", "markerfacecolor": "white",
                                 "markeredgecolor": "black", "markersize": 5},
                      medianprops={"color": "black", "linewidth": 1.6})
        for patch, colour in zip(art["boxes"], faces):
            patch.set_facecolor(colour)
            patch.set_alpha(0.75)
    ax2.set_yticks(y)
    ax2.set_yticklabels([])
    ax2.set_ylim(-0.7, rows - 0.3)
    ax2.set_xlabel(f"Final score ({unit})")
    ax2.set_title("Distribution of final scores", loc="left", fontsize=10.5)
    ax2.grid(axis="x", alpha=0.3)
    ax2.set_axisbelow(True)
    fig.suptitle(title, x=0.01, ha="left", fontsize=12, fontweight="bold")
    _footnote(fig, f"Left: mean with its {level(confidence)} interval (t, or bootstrap for small "
                   "groups). Right: box = middle half of the scores, black line = median, "
                   "white diamond = mean, whiskers = 5th to 95th percentile.")
    return save(fig, path)


# --- role against role --------------------------------------------------------------------

def matrix_chart(path, title: str, rows: list[str], cols: list[str], values: np.ndarray,
                 enough: np.ndarray, fair: float, confidence: float, note: str = "") -> Path:
    """Heatmap of win rates (row role when the column role is at the table), centred on fair."""
    nr, nc = len(rows), len(cols)
    size = max(6.0, 0.62 * nc + 3.2)
    fig = new_figure(size + 1.2, max(5.0, 0.55 * nr + 2.6))
    ax = fig.subplots()
    shown = np.where(enough, values, np.nan)
    finite = shown[np.isfinite(shown)]
    spread = max(0.02, float(np.max(np.abs(finite - fair)))) if finite.size else 0.05
    norm = TwoSlopeNorm(vcenter=fair, vmin=max(0.0, fair - spread), vmax=min(1.0, fair + spread))
    cmap = colormaps["RdBu_r"].with_extremes(bad="#e6e6e6")
    image = ax.imshow(np.ma.masked_invalid(shown), cmap=cmap, norm=norm, aspect="auto")
    for i in range(nr):
        for j in range(nc):
            v = shown[i, j]
            if np.isfinite(v):
                dark = abs(v - fair) > 0.6 * spread
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=8.5,
                        color="white" if dark else "black")
            else:
                ax.text(j, i, "–" if rows[i] != cols[j] else "", ha="center", va="center",
                        fontsize=8, color=MUTED)
    ax.set_xticks(range(nc))
    ax.set_xticklabels(cols, rotation=40, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(nr))
    ax.set_yticklabels(rows)
    ax.set_xlabel("Role held by an opponent at the same table")
    ax.set_ylabel("Role whose win rate is shown")
    bar = fig.colorbar(image, ax=ax, shrink=0.85, pad=0.02)
    bar.set_label(f"Win rate of the row role (%); fair share {100 * fair:.0f}%")
    bar.ax.yaxis.set_major_formatter(PERCENT)
    bar.ax.axhline(fair, color="black", linewidth=1.5)
    ax.set_title(title, loc="left", fontsize=12, fontweight="bold")
    _footnote(fig, "Cells: win rate (%) of the row role in games where an opponent holds the "
                   "column role. Red = above the fair share, blue = below. Grey '–' = too few "
                   "games." + (f" {note}" if note else ""))
    return save(fig, path)


# --- role choice --------------------------------------------------------------------------

def choice_chart(path, labels, table, colours, confidence: float) -> Path:
    """Two panels: how often each role is kept when dealt, and its win rate when kept."""
    fig, (ax1, ax2) = _figure(len(labels), cols=2, width=11.5)
    rate_panel(ax1, labels, table["chosen_rate"], table["chosen_low"], table["chosen_high"],
               table["random_rate"], colours, table["choice_significant"], table["choice_enough"],
               table["dealt"], value_label="Kept when dealt (% of deals)")
    _colour_ticks(ax1, colours)
    ax1.set_title("How often is it kept when dealt? (dashed: at random)", loc="left",
                  fontsize=10.5)
    rate_panel(ax2, labels, table["win_rate_chosen"], table["low"], table["high"], table["fair"],
               colours, table["significant"], table["enough"], table["chosen"],
               value_label="Win rate when kept (% of games won)")
    ax2.set_yticklabels([])
    ax2.set_title("Win rate when kept (dashed: fair share)", loc="left", fontsize=10.5)
    fig.suptitle("Which roles do players pick? Choice rate when dealt, and win rate when chosen",
                 x=0.01, ha="left", fontsize=12, fontweight="bold")
    _footnote(fig, f"Bars: {level(confidence)} Wilson intervals; values are rate ± half the "
                   "interval. * = departs from the dashed reference after Holm correction. Only "
                   "seats that chose between dealt roles count; 'at random' = the rate a random "
                   "pick would give.")
    return save(fig, path)


# --- where points come from ---------------------------------------------------------------

def sources_chart(path, title: str, labels, table, sources: list[str], colours, xlabel: str,
                  source_colours: dict[str, str]) -> Path:
    """Stacked horizontal bars: the mean contribution of each source per group."""
    fig, (ax,) = _figure(len(labels), row_height=0.5, base=2.4)
    rows = len(labels)
    y = np.arange(rows)[::-1]
    parts = [s for s in sources if s in table.columns]
    if "other" in table.columns and any((v or 0) != 0 for v in table["other"]):
        parts.append("other")
    pos = np.zeros(rows)
    neg = np.zeros(rows)
    values = {s: np.array([np.nan if v is None else v for v in table[s]], dtype=float) for s in parts}
    scale = max(1e-9, float(sum(np.nan_to_num(np.abs(v)) for v in values.values()).max())
                if values else 1e-9)
    for source in parts:
        v = np.nan_to_num(values[source])
        start = np.where(v >= 0, pos, neg)
        ax.barh(y, v, left=start, color=source_colours.get(source, MUTED), height=0.62,
                label=pretty(source), edgecolor="white", linewidth=0.6)
        for i in range(rows):
            if abs(v[i]) >= 0.06 * scale:
                ax.text(start[i] + v[i] / 2, y[i], f"{v[i]:.1f}", ha="center", va="center",
                        fontsize=8, color=_text_on(source_colours.get(source, MUTED)))
        pos += np.maximum(v, 0)
        neg += np.minimum(v, 0)
    totals = pos + neg
    for i in range(rows):
        if not table["enough"][i]:
            ax.text(0.0, y[i], "  " + TOO_FEW, va="center", color=MUTED, fontsize=9, style="italic")
        else:
            ax.text(pos[i], y[i], f"  {totals[i]:.1f}" + (" net" if neg[i] < 0 else ""),
                    va="center", fontsize=9, fontweight="bold")
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    _colour_ticks(ax, colours)
    ax.set_ylim(-0.7, rows - 0.3)
    ax.set_xlim(min(0.0, neg.min() * 1.05), max(1e-9, pos.max()) * 1.12)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(len(parts), 6),
              fontsize=8.5, frameon=False)
    fig.suptitle(title, x=0.01, ha="left", fontsize=12, fontweight="bold")
    return save(fig, path)


# --- distributions ------------------------------------------------------------------------

def histogram_chart(path, title: str, hist, xlabel: str, n_total: int, colour: str = "#4e79a7",
                    markers: dict[str, float] | None = None, callout: str | None = None,
                    callout_alarm: bool = False, flagged_label: str | None = None) -> Path:
    """Bars of a distribution as % of games, with optional marker lines and a call-out text.

    With a ``flagged`` column in ``hist`` (e.g. truncated games) that part of each bar is drawn
    in red and labelled ``flagged_label``.
    """
    fig = new_figure(WIDTH, 4.6)
    ax = fig.subplots()
    left = np.asarray(hist["left"], dtype=float)
    right = np.asarray(hist["right"], dtype=float)
    share = np.asarray(hist["count"], dtype=float) / max(1, n_total)
    width = right - left
    integer_bins = bool(np.all(width == 1.0))
    bar = {"width": 0.85 * width if integer_bins else width,
           "align": "center" if integer_bins else "edge", "edgecolor": "white", "linewidth": 0.5}
    flagged = (np.asarray(hist["flagged"], dtype=float) / max(1, n_total)
               if "flagged" in hist.columns else np.zeros_like(share))
    ax.bar(left, 100 * (share - flagged), color=colour, **bar)
    if flagged.any():
        ax.bar(left, 100 * flagged, bottom=100 * (share - flagged), color="#c0392b",
               label=flagged_label, **bar)
    styles = ["-", "--", ":", "-."]
    for k, (label, value) in enumerate((markers or {}).items()):
        ax.axvline(value, color="black", linestyle=styles[k % len(styles)], linewidth=1.2,
                   label=label)
    if markers or flagged.any():
        ax.legend(loc="upper right", fontsize=9)
    if callout:
        ax.text(0.01, 0.97, callout, transform=ax.transAxes, ha="left", va="top", fontsize=9.5,
                color="#b00020" if callout_alarm else "#333333",
                fontweight="bold" if callout_alarm else "normal",
                bbox={"facecolor": "white", "edgecolor": "#b00020" if callout_alarm else "#cccccc",
                      "boxstyle": "round,pad=0.4"})
    top = 100 * share.max() if share.size else 1.0
    if integer_bins and len(left) <= 30:
        ax.set_xticks(left)
        ax.set_xticklabels([f"{v:.0f}" for v in left])
    if integer_bins and len(left) <= 15:
        for x, h in zip(left, share):
            ax.text(x, 100 * h, f"{100 * h:.1f}%" if h >= 0.001 else "<0.1%", ha="center",
                    va="bottom", fontsize=8.5, zorder=4,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.6, "alpha": 0.85})
    ax.set_ylim(0, top * (1.3 if callout else 1.12))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("Share of games (%)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.set_title(title, loc="left", fontsize=12, fontweight="bold")
    return save(fig, path)


def seat_chart(path, tables: list[tuple[int, object]], column: str, label_fn, title: str,
               confidence: float, colour: str = "#3b5b92") -> Path:
    """Win rate per seat (or turn position), one panel per player count, against 1/n."""
    cols = len(tables)
    rows = max(len(t[column]) for _, t in tables)
    fig, axes = _figure(rows, cols=cols, width=max(WIDTH, 5.5 * cols), row_height=0.55)
    for ax, (n_players, table) in zip(axes, tables):
        labels = [label_fn(s) for s in table[column]]
        rate_panel(ax, labels, table["win_rate"], table["low"], table["high"], table["fair"],
                   [colour] * len(labels), table["significant"], table["enough"], table["n"],
                   value_label="Win rate (% of games won, ties shared)")
        if cols > 1:
            ax.set_title(f"{n_players} players (fair share {100 / n_players:.0f}%)", loc="left",
                         fontsize=10.5)
    fig.suptitle(title, x=0.01, ha="left", fontsize=12, fontweight="bold")
    _footnote(fig, f"Dashed line: fair share (1 / players). Bars: {level(confidence)} Wilson "
                   "intervals; values are rate ± half the interval. * = departs from the fair "
                   "share after Holm correction over all rows shown.")
    return save(fig, path)


def ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def seat_label(seat, first_is_seat_0: bool = True) -> str:
    """``1st player (seat 0)`` when seat 0 always opens the game, else ``seat 0``."""
    if first_is_seat_0:
        return f"{ordinal(int(seat) + 1)} player (seat {int(seat)})"
    return f"seat {int(seat)}"


def position_label(position) -> str:
    """Place in the opening turn order: ``1st to play``."""
    return f"{ordinal(int(position) + 1)} to play"


def rating_chart(path, result: dict) -> Path:
    """A tournament's ratings: each strategy's strength on the Elo scale with its interval."""
    rows = result["ratings"]
    palette = Palette([r["strategy"] for r in rows], STRATEGY_COLOURS)
    fig, (ax,) = _figure(len(rows))
    y = np.arange(len(rows))[::-1]
    for yi, r in zip(y, rows):
        colour = palette[r["strategy"]]
        ax.hlines(yi, r["elo_low"], r["elo_high"], colors=colour, linewidth=3.2, alpha=0.55)
        ax.plot([r["elo"]], [yi], "o", color=colour, markersize=8, zorder=3)
        ax.text(0.985, yi, f"{r['elo']:+.0f} ({100 * r['ahead_of_average']:.1f}% ahead of average)",
                va="center", ha="right", fontsize=9, transform=ax.get_yaxis_transform())
    ax.axvline(0, color=FAIR_COLOUR, linestyle="--", linewidth=1.3)
    ax.set_yticks(y)
    ax.set_yticklabels([pretty(r["strategy"]) for r in rows])
    _colour_ticks(ax, [palette[r["strategy"]] for r in rows])
    lo = min(r["elo_low"] for r in rows)
    hi = max(r["elo_high"] for r in rows)
    span = max(hi - lo, 20.0)
    ax.set_xlim(lo - 0.08 * span, hi + 0.7 * span)
    ax.set_xlabel("Strength (Elo scale, mean 0; dashed: average strategy)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    fig.suptitle(f"Who plays {result['game']} best? Plackett-Luce ratings, {result['n_players']} "
                 f"players, {result['games']:,} games", x=0.01, ha="left", fontsize=12,
                 fontweight="bold")
    _footnote(fig, f"Bars: {level(result['confidence'])} percentile intervals from "
                   f"{result['bootstrap_resamples']} bootstrap resamples of the games. Every "
                   "strategy sat in every seat and met every combination of the others "
                   "(the balanced seat design).")
    return save(fig, path)


# --- sensitivity --------------------------------------------------------------------------

TORNADO_LOW, TORNADO_HIGH, TORNADO_CHOICE = "#4e79a7", "#f28e2b", "#8c6bb1"


def _lighter(colour: str, by: float = 0.65) -> str:
    """The colour mixed with white: an effect that was not detected."""
    return to_hex(tuple(c + (1 - c) * by for c in to_rgb(colour)))


TORNADO_NAME_CHARS = 34   # a parameter's name wraps onto a second line beyond this
TORNADO_VALUE_CHARS = 30  # the values tried, at the right, go one a line beyond this


def tornado_chart(path, result: dict, max_rows: int) -> Path:
    return save(tornado_figure(result, max_rows), path)


def tornado_figure(result: dict, max_rows: int) -> Figure:
    """Each parameter's effect on the metric at the low and high end of its range (a choice: at
    each other option), with the bootstrap interval, largest on top; undetected effects muted.

    Names go in the left margin and the values tried (with their effects) in the right one,
    both wrapped, with rows tall enough for the longest: nothing is written over the bars."""
    scale = result["metric"]["scale"]
    unit = result["metric"]["unit"]
    ranked = [e for e in result["ranking"] if e["largest"] is not None][:max_rows]
    by_param: dict[str, list[dict]] = {}
    for r in result["points"]:
        if r["playable"]:
            by_param.setdefault(r["parameter"], []).append(r)
    rows = []
    for entry in ranked:
        points = by_param[entry["parameter"]]
        numbers = [r for r in points if isinstance(r["value"], int)]
        if numbers:
            ends = [(min(numbers, key=lambda r: r["value"]), TORNADO_LOW),
                    (max(numbers, key=lambda r: r["value"]), TORNADO_HIGH)]
        else:
            ends = [(r, TORNADO_CHOICE) for r in points]
        name = textwrap.fill(pretty(entry["parameter"]) + ("" if entry["detected"] else " (n.s.)"),
                             TORNADO_NAME_CHARS)
        tried = [f"{r['value']}: {scale * r['delta']:+.1f}" for r, _ in ends]
        values = ("   ".join(tried) if sum(map(len, tried)) + 3 * len(tried) <= TORNADO_VALUE_CHARS
                  else "\n".join(textwrap.fill(t, TORNADO_VALUE_CHARS) for t in tried))
        rows.append((ends, name, values))
    lines = max((max(n.count("\n"), v.count("\n")) + 1 for _, n, v in rows), default=1)
    fig, (ax,) = _figure(max(1, len(rows)), row_height=max(0.38, 0.16 * lines + 0.1), base=2.2)
    y = np.arange(len(rows))[::-1]
    for row, (ends, _, _) in zip(y, rows):
        # the longer bar first, so a shorter one on the same side stays in view on top of it
        for r, colour in sorted(ends, key=lambda e: -abs(e[0]["delta"])):
            shade = colour if r["detected"] else _lighter(colour)
            ax.barh(row, scale * r["delta"], height=0.62, color=shade, edgecolor="white",
                    linewidth=0.8)
            ax.hlines(row, scale * r["low"], scale * r["high"], colors="black", linewidth=1,
                      alpha=0.9 if r["detected"] else 0.35)
    ax.axvline(0, color=FAIR_COLOUR, linewidth=1)
    ax.set_yticks(y)
    ax.set_yticklabels([name for _, name, _ in rows], fontsize=8.5)
    ax.set_ylim(-0.7, max(1, len(rows)) - 0.3)
    values = ax.twinx()  # the right margin: the values tried, row by row
    values.set_ylim(ax.get_ylim())
    values.set_yticks(y)
    values.set_yticklabels([v for _, _, v in rows], fontsize=8, color="#333333")
    values.tick_params(axis="y", length=0)
    ax.set_xlabel(f"Change of the {result['metric']['short']} ({unit}), variant - printed rules")
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    ax.set_title(f"Which rule number moves the {result['metric']['short']}? "
                 f"{result['title']}, {result['players']} players", fontsize=11, loc="left")
    _footnote(fig, f"Blue: the parameter at the low end of its range; orange: at the high end; "
                   f"purple: another option of a choice. At the right, each value tried and its "
                   f"effect ({unit}). Lines: "
                   f"paired bootstrap intervals over {result['options']['games']:,} games on "
                   f"common random numbers, at the level of the corrected verdicts. Pale bars and "
                   f"(n.s.): no effect detected after the Benjamini-Hochberg correction.")
    return fig
