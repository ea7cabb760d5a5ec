"""``playtest ladder``: one configuration's verdicts under player sets of increasing strength.

A rung is a named player set, as ``[players.NAME]`` of an experiment file: a name, a
description, its strategies and weights. The default ladder is ``random``, the game's heuristic
mix, the tuned experts (``--tuned FILE``, if given), the learnt expert (``playtest distill``) and
the search player at two budgets (every seat searching). Each rung is an ordinary run in ``out/runs/NAME``; one more run,
``out/runs/match``, seats every player of every rung against every other in every seat (the
balanced seat design) to rate the rungs on one scale (``reports/ladder.py``). What was asked is
written first (``ladder-started.json``), so ``--resume`` keeps the finished runs, finishes an
unfinished one and plays the rest: the same bytes as an uninterrupted ladder.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from reports.stats import check_confidence
from simulator import resumable, scan
from simulator.core.config import RunConfig, make_config
from simulator.core.errors import UsageError
from simulator.core.folders import LADDER_STARTED
from simulator.core.game import get_game
from simulator.core.search import SEARCH_WEIGHTS

RUNS = "runs"
MATCH = "match"
SMALL_BUDGET = 4  # the smaller search rung plays with a quarter of the default rollouts


@dataclass
class Rung:
    """A named player set: ``strategies`` (None: the game's default mix) with ``weights``
    ({strategy: {weight: value}}), played for ``games`` games."""

    name: str
    description: str
    strategies: list[str] | None
    weights: dict
    games: int


@dataclass
class LadderOptions:
    game: str
    players: int | None = None
    mode: str | None = None
    games: int = 10_000
    search_games: int = 200
    match_games: int = 1000
    rollouts: list[int] = field(default_factory=list)  # the two search budgets (default: 1/4, 1)
    rollout_turns: int | None = None  # the search rungs' rollout depth (default: the game's)
    tuned: list[str] = field(default_factory=list)
    real: str | None = None
    settings: dict = field(default_factory=dict)
    seed: int = 0
    confidence: float = 0.95


def rungs(o: LadderOptions) -> list[Rung]:
    """The ladder, weakest first (raises ``UsageError`` for options the game cannot play)."""
    spec = get_game(o.game)
    for name, value, low in (("--games", o.games, 1), ("--search-games", o.search_games, 1),
                             ("--match-games", o.match_games, 1)):
        if value < low:
            raise UsageError(f"{name} {value}: must be at least {low}")
    ladder = [Rung("random", "every seat plays random", ["random"], {}, o.games),
              Rung("heuristics", "the game's default mix of heuristics", None, {}, o.games)]
    if o.tuned:
        files = ", ".join(Path(f).name for f in o.tuned)
        ladder.append(Rung("tuned", f"the tuned experts ({files})",
                           [f"tuned:{f}" for f in o.tuned], {}, o.games))
    if spec.strategies.expert:
        ladder.append(Rung("expert", f"the learnt expert in every seat "
                           f"(strategies/experts/{spec.name}.json)", [spec.strategies.expert], {},
                           o.games))
    search = spec.strategies.search
    if search is None:
        if o.rollouts or o.rollout_turns is not None:
            raise UsageError(f"--rollouts: {spec.name} has no search player")
        return ladder
    names = spec.strategies.weight_names
    default = spec.strategies.default_weights[spec.strategies.index(search)]
    budget = int(default[names.index(SEARCH_WEIGHTS[0])])
    budgets = o.rollouts or [max(1, budget // SMALL_BUDGET), budget]
    if len(budgets) != 2 or budgets[0] >= budgets[1] or budgets[0] < 1:
        raise UsageError(f"--rollouts {','.join(map(str, budgets))}: give two budgets, the "
                         "smaller first, each at least 1 rollout per option")
    if o.rollout_turns is not None and o.rollout_turns < 0:
        raise UsageError(f"--rollout-turns {o.rollout_turns}: must be 0 (the whole game) or more")
    for rollouts in budgets:
        weights = {SEARCH_WEIGHTS[0]: rollouts}
        if o.rollout_turns is not None:
            weights[SEARCH_WEIGHTS[1]] = o.rollout_turns
        plural = "s" if rollouts > 1 else ""
        ladder.append(Rung(f"{search}-{rollouts}", f"{search} in every seat, {rollouts} "
                           f"rollout{plural} per option", [search], {search: weights},
                           o.search_games))
    return ladder


def expert_rung(ladder: list[Rung]) -> int:
    """The rung from which verdicts should hold: the learnt expert, else the tuned experts,
    else the heuristic mix."""
    names = [r.name for r in ladder]
    for name in ("expert", "tuned", "heuristics"):
        if name in names:
            return names.index(name)


def rung_config(o: LadderOptions, rung: Rung) -> RunConfig:
    return make_config(o.game, o.players, o.mode, rung.strategies, None, o.settings, o.seed,
                       rung.weights)


def match_config(o: LadderOptions, configs: list[RunConfig], ladder: list[Rung]) -> RunConfig:
    """Every player of every rung as one entry of a mix (labelled ``RUNG/STRATEGY``), so the
    seat design seats each against every other in every seat."""
    entries = {}
    for rung, config in zip(ladder, configs):
        for label, base, weights in zip(config.strategies, config.base_strategies, config.weights):
            entries[f"{rung.name}/{label}"] = {"label": f"{rung.name}/{label}", "strategy": base,
                                               "weights": [float(x) for x in weights]}
    return make_config(o.game, o.players, o.mode, list(entries), None, o.settings, o.seed,
                       tuned=entries)


def ladder(o: LadderOptions, out: str | Path, resume: bool = False, threads: int | None = None,
           backend: str = "local", scheduler: str | None = None, progress: bool | None = None,
           on_rung=None) -> Path:
    """Play every rung and the match into ``out/runs`` and write the report in ``out/report``."""
    from reports.ladder import build_ladder_report, read_real
    check_confidence(o.confidence)
    ladder_rungs = rungs(o)
    configs = [rung_config(o, r) for r in ladder_rungs]  # every option checked before writing
    match = match_config(o, configs, ladder_rungs)
    real = read_real(o.real, configs[0]) if o.real else None
    out = Path(out)
    # the real games and the confidence only change the report, so --resume may change them
    asked = {k: v for k, v in asdict(o).items() if k not in ("real", "confidence")}
    resumable.start(out, LADDER_STARTED, asked, resume, "ladder")
    folders = []
    for rung, config in zip(ladder_rungs, configs):
        folders.append(scan.ensure_run(config, rung.games, out / RUNS / rung.name, threads,
                                       backend, scheduler, progress))
        if on_rung is not None:
            on_rung(rung.name)
    match_dir = scan.ensure_run(match, o.match_games, out / RUNS / MATCH, threads, backend,
                                scheduler, progress)
    if on_rung is not None:
        on_rung(MATCH)
    return build_ladder_report(ladder_rungs, folders, match_dir, expert_rung(ladder_rungs),
                               out / "report", o.confidence, real, o.real)
