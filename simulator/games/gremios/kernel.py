"""Gremios's batch kernel: its stats columns (one row per seat, one per game), how a finished
game is written, and the game's own steps in the core's batch loop (``simulator/core/kernel.py``,
which plays the blocks of games and the replays).
"""

import numpy as np

from simulator.core.columns import columns
from simulator.core.jit import compiled
from simulator.core.kernel import play_batch, play_one, turns_noted, write_rows
from simulator.core.ranking import rank_players
from simulator.core.search import declares
from simulator.core.seating import seat_fixed_roles
from simulator.core.unfolding import UNFOLDING_COLUMNS, write_unfolding
from simulator.games.gremios.board import (
    COIN_SOURCE_NAMES, MAX_PLAYERS, N_COIN_SOURCES, N_GUILDS, STATE, victory_points, vp_emblem,
    vp_inns, vp_top_investor, vp_treasures,
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


@compiled
def finish(table, r, n_players, mix_slot, seats, first_row, game_row, leaders, log):
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
        write_seat(seats[first_row + p], s, r, p, mix_slot[p], score[p], rank[p])
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


# The game's steps in the core's loop, each declared for its state (core/search.py's declares).

@declares(turns_noted, STATE)
def each_turn():
    """A leader noted after each turn, up to ``max_turns``."""
    return lambda state, r, n_players: r.max_turns


@declares(play_one, STATE)
def in_its_mode_with_fixed_roles():
    """A game in its mode (``own``: mode, each seat's roles from ``--roles`` and each mix entry's
    roles); a seat holds its mix entry's fixed roles, else its own (-1: dealt)."""
    def play(state, r, n_players, own, plans, mix_slot, rng, log, leaders):
        mode, fixed_roles, slot_roles = own
        roles = seat_fixed_roles(mix_slot, n_players, fixed_roles, slot_roles)
        return play_game(r, n_players, mode, roles, plans, rng, log, leaders)
    return play


@declares(write_rows, STATE)
def finished():
    """The rows as ``finish`` writes them."""
    def write(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
        finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log)
    return write


@compiled(nogil=True)
def play_games(rules, run_seed, first_game, n_games, n_players, seatings, mix_ids, mix_weights,
               own, seats, games, log, searching):
    """A block of games: the core's loop (``simulator/core/kernel.py``) over Gremios's steps."""
    play_batch(STATE, MAX_PLAYERS, rules, run_seed, first_game, n_games, n_players, seatings,
               mix_ids, mix_weights, own, seats, games, log, searching)
