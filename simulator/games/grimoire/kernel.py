"""Grimoire batch kernel: a block of games, one stats row per seat and one per game.

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
from simulator.games.grimoire.board import (
    MAX_PLAYERS, N_SPELLS, companion_count, item_count, score, scoring_came_up, treasure_count,
    vp_companions, vp_items, vp_junk, vp_tokens, vp_treasures,
)
from simulator.games.grimoire.turn import play_game

# Per-seat columns the kernel fills (the core columns game_id, seat, strategy, role, score, rank,
# winner and win_share are assembled from the first ones by the batch driver).
POINT_SOURCES = ("vp_companions", "vp_treasures", "vp_items", "vp_junk", "vp_tokens")
CAST_COLUMNS = tuple(f"cast_level_{level}" for level in range(1, N_SPELLS + 1))
SEAT = columns(
    "strategy_index", "score", "rank", "winner", *POINT_SOURCES, "companions", "treasures", "items",
    *CAST_COLUMNS, "spells_duplicated", "spells_negated", "turns_first", "companions_won",
    "companions_lost", "vp_tokens_won", "vp_tokens_lost", "cards_taken", "cards_drawn",
    "items_drawn", "shoes_used", "triggered_end")
GAME = columns("first_to_act", "turns", "truncated", "rounds", "end_trigger_id", "deck_reshuffles",
               "spells_duplicated", "spells_negated", "companions_moved", "final_spell_level",
               "cards_left", "winning_score", *UNFOLDING_COLUMNS)


@compiled
def write_seat(row, s, r, p, mix_slot, points, rank):
    """One seats row."""
    row[SEAT.strategy_index] = mix_slot
    row[SEAT.score] = points
    row[SEAT.rank] = rank
    row[SEAT.winner] = 1 if rank == 1 else 0
    row[SEAT.vp_companions] = vp_companions(s, r, p)
    row[SEAT.vp_treasures] = vp_treasures(s, r, p)
    row[SEAT.vp_items] = vp_items(s, r, p)
    row[SEAT.vp_junk] = vp_junk(s, r, p)
    row[SEAT.vp_tokens] = vp_tokens(s, r, p)
    row[SEAT.companions] = companion_count(s, p)
    row[SEAT.treasures] = treasure_count(s, p)
    row[SEAT.items] = item_count(s, p)
    for level in range(1, N_SPELLS + 1):
        row[SEAT.cast_level_1 + level - 1] = s.cast[p, level]
    row[SEAT.spells_duplicated] = s.times_duplicated[p]
    row[SEAT.spells_negated] = s.times_negated[p]
    row[SEAT.turns_first] = s.times_first[p]
    row[SEAT.companions_won] = s.companions_won[p]
    row[SEAT.companions_lost] = s.companions_lost[p]
    row[SEAT.vp_tokens_won] = s.tokens_won[p]
    row[SEAT.vp_tokens_lost] = s.tokens_lost[p]
    row[SEAT.cards_taken] = s.cards_taken[p]
    row[SEAT.cards_drawn] = s.cards_drawn[p]
    row[SEAT.items_drawn] = s.items_drawn[p]
    row[SEAT.shoes_used] = s.shoes_used[p]
    row[SEAT.triggered_end] = 1 if s.trigger_player == p else 0


@compiled
def write_game(row, s, best, leaders):
    """One games row: the game's own columns, then the core's unfolding columns
    (``simulator/core/unfolding.py``)."""
    duplicated = 0
    negated = 0
    moved = 0
    for p in range(s.n_players):
        duplicated += s.times_duplicated[p]
        negated += s.times_negated[p]
        moved += s.companions_won[p]
    row[GAME.first_to_act] = s.first_to_act
    row[GAME.turns] = s.turns
    row[GAME.truncated] = s.truncated
    row[GAME.rounds] = s.round_no
    row[GAME.end_trigger_id] = s.end_trigger
    row[GAME.deck_reshuffles] = s.deck_reshuffles
    row[GAME.spells_duplicated] = duplicated
    row[GAME.spells_negated] = negated
    row[GAME.companions_moved] = moved
    row[GAME.final_spell_level] = s.level
    row[GAME.cards_left] = s.quest_deck_n + s.quest_discard_n
    row[GAME.winning_score] = best
    write_unfolding(leaders, s.decisions, row[GAME.lead_changes:])


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
