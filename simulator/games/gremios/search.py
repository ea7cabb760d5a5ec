"""Gremios's search player: its role, each investment and each Governor's pick, played out.

The search itself (budget, searching plans, common random numbers, the rollouts, the choice) is
the core's (``simulator/core/search.py``); this module declares the game's verbs.
What is Gremios's own:

- **What a player cannot see** (``redeal_hidden``): the order of the event deck and which cards
  were set aside into the discard (the card the Governor put back on top is known), the order of
  the treasure deck, the kinds of rivals' face-down treasures and of the treasures a rival sold
  face down (the Craftsman), the role cards still to deal and the ones rivals did not keep. The unseen cards are what the rules' card counts leave once the
  player takes away what they have seen; they are shuffled from a fixed order (so the real
  arrangement never matters) and dealt back into those places.
- **Playing an option out**: a role card, then the other players' choices and the game; an
  investment action, then the rest of that investment phase and the game; the Governor's
  event, then the rest of that turn and the game. Every seat of a rollout plays the searcher's
  rollout policy (greedy by default).

A search player decides the Stowaway's free stake and which plots it loses to a Land
Expropriation as its rollout policy does (small choices, made inside another player's event).
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.search import (
    declares, option_features, play_on, redeal, rollout_scores, searches, shuffle_unseen, take_option, tried_options,
)
from simulator.core.trace import no_log
from simulator.games.gremios.board import (
    MAX_EVENT_CARDS, MAX_PLAYERS, MAX_TREASURES, N_ROLES, STANDARD, STATE, copy_of, treasure_count,
    victory_points,
)
from simulator.games.gremios import turn  # (the rules import the players, never this module)
from simulator.games.gremios.codes import DECIDE_ACTION, DECIDE_ROLE, END_TURN
from strategies import gremios as players


@compiled
def redeal_hidden(s, r, p, rng):
    """Re-deal, in the state ``s``, every card whose place ``p`` cannot see."""
    # The event deck (bar a top card known to all) and the cards set aside: what no one has seen.
    unseen = s.event_deck_n - s.event_top_known
    pool = np.empty(MAX_EVENT_CARDS, dtype=np.int64)
    n = 0
    for i in range(unseen):
        pool[n] = s.event_deck[i]
        n += 1
    for i in range(s.events_aside_n):
        pool[n] = s.event_discard[i]
        n += 1
    shuffle_unseen(rng, pool, n)
    for i in range(unseen):
        s.event_deck[i] = pool[i]
    for i in range(s.events_aside_n):
        s.event_discard[i] = pool[unseen + i]
    # Treasures: of each kind, the cards ``p`` has not seen (not their own, not given up by them,
    # not exchanged face up by a rival) lie in rivals' hands, in rivals' face-down sales and in
    # the deck, in numbers everyone can count.
    total = (r.wealth_low_cards, r.wealth_high_cards, r.common_treasure_cards,
             r.rare_treasure_cards)
    cards = np.empty(MAX_TREASURES, dtype=np.int64)
    m = 0
    for kind in range(4):
        left = total[kind] - s.treasures[p, kind] - s.treasures_given_up[p, kind]
        for q in range(s.n_players):
            if q != p:
                left -= s.treasures_shown[q, kind]
        for _ in range(left):
            cards[m] = kind
            m += 1
    shuffle_unseen(rng, cards, m)
    k = 0
    for q in range(s.n_players):
        if q == p:
            continue
        held = treasure_count(s, q)
        s.treasures[q, :] = 0
        for _ in range(held):
            s.treasures[q, cards[k]] += 1
            k += 1
        sold = 0
        for kind in range(4):
            sold += s.treasures_given_up[q, kind] - s.treasures_shown[q, kind]
            s.treasures_given_up[q, kind] = s.treasures_shown[q, kind]
        for _ in range(sold):
            s.treasures_given_up[q, cards[k]] += 1
            k += 1
    for i in range(s.treasure_deck_n):
        s.treasure_deck[i] = cards[k + i]
    # Role cards: those still to deal and the ones rivals did not keep. (With roles_dealt = 3 a
    # rival's second unkept card is out of play and left where it is: not in the deck.)
    roles = np.empty(N_ROLES + MAX_PLAYERS, dtype=np.int64)
    n = 0
    for i in range(s.role_deck_n):
        roles[n] = s.role_deck[i]
        n += 1
    for q in range(s.n_players):
        if q != p and s.role_not_chosen[q] >= 0:
            roles[n] = s.role_not_chosen[q]
            n += 1
    shuffle_unseen(rng, roles, n)
    for i in range(s.role_deck_n):
        s.role_deck[i] = roles[i]
    k = s.role_deck_n
    for q in range(s.n_players):
        if q != p and s.role_not_chosen[q] >= 0:
            s.role_not_chosen[q] = roles[k]
            k += 1


@compiled
def last_turn(s, r, turns):
    """The turn a rollout stops at: ``turns`` turns on, or the game's end (0)."""
    return s.turn + turns if turns > 0 else r.max_turns + 1


@declares(searches, STATE)
def every_decision():
    """Every decision is searched, a lone option too."""
    return lambda decision, s, n: True


@declares(tried_options, STATE)
def every_option():
    """Every option is tried; the policy's is its role, its action or the event it applies."""
    def tried(decision, s, r, p, policy, own, options, n):
        dealt = options[:, 0].copy()
        if decision == DECIDE_ROLE:
            anchor = players.choose_role(s, r, p, policy, own, dealt, n)
        elif decision == DECIDE_ACTION:
            anchor = players.choose_action(s, r, p, policy, own, options, n)
        else:
            anchor = 0 if players.choose_event(s, r, p, policy, own, dealt[0], dealt[1]) == dealt[0] \
                else 1
        return np.arange(n), n, anchor
    return tried


@declares(redeal, STATE)
def redeal_unseen():
    return lambda x, r, p, rng: redeal_hidden(x, r, p, rng)


@declares(take_option, STATE)
def role_action_or_event():
    def take(decision, x, r, p, policy, rng, options, o):
        if decision == DECIDE_ROLE:  # then the others choose in turn order
            turn.keep_role(x, p, options[:, 0].copy(), o)
            for q in range(p + 1, x.n_players):
                turn.deal_role(x, r, STANDARD, policy, rng, no_log(), q)
            turn.give_starting_coins(x, r, no_log())
        elif decision == DECIDE_ACTION:  # then the rest of the investment phase
            if options[o, 0] != END_TURN:
                turn.take_action(x, r, rng, no_log(), p, options[o, 0], options[o, 1])
                turn.check_end(x, r, no_log())
                if not x.over:
                    turn.investment_phase(x, r, policy, rng, no_log())
            x.turn += 1
        else:  # the Governor's event, then the rest of the turn
            turn.governor_applies(x, r, policy, rng, no_log(), options[o, 0], options[1 - o, 0])
            turn.finish_turn(x, r, policy, rng, no_log())
    return take


@declares(play_on, STATE)
def turns_on():
    """On to the game's end, or ``turns`` turns on from the turn the option left the table in."""
    return lambda s, x, r, policy, rng, turns: turn.play_on(x, r, policy, rng, no_log(),
                                                             last_turn(x, r, turns))


@declares(rollout_scores, STATE)
def victory_point_totals():
    def scores(table, r):
        s = table[0]
        out = np.zeros(s.n_players, dtype=np.int64)
        for q in range(s.n_players):
            out[q] = victory_points(s, r, q)
        return out
    return scores


@declares(option_features, STATE)
def expert_features():
    """What the learnt expert weighs (recorded by ``playtest distill``)."""
    return lambda decision, s, r, p, plans, options, n: players.option_features(
        decision, s, r, p, options, n)
