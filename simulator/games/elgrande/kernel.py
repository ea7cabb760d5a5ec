"""El Grande batch kernel: a block of games, one stats row per seat and one per game.

Game ``i`` of a run draws from the stream seeded by (run seed, i) and seats its strategies by
row ``i`` of the seat design (``simulator/core/seating.py``), so a game's outcome is the same
whatever chunk, thread or backend plays it. A replay is a block of one game with a log
(``simulator/core/game.py`` runs the blocks, several threads at once).
"""

import numpy as np

from simulator.core.columns import columns
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
SCORING_COLUMNS = ("vp_scoring_1", "vp_scoring_2", "vp_scoring_3")
MAJORITY_COLUMNS = ("majorities_scoring_1", "majorities_scoring_2", "majorities_scoring_3")
STACK_COLUMNS = tuple(f"cards_stack_{k + 1}" for k in range(N_STACKS))
POWER_COLUMNS = tuple(f"power_{v}_round" for v in range(1, N_POWER + 1))
SEAT = columns(
    "strategy_index", "score", "rank", "winner", *POINT_SOURCES, *SCORING_COLUMNS,
    *MAJORITY_COLUMNS, *STACK_COLUMNS, *POWER_COLUMNS, "caballeros_placed", "caballeros_moved",
    "caballeros_returned", "special_actions", "vetoes_played", "caballeros_left_in_provinces",
    "first_player")
GAME = columns("first_seat", "turns", "rounds", "truncated", "special_scorings", "king_moves",
               "vetoes", "winning_score", "winners", "inquisitor_changes", "tokens_brought_home",
               *UNFOLDING_COLUMNS)  # the core's: how the game unfolded, a round at a time
# Where each family of columns starts.
FIRST_SOURCE, FIRST_SCORING, FIRST_MAJORITY, FIRST_STACK, FIRST_POWER = (
    SEAT._fields.index(family[0]) for family in (
        POINT_SOURCES, SCORING_COLUMNS, MAJORITY_COLUMNS, STACK_COLUMNS, POWER_COLUMNS))
# Columns only the expansion fills (left out of the base game's tables).
EXPANSION_SEAT_COLUMNS = POINT_SOURCES[BASE_SOURCES:] + STACK_COLUMNS[BASE_STACKS:]
EXPANSION_GAME_COLUMNS = ("inquisitor_changes", "tokens_brought_home")


@compiled
def write_seat(row, s, p, mix_slot, rank):
    """One seats row."""
    row[SEAT.strategy_index] = mix_slot
    row[SEAT.score] = s.score[p]
    row[SEAT.rank] = rank
    row[SEAT.winner] = 1 if rank == 1 else 0
    for i in range(N_SOURCES):
        row[FIRST_SOURCE + i] = s.vp[p, i]
    for i in range(3):
        row[FIRST_SCORING + i] = s.vp_scoring[p, i]
        row[FIRST_MAJORITY + i] = s.firsts[p, i]
    for i in range(N_STACKS):
        row[FIRST_STACK + i] = s.stack_taken[p, i]
    for v in range(1, N_POWER + 1):
        row[FIRST_POWER + v - 1] = s.power_round[p, v]
    row[SEAT.caballeros_placed] = s.placed[p]
    row[SEAT.caballeros_moved] = s.moved[p]
    row[SEAT.caballeros_returned] = s.returned[p]
    row[SEAT.special_actions] = s.specials_done[p]
    row[SEAT.vetoes_played] = s.vetoed[p]
    row[SEAT.caballeros_left_in_provinces] = s.provinces[p]
    row[SEAT.first_player] = 1 if p == 0 else 0


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
    games_row[GAME.first_seat] = 0
    games_row[GAME.turns] = s.turns
    games_row[GAME.rounds] = s.round_no
    games_row[GAME.truncated] = s.truncated
    games_row[GAME.special_scorings] = s.special_scorings
    games_row[GAME.king_moves] = s.king_moves
    games_row[GAME.vetoes] = s.vetoes_used
    games_row[GAME.winning_score] = best
    games_row[GAME.winners] = winners
    games_row[GAME.inquisitor_changes] = s.inquisitor_changes
    games_row[GAME.tokens_brought_home] = s.tokens_home[:n_players].sum()
    write_unfolding(leaders, s.decisions, games_row[GAME.lead_changes:])


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
