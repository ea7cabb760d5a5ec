"""``playtest sensitivity``: which rule number moves the balance most.

One at a time, every selected parameter of the game's rule data is moved one and up to ``near``
steps either side of its printed value (the tweak a designer asks about), then to the ends of
its allowed range (and ``steps`` evenly spaced values between; a choice to each of its other
options), everything else as printed. Each configuration is an ordinary run dataset of the same
seed as the baseline, so game ``i`` starts from the same random stream in both (common random
numbers) and the effect on the metric is a paired difference: its interval is a percentile
bootstrap over games resampled jointly in both runs (``scan.paired_difference``). A parameter
whose change leaves every game identical (one the table never reads) has an effect of exactly 0.
With many parameters some intervals would miss 0 by chance, so an effect counts as detected only
where its Benjamini-Hochberg adjusted p-value (statsmodels) is below ``1 - confidence``.

``method="morris"`` adds a global screen (SALib's Morris method): trajectories through the joint
space of the selected parameters, each point played as a run, ranking parameters by the mean
absolute elementary effect (mu*) and flagging interactions or curvature by its spread (sigma).
"""

from __future__ import annotations

import datetime
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from reports import stats
from reports.compare import TRUNCATION_WARNING
from simulator import resumable, scan
from simulator.core.config import make_config
from simulator.core.dataset import atomic_write_bytes
from simulator.core.errors import UsageError
from simulator.core.game import get_game
from simulator.core.folders import SENSITIVITY_PLAN

METHODS = ("oat", "morris")
CHART_ROWS = 25


@dataclass
class SensitivityOptions:
    game: str
    players: int | None = None
    mode: str | None = None
    strategies: list[str] | None = None
    games: int = 2000
    metric: str = "balance"
    params: list[str] | None = None  # names or shell patterns; default: every parameter
    steps: int = 2                   # values between the ends of a number's range
    method: str = "oat"
    trajectories: int = 10           # Morris
    levels: int = 4                  # Morris
    settings: dict = field(default_factory=dict)
    seed: int = 0
    confidence: float = 0.95
    near: int = 2                    # first, 1 to ``near`` steps either side of the printed value


def check(o: SensitivityOptions):
    game = get_game(o.game)
    for name, value, low in (("--games", o.games, stats.MIN_SAMPLE), ("--steps", o.steps, 0),
                             ("--near", o.near, 0), ("--trajectories", o.trajectories, 2),
                             ("--levels", o.levels, 2)):
        if value < low:
            raise UsageError(f"{name} {value}: must be at least {low}")
    if o.method not in METHODS:
        raise UsageError(f"--method {o.method}: unknown; allowed: {', '.join(METHODS)}")
    stats.check_confidence(o.confidence)
    metric = scan.parse_metric(o.metric, game)
    base = make_config(o.game, o.players, o.mode, o.strategies, None, o.settings, o.seed)
    params = scan.select_params(game, o.params)
    return game, metric, base, params


def sensitivity(o: SensitivityOptions, out: str | Path, resume: bool = False,
                threads: int | None = None, backend: str = "local", scheduler: str | None = None,
                progress: bool | None = None) -> Path:
    """Run the scan into ``out`` (sensitivity.md/.html/.json, tornado.png, runs/); returns
    ``out``. With ``resume``, ``out`` holds a scan started with the same options: the
    configurations it finished are kept, an unfinished one is finished, the rest are played."""
    game, metric, base, params = check(o)
    out = Path(out)
    resumable.start(out, SENSITIVITY_PLAN, asdict(o), resume, "sensitivity scan")
    runs = out / "runs"
    points = [(p, v) for p in params for v in scan.scan_values(p, base.rules.value(p.name), o.steps, o.near)]
    show = progress if progress is not None else True
    bar = tqdm(total=1 + len(points), unit="run", desc=f"sensitivity {game.name}", disable=not show)

    def play(settings: dict, folder: str):
        """(config, loaded run) of the baseline with ``settings`` on top, or (message, None)."""
        try:
            config = make_config(o.game, o.players, o.mode, o.strategies, None,
                                 {**o.settings, **settings}, o.seed)
        except UsageError as e:
            return str(e), None
        path = scan.ensure_run(config, o.games, runs / folder, threads, backend, scheduler)
        return config, scan.load_run(path)

    with bar:
        _, base_run = play({}, "baseline")
        bar.update(1)
        groups = metric.groups(base_run["seats"])
        n_players = base.n_players
        base_value, base_sums = scan.measure(metric, base_run, groups, n_players)
        truncation = scan.parse_metric("truncation", game)
        base_truncated = scan.measure(truncation, base_run, [""], n_players)[0]
        rows = []
        for param, value in points:
            bar.set_postfix_str(f"{param.name}={value}")
            config, run = play({param.name: value}, scan.folder_name({param.name: value}))
            row = {"parameter": param.name, "printed": base.rules.value(param.name), "value": value,
                   "source": param.source, "assumption": param.is_assumption,
                   "came_up": base_run["manifest"].get("rules_came_up", {}).get(param.name)}
            if run is None:
                row.update(playable=False, note=config)
            else:
                variant_value, sums = scan.measure(metric, run, groups, n_players)
                diff = scan.paired_difference(metric, base_sums, sums, n_players, o.confidence,
                                              keep_resamples=True)
                row.update(playable=True, metric=variant_value,
                           truncated=scan.measure(truncation, run, [""], n_players)[0], **diff)
            rows.append(row)
            bar.update(1)
    _decide(rows, o.confidence)
    result = {
        "options": asdict(o), "game": game.name, "title": game.title, "players": n_players,
        "mode": base.mode, "strategies": list(base.strategies), "metric": asdict(metric),
        "baseline": base_value, "baseline_truncated": base_truncated, "groups": groups,
        "method": {"one_at_a_time": "each parameter alone at each value; paired percentile "
                   f"bootstrap over games ({scan.RESAMPLES} resamples, scipy); detected where the "
                   f"Benjamini-Hochberg adjusted p-value (statsmodels, over the points whose games "
                   f"differ from the baseline's) is below {1 - o.confidence:.2f}"},
        "points": rows, "ranking": _rank(rows),
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    if o.method == "morris":
        result["morris"] = _morris(o, game, metric, base, params, groups, runs, threads, backend,
                                   scheduler, show)
    atomic_write_bytes(out / "sensitivity.json", (json.dumps(result, indent=2, default=float) + "\n").encode())
    from reports.build import write_pages
    from reports.charts import tornado_chart
    tornado_chart(out / "tornado.png", result, CHART_ROWS)
    write_pages(out, "sensitivity", *page(result), {"tornado": (out / "tornado.png").read_bytes()})
    return out


def _decide(rows: list[dict], confidence: float) -> None:
    """Mark each playable point detected or not: Benjamini-Hochberg over the points whose games
    differ from the baseline's. A point whose games are all identical (a number the scanned
    table never reads, such as another mode's) is no test at all; counting it would only make
    the others harder to detect. Every tested point's interval is then drawn again at the level
    that matches the decisions (Benjamini and Yekutieli's false-coverage-rate adjustment: 1 - R
    alpha / m for R of m points detected, 1 - alpha / m when none is), so an interval excludes
    zero exactly when its point is detected."""
    alpha = 1 - confidence
    tested = [r for r in rows if r["playable"] and not r["identical"]]
    adjusted = stats.benjamini_hochberg([r["p"] for r in tested]) if tested else []
    for r, p in zip(tested, adjusted):
        r["p_adjusted"] = float(p)
        r["detected"] = bool(p < alpha)
    detected = sum(r["detected"] for r in tested)
    level = 1 - max(detected, 1) * alpha / max(len(tested), 1)
    for r in tested:
        r["level"] = level
        if "resamples" in r:
            r["low"], r["high"] = (float(q) for q in np.quantile(
                r.pop("resamples"), [(1 - level) / 2, (1 + level) / 2]))
    for r in rows:
        if r["playable"] and r["identical"]:
            r["p_adjusted"], r["detected"] = 1.0, False


def _rank(rows: list[dict]) -> list[dict]:
    """One line a parameter, largest detected effect first; then those with none detected."""
    by_param: dict[str, list[dict]] = {}
    for r in rows:
        by_param.setdefault(r["parameter"], []).append(r)
    ranking = []
    for name, points in by_param.items():
        played = [r for r in points if r["playable"]]
        detected = [r for r in played if r["detected"]]
        largest = max(played, key=lambda r: abs(r["delta"]), default=None)
        ranking.append({
            "parameter": name, "printed": points[0]["printed"], "source": points[0]["source"],
            "assumption": points[0]["assumption"], "detected": bool(detected),
            "came_up": points[0]["came_up"],
            "identical": bool(played) and all(r["identical"] for r in played),
            "largest": None if largest is None else {k: largest[k] for k in ("value", "delta", "low", "high")},
            "not_playable": [r["value"] for r in points if not r["playable"]],
        })
    ranking.sort(key=lambda e: (not e["detected"], -abs(e["largest"]["delta"]) if e["largest"] else 0.0))
    return ranking


def _morris(o, game, metric, base, params, groups, runs, threads, backend, scheduler, show) -> dict:
    """SALib's Morris screen over the selected parameters (numbers rounded to their integers,
    a choice's options as the integers 0..k-1)."""
    from SALib.analyze import morris as analyze
    from SALib.sample import morris as sample
    if len(params) < 2:
        raise UsageError("--method morris: needs at least two parameters (see --params)")
    bounds = [[0, len(p.choices) - 1] if p.choices else [p.low, p.high] for p in params]
    problem = {"num_vars": len(params), "names": [p.name for p in params], "bounds": bounds}
    x = sample.sample(problem, N=o.trajectories, num_levels=o.levels, seed=o.seed)
    x = np.rint(x)
    y = np.empty(len(x))
    for i, row in enumerate(tqdm(x, unit="run", desc="morris", disable=not show)):
        settings = {p.name: (p.choices[int(v)] if p.choices else int(v)) for p, v in zip(params, row)}
        config = make_config(o.game, o.players, o.mode, o.strategies, None,
                             {**o.settings, **settings}, o.seed)
        path = scan.ensure_run(config, o.games, runs / f"morris-{i:05d}", threads, backend, scheduler)
        y[i] = scan.measure(metric, scan.load_run(path), groups, base.n_players)[0]
    si = analyze.analyze(problem, x, y, num_levels=o.levels, conf_level=o.confidence, seed=o.seed,
                         print_to_console=False)
    table = [{"parameter": n, "mu_star": float(m), "mu_star_conf": float(c), "sigma": float(s)}
             for n, m, c, s in zip(si["names"], si["mu_star"], si["mu_star_conf"], si["sigma"])]
    table.sort(key=lambda r: -r["mu_star"] if math.isfinite(r["mu_star"]) else 0.0)
    return {"trajectories": o.trajectories, "levels": o.levels, "runs": len(x), "table": table,
            "method": "SALib Morris elementary effects (mu* = mean absolute effect of a move over "
                      "the whole range's level step, sigma = their spread: large sigma means "
                      "interactions or curvature)"}


def _came_up_text(count: int | None) -> str:
    """How often the baseline's games met the rule where its value could make a difference."""
    if count is None:
        return "the game does not count this rule"
    if count == 0:
        return "the rule never came up"
    return f"the rule came up {count:,} times, the players never used the difference"


def _levels(points: list[dict]) -> str:
    levels = sorted({r["level"] for r in points if "level" in r})
    return ", ".join(f"{100 * x:.2f}%" for x in levels) if levels else "no point tested"


def page(result: dict) -> tuple[str, list, list]:
    """(title, intro, blocks): what sensitivity.md and sensitivity.html say, described once."""
    from reports.build import Bullets, Heading, Image, Para, Table
    metric = scan.Metric(**result["metric"])
    o = result["options"]
    show = lambda v: scan.fmt(v, metric)  # noqa: E731
    settings = ", ".join(f"{k}={v}" for k, v in o["settings"].items())
    intro = [
        Para(f"{result['players']} players, mode {result['mode']}, strategies "
             f"{', '.join(result['strategies'])}; {o['games']:,} games per configuration, seed "
             f"{o['seed']}. Baseline (the rules as printed{' with ' + settings if settings else ''}): "
             f"{scan.fmt(result['baseline'], metric, signed=False)}."),
        Para(f"Method: {result['method']['one_at_a_time']}. Effects are the variant minus the "
             "baseline; each interval is at the level that matches the corrected verdicts "
             f"(Benjamini-Yekutieli: {_levels(result['points'])}), so it excludes zero exactly "
             "where the effect is detected.", note=True),
    ]
    ranked = []
    for i, e in enumerate(result["ranking"], 1):
        if e["largest"] is None:
            continue
        big = e["largest"]
        verdict = ("detected" if e["detected"] else
                   f"no effect (identical games; {_came_up_text(e['came_up'])})" if e["identical"]
                   else "no detectable effect")
        ranked.append([i, e["parameter"], e["printed"], big["value"], show(big["delta"]),
                       f"{show(big['low'])} to {show(big['high'])}", verdict,
                       "assumption" if e["assumption"] else "rulebook"])
    blocks = [Heading(2, "Parameters ranked by their largest effect", "ranking"),
              Table(["rank", "parameter", "printed", "value", "effect", "interval", "verdict", "source"],
                    ranked, [True, False, False, False, True, True, False, False]),
              Image("tornado", "tornado.png", f"Which rule number moves the {metric.short}: "
                    "each parameter's effect at the ends of its range, largest on top")]
    truncated = [r for r in result["points"] if r["playable"] and r["truncated"] > TRUNCATION_WARNING]
    if truncated or result["baseline_truncated"] > TRUNCATION_WARNING:
        cut_off = ([f"the baseline: {result['baseline_truncated']:.1%} of games truncated"]
                    if result["baseline_truncated"] > TRUNCATION_WARNING else [])
        cut_off += [f"{r['parameter']} = {r['value']}: {r['truncated']:.1%} of games truncated"
                     for r in truncated]
        blocks += [Heading(2, "Warning: games cut off at the turn limit", "truncation"),
                   Para(f"Above {TRUNCATION_WARNING:.0%} of games truncated, an effect (or its "
                        "absence) is the turn limit's as much as the rule's:"),
                   Bullets(cut_off)]
    quiet = [e["parameter"] + (f" (identical games: {_came_up_text(e['came_up'])})" if e["identical"] else "")
             for e in result["ranking"] if not e["detected"] and e["largest"]]
    blocks += [Heading(2, "No detectable effect", "quiet"),
               Para(", ".join(quiet) if quiet else "Every parameter scanned had a detectable effect.")]
    unplayable = [f"{e['parameter']} ({', '.join(map(str, e['not_playable']))})"
                  for e in result["ranking"] if e["not_playable"]]
    if unplayable:
        blocks += [Heading(2, "Values that cannot be played at this table", "unplayable"),
                   Para(", ".join(unplayable))]
    tried = []
    for r in result["points"]:
        if r["playable"]:
            tried.append([r["parameter"], r["value"], scan.fmt(r["metric"], metric, False),
                          show(r["delta"]), f"{show(r['low'])} to {show(r['high'])}",
                          f"{r['p_adjusted']:.3g}"])
        else:
            tried.append([r["parameter"], r["value"], f"not playable: {r['note']}", "", "", ""])
    blocks += [Heading(2, "Every value tried", "every-value"),
               Table(["parameter", "value", "metric", "effect", "interval", "adjusted p"], tried,
                     [False, False, True, True, True, True])]
    if "morris" in result:
        m = result["morris"]
        blocks += [Heading(2, "Global screen (Morris)", "morris"),
                   Para(f"{m['method']}; {m['trajectories']} trajectories, {m['levels']} levels, "
                        f"{m['runs']} runs."),
                   Table(["parameter", "mu*", "interval of mu*", "sigma"],
                         [[r["parameter"], scan.fmt(r["mu_star"], metric, False),
                           f"± {scan.fmt(r['mu_star_conf'], metric, False)}",
                           scan.fmt(r["sigma"], metric, False)] for r in m["table"]],
                         [False, True, True, True])]
    blocks.append(Para("Every configuration is a run dataset under runs/.", note=True))
    return f"Sensitivity of {result['title']}: {metric.title}", intro, blocks
