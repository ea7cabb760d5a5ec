"""A run's configuration, checked in full before anything is played or written."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

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
    slot_roles: np.ndarray   # (mix entries, 2): the role(s) an entry always holds, -1 where dealt
    # a search player, or an expert that plays options out, is in the mix: the kernel seats
    # searching plans
    seats_searching_plans: bool = False


@dataclass(frozen=True)
class RunConfig:
    game: Game
    rules: RuleSet
    n_players: int
    mode: str
    strategies: tuple[str, ...]  # the mix as labelled in the data (a tuned entry: "tuned:NAME")
    weights: np.ndarray  # one row per entry of ``strategies``
    roles: tuple[str, ...]  # per seat: a role, "a+b" in two-role modes, or "any"
    seed: int
    setup: Setup = field(repr=False)
    # The options as given to make_config (JSON-able): enough to build this configuration
    # again, in a resumed run or on a cluster worker.
    request: dict = field(default_factory=dict, repr=False)
    base_strategies: tuple[str, ...] = ()  # the strategy each entry of the mix plays
    strategy_roles: dict = field(default_factory=dict)  # entry label -> role it always holds

    @property
    def fixed_roles(self) -> bool:
        return any(r != ANY_ROLE for r in self.roles) or bool(self.strategy_roles)


def make_config(game: str, players: int | None = None, mode: str | None = None,
                strategies: list[str] | tuple[str, ...] | None = None, roles=None,
                settings: dict | None = None, seed: int = 0,
                weights: dict[str, list[float]] | None = None, tuned: dict | None = None,
                strategy_roles: dict[str, str] | None = None) -> RunConfig:
    """Check every option against the game and build the configuration (raises ``UsageError``).

    A strategy is a name of the game's, or ``tuned:FILE`` (a file written by ``playtest tune``),
    or a key of ``tuned`` ({entry: {"label", "strategy", "weights"}}: a named weight vector for a
    strategy). ``strategy_roles`` gives a mix entry (by its label) a role it always holds.
    """
    tuned = {k: dict(v) for k, v in (tuned or {}).items()}
    spec = get_game(game)
    if mode is None:
        mode = spec.default_mode
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

    entries = tuple(strategies) if strategies else spec.strategies.default_mix
    if not entries:
        raise UsageError("--strategies: give at least one strategy")
    labels, bases, mix_weights = _mix(spec, entries, tuned, players)
    names = spec.strategies.weight_names
    for name, vector in (weights or {}).items():
        if name not in labels:
            spec.strategies.index(name)  # an unknown name: the usual message
            continue
        rows = np.array(labels) == name
        if isinstance(vector, dict):  # some weights by name, the others as they are
            for key, value in vector.items():
                if key not in names:
                    raise UsageError(unknown_name("weight", key, names, f"of {name}"))
                mix_weights[rows, names.index(key)] = weight_value(value, f"weights for {name}: {key}")
            continue
        if not isinstance(vector, (list, tuple, np.ndarray)):
            raise UsageError(f"weights for {name}: {vector!r} must be a list of {len(names)} "
                             f"numbers ({', '.join(names)}) or a table of weight = number")
        vector = np.array([weight_value(x, f"weights for {name}") for x in vector], dtype=np.float64)
        if vector.shape != (len(names),):
            raise UsageError(f"weights for {name}: expected {len(names)} numbers "
                             f"({', '.join(names)}), got {vector.size}")
        mix_weights[rows] = vector
    ids = np.array([spec.strategies.index(b) for b in bases], dtype=np.int64)
    request = {"game": game, "players": players, "mode": mode,
               "strategies": list(strategies) if strategies else None,
               "roles": list(roles) if roles else None,
               "settings": {k: v for k, v in (settings or {}).items()}, "seed": seed,
               "weights": {k: ({n: float(x) for n, x in v.items()} if isinstance(v, dict)
                               else [float(x) for x in v]) for k, v in (weights or {}).items()},
               "tuned": tuned, "strategy_roles": dict(strategy_roles or {})}

    rules = spec.rules().with_overrides(settings or {})
    fixed, role_names = _fixed_roles(spec, mode_spec, players, roles)
    design = seat_design(len(entries), players)
    slot_roles = _slot_roles(spec, mode_spec, labels, design, fixed, strategy_roles or {})
    searching = {spec.strategies.search} | ({spec.strategies.expert}
                                            if spec.strategies.expert_plays_out else set())
    setup = Setup(players, list(spec.modes).index(mode), fixed, design, ids, mix_weights, slot_roles,
                  any(b in searching for b in bases))
    spec.check(rules.as_record(), setup)
    return RunConfig(spec, rules, players, mode, labels, mix_weights, role_names, seed, setup,
                     request, bases, dict(strategy_roles or {}))


TUNED_PREFIX = "tuned:"
TUNED_FORMAT = "playtest-tuned-1"  # the format of the files playtest tune writes


def read_tuned(path: str, game: Game) -> dict:
    """A tuned-weights file as a mix entry: {"label", "strategy", "weights"} (checked)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except OSError as e:
        raise UsageError(f"--strategies tuned:{path}: cannot read the file ({e.strerror})") from None
    except json.JSONDecodeError:
        raise UsageError(f"--strategies tuned:{path}: not a tuned-weights file (invalid JSON)") from None
    if not isinstance(data, dict) or data.get("format") != TUNED_FORMAT:
        raise UsageError(f"--strategies tuned:{path}: not a tuned-weights file (format {TUNED_FORMAT})")
    if data.get("game") != game.name:
        raise UsageError(f"--strategies tuned:{path}: tuned for {data.get('game')}, not {game.name}")
    names = game.strategies.weight_names
    weights = data.get("weights", {})
    if not isinstance(weights, dict) or sorted(weights) != sorted(names):
        raise UsageError(f"--strategies tuned:{path}: its weights ({', '.join(map(str, weights))}) "
                         f"are not the game's ({', '.join(names)})")
    values = [weight_value(weights[n], f"--strategies tuned:{path}: weight {n}") for n in names]
    if data.get("strategy") not in game.strategies.names:
        raise UsageError(f"--strategies tuned:{path}: tunes {data.get('strategy')!r}, not one of "
                         f"{game.name}'s strategies")
    entry = {"label": f"tuned:{p.stem}", "strategy": data["strategy"], "weights": values}
    by_players = data.get("weights_by_players", {})  # a distilled expert calibrated per table
    for players, table in by_players.items():
        if not isinstance(table, dict) or sorted(table) != sorted(names):
            raise UsageError(f"--strategies tuned:{path}: its weights at {players} players are not "
                             f"the game's ({', '.join(names)})")
        entry.setdefault("by_players", {})[str(players)] = [
            weight_value(table[n], f"--strategies tuned:{path}: weight {n} at {players} players")
            for n in names]
    return entry


def weight_value(value, where: str) -> float:
    """A strategy's weight from a file or the API, or a one-line error naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise UsageError(f"{where} = {value!r} is not a number")
    return float(value)


def _mix(spec: Game, entries, tuned: dict, players: int):
    """Labels, base strategies and weight rows of the mix's entries at a table of ``players``
    (``tuned`` is filled in with every tuned file read, so the request rebuilds the mix without
    the files)."""
    labels, bases, rows = [], [], []
    for entry in entries:
        if entry.startswith(TUNED_PREFIX) and entry not in tuned:
            tuned[entry] = read_tuned(entry[len(TUNED_PREFIX):], spec)
        if entry in tuned:
            t = tuned[entry]
            spec.strategies.index(t["strategy"])
            vector = np.asarray(t.get("by_players", {}).get(str(players), t["weights"]),
                                dtype=np.float64)
            if vector.shape != (len(spec.strategies.weight_names),):
                raise UsageError(f"--strategies {entry}: expected "
                                 f"{len(spec.strategies.weight_names)} weights, got {vector.size}")
            labels.append(t.get("label", entry))
            bases.append(t["strategy"])
            rows.append(vector)
        else:
            index = spec.strategies.index(entry)
            labels.append(entry)
            bases.append(entry)
            rows.append(spec.strategies.default_row(entry, players))
    return tuple(labels), tuple(bases), np.array(rows, dtype=np.float64)


def _slot_roles(spec: Game, mode, labels, design, fixed, strategy_roles: dict) -> np.ndarray:
    """The role-id table of mix entries that always hold a role (``strategy_roles``)."""
    slots = np.full((len(labels), 2), -1, dtype=np.int64)
    if not strategy_roles:
        return slots
    if not spec.roles:
        raise UsageError(f"--role: {spec.name} has no roles")
    if mode.roles_per_seat != 1:
        raise UsageError("--role: a strategy can hold a fixed role only in a one-role mode")
    for label, role in strategy_roles.items():
        if label not in labels:
            raise UsageError(unknown_name("strategy", label, labels, "in the mix"))
        if role not in spec.roles:
            raise UsageError(unknown_name("role", role, spec.roles, f"of {spec.name}"))
        if (fixed == spec.roles.index(role)).any():
            raise UsageError(f"--role {role}: also given to a seat by --roles; each role card exists once")
        for slot, name in enumerate(labels):
            if name == label:
                slots[slot, 0] = spec.roles.index(role)
    if len(set(strategy_roles.values())) < len(strategy_roles):
        raise UsageError("--role: one role given to two strategies; each role card exists once")
    held = slots[design, 0]  # the role each seat's entry holds, in every arrangement
    held = np.sort(np.where(held >= 0, held, -1 - np.arange(design.shape[1])), axis=1)
    if (np.diff(held, axis=1) == 0).any():
        raise UsageError("--role: a strategy holding a fixed role would sit twice at one table; "
                         "give the mix at least as many entries as seats")
    return slots


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
