"""Grimoire's batch kernel: its stats columns (one row per seat, one per game), how a finished
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
from simulator.games.grimoire.board import (
    MAX_PLAYERS, N_SPELLS, STATE, companion_count, item_count, score, scoring_came_up,
    treasure_count, vp_companions, vp_items, vp_junk, vp_tokens, vp_treasures,
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


# The game's steps in the core's loop, each declared for its state (core/search.py's declares).

@declares(turns_noted, STATE)
def each_quest_turn():
    """A leader noted after each quest turn: one per player and round, up to ``max_rounds``."""
    return lambda state, r, n_players: r.max_rounds * n_players


@declares(play_one, STATE)
def as_dealt():
    """A game: no setup field of its own."""
    return lambda state, r, n_players, own, plans, mix_slot, rng, log, leaders: play_game(
        r, n_players, plans, rng, log, leaders)


@declares(write_rows, STATE)
def finished():
    """The rows as ``finish`` writes them."""
    def write(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
        finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log)
    return write


@compiled(nogil=True)
def play_games(rules, run_seed, first_game, n_games, n_players, seatings, mix_ids, mix_weights,
               own, seats, games, log, searching):
    """A block of games: the core's loop (``simulator/core/kernel.py``) over Grimoire's steps."""
    play_batch(STATE, MAX_PLAYERS, rules, run_seed, first_game, n_games, n_players, seatings,
               mix_ids, mix_weights, own, seats, games, log, searching)
