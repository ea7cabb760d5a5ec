"""Gnomeland's search player: each action of its turn, played out.

The search itself (budget, searching plans, common random numbers, the rollouts, the choice) is
the core's (``simulator/core/search.py``); this module declares the game's verbs.
What is Gnomeland's own:

- **What a player cannot see** (``redeal_hidden``): only the order of the three decks (missions,
  actions, spells). Every board, hand, Warehouse, Mercenary, gnome and this round's dice are in
  view; the decks' contents are known (what has not been seen yet), their order is not. Each
  rollout re-deals them in a random order.
- **Playing an option out**: the action, then the rest of the searcher's turn, the round and the
  game (or ``rollout_turns`` rounds, counting the current one), every seat played by the
  searcher's rollout policy with the searcher's weights; a rollout is judged on the scores with
  the building points (the final scores at the game's end).

Every other decision of a search player (copying, Warehouses, Favour's re-rolls, Mercenaries in
a contest) is made as its rollout policy makes it.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.rng import seed_stream
from simulator.core.search import (
    declares, option_features, play_on, redeal, rollout_scores, searches, shuffle_unseen, take_option,
    tried_options,
)
from simulator.core.trace import no_log
from simulator.games.gnomeland import turn  # (the rules import the players, never this module)
from simulator.games.gnomeland.board import MAX_DECK, MAX_PLAYERS, STATE, copy_of, final_score
from simulator.games.gnomeland.codes import OPT_END
from strategies import gnomeland as players


@compiled
def redeal_hidden(s, rng):
    """Re-deal, in the state ``s``, the cards whose order no player knows: the decks."""
    pool = np.empty(MAX_DECK, dtype=np.int64)
    n = s.mission_deck_n
    pool[:n] = s.mission_deck[:n]
    shuffle_unseen(rng, pool, n)
    s.mission_deck[:n] = pool[:n]
    n = s.action_deck_n
    pool[:n] = s.action_deck[:n]
    shuffle_unseen(rng, pool, n)
    s.action_deck[:n] = pool[:n]
    n = s.spell_deck_n
    pool[:n] = s.spell_deck[:n]
    shuffle_unseen(rng, pool, n)
    s.spell_deck[:n] = pool[:n]


@declares(searches, STATE)
def choices():
    """A lone action is taken without a search (nor a draw)."""
    return lambda decision, s, n: n > 1


@declares(tried_options, STATE)
def every_action():
    """Every action is tried; the policy's is the one it values most."""
    def tried(decision, s, r, p, policy, own, options, n):
        values = np.zeros(options.shape[0], dtype=np.float64)
        return np.arange(n), n, players.choose_option(s, r, p, policy, own, options, n, values)
    return tried


@declares(option_features, STATE)
def expert_features():
    """What the learnt expert weighs (recorded by ``playtest distill``)."""
    return lambda decision, s, r, p, plans, options, n: players.option_features(
        decision, s, r, p, options, n)


@declares(redeal, STATE)
def redeal_decks():
    return lambda x, r, p, rng: redeal_hidden(x, rng)


@declares(take_option, STATE)
def action():
    def take(decision, x, r, p, policy, rng, options, o):
        if options[o, 0] == OPT_END:
            turn.end_of_turn(x, r, policy, rng, no_log(), p)
        else:
            turn.apply_option(x, r, policy, rng, no_log(), p, options[o, 0], options[o, 1],
                              options[o, 2])
    return take


@declares(play_on, STATE)
def rounds_on():
    """On to the game's end, or to the end of the ``turns``-th round, the current one counted."""
    return lambda s, x, r, policy, rng, turns: turn.play_on(x, r, policy, rng, no_log(), turns)


@declares(rollout_scores, STATE)
def scores_with_buildings():
    def scores(table, r):
        s = table[0]
        out = np.zeros(s.n_players, dtype=np.int64)
        for q in range(s.n_players):
            out[q] = final_score(s, r, q)
        return out
    return scores


def load_rollout_functions(rules, n_players):
    """Call, from Python, the heuristic-plans versions of the functions a search's rollouts
    call while the searching game loop is being compiled (``choose_option``, ``play_on`` and
    the turn's steps), on one throw-away game.

    In the searching loop numba lowers those calls as calls to symbols resolved at run time
    (the functions are on its compile stack: a "recursion", see ``core/game.py``). A process
    that loads the searching loop from the cache must have those symbols defined; loading each
    function's own compiled code (this call) defines them, whatever the compiler inlined into
    the heuristic kernel."""
    r = rules[0]
    ids = np.full(MAX_PLAYERS, players.BALANCED, dtype=np.int64)
    plans = (ids, players.DEFAULT_WEIGHTS[ids].copy())
    rng = seed_stream(0, 0)
    table = turn.new_game(r, n_players, plans, rng, no_log()).view(np.recarray)
    s = table[0]
    turn.begin_round(s, r, rng, no_log())
    s.turn_in_round = 0
    turn.start_turn(s, r, rng, no_log(), s.first_player)
    opts = np.zeros((turn.MAX_OPTIONS, 4), dtype=np.int64)
    values = np.zeros(turn.MAX_OPTIONS, dtype=np.float64)
    n = turn.list_options(s, r, s.first_player, opts)
    i = players.choose_option(s, r, s.first_player, plans, rng, opts, n, values)
    turn.apply_option(s, r, plans, rng, no_log(), s.first_player, opts[i, 0], opts[i, 1], opts[i, 2])
    turn.continue_turn(s, r, plans, rng, no_log(), s.first_player)
    turn.end_of_turn(s, r, plans, rng, no_log(), s.first_player)
    turn.play_on(s, r, plans, rng, no_log(), np.int64(0))
    return table
