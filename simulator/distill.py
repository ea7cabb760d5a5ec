"""Learnt experts: fit a fast player to the search player's decisions (expert iteration).

``distill`` records the search player's decisions in self-play (every seat searches): for each
decision it searched, every option it tried with that option's features (what the game's expert
sees of it, ``core/expert.py``), the rollouts' mean win share and margin, the option the search
took and the one its rollout policy would have. It fits the expert's weights to those decisions
with a conditional logit (McFadden's choice model: the probability of each option proportional
to exp of its weighted features, fitted within each decision, so whatever is the same for every
option of a decision drops out), by xlogit's ``MultinomialLogit``, then lets the search
roll out with the new expert and records again, while the expert grows stronger.

Then, if asked (``calibrate_games``), the chosen expert is calibrated at each table apart: the
search plays that many games there (its own weights, every seat searching, as the ladder's
strongest rung), and the expert's weights move, by CMA-ES (``cma``) from the fitted ones, until
a table of experts gives each role the win rate the search's table gave it (each seat, where
the game has no roles): the mean absolute difference is what it minimises, and the file keeps
each table's weights (``weights_by_players``; one vector for all tables came nearer at none). A
deterministic imitation takes the option the search takes most often, but the search leaves
its rollout policy's option in a fraction of decisions that no feature predicts, and those
leaves decide who wins with which role; the calibration fits the expert to what they add up to.
Its seats must still take ``STRENGTH_FLOOR`` of the wins against the heuristic the fitted expert
found hardest, at each table: each point short of it counts as a point of distance. It is
fitted to the search's games under the rules of the distillation only.

Each round is judged on games it never saw: how often the expert makes the search's choice on
held-out decisions, and its win rate against each heuristic of the game's mix at the smallest
table. The round whose expert wins most against its strongest heuristic is written (calibrated,
if asked), as a file ``run``, experiments and the API take like a tuned one (``tuned:FILE``),
with its provenance. Every round's figures and the calibration's progress are kept beside the
file (``FILE.state``), so an interrupted distillation goes on where it stopped.

Why CMA-ES for the calibration: the distance is measured on played games, so it has no
gradient and steps in small jumps as choices flip; ``cma`` searches such a function without
either, and with the same seeds it takes the same steps.

Why a conditional logit and not a ranking model (choix's Plackett-Luce): the options are
described by features, and the expert must value options it never saw; choix fits one strength
per item. Why xlogit and not statsmodels' ``ConditionalLogit``: the same fit (the same held-out
agreement, measured) on 1,535 Gremios decisions took 0.8 s against 259 s (its regularised fit)
and 539 s (Newton), as statsmodels sums over every way of choosing within a decision.
"""

from __future__ import annotations

import datetime
import json
import pickle
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from simulator import resumable
from simulator.core import batch, dataset
from simulator.core.config import TUNED_FORMAT, make_config
from simulator.core.errors import UsageError
from simulator.core.expert import (
    T_CHOSEN, T_DECISION, T_POLICY_CHOICE, TAPE_COLUMNS, expert_weight_names,
)
from simulator.core.game import Game, get_game

SEARCHER = "searcher"
CANDIDATE = "expert"
HELD_OUT_SEED_OFFSET = 1_000_003  # the held-out games of a round: a seed no recording uses
ROUND_SEED_STEP = 7_919           # each round records games of its own seed
TAPE_ROWS_PER_GAME = 20_000       # room for one game's searched options (checked, never cut)
BLOCK = 10                        # games recorded per call (the progress bar's step)
CALIBRATION_SEED_OFFSET = 2_000_029  # the calibration's tables: seeds no recording uses
CALIBRATION_BLOCK = 50            # search games played per call while calibrating (kept between)
EXPERT_TABLE_GAMES = 4_000        # games of each table of candidate experts (the same seeds for all)
MIN_SEATS = 40                    # a role either table held fewer times is left out of the distance
FIRST_STEP = 0.35                 # CMA-ES's first step, in root mean squares of the fitted weights
STRENGTH_FLOOR = 0.55             # the calibrated expert's least share of wins against its strongest rival
MATCH_TABLE_GAMES = 2_000         # games of each candidate against that rival, at each table


@dataclass
class DistillOptions:
    game: str
    players: tuple[int, ...] = ()    # default: the smallest and the largest table
    mode: str | None = None
    games: int = 200                 # recorded games a round, shared among the tables
    held_out_games: int = 40         # recorded games a round to judge the fit on
    rounds: int = 3
    match_games: int = 2000          # the expert's games against each heuristic, each round
    seed: int = 0
    settings: dict = field(default_factory=dict)
    calibrate_games: int = 0         # search games at each table the expert is calibrated to
    calibrate_steps: int = 40        # CMA-ES generations of the calibration

    def __post_init__(self):
        self.players = tuple(self.players)  # a list from the API: the same options on --resume


def check_options(o: DistillOptions) -> Game:
    game = get_game(o.game)
    if not game.strategies.expert:
        raise UsageError(f"{game.name} has no learnt expert to distill")
    for name, value in (("--games", o.games), ("--held-out-games", o.held_out_games),
                        ("--rounds", o.rounds), ("--match-games", o.match_games),
                        ("--calibrate-steps", o.calibrate_steps)):
        if value < 1:
            raise UsageError(f"{name} {value}: must be at least 1")
    if o.calibrate_games < 0:
        raise UsageError(f"--calibrate-games {o.calibrate_games}: must be 0 (no calibration) or more")
    for n in tables(o, game):
        make_config(o.game, n, o.mode, [game.strategies.search], None, o.settings, o.seed)
    return game


def tables(o: DistillOptions, game: Game) -> tuple[int, ...]:
    counts = game.modes[o.mode or game.default_mode].player_counts
    return tuple(o.players) or (min(counts), max(counts))


def searcher_weights(game: Game, values: np.ndarray | None) -> np.ndarray:
    """The search player's weights for a round: its own at first; then the expert's (its
    fallback's and the fitted values) with the search's budget and the expert as rollout policy."""
    s = game.strategies
    own = s.default_weights[s.index(s.search)].copy()
    if values is None:
        return own
    w = s.default_weights[s.index(s.expert)].copy()
    first = s.weight_names.index(expert_weight_names(s.features)[0])
    w[first:first + len(values)] = values
    k = len(w)
    w[k - 4:] = own[k - 4:]
    w[k - 2] = s.index(s.expert)  # the rollout policy
    return w


def expert_weights(game: Game, values: np.ndarray) -> np.ndarray:
    s = game.strategies
    w = s.default_weights[s.index(s.expert)].copy()
    first = s.weight_names.index(expert_weight_names(s.features)[0])
    w[first:first + len(values)] = values
    return w


def record(o: DistillOptions, game: Game, weights: np.ndarray, seed: int, n_games: int,
           bar) -> np.ndarray:
    """The tape of ``n_games`` self-play games of the search player (shared among the tables)."""
    tuned = {SEARCHER: {"label": SEARCHER, "strategy": game.strategies.search,
                        "weights": list(map(float, weights))}}
    parts = []
    counts = tables(o, game)
    decisions = 0
    for t, n in enumerate(counts):
        share = n_games * (t + 1) // len(counts) - n_games * t // len(counts)
        c = make_config(o.game, n, o.mode, [SEARCHER], None, o.settings, seed + t, tuned=tuned)
        rules = c.rules.as_record()
        for first in range(0, share, BLOCK):
            count = min(BLOCK, share - first)
            tape = c.game.play(rules, c.seed, first, count, c.setup,
                               record=(TAPE_ROWS_PER_GAME, len(game.strategies.features)))[3]
            tape[:, T_DECISION] += decisions
            if len(tape):
                decisions = int(tape[-1, T_DECISION]) + 1
            parts.append(np.column_stack([np.full(len(tape), n), tape]))
            bar.update(count)
    return np.concatenate(parts)


def fit(tape: np.ndarray, n_features: int) -> tuple[np.ndarray, dict]:
    """The expert's weights from a tape's decisions: a conditional logit of the option the
    search took on the options' features, each feature scaled to unit spread within decisions
    (and left at 0 if it never differs between the options of one decision)."""
    import xlogit
    from importlib.metadata import version
    rows = tape[:, 1:]
    x = rows[:, len(TAPE_COLUMNS):len(TAPE_COLUMNS) + n_features]
    groups = rows[:, T_DECISION].astype(np.int64)
    spread = within_spread(x, groups)
    used = identified(x, groups, spread)
    values = np.zeros(n_features)
    how = {"decisions": int(len(np.unique(groups))), "options": int(len(rows)),
           "features_used": int(used.sum()),
           "model": f"conditional logit (xlogit {version('xlogit')} MultinomialLogit, BFGS)"}
    if not used.any():
        return values, how
    # xlogit wants every decision to offer the same number of options: pad with unavailable ones
    position = np.zeros(len(groups), dtype=np.int64)
    for start, end in spans(groups):
        position[start:end] = np.arange(end - start)
    numbers = np.unique(groups, return_inverse=True)[1]
    width = int(position.max()) + 1
    where = numbers * width + position
    n = (numbers.max() + 1) * width
    padded = np.zeros((n, int(used.sum())))
    padded[where] = x[:, used] / spread[used]
    available = np.zeros(n)
    available[where] = 1.0
    chosen = np.zeros(n)
    chosen[where] = rows[:, T_CHOSEN]
    model = xlogit.MultinomialLogit()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # standard errors of collinear features: not used
        model.fit(X=padded, y=chosen, varnames=[f"f{i}" for i in range(int(used.sum()))],
                  ids=np.repeat(np.arange(n // width), width), alts=np.tile(np.arange(width), n // width),
                  avail=available, verbose=0, skip_std_errs=True)
    values[used] = np.asarray(model.coeff_) / spread[used]
    how["converged"] = bool(model.convergence)
    how["log_likelihood"] = float(model.loglikelihood)
    return values, how


def identified(x: np.ndarray, groups: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """The features a choice model can tell apart: those that differ within decisions, less any
    that is a combination of others there (kinds of action that always add up to one, say),
    found by scipy's pivoted QR of the features about their decision's means."""
    from scipy.linalg import qr
    varies = np.flatnonzero(spread > 1e-12)
    keep = np.zeros(len(spread), dtype=bool)
    if len(varies) == 0:
        return keep
    scaled = (x[:, varies] - decision_means(x[:, varies], groups)) / spread[varies]
    r, pivots = qr(scaled, mode="r", pivoting=True)
    size = np.abs(np.diag(r))
    keep[varies[pivots[size > 1e-8 * size[0]]]] = True
    return keep


def decision_means(x: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each row's decision's mean of every column (a tape keeps a decision's rows together)."""
    means = np.empty_like(x)
    for start, end in spans(groups):
        means[start:end] = x[start:end].mean(axis=0)
    return means


def within_spread(x: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each column's standard deviation about its decision's mean."""
    return np.sqrt(((x - decision_means(x, groups)) ** 2).mean(axis=0))


def agreement(tape: np.ndarray, values: np.ndarray, n_features: int) -> dict:
    """How often the expert (``values``) and the search's rollout policy take the option the
    search took, over the tape's decisions."""
    rows = tape[:, 1:]
    x = rows[:, len(TAPE_COLUMNS):len(TAPE_COLUMNS) + n_features]
    score = x @ values
    groups = rows[:, T_DECISION].astype(np.int64)
    expert_hits = policy_hits = 0
    decisions = np.unique(groups)
    for start, end in spans(groups):
        pick = start + int(np.argmax(score[start:end]))  # the first of equals, as the expert
        expert_hits += rows[pick, T_CHOSEN] == 1.0
        policy_hits += rows[start:end][rows[start:end, T_POLICY_CHOICE] == 1.0, T_CHOSEN].sum()
    n = max(1, len(decisions))
    return {"decisions": int(len(decisions)), "expert": float(expert_hits / n),
            "rollout_policy": float(policy_hits / n)}


def spans(groups: np.ndarray):
    """(start, end) of each run of equal decision numbers (a tape keeps a decision together)."""
    edges = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1], True])
    return zip(edges[:-1], edges[1:])


def match(o: DistillOptions, game: Game, values: np.ndarray, seed: int, threads) -> dict:
    """The expert's win rate against each heuristic (``Strategies.rivals``) at the smallest
    table (seats swapped by the design), with 95% intervals."""
    from scipy import stats as sps
    tuned = {CANDIDATE: {"label": CANDIDATE, "strategy": game.strategies.expert,
                         "weights": list(map(float, expert_weights(game, values)))}}
    n = min(tables(o, game))
    out = {}
    for rival in game.strategies.rivals():
        c = make_config(o.game, n, o.mode, [CANDIDATE, rival], None, o.settings, seed,
                        tuned=tuned)
        seats = batch.play_in_memory(c, o.match_games, threads=threads)
        share = seats.filter(seats["strategy"] == CANDIDATE)["win_share"].to_numpy()
        ci = sps.ttest_1samp(share, 0.0).confidence_interval(0.95)
        out[rival] = {"win_rate": float(share.mean()), "interval_95": [float(ci.low), float(ci.high)],
                      "seats": int(len(share))}
    return out


def verdict_counts(seats) -> dict[str, list[float]]:
    """{role: [wins, seats]} of a table (wins are win shares; each seat's number where the game
    has no roles): the ladder's verdicts of who wins, on a table of one strategy."""
    import polars as pl
    from reports import metrics
    if metrics.has_values(seats, "role"):
        frame, key = metrics.split_roles(seats).collect(), "role"
    else:
        frame, key = seats.with_columns(pl.col("seat").cast(pl.Utf8)), "seat"
    table = frame.group_by(key).agg(pl.col("win_share").sum(), pl.len())
    return {str(k): [float(w), int(n)] for k, w, n in table.iter_rows()}


def verdict_distance(mine: dict, theirs: dict) -> float:
    """Mean absolute difference of the win rates, in points, over what ``theirs`` held at least
    ``MIN_SEATS`` times (what ``mine`` never held counts as never won)."""
    shared = [k for k in theirs if theirs[k][1] >= MIN_SEATS]
    return 100 * float(np.mean([abs((mine[k][0] / mine[k][1] if k in mine else 0.0)
                                    - theirs[k][0] / theirs[k][1]) for k in shared]))


def calibrate(o: DistillOptions, game: Game, values: np.ndarray, rival: str, state: dict,
              save, threads, show: bool) -> dict:
    """The chosen expert's weights moved, at each table apart, until its table's verdicts come
    nearest the search's while its seats still take ``STRENGTH_FLOOR`` of the wins against
    ``rival`` (see the module's docstring): {players: its figures and values}. Kept
    in ``state["calibration"]`` as it goes, so an interruption loses at most one block of
    search games or one generation."""
    import cma
    cal = state.setdefault("calibration", {"targets": {}, "played": {}, "tables": {}})
    counts = tables(o, game)
    with tqdm(total=len(counts) * o.calibrate_games, initial=sum(cal["played"].values()),
              unit="game", desc=f"search tables of {o.game}", disable=not show) as bar:
        for n in counts:
            c = make_config(o.game, n, o.mode, [game.strategies.search], None, o.settings,
                            o.seed + CALIBRATION_SEED_OFFSET + n)
            while cal["played"].get(n, 0) < o.calibrate_games:
                first = cal["played"].get(n, 0)
                count = min(CALIBRATION_BLOCK, o.calibrate_games - first)
                got = verdict_counts(batch.play_in_memory(c, count, first, threads=threads))
                target = cal["targets"].setdefault(n, {})
                for k, (w, m) in got.items():
                    was = target.get(k, [0.0, 0])
                    target[k] = [was[0] + w, was[1] + m]
                cal["played"][n] = first + count
                bar.update(count)
                save()
    for n in counts:
        if not any(m >= MIN_SEATS for _, m in cal["targets"][n].values()):
            raise UsageError(f"--calibrate-games {o.calibrate_games}: no role was held {MIN_SEATS} "
                             f"times in the search's games at {n} players; give more games")

    free = np.flatnonzero(values != 0.0)  # what the fit left at 0 it could not tell apart
    scale = float(np.sqrt(np.mean(values[free] ** 2)))

    def judged(x, n) -> tuple[float, float]:
        """A candidate's distance from the search's verdicts at ``n`` players, and the share of
        the wins its seats take against ``rival`` (the same games for every candidate)."""
        w = values.copy()
        w[free] = np.asarray(x) * scale
        tuned = {CANDIDATE: {"label": CANDIDATE, "strategy": game.strategies.expert,
                             "weights": list(map(float, expert_weights(game, w)))}}
        c = make_config(o.game, n, o.mode, [CANDIDATE], None, o.settings,
                        o.seed + CALIBRATION_SEED_OFFSET + n + 1, tuned=tuned)
        seats = batch.play_in_memory(c, EXPERT_TABLE_GAMES, threads=threads)
        gap = verdict_distance(verdict_counts(seats), cal["targets"][n])
        c = make_config(o.game, n, o.mode, [CANDIDATE, rival], None, o.settings,
                        o.seed + CALIBRATION_SEED_OFFSET + n + 2, tuned=tuned)
        seats = batch.play_in_memory(c, MATCH_TABLE_GAMES, threads=threads)
        won = float(seats.filter(seats["strategy"] == CANDIDATE)["win_share"].sum())
        return gap, won / MATCH_TABLE_GAMES

    def distance(x, n) -> float:
        # a point of the distance for each point of share short of the floor: an expert that
        # judges like the search must still beat the heuristics
        gap, share = judged(x, n)
        return gap + 100 * max(0.0, STRENGTH_FLOOR - share)

    out = {}
    with tqdm(total=len(counts) * o.calibrate_steps,
              initial=sum(t["steps"] for t in cal["tables"].values()), unit="step",
              desc=f"calibrate {o.game}", disable=not show) as bar:
        for n in counts:
            table = cal["tables"].get(n)
            if table is None:
                table = {"steps": 0, "best": [], "fitted_distance": distance(values[free] / scale, n)}
                search = cma.CMAEvolutionStrategy(values[free] / scale, FIRST_STEP,
                                                  {"seed": (o.seed + n) % (2**31 - 1) + 1,
                                                   "verbose": -9})
                cal["tables"][n] = table
            else:
                search = pickle.loads(table["search"])
                np.random.set_state(table["random_state"])  # cma steps by numpy's global stream
            while table["steps"] < o.calibrate_steps:
                xs = search.ask()
                search.tell(xs, [distance(x, n) for x in xs])
                table["steps"] += 1
                table["best"].append(float(search.result.fbest))
                table["search"] = pickle.dumps(search)
                table["random_state"] = np.random.get_state()
                bar.update(1)
                bar.set_postfix(players=n, distance=f"{search.result.fbest:.2f}")
                save()
            kept = (np.asarray(search.result.xbest) if search.result.fbest < table["fitted_distance"]
                    else values[free] / scale)  # no step came nearer: the fit stays
            calibrated = values.copy()
            calibrated[free] = kept * scale
            fitted_gap, fitted_share = judged(values[free] / scale, n)
            gap, share = judged(kept, n)
            out[n] = {"search_games": o.calibrate_games,
                      "search_verdicts": {k: {"win_rate": w / m, "seats": m}
                                          for k, (w, m) in sorted(cal["targets"][n].items())},
                      "distance_fitted": fitted_gap, "distance_calibrated": gap,
                      "share_against": {"rival": rival, "fitted": fitted_share, "calibrated": share},
                      "values": calibrated}
    return out


def round_record(game: Game, r: dict) -> dict:
    """A round as the weights file keeps it: its figures, and its expert's weights by name (to
    play a round that was not chosen, or compare rounds)."""
    names = expert_weight_names(game.strategies.features)
    return {**{k: v for k, v in r.items() if k != "values"},
            "weights": dict(zip(names, map(float, r["values"])))}


def distill(o: DistillOptions, out: str | Path, resume: bool = False,
            progress: bool | None = None, threads: int | None = None) -> Path:
    """Distill ``o.game``'s expert and write its weights file ``out``; returns its path."""
    game = check_options(o)
    out = Path(out)
    state_path, state = resumable.beside_file(out, asdict(o), resume, "distillation")
    if state is None:
        state = {"options": asdict(o), "rounds": []}
    n_features = len(game.strategies.features)
    show = progress if progress is not None else True
    total = o.rounds * (o.games + o.held_out_games)
    done = len(state["rounds"]) * (o.games + o.held_out_games)
    with tqdm(total=total, initial=done, unit="game", desc=f"distill {o.game}",
              disable=not show) as bar:
        for k in range(len(state["rounds"]), o.rounds):
            previous = state["rounds"][-1]["values"] if state["rounds"] else None
            weights = searcher_weights(game, None if previous is None else np.array(previous))
            seed = o.seed + k * ROUND_SEED_STEP
            train = record(o, game, weights, seed, o.games, bar)
            held = record(o, game, weights, seed + HELD_OUT_SEED_OFFSET, o.held_out_games, bar)
            values, how = fit(train, n_features)
            state["rounds"].append({
                "round": k, "seed": seed, "rollout_policy": "expert" if previous else
                game.strategies.names[int(weights[-2])], "fit": how,
                "values": list(map(float, values)),
                "held_out_agreement": agreement(held, values, n_features),
                "against_heuristics": match(o, game, values, seed + HELD_OUT_SEED_OFFSET, threads)})
            bar.set_postfix(agree=f"{state['rounds'][-1]['held_out_agreement']['expert']:.2f}")
            dataset.atomic_write_bytes(state_path, pickle.dumps(state))
    best = max(state["rounds"], key=lambda r: min(v["win_rate"] for v in
                                                  r["against_heuristics"].values()))
    values = np.array(best["values"])
    calibration, by_players = None, {}
    if o.calibrate_games:
        def save():
            dataset.atomic_write_bytes(state_path, pickle.dumps(state))
        try:
            rates = best["against_heuristics"]
            rival = min(rates, key=lambda k: rates[k]["win_rate"])
            calibrated = calibrate(o, game, values, rival, state, save, threads, show)
        except UsageError:  # too few search games: this state cannot be resumed to any use
            state_path.unlink(missing_ok=True)
            raise
        seed = o.seed + CALIBRATION_SEED_OFFSET + HELD_OUT_SEED_OFFSET
        with tqdm(total=o.held_out_games, unit="game", desc=f"judge the calibrated {o.game}",
                  disable=not show) as bar:
            held = record(o, game, searcher_weights(game, None), seed, o.held_out_games, bar)
        names = game.strategies.weight_names
        calibration = {"steps": o.calibrate_steps, "expert_table_games": EXPERT_TABLE_GAMES,
                       "min_seats": MIN_SEATS, "strength_floor": STRENGTH_FLOOR,
                       "match_table_games": MATCH_TABLE_GAMES, "tables": {}}
        kept = {n: t.pop("values") for n, t in calibrated.items()}
        for n, t in calibrated.items():
            rows = held[held[:, 0] == n]
            t["held_out_agreement"] = {"calibrated": agreement(rows, kept[n], n_features),
                                       "fitted": agreement(rows, values, n_features)}
            t["weights"] = dict(zip(expert_weight_names(game.strategies.features),
                                    map(float, kept[n])))
            by_players[str(n)] = dict(zip(names, map(float, expert_weights(game, kept[n]))))
            calibration["tables"][str(n)] = t
        values = kept[min(kept)]
        calibration["against_heuristics"] = match(o, game, values, seed, threads)
    names = game.strategies.weight_names
    weights = expert_weights(game, values)
    record_ = {
        "format": TUNED_FORMAT,
        "game": o.game,
        "strategy": game.strategies.expert,
        "weights": dict(zip(names, map(float, weights))),
        "distilled": {"options": asdict(o), "tables": list(tables(o, game)),
                      "chosen_round": best["round"],
                      "rounds": [round_record(game, r) for r in state["rounds"]],
                      "calibration": calibration},
        **({"weights_by_players": by_players} if by_players else {}),
        "provenance": {"rules_version": game.rules().rules_version,
                       "package_version": batch.package_version(), "git_commit": batch.git_commit(),
                       "source_hash": batch.jitcache.source_hash(game.name),
                       "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")},
    }
    dataset.atomic_write_bytes(out, (json.dumps(record_, indent=2) + "\n").encode())
    state_path.unlink(missing_ok=True)
    return out
