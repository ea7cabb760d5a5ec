"""Gremios batch kernel: a block of games, one stats row per seat and one per game.

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
from simulator.core.seating import seat_fixed_roles, seat_plans
from simulator.core.trace import stop_at_broken
from simulator.core.unfolding import UNFOLDING_COLUMNS, new_leaders, write_unfolding
from simulator.games.gremios.board import (
    COIN_SOURCE_NAMES, MAX_PLAYERS, N_COIN_SOURCES, N_GUILDS, victory_points, vp_emblem, vp_inns,
    vp_top_investor, vp_treasures,
    treasure_count,
)
from simulator.games.gremios.turn import play_game

# Per-seat columns the kernel fills (the core columns game_id, seat, strategy, role, score, rank,
# winner and win_share are assembled from the first ones by the batch driver).
SEAT = columns(
    "strategy_index", "role_id", "second_role_id", "role_not_chosen_id", "score", "rank", "winner",
    "vp_top_investor", "vp_inns", "vp_treasures", "vp_emblem",
    *(f"coins_{name}" for name in COIN_SOURCE_NAMES),
    "coins_final", "guild_investments", "expedition_investments", "guilds_topped", "lands_bought",
    "inns_built", "inns_destroyed", "inns_repaired", "treasures_taken", "treasures_bought",
    "treasures_cashed", "treasures_held", "mutinies_caused", "emblem")
GAME = columns(
    "turns", "truncated", "rolls", "sevens", "events_revealed", "expeditions", "expeditions_won",
    "mutinies", "bankruptcies", "invasions", "event_reshuffles", "guilds_founded", "winning_score",
    *UNFOLDING_COLUMNS)
FIRST_COINS = SEAT._fields.index(f"coins_{COIN_SOURCE_NAMES[0]}")


@compiled
def write_seat(row, s, r, p, mix_slot, score, rank):
    """One seats row."""
    topped = 0
    for g in range(N_GUILDS):
        if s.top_investor[g] == p:
            topped += 1
    row[SEAT.strategy_index] = mix_slot
    row[SEAT.role_id] = s.roles[p, 0]
    row[SEAT.second_role_id] = s.roles[p, 1]
    row[SEAT.role_not_chosen_id] = s.role_not_chosen[p]
    row[SEAT.score] = score
    row[SEAT.rank] = rank
    row[SEAT.winner] = 1 if rank == 1 else 0
    row[SEAT.vp_top_investor] = vp_top_investor(s, r, p)
    row[SEAT.vp_inns] = vp_inns(s, r, p)
    row[SEAT.vp_treasures] = vp_treasures(s, r, p)
    row[SEAT.vp_emblem] = vp_emblem(s, r, p)
    for source in range(N_COIN_SOURCES):
        row[FIRST_COINS + source] = s.coins_from[p, source]
    row[SEAT.coins_final] = s.coins[p]
    row[SEAT.guild_investments] = s.guild_investments_made[p]
    row[SEAT.expedition_investments] = s.expedition_investments_made[p]
    row[SEAT.guilds_topped] = topped
    row[SEAT.lands_bought] = s.lands_bought[p]
    row[SEAT.inns_built] = s.inns_built[p]
    row[SEAT.inns_destroyed] = s.inns_lost[p]
    row[SEAT.inns_repaired] = s.inns_repaired[p]
    row[SEAT.treasures_taken] = s.treasures_taken[p]
    row[SEAT.treasures_bought] = s.treasures_bought[p]
    row[SEAT.treasures_cashed] = s.treasures_cashed[p]
    row[SEAT.treasures_held] = treasure_count(s, p)
    row[SEAT.mutinies_caused] = s.mutinies_caused[p]
    row[SEAT.emblem] = 1 if s.emblem == p else 0


@compiled(nogil=True)
def play_games(rules, run_seed, first_game, n_games, n_players, mode, fixed_roles, seatings,
               mix_ids, mix_weights, slot_roles, seats, games, log, searching):
    """Play games ``first_game .. first_game + n_games - 1``; fill ``seats`` and ``games``
    (and ``log``: empty in a batch, a replay's log for its one game)."""
    for i in range(n_games):
        game_index = first_game + i
        rng = seed_stream(run_seed, game_index)
        plans, mix_slot = seat_plans(game_index, n_players, MAX_PLAYERS, seatings, mix_ids,
                                     mix_weights, searching)
        roles = seat_fixed_roles(mix_slot, n_players, fixed_roles, slot_roles)
        leaders = new_leaders(rules[0].max_turns)
        table = play_game(rules[0], n_players, mode, roles, plans, rng, log, leaders)
        record_game(table, rules[0], n_players, mix_slot, seats[i * n_players:(i + 1) * n_players],
                    games[i], leaders)
        if stop_at_broken(log, game_index):
            return


@compiled
def record_game(table, r, n_players, mix_slot, seat_rows, game_row, leaders):
    """Write a finished game's seat rows and game row.

    Takes the one-element ``table`` rather than its record: numba frees an array after its last
    use even while a record taken from it is still read, so the array must stay in hand.
    """
    s = table[0]
    score = np.zeros(MAX_PLAYERS, dtype=np.int64)
    tiebreak = np.zeros(MAX_PLAYERS, dtype=np.int64)
    rank = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for p in range(n_players):
        score[p] = victory_points(s, r, p)
    rank_players(score, tiebreak, n_players, rank)  # no tie-break in the rulebook
    for p in range(n_players):
        write_seat(seat_rows[p], s, r, p, mix_slot[p], score[p], rank[p])
    founded = 0
    for g in range(N_GUILDS):
        founded += s.guild_open[g]
    best = 0
    for p in range(n_players):
        best = max(best, score[p])
    row = game_row  # GAME
    row[GAME.turns] = s.turn
    row[GAME.truncated] = s.truncated
    row[GAME.rolls] = s.rolls
    row[GAME.sevens] = s.sevens
    row[GAME.events_revealed] = s.events_revealed
    row[GAME.expeditions] = s.expeditions
    row[GAME.expeditions_won] = s.expeditions_won
    row[GAME.mutinies] = s.mutinies
    row[GAME.bankruptcies] = s.bankruptcies
    row[GAME.invasions] = s.invasions
    row[GAME.event_reshuffles] = s.event_reshuffles
    row[GAME.guilds_founded] = founded
    row[GAME.winning_score] = best
    write_unfolding(leaders, s.decisions, row[GAME.lead_changes:])
