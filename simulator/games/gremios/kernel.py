"""Gremios batch kernel: a block of games, one stats row per seat and one per game.

Game ``i`` of a run draws from the stream seeded by (run seed, i) and seats its strategies by
row ``i`` of the seat design (``simulator/core/seating.py``), so a game's outcome is the same
whatever chunk, thread or backend plays it. A replay is a block of one game with a log
(``simulator/core/game.py`` runs the blocks, several threads at once).
"""

import numpy as np

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
SEAT_COLUMNS = (
    "strategy_index", "role_id", "second_role_id", "role_not_chosen_id", "score", "rank", "winner",
    "vp_top_investor", "vp_inns", "vp_treasures", "vp_emblem",
) + tuple(f"coins_{name}" for name in COIN_SOURCE_NAMES) + (
    "coins_final", "guild_investments", "expedition_investments", "guilds_topped", "lands_bought",
    "inns_built", "inns_destroyed", "inns_repaired", "treasures_taken", "treasures_bought",
    "treasures_cashed", "treasures_held", "mutinies_caused", "emblem",
)
GAME_COLUMNS = (
    "turns", "truncated", "rolls", "sevens", "events_revealed", "expeditions", "expeditions_won",
    "mutinies", "bankruptcies", "invasions", "event_reshuffles", "guilds_founded", "winning_score",
)
N_OWN_GAME_COLUMNS = len(GAME_COLUMNS)
GAME_COLUMNS += UNFOLDING_COLUMNS
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
assert N_COIN_SOURCES == 6  # write_seat lists the six coins_<source> columns
N_GAME_COLUMNS = len(GAME_COLUMNS)


@compiled
def write_seat(row, s, r, p, mix_slot, score, rank):
    """One seats row, in SEAT_COLUMNS order."""
    topped = 0
    for g in range(N_GUILDS):
        if s.top_investor[g] == p:
            topped += 1
    winner = np.int64(rank == 1)
    holds_emblem = np.int64(s.emblem == p)
    values = (
        mix_slot, s.roles[p, 0], s.roles[p, 1], s.role_not_chosen[p], score, rank, winner,
        vp_top_investor(s, r, p), vp_inns(s, r, p), vp_treasures(s, r, p), vp_emblem(s, r, p),
        s.coins_from[p, 0], s.coins_from[p, 1], s.coins_from[p, 2], s.coins_from[p, 3],
        s.coins_from[p, 4], s.coins_from[p, 5],
        s.coins[p], s.guild_investments_made[p], s.expedition_investments_made[p], topped,
        s.lands_bought[p], s.inns_built[p], s.inns_lost[p], s.inns_repaired[p],
        s.treasures_taken[p], s.treasures_bought[p], s.treasures_cashed[p], treasure_count(s, p),
        s.mutinies_caused[p], holds_emblem,
    )
    for k in range(N_SEAT_COLUMNS):
        row[k] = values[k]


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
    values = (s.turn, s.truncated, s.rolls, s.sevens, s.events_revealed, s.expeditions,
              s.expeditions_won, s.mutinies, s.bankruptcies, s.invasions, s.event_reshuffles,
              founded, best)  # GAME_COLUMNS, in order, before the core's unfolding columns
    for k in range(N_OWN_GAME_COLUMNS):
        game_row[k] = values[k]
    write_unfolding(leaders, s.decisions, game_row[N_OWN_GAME_COLUMNS:])
