"""Tuned players: evolve a heuristic's weight vector against a table, with CMA-ES.

``tune`` searches the weights of one strategy (its "candidate") with the ``cma`` package's
CMA-ES: each generation's candidates play the same games (one seed per generation: common
random numbers), seated by the usual balanced design among the table's strategies, and are
judged by their win share per seat (optionally holding a fixed role: the best response of a
player with that role). The result is a small JSON file that ``run``, ``experiment`` and the
Python API accept as a strategy (``tuned:FILE``), with its provenance and the win rate of the
untuned and the tuned weights on held-out games (a seed the search never used), compared on
common random numbers.

A tuning keeps its optimiser's state in ``FILE.state`` after every generation, so an
interrupted one goes on from where it stopped (``resume=True``).
"""

from __future__ import annotations

import datetime
import json
import pickle
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from simulator import resumable
from simulator.core import batch, dataset
from simulator.core.config import TUNED_FORMAT, make_config
from simulator.core.errors import UsageError
from simulator.core.game import Game, get_game

CANDIDATE = "candidate"
HELD_OUT_SEED_OFFSET = 1_000_003  # held-out games: a seed no generation uses
SIGMA0 = 0.3                      # initial step, in units of each weight's scale


@dataclass
class TuneOptions:
    game: str
    strategy: str
    players: int | None = None
    mode: str | None = None          # default: the game's first mode
    role: str | None = None
    table: list[str] | None = None   # the opponents' mix (default: the game's)
    games: int = 2000                # per candidate
    budget: int = 120                # candidate evaluations
    held_out_games: int = 20_000
    seed: int = 0
    settings: dict = field(default_factory=dict)
    popsize: int | None = None       # default: cma's, 4 + 3 ln(dimension)


def _config(o: TuneOptions, weights: np.ndarray, seed: int):
    tuned = {CANDIDATE: {"label": CANDIDATE, "strategy": o.strategy, "weights": list(map(float, weights))}}
    game = get_game(o.game)
    table = o.table or list(game.strategies.default_mix)
    return make_config(o.game, o.players, o.mode, [CANDIDATE] + table, None, o.settings, seed,
                       tuned=tuned, strategy_roles={CANDIDATE: o.role} if o.role else None)


def _candidate_rate(seats) -> tuple[float, int]:
    """Mean win share of the candidate's seats (its win rate) and how many seats it played."""
    mine = seats.filter(seats["strategy"] == CANDIDATE)["win_share"]
    return float(mine.mean()), len(mine)


def check_options(o: TuneOptions) -> Game:
    game = get_game(o.game)
    if o.strategy not in game.strategies.tunable:
        raise UsageError(f"--strategy {o.strategy}: not a tunable strategy of {game.name}; allowed: "
                         f"{', '.join(game.strategies.tunable)}")
    for name, value in (("--games", o.games), ("--budget", o.budget),
                        ("--held-out-games", o.held_out_games)):
        if value < 1:
            raise UsageError(f"{name} {value}: must be at least 1")
    if o.popsize is not None and o.popsize < 2:
        raise UsageError(f"--popsize {o.popsize}: must be at least 2")
    _config(o, game.strategies.default_weights[game.strategies.index(o.strategy)], o.seed)
    return game


def tune(o: TuneOptions, out: str | Path, resume: bool = False, progress: bool | None = None,
         threads: int | None = None) -> Path:
    """Tune ``o.strategy`` and write the tuned-weights file ``out``; returns its path."""
    import cma
    game = check_options(o)
    out = Path(out)
    names = game.strategies.weight_names
    start = game.strategies.default_weights[game.strategies.index(o.strategy)].astype(float)
    free = [i for i, n in enumerate(names) if n in game.strategies.tuned_weights]
    scale = np.maximum(np.abs(start[free]), 1.0)

    def weights_of(x):
        w = start.copy()
        w[free] = np.asarray(x) * scale
        return w

    state_path, state = resumable.beside_file(out, asdict(o), resume, "tuning")
    if state is not None:
        es, history = state["es"], state["history"]
    else:
        opts = {"seed": o.seed % (2**32 - 1) + 1, "verbose": -9, "maxfevals": o.budget}
        if o.popsize:
            opts["popsize"] = o.popsize
        es = cma.CMAEvolutionStrategy(list(start[free] / scale), SIGMA0, opts)
        history = []  # (generation, best rate of the generation, its weights)
    show = progress if progress is not None else True
    with tqdm(total=o.budget, initial=min(o.budget, es.countevals), unit="candidate",
              desc=f"tune {o.game} {o.strategy}", disable=not show) as bar:
        while es.countevals < o.budget:
            generation = es.countiter
            candidates = es.ask()
            seed = o.seed + generation  # every candidate of a generation plays the same games
            rates = []
            for x in candidates:
                seats = batch.play_in_memory(_config(o, weights_of(x), seed), o.games, threads=threads)
                rates.append(_candidate_rate(seats)[0])
                bar.update(1)
            es.tell(candidates, [-r for r in rates])
            best = int(np.argmax(rates))
            history.append([generation, rates[best], list(map(float, weights_of(candidates[best])))])
            bar.set_postfix(best=f"{max(h[1] for h in history):.3f}")
            dataset.atomic_write_bytes(state_path, pickle.dumps(
                {"options": asdict(o), "es": es, "history": history}))
    tuned = weights_of(es.result.xfavorite)  # the distribution's mean: less noisy than the best draw
    result = _held_out(o, start, tuned, threads)
    against = _config(o, start, o.seed)
    record = {
        "format": TUNED_FORMAT,
        "game": o.game,
        "strategy": o.strategy,
        "weights": dict(zip(names, map(float, tuned))),
        "untuned_weights": dict(zip(names, map(float, start))),
        "against": {"players": against.n_players, "mode": against.mode, "role": o.role,
                    "table": o.table or list(game.strategies.default_mix),
                    "settings": o.settings},
        "search": {"optimiser": "CMA-ES (cma)", "cma_version": cma.__version__,
                   "games_per_candidate": o.games, "budget": o.budget,
                   "evaluations": int(es.countevals), "generations": int(es.countiter),
                   "popsize": int(es.popsize), "sigma0": SIGMA0, "seeds": [o.seed, o.seed + es.countiter - 1],
                   "tuned": [names[i] for i in free],
                   "best_by_generation": [[g, round(r, 4)] for g, r, _ in history]},
        "held_out": result,
        "provenance": {"rules_version": game.rules().rules_version,
                       "package_version": batch.package_version(), "git_commit": batch.git_commit(),
                       "source_hash": batch.jitcache.source_hash(game.name),
                       "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")},
    }
    dataset.atomic_write_bytes(out, (json.dumps(record, indent=2) + "\n").encode())
    state_path.unlink(missing_ok=True)
    return out


def _held_out(o: TuneOptions, before: np.ndarray, after: np.ndarray, threads) -> dict:
    """Untuned and tuned weights on the same held-out games: rates and the paired difference."""
    from scipy import stats as sps
    seed = o.seed + HELD_OUT_SEED_OFFSET
    rows = {}
    for name, w in (("before", before), ("after", after)):
        seats = batch.play_in_memory(_config(o, w, seed), o.held_out_games, threads=threads)
        rows[name] = seats.filter(seats["strategy"] == CANDIDATE).select("game_id", "seat", "win_share")
    paired = rows["before"].join(rows["after"], on=["game_id", "seat"], suffix="_after")
    diff = (paired["win_share_after"] - paired["win_share"]).to_numpy()
    out = {"seed": seed, "games": o.held_out_games, "seats": len(diff)}
    for name in ("before", "after"):
        share = rows[name]["win_share"].to_numpy()
        ci = sps.ttest_1samp(share, 0.0).confidence_interval(0.95)
        out[name] = {"win_rate": float(share.mean()), "interval_95": [float(ci.low), float(ci.high)]}
    ci = sps.ttest_1samp(diff, 0.0).confidence_interval(0.95)
    out["difference"] = {"mean": float(diff.mean()), "interval_95": [float(ci.low), float(ci.high)],
                         "method": "paired t interval over the candidate's seats (same games)"}
    return out
