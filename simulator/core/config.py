"""A run's configuration, checked in full before anything is played or written."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simulator.core.errors import UsageError
from simulator.core.game import Game, get_game
from simulator.core.ruledata import RuleSet, unknown_name
from simulator.core.seating import seat_design

ANY_ROLE = "any"


@dataclass(frozen=True)
class Setup:
    """What a game's kernel needs besides the rule numbers: players, mode, roles, strategies."""

    n_players: int
    mode: int
    fixed_roles: np.ndarray  # (max players, roles per seat), -1 where dealt
    seatings: np.ndarray     # the seat design: one row of mix slots per arrangement (seating.py)
    mix_ids: np.ndarray      # strategy id of each entry of the mix
    mix_weights: np.ndarray  # their weight vectors


@dataclass(frozen=True)
class RunConfig:
    game: Game
    rules: RuleSet
    n_players: int
    mode: str
    strategies: tuple[str, ...]
    weights: np.ndarray  # one row per entry of ``strategies``
    roles: tuple[str, ...]  # per seat: a role, "a+b" in two-role modes, or "any"
    seed: int
    setup: Setup = field(repr=False)
    # The options as given to make_config (JSON-able): enough to build this configuration
    # again, in a resumed run or on a cluster worker.
    request: dict = field(default_factory=dict, repr=False)

    @property
    def fixed_roles(self) -> bool:
        return any(r != ANY_ROLE for r in self.roles)


def make_config(game: str, players: int | None = None, mode: str = "standard",
                strategies: list[str] | tuple[str, ...] | None = None, roles=None,
                settings: dict | None = None, seed: int = 0,
                weights: dict[str, list[float]] | None = None) -> RunConfig:
    """Check every option against the game and build the configuration (raises ``UsageError``)."""
    request = {"game": game, "players": players, "mode": mode,
               "strategies": list(strategies) if strategies else None,
               "roles": list(roles) if roles else None,
               "settings": {k: v for k, v in (settings or {}).items()}, "seed": seed,
               "weights": {k: [float(x) for x in v] for k, v in (weights or {}).items()}}
    spec = get_game(game)
    if mode not in spec.modes:
        raise UsageError(unknown_name("mode", mode, spec.modes, f"of {spec.name}"))
    mode_spec = spec.modes[mode]
    if players is None:
        players = max(mode_spec.player_counts)
    if players not in mode_spec.player_counts:
        allowed = ", ".join(map(str, mode_spec.player_counts))
        raise UsageError(f"--players {players}: {spec.name} ({mode}) is played by {allowed} players")
    if not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise UsageError(f"--seed {seed}: the seed must be an integer from 0 to 2^63-1")

    names = tuple(strategies) if strategies else spec.strategies.default_mix
    if not names:
        raise UsageError("--strategies: give at least one strategy")
    ids = np.array([spec.strategies.index(n) for n in names], dtype=np.int64)
    mix_weights = spec.strategies.default_weights[ids].astype(np.float64)
    for name, vector in (weights or {}).items():
        index = spec.strategies.index(name)
        vector = np.asarray(vector, dtype=np.float64)
        if vector.shape != (len(spec.strategies.weight_names),):
            raise UsageError(f"weights for {name}: expected {len(spec.strategies.weight_names)} numbers "
                             f"({', '.join(spec.strategies.weight_names)}), got {vector.size}")
        mix_weights[ids == index] = vector

    rules = spec.rules().with_overrides(settings or {})
    fixed, role_names = _fixed_roles(spec, mode_spec, players, roles)
    setup = Setup(players, list(spec.modes).index(mode), fixed, seat_design(len(names), players), ids,
                  mix_weights)
    spec.check(rules.as_record(), setup)
    return RunConfig(spec, rules, players, mode, names, mix_weights, role_names, seed, setup, request)


def _fixed_roles(spec: Game, mode, players: int, roles):
    """Parse ``--roles`` (one per seat, "any" to deal) into the kernel's role-id table."""
    per_seat = mode.roles_per_seat
    fixed = np.full((spec.max_players, 2), -1, dtype=np.int64)
    if roles is None or len(roles) == 0:
        return fixed, (ANY_ROLE,) * players
    roles = tuple(roles)
    if not spec.roles:
        raise UsageError(f"--roles: {spec.name} has no roles")
    if len(roles) != players:
        raise UsageError(f"--roles {','.join(roles)}: give one entry per seat ({players}), "
                         f"'{ANY_ROLE}' for a dealt role")
    used = set()
    for seat, entry in enumerate(roles):
        if entry == ANY_ROLE:
            continue
        parts = entry.split("+")
        if len(parts) != per_seat:
            shape = "ROLE" if per_seat == 1 else "+".join(["ROLE"] * per_seat)
            raise UsageError(f"--roles {entry}: each seat takes {shape} in this mode, or '{ANY_ROLE}'")
        for k, role in enumerate(parts):
            if role not in spec.roles:
                raise UsageError(unknown_name("role", role, spec.roles, f"of {spec.name}"))
            if role in used:
                raise UsageError(f"--roles: {role} is given to two seats; each role card exists once")
            used.add(role)
            fixed[seat, k] = spec.roles.index(role)
    return fixed, roles
