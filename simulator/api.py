"""playtest from Python: the same runs, replays, datasets and studies as the command line.

    from simulator import api
    path = api.run("gremios", players=4, games=100_000, seed=1)
    data = api.load(path)            # data.seats, data.games: polars DataFrames
    api.win_rates(path)              # every seat, strategy and role, with Wilson intervals
    story = api.replay("gremios", seed=1, game_index=7)
    tweak = api.run("gremios", players=4, games=100_000, seed=1, settings={"inn_cost": 5})
    changes = api.compare(path, tweak, min_effect=1)   # Holm-corrected rows, paired
    api.report(path)                 # the balance report (report/report.html)
"""

from __future__ import annotations

from pathlib import Path

from simulator.core import batch
from simulator.core.config import make_config  # noqa: F401  (also part of the API)
from simulator.core.dataset import Dataset, load as load_dataset, verify as verify_dataset
from simulator.core.errors import UsageError
from simulator.core.game import GAME_NAMES, get_game
from simulator.core.replay import told_with_seats_and_result


def run(game: str, players: int | None = None, games: int = 10_000, seed: int = 0,
        out: str | Path | None = None, strategies=None, mode: str | None = None, roles=None,
        settings: dict | None = None, weights: dict | None = None, threads: int | None = None,
        chunk_size: int | None = None, progress: bool | None = None, command: str = "",
        backend: str = "local", scheduler: str | None = None, tuned: dict | None = None,
        strategy_roles: dict | None = None, check: bool = False) -> Path:
    """Play ``games`` games and write the dataset; returns the run folder.

    ``settings`` overrides rule numbers by name (as ``--set``), ``weights`` replaces a strategy's
    weight vector, ``roles`` fixes each seat's role ("any" to deal it). A strategy may be
    ``"tuned:FILE"`` (a file from ``tune``) or a key of ``tuned`` ({name: {"strategy": base,
    "weights": [...]}}); ``strategy_roles`` gives a strategy of the mix a role it always holds.
    ``backend="dask"`` plays on a Dask cluster (``scheduler="tcp://host:port"``, or a local
    cluster without it). ``check`` checks the game's invariants after every turn and raises
    ``InvariantBroken`` at the first game that breaks one.
    """
    config = make_config(game, players, mode, strategies, roles, settings, seed, weights, tuned,
                         strategy_roles)
    return batch.run(config, games, out, threads, chunk_size, progress, command, backend, scheduler,
                     check)


def resume(path: str | Path, threads: int | None = None, chunk_size: int | None = None,
           progress: bool | None = None, backend: str = "local", scheduler: str | None = None,
           check: bool = False) -> Path:
    """Finish an interrupted run, playing only its missing parts (same data as an uninterrupted run)."""
    return batch.resume(Path(path), threads, chunk_size, progress, backend, scheduler, check)


def verify(path: str | Path) -> list[str]:
    """The problems found in a run's dataset; an empty list when it is sound."""
    return verify_dataset(path)


def load(path: str | Path, lazy: bool = False) -> Dataset:
    """A run folder's ``seats`` and ``games`` tables as polars frames, and its manifest."""
    return load_dataset(path, lazy)


def replay(game: str, seed: int = 0, game_index: int = 0, players: int | None = None,
           strategies=None, mode: str | None = None, roles=None, settings: dict | None = None,
           weights: dict | None = None, tuned: dict | None = None,
           strategy_roles: dict | None = None) -> list[dict]:
    """The turn-by-turn story of game ``game_index`` of the run with these options."""
    if game_index < 0:
        raise UsageError(f"--game-index {game_index}: must be 0 or more")
    config = make_config(game, players, mode, strategies, roles, settings, seed, weights, tuned,
                         strategy_roles)
    events, seats = config.game.replay(config.rules.as_record(), config.seed, game_index,
                                       config.setup)
    return told_with_seats_and_result(events, config.game.seat_columns(seats, config))


def tune(game: str, strategy: str, out: str | Path, players: int | None = None,
         mode: str | None = None, role: str | None = None, table=None, games: int = 2000,
         budget: int = 120, held_out_games: int = 20_000, seed: int = 0,
         settings: dict | None = None, resume: bool = False, progress: bool | None = None,
         threads: int | None = None) -> Path:
    """Tune ``strategy``'s weights against ``table`` (CMA-ES) into the file ``out``; see
    ``simulator/tuning.py``. Use the result as the strategy ``"tuned:" + str(out)``."""
    from simulator.tuning import TuneOptions, tune as run_tune
    options = TuneOptions(game, strategy, players, mode, role, list(table) if table else None,
                          games, budget, held_out_games, seed, dict(settings or {}))
    return run_tune(options, out, resume, progress, threads)


def distill(game: str, out: str | Path, resume: bool = False, progress: bool | None = None,
            threads: int | None = None, **options) -> Path:
    """Fit ``game``'s learnt expert to its search player's decisions into the file ``out``
    (``playtest distill``); ``options`` are the fields of ``simulator.distill.DistillOptions``
    (players, mode, games, held_out_games, rounds, match_games, seed, settings, calibrate_games,
    calibrate_steps). Use the result as the strategy ``"tuned:" + str(out)``."""
    from simulator.distill import DistillOptions, distill as fit
    return fit(_options(DistillOptions, game, options), out, resume, progress, threads)


def tournament(run_dir: str | Path, confidence: float = 0.95) -> dict:
    """Plackett-Luce ratings (with bootstrap intervals) of the strategies of a run."""
    from reports.ratings import ratings
    return ratings(run_dir, confidence)


def win_rates(run_dir: str | Path, confidence: float = 0.95):
    """A run's win rate for every seat, strategy and role, with its Wilson interval (a polars
    DataFrame: group, label, n, rate, low, high)."""
    from reports.compare import win_rates as rates
    from reports.stats import check_confidence
    return rates(Path(run_dir), check_confidence(confidence))


def compare(baseline: str | Path, variant: str | Path, confidence: float = 0.95,
            min_effect: float | None = None) -> list[dict]:
    """Every headline change from ``baseline`` to ``variant`` as ``playtest compare`` reports
    it: one dict per row (metric, group, label, baseline, variant, delta, low, high, method,
    p, p_adjusted, detected, equivalent...), Holm-corrected over the rows; ``min_effect`` in
    points, as ``--min-effect``."""
    from reports.compare import compare_runs
    from reports.comparison import check_min_effect
    from reports.stats import check_confidence
    from simulator.core.dataset import require_verified
    check_min_effect(min_effect)
    for path in (baseline, variant):
        require_verified(path)
    return [c.as_dict() for c in compare_runs(Path(baseline), Path(variant),
                                              check_confidence(confidence), min_effect)]


def report(run_dir: str | Path, out: str | Path | None = None, confidence: float = 0.95) -> Path:
    """Write a run's balance report (``run_dir/report`` unless ``out``); returns its folder."""
    from reports.build import build_report
    return build_report(run_dir, out, confidence)


def experiment(file: str | Path, out: str | Path, games: int | None = None,
               precision: float | None = None, confidence: float = 0.95,
               min_effect: float | None = None, threads: int | None = None,
               progress: bool | None = None) -> Path:
    """Run an experiment file into ``out`` and write its comparison report
    (``out/comparison``); returns ``out``. ``simulator.experiment.load_plan(out)`` lists its runs."""
    from reports.comparison import check_min_effect
    from reports.stats import check_confidence
    from simulator.experiment import experiment_report, load_experiment, run_experiment
    check_confidence(confidence)
    check_min_effect(min_effect)
    exp = load_experiment(file, games)
    out = Path(out)
    run_experiment(exp, out, threads, progress, precision)
    experiment_report(exp, out, confidence, min_effect)
    return out


def sensitivity(game: str, out: str | Path, resume: bool = False, threads: int | None = None,
                progress: bool | None = None, **options) -> Path:
    """Rank the rule numbers by their effect (``playtest sensitivity``); ``options`` are the
    fields of ``simulator.sensitivity.SensitivityOptions`` (players, games, metric, params,
    method, settings, seed, confidence...). ``resume`` goes on with an interrupted scan in
    ``out``. Returns ``out`` (sensitivity.md/.html/.json, tornado.png)."""
    from simulator.sensitivity import SensitivityOptions, sensitivity as scan
    return scan(_options(SensitivityOptions, game, options), out, resume, threads,
                progress=progress)


def balance(game: str, out: str | Path, resume: bool = False, threads: int | None = None,
            progress: bool | None = None, backend: str = "local", scheduler: str | None = None,
            **options) -> Path:
    """Search for rule numbers that balance the game (``playtest balance``); ``options`` are the
    fields of ``simulator.balance.BalanceOptions`` (goal, players, keep, budget, games,
    verify_games, expert_games, search_games, settings, seed...). Returns ``out``
    (balance.md/.html/.json, proposal-N.toml)."""
    from simulator.balance import BalanceOptions, balance as search
    return search(_options(BalanceOptions, game, options), out, resume, threads, progress,
                  backend, scheduler)


def ladder(game: str, out: str | Path, resume: bool = False, threads: int | None = None,
           backend: str = "local", progress: bool | None = None, **options) -> Path:
    """Play ``game`` under rungs of stronger players (``playtest ladder``); ``options`` are the
    fields of ``simulator.ladder.LadderOptions`` (players, games, search_games, match_games,
    rollouts, tuned, real, settings, seed...). Returns ``out`` (report/ladder.html)."""
    from simulator.ladder import LadderOptions, ladder as climb
    return climb(_options(LadderOptions, game, options), out, resume, threads, backend,
                 progress=progress)


def _options(kind, game: str, options: dict):
    """``kind(game, **options)``, an unknown option refused in one line."""
    from dataclasses import fields
    from simulator.core.ruledata import unknown_name
    allowed = [f.name for f in fields(kind) if f.name != "game"]
    for name in options:
        if name not in allowed:
            raise UsageError(unknown_name("option", name, allowed))
    return kind(game, **options)


def catalog() -> list[dict]:
    """Every game with its player counts, modes, roles, strategies and parameters."""
    out = []
    for name in GAME_NAMES:
        game = get_game(name)
        rules = game.rules()
        out.append({
            "game": name,
            "title": game.title,
            "player_counts": list(game.player_counts),
            "modes": {m.name: {"description": m.description, "players": list(m.player_counts)}
                      for m in game.modes.values()},
            "roles": list(game.roles),
            "strategies": dict(zip(game.strategies.names, game.strategies.descriptions)),
            "default_mix": list(game.strategies.default_mix),
            "weights": list(game.strategies.weight_names),
            "rules_version": rules.rules_version,
            "parameters": rules.describe(),
            "notes": rules.notes,
        })
    return out
