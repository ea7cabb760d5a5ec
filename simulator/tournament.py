"""``playtest tournament``: every strategy in every seat against every combination of the
others (the balanced seat design), then Plackett-Luce ratings (``reports.ratings``).

The games are an ordinary run dataset in ``out/run``; with ``resume`` an interrupted
tournament finishes that run (``batch.resume``) instead of playing it again.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from reports.stats import check_confidence
from simulator import resumable, scan
from simulator.core.config import make_config
from simulator.core.errors import UsageError
from simulator.core.folders import TOURNAMENT_STARTED



@dataclass
class TournamentOptions:
    game: str
    strategies: list[str]
    players: int | None = None
    mode: str | None = None
    games: int = 20_000
    settings: dict = field(default_factory=dict)
    seed: int = 0
    confidence: float = 0.95


def tournament(o: TournamentOptions, out: str | Path, resume: bool = False,
               threads: int | None = None, progress: bool | None = None) -> Path:
    """Play the tournament into ``out/run`` and write tournament.md/.json/.png into ``out``."""
    from reports.ratings import ratings, write_tournament
    check_confidence(o.confidence)
    given = ",".join(o.strategies)
    if len(o.strategies) < 2 or len(set(o.strategies)) < len(o.strategies):
        raise UsageError(f"--strategies {given}: give at least two different strategies")
    config = make_config(o.game, o.players, o.mode, o.strategies, None, o.settings, o.seed)
    if len(o.strategies) < config.n_players:
        raise UsageError(f"--strategies {given}: {len(o.strategies)} strategies for "
                         f"{config.n_players} seats; a tournament needs at least one per seat")
    if o.games < 1:
        raise UsageError(f"--games {o.games}: must be at least 1")
    out = Path(out)
    resumable.start(out, TOURNAMENT_STARTED, asdict(o), resume, "tournament")
    run_dir = scan.ensure_run(config, o.games, out / "run", threads, "local", None, progress)
    return write_tournament(ratings(run_dir, o.confidence), out)
