"""El Grande for the engine: modes, strategies, and the kernel calls (see ``core/game.py``).

The rules are in ``turn.py`` (the rules' order) with every board change in ``effects.py``, the
table in ``board.py``, the numbers and every gap-filling choice in ``rules.toml``, the replay
story in ``story.py`` and the batch kernel in ``kernel.py``. No roles (``role`` is null); seats
are numbered from the player who plays the first power card.
"""

from pathlib import Path

import numpy as np

from simulator.core.dataset import roleless_seat_columns
from simulator.core.errors import UsageError
from simulator.core.game import (
    Game, Mode, Strategies, kernel_entry_points, shipped_expert_by_players,
)
from simulator.games.elgrande import board, kernel, story
from simulator.games.elgrande import search  # noqa: F401  (registers the search player's verbs)
from strategies import elgrande as players

MODES = {
    "base": Mode("base", "the 1995 base game: nine rounds, 45 action cards, three general "
                 "scorings", (2, 3, 4, 5)),
    "grand_inquisitor_colonies": Mode(
        "grand_inquisitor_colonies", "with the expansion Grossinquisitor und Kolonien: Francia, "
        "the Ship, America and Africa, Gold and Wares, the Grand Inquisitor, the limit table, "
        "stacks 6 and 7", (2, 3, 4, 5)),
}
EXPANSION = "grand_inquisitor_colonies"

REPLAY_LOG_ROWS = 100_000


def check_setup(rules, setup):
    """Stacks the state has room for, enough to turn up a card every round, and Caballeros
    enough for the setup."""
    r = rules[0]
    for stack, size in enumerate(board.stack_sizes(r)):
        if size > board.MAX_STACK:
            raise UsageError(f"stack {stack + 1} would hold {size} cards; at most "
                             f"{board.MAX_STACK} are supported")
    if r.caballeros_home + r.caballeros_court > r.caballeros_per_player:
        raise UsageError(f"caballeros_home + caballeros_court = "
                         f"{int(r.caballeros_home + r.caballeros_court)} exceeds "
                         f"caballeros_per_player = {int(r.caballeros_per_player)}")
    provinces = r.caballeros_per_player - r.caballeros_home - r.caballeros_court
    if r.setup_caballeros > provinces + r.expansion_caballeros:
        raise UsageError(f"setup_caballeros = {int(r.setup_caballeros)} exceeds the "
                         f"{int(provinces + r.expansion_caballeros)} Caballeros in the provinces")
    for token in ("wares", "gold"):
        if getattr(r, f"{token}_at_start") > getattr(r, token):
            raise UsageError(f"{token}_at_start = {int(getattr(r, f'{token}_at_start'))} exceeds "
                             f"{token} = {int(getattr(r, token))} (the tokens in the box)")


# The heuristic and the searching loop's compile from an empty cache, in seconds, as
# docs/performance.md (Compile time) gives them: said while a first run waits.
FIRST_COMPILE_S = (107, 107)
play, replay = kernel_entry_points(
    kernel, ("mode",),
    tell=lambda log, rules: story.tell(log), log_rows=REPLAY_LOG_ROWS,
    first_compile_s=FIRST_COMPILE_S)


def seat_columns(rows: np.ndarray, config) -> dict:
    c = roleless_seat_columns(rows, kernel.SEAT._fields, config, flags=("first_player",))
    if config.mode != EXPANSION:  # the base game's tables as they were
        for name in kernel.EXPANSION_SEAT_COLUMNS:
            del c[name]
    return c


def game_columns(rows: np.ndarray, config) -> dict:
    c = {name: rows[:, i] for i, name in enumerate(kernel.GAME._fields)}
    if config.mode != EXPANSION:
        for name in kernel.EXPANSION_GAME_COLUMNS:
            del c[name]
    c["first_seat"] = c["first_seat"].astype(np.int8)  # seats are numbered from the first player
    c["truncated"] = c["truncated"].astype(bool)
    for name in list(c):
        if c[name].dtype == np.int64:
            # decisions: some hundreds a game, more than int16 holds at the rules' limits
            c[name] = c[name].astype(np.int32 if name == "decisions" else np.int16)
    return c


GAME = Game(
    name="elgrande",
    title="El Grande",
    modes=MODES,
    roles=(),
    strategies=Strategies(players.NAMES, players.DESCRIPTIONS, players.WEIGHT_NAMES,
                          players.DEFAULT_WEIGHTS,
                          default_mix=("quick_greedy", "quick_king_shadow",
                                       "quick_castillo_schemer", "quick_intriguer",
                                       "quick_spoiler"),
                          tunable=("king_shadow", "castillo_schemer", "intriguer", "spoiler"),
                          tuned_weights=tuple(n for n in players.STYLE_NAMES if n != "noise"),
                          search="lookahead", expert="expert", features=players.FEATURE_NAMES,
                          expert_by_players=shipped_expert_by_players(
                              "elgrande", players.WEIGHT_NAMES),
                          heuristics=("greedy", "king_shadow", "castillo_schemer", "intriguer",
                                      "spoiler")),
    rules_path=Path(__file__).with_name("rules.toml"),
    play=play,
    replay=replay,
    seat_columns=seat_columns,
    game_columns=game_columns,
    check=check_setup,
    report_columns={
        "point_sources": list(kernel.POINT_SOURCES),
        "game_counts": ["special_scorings", "king_moves", "vetoes", "inquisitor_changes",
                        "tokens_brought_home"],
    },
    max_players=board.MAX_PLAYERS,
)
