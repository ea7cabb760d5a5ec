"""Playing a run: games in parts of fixed size, played in chunks, written as they finish.

Memory stays flat: one part's rows at a time, whatever the number of games. Game ``i`` depends
only on (seed, i), so thread count, chunk size and how the run is split change nothing in the data.
"""

from __future__ import annotations

import datetime
import json
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
from tqdm import tqdm

from simulator.core import dataset
from simulator.core.config import SEAT_ASSIGNMENT, RunConfig
from simulator.core.errors import UsageError

GAMES_PER_PART = 50_000
PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("playtest")
    except PackageNotFoundError:
        return "unknown"


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(PACKAGE_ROOT), "rev-parse", "HEAD"],
                             capture_output=True, text=True, timeout=5)
        return out.stdout.strip() if out.returncode == 0 else "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def provenance(config: RunConfig, n_games: int) -> dict:
    """What produced the data; identical for identical runs (no clock, no machine details)."""
    return {
        "game": config.game.name,
        "rules_version": config.rules.rules_version,
        "mode": config.mode,
        "n_players": config.n_players,
        "strategies": list(config.strategies),
        "strategy_weights": {n: list(map(float, w)) for n, w in zip(config.strategies, config.weights)},
        "weight_names": list(config.game.strategies.weight_names),
        "seat_assignment": SEAT_ASSIGNMENT,
        "roles": list(config.roles),
        "parameters": config.rules.describe(),
        "notes": config.rules.notes,
        "columns": config.game.report_columns,
        "seed": config.seed,
        "n_games": n_games,
        "package_version": package_version(),
        "git_commit": git_commit(),
        "numba_version": numba.__version__,
    }


def default_out(config: RunConfig, n_games: int) -> Path:
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("runs") / f"{config.game.name}-{config.n_players}p-{n_games}g-seed{config.seed}-{stamp}"


def make_out_dir(out: Path) -> None:
    """Create the output folder with its table folders, refusing one that already holds anything."""
    if out.exists():
        if not out.is_dir():
            raise UsageError(f"--out {out}: exists and is not a folder")
        if any(out.iterdir()):
            raise UsageError(f"--out {out}: folder is not empty; choose a new folder")
    try:
        for table in ("seats", "games"):
            (out / table).mkdir(parents=True, exist_ok=True)
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


def play_part(config: RunConfig, first_game: int, n_games: int, chunk_size: int, progress):
    """Play one part in chunks; returns its seats and games Arrow tables."""
    rules = config.rules.as_record()
    game = config.game
    seat_chunks, game_chunks = [], []
    for start in range(first_game, first_game + n_games, chunk_size):
        count = min(chunk_size, first_game + n_games - start)
        seats, games = game.play(rules, config.seed, start, count, config.setup)
        seat_chunks.append(seats)
        game_chunks.append(games)
        progress.update(count)
    seats = np.concatenate(seat_chunks)
    games = np.concatenate(game_chunks)
    seat_cols = game.seat_columns(seats, config)
    game_cols = game.game_columns(games, config)
    return (dataset.seat_table(first_game, config.n_players, seat_cols),
            dataset.game_table(first_game, config.n_players, game_cols))


def run(config: RunConfig, n_games: int, out: Path | None = None, threads: int | None = None,
        chunk_size: int | None = None, progress: bool | None = None, command: str = "") -> Path:
    """Play ``n_games`` games of ``config`` into the dataset folder ``out``; returns its path."""
    check_run_options(n_games, threads, chunk_size)
    out = Path(out) if out is not None else default_out(config, n_games)
    make_out_dir(out)
    threads_before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    chunk_size = min(chunk_size or GAMES_PER_PART, GAMES_PER_PART)
    meta = provenance(config, n_games)
    started = time.perf_counter()
    try:
        parts = {"seats": [], "games": []}
        show = progress if progress is not None else sys.stderr.isatty() and n_games >= 10_000
        with tqdm(total=n_games, unit="game", unit_scale=True, disable=not show,
                  desc=f"{config.game.name} {config.n_players}p", file=sys.stderr) as bar:
            for index, first in enumerate(range(0, n_games, GAMES_PER_PART)):
                count = min(GAMES_PER_PART, n_games - first)
                tables = play_part(config, first, count, chunk_size, bar)
                for name, table in zip(("seats", "games"), tables):
                    path = out / name / dataset.part_name(index)
                    dataset.write_table(table, path, meta)
                    parts[name].append({"file": path.name, "first_game": first, "games": count,
                                        "rows": table.num_rows, "sha256": dataset.sha256(path)})
        wall = time.perf_counter() - started
        manifest = dict(meta)
        manifest.update({
            "parts": parts,
            "games_per_part": GAMES_PER_PART,
            "threads": numba.get_num_threads(),
            "chunk_size": chunk_size,
            "wall_time_s": round(wall, 3),
            "games_per_second": round(n_games / wall, 1) if wall > 0 else None,
            "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "python_version": platform.python_version(),
            "command": command,
        })
        dataset.atomic_write_bytes(out / dataset.MANIFEST,
                                   (json.dumps(manifest, indent=2) + "\n").encode())
    except BaseException:
        # Nothing that looks complete is left behind: no manifest, and no parts either.
        shutil.rmtree(out, ignore_errors=True)
        raise
    finally:
        numba.set_num_threads(threads_before)
    return out
