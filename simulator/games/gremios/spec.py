"""Gremios for the engine: modes, roles, strategies, and the kernel calls (see ``core/game.py``).

The rules are in ``turn.py`` (rulebook order), the table in ``board.py``, the numbers in
``rules.toml``, the replay story in ``story.py`` and the batch kernel in ``kernel.py``.
"""

from pathlib import Path

import numpy as np

from simulator.core.dataset import names_column
from simulator.core.errors import UsageError
from simulator.core.game import (
    Game, Mode, Strategies, kernel_entry_points, shipped_expert_by_players,
)
from simulator.games.gremios import board, kernel, story
from simulator.games.gremios import search  # noqa: F401  (registers the search player's verbs)
from strategies import gremios as players

MODES = {
    "standard": Mode("standard", "the base game; with 2 players, two consecutive turns each "
                     "and 3 guilds at the start", (2, 3, 4)),
    "ultimate_duel": Mode("ultimate_duel", "two players, each keeping both dealt roles at once",
                          (2,), roles_per_seat=2),
}
assert tuple(MODES) == board.MODE_NAMES

REPLAY_LOG_ROWS = 200_000


def check_setup(rules, setup):
    """Enough role cards for the deal (the kernel assumes it)."""
    r = rules[0]
    # per table of the seat design: seats holding a fixed role (by --roles or by their mix
    # entry) and the cards they take out of the deal
    by_entry = setup.slot_roles[setup.seatings, 0] >= 0
    by_seat = setup.fixed_roles[:setup.n_players, 0] >= 0
    fixed_seats = (by_entry | by_seat).sum(axis=1)
    fixed_cards = int((setup.fixed_roles >= 0).sum()) + by_entry.sum(axis=1)
    needed = (setup.n_players - fixed_seats) * int(r.roles_dealt)
    worst = int(np.argmax(needed + fixed_cards))
    if needed[worst] > board.N_ROLES - fixed_cards[worst]:
        raise UsageError(f"roles_dealt={int(r.roles_dealt)}: {needed[worst]} role cards would be dealt "
                         f"but only {board.N_ROLES - fixed_cards[worst]} are left")
    if setup.mode == board.ULTIMATE_DUEL and r.roles_dealt < 2:
        raise UsageError("roles_dealt: the ultimate_duel mode keeps two dealt roles, so it must be 2 or 3")
    total_events = sum(int(r[name]) for name in r.dtype.names if name.startswith("cards_")) + board.N_GUILDS
    if total_events > board.MAX_EVENT_CARDS:
        raise UsageError(f"the event deck would hold {total_events} cards; at most "
                         f"{board.MAX_EVENT_CARDS} are supported")
    treasures = int(r.wealth_low_cards + r.wealth_high_cards + r.common_treasure_cards +
                    r.rare_treasure_cards)
    if treasures > board.MAX_TREASURES:
        raise UsageError(f"the treasure deck would hold {treasures} cards; at most {board.MAX_TREASURES}")
    if r.expedition_slots > board.MAX_EXPEDITION_SLOTS:
        raise UsageError(f"expedition_slots={int(r.expedition_slots)}: at most {board.MAX_EXPEDITION_SLOTS}")


# The heuristic and the searching loop's compile from an empty cache, in seconds, as
# docs/performance.md (Compile time) gives them: said while a first run waits.
FIRST_COMPILE_S = (37, 41)
play, replay = kernel_entry_points(
    kernel, ("mode", "fixed_roles", "slot_roles"),
    tell=lambda log, rules: story.tell(log, int(rules[0].famine_numbers)), log_rows=REPLAY_LOG_ROWS,
    first_compile_s=FIRST_COMPILE_S)


def seat_columns(rows: np.ndarray, config) -> dict:
    c = {name: rows[:, i] for i, name in enumerate(kernel.SEAT._fields)}
    first, second = c.pop("role_id"), c.pop("second_role_id")
    # A duel seat holds two roles: name the pair "a+b" (pairs numbered first * 13 + second + 1).
    role_names = [f"{a}+{b}" if b else a for a in board.ROLE_NAMES for b in ("",) + board.ROLE_NAMES]
    pair_ids = np.where(first < 0, -1, first * (board.N_ROLES + 1) + second + 1)
    out = {
        "strategy": names_column(config.strategies, c.pop("strategy_index")),
        "role": names_column(role_names, pair_ids),
        "score": c.pop("score"),
        "rank": c.pop("rank").astype(np.int8),
        "winner": c.pop("winner"),
        "role_not_chosen": names_column(board.ROLE_NAMES, c.pop("role_not_chosen_id")),
    }
    c["emblem"] = c["emblem"].astype(bool)
    out.update(c)
    return out


def game_columns(rows: np.ndarray, config) -> dict:
    c = {name: rows[:, i] for i, name in enumerate(kernel.GAME._fields)}
    c["first_seat"] = np.zeros(len(rows), dtype=np.int8)  # seats are numbered from the starting player
    return c


GAME = Game(
    name="gremios",
    title="Gremios",
    modes=MODES,
    roles=board.ROLE_NAMES,
    strategies=Strategies(players.NAMES, players.DESCRIPTIONS, players.WEIGHT_NAMES,
                          players.DEFAULT_WEIGHTS,
                          default_mix=("greedy", "guild_baron", "inn_builder", "expedition_gambler",
                                       "balanced"),
                          tunable=("guild_baron", "inn_builder", "expedition_gambler", "balanced"),
                          tuned_weights=players.HEURISTIC_WEIGHT_NAMES[:-1],  # not the noise
                          search="lookahead", expert="expert", features=players.FEATURE_NAMES,
                          expert_by_players=shipped_expert_by_players(
                              "gremios", players.WEIGHT_NAMES)),
    rules_path=Path(__file__).with_name("rules.toml"),
    play=play,
    replay=replay,
    seat_columns=seat_columns,
    game_columns=game_columns,
    check=check_setup,
    report_columns={
        "point_sources": ["vp_top_investor", "vp_inns", "vp_treasures", "vp_emblem"],
        "coin_sources": [f"coins_{name}" for name in board.COIN_SOURCE_NAMES],
        "game_counts": ["rolls", "sevens", "events_revealed", "expeditions", "expeditions_won",
                        "mutinies", "bankruptcies", "invasions", "event_reshuffles"],
        "role_not_chosen": "role_not_chosen",
    },
    max_players=board.MAX_PLAYERS,
)
