"""Playing a run: games in parts, played by a backend, written as they finish.

A run folder starts with ``run.json`` (the options and the planned parts), then fills
``seats/`` and ``games/`` with one Parquet file per part, each written under a temporary name and
renamed when complete, and ends with ``manifest.json``. A folder without a manifest is an
unfinished run: ``resume`` plays only its missing parts. Memory stays flat: a part's rows at a
time. Game ``i`` depends only on (seed, i), so the thread count, chunk size, backend and how the
run was split or resumed change nothing in the data.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import functools
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
from tqdm import tqdm

from simulator.core import jitcache
from simulator.core import dataset
from simulator.core.backends import make_backend, play_part
from simulator.core.config import RunConfig, make_config
from simulator.core.errors import UsageError
from simulator.core.seating import describe_design
from simulator.core.folders import RUN_PLAN

GAMES_PER_PART = 50_000
WRITING = ".writing"  # the lock a process holds while it writes a run folder
PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("playtest")
    except PackageNotFoundError:
        return "unknown"


@functools.cache
def engine_hash(game: str, root: Path = PACKAGE_ROOT) -> str:
    """What makes a run's rows besides its options: the engine's core, the game's folder (rules,
    kernels, spec) and its players. A run is resumed or extended only by the same engine; a commit
    that touches none of it (documentation, reports, tests) leaves a run resumable."""
    files = [*(root / "simulator" / "core").glob("*.py"),
             *(root / "simulator" / "games" / game).glob("*.py"),
             *(root / "simulator" / "games" / game).glob("*.toml"),
             root / "strategies" / "__init__.py", root / "strategies" / f"{game}.py"]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(PACKAGE_ROOT), "rev-parse", "HEAD"],
                             capture_output=True, text=True, timeout=5)
        return out.stdout.strip() if out.returncode == 0 else "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def provenance(config: RunConfig) -> dict:
    """What produced the data; identical for identical runs (no clock, no machine details).

    Each Parquet part carries it in its metadata, with the part's own game range. The git commit
    is the manifest's alone: a commit that leaves the engine as it was changes no byte of the
    data and does not stop a run from being resumed."""
    return {
        "game": config.game.name,
        "rules_version": config.rules.rules_version,
        "mode": config.mode,
        "n_players": config.n_players,
        "strategies": list(config.strategies),
        "base_strategies": list(config.base_strategies),
        "strategy_roles": dict(config.strategy_roles),
        "strategy_weights": {n: list(map(float, w)) for n, w in zip(config.strategies, config.weights)},
        "weight_names": list(config.game.strategies.weight_names),
        "seat_assignment": describe_design(len(config.strategies), config.n_players),
        "roles": list(config.roles),
        "parameters": config.rules.describe(),
        "notes": config.rules.notes,
        "columns": config.game.report_columns,
        "seed": config.seed,
        "package_version": package_version(),
        "engine_hash": engine_hash(config.game.name),
        "source_hash": jitcache.source_hash(config.game.name),
        "numba_version": numba.__version__,
    }


def play_in_memory(config: RunConfig, n_games: int, first_game: int = 0,
                   threads: int | None = None, with_games: bool = False, check: bool = False,
                   backend=None):
    """The seats table of games ``first_game ..`` of ``config`` as a polars frame (and the games
    table, ``with_games``), written nowhere (for tuning and searches that judge many short runs);
    the same rows as a run's. ``check``: each game's invariants checked after every turn.
    ``backend``: a Dask backend (``core/backends.py``) to play on, else here."""
    import polars as pl
    check_run_options(n_games, threads, None)
    if backend is None:
        numba.set_num_threads(threads or numba.config.NUMBA_NUM_THREADS)
        seats, games, _ = play_part(config, first_game, n_games, GAMES_PER_PART, check)
    else:  # in parts, one per worker thread, put back in order: the same rows
        size = -(-n_games // max(1, backend.threads))
        parts = [(k, first, min(size, first_game + n_games - first))
                 for k, first in enumerate(range(first_game, first_game + n_games, size))]
        played = sorted(backend.play(config, parts, GAMES_PER_PART), key=lambda part: part[0])
        seats = np.concatenate([part[3] for part in played])
        games = np.concatenate([part[4] for part in played])
    seat_columns = config.game.seat_columns(seats, config)
    table = dataset.seat_table(first_game, config.n_players, seat_columns)
    if not with_games:
        return pl.from_arrow(table)
    games = dataset.game_table(first_game, config.n_players, config.game.game_columns(games, config),
                               seat_columns)
    return pl.from_arrow(table), pl.from_arrow(games)


def default_out(config: RunConfig, n_games: int) -> Path:
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("runs") / f"{config.game.name}-{config.n_players}p-{n_games}g-seed{config.seed}-{stamp}"


def make_empty_dir(out: Path) -> None:
    """Create ``out`` (or accept it empty), refusing one that holds anything, before any work."""
    if out.exists():
        if not out.is_dir():
            raise UsageError(f"--out {out}: exists and is not a folder")
        if any(p.name != WRITING for p in out.iterdir()):
            raise UsageError(f"--out {out}: folder is not empty; choose a new folder "
                             "(or --resume it if it is an unfinished run)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot create the folder ({e.strerror})") from None


def check_run_options(n_games: int, threads: int | None, chunk_size: int | None) -> None:
    if n_games < 1:
        raise UsageError(f"--games {n_games}: must be at least 1")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise UsageError(f"--threads {threads}: must be from 1 to {numba.config.NUMBA_NUM_THREADS} "
                         "(the cores numba can use here)")
    if chunk_size is not None and chunk_size < 1:
        raise UsageError(f"--chunk-size {chunk_size}: must be at least 1")


def plan_parts(first_game: int, n_games: int) -> list[list[int]]:
    """[first game, games] of each part covering ``first_game .. first_game + n_games - 1``."""
    end = first_game + n_games
    return [[f, min(GAMES_PER_PART, end - f)] for f in range(first_game, end, GAMES_PER_PART)]


@contextlib.contextmanager
def only_writer(out: Path):
    """Hold the run folder's lock while writing it: a second run, resume or extension into the
    same folder at the same time refuses, instead of writing its parts among the first one's.
    The system releases the lock when the process ends, however it ends, so a run interrupted
    even by SIGKILL stays resumable."""
    path = out / WRITING
    try:
        handle = os.open(path, os.O_CREAT | os.O_RDWR, 0o644)
    except OSError as e:
        raise UsageError(f"{out}: cannot write in the folder ({e.strerror})") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        raise UsageError(f"{out}: another playtest process is writing this run now; wait for it "
                         "to finish, or stop it and resume the run") from None
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
        os.close(handle)


def _write_plan(out: Path, plan: dict) -> None:
    dataset.atomic_write_bytes(out / RUN_PLAN, (json.dumps(plan, indent=2) + "\n").encode())


def run(config: RunConfig, n_games: int, out: Path | None = None, threads: int | None = None,
        chunk_size: int | None = None, progress: bool | None = None, command: str = "",
        backend: str = "local", scheduler: str | None = None, check: bool = False) -> Path:
    """Play ``n_games`` games of ``config`` into the new dataset folder ``out``; returns its path.

    If the run is interrupted, the parts already written stay: ``resume`` finishes it. ``check``
    checks each game's invariants after every turn and stops at the first game that breaks one
    (InvariantBroken); the rows are the same either way.
    """
    check_run_options(n_games, threads, chunk_size)
    out = Path(out) if out is not None else default_out(config, n_games)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        make_empty_dir(out)  # raises the right message
    engine = make_backend(backend, scheduler, threads, check)  # checked (and connected) first
    try:
        make_empty_dir(out)
        with only_writer(out):
            make_empty_dir(out)  # again: another process may have written since, then let go
            try:
                for table in ("seats", "games"):
                    (out / table).mkdir(exist_ok=True)
                plan = {"request": config.request, "provenance": provenance(config),
                        "parts": plan_parts(0, n_games), "chunk_size": chunk_size,
                        "command": command, "wall_time_s": 0.0}
                _write_plan(out, plan)
            except OSError as e:
                raise UsageError(f"--out {out}: cannot write in the folder ({e.strerror})") from None
            _play(out, config, plan, engine, chunk_size, progress)
    finally:
        engine.close()
    return out


def resume(out: Path, threads: int | None = None, chunk_size: int | None = None,
           progress: bool | None = None, backend: str = "local", scheduler: str | None = None,
           check: bool = False) -> Path:
    """Finish an interrupted run: play only the parts that are missing, then write the manifest."""
    out = Path(out)
    plan = read_plan(out)
    if (out / dataset.MANIFEST).exists():
        raise UsageError(f"--resume {out}: the run is already complete")
    config = make_config(**plan["request"])
    _check_same_code(out, config, plan["provenance"], "resume")
    engine = make_backend(backend, scheduler, threads, check)
    try:
        with only_writer(out):
            if (out / dataset.MANIFEST).exists():  # finished by another process meanwhile
                raise UsageError(f"--resume {out}: the run is already complete")
            _play(out, config, plan, engine, chunk_size if chunk_size else plan.get("chunk_size"),
                  progress)
    finally:
        engine.close()
    return out


def extend(out: Path, config: RunConfig, more_games: int, threads: int | None = None,
           chunk_size: int | None = None, progress: bool | None = None) -> Path:
    """Add games ``n .. n + more_games - 1`` to the complete run in ``out`` (``n`` = its games).

    The configuration must be the run's own. If adding fails, the run stays as it was.
    """
    check_run_options(more_games, threads, chunk_size)
    out = Path(out)
    manifest = dataset.read_manifest(out)
    _check_same_code(out, config, {k: manifest.get(k) for k in provenance(config)}, "add games to")
    plan = read_plan(out)
    done = list(plan["parts"])
    plan["parts"] = done + plan_parts(manifest["n_games"], more_games)
    engine = make_backend("local", None, threads)
    with only_writer(out):
        backup = (out / dataset.MANIFEST).read_bytes()
        try:
            (out / dataset.MANIFEST).unlink()  # unfinished while it grows
            _write_plan(out, plan)
            _play(out, config, plan, engine, chunk_size, progress)
        except BaseException:
            for table in ("seats", "games"):
                for index in range(len(done), len(plan["parts"])):
                    (out / table / dataset.part_name(index)).unlink(missing_ok=True)
            plan["parts"] = done
            _write_plan(out, plan)
            dataset.atomic_write_bytes(out / dataset.MANIFEST, backup)
            raise
    return out


def read_plan(out: Path) -> dict:
    path = Path(out) / RUN_PLAN
    if not path.is_file():
        raise UsageError(f"{out}: no {RUN_PLAN}, so not a playtest run folder")
    return json.loads(path.read_text())


def _check_same_code(out: Path, config: RunConfig, recorded: dict, doing: str) -> None:
    mine = provenance(config)
    for key in mine:
        if json.dumps(mine[key], sort_keys=True) != json.dumps(recorded.get(key), sort_keys=True):
            what = "another version of playtest" if key in ("package_version", "engine_hash",
                                                             "source_hash", "numba_version") \
                else "other options"
            raise UsageError(f"{out}: the run was made with {what} ({key} differs); cannot {doing} it")


def _present(out: Path, index: int, first: int, count: int, n_players: int) -> bool:
    """Whether part ``index`` is already on disk, whole (renamed into place, right row counts)."""
    import pyarrow.parquet as pq
    try:
        seats = pq.read_metadata(out / "seats" / dataset.part_name(index)).num_rows
        games = pq.read_metadata(out / "games" / dataset.part_name(index)).num_rows
    except (OSError, ValueError):
        return False
    return seats == count * n_players and games == count


def rules_came_up(out: Path, n_parts: int, names: tuple[str, ...]) -> dict[str, int]:
    """How often each rule the game counts came up over the run, summed from its games parts
    (each part keeps its own counts, so a resumed run sums the same)."""
    import pyarrow.parquet as pq
    total = dict.fromkeys(names, 0)
    for index in range(n_parts):
        meta = pq.read_schema(out / "games" / dataset.part_name(index)).metadata
        for name, count in json.loads(meta[dataset.PROVENANCE_KEY])["rules_came_up"].items():
            total[name] += count
    return total


def _play(out: Path, config: RunConfig, plan: dict, engine, chunk_size, progress) -> None:
    """Play the plan's missing parts with ``engine``, then write the manifest."""
    meta = provenance(config)
    parts = plan["parts"]
    todo = [(i, f, c) for i, (f, c) in enumerate(parts) if not _present(out, i, f, c, config.n_players)]
    total = sum(c for _, c in parts)
    chunk_size = min(chunk_size or GAMES_PER_PART, GAMES_PER_PART)
    started = time.perf_counter()
    show = progress if progress is not None else sys.stderr.isatty() and total >= 10_000
    try:
        with tqdm(total=total, initial=total - sum(c for _, _, c in todo), unit="game", unit_scale=True,
                  disable=not show, desc=f"{config.game.name} {config.n_players}p",
                  file=sys.stderr) as bar:
            for index, first, count, seats, games, came_up in engine.play(config, todo, chunk_size):
                seat_columns = config.game.seat_columns(seats, config)
                tables = (dataset.seat_table(first, config.n_players, seat_columns),
                          dataset.game_table(first, config.n_players,
                                             config.game.game_columns(games, config), seat_columns))
                counts = dict(zip(config.game.rules_that_come_up, map(int, came_up)))
                for name, table in zip(("seats", "games"), tables):
                    dataset.write_table(table, out / name / dataset.part_name(index),
                                        dict(meta, first_game=first, games=count,
                                             **({"rules_came_up": counts} if name == "games" else {})))
                bar.update(count)
    except OSError as e:
        raise UsageError(f"{out}: writing the run failed ({e.strerror or e}); the parts written so "
                         f"far are kept: finish with playtest run --resume {out}") from None
    wall = plan.get("wall_time_s", 0.0) + time.perf_counter() - started
    entries = {"seats": [], "games": []}
    for index, (first, count) in enumerate(parts):
        for name in entries:
            path = out / name / dataset.part_name(index)
            entries[name].append({"file": path.name, "first_game": first, "games": count,
                                  "rows": count * (config.n_players if name == "seats" else 1),
                                  "sha256": dataset.sha256(path)})
    plan["wall_time_s"] = wall
    _write_plan(out, plan)
    manifest = dict(meta)
    manifest.update({
        "n_games": total,
        "rules_came_up": rules_came_up(out, len(parts), config.game.rules_that_come_up),
        "parts": entries,
        "games_per_part": GAMES_PER_PART,
        "backend": engine.name,
        "threads": engine.threads,
        "chunk_size": chunk_size,
        "wall_time_s": round(wall, 3),
        "games_per_second": round(total / wall, 1) if wall > 0 else None,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python_version": platform.python_version(),
        "git_commit": git_commit(),
        "command": plan.get("command", ""),
    })
    dataset.atomic_write_bytes(out / dataset.MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())

