"""Gnomeland batch kernel: a block of games, one stats row per seat and one per game.

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
from simulator.games.gnomeland.board import (
    ACTION_NAMES, FIRST_NORMAL_CARD, FIRST_SPECIAL_CARD, MAX_PLAYERS, MISSION_NAMES, N_ACTIONS,
    N_CARDS, N_MISSIONS, N_SOURCES, N_SPELLS, NORMAL_NAMES, SOURCE_NAMES, SPECIAL_NAMES,
    SPELL_NAMES, building_points, final_score, vp_normal, vp_special,
)
from simulator.games.gnomeland.turn import play_game


def _snake(name):
    return name.lower().replace("'", "").replace(" ", "_")


# Per-seat columns the kernel fills (the core columns are assembled by the batch driver).
POINT_SOURCES = ("vp_missions", "vp_contests", "vp_normal_buildings", "vp_special_buildings")
GAINED_COLUMNS = tuple(f"gained_{n}" for n in SOURCE_NAMES)
SPELL_COLUMNS = tuple(f"cast_{_snake(n)}" for n in SPELL_NAMES)
ACTION_COLUMNS = tuple(f"tavern_{_snake(n)}" for n in ACTION_NAMES)
# Which cards decide games: the points each mission card gave (either side), and how far each
# building card of the player's deck got (0 never built, 1 built, 2 upgraded).
MISSION_COLUMNS = tuple(f"vp_mission_{_snake(base)}" for base, _ in MISSION_NAMES)
CARD_COLUMNS = tuple(f"card_{_snake(base)}" for base, _ in
                     NORMAL_NAMES[FIRST_NORMAL_CARD:] + SPECIAL_NAMES[FIRST_SPECIAL_CARD:])
SEAT_COLUMNS = ("strategy_index", "score", "rank", "winner") + POINT_SOURCES + (
    "building_points",) + GAINED_COLUMNS + (
    "gained_coin", "gained_mana", "gained_weapons", "resources_discarded", "supply_short",
    "dice_spent", "copies", "copied_by_others", "gnomes_spent", "gnomes_recalled",
    "gnomes_lost", "gnomes_left", "mercenaries_hired", "built_normal", "built_special",
    "upgraded_normal", "upgraded_special", "missions_completed", "rivals_beaten",
) + SPELL_COLUMNS + ACTION_COLUMNS + MISSION_COLUMNS + CARD_COLUMNS + ("first_player",)
GAME_COLUMNS = ("first_seat", "turns", "rounds", "truncated", "brawls", "magic_challenges",
                "contests", "action_reshuffles", "missions_completed", "copies", "winning_score",
                "winners")
N_OWN_GAME_COLUMNS = len(GAME_COLUMNS)
GAME_COLUMNS += UNFOLDING_COLUMNS
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
N_GAME_COLUMNS = len(GAME_COLUMNS)


@compiled
def write_seat(row, s, r, p, mix_slot, points, rank):
    """One seats row, in SEAT_COLUMNS order."""
    row[0] = mix_slot
    row[1] = points
    row[2] = rank
    row[3] = 1 if rank == 1 else 0
    row[4] = s.vp_missions[p]
    row[5] = s.vp_contests[p]
    row[6] = vp_normal(s, r, p)
    row[7] = vp_special(s, r, p)
    row[8] = building_points(s, r, p)
    k = 9
    for i in range(N_SOURCES):
        row[k] = s.gained[p, i]
        k += 1
    for i in range(3):
        row[k] = s.gained_kind[p, i]
        k += 1
    tavern = 0
    for a in range(N_ACTIONS):
        tavern += s.tavern_used[p, a]
    row[k] = s.lost[p]
    row[k + 1] = s.supply_short[p]
    row[k + 2] = s.dice_used[p]
    row[k + 3] = s.copies[p]
    row[k + 4] = s.copied_from[p]
    row[k + 5] = s.copies[p] + tavern
    row[k + 6] = s.gnomes_recalled[p]
    row[k + 7] = s.gnomes_lost[p]
    row[k + 8] = s.gnomes_home[p]
    row[k + 9] = s.hired[p]
    row[k + 10] = s.built[p, 0]
    row[k + 11] = s.built[p, 1]
    row[k + 12] = s.upgraded[p, 0]
    row[k + 13] = s.upgraded[p, 1]
    row[k + 14] = s.missions_done[p]
    row[k + 15] = s.beaten[p]
    k += 16
    for i in range(N_SPELLS):
        row[k] = s.cast[p, i]
        k += 1
    for a in range(N_ACTIONS):
        row[k] = s.tavern_used[p, a]
        k += 1
    for m in range(N_MISSIONS):
        row[k] = s.vp_by_mission[p, m]
        k += 1
    for kind in range(2):
        for i in range(N_CARDS):
            row[k] = s.card_level[p, kind, i]
            k += 1
    row[k] = 1 if s.first_seat == p else 0


@compiled
def finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders):
    """Final scoring and ranking (ties: more building points, else shared), then the rows (the
    game's own columns, then the core's unfolding columns from ``leaders``).

    Takes the one-element ``table``, not its record: numba frees an array after its last use even
    while a record taken from it is still read (see ``simulator/core/tables.py``).
    """
    s = table[0]
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    tiebreak = np.zeros(MAX_PLAYERS, dtype=np.int64)
    rank = np.zeros(MAX_PLAYERS, dtype=np.int64)
    best = 0
    missions = 0
    copies = 0
    for p in range(n_players):
        points[p] = final_score(s, r, p)
        tiebreak[p] = building_points(s, r, p)
        best = max(best, points[p])
        missions += s.missions_done[p]
        copies += s.copies[p]
    rank_players(points, tiebreak, n_players, rank)
    winners = 0
    for p in range(n_players):
        write_seat(seats[first_row + p], s, r, p, mix_slot[p], points[p], rank[p])
        if rank[p] == 1:
            winners += 1
    games_row[0] = s.first_seat
    games_row[1] = s.turns
    games_row[2] = s.round_no
    games_row[3] = s.truncated
    games_row[4] = s.brawls
    games_row[5] = s.challenges
    games_row[6] = s.brawls + s.challenges
    games_row[7] = s.action_reshuffles
    games_row[8] = missions
    games_row[9] = copies
    games_row[10] = best
    games_row[11] = winners
    write_unfolding(leaders, s.decisions, games_row[N_OWN_GAME_COLUMNS:])


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
        leaders = new_leaders(r.rounds * n_players)  # a turn each per round
        table = play_game(r, n_players, plans, rng, log, leaders)
        finish(table, r, n_players, mix_slot, seats, i * n_players, games[i], leaders)
        if stop_at_broken(log, game_index):
            return
