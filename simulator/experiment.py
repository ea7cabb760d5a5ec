"""Experiment files: a baseline, named variants and sweeps, run with common random numbers.

An experiment is a TOML file (see ``experiments/README.md``). Every configuration it describes
becomes an ordinary run dataset under the experiment's output folder, all with the same seed:
game ``i`` of every configuration starts from the same random stream (the same deal, the same
first dice), so differences between configurations come from the tweak, not the dice.
"""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from simulator import resumable
from simulator.core import batch
from simulator.core.config import ANY_ROLE, RunConfig, make_config
from simulator.core.dataset import MANIFEST, atomic_write_bytes
from simulator.core.errors import UsageError
from simulator.core.game import get_game
from simulator.core.ruledata import unknown_name
from simulator.core.folders import EXPERIMENT_PLAN, EXPERIMENT_STARTED

EXPERIMENT_KEYS = ("title", "description", "game", "mode", "players", "strategies", "games",
                   "seed", "max_games", "confirm_with")
CHANGE_KEYS = ("description", "settings", "roles", "strategies", "weights")
VARIANT_KEYS = CHANGE_KEYS + ("mode",)  # a variant may also play another mode of the game
SWEEP_KEYS = ("description", "parameter", "parameters", "values", "range", "seat")
PLAYER_SET_KEYS = ("description", "strategies", "weights", "games", "precision")
BUDGET_KEYS = ("games", "precision")  # a player set's own budget, not a change of its players
ROLE_SWEEP = "role"


@dataclass
class Configuration:
    """One point of the experiment: a label, what changes against the baseline, and the run."""

    label: str
    kind: str  # "baseline", "variant" or "sweep"
    group: str  # the variant's or the sweep's name
    players: int
    changes: dict  # settings/roles/strategies/weights as written (merged over the baseline)
    swept: dict = field(default_factory=dict)  # parameter -> value, for sweep points
    description: str = ""
    player_set: str = ""  # the [players.NAME] it is played by ("" without player sets)
    games: int = 0  # games to play: the set's own count, else the file's (or --games)
    precision: float | None = None  # the set's own --precision target, if it has one

    @property
    def folder(self) -> str:
        who = f"{self.player_set}-" if self.player_set else ""
        return re.sub(r"[^A-Za-z0-9_.=,+-]+", "_", f"{self.players}p-{who}{self.label}")


@dataclass
class Experiment:
    path: Path
    title: str
    description: str
    game: str
    mode: str
    seed: int
    games: int
    max_games: int
    configurations: list[Configuration]
    confirm_with: str = ""  # the [players.NAME] whose effects must confirm the first set's

    def config(self, c: Configuration) -> RunConfig:
        ch = c.changes
        return make_config(self.game, c.players, ch.get("mode", self.mode), ch.get("strategies"),
                           ch.get("roles"), ch.get("settings"), self.seed, ch.get("weights"))


def _table(data: dict, key: str, where: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(f"{where}: [{key}] must be a table")
    return value


def _check_keys(table: dict, allowed: tuple[str, ...], where: str) -> None:
    """Only ``allowed`` keys, each holding a value of its kind (``KINDS``)."""
    for key in table:
        if key not in allowed:
            raise UsageError(unknown_name("key", key, allowed, f"in {where}"))
        kind, words = KINDS.get(key, (object, ""))
        value = table[key]
        if not isinstance(value, kind) or (kind is list and not all(isinstance(x, str)
                                                                    for x in value)):
            raise UsageError(f"{where}: {key} = {value!r} must be {words}")


# What each key of a table holds (the numbers are checked with their ranges where they are read).
KINDS = {"title": (str, "a text"), "description": (str, "a text"), "game": (str, "a game's name"),
         "mode": (str, "a mode's name"), "settings": (dict, "a table of parameter = value"),
         "weights": (dict, "a table of strategy = { weight = value }"),
         "roles": (list, "a list of role names, one per seat"),
         "strategies": (list, "a list of strategy names"), "parameter": (str, "a parameter's name"),
         "parameters": (list, "a list of two parameters' names")}


def _int(value, name: str, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise UsageError(f"{where}: {name} = {value!r} must be an integer of at least {low}")
    return value


def check_precision(value, where: str) -> float:
    """A precision target: the half-width of every headline win rate's 95% interval."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 0.5:
        raise UsageError(f"{where} {value!r}: must be a number between 0 and 0.5 (e.g. 0.01 "
                         "for ±1 point)")
    return float(value)


def _sweep_values(name: str, sweep: dict, where: str) -> list:
    if ("values" in sweep) == ("range" in sweep):
        raise UsageError(f"{where}: give either values = [...] or range = [start, stop, step]")
    if "values" in sweep:
        values = sweep["values"]
        if values == "all":
            return ["all"]
        if not isinstance(values, list) or not values:
            raise UsageError(f"{where}: values must be a non-empty list")
        return values
    rng = sweep["range"]
    if not (isinstance(rng, list) and len(rng) in (2, 3) and all(isinstance(x, int) for x in rng)):
        raise UsageError(f"{where}: range must be [start, stop] or [start, stop, step] of integers "
                         "(stop included)")
    start, stop, step = (rng + [1])[:3]
    if step == 0 or (stop - start) * step < 0:
        raise UsageError(f"{where}: range {rng} gives no values")
    return list(range(start, stop + (1 if step > 0 else -1), step))


def _merge(base: dict, change: dict) -> dict:
    merged = {k: v for k, v in base.items()}
    for key in ("settings", "weights"):
        if key in change:
            merged[key] = {**base.get(key, {}), **change[key]}
    for key in ("roles", "strategies", "mode"):
        if key in change:
            merged[key] = change[key]
    return merged


def load_experiment(path: str | Path, games: int | None = None) -> Experiment:
    """Read and check an experiment file; every configuration is validated before any is run.

    ``games`` (--games) replaces every game count of the file, a player set's own included."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"{path}: no such experiment file")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: not valid TOML ({e})") from None
    where = path.name
    _check_keys(data, ("experiment", "baseline", "variants", "sweeps", "players"), where)
    head = _table(data, "experiment", where)
    _check_keys(head, EXPERIMENT_KEYS, f"{where} [experiment]")
    if "game" not in head:
        raise UsageError(f"{where}: [experiment] needs game = \"...\"")
    spec = get_game(head["game"])
    mode = head.get("mode", spec.default_mode)
    if mode not in spec.modes:
        raise UsageError(unknown_name("mode", mode, spec.modes, f"of {spec.name}"))
    players = head.get("players", [max(spec.modes[mode].player_counts)])
    players = players if isinstance(players, list) else [players]
    for n in players:
        _int(n, "players", f"{where} [experiment]", 1)
    n_games = games if games is not None else _int(head.get("games", 10_000), "games",
                                                   f"{where} [experiment]", 1)
    seed = _int(head.get("seed", 0), "seed", f"{where} [experiment]")
    max_games = _int(head.get("max_games", 1_000_000), "max_games", f"{where} [experiment]", 1)

    base = _table(data, "baseline", where)
    _check_keys(base, CHANGE_KEYS, f"{where} [baseline]")
    base = dict(base)
    if "strategies" in head and "strategies" not in base:
        base["strategies"] = head["strategies"]
    player_sets = _table(data, "players", where)
    for name, who in player_sets.items():
        here = f"{where} [players.{name}]"
        if not isinstance(who, dict):
            raise UsageError(f"{here}: must be a table")
        _check_keys(who, PLAYER_SET_KEYS, here)
        if "games" in who:
            _int(who["games"], "games", here, 1)
        if "precision" in who:
            check_precision(who["precision"], f"{here}: precision =")
    configurations = []
    for set_name, who in (player_sets.items() or [("", {})]):
        set_games = n_games if games is not None else who.get("games", n_games)
        set_precision = who.get("precision")
        # a player set replaces the strategies (and adds weights) of every configuration
        who = {k: v for k, v in who.items() if k not in ("description", *BUDGET_KEYS)}
        for n in players:
            points = [Configuration("baseline", "baseline", "baseline", n, _merge({}, base),
                                    description="the baseline")]
            for name, variant in _table(data, "variants", where).items():
                here = f"{where} [variants.{name}]"
                if not isinstance(variant, dict):
                    raise UsageError(f"{here}: must be a table")
                _check_keys(variant, VARIANT_KEYS, here)
                if "mode" in variant and variant["mode"] not in spec.modes:
                    raise UsageError(unknown_name("mode", variant["mode"], spec.modes,
                                                  f"of {spec.name} in {here}"))
                points.append(Configuration(name, "variant", name, n, _merge(base, variant),
                                            description=variant.get("description", "")))
            for name, sweep in _table(data, "sweeps", where).items():
                points += _sweep_points(name, sweep, base, n, spec, f"{where} [sweeps.{name}]")
            for c in points:
                c.player_set, c.games, c.precision = set_name, set_games, set_precision
                c.changes = _merge(c.changes, _resolved(who, path.parent))
            configurations += points
    confirm_with = head.get("confirm_with", "")
    if confirm_with != "":
        here = f"{where} [experiment] confirm_with"
        later = list(player_sets)[1:]
        if not isinstance(confirm_with, str) or confirm_with not in later:
            raise UsageError(f"{here} = {confirm_with!r}: name a player set after the first "
                             f"(the reference); allowed: {', '.join(later) or 'none, add [players.NAME] sets'}")
    labels = [c.folder for c in configurations]
    if len(set(labels)) != len(labels):
        raise UsageError(f"{where}: two configurations share the name {_first_duplicate(labels)}")
    experiment = Experiment(path, head.get("title", path.stem), head.get("description", ""),
                            spec.name, mode, seed, n_games, max(max_games, n_games), configurations,
                            confirm_with)
    for c in configurations:  # every option checked now, before anything runs
        try:
            experiment.config(c)
        except UsageError as e:
            raise UsageError(f"{where}, configuration '{c.label}': {e}") from None
    return experiment


def _resolved(who: dict, folder: Path) -> dict:
    """A player set's changes, with tuned:FILE strategies found beside the experiment file."""
    out = dict(who)
    if "strategies" in out:
        out["strategies"] = [f"tuned:{folder / s[6:]}" if s.startswith("tuned:") and
                             not Path(s[6:]).is_absolute() else s for s in out["strategies"]]
    return out


def _first_duplicate(labels):
    seen = set()
    for label in labels:
        if label in seen:
            return label
        seen.add(label)


def _sweep_points(name, sweep, base, players, spec, where) -> list[Configuration]:
    if not isinstance(sweep, dict):
        raise UsageError(f"{where}: must be a table")
    _check_keys(sweep, SWEEP_KEYS, where)
    if "parameters" in sweep:  # a two-parameter grid
        params = sweep["parameters"]
        values = sweep.get("values")
        if not (isinstance(params, list) and len(params) == 2 and isinstance(values, list)
                and len(values) == 2 and all(isinstance(v, list) and v for v in values)):
            raise UsageError(f"{where}: a grid needs parameters = [a, b] and values = [[...], [...]]")
        points = [dict(zip(params, combo)) for combo in itertools.product(*values)]
    elif "parameter" in sweep:
        param = sweep["parameter"]
        values = _sweep_values(name, sweep, where)
        if param == ROLE_SWEEP:
            return _role_points(name, sweep, values, base, players, spec, where)
        points = [{param: v} for v in values]
    else:
        raise UsageError(f"{where}: give parameter = \"...\" (or parameters = [a, b] for a grid)")
    out = []
    for point in points:
        label = f"{name}:" + ",".join(f"{k}={v}" for k, v in point.items())
        changes = _merge(base, {"settings": point})
        out.append(Configuration(label, "sweep", name, players, changes, swept=point,
                                 description=sweep.get("description", "")))
    return out


def _role_points(name, sweep, values, base, players, spec, where) -> list[Configuration]:
    """A role study: seat ``seat`` plays each role in turn, the other seats are dealt theirs."""
    if not spec.roles:
        raise UsageError(f"{where}: {spec.name} has no roles to sweep")
    seat = _int(sweep.get("seat", 0), "seat", where)
    if seat >= players:
        raise UsageError(f"{where}: seat {seat} does not exist with {players} players")
    roles = list(spec.roles) if values == ["all"] else values
    out = []
    for role in roles:
        fixed = [ANY_ROLE] * players
        fixed[seat] = role
        out.append(Configuration(f"{name}:role={role}", "sweep", name, players,
                                 _merge(base, {"roles": fixed}), swept={"role": role},
                                 description=sweep.get("description", "")))
    return out


def run_experiment(experiment: Experiment, out: Path, threads=None, progress=None,
                   precision: float | None = None, on_config=None, backend: str = "local",
                   scheduler: str | None = None, resume: bool = False) -> Path:
    """Run every configuration into ``out/<players>p/<label>/`` and write ``experiment.json``.

    Each configuration plays its own count of games (its player set's, else the file's). With
    ``precision`` (or a player set's own, which ``precision`` replaces), configurations get more
    games (doubling) until every headline win rate's 95% interval is within ±precision, or
    ``max_games`` (at least the configuration's count) is reached. With ``resume``, ``out`` is
    an interrupted experiment of the same file and options: finished configurations are kept,
    an unfinished run is finished (``batch.resume``) and the rest are played, so the folder ends
    as an uninterrupted experiment would.
    """
    if precision is not None:
        check_precision(precision, "--precision")
    out = Path(out)
    asked = {"experiment file": Path(experiment.path).read_text(), "games": experiment.games,
             "precision": precision}
    resumable.start(out, EXPERIMENT_STARTED, asked, resume, "experiment")
    plan = {
        "experiment": str(experiment.path),
        "title": experiment.title,
        "description": experiment.description,
        "game": experiment.game,
        "mode": experiment.mode,
        "seed": experiment.seed,
        "games": experiment.games,
        "max_games": experiment.max_games,
        "precision": precision,
        "common_random_numbers": "every configuration uses the same seed: game i starts from the "
                                 "same random stream everywhere",
        "configurations": [],
    }
    for c in experiment.configurations:
        config = experiment.config(c)
        folder = out / c.folder
        if (folder / MANIFEST).is_file():
            pass  # finished before the interruption
        elif folder.is_dir() and any(folder.iterdir()):
            batch.resume(folder, threads, progress=progress, backend=backend, scheduler=scheduler)
        else:
            batch.run(config, c.games, folder, threads, progress=progress, backend=backend,
                      scheduler=scheduler)
        target = precision if precision is not None else c.precision
        if target is not None:
            from reports.compare import headline_half_width
            n = json.loads((folder / MANIFEST).read_text())["n_games"]
            cap = max(experiment.max_games, c.games)
            while headline_half_width(folder) > target and n < cap:
                more = min(n, cap - n)
                batch.extend(folder, config, more, threads, progress=progress)
                n += more
        manifest = json.loads((folder / MANIFEST).read_text())
        plan["configurations"].append({
            "label": c.label, "kind": c.kind, "group": c.group, "players": c.players,
            "player_set": c.player_set, "precision": target,
            "folder": c.folder, "changes": c.changes, "swept": c.swept,
            "description": c.description, "games": manifest["n_games"],
        })
        if on_config is not None:
            on_config(c, manifest["n_games"])
    atomic_write_bytes(out / EXPERIMENT_PLAN, (json.dumps(plan, indent=2, default=str) + "\n").encode())
    return out


def experiment_report(experiment: Experiment, out: Path, confidence: float = 0.95,
                      min_effect: float | None = None) -> Path:
    """The comparison report of an experiment played into ``out`` (``out/comparison``)."""
    from reports.comparison import Entry, build_comparison
    entries = [Entry(c["label"], out / c["folder"], c["swept"], c["group"], c["description"],
                     player_set=c.get("player_set", "")) for c in load_plan(out)["configurations"]]
    return build_comparison(entries, out / "comparison", confidence, experiment.title,
                            experiment.description, min_effect, experiment.confirm_with)


def load_plan(out: Path) -> dict:
    path = Path(out) / EXPERIMENT_PLAN
    if not path.is_file():
        raise UsageError(f"{out}: no {EXPERIMENT_PLAN}, so not a finished experiment folder")
    return json.loads(path.read_text())
