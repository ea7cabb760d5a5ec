"""Grimoire for the engine: modes, strategies, and the kernel calls (see ``core/game.py``).

The rules are in ``turn.py`` (rulebook order), the table in ``board.py``, the numbers in
``rules.toml``, the replay story in ``story.py`` and the batch kernel in ``kernel.py``.
Grimoire has no roles: every wizard has the same Grimoire, so ``role`` is null.
"""

from pathlib import Path

import numpy as np

from simulator.core.dataset import roleless_seat_columns

from simulator.core.errors import UsageError
from simulator.core.game import (
    Game, Mode, Strategies, kernel_entry_points, shipped_expert_by_players,
)
from simulator.games.grimoire import board, kernel, story
from simulator.games.grimoire import search  # noqa: F401  (registers the search player's verbs)
from strategies import grimoire as players

MODES = {
    "standard": Mode("standard", "the base game: one face-down quest card, two with 5 players",
                     (2, 3, 4, 5)),
}

REPLAY_LOG_ROWS = 100_000


def check_setup(rules, setup):
    """Deck sizes the state has room for (the kernel assumes it)."""
    r = rules[0]
    quest = sum(int(x) for x in board.quest_card_counts(r))
    if quest > board.MAX_QUEST_CARDS:
        raise UsageError(f"the quest deck would hold {quest} cards; at most {board.MAX_QUEST_CARDS} "
                         "are supported")
    items = sum(int(x) for x in board.item_card_counts(r))
    if items > board.MAX_ITEM_CARDS:
        raise UsageError(f"the item deck would hold {items} cards; at most {board.MAX_ITEM_CARDS} "
                         "are supported")


# The heuristic and the searching loop's compile from an empty cache, in seconds, as
# docs/performance.md (Compile time) gives them: said while a first run waits.
FIRST_COMPILE_S = (40, 52)
play, replay = kernel_entry_points(
    kernel, (),
    tell=lambda log, rules: story.tell(log), log_rows=REPLAY_LOG_ROWS,
    first_compile_s=FIRST_COMPILE_S)


def seat_columns(rows: np.ndarray, config) -> dict:
    return roleless_seat_columns(rows, kernel.SEAT._fields, config, flags=("triggered_end",))


def game_columns(rows: np.ndarray, config) -> dict:
    c = {name: rows[:, i] for i, name in enumerate(kernel.GAME._fields)}
    # The seat that took the first turn: turn order is decided by the first round's spell choices
    # (and changes every round); seats are numbered in the order that stands for "last round's".
    c["first_seat"] = c.pop("first_to_act").astype(np.int8)
    c["end_trigger"] = np.array(board.END_TRIGGER_NAMES, dtype=object)[c.pop("end_trigger_id")]
    for name in ("rounds", "deck_reshuffles", "spells_duplicated", "spells_negated",
                 "companions_moved", "final_spell_level", "cards_left", "winning_score"):
        c[name] = c[name].astype(np.int16)
    return c


GAME = Game(
    name="grimoire",
    title="Grimoire",
    modes=MODES,
    roles=(),
    strategies=Strategies(players.NAMES, players.DESCRIPTIONS, players.WEIGHT_NAMES,
                          players.DEFAULT_WEIGHTS,
                          default_mix=("greedy", "companion_collector", "treasure_hoarder",
                                       "spell_timer", "balanced"),
                          tunable=("companion_collector", "treasure_hoarder", "spell_timer",
                                   "balanced"),
                          tuned_weights=tuple(n for n in players.HEURISTIC_WEIGHT_NAMES
                                              if n != "noise"),
                          search="lookahead", expert="expert", features=players.FEATURE_NAMES,
                          expert_by_players=shipped_expert_by_players(
                              "grimoire", players.WEIGHT_NAMES)),
    rules_path=Path(__file__).with_name("rules.toml"),
    play=play,
    replay=replay,
    seat_columns=seat_columns,
    game_columns=game_columns,
    check=check_setup,
    report_columns={
        "point_sources": list(kernel.POINT_SOURCES),
        "game_counts": ["rounds", "deck_reshuffles", "spells_duplicated", "spells_negated",
                        "companions_moved"],
    },
    max_players=board.MAX_PLAYERS,
)
