"""El Grande batch kernel: a block of games, one stats row per seat and one per game.

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
from simulator.games.elgrande.board import (
    BASE_SOURCES, BASE_STACKS, MAX_PLAYERS, N_POWER, N_SOURCES, N_STACKS, SOURCE_NAMES,
)
from simulator.games.elgrande.turn import play_game

POINT_SOURCES = tuple(f"vp_{n}" for n in SOURCE_NAMES)
SEAT_COLUMNS = ("strategy_index", "score", "rank", "winner") + POINT_SOURCES + (
    "vp_scoring_1", "vp_scoring_2", "vp_scoring_3",
    "majorities_scoring_1", "majorities_scoring_2", "majorities_scoring_3",
) + tuple(f"cards_stack_{k + 1}" for k in range(N_STACKS)) + tuple(
    f"power_{v}_round" for v in range(1, N_POWER + 1)) + (
    "caballeros_placed", "caballeros_moved", "caballeros_returned", "special_actions",
    "vetoes_played", "caballeros_left_in_provinces", "first_player")
GAME_COLUMNS = ("first_seat", "turns", "rounds", "truncated", "special_scorings", "king_moves",
                "vetoes", "winning_score", "winners", "inquisitor_changes", "tokens_brought_home")
N_OWN_GAME_COLUMNS = len(GAME_COLUMNS)
GAME_COLUMNS += UNFOLDING_COLUMNS  # the core's: how the game unfolded, a round at a time
# Columns only the expansion fills (left out of the base game's tables).
EXPANSION_SEAT_COLUMNS = POINT_SOURCES[BASE_SOURCES:] + tuple(
    f"cards_stack_{k + 1}" for k in range(BASE_STACKS, N_STACKS))
EXPANSION_GAME_COLUMNS = ("inquisitor_changes", "tokens_brought_home")
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
N_GAME_COLUMNS = len(GAME_COLUMNS)


@compiled
def write_seat(row, s, p, mix_slot, rank):
    """One seats row, in SEAT_COLUMNS order."""
    row[0] = mix_slot
    row[1] = s.score[p]
    row[2] = rank
    row[3] = 1 if rank == 1 else 0
    k = 4
    for i in range(N_SOURCES):
        row[k] = s.vp[p, i]
        k += 1
    for i in range(3):
        row[k] = s.vp_scoring[p, i]
        k += 1
    for i in range(3):
        row[k] = s.firsts[p, i]
        k += 1
    for i in range(N_STACKS):
        row[k] = s.stack_taken[p, i]
        k += 1
    for v in range(1, N_POWER + 1):
        row[k] = s.power_round[p, v]
        k += 1
    row[k] = s.placed[p]
    row[k + 1] = s.moved[p]
    row[k + 2] = s.returned[p]
    row[k + 3] = s.specials_done[p]
    row[k + 4] = s.vetoed[p]
    row[k + 5] = s.provinces[p]
    row[k + 6] = 1 if p == 0 else 0


@compiled
def finish(table, n_players, mix_slot, seats, first_row, games_row, leaders):
    """Ranking (equal scores share the win), then the rows: the game's own columns, then the
    core's unfolding columns from ``leaders``. Takes the one-element ``table``, not its record
    (see ``simulator/core/tables.py``)."""
    s = table[0]
    tiebreak = np.zeros(MAX_PLAYERS, dtype=np.int64)
    rank = np.zeros(MAX_PLAYERS, dtype=np.int64)
    rank_players(s.score, tiebreak, n_players, rank)
    best = 0
    winners = 0
    for p in range(n_players):
        write_seat(seats[first_row + p], s, p, mix_slot[p], rank[p])
        best = max(best, s.score[p])
        winners += 1 if rank[p] == 1 else 0
    games_row[0] = 0
    games_row[1] = s.turns
    games_row[2] = s.round_no
    games_row[3] = s.truncated
    games_row[4] = s.special_scorings
    games_row[5] = s.king_moves
    games_row[6] = s.vetoes_used
    games_row[7] = best
    games_row[8] = winners
    games_row[9] = s.inquisitor_changes
    games_row[10] = s.tokens_home[:n_players].sum()
    write_unfolding(leaders, s.decisions, games_row[N_OWN_GAME_COLUMNS:])


@compiled(nogil=True)
def play_games(rules, run_seed, first_game, n_games, n_players, mode, seatings, mix_ids,
               mix_weights, seats, games, log, searching):
    """Play games ``first_game .. first_game + n_games - 1``; fill ``seats`` and ``games``
    (and ``log``: empty in a batch, a replay's log for its one game)."""
    for i in range(n_games):
        game_index = first_game + i
        rng = seed_stream(run_seed, game_index)
        plans, mix_slot = seat_plans(game_index, n_players, MAX_PLAYERS, seatings, mix_ids,
                                     mix_weights, searching)
        leaders = new_leaders(rules[0].rounds)
        table = play_game(rules[0], n_players, plans, rng, log, mode, leaders)
        finish(table, n_players, mix_slot, seats, i * n_players, games[i], leaders)
        if stop_at_broken(log, game_index):
            return
