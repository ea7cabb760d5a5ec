"""Grimoire batch kernel: a block of games, one stats row per seat and one per game.

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
from simulator.games.grimoire.board import (
    MAX_PLAYERS, N_SPELLS, companion_count, item_count, score, scoring_came_up, treasure_count,
    vp_companions, vp_items, vp_junk, vp_tokens, vp_treasures,
)
from simulator.games.grimoire.turn import play_game

# Per-seat columns the kernel fills (the core columns game_id, seat, strategy, role, score, rank,
# winner and win_share are assembled from the first ones by the batch driver).
POINT_SOURCES = ("vp_companions", "vp_treasures", "vp_items", "vp_junk", "vp_tokens")
CAST_COLUMNS = tuple(f"cast_level_{level}" for level in range(1, N_SPELLS + 1))
SEAT_COLUMNS = ("strategy_index", "score", "rank", "winner") + POINT_SOURCES + (
    "companions", "treasures", "items") + CAST_COLUMNS + (
    "spells_duplicated", "spells_negated", "turns_first", "companions_won", "companions_lost",
    "vp_tokens_won", "vp_tokens_lost", "cards_taken", "cards_drawn", "items_drawn", "shoes_used",
    "triggered_end",
)
GAME_COLUMNS = ("first_to_act", "turns", "truncated", "rounds", "end_trigger_id", "deck_reshuffles",
                "spells_duplicated", "spells_negated", "companions_moved", "final_spell_level",
                "cards_left", "winning_score")
N_OWN_GAME_COLUMNS = len(GAME_COLUMNS)
GAME_COLUMNS += UNFOLDING_COLUMNS
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
N_GAME_COLUMNS = len(GAME_COLUMNS)


@compiled
def write_seat(row, s, r, p, mix_slot, points, rank):
    """One seats row, in SEAT_COLUMNS order."""
    k = 0
    row[k] = mix_slot
    row[k + 1] = points
    row[k + 2] = rank
    row[k + 3] = 1 if rank == 1 else 0
    k += 4
    row[k] = vp_companions(s, r, p)
    row[k + 1] = vp_treasures(s, r, p)
    row[k + 2] = vp_items(s, r, p)
    row[k + 3] = vp_junk(s, r, p)
    row[k + 4] = vp_tokens(s, r, p)
    k += 5
    row[k] = companion_count(s, p)
    row[k + 1] = treasure_count(s, p)
    row[k + 2] = item_count(s, p)
    k += 3
    for level in range(1, N_SPELLS + 1):
        row[k] = s.cast[p, level]
        k += 1
    row[k] = s.times_duplicated[p]
    row[k + 1] = s.times_negated[p]
    row[k + 2] = s.times_first[p]
    row[k + 3] = s.companions_won[p]
    row[k + 4] = s.companions_lost[p]
    row[k + 5] = s.tokens_won[p]
    row[k + 6] = s.tokens_lost[p]
    row[k + 7] = s.cards_taken[p]
    row[k + 8] = s.cards_drawn[p]
    row[k + 9] = s.items_drawn[p]
    row[k + 10] = s.shoes_used[p]
    row[k + 11] = 1 if s.trigger_player == p else 0


@compiled
def write_game(row, s, best, leaders):
    """One games row, in GAME_COLUMNS order: the game's own columns, then the core's unfolding
    columns (``simulator/core/unfolding.py``)."""
    n = s.n_players
    duplicated = 0
    negated = 0
    moved = 0
    for p in range(n):
        duplicated += s.times_duplicated[p]
        negated += s.times_negated[p]
        moved += s.companions_won[p]
    row[0] = s.first_to_act
    row[1] = s.turns
    row[2] = s.truncated
    row[3] = s.round_no
    row[4] = s.end_trigger
    row[5] = s.deck_reshuffles
    row[6] = duplicated
    row[7] = negated
    row[8] = moved
    row[9] = s.level
    row[10] = s.quest_deck_n + s.quest_discard_n
    row[11] = best
    write_unfolding(leaders, s.decisions, row[N_OWN_GAME_COLUMNS:])


@compiled
def finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
    """Final scoring and ranking (equal totals share the win), then the output rows.

    Takes the one-element ``table``, not its record: numba frees an array after its last use even
    while a record taken from it is still read (see ``simulator/core/tables.py``).
    """
    s = table[0]
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    tiebreak = np.zeros(MAX_PLAYERS, dtype=np.int64)
    rank = np.zeros(MAX_PLAYERS, dtype=np.int64)
    best = 0
    for p in range(n_players):
        points[p] = score(s, r, p)
        scoring_came_up(s, r, log, p)
        best = max(best, points[p])
    rank_players(points, tiebreak, n_players, rank)  # no tie-break in the rulebook
    for p in range(n_players):
        write_seat(seats[first_row + p], s, r, p, mix_slot[p], points[p], rank[p])
    write_game(games_row, s, best, leaders)


@compiled(nogil=True)
def play_games(rules, run_seed, first_game, n_games, n_players, seatings, mix_ids, mix_weights,
               seats, games, log, searching):
    """Play games ``first_game .. first_game + n_games - 1``; fill ``seats`` and ``games``
    (and ``log``: empty in a batch, a replay's log for its one game)."""
    for i in range(n_games):
        game_index = first_game + i
        rng = seed_stream(run_seed, game_index)
        plans, mix_slot = seat_plans(game_index, n_players, MAX_PLAYERS, seatings, mix_ids,
                                     mix_weights, searching)
        r = rules[0]
        leaders = new_leaders(r.max_rounds * n_players)  # a quest turn per player and round
        table = play_game(r, n_players, plans, rng, log, leaders)
        finish(table, r, n_players, mix_slot, seats, i * n_players, games[i], leaders, log)
        if stop_at_broken(log, game_index):
            return
