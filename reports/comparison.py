"""The comparison report of an experiment (or of runs given by hand): what each tweak moved.

    from reports.comparison import build_comparison
    build_comparison([("baseline", path_a), ("cheaper inns", path_b)], out)

Writes ``comparison.html`` (self-contained), ``comparison.md``, ``charts/*.png`` and
``comparison.json`` into ``out`` via a temporary folder renamed when complete.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from reports import charts  # noqa: E402
from reports.build import Bullets, Heading, Image, Para, Table, _html, _md  # noqa: E402
from reports.metrics import ENGINE  # noqa: E402
from reports.compare import (TRUNCATION_WARNING, Change, balance_index, compare_runs,  # noqa: E402
                             came_up_notes, changed_games, same_games, tweaked, win_rates)
from reports.stats import check_confidence  # noqa: E402
from reports.verdicts import (LOWERED, RAISED, PlayerSet, _flag_text, compare_effects,  # noqa: E402
                              compare_verdicts, effect_chart, effect_text)
from simulator.core.dataset import load, require_verified  # noqa: E402
from simulator.core.errors import UsageError  # noqa: E402


@dataclass
class Entry:
    """One configuration in the comparison."""

    label: str
    path: Path
    swept: dict = field(default_factory=dict)
    group: str = ""
    description: str = ""
    players: int = 0
    player_set: str = ""  # the experiment's [players.NAME] ("" without player sets)


def _fmt(change: Change) -> str:
    """baseline → variant, with as many decimals as it takes to show them apart (up to 4)."""
    percent = change.metric == "win_rate"
    scale, unit, digits = (100.0, "%", 1) if percent else (1.0, "", 2)
    a, b = scale * change.baseline, scale * change.variant
    while digits < 4 and a != b and f"{a:.{digits}f}" == f"{b:.{digits}f}":
        digits += 1
    return f"{a:.{digits}f}{unit} → {b:.{digits}f}{unit}"


def _delta_chart(path: Path, label: str, who: str, changes: list[Change], palettes) -> bool:
    rows = [c for c in changes if c.metric == "win_rate" and math.isfinite(c.low)]
    if not rows:
        return False
    rows.sort(key=lambda c: (c.group, c.delta))
    fig = charts.new_figure(10, max(3.0, 1.4 + 0.34 * len(rows)))
    ax = fig.subplots()
    y = np.arange(len(rows))
    colours = [palettes.get(c.group, {}).get(c.label, charts.MUTED) if c.group != "seat" else "#777777"
               for c in rows]
    ax.barh(y, [100 * c.delta for c in rows], color=colours, alpha=0.85)
    ax.errorbar([100 * c.delta for c in rows], y,
                xerr=[[100 * (c.delta - c.low) for c in rows], [100 * (c.high - c.delta) for c in rows]],
                fmt="none", ecolor="black", capsize=3, lw=1)
    ax.axvline(0, color=charts.FAIR_COLOUR, lw=1)
    ax.set_yticks(y, [f"{c.group}: {charts.pretty(c.label)}" for c in rows])
    ax.set_xlabel("Change in win rate against the baseline (percentage points), with its Holm-corrected "
                  "interval")
    ax.set_title(f"What did '{label}' change? Win rate against the baseline{who}")
    charts.save(fig, path)
    return True


def _balance_chart(path: Path, entries: list[Entry], indices: list[dict]) -> None:
    fig = charts.new_figure(10, max(3.0, 1.4 + 0.34 * len(entries)))
    ax = fig.subplots()
    y = np.arange(len(entries))
    main = [100 * (i["role_spread"] if i["role_spread"] is not None else (i["strategy_spread"] or 0))
            for i in indices]
    seat = [100 * abs(i["first_seat_advantage"] or 0) for i in indices]
    ax.barh(y, main, color="#4e79a7", label="spread, strongest to weakest role (or strategy)")
    ax.barh(y, seat, left=main, color="#f28e2b", label="first seat's distance from a fair share")
    index = np.array([100 * i["index"] for i in indices])
    ax.errorbar(index, y, xerr=[np.maximum(0, index - [100 * i["low"] for i in indices]),
                                np.maximum(0, [100 * i["high"] for i in indices] - index)],
                fmt="none", ecolor="black", capsize=3, lw=1)
    ax.set_yticks(y, [_entry_name(e, entries) for e in entries])
    ax.invert_yaxis()
    ax.set_xlabel("Balance index (percentage points; lower is more balanced), with its bootstrap "
                  "interval")
    ax.set_title("Which configuration is most balanced?")
    ax.legend(loc="lower right", fontsize=8)
    charts.save(fig, path)


def _entry_name(e: Entry, entries: list[Entry]) -> str:
    """A configuration's label, with its player count and player set where those vary."""
    parts = [e.label]
    if len({x.players for x in entries}) > 1:
        parts.append(f"{e.players}p")
    if e.player_set:
        parts.append(e.player_set)
    return parts[0] + (f" ({', '.join(parts[1:])})" if len(parts) > 1 else "")


def _sweep_charts(folder: Path, name: str, entries: list[Entry], confidence: float, palettes,
                  who: str = "") -> list[str]:
    """Win rate of each role (or strategy) and game length against the swept value; ``who``
    names the set of players in every title (", played by NAME"), or is empty."""
    keys = list(entries[0].swept)
    if len(keys) != 1:
        return []
    key = keys[0]
    values = [e.swept[key] for e in entries]
    numeric = all(isinstance(v, (int, float)) for v in values)
    x = np.array(values, dtype=float) if numeric else np.arange(len(values))
    files = []
    rates = [win_rates(e.path, confidence) for e in entries]
    group = "role" if any((r["group"] == "role").any() for r in rates) and key != "role" else "strategy"
    if key == "role":  # a role study: the fixed seat's own win rate for each role
        fig = charts.new_figure(10, 4.5)
        ax = fig.subplots()
        rows = [r.filter((r["group"] == "role") & (r["label"] == v)) for r, v in zip(rates, values)]
        rate = np.array([100 * row["rate"][0] if row.height else np.nan for row in rows])
        low = np.array([100 * row["low"][0] if row.height else np.nan for row in rows])
        high = np.array([100 * row["high"][0] if row.height else np.nan for row in rows])
        order = np.argsort(-rate)
        ax.bar(np.arange(len(values)), rate[order],
               color=[palettes.get("role", {}).get(values[i], charts.MUTED) for i in order])
        ax.errorbar(np.arange(len(values)), rate[order], yerr=[rate[order] - low[order],
                    high[order] - rate[order]], fmt="none", ecolor="black", capsize=3)
        n = load(entries[0].path).manifest["n_players"]
        ax.axhline(100 / n, color=charts.FAIR_COLOUR, ls="--", lw=1, label=f"fair share {100 / n:.0f}%")
        ax.set_xticks(np.arange(len(values)), [charts.pretty(values[i]) for i in order], rotation=30,
                      ha="right")
        ax.set_ylabel("Win rate of the role (%), with interval")
        ax.set_title(f"Which role is strongest? Each role in turn, all else equal ({name}){who}")
        ax.legend(fontsize=8)
        file = f"sweep-{name}-roles.png"
        charts.save(fig, folder / file)
        return [file]
    labels = sorted({lab for r in rates for lab in r.filter(r["group"] == group)["label"].to_list()})
    fig = charts.new_figure(10, 5)
    ax = fig.subplots()
    for lab in labels:
        rows = [r.filter((r["group"] == group) & (r["label"] == lab)) for r in rates]
        rate = np.array([100 * row["rate"][0] if row.height else np.nan for row in rows])
        low = np.array([100 * row["low"][0] if row.height else np.nan for row in rows])
        high = np.array([100 * row["high"][0] if row.height else np.nan for row in rows])
        colour = palettes.get(group, {}).get(lab, charts.MUTED)
        ax.plot(x, rate, marker="o", color=colour, label=charts.pretty(lab))
        ax.fill_between(x, low, high, color=colour, alpha=0.15)
    n = load(entries[0].path).manifest["n_players"]
    ax.axhline(100 / n, color=charts.FAIR_COLOUR, ls="--", lw=1)
    _sweep_axis(ax, x, values, numeric)
    ax.set_xlabel(charts.pretty(key))
    ax.set_ylabel(f"Win rate per {group} (%), band = interval")
    ax.set_title(f"How does each {group}'s win rate move with {charts.pretty(key)}{who}?")
    ax.legend(fontsize=8, ncol=2, loc="center left", bbox_to_anchor=(1.0, 0.5))
    file = f"sweep-{name}-win-rates.png"
    charts.save(fig, folder / file)
    files.append(file)

    fig = charts.new_figure(10, 4)
    ax = fig.subplots()
    means, lows, highs = [], [], []
    for e in entries:
        turns = load(e.path, lazy=True).games.select("turns").collect(engine=ENGINE)["turns"].to_numpy().astype(float)
        m, sd = turns.mean(), turns.std(ddof=1)
        half = 1.96 * sd / math.sqrt(len(turns))
        means.append(m)
        lows.append(m - half)
        highs.append(m + half)
    ax.plot(x, means, marker="o", color="#4e79a7")
    ax.fill_between(x, lows, highs, color="#4e79a7", alpha=0.2)
    _sweep_axis(ax, x, values, numeric)
    ax.set_xlabel(charts.pretty(key))
    ax.set_ylabel("Mean game length (turns)")
    ax.set_title(f"How long are games as {charts.pretty(key)} changes{who}?")
    file = f"sweep-{name}-length.png"
    charts.save(fig, folder / file)
    files.append(file)
    return files


def _sweep_axis(ax, x, values, numeric: bool) -> None:
    if not numeric:
        ax.set_xticks(x, [str(v) for v in values])
    elif all(float(v).is_integer() for v in values):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def build_comparison(entries: list[Entry], out: Path, confidence: float = 0.95,
                     title: str = "Comparison", description: str = "",
                     min_effect: float | None = None, confirm_with: str = "") -> Path:
    """Compare every entry with the first (the baseline) of the same player count.

    ``min_effect`` (points) is the smallest change that matters: a change shown to be smaller
    is reported as such (``compare_runs``). ``confirm_with``: the player set whose effects must
    confirm the first set's (an experiment's ``confirm_with``)."""
    confidence = check_confidence(confidence)
    check_min_effect(min_effect)
    if len(entries) < 2:
        raise UsageError("compare: give at least two runs (the first is the baseline)")
    for e in entries:
        require_verified(e.path)
    manifests = [load(e.path).manifest for e in entries]
    for e, m in zip(entries, manifests):
        e.players = m["n_players"]
    games = {m["game"] for m in manifests}
    if len(games) > 1:
        raise UsageError(f"compare: the runs are of different games ({', '.join(sorted(games))})")
    out = Path(out)
    tmp = Path(tempfile.mkdtemp(prefix=".comparison-", dir=out.parent if out.parent.exists() else None))
    try:
        (tmp / "charts").mkdir()
        images: dict[str, bytes] = {}
        role_names = sorted({r for e in entries for r in _labels(e.path, "role")})
        strategy_names = sorted({s for e in entries for s in _labels(e.path, "strategy")})
        palettes = {"role": charts.Palette(role_names).as_dict(),
                    "strategy": charts.Palette(strategy_names, charts.STRATEGY_COLOURS).as_dict()}
        summary = {"title": title, "description": description, "confidence": confidence,
                   "multiple_comparisons": "holm, over the rows of each comparison",
                   "min_effect_points": min_effect, "configurations": [], "comparisons": []}
        indices = [balance_index(e.path, confidence) for e in entries]
        blocks, headlines, pairs = [], [], []
        compared = {}  # (players, player set, label) -> (baseline, variant, changes)
        for e, m, idx in zip(entries, manifests, indices):
            summary["configurations"].append({
                "label": e.label, "path": str(e.path), "players": e.players, "games": m["n_games"],
                "swept": e.swept, "group": e.group, "description": e.description,
                "player_set": e.player_set,
                "overrides": {p["name"]: p["value"] for p in m["parameters"] if p["overridden"]},
                "strategies": m["strategies"], "roles": m["roles"], "balance": idx})
        for e in entries:
            base = next(b for b in entries if b.players == e.players and b.player_set == e.player_set)
            if e is base:
                continue
            changes = compare_runs(base.path, e.path, confidence, min_effect)
            compared[e.players, e.player_set, e.label] = (base, e, changes)
            paired = same_games(load(base.path).manifest, load(e.path).manifest)
            pairs.append((base, e, paired))
            summary["comparisons"].append({"baseline": base.label, "variant": e.label,
                                           "players": e.players, "same_games": paired,
                                           "changes": [c.as_dict() for c in changes]})
            changed = changed_games(base.path, e.path) if paired else None
            identical = changed == 0
            mb, mv = load(base.path).manifest, load(e.path).manifest
            notes = came_up_notes(mb, mv)
            summary["comparisons"][-1]["identical_games"] = identical
            summary["comparisons"][-1]["games_changed"] = changed
            summary["comparisons"][-1]["rules_came_up"] = {
                name: [m.get("rules_came_up", {}).get(name) for m in (mb, mv)]
                for name in tweaked(mb, mv)}
            n_games = mv["n_games"]
            headlines.append(_headline_line(e, changes, min_effect) + (
                "" if changed is None else f" The tweak changed {changed:,} of the {n_games:,} "
                f"games ({changed / n_games:.1%}); the others played exactly as in {base.label}.")
                + "".join(f" {n[0].upper()}{n[1:]}, yet games changed: the players' judgement "
                          "reads it." for n in notes if " never came up" in n and changed)
                if not identical else
                             f"{e.label} ({e.players} players): not one game changed: every seat's "
                             "score and result and every game's length are those of "
                             f"{base.label}. " + _why_nothing_changed(notes))
            blocks += _variant_blocks(e, base, changes, tmp, images, palettes)
        one_strategy = {e.path: len(set(m["strategies"])) == 1 for e, m in zip(entries, manifests)}
        effect_blocks = _effect_blocks(entries, compared, one_strategy, confidence, tmp, images,
                                       summary, headlines, confirm_with)
        for e, configuration in zip(entries, summary["configurations"]):
            share = float(load(e.path, lazy=True).games.select(pl.col("truncated").mean())
                          .collect(engine=ENGINE).item() or 0.0)
            configuration["truncated_share"] = share
            if share > TRUNCATION_WARNING:
                headlines.append(f"Warning: {share:.1%} of the games of {_entry_name(e, entries)} hit "
                                 "the turn limit and were cut off: its changes are the limit's as "
                                 "much as the rules'.")
        _balance_chart(tmp / "charts" / "balance.png", entries, indices)
        images["balance"] = (tmp / "charts" / "balance.png").read_bytes()
        ranking = sorted(zip(entries, indices), key=lambda p: p[1]["index"])
        balance_blocks = [
            Heading(2, "Balance index", "balance"),
            Para(indices[0]["index_definition"].capitalize() + ".", note=True),
            Table(["configuration", "players", "games", "index", "interval", "role spread",
                   "strategy spread", "first seat vs fair"],
                  [[e.label + (f" ({e.player_set})" if e.player_set else ""), str(e.players),
                    f"{load(e.path).manifest['n_games']:,}",
                    f"{100 * i['index']:.1f} pts",
                    f"{100 * i['low']:.1f} to {100 * i['high']:.1f}",
                    "-" if i["role_spread"] is None else f"{100 * i['role_spread']:.1f} pts",
                    "-" if i["strategy_spread"] is None else f"{100 * i['strategy_spread']:.1f} pts",
                    "-" if i["first_seat_advantage"] is None else f"{100 * i['first_seat_advantage']:+.1f} pts"]
                   for e, i in ranking], [False, True, True, True, True, True, True, True]),
            Image("balance", "charts/balance.png", "Balance index per configuration")]
        sweep_blocks = []
        for name in dict.fromkeys(e.group for e in entries if e.swept):
            for players, player_set in dict.fromkeys((e.players, e.player_set) for e in entries):
                points = [e for e in entries if e.group == name and e.players == players
                          and e.player_set == player_set]
                if not points:
                    continue
                tag = f"{name}-{players}p" + (f"-{player_set}" if player_set else "")
                who = f", played by {player_set}" if player_set else ""
                files = _sweep_charts(tmp / "charts", tag, points, confidence, palettes, who)
                sweep_blocks.append(Heading(2, f"Sweep: {name}, {players} players{who}", f"sweep-{tag}"))
                for file in files:
                    images[file] = (tmp / "charts" / file).read_bytes()
                    sweep_blocks.append(Image(file, f"charts/{file}", f"{name}: {file}"))
        intro = [Heading(2, "What moved", "findings"),
                 *([Para(description)] if description else []),
                 Bullets(headlines or ["Only a baseline: nothing to compare."]),
                 Para(_method_note(pairs, confidence, min_effect), note=True)]
        verdict_blocks = _verdict_blocks(entries, confidence, summary)
        all_blocks = balance_blocks + effect_blocks + verdict_blocks + sweep_blocks + blocks
        (tmp / "comparison.md").write_text(f"# {title}\n\n" + _md(intro + all_blocks))
        nav = [("findings", "What moved"), ("balance", "Balance")] + \
            ([("effects", "Under each set of players")] if effect_blocks else [])
        (tmp / "comparison.html").write_text(_html(title, all_blocks, images, intro, nav))
        (tmp / "comparison.json").write_text(
            json.dumps(_strict(summary), indent=2, allow_nan=False, default=str) + "\n")
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _effect_blocks(entries: list[Entry], compared: dict, one_strategy: dict,
                   confidence: float, tmp: Path, images: dict, summary: dict,
                   headlines: list, confirm_with: str = "") -> list:
    """With player sets: each variant's effect under every set (its run against the baseline
    played by the same set, ``compared``), flagged where it does not hold as under the first
    set; adds a headline per variant and ``effects_under_player_sets`` to the summary.
    ``one_strategy``: whether a run seats a single strategy (its strategy rows say nothing)."""
    sets = list(dict.fromkeys(e.player_set for e in entries))
    if len(sets) < 2:
        return []
    blocks = [Heading(2, "The tweak under each set of players", "effects"),
              Para(f"Each variant's effect under each set of players ({', '.join(sets)}): its "
                   "run against the baseline played by the same set, on the same games (common "
                   "random numbers; each row names its method in the sections below). Intervals "
                   f"and verdicts are Holm-corrected over the rows of each set's comparison at "
                   f"{100 * confidence:.0f}% confidence, each interval at its row's Holm step. The "
                   f"first set ({sets[0]}) is the reference: an effect that changes sign, loses "
                   "significance (the effect shrank: the later interval excludes the first "
                   "estimate; or too few games to confirm it) or appears only under a later set "
                   "is flagged.", note=True)]
    summary["effects_under_player_sets"] = []
    for players in sorted({e.players for e in entries}):
        for label in dict.fromkeys(lab for n, _, lab in compared if n == players):
            here = [s for s in sets if (players, s, label) in compared]
            if len(here) < 2:
                continue
            runs = [compared[players, s, label] for s in here]
            result = compare_effects(here, [changes for _, _, changes in runs],
                                     [one_strategy[b.path] or one_strategy[v.path]
                                      for b, v, _ in runs])
            result.update(label=label, players=players,
                          multiple_comparisons="holm, over the rows of each set's comparison")
            headline = _effect_headline(label, players, result)
            if confirm_with in here:
                result["confirmation"] = confirmation(result, confirm_with)
                headline += " " + result["confirmation"]["text"]
            summary["effects_under_player_sets"].append(result)
            headlines.append(headline)
            key = "effect-" + "".join(ch if ch.isalnum() or ch in "-_=" else "_"
                                      for ch in f"{players}p-{label}")
            blocks += [Heading(3, f"{label} ({players} players)", key),
                       Bullets([f["text"] for f in result["flags"]] or [headlines[-1]])]
            if effect_chart(tmp / "charts" / f"{key}.png", label, players, result, confidence):
                images[key] = (tmp / "charts" / f"{key}.png").read_bytes()
                blocks.append(Image(key, f"charts/{key}.png",
                                    f"Effect of {label} under each set of players"))
            blocks.append(Table(
                ["quantity"] + [f"under {s}" for s in here] + ["flag"],
                [[r["name"]] + [effect_text(c, r["metric"]) if c else "–" for c in r["cells"]]
                 + ["; ".join(f"{f['kind']} under {f['under']}" for f in r["flags"])]
                 for r in result["rows"]], [False] + [True] * len(here) + [False]))
    return blocks


def confirmation(result: dict, by: str) -> dict:
    """Whether the player set ``by`` confirms a tweak's effects under the first set: every row
    the first set finds raised or lowered is found so, the same way, under ``by``."""
    i = result["player_sets"].index(by)
    shown, confirmed = [], []
    for row in result["rows"]:
        first, then = row["cells"][0], row["cells"][i]
        if first is None or first["verdict"] not in (RAISED, LOWERED):
            continue
        shown.append(row["name"])
        if then is not None and then["verdict"] == first["verdict"]:
            confirmed.append(row["name"])
    missing = [name for name in shown if name not in confirmed]
    first = result["player_sets"][0]
    if not shown:
        text = f"Nothing for {by} to confirm: no effect under {first}."
    elif not missing:
        text = f"Confirmed by {by}: all {len(shown)} effects under {first}."
    else:
        text = (f"NOT confirmed by {by}: {', '.join(missing)} ({len(missing)} of {len(shown)} "
                f"effects under {first}).")
    return {"by": by, "effects": shown, "confirmed": confirmed, "not_confirmed": missing,
            "holds": not missing, "text": text}


def _effect_headline(label: str, players: int, result: dict) -> str:
    sets = ", ".join(result["player_sets"])
    flags = result["flags"]
    if not flags:
        moved = any(c is not None and c["detected"] for r in result["rows"] for c in r["cells"])
        what = "holds under every set of players" if moved else \
            "no detectable effect under any set of players"
        return f"{label} ({players} players): {what} ({sets}; Holm-corrected per set)."
    more = f"; and {len(flags) - 3} more" if len(flags) > 3 else ""
    return (f"{label} ({players} players) does not do the same under every set of players "
            f"({sets}; Holm-corrected per set): " + "; ".join(f["text"].rstrip(".") for f in flags[:3])
            + more + ".")


def _verdict_blocks(entries: list[Entry], confidence: float, summary: dict) -> list:
    """With player sets: for every configuration, the verdicts that do not hold under every set
    of players (each set against the first)."""
    sets = list(dict.fromkeys(e.player_set for e in entries))
    if len(sets) < 2:
        return []
    blocks = [Heading(2, "Verdicts under each set of players", "verdicts"),
              Para(f"Each configuration was played by every set of players ({', '.join(sets)}). "
                   f"Below, every seat, role or strategy verdict of the first set ({sets[0]}) that "
                   "changes sign, loses significance or appears under another set; see "
                   "playtest report RUN_A RUN_B ... for the side-by-side tables.", note=True)]
    summary["verdicts"] = []
    for players in sorted({e.players for e in entries}):
        for label in dict.fromkeys(e.label for e in entries if e.players == players):
            same = {e.player_set: e for e in entries if e.players == players and e.label == label}
            if len(same) < 2:
                continue
            result = compare_verdicts([PlayerSet(name, same[name].path) for name in sets
                                       if name in same], confidence)
            summary["verdicts"].append({"label": label, "players": players,
                                        "flags": result["flags"]})
            blocks.append(Heading(3, f"{label} ({players} players)"))
            blocks.append(Bullets([_flag_text(f) for f in result["flags"]] or
                                  ["Every verdict holds under every set of players."]))
    return blocks


def _strict(x):
    """``x`` for strict JSON: a missing number (NaN, e.g. a row with too few games, or an
    infinite one) becomes null and numpy scalars plain numbers; json writes NaN otherwise."""
    if isinstance(x, dict):
        return {k: _strict(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_strict(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def _labels(path: Path, column: str) -> list[str]:
    seats = load(path, lazy=True).seats
    return [v for v in seats.select(column).unique().collect(engine=ENGINE)[column].to_list() if v is not None]


def check_min_effect(min_effect: float | None) -> None:
    if min_effect is not None and not (math.isfinite(min_effect) and min_effect > 0):
        raise UsageError(f"--min-effect {min_effect}: must be a positive number of points "
                         "(e.g. 1 for one percentage point of a win rate)")


def _method_note(pairs: list, confidence: float, min_effect: float | None) -> str:
    """How the changes were tested: the seeds, the pairing, the correction, the margin."""
    paired = [f"{e.label} against {b.label}" for b, e, same in pairs if same]
    unpaired = [f"{e.label} against {b.label}" for b, e, same in pairs if not same]
    if not unpaired:
        seeds = ("Every configuration used the same seed, so game i started from the same deal "
                 "and dice in each (common random numbers); changes use paired differences of "
                 "the same seats in the same games wherever that gives the tighter interval.")
    elif not paired:
        seeds = ("The runs did not play the same games (different seeds or player "
                 "counts), so every change is an unpaired difference of independent samples.")
    else:
        seeds = (f"{'; '.join(paired)}: the same games (common random numbers), paired where "
                 f"tighter. {'; '.join(unpaired)}: different games, unpaired.")
    text = (f"{seeds} Each row names its method. Verdicts are Holm-corrected over all the rows "
            f"of each comparison at {100 * confidence:.0f}% confidence; each interval is at its "
            "row's Holm step, so it excludes zero exactly when the row is called a change.")
    if min_effect is not None:
        text += (f" Smallest change that matters: {min_effect:g} point"
                 f"{'' if min_effect == 1 else 's'} (of a win rate, or of a score); a row shown within it by two one-sided tests (Holm-corrected) reads "
                 f"\"no change larger than {min_effect:g} pts\".")
    return text


def _why_nothing_changed(notes: list[str]) -> str:
    """A null that says nothing about the tweak's effect, and why, from the rules' counts."""
    never = [n for n in notes if " never came up" in n]
    if notes and len(never) == len(notes):
        return ("; ".join(notes) + ". These games say nothing of the tweak's effect: play it "
                "where the rule comes up (another player count, mode or mix of players).")
    said = ("; ".join(notes) + ", yet ") if notes else ""
    return (said + "no game played differently: the players never used the difference, or it "
            "never mattered to a result (a null that says nothing about the tweak's effect).")


def _headline_line(e: Entry, changes: list[Change], min_effect: float | None = None) -> str:
    moved = sorted((c for c in changes if c.detected and c.metric == "win_rate"),
                   key=lambda c: -abs(c.delta))
    length = next(c for c in changes if c.metric == "turns")
    parts = [f"{c.group} {charts.pretty(c.label)} {_fmt(c)} ({c.verdict(True)}, {c.method})"
             for c in moved[:3]]
    rates = [c for c in changes if c.metric == "win_rate" and math.isfinite(c.low)]
    if parts:
        text = "; ".join(parts)
    elif min_effect is not None and rates and all(c.equivalent for c in rates):
        text = f"no win rate changed by more than {min_effect:g} pts"
    else:
        text = "no detectable change in any win rate"
    if parts and min_effect is not None:
        within = sum(c.equivalent for c in rates)
        text += f"; {within} of {len(rates)} win rates shown within ±{min_effect:g} pts"
    tested = sum(math.isfinite(c.p) for c in changes)
    text += f" (of {tested} rows, Holm-corrected)"
    if length.detected:
        text += f"; game length {length.baseline:.1f} → {length.variant:.1f} turns"
    return f"{e.label} ({e.players} players{', played by ' + e.player_set if e.player_set else ''}): {text}."


def _variant_blocks(e: Entry, base: Entry, changes, tmp: Path, images, palettes) -> list:
    key = "delta-" + "".join(ch if ch.isalnum() or ch in "-_=" else "_"
                             for ch in f"{e.players}p-{e.player_set}-{e.label}")
    file = f"charts/{key}.png"
    who = f", played by {e.player_set}" if e.player_set else ""
    blocks = [Heading(2, f"{e.label} against {base.label} ({e.players} players{who})", key)]
    if e.description:
        blocks.append(Para(e.description))
    if _delta_chart(tmp / file, e.label, who, changes, palettes):
        images[key] = (tmp / file).read_bytes()
        blocks.append(Image(key, file, f"Win-rate changes of {e.label}{who}"))
    rows = []
    for c in changes:
        percent = c.metric == "win_rate"
        rows.append([c.metric.replace("_", " "), c.group, charts.pretty(c.label), _fmt(c),
                     c.verdict(percent), c.method,
                     "-" if not math.isfinite(c.p_adjusted) else f"{c.p_adjusted:.3g}"])
    blocks.append(Table(["quantity", "by", "who", "baseline → variant", "verdict", "method", "Holm p"],
                        rows))
    return blocks
