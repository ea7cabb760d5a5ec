"""Grimoire's invariants: what every table the rules can reach keeps true, checked after every
quest turn and after the final scoring of a checked run (``playtest run grimoire --check``)."""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.trace import broken
from simulator.games.grimoire.board import (
    ACCELERATION, BLESSED_SHOES, BY_CARDS_OUT, BY_COMPANIONS, BY_TREASURES, MAX_ITEM_CARDS,
    MAX_QUEST_CARDS, NOT_ENDED, N_ITEM_KINDS, N_QUEST_KINDS, N_SPELLS, N_TREASURE_KINDS, TIME_STOP,
    companion_count, item_card_counts, item_count, quest_card_count, quest_card_counts,
    treasure_count, vp_companions, vp_items, vp_junk, vp_tokens, vp_treasures,
)

INVARIANTS = (
    f"the Quest Deck holds {{a}} cards and the Discard Area {{b}}: fewer than none, or more than "
    f"the {MAX_QUEST_CARDS} the table has room for",
    f"the Item Deck holds {{a}} cards: fewer than none, or more than the {MAX_ITEM_CARDS} the "
    f"table has room for",
    "{a} cards were dealt to the Quest Card Zone this round: fewer than none, or more than the "
    "number of players plus {b}",
    "a card of kind {a}, which is no quest card, lies in the Quest Deck, the Discard Area or the "
    "Quest Card Zone (at place {b}, counting the deck, then the discards, then the zone)",
    "a card of kind {a}, which is no item, lies in the Item Deck at place {b}",
    "{b} quest cards of kind {a} (0 Copper Coin to 11 Sage) are in the Quest Deck, the Discard "
    "Area, the Quest Card Zone and the Territories: not the number the quest deck was made of",
    "{b} item cards of kind {a} (0 Blessed Shoes to 4 Relic) are in the Item Deck and the "
    "Territories, or were used (Blessed Shoes): not the number the item deck was made of",
    "the token area holds {a} VP and the players {b} VP in tokens: not the VP supply the game "
    "began with",
    "the token area holds {a} VP, fewer than none",
    "player {a} holds {b} VP in tokens, fewer than none",
    "player {a}'s Territory holds fewer than no quest cards of kind {b} (0 Copper Coin to 11 Sage)",
    "player {a}'s Territory holds fewer than no items of kind {b} (0 Blessed Shoes to 4 Relic)",
    "the Spell Level Marker stands at {a}, not where round {b} puts it (advanced a step each "
    "round from the second, never past the top)",
    "player {a} casts the spell of level {b}: not one of levels 1 to the Spell Level Marker",
    "player {a} has chosen {b} spells: not one in each Book Phase",
    "the Turn Order Tokens are not one to each player: token {a} is held by player {b}",
    "player {b} holds Turn Order Token {a} out of order: with no Time Spell cast, group A (a spell "
    "nobody else chose) goes first, then group B, each by level, lowest first, and among the same "
    "spell the player who went later last round first",
    "round {a} was begun, past the limit of {b} rounds",
    "player {a} has {b} companions or treasures in their Territory, enough to end the game, but "
    "the round is not the last",
    "the end was triggered by player {a}'s {b} (0: companions, 1: treasures), but they never held "
    "enough, or the round is not the last",
    "the game is over in round {a} with no end triggered",
    "more of player {a}'s treasures of kind {b} (0 Copper Coin, 1 Silver Chalice, 2 Gold Crown) "
    "are known (shown to everyone, or looked at by one player in the zone) than they hold",
    "player {a} holds {b} quest cards: not those they took from the zone and drew, with the "
    "companions they won by Charm and Domination and without those they lost",
    "player {a} holds {b} items: not those they drew by Creation without the Blessed Shoes they "
    "used",
    "{a} companions were won by Charm and Domination and {b} lost: not as many",
    "{a} VP in tokens were won by Polymorph and {b} lost: not as many",
    "player {a}'s total is {b} VP: not the sum of their companions, treasures, items, junk bonus "
    "and VP tokens",
)
(PILES_IN_RANGE, ITEM_DECK_IN_RANGE, ZONE_IN_RANGE, QUEST_KINDS_VALID, ITEM_KINDS_VALID,
 QUEST_CARDS_KEPT, ITEM_CARDS_KEPT, VP_KEPT, SUPPLY_NOT_NEGATIVE, TOKENS_NOT_NEGATIVE,
 QUEST_CARDS_NOT_NEGATIVE, ITEMS_NOT_NEGATIVE, MARKER_PLACED, SPELL_WITHIN_MARKER,
 SPELL_EACH_BOOK_PHASE, ONE_TOKEN_EACH, TOKENS_BY_GROUPS, ROUND_LIMIT, END_TRIGGERED,
 TRIGGER_REACHED, ENDED_BY_TRIGGER, KNOWN_TREASURES_HELD, QUEST_CARDS_ACCOUNTED, ITEMS_ACCOUNTED,
 COMPANIONS_MOVED, TOKENS_MOVED, SCORE_IS_SOURCES) = range(len(INVARIANTS))


@compiled
def check(s, r, log, scores):
    """Note in ``log`` every invariant the table ``s`` breaks; ``scores`` are the totals the
    game loop has just counted (the leaders' standings, then the final scores)."""
    if not piles_in_range(s, r, log):
        return  # the piles' counts are what the card checks below read up to
    nothing_below_zero(s, log)
    cards_kept(s, r, log)
    the_end(s, r, log)
    spells_and_order(s, r, log)
    territories_accounted(s, log)
    scores_are_sources(s, r, log, scores)


@compiled
def piles_in_range(s, r, log):
    ok = True
    if not (0 <= s.quest_deck_n <= MAX_QUEST_CARDS and 0 <= s.quest_discard_n <= MAX_QUEST_CARDS):
        broken(log, PILES_IN_RANGE, s.quest_deck_n, s.quest_discard_n)
        ok = False
    if not 0 <= s.item_deck_n <= MAX_ITEM_CARDS:
        broken(log, ITEM_DECK_IN_RANGE, s.item_deck_n, 0)
        ok = False
    if not 0 <= s.zone_n <= s.n_players + r.zone_extra_cards:
        broken(log, ZONE_IN_RANGE, s.zone_n, r.zone_extra_cards)
        ok = False
    return ok


@compiled
def count_quest_card(counts, card, place, log):
    if 0 <= card < N_QUEST_KINDS:
        counts[card] += 1
    else:
        broken(log, QUEST_KINDS_VALID, card, place)


@compiled
def cards_kept(s, r, log):
    """Every quest card lies in the deck, the discards, the zone or a Territory, every item in
    its deck or a Territory or was used, every VP in the token area or a player's tokens."""
    n = s.n_players
    counts = np.zeros(N_QUEST_KINDS, dtype=np.int64)
    for i in range(s.quest_deck_n):
        count_quest_card(counts, s.quest_deck[i], i, log)
    for i in range(s.quest_discard_n):
        count_quest_card(counts, s.quest_discard[i], s.quest_deck_n + i, log)
    for i in range(s.zone_n):
        if s.zone[i] >= 0:  # -1: taken, or discarded by Luck
            count_quest_card(counts, s.zone[i], s.quest_deck_n + s.quest_discard_n + i, log)
    dealt = quest_card_counts(r)
    for k in range(N_QUEST_KINDS):
        held = counts[k]
        for p in range(n):
            held += s.quest[p, k]
        if held != dealt[k]:
            broken(log, QUEST_CARDS_KEPT, k, held)
    items = np.zeros(N_ITEM_KINDS, dtype=np.int64)
    for i in range(s.item_deck_n):
        kind = s.item_deck[i]
        if 0 <= kind < N_ITEM_KINDS:
            items[kind] += 1
        else:
            broken(log, ITEM_KINDS_VALID, kind, i)
    for p in range(n):
        items[BLESSED_SHOES] += s.shoes_used[p]  # used shoes are discarded, out of play
    made = item_card_counts(r)
    for k in range(N_ITEM_KINDS):
        held = items[k]
        for p in range(n):
            held += s.items[p, k]
        if held != made[k]:
            broken(log, ITEM_CARDS_KEPT, k, held)
    tokens = 0
    for p in range(n):
        tokens += s.tokens[p]
    if s.vp_supply + tokens != r.vp_supply:
        broken(log, VP_KEPT, s.vp_supply, tokens)


@compiled
def nothing_below_zero(s, log):
    if s.vp_supply < 0:
        broken(log, SUPPLY_NOT_NEGATIVE, s.vp_supply, 0)
    for p in range(s.n_players):
        if s.tokens[p] < 0:
            broken(log, TOKENS_NOT_NEGATIVE, p, s.tokens[p])
        for k in range(N_QUEST_KINDS):
            if s.quest[p, k] < 0:
                broken(log, QUEST_CARDS_NOT_NEGATIVE, p, k)
        for k in range(N_ITEM_KINDS):
            if s.items[p, k] < 0:
                broken(log, ITEMS_NOT_NEGATIVE, p, k)


@compiled
def spells_and_order(s, r, log):
    """The marker where the Setup Phases put it; in the Quest Phase, every spell within it and
    the tokens dealt by the Book Phase's groups; one spell chosen per Book Phase."""
    n = s.n_players
    level = max(1, min(r.spell_level_start + max(s.round_no - 1, 0) * r.spell_level_step,
                       r.spell_level_max))
    if s.level != level:
        broken(log, MARKER_PLACED, s.level, s.round_no)
    for p in range(n):
        chosen = 0
        for level in range(1, N_SPELLS + 1):
            chosen += s.cast[p, level]
        # the spells are cleared by the Setup Phase, and chosen again in the Book Phase
        book_phases = s.round_no if s.spell[p] != 0 else s.round_no - 1
        if chosen != book_phases:
            broken(log, SPELL_EACH_BOOK_PHASE, p, chosen)
    if s.turns > 0:  # a Book Phase has dealt the tokens
        for k in range(n):
            p = s.order[k]
            if not (0 <= p < n and s.position[p] == k):
                broken(log, ONE_TOKEN_EACH, k + 1, p)
                return
    if s.current < 0:
        return  # not in the Quest Phase: this round's spells are not all chosen
    time_spell = False
    for p in range(n):
        if not 1 <= s.spell[p] <= s.level:
            broken(log, SPELL_WITHIN_MARKER, p, s.spell[p])
            return
        time_spell |= s.spell[p] == ACCELERATION or s.spell[p] == TIME_STOP
    if time_spell:
        return  # Acceleration and Time Stop move the tokens the groups dealt
    for k in range(1, n):
        p = s.order[k - 1]
        q = s.order[k]
        group_p = shared_spell(s, p)
        group_q = shared_spell(s, q)
        if group_p != group_q:
            in_order = group_q
        elif s.spell[p] != s.spell[q]:
            in_order = s.spell[p] < s.spell[q]
        else:
            in_order = s.prev_position[p] > s.prev_position[q]
        if not in_order:
            broken(log, TOKENS_BY_GROUPS, k + 1, q)


@compiled
def shared_spell(s, p):
    """Whether another player chose ``p``'s spell too (group B)."""
    for q in range(s.n_players):
        if q != p and s.spell[q] == s.spell[p]:
            return True
    return False


@compiled
def the_end(s, r, log):
    """10 companions or 10 treasures at any time make the round the last (unless the cards ran
    out first); the trigger stays if companions are charmed away later; a game ends only by a
    trigger or the round limit."""
    if s.round_no > r.max_rounds:
        broken(log, ROUND_LIMIT, s.round_no, r.max_rounds)
    if s.last_round == 0 and s.end_trigger != BY_CARDS_OUT:
        for p in range(s.n_players):
            if companion_count(s, p) >= r.end_companions:
                broken(log, END_TRIGGERED, p, companion_count(s, p))
            elif treasure_count(s, p) >= r.end_treasures:
                broken(log, END_TRIGGERED, p, treasure_count(s, p))
    if s.end_trigger == BY_COMPANIONS or s.end_trigger == BY_TREASURES:
        p = s.trigger_player
        if not 0 <= p < s.n_players:
            broken(log, TRIGGER_REACHED, p, s.end_trigger)
        elif s.last_round == 0 or \
                (s.end_trigger == BY_COMPANIONS and
                 companion_count(s, p) + s.companions_lost[p] < r.end_companions) or \
                (s.end_trigger == BY_TREASURES and treasure_count(s, p) < r.end_treasures):
            broken(log, TRIGGER_REACHED, p, s.end_trigger)
    if s.end_trigger == NOT_ENDED and (s.over or s.truncated):
        broken(log, ENDED_BY_TRIGGER, s.round_no, 0)


@compiled
def territories_accounted(s, log):
    """Each Territory holds what its player took, drew and won, less what they lost; what is
    known of its face-down treasures is there; what one player won another lost."""
    n = s.n_players
    won = 0
    lost = 0
    tokens_won = 0
    tokens_lost = 0
    for p in range(n):
        won += s.companions_won[p]
        lost += s.companions_lost[p]
        tokens_won += s.tokens_won[p]
        tokens_lost += s.tokens_lost[p]
    if won != lost:
        broken(log, COMPANIONS_MOVED, won, lost)
    if tokens_won != tokens_lost:
        broken(log, TOKENS_MOVED, tokens_won, tokens_lost)
    for p in range(n):
        held = quest_card_count(s, p)
        if held != s.cards_taken[p] + s.cards_drawn[p] + s.companions_won[p] - s.companions_lost[p]:
            broken(log, QUEST_CARDS_ACCOUNTED, p, held)
        if item_count(s, p) != s.items_drawn[p] - s.shoes_used[p]:
            broken(log, ITEMS_ACCOUNTED, p, item_count(s, p))
        for k in range(N_TREASURE_KINDS):
            for v in range(n):
                if s.treasures_shown[p, k] + s.treasures_seen[v, p, k] > s.quest[p, k]:
                    broken(log, KNOWN_TREASURES_HELD, p, k)


@compiled
def scores_are_sources(s, r, log, scores):
    """The totals counted are the final scoring's point sources added up (the seats columns
    vp_companions .. vp_tokens)."""
    for p in range(s.n_players):
        sources = vp_companions(s, r, p) + vp_treasures(s, r, p) + vp_items(s, r, p) + \
            vp_junk(s, r, p) + vp_tokens(s, r, p)
        if scores[p] != sources:
            broken(log, SCORE_IS_SOURCES, p, scores[p])
