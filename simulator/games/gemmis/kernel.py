"""GEMMiS's batch kernel: its stats columns (one row per seat, one per game), how a finished
game is written, and the game's own steps in the core's batch loop (``simulator/core/kernel.py``,
which plays the blocks of games and the replays).
"""

import numpy as np

from simulator.core.columns import columns
from simulator.core.jit import compiled
from simulator.core.kernel import play_batch, play_one, turns_noted, write_rows
from simulator.core.ranking import rank_players
from simulator.core.search import declares
from simulator.core.unfolding import UNFOLDING_COLUMNS, write_unfolding
from simulator.games.gemmis.board import CELLS, N_PLAYERS, STATE, final_score
from simulator.games.gemmis.turn import play_game

# Per-seat columns the kernel fills (the core columns game_id, seat, strategy, role, score, rank,
# winner and win_share are assembled from the first ones by the batch driver). The four
# points_* columns sum to the score (the penalty is negative).
POINT_SOURCES = ("points_combinations", "points_values", "points_penalty", "points_small_gems")
SIZES = tuple(range(3, CELLS + 1))
SIZE_COLUMNS = tuple(f"combinations_{k}" for k in SIZES)
SKILL_COLUMNS = ("alguazil_interrupt", "alguazil_clean_street", "alguazil_change_direction",
                 "alguazil_cancel")
SEAT = columns("strategy_index", "score", "rank", "winner", *POINT_SOURCES, "combinations",
               *SIZE_COLUMNS, "cascades", "multi_colour", "two_rows", "jokers_used", "kept",
               "left_standing", "biggest", *SKILL_COLUMNS, "interrupted", "switches",
               "turns_played", "small_gems", "small_gems_used", "closed_market")
GAME = columns("turns", "truncated", "close_turn", "sack_refills", "street_moves", "combinations",
               "cascades", "jokers_used", "alguazil_uses", "small_gems_taken", "winning_score",
               "margin", "tie_broken", *UNFOLDING_COLUMNS)


@compiled
def write_seat(row, s, p, mix_slot, points, rank):
    """One seats row."""
    row[SEAT.strategy_index] = mix_slot
    row[SEAT.score] = points
    row[SEAT.rank] = rank
    row[SEAT.winner] = 1 if rank == 1 else 0
    row[SEAT.points_combinations] = s.points_sizes[p]
    row[SEAT.points_values] = s.points_values[p]
    row[SEAT.points_penalty] = -s.penalty[p]
    row[SEAT.points_small_gems] = s.points_small_gems[p]
    total = 0
    for size in range(3, CELLS + 1):
        row[SEAT.combinations_3 + size - 3] = s.combinations[p, size]
        total += s.combinations[p, size]
    row[SEAT.combinations] = total
    row[SEAT.cascades] = s.cascades[p]
    row[SEAT.multi_colour] = s.multi_colour[p]
    row[SEAT.two_rows] = s.two_rows[p]
    row[SEAT.jokers_used] = s.jokers_used[p]
    row[SEAT.kept] = s.kept[p]
    row[SEAT.left_standing] = s.left_standing[p]
    row[SEAT.biggest] = s.biggest[p]
    for skill in range(4):  # SKILL_COLUMNS
        row[SEAT.alguazil_interrupt + skill] = s.alguazil_uses[p, skill]
    row[SEAT.interrupted] = s.interrupted[p]
    row[SEAT.switches] = s.switches[p]
    row[SEAT.turns_played] = s.turns_played[p]
    row[SEAT.small_gems] = s.small_gems[p]
    row[SEAT.small_gems_used] = s.small_gems_used[p]
    row[SEAT.closed_market] = 1 if s.closer == p else 0


@compiled
def finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
    """Final standings: the higher score wins; a tie goes to fewer small gems (used or not);
    still equal, the win is shared. Then the output rows: the game's own columns, then how the
    game unfolded (``leaders``, noted after each turn, and the decisions).

    Takes the one-element ``table``, not its record: numba frees an array after its last use even
    while a record taken from it is still read (see ``simulator/core/tables.py``).
    """
    s = table[0]
    points = np.zeros(N_PLAYERS, dtype=np.int64)
    tiebreak = np.zeros(N_PLAYERS, dtype=np.int64)
    rank = np.zeros(N_PLAYERS, dtype=np.int64)
    for p in range(N_PLAYERS):
        points[p] = final_score(s, r, p)
        tiebreak[p] = -s.small_gems[p]
    rank_players(points, tiebreak, N_PLAYERS, rank)
    for p in range(N_PLAYERS):
        write_seat(seats[first_row + p], s, p, mix_slot[p], points[p], rank[p])
    combinations = 0
    cascades = 0
    jokers = 0
    uses = 0
    for p in range(N_PLAYERS):
        for size in range(3, CELLS + 1):
            combinations += s.combinations[p, size]
        cascades += s.cascades[p]
        jokers += s.jokers_used[p]
        for skill in range(4):
            uses += s.alguazil_uses[p, skill]
    g = games_row
    g[GAME.turns] = s.turn
    g[GAME.truncated] = s.truncated
    g[GAME.close_turn] = s.close_turn if s.closer >= 0 else -1
    g[GAME.sack_refills] = s.sack_refills
    g[GAME.street_moves] = s.street_moves
    g[GAME.combinations] = combinations
    g[GAME.cascades] = cascades
    g[GAME.jokers_used] = jokers
    g[GAME.alguazil_uses] = uses
    g[GAME.small_gems_taken] = s.small_gems[0] + s.small_gems[1]
    g[GAME.winning_score] = max(points[0], points[1])
    g[GAME.margin] = abs(points[0] - points[1])
    g[GAME.tie_broken] = 1 if points[0] == points[1] and s.small_gems[0] != s.small_gems[1] else 0
    write_unfolding(leaders, s.decisions, g[GAME.lead_changes:])


# The game's steps in the core's loop, each declared for its state (core/search.py's declares).

@declares(turns_noted, STATE)
def each_turn():
    """A leader noted after each turn, up to ``max_turns``."""
    return lambda state, r, n_players: r.max_turns


@declares(play_one, STATE)
def in_its_mode():
    """A game of two in its mode (``own``: the mode alone)."""
    return lambda state, r, n_players, own, plans, mix_slot, rng, log, leaders: play_game(
        r, own[0], plans, rng, log, leaders)


@declares(write_rows, STATE)
def finished():
    """The rows as ``finish`` writes them."""
    def write(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
        finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log)
    return write


@compiled(nogil=True)
def play_games(rules, run_seed, first_game, n_games, n_players, seatings, mix_ids, mix_weights,
               own, seats, games, log, searching):
    """A block of games: the core's loop (``simulator/core/kernel.py``) over GEMMiS's steps."""
    play_batch(STATE, N_PLAYERS, rules, run_seed, first_game, n_games, n_players, seatings,
               mix_ids, mix_weights, own, seats, games, log, searching)
