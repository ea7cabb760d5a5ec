"""GEMMiS: Fures Codice for the engine: modes, strategies, and the kernel calls (see
``core/game.py``).

The rules are in ``turn.py`` (rulebook order), the table in ``board.py``, the numbers and every
gap-filling choice in ``rules.toml``, the replay story in ``story.py`` and the batch kernel in
``kernel.py``. Two players; no roles (``role`` is null). Seats are numbered from the first
player, who opens the market.
"""

from pathlib import Path

import numpy as np

from simulator.core.dataset import roleless_seat_columns
from simulator.core.errors import UsageError
from simulator.core.game import (
    Game, Mode, Strategies, kernel_entry_points, shipped_expert_by_players,
)
from simulator.games.gemmis import board, kernel, story
from simulator.games.gemmis import search  # noqa: F401  (registers the search player's verbs)
from strategies import gemmis as players

MODES = {
    "family": Mode("family", "the family mode: cascades of any size, no end penalty", (2,)),
    "advanced": Mode("advanced", "a cascade must be bigger than the turn's last combination; "
                     "printed values left in the zone are subtracted at the end", (2,)),
    "family_alguazil": Mode("family_alguazil", "the family mode with the Alguazil "
                            "mini-expansion", (2,)),
    "advanced_alguazil": Mode("advanced_alguazil", "the advanced mode with the Alguazil "
                              "mini-expansion", (2,)),
}
assert tuple(MODES) == board.MODE_NAMES

REPLAY_LOG_ROWS = 100_000


def check_setup(rules, setup):
    """A chip make-up the table has room for and the setup can be played with."""
    r = rules[0]
    chips = int(board.chip_count(r))
    if chips > board.MAX_CHIPS:
        raise UsageError(f"the rule data makes {chips} chips; at most {board.MAX_CHIPS} are "
                         "supported")
    plain = int(r.plain_gems_per_colour)
    if r.setup == board.SETUP_CARD_LAYOUT:
        need = int(np.bincount(board.SETUP_CARD.ravel()).max()) * board.N_PLAYERS
        if plain < need:
            raise UsageError(f"plain_gems_per_colour={plain}: the setup card needs {need} plain "
                             "gems of a colour (or --set setup=dealt)")
    elif plain * int(r.colours) < board.N_PLAYERS * board.CELLS:
        raise UsageError(f"setup=dealt needs {board.N_PLAYERS * board.CELLS} plain gems; the rule "
                         f"data has {plain * int(r.colours)}")
    if chips < board.N_PLAYERS * board.CELLS + board.STREET:
        raise UsageError(f"{chips} chips cannot fill both zones and the street "
                         f"({board.N_PLAYERS * board.CELLS + board.STREET})")
    if r.alguazil_levels < 2:
        raise UsageError("alguazil_levels: at least 2 (the lowest and 'available')")


# The heuristic and the searching loop's compile from an empty cache, in seconds, as
# docs/performance.md (Compile time) gives them: said while a first run waits.
FIRST_COMPILE_S = (45, 54)
play, replay = kernel_entry_points(
    kernel, ("mode",),
    tell=lambda log, rules: story.tell(log), log_rows=REPLAY_LOG_ROWS,
    first_compile_s=FIRST_COMPILE_S)


def seat_columns(rows: np.ndarray, config) -> dict:
    return roleless_seat_columns(rows, kernel.SEAT._fields, config, flags=("closed_market",))


def game_columns(rows: np.ndarray, config) -> dict:
    c = {name: rows[:, i] for i, name in enumerate(kernel.GAME._fields)}
    c["first_seat"] = np.zeros(len(rows), dtype=np.int8)  # seats are numbered from the first player
    c["tie_broken"] = c["tie_broken"].astype(bool)
    for name in ("close_turn", "sack_refills", "street_moves", "combinations", "cascades",
                 "jokers_used", "alguazil_uses", "small_gems_taken", "winning_score", "margin"):
        c[name] = c[name].astype(np.int16)
    return c


GAME = Game(
    name="gemmis",
    title="GEMMiS: Fures Codice",
    modes=MODES,
    roles=(),
    strategies=Strategies(players.NAMES, players.DESCRIPTIONS, players.WEIGHT_NAMES,
                          players.DEFAULT_WEIGHTS,
                          default_mix=("greedy", "quick_scorer", "big_builder", "market_trader",
                                       "alguazil_tactician"),
                          tunable=("quick_scorer", "big_builder", "market_trader",
                                   "alguazil_tactician"),
                          tuned_weights=tuple(n for n in players.HEURISTIC_WEIGHT_NAMES
                                              if n not in ("noise", "search_breadth")),
                          search="lookahead", expert="expert", features=players.FEATURE_NAMES,
                          expert_by_players=shipped_expert_by_players(
                              "gemmis", players.WEIGHT_NAMES),
                          expert_plays_out=True),
    rules_path=Path(__file__).with_name("rules.toml"),
    play=play,
    replay=replay,
    seat_columns=seat_columns,
    game_columns=game_columns,
    check=check_setup,
    report_columns={
        "point_sources": list(kernel.POINT_SOURCES),
        "game_counts": ["turns", "combinations", "cascades", "jokers_used", "sack_refills",
                        "street_moves", "alguazil_uses", "small_gems_taken"],
    },
    max_players=board.N_PLAYERS,
)
