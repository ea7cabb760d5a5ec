"""El Grande's search player: the action card it takes and the power card it plays, played out.

The shared mechanism (budget, searching plans, common random numbers, the choice) is in
``simulator/core/search.py``. What is El Grande's own:

- **What a player cannot see** (``redeal_hidden``): only the order of the face-down action
  stacks (1-4, and 7 with the expansion). The board, the courts and provinces, the Castillo,
  the power cards played and left, held cards, Gold and Wares lie open, and which cards are
  still in a stack is known (those not yet turned up); their order is not. Each rollout
  re-deals every stack in a random order (from a sorted one, so the real order never matters).
- **The secret choices** (the disc, the secret returns, the dispersal's destinations, the
  unique regions, the expansion's setup region) need nothing re-dealt: the rules ask every
  player for its choice from the table as it stands, keep the choices apart from it
  (``turn.secret_picks``, ``turn.disperse``, ``expansion.setup_picks``) and reveal them only
  when all are made, and no heuristic reads another seat's choice or plan (a player trying an
  option out plays every seat as itself, ``strategies.mirror``). A search decision is never
  taken while a secret choice is pending, so a rollout starts from what everyone has seen.
- **What is searched**: the action card (the options are the face-up cards; the order of its
  special action and placement, and every choice inside them, are the rollout policy's), and,
  when ``search_power`` is 1, the power card (every value it may play).
- **Playing an option out**: the rest of the searcher's turn (or of the power cards), of the
  round and of ``rollout_turns`` rounds counting the current one (0: the game), every seat
  played by the searcher's rollout policy with the searcher's weights. A rollout that stops
  before the game's end is judged on the scores plus the points every place would pay if the
  board were scored now (``board.standings``); at the end, on the final scores.

Every other decision of a search player (placements, moves, regions, Vetoes, Execute Action
Card, Copycat) is made as its rollout policy makes it.
"""

import numpy as np
from numba.extending import overload

from simulator.core.jit import compiled
from simulator.core.search import (
    add_outcome, best_option, budget, decision_seed, never_searched, new_tally, outcome,
    policy_plans, rollout_stream, searching_plans, shuffle_unseen,
)
from simulator.core.trace import no_log
from simulator.games.elgrande.board import (
    MAX_PLAYERS, MAX_STACK, N_PLACES, N_POWER, N_STACKS, copy_of, in_play, standings,
)


@compiled
def redeal_hidden(s, rng):
    """Re-deal, in the state ``s``, what no player can see: the order of each face-down stack."""
    pool = np.empty(MAX_STACK, dtype=np.int64)
    for stack in range(N_STACKS):
        n = s.deck_n[stack]
        pool[:n] = s.deck[stack, :n]
        shuffle_unseen(rng, pool, n)
        s.deck[stack, :n] = pool[:n]


@compiled
def score_rollout(tally, option, j, table, r, p):
    """The rollout's result for ``p``: by the final scores, or mid-game by the scores with what
    the board would pay now."""
    s = table[0]
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    scores[:s.n_players] = s.score[:s.n_players]
    if s.round_no < r.rounds:
        for g in range(N_PLACES):
            if in_play(s, g):
                standings(s, r, g, False, pts)
                scores[:s.n_players] += pts[:s.n_players]
    share, margin = outcome(scores, s.n_players, p)
    add_outcome(tally, option, j, share, margin)


@compiled
def last_round(s, r, rounds):
    """The round a rollout ends with: ``rounds`` rounds counting the current one, or the game's
    last (0)."""
    return r.rounds if rounds == 0 else min(r.rounds, s.round_no + rounds - 1)


@compiled
def turn_position(s, p):
    """Where ``p`` stands in this round's turn order."""
    for i in range(s.n_players):
        if s.order[i] == p:
            return i
    return -1


# The decisions a search player searches (``searched``'s ``decision``): the action card (rows of
# ``options``: (stack, order), the search filling in its rollout policy's order for each card)
# and the power card (rows: (value,)).
CARD, POWER = range(2)


def searched(decision, s, r, p, plans, rng, options, n):
    """Which of the ``n`` options (``options[:n]``) a search player takes."""
    raise NotImplementedError("compiled only")


@overload(searched, jit_options={"cache": True})
def _searched(decision, s, r, p, plans, rng, options, n):
    if not searching_plans(plans):
        return never_searched
    # The rules play the options out and the players choose in them: imported late, as the
    # rules import the players, who import this module.
    from simulator.games.elgrande import turn
    from strategies import elgrande as players

    def impl(decision, s, r, p, plans, rng, options, n):
        rollouts, rounds, _, confidence = budget(plans[1][p])
        policy = policy_plans(plans, p, MAX_PLAYERS)
        seed = decision_seed(rng)
        own = rollout_stream(seed, rollouts)  # the policy's own choice: a stream of its own
        allowed = np.zeros(N_POWER + 1, dtype=np.int64)
        if decision == CARD:
            anchor = players.card_orders(s, r, p, policy, own, options, n)
        else:
            for o in range(n):
                allowed[options[o, 0]] = 1
            anchor = players.choose_power(s, r, p, policy, own, allowed)[1]
        if n == 1:
            return 0
        last = last_round(s, r, rounds)
        tally = new_tally(n, rollouts)
        nl = no_log()
        for o in range(n):
            for j in range(rollouts):
                rr = rollout_stream(seed, j)
                table = copy_of(s)
                x = table[0]
                redeal_hidden(x, rr)
                if decision == CARD:  # the rest of the turn, then of the round
                    turn.take_card(x, r, policy, rr, nl, p, options[o, 0], options[o, 1])
                    if x.expansion:
                        turn.copycat(x, r, policy, rr, nl, p)
                    turn.play_turns(x, r, policy, rr, nl, turn_position(x, p) + 1)
                else:  # the rest of the power cards, then the round's turns
                    i = (p - x.starter + x.n_players) % x.n_players
                    clash = turn.power_cards_allowed(x, p, allowed)[1]
                    turn.play_power_card(x, nl, p, i, options[o, 0], clash)
                    turn.play_power_cards(x, r, policy, rr, nl, i + 1)
                    turn.set_turn_order(x, nl)
                    turn.play_turns(x, r, policy, rr, nl, 0)
                turn.play_on(x, r, policy, rr, nl, last)
                score_rollout(tally, o, j, table, r, p)
        return best_option(tally, n, anchor, confidence)
    return impl
