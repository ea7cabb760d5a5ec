"""The batch kernel's loop, once for every game: a block of games, one stats row per seat and one
per game.

Game ``i`` of a run draws from the stream seeded by (run seed, i) and seats its strategies by
row ``i`` of the seat design (``core/seating.py``), so a game's outcome is the same whatever
chunk, thread or backend plays it. A replay is a block of one game with a log (``core/game.py``
runs the blocks, several threads at once; in a batch ``log`` is a tally of the rules that came
up, ``core/trace.py``).

A game's ``kernel.py`` holds its columns and how its finished game is written, declares its three
steps of the loop (``@declares(step, STATE)``, ``core/search.py``: each chosen by the type of the
game's state, so no function is passed as an argument, which numba would not cache) and has an
entry point, ``play_games``, that calls ``play_batch`` with its state's dtype. ``play_batch`` is
compiled into that entry point and is not cached itself: the core's cache never holds a game's
code, and editing one game recompiles only that game.
"""

from numba.extending import overload

from simulator.core.rng import seed_stream
from simulator.core.search import declared
from simulator.core.seating import seat_plans
from simulator.core.trace import stop_at_broken
from simulator.core.unfolding import new_leaders


def play_batch(state, max_players, rules, run_seed, first_game, n_games, n_players, seatings,
               mix_ids, mix_weights, own, seats, games, log, searching):
    """Play games ``first_game .. first_game + n_games - 1`` of the game whose tables are records
    of ``state`` and seat up to ``max_players``; fill ``seats`` and ``games`` (and ``log``).
    ``own`` holds the setup fields only that game reads (``core/game.py``'s
    ``kernel_entry_points``), for its ``play_one``."""
    r = rules[0]
    for i in range(n_games):
        game_index = first_game + i
        rng = seed_stream(run_seed, game_index)
        plans, mix_slot = seat_plans(game_index, n_players, max_players, seatings, mix_ids,
                                     mix_weights, searching)
        leaders = new_leaders(turns_noted(state, r, n_players))
        table = play_one(state, r, n_players, own, plans, mix_slot, rng, log, leaders)
        write_rows(table, r, n_players, mix_slot, seats, i * n_players, games[i], leaders, log)
        if stop_at_broken(log, game_index):
            return


# Not cached: compiled anew into each game's cached entry point, with that game's steps.
@overload(play_batch)
def _play_batch(state, max_players, rules, run_seed, first_game, n_games, n_players, seatings,
                mix_ids, mix_weights, own, seats, games, log, searching):
    return play_batch


# The steps a game declares for its state; ``state`` is the dtype, ``table`` a finished game.

def turns_noted(state, r, n_players):
    """How many turns (or rounds) a game notes its leader after, at most: the length of the
    unfolding's leaders table (``core/unfolding.py``)."""
    return declared(turns_noted, state)(state, r, n_players)


def play_one(state, r, n_players, own, plans, mix_slot, rng, log, leaders):
    """Set up and play one game from its seats' ``plans`` (``mix_slot``: each seat's entry of
    the mix) and the game's own setup fields ``own``, noting the ``leaders``; the finished
    table."""
    return declared(play_one, state)(state, r, n_players, own, plans, mix_slot, rng, log,
                                     leaders)


def write_rows(table, r, n_players, mix_slot, seats, first_row, games_row, leaders, log):
    """Score and rank the finished game in ``table`` and write its seat rows
    (``seats[first_row:first_row + n_players]``, the columns ``SEAT`` of the game's kernel
    declares) and its games row (``GAME``)."""
    return declared(write_rows, table.dtype)(table, r, n_players, mix_slot, seats, first_row,
                                             games_row, leaders, log)
