"""playtest from Python: the same runs, replays and datasets as the command line.

    from simulator import api
    path = api.run("gremios", players=4, games=100_000, seed=1)
    data = api.load(path)            # data.seats, data.games: polars DataFrames
    story = api.replay("gremios", seed=1, game_index=7)
"""

from __future__ import annotations

from pathlib import Path

from simulator.core import batch
from simulator.core.config import make_config  # noqa: F401  (also part of the API)
from simulator.core.dataset import Dataset, load as load_dataset, verify as verify_dataset
from simulator.core.errors import UsageError
from simulator.core.game import GAME_NAMES, get_game


def run(game: str, players: int | None = None, games: int = 10_000, seed: int = 0,
        out: str | Path | None = None, strategies=None, mode: str | None = None, roles=None,
        settings: dict | None = None, weights: dict | None = None, threads: int | None = None,
        chunk_size: int | None = None, progress: bool | None = None, command: str = "",
        backend: str = "local", scheduler: str | None = None, tuned: dict | None = None,
        strategy_roles: dict | None = None) -> Path:
    """Play ``games`` games and write the dataset; returns the run folder.

    ``settings`` overrides rule numbers by name (as ``--set``), ``weights`` replaces a strategy's
    weight vector, ``roles`` fixes each seat's role ("any" to deal it). A strategy may be
    ``"tuned:FILE"`` (a file from ``tune``) or a key of ``tuned`` ({name: {"strategy": base,
    "weights": [...]}}); ``strategy_roles`` gives a strategy of the mix a role it always holds.
    ``backend="dask"`` plays on a Dask cluster (``scheduler="tcp://host:port"``, or a local
    cluster without it).
    """
    config = make_config(game, players, mode, strategies, roles, settings, seed, weights, tuned,
                         strategy_roles)
    return batch.run(config, games, out, threads, chunk_size, progress, command, backend, scheduler)


def resume(path: str | Path, threads: int | None = None, chunk_size: int | None = None,
           progress: bool | None = None, backend: str = "local", scheduler: str | None = None) -> Path:
    """Finish an interrupted run, playing only its missing parts (same data as an uninterrupted run)."""
    return batch.resume(Path(path), threads, chunk_size, progress, backend, scheduler)


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
    return config.game.replay(config.rules.as_record(), config.seed, game_index, config.setup)


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


def tournament(run_dir: str | Path, confidence: float = 0.95) -> dict:
    """Plackett-Luce ratings (with bootstrap intervals) of the strategies of a run."""
    from reports.ratings import ratings
    return ratings(run_dir, confidence)


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
