"""``playtest balance``: which few rule numbers to change to make the roles (seats, strategies) fair.

1. **Baseline**: the printed rules (with the designer's ``--set``) on ``games`` games.
2. **Screen**: every free parameter alone at each end of its range (a choice at each other
   option), on the first half of the same games (common random numbers): the parameters whose change narrows the
   spread between the strongest and weakest role go on; the rest are reported as not moving it.
3. **Search**: optuna's TPE sampler over at most ``max_changes`` of the screened parameters and
   their values. A candidate plays a quarter of the games, then half, then all of them, and
   optuna's successive-halving pruner stops the poor ones early: few games on poor candidates,
   many on promising ones. Its score is the balance index plus a small price per changed number
   and per share of its range moved (``PRICE_PER_CHANGE``, ``PRICE_PER_RANGE``), so of two equally
   fair settings the one nearer the printed rules wins; a candidate that moves the mean game
   length by more than ``length_tolerance`` or truncates more games than allowed is out of bounds.
4. **Verification**: the best distinct candidates are played afresh, against the baseline, on a
   seed the search never saw, as ordinary datasets; the change of the balance index gets a paired
   bootstrap interval. A proposal is confirmed only when that interval lies below zero. Each is
   written as an experiment file that reruns it.

The study is kept in an optuna journal file beside the results, so an interrupted search goes
on where it stopped (``resume``).
"""

from __future__ import annotations

import datetime
import json
import math
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from reports import stats
from reports.compare import TRUNCATION_WARNING
from simulator import resumable, scan
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.backends import make_backend
from simulator.core.dataset import atomic_write_bytes
from simulator.core.errors import UsageError
from simulator.core.game import get_game
from simulator.core.folders import BALANCE_STATE

PRICE_PER_CHANGE = 0.005  # 0.5 points of balance index for each number changed
PRICE_PER_RANGE = 0.02    # 2 points for moving a number across its whole range
OUT_OF_BOUNDS = 1.0       # added to the score of a candidate outside the length/truncation bounds
VERIFY_SEED_OFFSET = 7_000_003
NO_CHANGE = "-"
STUDY = "study.journal"


@dataclass
class BalanceOptions:
    game: str
    goal: str = "roles"
    players: int | None = None
    mode: str | None = None
    strategies: list[str] | None = None
    keep: list[str] = field(default_factory=list)
    params: list[str] | None = None   # names or patterns the search may touch (default: all)
    max_changes: int = 2
    budget: int = 60                  # optuna trials
    games: int = 2000                 # games a candidate plays when it is not pruned
    candidates: int = 8               # screened parameters the search works on
    proposals: int = 3
    verify_games: int = 10_000
    expert_games: int = 10_000        # fresh games under the learnt expert (0: not played)
    search_games: int = 100           # fresh games under the search player (0: not played)
    length_tolerance: float = 0.25    # relative change of the mean game length allowed
    max_truncation: float = 0.01      # share of truncated games allowed (or the baseline's)
    settings: dict = field(default_factory=dict)
    seed: int = 0
    confidence: float = 0.95


def check(o: BalanceOptions):
    game = get_game(o.game)
    if o.goal not in scan.GOALS:
        raise UsageError(f"--goal {o.goal}: unknown; allowed: {', '.join(scan.GOALS)}")
    if o.goal == "roles" and not game.roles:
        raise UsageError(f"--goal roles: {game.name} has no roles; use --goal seats or strategies")
    for name, value, low in (("--max-changes", o.max_changes, 1), ("--budget", o.budget, 1),
                             ("--games", o.games, 4 * stats.MIN_SAMPLE), ("--candidates", o.candidates, 1),
                             ("--proposals", o.proposals, 1),
                             ("--verify-games", o.verify_games, stats.MIN_SAMPLE),
                             ("--expert-games", o.expert_games, 0),
                             ("--search-games", o.search_games, 0)):
        if value < low:
            raise UsageError(f"{name} {value}: must be at least {low}")
    if not 0 < o.length_tolerance:
        raise UsageError(f"--length-tolerance {o.length_tolerance}: must be above 0, e.g. 0.25")
    if not 0 <= o.max_truncation < 1:
        raise UsageError(f"--max-truncation {o.max_truncation}: must be from 0 to below 1, e.g. 0.01")
    stats.check_confidence(o.confidence)
    base = make_config(o.game, o.players, o.mode, o.strategies, None, o.settings, o.seed)
    if o.goal == "strategies" and len(set(base.strategies)) < 2:
        raise UsageError("--goal strategies: the table has only one strategy; give --strategies")
    free = scan.select_params(game, o.params, o.keep)
    if not free:
        raise UsageError("--keep: every parameter is kept fixed; nothing left to change")
    return game, scan.spread_metric(scan.GOALS[o.goal]), base, free


class Evaluator:
    """Plays configurations on games ``0 .. games-1`` of the run seed, in memory, in rungs."""

    def __init__(self, o: BalanceOptions, metric: scan.Metric, threads, backend=None):
        self.o, self.metric, self.threads, self.backend = o, metric, threads, backend
        self.rungs = sorted({o.games // 4, o.games // 2, o.games})
        self.groups = None
        self.n_players = None

    def config(self, settings: dict):
        o = self.o
        return make_config(o.game, o.players, o.mode, o.strategies, None, {**o.settings, **settings},
                           o.seed)

    def play(self, config, first: int, count: int):
        """(goal sums, turns, truncated) of games ``first .. first + count - 1``."""
        seats, games = batch.play_in_memory(config, count, first, self.threads, with_games=True,
                                            backend=self.backend)
        if self.groups is None:
            self.groups = self.metric.groups(seats)
            self.n_players = config.n_players
        num, den = self.metric.sums(seats, games, self.groups)
        games = games.sort("game_id")
        return num, den, games["turns"].to_numpy().astype(float), games["truncated"].to_numpy().astype(float)

    def summary(self, parts) -> dict:
        num = np.concatenate([p[0] for p in parts])
        den = np.concatenate([p[1] for p in parts])
        turns = np.concatenate([p[2] for p in parts])
        truncated = np.concatenate([p[3] for p in parts])
        rates = num.sum(0) / den.sum(0)
        return {"index": float(self.metric.value(num.sum(0), den.sum(0), self.n_players)),
                "rates": dict(zip(self.groups, map(float, rates))),
                "turns": float(turns.mean()), "truncation": float(truncated.mean()),
                "sums": (num, den)}


def _group_change(metric, group, j, base_sums, sums, n_players, confidence) -> dict:
    """One group's win-rate change (paired bootstrap) from the sums of the goal's metric."""
    one = scan.Metric(f"{metric.group}:{group}", metric.group, group, "", "", "pts", 100.0)
    pick = lambda s: (s[0][:, [j]], s[1][:, [j]])  # noqa: E731
    d = scan.paired_difference(one, pick(base_sums), pick(sums), n_players, confidence)
    return {k: d[k] for k in ("delta", "low", "high")}


def price(free: dict, settings: dict, printed: dict) -> float:
    """What a set of changes costs in the score: per number changed and per share of range."""
    total = 0.0
    for name, value in settings.items():
        p = free[name]
        if value == printed[name]:
            continue
        moved = 1.0 if p.choices else abs(value - printed[name]) / max(1, p.high - p.low)
        total += PRICE_PER_CHANGE + PRICE_PER_RANGE * moved
    return total


def out_of_bounds(result: dict, baseline: dict, o: BalanceOptions) -> str:
    """Why a candidate's games are not acceptable ("" if they are)."""
    change = result["turns"] / baseline["turns"] - 1 if baseline["turns"] else 0.0
    if abs(change) > o.length_tolerance:
        return f"game length {change:+.0%} (allowed ±{o.length_tolerance:.0%})"
    allowed = max(o.max_truncation, baseline["truncation"])
    if result["truncation"] > allowed:
        return f"{result['truncation']:.1%} of games truncated (allowed {allowed:.1%})"
    return ""


def balance(o: BalanceOptions, out: str | Path, resume: bool = False, threads: int | None = None,
            progress: bool | None = None, backend: str = "local",
            scheduler: str | None = None) -> Path:
    """Search, verify and write balance.md/.html/.json and proposal-N.toml into ``out``. With
    ``resume``, ``out`` holds a search started with the same options: its screen, trials and
    verification runs are kept and the search goes on. ``backend`` "dask" plays every game on
    a cluster (``scheduler``, else a local one): the same result."""
    players = make_backend(backend, scheduler, threads)
    try:
        return _balance(o, out, resume, threads, progress, backend, scheduler,
                        players if backend != "local" else None)
    finally:
        players.close()


def _balance(o: BalanceOptions, out, resume, threads, progress, backend, scheduler,
             remote) -> Path:
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend
    from optuna.trial import TrialState

    game, metric, base, free = check(o)
    out = Path(out)
    state = resumable.start(out, BALANCE_STATE, asdict(o), resume, "balance search")
    show = progress if progress is not None else True
    ev = Evaluator(o, metric, threads, remote)
    printed = {p.name: base.rules.value(p.name) for p in free}
    by_name = {p.name: p for p in free}

    baseline_part = ev.play(base, 0, o.games)
    baseline = ev.summary([baseline_part])
    screen_games = o.games // 2  # the screen tries every number: half the games is enough to rank
    screen_baseline = ev.summary([tuple(a[:screen_games] for a in baseline_part)])

    # 2. the screen (kept in the state file: a resumed search does not redo it)
    if "screen" not in state:
        points = [(p, v) for p in free for v in scan.scan_values(p, printed[p.name], 0)]
        screen = []
        for p, v in tqdm(points, unit="run", desc=f"balance {game.name}: screen", disable=not show):
            try:
                config = ev.config({p.name: v})
            except UsageError as e:
                screen.append({"parameter": p.name, "value": v, "playable": False, "note": str(e)})
                continue
            result = ev.summary([ev.play(config, 0, screen_games)])
            diff = scan.paired_difference(metric, screen_baseline["sums"], result["sums"],
                                          ev.n_players, o.confidence)
            moved = {g: _group_change(metric, g, j, screen_baseline["sums"], result["sums"],
                                      ev.n_players, o.confidence)
                     for j, g in enumerate(ev.groups)}
            screen.append({"parameter": p.name, "value": v, "playable": True, **diff,
                           "index": result["index"], "group_change": moved,
                           "out_of_bounds": out_of_bounds(result, screen_baseline, o)})
        state["screen"] = screen
        resumable.save(out, BALANCE_STATE, state)
    screen = state["screen"]
    helpful = sorted((r for r in screen if r["playable"] and r["delta"] < 0 and not r["out_of_bounds"]),
                     key=lambda r: r["delta"])
    chosen = []
    for r in helpful:
        if r["parameter"] not in chosen:
            chosen.append(r["parameter"])
    chosen = chosen[:o.candidates]

    # 3. the search
    trials = []
    if chosen:
        storage = JournalStorage(JournalFileBackend(str(out / STUDY)))
        optuna.logging.set_verbosity(optuna.logging.ERROR)  # a failed or interrupted trial is no traceback
        with warnings.catch_warnings():  # multivariate and group are marked experimental
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            sampler = optuna.samplers.TPESampler(seed=o.seed, multivariate=True, group=True)
        study = optuna.create_study(
            study_name="balance", storage=storage, load_if_exists=True, direction="minimize",
            sampler=sampler, pruner=optuna.pruners.SuccessiveHalvingPruner(min_resource=ev.rungs[0], reduction_factor=2))

        def objective(trial):
            settings = {}
            for slot in range(min(o.max_changes, len(chosen))):
                name = trial.suggest_categorical(f"change_{slot}", [NO_CHANGE] + chosen)
                if name == NO_CHANGE or name in settings:
                    continue
                p = by_name[name]
                settings[name] = (trial.suggest_categorical(name, list(p.choices)) if p.choices
                                  else trial.suggest_int(name, p.low, p.high))
            settings = {k: v for k, v in settings.items() if v != printed[k]}
            trial.set_user_attr("settings", settings)
            try:
                config = ev.config(settings)
            except UsageError as e:  # tried and refused; a trial cut off by Ctrl-C is not marked
                trial.set_user_attr("unplayable", str(e))
                raise
            parts, done = [], 0
            for rung in ev.rungs:
                parts.append(ev.play(config, done, rung - done))
                done = rung
                result = ev.summary(parts)
                bounds = out_of_bounds(result, baseline, o)
                score = result["index"] + price(by_name, settings, printed) + (OUT_OF_BOUNDS if bounds else 0.0)
                trial.report(score, rung)
                if rung < o.games and trial.should_prune():
                    raise optuna.TrialPruned()
            trial.set_user_attr("index", result["index"])
            trial.set_user_attr("out_of_bounds", bounds)
            return score

        tried = [t for t in study.trials if t.state in (TrialState.COMPLETE, TrialState.PRUNED)
                 or "unplayable" in t.user_attrs]  # an interrupted trial is played again
        left = o.budget - len(tried)
        with tqdm(total=o.budget, initial=o.budget - max(left, 0), unit="candidate",
                  desc=f"balance {game.name}: search", disable=not show) as bar:
            def tick(study, trial):
                bar.update(1)
                if study.best_trials:
                    bar.set_postfix(best=f"{100 * study.best_trial.user_attrs.get('index', math.nan):.1f} pts")
            if left > 0:
                study.optimize(objective, n_trials=left, callbacks=[tick], catch=(UsageError,))
        trials = [t for t in study.trials if t.state == TrialState.COMPLETE]

    # 4. verification on fresh seeds
    seen, picks = set(), []
    for t in sorted(trials, key=lambda t: t.value):
        key = json.dumps(t.user_attrs["settings"], sort_keys=True)
        if (key in seen or not t.user_attrs["settings"] or t.user_attrs["out_of_bounds"]
                or t.user_attrs["index"] >= baseline["index"]):  # only what narrowed the spread
            continue
        seen.add(key)
        picks.append(t)
        if len(picks) == o.proposals:
            break
    proposals = _verify(o, metric, picks, printed, out, threads, show, backend, scheduler)
    result = {
        "options": asdict(o), "game": game.name, "title": game.title, "players": base.n_players,
        "mode": base.mode, "strategies": list(base.strategies), "goal": o.goal,
        "metric": asdict(metric),
        "baseline": {k: v for k, v in baseline.items() if k != "sums"},
        "screen": screen, "searched": chosen,
        "trials": {"complete": len(trials), "total": o.budget},
        "proposals": proposals,
        "cannot_change": _cannot_change(game, base, o, baseline, screen, free, metric),
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    atomic_write_bytes(out / "balance.json", (json.dumps(result, indent=2, default=float) + "\n").encode())
    from reports.build import write_pages
    write_pages(out, "balance", *page(result), {})
    return out


def _verify(o, metric, picks, printed, out: Path, threads, show, backend,
            scheduler) -> list[dict]:
    """Each pick against the baseline on a seed the search never used, as datasets."""
    seed = o.seed + VERIFY_SEED_OFFSET
    folder = out / "verify"

    def run(settings, name):
        config = make_config(o.game, o.players, o.mode, o.strategies, None, {**o.settings, **settings}, seed)
        path = scan.ensure_run(config, o.verify_games, folder / name, threads, backend, scheduler)
        data = scan.load_run(path)
        groups = metric.groups(data["seats"])
        return data, groups, config

    proposals = []
    if not picks:
        return proposals
    stronger = _stronger(o, metric, picks, out, seed, threads, show, backend, scheduler)
    base_data, groups, base_config = run({}, "baseline")
    n_players = base_config.n_players
    base_value, base_sums = scan.measure(metric, base_data, groups, n_players)
    turns = scan.parse_metric("turns", base_config.game)
    truncation = scan.parse_metric("truncation", base_config.game)
    for t in tqdm(picks, unit="proposal", desc="balance: verify", disable=not show):
        settings = t.user_attrs["settings"]
        data, _, _ = run(settings, scan.folder_name(settings))
        value, sums = scan.measure(metric, data, groups, n_players)
        entry = {"settings": settings, "printed": {k: printed[k] for k in settings},
                 "search_index": t.user_attrs["index"], "verify_seed": seed,
                 "verify_games": o.verify_games, "baseline_index": base_value, "index": value,
                 "difference": scan.paired_difference(metric, base_sums, sums, n_players, o.confidence)}
        for name, m in (("turns", turns), ("truncation", truncation)):
            b = scan.measure(m, base_data, [""], n_players)
            v = scan.measure(m, data, [""], n_players)
            entry[name] = {"baseline": b[0], "proposal": v[0],
                           "difference": scan.paired_difference(m, b[1], v[1], n_players, o.confidence)}
        entry["confirmed"] = entry["difference"]["high"] < 0
        entry["stronger"] = stronger[scan.folder_name(settings)]
        entry["survives_stronger_play"] = survives(entry["stronger"])
        proposals.append(entry)
    # Ranked by what the fresh games say: confirmed first, then the fairest.
    proposals.sort(key=lambda e: (not e["confirmed"], e["index"]))
    for rank, entry in enumerate(proposals, 1):
        entry["rank"] = rank
        entry["experiment"] = f"proposal-{rank}.toml"
        (out / entry["experiment"]).write_text(_experiment_file(o, entry, base_config))
    return proposals


CONFIRMED, REVERSED, UNCLEAR = "confirmed", "reversed", "not shown"


def stronger_sets(o: BalanceOptions) -> list[tuple[str, list[str], int]]:
    """The stronger player sets a proposal is verified under: (name, strategies, games)."""
    spec = get_game(o.game).strategies
    sets = []
    if spec.expert and o.expert_games:
        sets.append(("expert", [spec.expert], o.expert_games))
    if spec.search and o.search_games:
        sets.append((spec.search, [spec.search], o.search_games))
    return sets


def _stronger(o, metric, picks, out: Path, seed: int, threads, show, backend, scheduler) -> dict:
    """Each pick's change of the goal under each stronger player set, on the fresh seed:
    {pick's folder name: {set: {games, baseline_index, index, difference, verdict}}}."""
    found = {scan.folder_name(t.user_attrs["settings"]): {} for t in picks}
    for name, strategies, games in stronger_sets(o):
        folder = out / "verify" / name

        def run(settings, label):
            config = make_config(o.game, o.players, o.mode, strategies, None,
                                 {**o.settings, **settings}, seed)
            return scan.load_run(scan.ensure_run(config, games, folder / label, threads, backend,
                                                 scheduler)), config
        base_data, config = run({}, "baseline")
        groups = metric.groups(base_data["seats"])
        base_value, base_sums = scan.measure(metric, base_data, groups, config.n_players)
        for t in tqdm(picks, unit="proposal", desc=f"balance: verify under {name}",
                      disable=not show):
            settings = t.user_attrs["settings"]
            data, _ = run(settings, scan.folder_name(settings))
            value, sums = scan.measure(metric, data, groups, config.n_players)
            d = scan.paired_difference(metric, base_sums, sums, config.n_players, o.confidence)
            verdict = CONFIRMED if d["high"] < 0 else REVERSED if d["low"] > 0 else UNCLEAR
            found[scan.folder_name(settings)][name] = {
                "games": games, "baseline_index": base_value, "index": value, "difference": d,
                "verdict": verdict}
    return found


def survives(stronger: dict) -> bool | None:
    """Whether a proposal's effect holds under stronger play: the learnt expert confirms it (or
    there is none) and no stronger player set reverses it; None when none was played."""
    if not stronger:
        return None
    if any(v["verdict"] == REVERSED for v in stronger.values()):
        return False
    return stronger.get("expert", {"verdict": CONFIRMED})["verdict"] == CONFIRMED


def _toml_value(v) -> str:
    return json.dumps(v) if isinstance(v, str) else str(v)


def _experiment_file(o: BalanceOptions, entry: dict, config) -> str:
    changes = ", ".join(f"{k}: {entry['printed'][k]} → {v}" for k, v in entry["settings"].items())
    base = ", ".join(f"{k} = {_toml_value(v)}" for k, v in o.settings.items())
    status = status_text(entry, o.confidence)
    lines = [f"# {status}",
             "[experiment]",
             f'title = "{config.game.title}: balance proposal {entry["rank"]} ({o.goal}), '
             f'{"confirmed" if entry["confirmed"] else "not confirmed"}"',
             f'description = "Proposed by playtest balance: {changes}. {status}"',
             f'game = "{o.game}"', f'mode = "{config.mode}"', f"players = [{config.n_players}]",
             f"games = {entry['verify_games']}", f"seed = {entry['verify_seed']}"]
    if o.strategies:
        lines.append(f"strategies = {json.dumps(list(o.strategies))}")
    if base:
        lines += ["", "[baseline]", f"settings = {{ {base} }}"]
    settings = ", ".join(f"{k} = {_toml_value(v)}" for k, v in entry["settings"].items())
    lines += ["", f"[variants.proposal_{entry['rank']}]", f'description = "{changes}"',
              f"settings = {{ {settings} }}", ""]
    return "\n".join(lines)


def status_text(entry: dict, confidence: float) -> str:
    """A proposal's verdict on its fresh games, as every file it is written into says it."""
    d = entry["difference"]
    verdict = ("confirmed: the whole interval is below zero" if entry["confirmed"]
               else "not confirmed on fresh seeds: the interval reaches zero or above")
    text = (f"Balance index {100 * entry['baseline_index']:.1f} -> {100 * entry['index']:.1f} "
            f"points ({100 * d['delta']:+.1f}, {confidence:.0%} interval {100 * d['low']:+.1f} to "
            f"{100 * d['high']:+.1f}) on {entry['verify_games']:,} fresh games, seed "
            f"{entry['verify_seed']}; {verdict}.")
    stronger = entry.get("stronger") or {}
    if stronger:
        text += " Under stronger play: " + "; ".join(
            f"{name} {100 * v['difference']['delta']:+.1f} ({100 * v['difference']['low']:+.1f} "
            f"to {100 * v['difference']['high']:+.1f}, {v['games']:,} games): {v['verdict']}"
            for name, v in stronger.items()) + (
            "; the effect holds." if entry["survives_stronger_play"] else
            "; THE EFFECT DOES NOT SURVIVE STRONGER PLAY.")
    return text


def _cannot_change(game, base, o, baseline, screen, free, metric) -> dict:
    """What the search could not use: kept numbers, numbers with no effect on the goal, and
    groups out of line (their interval excludes the fair share) that no number of their own
    moves detectably toward it."""
    moved_any = {r["parameter"] for r in screen if r["playable"] and not r["identical"]}
    played = {r["parameter"] for r in screen if r["playable"]}
    no_effect = sorted(played - moved_any)
    not_playable = sorted({p.name for p in free} - played)
    out_of_line = []
    fair = 1.0 / base.n_players
    num, den = baseline["sums"]
    low, high = stats.wilson_interval(num.sum(0), den.sum(0), o.confidence)
    for j, (group, rate) in enumerate(baseline["rates"].items()):
        if low[j] <= fair <= high[j]:
            continue
        toward = [r for r in screen if r["playable"] and not r["out_of_bounds"]
                  and (r["group_change"][group]["low"] > 0 if rate < fair
                       else r["group_change"][group]["high"] < 0)]
        own = ([p.name for p in free if group.lower().replace(" ", "_") in p.name.lower()]
               if metric.group == "role" else [])
        own_moves = sorted({r["parameter"] for r in toward if r["parameter"] in own})
        out_of_line.append({"group": group, "rate": rate, "fair": fair, "own_numbers": own,
                            "own_numbers_that_move_it": own_moves,
                            "numbers_that_move_it": sorted({r["parameter"] for r in toward})[:12]})
    what = ("The turn order itself" if metric.group == "position"
            else f"What a {metric.group} does beyond its numbers")
    return {"kept": list(o.keep), "no_effect_on_goal": no_effect, "not_playable": not_playable,
            "out_of_line": out_of_line,
            "abilities": (f"{what} is code, not rule data: "
                          f"balance can change only the {len(free)} numbers and choices of "
                          f"{game.name}'s rules.toml it was allowed to touch, never an ability itself "
                          f"({len(base.rules.notes)} modelling notes in the rule data record such "
                          "fixed readings).")}


def _stronger_status(p: dict) -> str:
    held = p.get("survives_stronger_play")
    if held is None:
        return ""
    return "; " + ("holds under " if held else "does not survive ") + \
        ", ".join(f"{name} ({v['verdict']})" for name, v in p["stronger"].items())


def page(r: dict) -> tuple[str, list, list]:
    """(title, intro, blocks): what balance.md and balance.html say, described once."""
    from reports.build import Bullets, Heading, Para, Table
    metric = scan.Metric(**r["metric"])
    b = r["baseline"]
    o = r["options"]
    confidence = f"{100 * o['confidence']:g}%"
    intro = [Para(f"{r['players']} players, mode {r['mode']}, strategies {', '.join(r['strategies'])}. "
                  f"Goal: the {metric.title}, lower is fairer."),
             Para(f"Baseline on {o['games']:,} games (seed {o['seed']}): balance index "
                  f"{100 * b['index']:.1f} points; game length {b['turns']:.1f} turns; "
                  f"{b['truncation']:.2%} truncated.")]
    blocks = [Table([metric.group, "win rate"],
                    [[g, f"{100 * v:.1f}%"] for g, v in sorted(b["rates"].items(), key=lambda kv: -kv[1])],
                    [False, True]),
              Heading(2, "Proposals (verified on fresh seeds)", "proposals")]
    if not r["proposals"]:
        blocks.append(Para("No proposal: no candidate within bounds narrowed the spread." if r["searched"]
                           else "No proposal: no single number narrowed the spread in the screen."))
    else:
        rows = []
        for p in r["proposals"]:
            d = p["difference"]
            rows.append([p["rank"], "; ".join(f"{k}: {p['printed'][k]} → {v}" for k, v in p["settings"].items()),
                         f"{100 * p['baseline_index']:.1f} → {100 * p['index']:.1f}",
                         f"{100 * d['delta']:+.1f} ({100 * d['low']:+.1f} to {100 * d['high']:+.1f})",
                         ("confirmed" if p["confirmed"] else "not confirmed on fresh seeds") +
                         _stronger_status(p),
                         f"{p['turns']['baseline']:.1f} → {p['turns']['proposal']:.1f}",
                         f"{p['truncation']['baseline']:.2%} → {p['truncation']['proposal']:.2%}",
                         f"{p['verify_games']:,}, seed {p['verify_seed']}",
                         f"playtest experiment {p['experiment']}"])
        blocks += [Table(["rank", "changes", "balance index (points)",
                          f"change ({confidence} interval)", "status", "game length (turns)",
                          "truncated", "fresh games", "rerun"], rows,
                         [True, False, True, True, False, True, True, True, False]),
                   Para("Confirmed: the whole interval of the change lies below zero on games the "
                        "search never saw. Stronger play: the same change on the same fresh seed "
                        "with every seat the learnt expert, and with every seat the search player "
                        "(few games: its interval is wide); a proposal holds when the expert "
                        "confirms it and no stronger set reverses it (interval above zero).",
                        note=True)]
    truncated = [p for p in r["proposals"] if p["truncation"]["proposal"] > TRUNCATION_WARNING]
    if truncated or b["truncation"] > TRUNCATION_WARNING:
        cut_off = ([f"the baseline: {b['truncation']:.1%} of games truncated"]
                    if b["truncation"] > TRUNCATION_WARNING else [])
        cut_off += [f"proposal {p['rank']}: {p['truncation']['proposal']:.1%} of its fresh games "
                     "truncated" for p in truncated]
        blocks += [Heading(2, "Warning: games cut off at the turn limit", "truncation"),
                   Para(f"Above {TRUNCATION_WARNING:.0%} of games truncated, a balance index is "
                        "the turn limit's as much as the rules':"),
                   Bullets(cut_off)]
    c = r["cannot_change"]
    blocks += [Heading(2, "What it cannot change", "cannot-change"), Para(c["abilities"])]
    if c["kept"]:
        blocks.append(Para(f"Kept fixed (--keep): {', '.join(c['kept'])}."))
    if c["no_effect_on_goal"]:
        blocks.append(Para(f"No effect on any game at this table ({len(c['no_effect_on_goal'])}): "
                           f"{', '.join(c['no_effect_on_goal'])}."))
    if c["not_playable"]:
        blocks.append(Para(f"No value tried could be played at this table: {', '.join(c['not_playable'])}."))
    out_of_line = []
    for g in c["out_of_line"]:
        if not g["own_numbers"]:
            own = f"{g['group']} has no number of its own in the rule data"
        elif not g["own_numbers_that_move_it"]:
            own = f"none of {g['group']}'s own numbers ({', '.join(g['own_numbers'])}) moves it toward the fair share"
        else:
            own = f"its own numbers that move it: {', '.join(g['own_numbers_that_move_it'])}"
        others = (f"; numbers that move it detectably toward the fair share: {', '.join(g['numbers_that_move_it'])}"
                  if g["numbers_that_move_it"] else "; no number moves it detectably toward the fair share")
        out_of_line.append(f"{g['group']} wins {100 * g['rate']:.1f}% (fair {100 * g['fair']:.1f}%): {own}{others}.")
    if out_of_line:
        blocks.append(Bullets(out_of_line))
    blocks.append(Para(f"Searched: {', '.join(r['searched']) or 'nothing'} "
                       f"({r['trials']['complete']} complete candidates of {r['trials']['total']}; "
                       "the rest were pruned after a part of the games).", note=True))
    return f"Balance proposals for {r['title']}: {o['goal']}", intro, blocks
