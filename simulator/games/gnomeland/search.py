"""Gnomeland's search player: each action of its turn, played out.

The shared mechanism (budget, searching plans, common random numbers, the choice) is in
``simulator/core/search.py``. What is Gnomeland's own:

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
from numba.extending import overload

from simulator.core.jit import compiled
from simulator.core.search import (
    add_outcome, best_option, budget, decision_seed, never_searched, new_tally, outcome,
    policy_plans, rollout_stream, searching_plans, shuffle_unseen,
)
from simulator.core.trace import no_log
from simulator.games.gnomeland.board import MAX_DECK, MAX_PLAYERS, copy_of, final_score
from simulator.games.gnomeland.codes import OPT_END


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


@compiled
def score_rollout(tally, option, j, table, r, p):
    s = table[0]
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for q in range(s.n_players):
        scores[q] = final_score(s, r, q)
    share, margin = outcome(scores, s.n_players, p)
    add_outcome(tally, option, j, share, margin)


# The decision a search player searches (``searched``'s ``decision``): its next action (the
# rows of ``options`` are the turn's legal actions).
ACTION = 0


def searched(decision, s, r, p, plans, rng, options, n):
    """Which of the ``n`` actions (``options[:n]``) a search player takes."""
    raise NotImplementedError("compiled only")


@overload(searched, jit_options={"cache": True})
def _searched(decision, s, r, p, plans, rng, options, n):
    if not searching_plans(plans):
        return never_searched
    # The rules play the options out and the players choose in them: imported late, as the
    # rules import the players, who import this module.
    from simulator.games.gnomeland import turn
    from strategies import gnomeland as players

    def impl(decision, s, r, p, plans, rng, options, n):
        if n == 1:
            return 0
        rollouts, rounds, _, confidence = budget(plans[1][p])
        policy = policy_plans(plans, p, MAX_PLAYERS)
        seed = decision_seed(rng)
        values = np.zeros(options.shape[0], dtype=np.float64)
        anchor = players.choose_option(s, r, p, policy, rollout_stream(seed, rollouts), options,
                                       n, values)
        tally = new_tally(n, rollouts)
        for o in range(n):
            for j in range(rollouts):
                rr = rollout_stream(seed, j)
                table = copy_of(s)
                x = table[0]
                redeal_hidden(x, rr)
                if options[o, 0] == OPT_END:
                    turn.end_of_turn(x, r, policy, rr, no_log(), p)
                else:
                    turn.apply_option(x, r, policy, rr, no_log(), p, options[o, 0],
                                      options[o, 1], options[o, 2])
                turn.play_on(x, r, policy, rr, no_log(), rounds)
                score_rollout(tally, o, j, table, r, p)
        return best_option(tally, n, anchor, confidence)
    return impl


def load_rollout_functions(rules, n_players):
    """Call, from Python, the heuristic-plans versions of the functions a search's rollouts
    call while the searching game loop is being compiled (``choose_option``, ``play_on`` and
    the turn's steps), on one throw-away game.

    In the searching loop numba lowers those calls as calls to symbols resolved at run time
    (the functions are on its compile stack: a "recursion", see ``core/game.py``). A process
    that loads the searching loop from the cache must have those symbols defined; loading each
    function's own compiled code (this call) defines them, whatever the compiler inlined into
    the heuristic kernel."""
    from simulator.core.rng import seed_stream
    from simulator.games.gnomeland import turn
    from strategies import gnomeland as players
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
