"""Who plays the parts of a run: this process (numba threads) or a Dask cluster.

A backend turns a list of parts (index, first game, games) into their seat and game rows (and
the counts of the rules that came up); the
driver in ``batch.py`` writes them. A part's rows depend only on the configuration and its game
range, so every backend gives the same bytes.

On Dask, each part is a task that rebuilds the configuration from its options (a small dict),
plays the part with numba on the worker and returns the raw rows to the client, which writes
them: workers need no shared file system, and the data is written in one place, atomically.
Workers import playtest from its installed path, so they share its compiled-code cache; each
task sets numba's thread count from the worker's own thread count (Dask does not pass it on).
"""

from __future__ import annotations

import os
import shlex
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator

import numba
import numpy as np

from simulator.core.config import RunConfig, make_config
from simulator.core.errors import InvariantBroken, UsageError

BACKENDS = ("local", "dask")
CONNECT_TIMEOUT_S = 15
TASK_RETRIES = 2


def play_part(config: RunConfig, first: int, count: int, chunk_size: int, check: bool = False):
    """Seat and game rows of games ``first .. first + count - 1``, played in chunks, and how
    often each of the game's ``rules_that_come_up`` came up in them; with ``check``, each game's
    invariants checked after every turn (InvariantBroken, saying how to replay the game)."""
    rules = config.rules.as_record()
    seats, games = [], []
    came_up = np.zeros(len(config.game.rules_that_come_up), dtype=np.int64)
    for start in range(first, first + count, chunk_size):
        n = min(chunk_size, first + count - start)
        try:
            s, g, c = config.game.play(rules, config.seed, start, n, config.setup, check)
        except InvariantBroken as e:
            raise InvariantBroken(f"{e}; see it with {replay_command(config, e.game_index)}",
                                  e.game_index, e.invariant) from None
        seats.append(s)
        games.append(g)
        came_up += c
    return np.concatenate(seats), np.concatenate(games), came_up


def replay_command(config: RunConfig, game_index: int) -> str:
    """The command line that replays game ``game_index`` of ``config``."""
    request = config.request
    words = ["playtest", "replay", config.game.name, "--players", str(config.n_players),
             "--mode", config.mode, "--seed", str(config.seed), "--game-index", str(game_index)]
    if request.get("strategies"):
        words += ["--strategies", ",".join(request["strategies"])]
    if request.get("roles"):
        words += ["--roles", ",".join(request["roles"])]
    for key, value in request.get("settings", {}).items():
        words += ["--set", f"{key}={value}"]
    told = shlex.join(words)
    if request.get("weights") or request.get("tuned") or request.get("strategy_roles"):
        told += " (with the run's weights and roles: api.replay)"
    return told


class LocalBackend:
    """Plays the parts in this process. The next part plays (in numba, without the GIL) while
    the caller converts and writes the one before, so writing costs little wall time."""

    name = "local"

    def __init__(self, threads: int | None, check: bool = False):
        self.threads = threads or numba.get_num_threads()
        self.check = check

    def _play_part(self, config, first, count, chunk_size):
        numba.set_num_threads(self.threads)  # numba's thread count is per calling thread
        return play_part(config, first, count, chunk_size, self.check)

    def play(self, config: RunConfig, parts, chunk_size: int) -> Iterator:
        parts = list(parts)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="playtest-engine") as pool:
            ahead = [pool.submit(self._play_part, config, f, c, chunk_size) for _, f, c in parts[:1]]
            for k, (index, first, count) in enumerate(parts):
                seats, games, came_up = ahead.pop(0).result()
                if k + 1 < len(parts):
                    _, f, c = parts[k + 1]
                    ahead.append(pool.submit(self._play_part, config, f, c, chunk_size))
                yield index, first, count, seats, games, came_up

    def close(self) -> None:
        pass


def play_part_on_worker(request: dict, first: int, count: int, chunk_size: int, check: bool):
    """A Dask task: rebuild the configuration and play one part with the worker's threads."""
    from distributed import get_worker

    # Explicit, because Dask does not pass the worker's thread count on.
    threads = max(1, min(get_worker().state.nthreads, numba.config.NUMBA_NUM_THREADS))
    numba.set_num_threads(threads)
    return play_part(make_config(**request), first, count, chunk_size, check)


class DaskBackend:
    name = "dask"

    def __init__(self, scheduler: str | None, threads: int | None, check: bool = False):
        self.check = check
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--backend dask: Dask is not installed; pip install 'playtest[dask]'") from None
        self.cluster = None
        try:
            if scheduler is None:
                # A local cluster of worker processes started with 'spawn', never 'fork': a
                # forked child of a process that has started OpenMP threads can hang.
                workers = threads or os.cpu_count() or 1
                self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                            processes=True, dashboard_address=None)
                self.client = Client(self.cluster, timeout=CONNECT_TIMEOUT_S)
            else:
                self.client = Client(scheduler, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as e:
            if self.cluster is not None:
                self.cluster.close()
            where = scheduler or "a local cluster"
            raise UsageError(f"--scheduler {where}: cannot connect ({e.__class__.__name__}: "
                             f"{str(e).splitlines()[0] if str(e) else 'no answer'})") from None
        info = self.client.scheduler_info()
        self.threads = sum(w["nthreads"] for w in info["workers"].values())
        if not info["workers"]:
            self.close()
            raise UsageError(f"--scheduler {scheduler}: the cluster has no workers")

    def play(self, config: RunConfig, parts, chunk_size: int) -> Iterator:
        from distributed import as_completed

        # Keep at most two parts per worker thread in flight, so memory stays flat.
        window = max(2, 2 * self.threads)
        pending = list(parts)
        futures = {}

        def submit():
            index, first, count = pending.pop(0)
            future = self.client.submit(play_part_on_worker, config.request, first, count,
                                        chunk_size, self.check,
                                        key=f"playtest-part-{index}-{first}-{count}-{id(self)}",
                                        retries=TASK_RETRIES, pure=False)
            futures[future] = (index, first, count)
            return future

        running = as_completed([submit() for _ in range(min(window, len(pending)))])
        for future in running:
            index, first, count = futures.pop(future)
            try:
                seats, games, came_up = future.result()
            except InvariantBroken:
                raise
            except Exception as e:  # a part that failed on every retry: the run stops, unfinished
                raise RuntimeError(f"part {index} (games {first}..{first + count - 1}) failed on "
                                   f"the cluster after {TASK_RETRIES} retries: {e}") from e
            if pending:
                running.add(submit())
            yield index, first, count, seats, games, came_up

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def make_backend(name: str, scheduler: str | None, threads: int | None, check: bool = False):
    if name not in BACKENDS:
        raise UsageError(f"--backend {name}: unknown; allowed: {', '.join(BACKENDS)}")
    if name == "local":
        if scheduler is not None:
            raise UsageError("--scheduler: only with --backend dask")
        return LocalBackend(threads, check)
    return DaskBackend(scheduler, threads, check)
