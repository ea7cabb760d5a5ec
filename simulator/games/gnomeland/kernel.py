"""Gnomeland's batch kernel: its stats columns (one row per seat, one per game), how a finished
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
from simulator.games.gnomeland.board import (
    ACTION_NAMES, FIRST_NORMAL_CARD, FIRST_SPECIAL_CARD, MAX_PLAYERS, MISSION_NAMES, N_ACTIONS,
    N_CARDS, N_MISSIONS, N_SOURCES, N_SPELLS, NORMAL_NAMES, SOURCE_NAMES, SPECIAL_NAMES,
    SPELL_NAMES, STATE, building_points, final_score, vp_normal, vp_special,
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
SEAT = columns(
    "strategy_index", "score", "rank", "winner", *POINT_SOURCES, "building_points",
    *GAINED_COLUMNS, "gained_coin", "gained_mana", "gained_weapons", "resources_discarded",
    "supply_short", "dice_spent", "copies", "copied_by_others", "gnomes_spent", "gnomes_recalled",
    "gnomes_lost", "gnomes_left", "mercenaries_hired", "built_normal", "built_special",
    "upgraded_normal", "upgraded_special", "missions_completed", "rivals_beaten",
    *SPELL_COLUMNS, *ACTION_COLUMNS, *MISSION_COLUMNS, *CARD_COLUMNS, "first_player")
GAME = columns("first_seat", "turns", "rounds", "truncated", "brawls", "magic_challenges",
               "contests", "action_reshuffles", "missions_completed", "copies", "winning_score",
               "winners", *UNFOLDING_COLUMNS)
# Where each family of columns starts (the names are built from the rule data's names).
FIRST_GAINED, FIRST_SPELL, FIRST_ACTION, FIRST_MISSION, FIRST_CARD = (
    SEAT._fields.index(family[0])
    for family in (GAINED_COLUMNS, SPELL_COLUMNS, ACTION_COLUMNS, MISSION_COLUMNS, CARD_COLUMNS))


@compiled
def write_seat(row, s, r, p, mix_slot, points, rank):
    """One seats row."""
    row[SEAT.strategy_index] = mix_slot
    row[SEAT.score] = points
    row[SEAT.rank] = rank
    row[SEAT.winner] = 1 if rank == 1 else 0
    row[SEAT.vp_missions] = s.vp_missions[p]
    row[SEAT.vp_contests] = s.vp_contests[p]
    row[SEAT.vp_normal_buildings] = vp_normal(s, r, p)
    row[SEAT.vp_special_buildings] = vp_special(s, r, p)
    row[SEAT.building_points] = building_points(s, r, p)
    for i in range(N_SOURCES):
        row[FIRST_GAINED + i] = s.gained[p, i]
    for i in range(3):  # coin, mana, weapons
        row[SEAT.gained_coin + i] = s.gained_kind[p, i]
    tavern = 0
    for a in range(N_ACTIONS):
        tavern += s.tavern_used[p, a]
    row[SEAT.resources_discarded] = s.lost[p]
    row[SEAT.supply_short] = s.supply_short[p]
    row[SEAT.dice_spent] = s.dice_used[p]
    row[SEAT.copies] = s.copies[p]
    row[SEAT.copied_by_others] = s.copied_from[p]
    row[SEAT.gnomes_spent] = s.copies[p] + tavern
    row[SEAT.gnomes_recalled] = s.gnomes_recalled[p]
    row[SEAT.gnomes_lost] = s.gnomes_lost[p]
    row[SEAT.gnomes_left] = s.gnomes_home[p]
    row[SEAT.mercenaries_hired] = s.hired[p]
    row[SEAT.built_normal] = s.built[p, 0]
    row[SEAT.built_special] = s.built[p, 1]
    row[SEAT.upgraded_normal] = s.upgraded[p, 0]
    row[SEAT.upgraded_special] = s.upgraded[p, 1]
    row[SEAT.missions_completed] = s.missions_done[p]
    row[SEAT.rivals_beaten] = s.beaten[p]
    for i in range(N_SPELLS):
        row[FIRST_SPELL + i] = s.cast[p, i]
    for a in range(N_ACTIONS):
        row[FIRST_ACTION + a] = s.tavern_used[p, a]
    for m in range(N_MISSIONS):
        row[FIRST_MISSION + m] = s.vp_by_mission[p, m]
    k = FIRST_CARD
    for kind in range(2):
        for i in range(N_CARDS):
            row[k] = s.card_level[p, kind, i]
            k += 1
    row[SEAT.first_player] = 1 if s.first_seat == p else 0


@compiled
def finish(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
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
    games_row[GAME.first_seat] = s.first_seat
    games_row[GAME.turns] = s.turns
    games_row[GAME.rounds] = s.round_no
    games_row[GAME.truncated] = s.truncated
    games_row[GAME.brawls] = s.brawls
    games_row[GAME.magic_challenges] = s.challenges
    games_row[GAME.contests] = s.brawls + s.challenges
    games_row[GAME.action_reshuffles] = s.action_reshuffles
    games_row[GAME.missions_completed] = missions
    games_row[GAME.copies] = copies
    games_row[GAME.winning_score] = best
    games_row[GAME.winners] = winners
    write_unfolding(leaders, s.decisions, games_row[GAME.lead_changes:])


# The game's steps in the core's loop, each declared for its state (core/search.py's declares).

@declares(turns_noted, STATE)
def each_turn():
    """A leader noted after each turn: one per player and round."""
    return lambda state, r, n_players: r.rounds * n_players


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
    """A block of games: the core's loop (``simulator/core/kernel.py``) over Gnomeland's steps."""
    play_batch(STATE, MAX_PLAYERS, rules, run_seed, first_game, n_games, n_players, seatings,
               mix_ids, mix_weights, own, seats, games, log, searching)
