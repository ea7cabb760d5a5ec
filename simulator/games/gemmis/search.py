"""GEMMiS's search player: its switches and its street directions, played out.

The search itself (budget, searching plans, common random numbers, the rollouts, the choice) is
the core's (``simulator/core/search.py``); this module declares the game's verbs.
What is GEMMiS's own:

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

from simulator.core.jit import compiled
from simulator.core.search import (
    declares, option_features, play_on, redeal, rollout_scores, searches, shuffle_unseen, take_option,
    tried_options,
)
from simulator.core.trace import no_log
from simulator.games.gemmis.board import N_PLAYERS, STATE, copy_of, standing
from simulator.games.gemmis import turn  # (the rules import the players, never this module)
from simulator.games.gemmis.codes import DECIDE_SWITCH, SWITCH
from strategies import gemmis as players


@compiled
def redeal_hidden(s, r, p, rng):
    """Re-deal, in the state ``s``, what ``p`` cannot see: the order of the sack."""
    shuffle_unseen(rng, s.sack, s.sack_n)


@compiled
def last_turn(s, r, turns):
    """The turn a rollout stops at: ``turns`` turns on, or the game's end (0)."""
    return s.turn + turns if turns > 0 else r.max_turns + 1


@declares(searches, STATE)
def every_decision():
    """Every decision is searched, a lone option too."""
    return lambda decision, s, n: True


@declares(tried_options, STATE)
def valued_switches():
    """Every direction; the ``search_breadth`` switches its policy values most, its own choice
    among them."""
    def tried(decision, s, r, p, policy, own, options, n):
        candidates = np.arange(n)
        k = n
        if decision == DECIDE_SWITCH:
            anchor = players.choose_switch(s, r, p, policy, own, options, n)
            breadth = max(1, int(policy[1][p][players.W_SEARCH_BREADTH]))
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
        return candidates, k, start
    return tried


@declares(redeal, STATE)
def redeal_sack():
    return lambda x, r, p, rng: redeal_hidden(x, r, p, rng)


@declares(take_option, STATE)
def switch_or_direction():
    def take(decision, x, r, p, policy, rng, options, o):
        if decision == DECIDE_SWITCH:  # then the rest of the turn
            turn.switch(x, no_log(), p, options[o, 0], options[o, 1], options[o, 2],
                        SWITCH)
            turn.after_switch(x, r, policy, rng, no_log())
        else:  # the street moves, then the rest of the turn
            turn.street_moves(x, r, policy, rng, no_log(), options[o, 0])
            turn.next_combination(x, r, rng, no_log())
            turn.combinations_and_cascades(x, r, policy, rng, no_log())
            turn.end_turn(x)
    return take


@declares(play_on, STATE)
def turns_on():
    """On to the game's end, or ``turns`` turns on from the turn the option left the table in."""
    return lambda s, x, r, policy, rng, turns: turn.play_on(x, r, policy, rng, no_log(),
                                                             last_turn(x, r, turns))


@declares(rollout_scores, STATE)
def standings():
    def scores(table, r):
        s = table[0]
        out = np.zeros(N_PLAYERS, dtype=np.int64)
        for q in range(N_PLAYERS):
            out[q] = standing(s, r, q)
        return out
    return scores


@declares(option_features, STATE)
def expert_features():
    """What the learnt expert weighs (recorded by ``playtest distill``)."""
    return lambda decision, s, r, p, plans, options, n: players.option_features(
        decision, s, r, p, plans, options, n)
