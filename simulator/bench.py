"""``playtest bench``: how fast each game runs here, measured the same way every time.

For each game, with its default mix at its largest standard table:

- the engine alone (playing games into memory, no Parquet) on one thread and on all threads,
  in games per second, and the ratio between them (how it scales with cores);
- ``playtest run`` end to end (a fresh process: start-up, playing, Parquet, manifest) for a
  million games by default, with the process's peak memory;
- the first call with an empty numba cache (compiling everything) and with a warm one (the
  start-up a designer waits for before the first game is played), each in a fresh process;
- the compiled engine against the same code interpreted (``NUMBA_DISABLE_JIT=1``) on a small
  sample.

``playtest bench --determinism`` plays each game's million games (and a few with its search
player) on one thread and on every thread, in different chunk sizes, and says whether the bytes
agree.

``playtest bench --experts`` times each game's learnt expert in every seat against its default
mix and against four-player Gremios, alternated, at the smallest and largest table.

``playtest bench --compile`` measures only the compile: for each game, a fresh process with an
empty cache compiles and plays its heuristic game loop with a replay, then its searching loop
(where the game has a search player), each timed (wall and CPU), and counts what compiled: the
functions, their signatures, and any function compiled more often than its distinct argument
types require.

Every figure is the median of several runs, with the minimum and maximum, printed as a table and
written as JSON. The machine is shared and noisy: quote medians and ratios.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numba

PROBE = "import-and-first-game"


def _stats(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": len(values)}


def _engine_rate(game: str, players: int, games: int, threads: int, repeats: int) -> list[float]:
    from simulator.core.backends import play_part
    from simulator.core.config import make_config

    config = make_config(game, players, seed=1)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        play_part(config, 0, 50, 50)  # compiled and warm
        rates = []
        for _ in range(repeats):
            start = time.perf_counter()
            play_part(config, 0, games, min(games, 50_000))
            rates.append(games / (time.perf_counter() - start))
        return rates
    finally:
        numba.set_num_threads(before)


def _timed_process(args: list[str], env: dict | None = None) -> tuple[float, float, str]:
    """Wall seconds, peak memory (MiB, the process's own maximum resident size) and stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    streams = {}
    readers = [threading.Thread(target=lambda n=n: streams.__setitem__(n, getattr(proc, n).read()))
               for n in ("stdout", "stderr")]
    for reader in readers:
        reader.start()
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own resource usage
    wall = time.perf_counter() - start
    for reader in readers:
        reader.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        last = streams["stderr"].decode().strip().splitlines()[-1:]
        raise RuntimeError(f"{' '.join(args)} failed: {last}")
    return wall, usage.ru_maxrss / 1024, streams["stdout"].decode()


def _probe(game: str, players: int, env: dict) -> dict:
    """Seconds from a fresh interpreter to the first game played, measured inside the child."""
    code = (f"import time; t = time.perf_counter(); from simulator.bench import first_game; "
            f"first_game({game!r}, {players}, t)")
    _, _, out = _timed_process([sys.executable, "-c", code], env)
    return json.loads(out.strip().splitlines()[-1])


def empty_cache_start(game: str, players: int) -> float:
    """Seconds from a fresh interpreter to the first game with NUMBA_CACHE_DIR an empty folder."""
    with tempfile.TemporaryDirectory() as cache:
        return _probe(game, players, dict(os.environ, NUMBA_CACHE_DIR=cache))["first_game_s"]


def first_game(game: str, players: int, started: float) -> None:
    """(Runs in the probe process.) Import, build the configuration and play one game."""
    from simulator.core.backends import play_part
    from simulator.core.config import make_config

    imported = time.perf_counter()
    play_part(make_config(game, players, seed=1), 0, 1, 1)
    print(json.dumps({"import_s": imported - started, "first_game_s": time.perf_counter() - started}))


def compile_probe(game: str) -> None:
    """(Runs in a fresh process with an empty cache.) Compile and play ``game``'s heuristic
    loop with its replay, then its searching loop; print the figures as JSON."""
    from simulator.core import batch
    from simulator.core.config import make_config
    from simulator.core.game import get_game
    from simulator.core.jit import project_dispatchers, respecialised

    spec = get_game(game)
    loops = [("heuristic", None)]
    if spec.strategies.search:
        loops.append(("searching", [spec.strategies.search] + list(spec.strategies.default_mix)))
    figures = {}
    for loop, mix in loops:
        wall, cpu = time.perf_counter(), time.process_time()
        config = make_config(game, strategies=mix, seed=1)
        batch.play_in_memory(config, 1, threads=1)
        spec.replay(config.rules.as_record(), config.seed, 0, config.setup)
        figures[f"{loop}_compile_s"] = time.perf_counter() - wall
        figures[f"{loop}_compile_cpu_s"] = time.process_time() - cpu
    dispatchers = project_dispatchers()
    figures["compiled_functions"] = sum(1 for d in dispatchers.values() if d.overloads)
    figures["compiled_signatures"] = sum(len(d.overloads) for d in dispatchers.values())
    figures["respecialised"] = respecialised(dispatchers)
    print(json.dumps(figures))


# The targets of docs/performance.md for a quiet machine (wall seconds): the heuristic loop's
# compile, and the searching loop's as a multiple of it.
HEURISTIC_COMPILE_TARGET_S = {"elgrande": 120.0}
DEFAULT_HEURISTIC_COMPILE_TARGET_S = 60.0
SEARCHING_COMPILE_TARGET_RATIO = 2.0


def compile_times(game: str) -> dict:
    """``compile_probe`` of ``game`` in a fresh process on an empty cache, with its targets."""
    with tempfile.TemporaryDirectory() as cache:
        code = f"from simulator.bench import compile_probe; compile_probe({game!r})"
        _, peak, out = _timed_process([sys.executable, "-c", code],
                                      dict(os.environ, NUMBA_CACHE_DIR=cache))
    figures = json.loads(out.strip().splitlines()[-1])
    figures["compile_peak_memory_mib"] = peak
    target = HEURISTIC_COMPILE_TARGET_S.get(game, DEFAULT_HEURISTIC_COMPILE_TARGET_S)
    figures["heuristic_compile_target_s"] = target
    if "searching_compile_s" in figures:
        figures["searching_compile_target_s"] = SEARCHING_COMPILE_TARGET_RATIO * \
            figures["heuristic_compile_s"]
    return figures


def run_compile_bench(games: list[str], repeats: int = 1, out: Path | None = None,
                      log=print) -> dict:
    report = {"machine": machine(), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "load_average_at_start": os.getloadavg(), "settings": {"repeats": repeats},
              "results": []}
    for game in games:
        runs = []
        for k in range(repeats):
            log(f"{game}: compiling from an empty cache ({k + 1} of {repeats})")
            runs.append(compile_times(game))
        result = {"game": game}
        for key, value in runs[0].items():
            if isinstance(value, float):
                result[key] = _stats([r[key] for r in runs])
            else:
                result[key] = value
        report["results"].append(result)
    report["load_average_at_end"] = os.getloadavg()
    if out is not None:
        Path(out).write_text(json.dumps(report, indent=2) + "\n")
    return report


def compile_table(results: list[dict]) -> str:
    """One line per game: the compiles (wall and CPU, median) against their targets."""
    lines = [f"{'game':<10} {'heuristic s':>12} {'cpu s':>7} {'target':>7} {'searching s':>12} "
             f"{'cpu s':>7} {'target':>7} {'functions':>9} {'signatures':>10}  respecialised"]
    for r in results:
        searching = r.get("searching_compile_s")
        lines.append(
            f"{r['game']:<10} {r['heuristic_compile_s']['median']:>12.1f} "
            f"{r['heuristic_compile_cpu_s']['median']:>7.1f} "
            f"{r['heuristic_compile_target_s']['median']:>7.0f} "
            + (f"{searching['median']:>12.1f} {r['searching_compile_cpu_s']['median']:>7.1f} "
               f"{r['searching_compile_target_s']['median']:>7.0f} " if searching else f"{'-':>12} {'-':>7} {'-':>7} ")
            + f"{r['compiled_functions']:>9} {r['compiled_signatures']:>10}  "
            + (", ".join(f"{f} ({n})" for f, n in r["respecialised"].items()) or "none"))
    return "\n".join(lines)


def _interpreted_rate(game: str, players: int, games: int) -> float:
    code = ("import time, warnings; warnings.simplefilter('ignore'); "
            "from simulator.core.backends import play_part; from simulator.core.config import make_config; "
            f"c = make_config({game!r}, {players}, seed=1); play_part(c, 0, 1, 1); "
            f"t = time.perf_counter(); play_part(c, 0, {games}, {games}); "
            f"print({games} / (time.perf_counter() - t))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    _, _, out = _timed_process([sys.executable, "-W", "ignore", "-c", code], env)
    return float(out.strip().splitlines()[-1])


def bench_game(game: str, repeats: int, engine_games: int, run_games: int, interpreted_games: int,
               log=print, empty_cache: bool = True) -> dict:
    from simulator.core.game import get_game

    spec = get_game(game)
    players = max(spec.modes[spec.default_mode].player_counts)
    threads = numba.config.NUMBA_NUM_THREADS
    result = {"game": game, "players": players, "strategies": list(spec.strategies.default_mix)}

    log(f"{game}: engine, 1 thread and {threads} threads ({engine_games:,} games x {repeats})")
    one = _engine_rate(game, players, engine_games, 1, repeats)
    every = _engine_rate(game, players, engine_games, threads, repeats)
    result["engine_games_per_s_1_thread"] = _stats(one)
    result[f"engine_games_per_s_{threads}_threads"] = _stats(every)
    result["thread_scaling"] = _stats([b / a for a, b in zip(one, every)])

    log(f"{game}: playtest run end to end ({run_games:,} games x {repeats})")
    walls, peaks = [], []
    playtest = str(Path(sys.executable).with_name("playtest"))
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            wall, peak, _ = _timed_process([playtest, "run", game, "-n", str(run_games), "--seed", "1",
                                            "--out", str(Path(tmp) / "run"), "-q"])
        walls.append(wall)
        peaks.append(peak)
    result["run_end_to_end_s"] = _stats(walls)
    result["run_games"] = run_games
    result["run_games_per_s"] = _stats([run_games / w for w in walls])
    result["run_peak_memory_mib"] = _stats(peaks)

    if empty_cache:
        log(f"{game}: start-up with an empty compile cache (everything compiles)")
        result["first_call_empty_cache_s"] = _stats([
            empty_cache_start(game, players) for _ in range(max(1, repeats // 2))])
    log(f"{game}: start-up with a warm compile cache")
    result["first_game_warm_cache_s"] = _stats(
        [_probe(game, players, dict(os.environ))["first_game_s"] for _ in range(repeats)])

    log(f"{game}: interpreted against compiled ({interpreted_games} games)")
    interpreted = [_interpreted_rate(game, players, interpreted_games) for _ in range(max(1, repeats // 2))]
    result["interpreted_games_per_s"] = _stats(interpreted)
    result["compiled_vs_interpreted"] = _stats([statistics.median(one) / i for i in interpreted])
    return result


def _dataset_digest(path: Path) -> str:
    """One SHA-256 over every Parquet part of a run's seats and games, in order."""
    import hashlib
    digest = hashlib.sha256()
    for table in ("seats", "games"):
        for part in sorted((path / table).iterdir()):
            digest.update(part.name.encode())
            digest.update(part.read_bytes())
    return digest.hexdigest()


def determinism_game(game: str, run_games: int, search_games: int, log=print) -> dict:
    """``game`` at its largest table of the first mode played twice: on one thread in chunks of
    a third of the run, and on every thread in chunks of 4,999 games; and the same for a small
    run with the search player seated. The figure is whether the Parquet bytes agree."""
    from simulator import api
    from simulator.core.game import get_game

    spec = get_game(game)
    players = max(spec.modes[spec.default_mode].player_counts)
    threads = numba.config.NUMBA_NUM_THREADS
    result = {"game": game, "players": players, "threads": threads, "runs": []}
    mixes = [("default mix", None, run_games)]
    if spec.strategies.search and search_games > 0:
        mixes.append(("search player", [spec.strategies.search, *spec.strategies.default_mix],
                      search_games))
    for label, strategies, n in mixes:
        digests, seconds = [], []
        for run_threads, chunk in ((1, max(1, -(-n // 3))), (threads, min(4_999, max(1, n // 2)))):
            log(f"{game}, {label}: {n:,} games on {run_threads} thread(s), chunks of {chunk:,}")
            with tempfile.TemporaryDirectory() as tmp:
                started = time.perf_counter()
                path = api.run(game, players=players, games=n, seed=1, strategies=strategies,
                               out=Path(tmp) / "run", threads=run_threads, chunk_size=chunk,
                               progress=False)
                seconds.append(time.perf_counter() - started)
                digests.append(_dataset_digest(path))
        result["runs"].append({"mix": label, "games": n, "seconds_1_thread": seconds[0],
                               f"seconds_{threads}_threads": seconds[1],
                               "identical": digests[0] == digests[1], "sha256": digests[0]})
    return result


def run_determinism_bench(games: list[str], run_games: int, search_games: int,
                          out: Path | None = None, log=print) -> dict:
    report = {"machine": machine(), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "load": os.getloadavg(), "settings": {"run_games": run_games,
                                                    "search_games": search_games},
              "results": [determinism_game(g, run_games, search_games, log) for g in games]}
    if out is not None:
        Path(out).write_text(json.dumps(report, indent=2) + "\n")
    return report


def determinism_table(results: list[dict]) -> str:
    lines = [f"{'game':<10} {'players':>7} {'mix':<14} {'games':>10} {'1 thread s':>11} "
             f"{'all threads s':>13}  same bytes"]
    for r in results:
        every = f"seconds_{r['threads']}_threads"
        for run in r["runs"]:
            lines.append(f"{r['game']:<10} {r['players']:>7} {run['mix']:<14} {run['games']:>10,} "
                         f"{run['seconds_1_thread']:>11,.1f} {run[every]:>13,.1f}  "
                         f"{'yes' if run['identical'] else 'NO'}")
    return "\n".join(lines)


EXPERT_TIMING_S = 1.0  # each timing of ``--experts`` plays games for about this long


def _seconds_per_game(config, games: int) -> float:
    from simulator.core.batch import play_in_memory
    started = time.perf_counter()
    play_in_memory(config, games, threads=1)
    return (time.perf_counter() - started) / games


def _games_for(config, seconds: float) -> int:
    """Enough games of ``config`` for a timing of about ``seconds`` (compiled and warm first)."""
    _seconds_per_game(config, 20)
    return max(20, int(seconds / _seconds_per_game(config, 100)))


def expert_cost_game(game: str, repeats: int, seconds: float = EXPERT_TIMING_S, log=print) -> dict:
    """The learnt expert's cost: at the smallest and largest table of the first mode, the expert
    in every seat, the default mix and four-player Gremios (the yardstick) timed in turn on one
    thread, ``repeats`` times; the per-game ratios of each round, expert over mix and each over
    Gremios."""
    from simulator.core.config import make_config
    from simulator.core.game import get_game

    spec = get_game(game)
    counts = spec.modes[spec.default_mode].player_counts
    yardstick = make_config(YARDSTICK, 4, seed=1)
    yardstick_games = _games_for(yardstick, seconds)
    result = {"game": game, "expert": spec.strategies.expert, "tables": []}
    for players in sorted({min(counts), max(counts)}):
        log(f"{game}, {players} players: the expert against the default mix and {YARDSTICK}")
        expert = make_config(game, players, strategies=[spec.strategies.expert], seed=1)
        mix = make_config(game, players, seed=1)
        n_expert, n_mix = _games_for(expert, seconds), _games_for(mix, seconds)
        over_mix, expert_in, mix_in = [], [], []
        for _ in range(repeats):
            e = _seconds_per_game(expert, n_expert)
            m = _seconds_per_game(mix, n_mix)
            y = _seconds_per_game(yardstick, yardstick_games)
            over_mix.append(e / m)
            expert_in.append(e / y)
            mix_in.append(m / y)
        result["tables"].append({
            "players": players, "games": {"expert": n_expert, "mix": n_mix,
                                          YARDSTICK: yardstick_games},
            "expert_over_mix": _stats(over_mix), f"expert_in_{YARDSTICK}_games": _stats(expert_in),
            f"mix_in_{YARDSTICK}_games": _stats(mix_in)})
    return result


def run_expert_bench(games: list[str], repeats: int, seconds: float = EXPERT_TIMING_S,
                     out: Path | None = None, log=print) -> dict:
    from simulator.core.game import get_game
    games = [g for g in games if get_game(g).strategies.expert]
    report = {"machine": machine(), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "load": os.getloadavg(), "settings": {"repeats": repeats, "timing_s": seconds},
              "results": [expert_cost_game(g, repeats, seconds, log) for g in games]}
    if out is not None:
        Path(out).write_text(json.dumps(report, indent=2) + "\n")
    return report


def expert_table(results: list[dict]) -> str:
    lines = [f"{'game':<10} {'players':>7} {'expert / mix':>13} {'expert in ' + YARDSTICK + ' games':>24}"
             f" {'mix in ' + YARDSTICK + ' games':>21}"]
    for r in results:
        for t in r["tables"]:
            lines.append(f"{r['game']:<10} {t['players']:>7} {t['expert_over_mix']['median']:>13.2f} "
                         f"{t[f'expert_in_{YARDSTICK}_games']['median']:>24.2f} "
                         f"{t[f'mix_in_{YARDSTICK}_games']['median']:>21.2f}")
    return "\n".join(lines)


def machine() -> dict:
    return {"python": platform.python_version(), "numba": numba.__version__,
            "numba_threads": numba.config.NUMBA_NUM_THREADS, "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine(), "system": platform.platform(),
            "threading_layer_requested": numba.config.THREADING_LAYER}


YARDSTICK = "gremios"


def against_yardstick(results: list[dict]) -> None:
    """Each other game's medians over the yardstick's (Gremios) in the same run, as
    ``ratio_to_gremios``: on a shared machine the load moves both alike, so the ratio is the
    figure that carries over."""
    base = next((r for r in results if r["game"] == YARDSTICK), None)
    if base is None:
        return
    for r in results:
        if r is not base:
            r[f"ratio_to_{YARDSTICK}"] = {
                key: value["median"] / base[key]["median"] for key, value in r.items()
                if isinstance(value, dict) and "median" in value and base.get(key, {}).get("median")}


def table(results: list[dict]) -> str:
    lines = [f"{'figure':<42} {'median':>12} {'min':>12} {'max':>12}"]
    for r in results:
        lines.append(f"-- {r['game']} ({r['players']} players, default mix)")
        for key, value in r.items():
            if isinstance(value, dict) and "median" in value:
                lines.append(f"{key:<42} {value['median']:>12,.2f} {value['min']:>12,.2f} "
                             f"{value['max']:>12,.2f}")
        for key, ratio in r.get(f"ratio_to_{YARDSTICK}", {}).items():
            lines.append(f"{key + ' / ' + YARDSTICK:<42} {ratio:>12,.4f}")
    return "\n".join(lines)


def run_bench(games: list[str], repeats: int = 5, engine_games: int = 200_000,
              run_games: int = 1_000_000, interpreted_games: int = 20, out: Path | None = None,
              log=print, empty_cache: bool = True) -> dict:
    report = {"machine": machine(), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "settings": {"repeats": repeats, "engine_games": engine_games, "run_games": run_games,
                           "interpreted_games": interpreted_games,
                           "empty_cache_start": empty_cache},
              "results": [bench_game(g, repeats, engine_games, run_games, interpreted_games, log,
                                     empty_cache) for g in games]}
    against_yardstick(report["results"])
    if out is not None:
        Path(out).write_text(json.dumps(report, indent=2) + "\n")
    return report
