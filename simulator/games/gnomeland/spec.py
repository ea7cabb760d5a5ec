"""Gnomeland for the engine: modes, strategies, and the kernel calls (see ``core/game.py``).

The rules are in ``turn.py`` (rulebook order), the table in ``board.py``, the numbers in
``rules.toml``, the replay story in ``story.py`` and the batch kernel in ``kernel.py``.
Gnomeland has no roles: every Village board is the same, so ``role`` is null.
"""

from pathlib import Path

import numpy as np

from simulator.core.dataset import roleless_seat_columns

from simulator.core.errors import UsageError
from simulator.core.game import (
    Game, Mode, Strategies, kernel_entry_points, shipped_expert_by_players,
)
from simulator.games.gnomeland import board, kernel, search, story
from strategies import gnomeland as players

MODES = {
    "standard": Mode("standard", "the base game: five rounds, Mercenary decks of 5/7/9 cards",
                     (2, 3, 4)),
}

REPLAY_LOG_ROWS = 200_000


def check_setup(rules, setup):
    """Deck sizes the state has room for, and enough spells and actions to play."""
    r = rules[0]
    spells = sum(int(x) for x in board.spell_counts(r))
    actions = sum(int(x) for x in board.action_counts(r))
    for name, n in (("Spell", spells), ("Action", actions)):
        if n > board.MAX_DECK:
            raise UsageError(f"the {name} deck would hold {n} cards; at most {board.MAX_DECK} are supported")
    if actions == 0:
        raise UsageError("the Action deck would be empty: give at least one action_* card")


# The heuristic and the searching loop's compile from an empty cache, in seconds, as
# docs/performance.md (Compile time) gives them: said while a first run waits.
FIRST_COMPILE_S = (45, 48)
play, replay = kernel_entry_points(
    kernel, (),
    tell=lambda log, rules: story.tell(log), log_rows=REPLAY_LOG_ROWS,
    before_search=lambda rules, setup: search.load_rollout_functions(rules, setup.n_players),
    first_compile_s=FIRST_COMPILE_S)


def seat_columns(rows: np.ndarray, config) -> dict:
    return roleless_seat_columns(rows, kernel.SEAT._fields, config, flags=("first_player",))


def game_columns(rows: np.ndarray, config) -> dict:
    c = {name: rows[:, i] for i, name in enumerate(kernel.GAME._fields)}
    c["first_seat"] = c["first_seat"].astype(np.int8)
    c["truncated"] = c["truncated"].astype(bool)
    for name in kernel.GAME._fields:
        if c[name].dtype == np.int64:
            c[name] = c[name].astype(np.int16)
    return c


GAME = Game(
    name="gnomeland",
    title="Gnomeland",
    modes=MODES,
    roles=(),
    strategies=Strategies(players.NAMES, players.DESCRIPTIONS, players.WEIGHT_NAMES,
                          players.DEFAULT_WEIGHTS,
                          default_mix=("greedy", "mission_hunter", "engine_builder", "copier",
                                       "brawler", "balanced"),
                          tunable=("mission_hunter", "engine_builder", "copier", "brawler",
                                   "balanced"),
                          tuned_weights=tuple(n for n in players.STYLE_NAMES if n != "noise"),
                          search="lookahead", expert="expert", features=players.FEATURE_NAMES,
                          expert_by_players=shipped_expert_by_players(
                              "gnomeland", players.WEIGHT_NAMES)),
    rules_path=Path(__file__).with_name("rules.toml"),
    play=play,
    replay=replay,
    seat_columns=seat_columns,
    game_columns=game_columns,
    check=check_setup,
    report_columns={
        "point_sources": list(kernel.POINT_SOURCES),
        # every resource (Coins, Mana, Weapons) received, by where it came from
        "coin_sources": list(kernel.GAINED_COLUMNS),
        "resource_unit": "resources",
        "game_counts": ["brawls", "magic_challenges", "missions_completed", "copies"],
    },
    max_players=board.MAX_PLAYERS,
)
