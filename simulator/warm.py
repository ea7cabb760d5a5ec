"""Compile every game's kernels into the on-disk cache before the tests need them.

``python -m simulator.warm [GAME ...] [--jobs J]`` plays one game and replays it, with heuristic
players and (where the game has one) with its search player, one game per process, ``J`` at a
time. numba compiles on one core; a cold test run on several workers otherwise compiles a
game's large kernels on two workers at once when two of its test files start together, and
each such kernel takes minutes. Warm, every worker loads them from the cache instead.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor, as_completed


def warm(name: str) -> tuple[str, float]:
    """Compile ``name``'s kernels (play and replay; heuristic and searching); seconds taken.

    What compiled here is checked: a function compiled more often than its distinct argument
    types require (a constant or default argument specialising it) fails the warm-up."""
    from simulator.core import batch
    from simulator.core.config import make_config
    from simulator.core.game import get_game
    from simulator.core.jit import project_dispatchers, respecialised

    start = time.perf_counter()
    game = get_game(name)
    mixes = [None]
    if game.strategies.search:
        mixes.append([game.strategies.search] + list(game.strategies.default_mix))
    for mix in mixes:
        config = make_config(name, None, None, mix)
        batch.play_in_memory(config, 1, threads=1)
        game.replay(config.rules.as_record(), config.seed, 0, config.setup)
    extra = respecialised(project_dispatchers())
    if extra:
        raise RuntimeError(f"{name}: compiled more often than their argument types require: "
                           + ", ".join(f"{f} ({n} times)" for f, n in sorted(extra.items())))
    return name, time.perf_counter() - start


def main(argv=None) -> None:
    from simulator.core.game import GAME_NAMES
    parser = argparse.ArgumentParser(prog="python -m simulator.warm", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", choices=[[]] + list(GAME_NAMES), default=[])
    parser.add_argument("--jobs", "-j", type=int, default=2)
    args = parser.parse_args(argv)
    # The later games are the larger ones: started first, the last to finish is a small one.
    names = args.games or list(reversed(GAME_NAMES))
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for done in as_completed([pool.submit(warm, name) for name in names]):
            name, seconds = done.result()
            print(f"warm: {name} compiled or loaded in {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main()
