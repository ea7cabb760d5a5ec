"""``playtest check GAME``: the game's invariants checked after every turn of many games.

Every mode and player count is played with the default mix, with ``random`` in every seat,
with rule settings drawn at random within their ranges (``draw_settings``: any subset of the
parameters moved, as the Hypothesis test of ``tests/test_parameter_ranges.py`` draws them) and
with the search player among the default mix, whose games cost thousands of heuristic ones and
so get their own, smaller count. Nothing is written but ``check.json``: the plan, the parts
checked (so ``--resume`` goes on with the rest) and, at the first game that breaks an
invariant, that game, its configuration and the command that replays it.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from simulator import resumable
from simulator.core import batch
from simulator.core.backends import make_backend
from simulator.core.config import make_config
from simulator.core.errors import InvariantBroken, UsageError
from simulator.core.game import Game, get_game
from simulator.core.folders import CHECK_STATE

DRAW_ATTEMPTS = 100  # settings drawn before a table is said to refuse every draw


@dataclass
class CheckOptions:
    game: str
    games: int = 10_000_000  # heuristic games in all, shared by the tables and mixes
    search_games: int = 20  # the search player's games at each table
    rule_draws: int = 4  # rule settings drawn at each table, each with the default mix and random
    seed: int = 0
    modes: list = field(default_factory=list)  # all, when empty
    players: list = field(default_factory=list)  # all, when empty


def draw_settings(game: Game, rng: random.Random, share: float = 0.5) -> dict:
    """Any subset of the game's parameters (each moved with probability ``share``), each at a
    value its range allows, drawn uniformly."""
    settings = {}
    for p in game.rules().params.values():
        if rng.random() < share:
            settings[p.name] = rng.choice(p.choices) if p.choices else rng.randint(p.low, p.high)
    return settings


def tables(game: Game, options: CheckOptions) -> list[tuple[str, int]]:
    for mode in options.modes:
        if mode not in game.modes:
            from simulator.core.ruledata import unknown_name
            raise UsageError(unknown_name("mode", mode, game.modes, f"of {game.name}"))
    chosen = [(m.name, n) for m in game.modes.values() for n in m.player_counts
              if (not options.modes or m.name in options.modes)
              and (not options.players or n in options.players)]
    if not chosen:
        raise UsageError(f"--players {','.join(map(str, options.players))}: no table of "
                         f"{game.name} has that many players in the modes chosen")
    return chosen


def plan(options: CheckOptions) -> list[dict]:
    """The configurations checked, each {mode, players, strategies, settings, seed, games,
    kind}: the seed of the k-th is the check's seed + k."""
    game = get_game(options.game)
    configurations = []
    heuristic = []
    for t, (mode, players) in enumerate(tables(game, options)):
        rng = random.Random(f"{options.seed}/{mode}/{players}")
        entries = [("default mix", None, {}), ("random", ["random"], {})]
        for k in range(options.rule_draws):
            strategies = None if k % 2 == 0 else ["random"]
            entries.append(("drawn rules", strategies, _playable_draw(game, mode, players, rng)))
        for kind, strategies, settings in entries:
            heuristic.append(len(configurations))
            configurations.append({"kind": kind, "mode": mode, "players": players,
                                   "strategies": strategies, "settings": settings})
        if game.strategies.search and options.search_games > 0:
            configurations.append({"kind": "search player", "mode": mode, "players": players,
                                   "strategies": [game.strategies.search,
                                                  *game.strategies.default_mix],
                                   "settings": {}, "games": options.search_games})
    share, extra = divmod(options.games, len(heuristic))
    for j, index in enumerate(heuristic):
        configurations[index]["games"] = share + (j < extra)
    for k, c in enumerate(configurations):
        c["seed"] = options.seed + k
    return [c for c in configurations if c["games"] > 0]


def _playable_draw(game: Game, mode: str, players: int, rng: random.Random) -> dict:
    """Drawn settings the game accepts at this table (moved together, numbers can break a joint
    limit, such as a deck's size: such a draw is refused and drawn again, and after every ten
    refusals half as many numbers are moved, as El Grande's stacks of card counts need)."""
    for attempt in range(DRAW_ATTEMPTS):
        settings = draw_settings(game, rng, 0.5 ** (1 + attempt // 10))
        try:
            make_config(game.name, players, mode, None, None, settings, 0)
            return settings
        except UsageError:
            continue
    raise UsageError(f"{game.name} {mode} {players} players: none of {DRAW_ATTEMPTS} drawn rule "
                     "settings is accepted")


def configuration(c: dict):
    return make_config(c["_game"], c["players"], c["mode"], c["strategies"], None, c["settings"],
                       c["seed"])


def check(options: CheckOptions, out: Path, resume: bool = False, threads: int | None = None,
          backend: str = "local", scheduler: str | None = None,
          progress: bool | None = None) -> dict:
    """Play the plan with every game's invariants checked; returns the state kept in
    ``out/check.json``. Raises InvariantBroken at the first game that breaks one (kept in the
    state with the command that replays it)."""
    if options.games < 0 or options.search_games < 0 or options.rule_draws < 0:
        raise UsageError("--games, --search-games and --rule-draws: must be at least 0")
    if options.games + options.search_games == 0:
        raise UsageError("--games 0 and --search-games 0: nothing to check")
    configurations = plan(options)  # before anything is written: bad options write nothing
    state = resumable.start(out, CHECK_STATE, vars(options), resume, "check")
    if state.get("broken"):
        raise InvariantBroken(state["broken"]["message"], state["broken"]["game_index"],
                              state["broken"]["invariant"])
    configurations = state.setdefault("configurations", configurations)
    state.setdefault("done", [[] for _ in configurations])
    state.setdefault("seconds", [0.0 for _ in configurations])
    state.setdefault("invariants", list(get_game(options.game).invariants))
    engine = make_backend(backend, scheduler, threads, check=True)
    total = sum(c["games"] for c in configurations)
    done_games = sum(_games_done(c, d) for c, d in zip(configurations, state["done"]))
    show = progress if progress is not None else sys.stderr.isatty()
    try:
        with tqdm(total=total, initial=done_games, unit="game", unit_scale=True, disable=not show,
                  desc=f"check {options.game}", file=sys.stderr) as bar:
            for k, c in enumerate(configurations):
                parts = batch.plan_parts(0, c["games"])
                todo = [(i, f, n) for i, (f, n) in enumerate(parts) if i not in state["done"][k]]
                if not todo:
                    continue
                config = configuration(dict(c, _game=options.game))
                bar.set_postfix_str(f"{c['mode']} {c['players']}p {c['kind']}")
                started = time.perf_counter()
                try:
                    for index, _, count, *_rows in engine.play(config, todo, batch.GAMES_PER_PART):
                        state["done"][k].append(index)
                        state["seconds"][k] += time.perf_counter() - started
                        started = time.perf_counter()
                        resumable.save(out, CHECK_STATE, state)
                        bar.update(count)
                except InvariantBroken as e:
                    state["broken"] = {"configuration": k, "game_index": e.game_index,
                                       "invariant": e.invariant, "message": str(e)}
                    resumable.save(out, CHECK_STATE, state)
                    raise
    finally:
        engine.close()
    state["finished"] = True
    resumable.save(out, CHECK_STATE, state)
    return state


def _games_done(c: dict, done: list[int]) -> int:
    parts = batch.plan_parts(0, c["games"])
    return sum(parts[i][1] for i in done)


def summary(state: dict) -> str:
    """Games checked per mode and player count and kind of configuration, and what broke."""
    rows = {}
    for c, done, seconds in zip(state["configurations"], state["done"], state["seconds"]):
        key = (c["mode"], c["players"])
        games = _games_done(c, done)
        kinds = rows.setdefault(key, {})
        was = kinds.get(c["kind"], (0, 0.0))
        kinds[c["kind"]] = (was[0] + games, was[1] + seconds)
    kinds = ["default mix", "random", "drawn rules", "search player"]
    lines = [f"{state['options']['game']}: games checked, every turn's invariants "
             f"({len(state['invariants'])} of them)",
             f"{'mode':<26}{'players':>8}" + "".join(f"{k:>15}" for k in kinds) + f"{'all':>13}"]
    for (mode, players), by_kind in rows.items():
        cells = [by_kind.get(k, (0, 0.0))[0] for k in kinds]
        lines.append(f"{mode:<26}{players:>8}" + "".join(f"{n:>15,}" for n in cells)
                     + f"{sum(cells):>13,}")
    checked = sum(_games_done(c, d) for c, d in zip(state["configurations"], state["done"]))
    broken = state.get("broken")
    lines.append(f"{checked:,} games checked in all; "
                 + (f"broken: {broken['message']}" if broken else "no invariant broken"))
    return "\n".join(lines)
