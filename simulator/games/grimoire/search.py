"""Grimoire's search player: its secret spell and the card it takes, played out.

The search itself (budget, searching plans, common random numbers, the rollouts, the choice) is
the core's (``simulator/core/search.py``); this module declares the game's verbs.
What is Grimoire's own:

- **What a player cannot see** (``redeal_hidden``): the order and make-up of the quest deck and
  of the item deck, the kinds of rivals' face-down treasures (bar those the player saw: taken
  face up from the zone or drawn from the face-up Discard Area, ``treasures_shown``, or taken
  from the zone after the player looked at them, ``treasures_seen``) and items (their numbers
  are public), and the face-down zone cards the player has not looked at (``zone_seen``). The
  unseen cards are what the rules' card counts leave once the player takes away what they can
  see (their own Territory, rivals' companions and known treasures, the Discard Area, the zone
  cards they know, the Blessed Shoes used); they are shuffled from a sorted order (so the real
  arrangement never matters) and dealt back: treasures to rivals' face-down treasures, the rest
  with the other unseen cards into the unseen zone slots and the deck. Rivals' secret spells of
  this round are not in the state when the player chooses: in each rollout the rivals choose
  theirs by the rollout policy from the re-dealt table, as they would without seeing the
  player's.
- **Playing an option out**: a spell, then the rivals' secret choices, the reveal, turn order,
  the Time Spells and the Quest Phase; a card, then the rest of that Quest Phase from the next
  player in turn order; either way the game on to its end (or ``rollout_turns`` rounds, the
  decision's round counted, judged on the scores then). Every seat of a rollout plays the
  searcher's rollout policy (greedy by default) with the searcher's weights.
- **Options**: every spell up to the marker; the zone cards, one per kind the player knows and
  one for the face-down cards they have not seen (cards alike in what everyone knows of them
  are one option).

A search player makes its smaller choices (Luck's discard, Blessed Shoes and the extra card they
bring, a target among tied rivals, a companion to give up or take) as its rollout policy does
(``strategies.grimoire.acting``).
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.search import (
    declares, option_features, play_on, redeal, rollout_scores, searches, shuffle_unseen,
    take_option, tried_options,
)
from simulator.core.trace import no_log
from simulator.games.grimoire import turn  # (the rules import the players, never this module)
from simulator.games.grimoire.board import (
    BLESSED_SHOES, FIRST_COMPANION, MAX_ITEM_CARDS, MAX_PLAYERS, MAX_QUEST_CARDS, N_ITEM_KINDS, N_QUEST_KINDS,
    N_TREASURE_KINDS, STATE, alike, can_see, copy_of, item_card_counts, item_count, quest_card_counts,
    score, treasure_count,
)
from simulator.games.grimoire.codes import DECIDE_SPELL
from strategies import grimoire as players


@compiled
def unseen_quest_cards(s, r, p):
    """How many quest cards of each kind ``p`` cannot place: the rules' counts less their own
    Territory, rivals' companions and known treasures, the Discard Area and the zone cards they
    know. They lie in the deck, in the unseen zone slots and among rivals' face-down treasures."""
    left = np.zeros(N_QUEST_KINDS, dtype=np.int64)
    counts = quest_card_counts(r)
    for k in range(N_QUEST_KINDS):
        left[k] = counts[k] - s.quest[p, k]
    for q in range(s.n_players):
        if q == p:
            continue
        for k in range(FIRST_COMPANION, N_QUEST_KINDS):
            left[k] -= s.quest[q, k]
        for k in range(N_TREASURE_KINDS):
            left[k] -= s.treasures_shown[q, k] + s.treasures_seen[p, q, k]
    for i in range(s.quest_discard_n):
        left[s.quest_discard[i]] -= 1
    for i in range(s.zone_n):
        if s.zone[i] >= 0 and can_see(s, p, i):
            left[s.zone[i]] -= 1
    return left


@compiled
def redeal_hidden(s, r, p, rng):
    """Re-deal, in the state ``s``, every card whose place ``p`` cannot see."""
    n = s.n_players
    left = unseen_quest_cards(s, r, p)
    treasures = np.empty(MAX_QUEST_CARDS, dtype=np.int64)
    rest = np.empty(MAX_QUEST_CARDS, dtype=np.int64)
    nt = 0
    nr = 0
    for k in range(N_QUEST_KINDS):
        for _ in range(left[k]):
            if k < N_TREASURE_KINDS:
                treasures[nt] = k
                nt += 1
            else:
                rest[nr] = k
                nr += 1
    # Rivals' face-down treasures are treasures (everyone knows what kind of card was taken
    # face down only as far as "a treasure"): dealt from the unseen treasures first.
    shuffle_unseen(rng, treasures, nt)
    m = 0
    for q in range(n):
        if q == p:
            continue
        hidden = treasure_count(s, q)
        for k in range(N_TREASURE_KINDS):
            known = s.treasures_shown[q, k] + s.treasures_seen[p, q, k]
            hidden -= known
            s.quest[q, k] = known
        for _ in range(hidden):
            s.quest[q, treasures[m]] += 1
            m += 1
    # The other unseen cards, with the treasures left, into the unseen zone slots and the deck.
    for i in range(m, nt):
        rest[nr] = treasures[i]
        nr += 1
    shuffle_unseen(rng, rest, nr)
    j = 0
    for i in range(s.zone_n):
        if s.zone[i] >= 0 and not can_see(s, p, i):
            s.zone[i] = rest[j]
            j += 1
    for i in range(s.quest_deck_n):
        s.quest_deck[i] = rest[j]
        j += 1
    if j != nr:
        raise RuntimeError("redeal_hidden: the unseen quest cards do not fill the hidden places")
    # What rivals alone looked at is not the player's to know; in the re-dealt table nobody
    # reads it, so it is cleared.
    for v in range(n):
        if v != p:
            s.treasures_seen[v, :, :] = 0
    # Items: rivals' face-down items and the item deck (used Blessed Shoes are public).
    items = np.empty(MAX_ITEM_CARDS, dtype=np.int64)
    counts = item_card_counts(r)
    ni = 0
    for k in range(N_ITEM_KINDS):
        unseen = counts[k] - s.items[p, k]
        if k == BLESSED_SHOES:
            for q in range(n):
                unseen -= s.shoes_used[q]
        for _ in range(unseen):
            items[ni] = k
            ni += 1
    shuffle_unseen(rng, items, ni)
    m = 0
    for q in range(n):
        if q == p:
            continue
        held = item_count(s, q)
        s.items[q, :] = 0
        for _ in range(held):
            s.items[q, items[m]] += 1
            m += 1
    for i in range(s.item_deck_n):
        s.item_deck[i] = items[m + i]
    if m + s.item_deck_n != ni:
        raise RuntimeError("redeal_hidden: the unseen items do not fill the hidden places")


@compiled
def last_round(s, r, rounds):
    """The round a rollout does not begin: ``rounds`` rounds on, this one counted, or none
    (0: to the game's end)."""
    return s.round_no + rounds if rounds > 0 else r.max_rounds + 1


@declares(searches, STATE)
def every_decision():
    """Every decision is searched, a lone option too."""
    return lambda decision, s, n: True


@declares(tried_options, STATE)
def every_option():
    """Every option is tried; the policy's is its spell, or a zone slot alike its card."""
    def tried(decision, s, r, p, policy, own, options, n):
        anchor = 0
        if decision == DECIDE_SPELL:
            level = players.choose_spell(s, r, p, policy, own, np.full((2, MAX_PLAYERS), -1.0))
            for o in range(n):
                if options[o] == level:
                    anchor = o
        else:
            slot = players.choose_card(s, r, p, policy, own)
            for o in range(n):
                if alike(s, p, options[o], slot):
                    anchor = o
        return np.arange(n), n, anchor
    return tried


@declares(redeal, STATE)
def redeal_unseen():
    return lambda x, r, p, rng: redeal_hidden(x, r, p, rng)


@declares(take_option, STATE)
def spell_or_card():
    def take(decision, x, r, p, policy, rng, options, o):
        if decision == DECIDE_SPELL:  # the rivals choose in secret, then the round
            turn.book_phase_given(x, r, policy, rng, no_log(), p, options[o])
            turn.quest_phase(x, r, policy, rng, no_log())
        else:  # the card, then the rest of the Quest Phase
            turn.take_card(x, r, no_log(), p, options[o])
            turn.quest_turns(x, r, policy, rng, no_log(), x.position[p] + 1)
        turn.finish_round(x, r, no_log())
    return take


@declares(play_on, STATE)
def rounds_on():
    """On to the game's end, or until ``turns`` rounds from the decision's, that one counted,
    are played."""
    return lambda s, x, r, policy, rng, turns: turn.play_on(x, r, policy, rng, no_log(),
                                                             last_round(s, r, turns))


@declares(rollout_scores, STATE)
def final_scores():
    def scores(table, r):
        s = table[0]
        out = np.zeros(s.n_players, dtype=np.int64)
        for q in range(s.n_players):
            out[q] = score(s, r, q)
        return out
    return scores


@declares(option_features, STATE)
def expert_features():
    """What the learnt expert weighs (recorded by ``playtest distill``)."""
    return lambda decision, s, r, p, plans, options, n: players.option_features(
        decision, s, r, p, options, n)
