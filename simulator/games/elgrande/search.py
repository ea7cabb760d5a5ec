"""El Grande's search player: the action card it takes and the power card it plays, played out.

The search itself (budget, searching plans, common random numbers, the rollouts, the choice) is
the core's (``simulator/core/search.py``); this module declares the game's verbs, and is
registered by the spec importing it (the rules and the players never import it).
What is El Grande's own:

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
  board were scored now (``board.standings``); at the end, on the final scores
  (``rollout_scores``).

Every other decision of a search player (placements, moves, regions, Vetoes, Execute Action
Card, Copycat) is made as its rollout policy makes it.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.rng import seed_stream
from simulator.core.search import (
    declares, option_features, play_on, redeal, rollout_scores, searches, shuffle_unseen, take_option,
    tried_options,
)
from simulator.core.trace import no_log
from simulator.games.elgrande import turn  # (the rules import the players, never this module)
from simulator.games.elgrande.board import (
    MAX_PLAYERS, MAX_STACK, N_PLACES, N_POWER, N_STACKS, STATE, in_play, standings,
)
from simulator.games.elgrande.codes import DECIDE_CARD
from strategies import elgrande as players


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


@compiled
def standing_scores(table, r):
    """The scores a rollout ends on: the final scores, or mid-game the scores with what every
    place in play would pay if the board were scored now."""
    s = table[0]
    scores = np.zeros(s.n_players, dtype=np.int64)
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    scores[:] = s.score[:s.n_players]
    if s.round_no < r.rounds:
        for g in range(N_PLACES):
            if in_play(s, g):
                standings(s, r, g, False, pts)
                scores[:] += pts[:s.n_players]
    return scores


# The decisions searched (``searched``'s ``decision``): the action card (``codes.DECIDE_CARD``;
# rows of ``options``: (stack, order), the search filling in its rollout policy's order for each
# card) and the power card (``codes.DECIDE_POWER``; rows: (value,)).

@declares(searches, STATE)
def every_decision():
    """Every decision is searched, a lone option too (its seed drawn all the same)."""
    return lambda decision, s, n: True


@declares(tried_options, STATE)
def every_option():
    """Every option is tried; the policy's is its card (each card's order the policy's own) or
    its power card."""
    def tried(decision, s, r, p, policy, own, options, n):
        if decision == DECIDE_CARD:
            anchor = turn.card_orders(s, r, p, policy, own, options, n)
        else:
            allowed = np.zeros(N_POWER + 1, dtype=np.int64)
            for o in range(n):
                allowed[options[o, 0]] = 1
            anchor = players.choose_power(s, r, p, policy, own, allowed)[1]
        return np.arange(n), n, anchor
    return tried


@declares(redeal, STATE)
def stacks_redealt():
    return lambda x, r, p, rng: redeal_hidden(x, rng)


@declares(take_option, STATE)
def card_or_power_card():
    def take(decision, x, r, p, policy, rng, options, o):
        nl = no_log()
        if decision == DECIDE_CARD:  # the rest of the turn, then of the round
            turn.take_card(x, r, policy, rng, nl, p, options[o, 0], options[o, 1])
            if x.expansion:
                turn.copycat(x, r, policy, rng, nl, p)
            turn.play_turns(x, r, policy, rng, nl, turn_position(x, p) + 1)
        else:  # the rest of the power cards, then the round's turns
            i = (p - x.starter + x.n_players) % x.n_players
            allowed = np.zeros(N_POWER + 1, dtype=np.int64)  # (filled anew: only the clash is read)
            clash = turn.power_cards_allowed(x, p, allowed)[1]
            turn.play_power_card(x, nl, p, i, options[o, 0], clash)
            turn.play_power_cards(x, r, policy, rng, nl, i + 1)
            turn.set_turn_order(x, nl)
            turn.play_turns(x, r, policy, rng, nl, 0)
    return take


@declares(play_on, STATE)
def rounds_on():
    """On to the end of the ``turns``-th round counting the decision's (0: the game's end)."""
    return lambda s, x, r, policy, rng, turns: turn.play_on(x, r, policy, rng, no_log(),
                                                             last_round(s, r, turns))


@declares(rollout_scores, STATE)
def scores_with_standings():
    return lambda table, r: standing_scores(table, r)


TRIALS_SEED = 0x747269616C73  # the stream a recorded decision's card trials draw from


@declares(option_features, STATE)
def expert_features():
    """What the learnt expert weighs (recorded by ``playtest distill``): for an action card, the
    cards tried as the search's rollout policy tries them (``turn.card_choice``), on a stream of
    their own so that recording draws nothing from the game's."""
    def features(decision, s, r, p, plans, options, n):
        trials = np.zeros((N_STACKS, 2), dtype=np.float64)
        if decision == DECIDE_CARD:
            turn.card_choice(s, r, p, plans, seed_stream(TRIALS_SEED, np.uint64(0)), -1, trials)
        return players.option_features(decision, s, r, p, options, n, trials)
    return features
