"""El Grande's batch kernel: its stats columns (one row per seat, one per game), how a finished
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
from simulator.games.elgrande.board import (
    BASE_SOURCES, BASE_STACKS, MAX_PLAYERS, N_POWER, N_SOURCES, N_STACKS, SOURCE_NAMES, STATE,
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
def finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
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


# The game's steps in the core's loop, each declared for its state (core/search.py's declares).

@declares(turns_noted, STATE)
def each_round():
    """A leader noted after each round."""
    return lambda state, r, n_players: r.rounds


@declares(play_one, STATE)
def in_its_mode():
    """A game in its mode (``own``: the mode alone)."""
    return lambda state, r, n_players, own, plans, mix_slot, rng, log, leaders: play_game(
        r, n_players, plans, rng, log, own[0], leaders)


@declares(write_rows, STATE)
def finished():
    """The rows as ``finish`` writes them."""
    def write(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
        finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log)
    return write


@compiled(nogil=True)
def play_games(rules, run_seed, first_game, n_games, n_players, seatings, mix_ids, mix_weights,
               own, seats, games, log, searching):
    """A block of games: the core's loop (``simulator/core/kernel.py``) over El Grande's steps."""
    play_batch(STATE, MAX_PLAYERS, rules, run_seed, first_game, n_games, n_players, seatings,
               mix_ids, mix_weights, own, seats, games, log, searching)
