"""What every game gives the engine, and the registry of games.

A game's package builds one ``Game`` in ``simulator/games/<name>/spec.py``: its player counts
and modes, roles, strategies, rule data, the batch kernel and the replay. Everything generic
(validating a configuration, seating strategies, chunking, writing Parquet, the CLI) is written
once against this contract.
"""

from __future__ import annotations

import importlib
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numba
import numpy as np

from simulator.core.errors import InvariantBroken, UsageError
from simulator.core.expert import SHIPPED, joined_tapes, new_tape
from simulator.core.jitcache import first_compile_notice
from simulator.core.ruledata import RuleSet, load_rules, unknown_name
from simulator.core.trace import broken_in, empty_log, new_log, tally_log

GAME_NAMES = ("gremios", "grimoire", "gemmis", "gnomeland", "elgrande")


@dataclass(frozen=True)
class Mode:
    name: str
    description: str
    player_counts: tuple[int, ...]
    roles_per_seat: int = 1


def shipped_expert_by_players(game: str, weight_names: tuple[str, ...]) -> dict:
    """The shipped expert's weights at the player counts it was calibrated at, a full row each
    ({"4": row}: its file's ``weights_by_players``, written by ``playtest distill``)."""
    path = SHIPPED / f"{game}.json"
    if not path.exists():
        return {}
    tables = json.loads(path.read_text()).get("weights_by_players", {})
    return {players: np.array([float(weights[n]) for n in weight_names])
            for players, weights in tables.items()}


@dataclass(frozen=True)
class Strategies:
    """A game's scripted players: names, one line each, and their default weight vectors."""

    names: tuple[str, ...]
    descriptions: tuple[str, ...]
    weight_names: tuple[str, ...]
    default_weights: np.ndarray  # one row per strategy
    default_mix: tuple[str, ...]
    # What ``playtest tune`` may change: the strategies whose weights are worth tuning (not
    # random) and the weights it tunes (not the noise, nor a search's budget).
    tunable: tuple[str, ...] = ()
    tuned_weights: tuple[str, ...] = ()
    # The game's search player (its weights end with core/search.py's SEARCH_WEIGHTS), if any.
    search: str | None = None
    # The game's learnt expert (core/expert.py), if any, and the option features it weighs.
    expert: str | None = None
    features: tuple[str, ...] = ()
    # Whether the expert's features play options out (core/search.py's played_out): a run that
    # seats it then seats searching plans, as for the search player.
    expert_plays_out: bool = False
    # The hand-written players an expert is matched against (``playtest distill``), where the
    # default mix is not them.
    heuristics: tuple[str, ...] = ()
    # The expert's weights at the player counts it was calibrated at ({"4": a full row}, from
    # its file's "weights_by_players"); ``default_weights`` serves every other count.
    expert_by_players: dict = field(default_factory=dict)

    def default_row(self, name: str, players: int) -> np.ndarray:
        """``name``'s default weights at a table of ``players``."""
        if name == self.expert and str(players) in self.expert_by_players:
            return self.expert_by_players[str(players)]
        return self.default_weights[self.index(name)]

    def rivals(self) -> tuple[str, ...]:
        """The heuristics an expert is matched against: ``heuristics``, else the default mix."""
        return self.heuristics or self.default_mix

    def index(self, name: str) -> int:
        if name not in self.names:
            raise UsageError(unknown_name("strategy", name, self.names))
        return self.names.index(name)


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    modes: dict[str, Mode]
    roles: tuple[str, ...]
    strategies: Strategies
    rules_path: Path
    # play(rules, run_seed, first_game, n_games, setup, check=False) -> (seat rows, game rows)
    # as int64 arrays, and how often each rule of ``rules_that_come_up`` came up in those games;
    # with ``check`` the invariants are checked after every turn (InvariantBroken at the first
    # game that breaks one)
    play: Callable
    # replay(rules, run_seed, game_index, setup) -> (list of event dicts, the game's seat rows)
    replay: Callable
    # seat_columns(seat rows, strategy names) -> {column: array} (strategy, role, score, rank,
    # winner first, then the game's own columns); game_columns(game rows) -> {column: array}
    seat_columns: Callable
    game_columns: Callable
    # check(rules, setup): raise UsageError for a combination the kernel cannot play
    check: Callable = lambda rules, setup: None
    max_players: int = 4
    # What the report should read from the game's own columns: "point_sources" (seat columns
    # summing to the score), "coin_sources" (seat columns of gains by source; "resource_unit"
    # names what is gained, default coins), "game_counts" (games columns worth charting) and,
    # where roles are chosen from a deal, "role_not_chosen" (the column holding the other card).
    report_columns: dict = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def rules_that_come_up(self) -> tuple[str, ...]:
        """The parameters whose coming up a run counts: the game's ``codes.RULES_THAT_COME_UP``."""
        return importlib.import_module(f"simulator.games.{self.name}.codes").RULES_THAT_COME_UP

    @property
    def invariants(self) -> tuple[str, ...]:
        """What must hold after every turn of a checked run, one sentence each (``{a}`` and
        ``{b}`` the two numbers a broken one is noted with): the game's
        ``invariants.INVARIANTS``, checked by its compiled ``invariants.check``."""
        return importlib.import_module(f"simulator.games.{self.name}.invariants").INVARIANTS

    @property
    def default_mode(self) -> str:
        """The mode played when none is given: the first of ``modes``."""
        return next(iter(self.modes))

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted({n for m in self.modes.values() for n in m.player_counts}))

    def rules(self) -> RuleSet:
        return load_rules(self.rules_path, self.name)


def search_marker(setup):
    """The last argument of every kernel: None seats heuristic plans; the searching marker
    (``core/search.py``) seats searching plans, for a mix holding a search player."""
    from simulator.core.search import SEARCHING
    return SEARCHING if setup.seats_searching_plans else None


def kernel_calls(setup):
    """How a game's batch kernel is called for ``setup``: (marker, warm_up) pairs, in order.

    numba treats a function re-entered while it is being compiled, with other argument types, as
    a recursion, and a recursion's compiled code cannot be cached (it is left with an unresolved
    symbol that breaks the next process). The rollouts of a search play the heuristic game loop
    from inside the searching one, so that loop is compiled first: a warm-up call on no games
    with heuristic plans precedes the searching call. (A replay warms up the same way, through
    the batch kernel on no games.)
    """
    if setup.seats_searching_plans:
        return [(None, True), (search_marker(setup), False)]
    return [(None, False)]


BLOCKS_PER_THREAD = 4  # a thread that draws short games takes another block


def in_blocks(n_games: int, play_block: Callable) -> None:
    """``play_block(start, count)`` over ``0 .. n_games - 1`` in contiguous blocks, on numba's
    thread count of threads at once (the kernels release the GIL). A game's rows depend only
    on its index, so the split changes nothing in them."""
    threads = numba.get_num_threads()
    n_blocks = min(n_games, threads * BLOCKS_PER_THREAD) if threads > 1 else 1
    if n_blocks <= 1:
        play_block(0, n_games)
        return
    bounds = [n_games * k // n_blocks for k in range(n_blocks + 1)]
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="playtest-block") as pool:
        for done in [pool.submit(play_block, a, b - a) for a, b in zip(bounds, bounds[1:])]:
            done.result()


def kernel_entry_points(kernel, setup_fields: tuple[str, ...], tell: Callable, log_rows: int,
                        before_search: Callable | None = None,
                        first_compile_s: tuple[float, float] | None = None):
    """A game's ``play`` and ``replay`` over its compiled kernel, the same for every game.

    ``kernel.play_games(rules, seed, first_game, n_games, n_players, seatings, mix_ids,
    mix_weights, own, seats, games, log, marker)`` plays a block of games (the core's loop,
    ``core/kernel.py``), where ``own`` is the tuple of the setup's ``setup_fields``: the fields
    only this game's setup reads, in its order; a replay is a block of one game with a log (one
    compiled loop for both).
    ``tell(log, rules)`` turns a replay's log into its story; a batch's log is a tally of the
    rules that came up (``core/trace.py``), one per block, summed; the output arrays hold
    the columns ``kernel.SEAT`` declares a seat and ``kernel.GAME`` a game (``core/columns.py``);
    ``before_search(rules, setup)`` prepares a mix holding a search player.
    ``first_compile_s`` is how long the heuristic and the searching loop take to compile from an
    empty cache (``playtest bench --compile``), said while a first run waits for them.
    """
    game = kernel.__name__.split(".")[-2]
    n_rules = len(importlib.import_module(f"simulator.games.{game}.codes").RULES_THAT_COME_UP)

    def make_outputs(n_games, n_players):
        return (np.zeros((n_games * n_players, len(kernel.SEAT)), dtype=np.int64),
                np.zeros((n_games, len(kernel.GAME)), dtype=np.int64))

    def play_block(rules, run_seed, first_game, n_games, setup, seats, games, log, marker):
        own = tuple(getattr(setup, name) for name in setup_fields)
        kernel.play_games(rules, np.uint64(run_seed), first_game, n_games, setup.n_players,
                          setup.seatings, setup.mix_ids, setup.mix_weights, own, seats, games,
                          log, marker)

    def play(rules, run_seed, first_game, n_games, setup, check=False, record=None):
        """Rows of the games, and the rules that came up; with ``record`` = (tape rows per
        game, option features), the search player's decisions too (``core/expert.py``), as a
        fourth member: their rows in game order."""
        n_players = setup.n_players
        seats, games = make_outputs(n_games, n_players)
        tallies = []  # one per block: a block's games are played in turn on one thread
        tapes = {}    # a recording search's tape per block, by its first game
        if setup.seats_searching_plans and before_search is not None:
            before_search(rules, setup)
        for marker, warm_up in kernel_calls(setup):
            searching = marker is not None
            what = f"{game}'s search player" if searching else game
            seconds = first_compile_s[searching] if first_compile_s else None
            with first_compile_notice(game, what, seconds):
                if warm_up:
                    play_block(rules, run_seed, first_game, 0, setup, seats, games, empty_log(),
                               marker)
                else:
                    def block(start, count):
                        tally = tally_log(n_rules, check)
                        tallies.append(tally)
                        if record is not None and searching:
                            tapes[start] = new_tape(record[0] * count, record[1])
                        play_block(rules, run_seed, first_game + start, count, setup,
                                   seats[start * n_players:(start + count) * n_players],
                                   games[start:start + count], tally, tapes.get(start, marker))
                    in_blocks(n_games, block)
        broken = sorted(b for b in map(broken_in, tallies) if b is not None)
        if broken:
            game_index, invariant, a, b = broken[0]
            description = get_game(game).invariants[invariant].format(a=a, b=b)
            raise InvariantBroken(f"{game}: game {game_index} of seed {run_seed} broke an "
                                  f"invariant: {description}", game_index, description)
        came_up = sum((t[0, :n_rules] for t in tallies), np.zeros(n_rules, dtype=np.int64))
        if record is None:
            return seats, games, came_up
        return seats, games, came_up, joined_tapes([tapes[k] for k in sorted(tapes)], record[1])

    def replay(rules, run_seed, game_index, setup):
        if setup.seats_searching_plans:
            play(rules, run_seed, 0, 0, setup)  # both loops compiled, the heuristic one first
        log = new_log(log_rows)
        seats, games = make_outputs(1, setup.n_players)
        with first_compile_notice(game, game, first_compile_s[0] if first_compile_s else None):
            play_block(rules, run_seed, game_index, 1, setup, seats, games, log,
                       search_marker(setup))
        return tell(log, rules), seats

    return play, replay


def get_game(name: str) -> Game:
    if name not in GAME_NAMES:
        raise UsageError(unknown_name("game", name, GAME_NAMES))
    return importlib.import_module(f"simulator.games.{name}.spec").GAME
