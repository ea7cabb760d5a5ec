"""GEMMiS's search player: its switches and its street directions, played out.

The shared mechanism (budget, searching plans, common random numbers, the choice) is in
``simulator/core/search.py``. What is GEMMiS's own:

- **What a player cannot see** (``redeal_hidden``): only the order of the sack. Zones, street,
  used pile, the gems an Alguazil set aside, scores, small gems and alert levels lie open, so the
  sack's contents are known; its order is shuffled afresh (from a sorted order, so the real one
  never matters) before each rollout.
- **Playing an option out**: a switch, then the rest of that turn (small gems, combinations,
  refills, cascades) and the game; a direction of the street, then the rest of that turn from
  the street's move. Every seat of a rollout plays the searcher's rollout policy.
- **Which switches**: the ``search_breadth`` switches its rollout policy values most (always
  with the policy's own choice among them), so the budget goes to the moves worth comparing.

A search player decides the jokers' colours, the gems taken from the street, small gems and the
Alguazil as its rollout policy does (choices inside the turn it searched).
"""

import numpy as np
from numba.extending import overload

from simulator.core.jit import compiled
from simulator.core.search import (
    add_outcome, best_option, budget, decision_seed, never_searched, new_tally, outcome,
    policy_plans, rollout_stream, searching_plans, shuffle_unseen,
)
from simulator.core.trace import no_log
from simulator.games.gemmis.board import N_PLAYERS, copy_of, standing
from simulator.games.gemmis.codes import SWITCH as SWITCH_LOGGED


@compiled
def redeal_hidden(s, r, p, rng):
    """Re-deal, in the state ``s``, what ``p`` cannot see: the order of the sack."""
    shuffle_unseen(rng, s.sack, s.sack_n)


@compiled
def score_rollout(tally, option, j, table, r, p):
    s = table[0]
    scores = np.zeros(N_PLAYERS, dtype=np.int64)
    for q in range(N_PLAYERS):
        scores[q] = standing(s, r, q)
    share, margin = outcome(scores, N_PLAYERS, p)
    add_outcome(tally, option, j, share, margin)


@compiled
def last_turn(s, r, turns):
    """The turn a rollout stops at: ``turns`` turns on, or the game's end (0)."""
    return s.turn + turns if turns > 0 else r.max_turns + 1


# The decisions a search player searches (``searched``'s ``decision``): its switch (options are
# rows of (kind, a, b)) and the way the street moves (the first column of options: the direction).
SWITCH, DIRECTION = range(2)


def searched(decision, s, r, p, plans, rng, options, n):
    """Which of the ``n`` options (``options[:n]``) a search player takes."""
    raise NotImplementedError("compiled only")


@overload(searched, jit_options={"cache": True})
def _searched(decision, s, r, p, plans, rng, options, n):
    if not searching_plans(plans):
        return never_searched
    # The rules play the options out and the players choose in them: imported late, as the
    # rules import the players, who import this module.
    from simulator.games.gemmis import turn
    from strategies import gemmis as players

    def impl(decision, s, r, p, plans, rng, options, n):
        rollouts, turns, _, confidence = budget(plans[1][p])
        policy = policy_plans(plans, p, N_PLAYERS)
        seed = decision_seed(rng)
        own = rollout_stream(seed, rollouts)
        # the candidates: every direction; the switches its policy values most
        candidates = np.arange(n)
        k = n
        if decision == SWITCH:
            anchor = players.choose_switch(s, r, p, policy, own, options, n)
            breadth = max(1, int(plans[1][p][players.W_SEARCH_BREADTH]))
            if breadth < n:
                values = np.empty(n, dtype=np.float64)
                players.switch_values(s, r, p, policy[1][p], options, n, values, own)
                values[anchor] = 1e18
                candidates = np.argsort(-values)[:breadth]
                k = breadth
        else:
            anchor = players.choose_direction(s, r, p, policy, own)
        start = 0
        for c in range(k):
            if candidates[c] == anchor:
                start = c
        tally = new_tally(k, rollouts)
        for c in range(k):
            o = candidates[c]
            for j in range(rollouts):
                rr = rollout_stream(seed, j)
                table = copy_of(s)
                x = table[0]
                redeal_hidden(x, r, p, rr)
                if decision == SWITCH:  # then the rest of the turn
                    turn.switch(x, no_log(), p, options[o, 0], options[o, 1], options[o, 2],
                                SWITCH_LOGGED)
                    turn.after_switch(x, r, policy, rr, no_log())
                else:  # the street moves, then the rest of the turn
                    turn.street_moves(x, r, policy, rr, no_log(), options[o, 0])
                    turn.next_combination(x, r, rr, no_log())
                    turn.combinations_and_cascades(x, r, policy, rr, no_log())
                    turn.end_turn(x)
                turn.play_on(x, r, policy, rr, no_log(), last_turn(x, r, turns))
                score_rollout(tally, c, j, table, r, p)
        return candidates[best_option(tally, k, start, confidence)]
    return impl
