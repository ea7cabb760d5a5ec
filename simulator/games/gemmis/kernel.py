"""GEMMiS batch kernel: a block of games, one stats row per seat and one per game.

Game ``i`` of a run draws from the stream seeded by (run seed, i) and seats its strategies by
row ``i`` of the seat design (``simulator/core/seating.py``), so a game's outcome is the same
whatever chunk, thread or backend plays it. A replay is a block of one game with a log
(``simulator/core/game.py`` runs the blocks, several threads at once).
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.ranking import rank_players
from simulator.core.rng import seed_stream
from simulator.core.seating import seat_plans
from simulator.core.trace import stop_at_broken
from simulator.core.unfolding import UNFOLDING_COLUMNS, new_leaders, write_unfolding
from simulator.games.gemmis.board import CELLS, N_PLAYERS, final_score
from simulator.games.gemmis.turn import play_game

# Per-seat columns the kernel fills (the core columns game_id, seat, strategy, role, score, rank,
# winner and win_share are assembled from the first ones by the batch driver). The four
# points_* columns sum to the score (the penalty is negative).
POINT_SOURCES = ("points_combinations", "points_values", "points_penalty", "points_small_gems")
SIZES = tuple(range(3, CELLS + 1))
SIZE_COLUMNS = tuple(f"combinations_{k}" for k in SIZES)
SKILL_COLUMNS = ("alguazil_interrupt", "alguazil_clean_street", "alguazil_change_direction",
                 "alguazil_cancel")
SEAT_COLUMNS = ("strategy_index", "score", "rank", "winner") + POINT_SOURCES + (
    "combinations",) + SIZE_COLUMNS + (
    "cascades", "multi_colour", "two_rows", "jokers_used", "kept", "left_standing", "biggest",
) + SKILL_COLUMNS + (
    "interrupted", "switches", "turns_played", "small_gems", "small_gems_used", "closed_market",
)
GAME_COLUMNS = ("turns", "truncated", "close_turn", "sack_refills", "street_moves",
                "combinations", "cascades", "jokers_used", "alguazil_uses", "small_gems_taken",
                "winning_score", "margin", "tie_broken")
N_OWN_GAME_COLUMNS = len(GAME_COLUMNS)
GAME_COLUMNS += UNFOLDING_COLUMNS
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
N_GAME_COLUMNS = len(GAME_COLUMNS)


@compiled
def write_seat(row, s, p, mix_slot, points, rank):
    """One seats row, in SEAT_COLUMNS order."""
    row[0] = mix_slot
    row[1] = points
    row[2] = rank
    row[3] = 1 if rank == 1 else 0
    row[4] = s.points_sizes[p]
    row[5] = s.points_values[p]
    row[6] = -s.penalty[p]
    row[7] = s.points_small_gems[p]
    k = 8
    total = 0
    for size in range(3, CELLS + 1):
        total += s.combinations[p, size]
    row[k] = total
    k += 1
    for size in range(3, CELLS + 1):
        row[k] = s.combinations[p, size]
        k += 1
    row[k] = s.cascades[p]
    row[k + 1] = s.multi_colour[p]
    row[k + 2] = s.two_rows[p]
    row[k + 3] = s.jokers_used[p]
    row[k + 4] = s.kept[p]
    row[k + 5] = s.left_standing[p]
    row[k + 6] = s.biggest[p]
    k += 7
    for skill in range(4):
        row[k + skill] = s.alguazil_uses[p, skill]
    k += 4
    row[k] = s.interrupted[p]
    row[k + 1] = s.switches[p]
    row[k + 2] = s.turns_played[p]
    row[k + 3] = s.small_gems[p]
    row[k + 4] = s.small_gems_used[p]
    row[k + 5] = 1 if s.closer == p else 0


@compiled
def finish(table, r, mix_slot, seats, first_row, games_row, leaders):
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
    g[0] = s.turn
    g[1] = s.truncated
    g[2] = s.close_turn if s.closer >= 0 else -1
    g[3] = s.sack_refills
    g[4] = s.street_moves
    g[5] = combinations
    g[6] = cascades
    g[7] = jokers
    g[8] = uses
    g[9] = s.small_gems[0] + s.small_gems[1]
    g[10] = max(points[0], points[1])
    g[11] = abs(points[0] - points[1])
    g[12] = 1 if points[0] == points[1] and s.small_gems[0] != s.small_gems[1] else 0
    write_unfolding(leaders, s.decisions, g[N_OWN_GAME_COLUMNS:])


@compiled(nogil=True)
def play_games(rules, run_seed, first_game, n_games, mode, seatings, mix_ids, mix_weights,
               seats, games, log, searching):
    """Play games ``first_game .. first_game + n_games - 1``; fill ``seats`` and ``games``
    (and ``log``: empty in a batch, a replay's log for its one game)."""
    for i in range(n_games):
        game_index = first_game + i
        rng = seed_stream(run_seed, game_index)
        plans, mix_slot = seat_plans(game_index, N_PLAYERS, N_PLAYERS, seatings, mix_ids,
                                     mix_weights, searching)
        leaders = new_leaders(rules[0].max_turns)
        table = play_game(rules[0], mode, plans, rng, log, leaders)
        finish(table, rules[0], mix_slot, seats, i * N_PLAYERS, games[i], leaders)
        if stop_at_broken(log, game_index):
            return
