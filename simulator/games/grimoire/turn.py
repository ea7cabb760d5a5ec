"""Grimoire, played by the rulebook: setup, then rounds of Setup, Book and Quest phases.

The functions follow the rulebook's order. ``s`` is one game's state (``board.STATE``), ``r`` the
rule numbers (``rules.toml``), ``rng`` the game's random stream, ``log`` the replay log (empty in
batch runs), and ``plans`` the seats' strategies (ids and weights) that every decision is asked of.
"""

import numpy as np

from simulator.core.deck import draw
from simulator.core.jit import compiled
from simulator.core.rng import shuffle
from simulator.core.trace import came_up, checking, found_broken, record
from simulator.core.unfolding import decided, note_leader
from simulator.games.grimoire import codes as L
from simulator.games.grimoire import invariants
from simulator.games.grimoire.board import (
    ACCELERATION, ACCELERATION_FIRST, BLESSED_SHOES, BY_CARDS_OUT, BY_CASTER, BY_COMPANIONS,
    BY_MAX_ROUNDS, BY_TREASURES, CASTER_CHOOSES, CHARM, CREATION, CURE, CURE_QUEST_DECK,
    DOMINATION, FIREBALL, FIRST_COMPANION, FIRST_ORDER_RANDOM, FORTUNE, LUCK, MAX_PLAYERS, MAX_ZONE,
    MEASURE_QUEST_CARDS, NO_SPELL, NOT_ENDED, N_ITEM_KINDS, N_QUEST_KINDS, N_TREASURE_KINDS,
    POLYMORPH, SILENCE, SPY,
    SUMMON_ELEMENTAL, TARGET_VISIBLE_TOTAL, TARGET_VP_TOKENS, THIEF, THUNDERSTORM, TIME_STOP, WISH,
    YES, caster_is_compared, companion_count, is_defensive_spell, is_negated, is_protected,
    item_card_counts,
    new_table, polymorph_amount, public_vp, quest_card_count, quest_card_counts, score,
    target_floor, treasure_count, zone_cards_left,
)
from strategies import grimoire as players

# Which spell's Forbidden flag a Silence consults, by level (none for level 0).
FORBIDDEN_RULES = (
    -1, L.UP_FORBIDDEN_LUCK, L.UP_FORBIDDEN_SILENCE, L.UP_FORBIDDEN_FIREBALL, L.UP_FORBIDDEN_CURE,
    L.UP_FORBIDDEN_ACCELERATION, L.UP_FORBIDDEN_RESISTANCE, L.UP_FORBIDDEN_CREATION,
    L.UP_FORBIDDEN_THUNDERSTORM, L.UP_FORBIDDEN_CHARM, L.UP_FORBIDDEN_SUMMON_ELEMENTAL,
    L.UP_FORBIDDEN_TIME_STOP, L.UP_FORBIDDEN_POLYMORPH, L.UP_FORBIDDEN_FORTUNE,
    L.UP_FORBIDDEN_DOMINATION, L.UP_FORBIDDEN_WISH)

# --- cards moving ----------------------------------------------------------------------------------

@compiled
def end_at_once(s, log):
    """Both the Quest Deck and the Discard Area are empty when a card must be drawn."""
    s.over = 1
    s.end_trigger = BY_CARDS_OUT
    record(log, L.CARDS_OUT)


@compiled
def draw_quest_card(s, rng, log):
    """The top card of the quest deck; an empty deck is refilled from the shuffled Discard Area.

    Returns -1, and ends the game at once, when both are empty.
    """
    card, s.quest_deck_n, s.quest_discard_n, shuffled = draw(
        rng, s.quest_deck, s.quest_deck_n, s.quest_discard, s.quest_discard_n)
    if shuffled:
        s.deck_reshuffles += 1
        record(log, L.RESHUFFLE, shuffled)
    if card < 0:
        end_at_once(s, log)
    return card


@compiled
def discard_quest_card(s, card):
    s.quest_discard[s.quest_discard_n] = card
    s.quest_discard_n += 1


@compiled
def check_triggers(s, r, log, p):
    """10 companions or 10 treasures in a Territory, at any time: the round is the last."""
    if s.end_trigger != NOT_ENDED:
        return
    if companion_count(s, p) >= r.end_companions:
        s.end_trigger = BY_COMPANIONS
        record(log, L.TRIGGER, p, BY_COMPANIONS, companion_count(s, p))
    elif treasure_count(s, p) >= r.end_treasures:
        s.end_trigger = BY_TREASURES
        record(log, L.TRIGGER, p, BY_TREASURES, treasure_count(s, p))
    else:
        return
    s.trigger_player = p
    s.last_round = 1


@compiled
def receive_card(s, r, log, p, card):
    """A quest card into ``p``'s Territory: companions face up, treasures face down."""
    s.quest[p, card] += 1
    if s.end_trigger == NOT_ENDED:
        came_up(log, L.UP_END_TREASURES if card < N_TREASURE_KINDS else L.UP_END_COMPANIONS)
    check_triggers(s, r, log, p)


@compiled
def gain_tokens(s, log, p, vp, code, why):
    """``vp`` in tokens from the supply, as far as it goes."""
    if vp > s.vp_supply:
        came_up(log, L.UP_VP_SUPPLY)
    vp = min(vp, s.vp_supply)
    s.vp_supply -= vp
    s.tokens[p] += vp
    if code == L.THIEF:
        record(log, L.THIEF, p, vp, s.tokens[p])
    else:
        record(log, L.VP_GAIN, p, vp, why, s.tokens[p])


# --- Setup ---------------------------------------------------------------------------------------

@compiled
def new_game(r, n_players, plans, rng, log):
    """A game set up by the rulebook's Setup: shuffled decks, the marker at 6, empty Territories."""
    table = new_table()
    s = table[0]
    s.n_players = n_players
    s.end_trigger = NOT_ENDED
    s.trigger_player = -1
    s.current = -1
    s.zone[:] = -1
    s.vp_supply = r.vp_supply
    s.level = max(1, min(r.spell_level_start, r.spell_level_max))  # Setup 4: the marker at 6
    n = 0
    counts = quest_card_counts(r)
    for kind in range(N_QUEST_KINDS):
        for _ in range(counts[kind]):
            s.quest_deck[n] = kind
            n += 1
    s.quest_deck_n = n
    shuffle(rng, s.quest_deck, n)
    n = 0
    items = item_card_counts(r)
    for kind in range(N_ITEM_KINDS):
        for _ in range(items[kind]):
            s.item_deck[n] = kind
            n += 1
    s.item_deck_n = n
    shuffle(rng, s.item_deck, n)
    # The "previous round's order" that breaks the first round's group-B ties.
    seats = np.arange(MAX_PLAYERS)
    if r.first_round_order == FIRST_ORDER_RANDOM:
        shuffle(rng, seats, n_players)
    for k in range(n_players):
        s.prev_position[seats[k]] = k
    return table


# --- 1. Setup Phase --------------------------------------------------------------------------------

@compiled
def setup_phase(s, r, rng, log):
    """Advance the spell-level marker (not in the first round, never past the top) and deal the
    zone: players + 1 cards, the first one (two with five players) face down."""
    s.round_no += 1
    level = r.spell_level_start + (s.round_no - 1) * r.spell_level_step
    if level >= r.spell_level_max:
        came_up(log, L.UP_SPELL_LEVEL_MAX)
    s.level = max(1, min(level, r.spell_level_max))
    record(log, L.ROUND, s.round_no, s.level)
    for p in range(s.n_players):
        s.spell[p] = NO_SPELL
        s.silenced[p] = 0
        s.duplicated[p] = 0
    for i in range(MAX_ZONE):
        s.zone[i] = -1
        s.zone_face_down[i] = 0
        s.zone_seen[i] = 0
    s.zone_n = 0
    size = s.n_players + r.zone_extra_cards
    face_down = r.face_down_cards_five_players if s.n_players == 5 else r.face_down_cards
    came_up(log, L.UP_FACE_DOWN_CARDS_FIVE if s.n_players == 5 else L.UP_FACE_DOWN_CARDS)
    for i in range(size):
        card = draw_quest_card(s, rng, log)
        if card < 0:
            return
        s.zone[i] = card
        s.zone_face_down[i] = 1 if i < face_down else 0
        s.zone_n = i + 1
        record(log, L.ZONE_CARD, i, card, s.zone_face_down[i])


# --- 2. Book Phase ----------------------------------------------------------------------------------

@compiled
def book_phase(s, r, plans, rng, log):
    """Everyone chooses a spell in secret (no one sees this round's choices), all are revealed,
    turn order is set by groups A and B, and the Time Spells act."""
    chosen = np.zeros(MAX_PLAYERS, dtype=np.int64)
    memo = np.full((2, MAX_PLAYERS), -1.0)  # the strategies' shared reading of the table
    for p in range(s.n_players):
        decided(s, s.level)  # a spell of level 1 to the marker
        chosen[p] = players.choose_spell(s, r, p, plans, rng, memo)
    reveal_spells(s, r, log, chosen)


@compiled
def book_phase_given(s, r, plans, rng, log, p, spell):
    """The Book Phase once ``p`` has chosen ``spell`` in secret (a search's rollout): the others
    choose theirs as their plans do, without seeing it, then all are revealed."""
    chosen = np.zeros(MAX_PLAYERS, dtype=np.int64)
    memo = np.full((2, MAX_PLAYERS), -1.0)
    for q in range(s.n_players):
        chosen[q] = spell if q == p else players.choose_spell(s, r, q, plans, rng, memo)
    reveal_spells(s, r, log, chosen)


@compiled
def reveal_spells(s, r, log, chosen):
    """The secret choices revealed together: turn order by groups A and B, then the Time Spells."""
    for p in range(s.n_players):
        s.spell[p] = chosen[p]
        s.cast[p, chosen[p]] += 1
        record(log, L.SPELL_CHOSEN, p, chosen[p])
    determine_order(s, log)
    apply_time_spells(s, r, log)
    for k in range(s.n_players):
        p = s.order[k]
        record(log, L.ORDER, k, p, s.duplicated[p], s.spell[p])
    s.times_first[s.order[0]] += 1
    if s.round_no == 1:
        s.first_to_act = s.order[0]


@compiled
def determine_order(s, log):
    """Group A (a spell nobody else chose) first, by level, lowest first; then group B (shared
    spells) by level, and among the same spell the player who went later last round first."""
    n = s.n_players
    keys = np.zeros(MAX_PLAYERS, dtype=np.int64)
    ties = False
    for p in range(n):
        same = 0
        for q in range(n):
            if q != p and s.spell[q] == s.spell[p]:
                same += 1
        s.duplicated[p] = 1 if same > 0 else 0
        if same > 0:
            s.times_duplicated[p] += 1
            keys[p] = 10_000 + s.spell[p] * 100 + (MAX_PLAYERS - 1 - s.prev_position[p])
            ties = True
        else:
            keys[p] = s.spell[p] * 100
    if ties and s.round_no == 1:  # the first round's ties are broken by first_round_order
        came_up(log, L.UP_FIRST_ROUND_ORDER)
    for p in range(n):
        s.order[p] = p
    for i in range(1, n):
        j = i
        while j > 0 and keys[s.order[j - 1]] > keys[s.order[j]]:
            a = s.order[j - 1]
            s.order[j - 1] = s.order[j]
            s.order[j] = a
            j -= 1
    for k in range(n):
        s.position[s.order[k]] = k


@compiled
def accelerate(s, log):
    """Acceleration: its casters take the first tokens, keeping their order among themselves."""
    n = s.n_players
    new = np.zeros(MAX_PLAYERS, dtype=np.int64)
    m = 0
    for k in range(n):
        if s.spell[s.order[k]] == ACCELERATION:
            new[m] = s.order[k]
            m += 1
            record(log, L.TIME_SPELL, s.order[k], ACCELERATION)
    if m == 0:
        return
    for k in range(n):
        if s.spell[s.order[k]] != ACCELERATION:
            new[m] = s.order[k]
            m += 1
    for k in range(n):
        s.order[k] = new[k]


@compiled
def stop_time(s, log):
    """Time Stop: the turn-order tokens are reversed (once, however many cast it)."""
    n = s.n_players
    casters = 0
    for k in range(n):
        if s.spell[s.order[k]] == TIME_STOP:
            casters += 1
            record(log, L.TIME_SPELL, s.order[k], TIME_STOP)
    if casters == 0:
        return
    for k in range(n // 2):
        a = s.order[k]
        s.order[k] = s.order[n - 1 - k]
        s.order[n - 1 - k] = a


@compiled
def apply_time_spells(s, r, log):
    accelerated = False
    stopped = False
    for p in range(s.n_players):
        accelerated |= s.spell[p] == ACCELERATION
        stopped |= s.spell[p] == TIME_STOP
    if accelerated and stopped:
        came_up(log, L.UP_TIME_SPELL_ORDER)
    if r.time_spell_order == ACCELERATION_FIRST:
        accelerate(s, log)
        stop_time(s, log)
    else:
        stop_time(s, log)
        accelerate(s, log)
    for k in range(s.n_players):
        s.position[s.order[k]] = k


# --- 3. Quest Phase ---------------------------------------------------------------------------------

@compiled
def quest_phase(s, r, plans, rng, log):
    """In turn order: companions' turn abilities, the book effect, then a quest card. What is
    left in the zone goes to the Discard Area."""
    quest_turns(s, r, plans, rng, log, 0)


@compiled
def quest_turns(s, r, plans, rng, log, first):
    """The Quest Phase from the player holding turn-order token ``first + 1`` on (0: the whole
    phase; a search's rollout goes on after the searcher's turn), then the zone discarded."""
    for k in range(first, s.n_players):
        quest_turn(s, r, plans, rng, log, k)
        if s.over:
            break
    end_quest_phase(s, log)


@compiled
def quest_turn(s, r, plans, rng, log, k):
    """The whole quest turn of the player holding token ``k + 1``: the turn abilities, the book
    effect, then their quest card (none if the book effect ended the game)."""
    p = begin_quest_turn(s, r, plans, rng, log, k)
    if not s.over:
        take_from_zone(s, r, plans, rng, log, p, False)


@compiled
def end_quest_phase(s, log):
    """After the last quest turn: what is left in the zone goes to the Discard Area (not when
    the game ended at once)."""
    s.current = -1
    if s.over:
        return
    left = 0
    for i in range(s.zone_n):
        if s.zone[i] >= 0:
            discard_quest_card(s, s.zone[i])
            s.zone[i] = -1
            left += 1
    record(log, L.ZONE_DISCARD, left)


@compiled
def begin_quest_turn(s, r, plans, rng, log, k):
    """The quest turn of the player holding token ``k + 1`` up to their card: the companions'
    turn abilities and the book effect. Returns the player."""
    p = s.order[k]
    s.current = p
    s.turns += 1
    record(log, L.QUEST_TURN, p, k)
    if s.quest[p, THIEF] > 0:
        came_up(log, L.UP_THIEF_TOKENS)
        gain_tokens(s, log, p, s.quest[p, THIEF] * r.thief_tokens, L.THIEF, 0)
    if s.quest[p, SPY] > 0:
        spy_peek(s, log, p)
    cast_spell(s, r, plans, rng, log, p)
    return p


@compiled
def spy_peek(s, log, p):
    seen = 0
    for i in range(s.zone_n):
        if s.zone[i] >= 0 and s.zone_face_down[i] == 1:
            s.zone_seen[i] |= np.int64(1) << p
            seen += 1
    if seen > 0:
        record(log, L.SPY_PEEK, p, seen)


@compiled
def take_from_zone(s, r, plans, rng, log, p, extra):
    """Take one quest card of the player's choice from the zone (nothing if it is empty): the
    turn's card, or an ``extra`` one (Blessed Shoes)."""
    if zone_cards_left(s) == 0:
        record(log, L.ZONE_EMPTY, p)
        return
    decided(s, zone_cards_left(s))
    if extra:
        slot = players.choose_extra_card(s, r, p, plans, rng)
    else:
        slot = players.choose_card(s, r, p, plans, rng)
    take_card(s, r, log, p, slot)


@compiled
def take_card(s, r, log, p, slot):
    """``p`` takes the card in zone ``slot``. A treasure goes face down; who knows its kind is
    kept: everyone if it lay face up, else those who had looked at it."""
    card = s.zone[slot]
    s.zone[slot] = -1
    s.cards_taken[p] += 1
    record(log, L.TAKE, p, slot, card, s.zone_face_down[slot])
    if card < N_TREASURE_KINDS:
        if s.zone_face_down[slot] == 0:
            s.treasures_shown[p, card] += 1
        else:
            for v in range(s.n_players):
                if v != p and (s.zone_seen[slot] >> v) & 1 == 1:
                    s.treasures_seen[v, p, card] += 1
    receive_card(s, r, log, p, card)


@compiled
def cast_spell(s, r, plans, rng, log, p):
    """Use the Book Effect: the chosen spell's Quest-Phase effect, unless Silence negates it."""
    level = s.spell[p]
    if s.silenced[p] == 1:
        came_up(log, FORBIDDEN_RULES[level])
    if is_negated(s, r, p):
        s.times_negated[p] += 1
        record(log, L.NEGATED, p, level)
        return
    if level == LUCK:
        luck(s, r, plans, rng, log, p)
    elif level == SILENCE:
        for q in range(s.n_players):
            if q != p:
                s.silenced[q] = 1
        record(log, L.SILENCE, p)
    elif level == FIREBALL:
        came_up(log, L.UP_FIREBALL_VP)
        gain_tokens(s, log, p, r.fireball_vp, L.VP_GAIN, level)
    elif level == CURE:
        came_up(log, L.UP_CURE_CARDS)
        draw_from_discards(s, r, rng, log, p, r.cure_cards, level,
                           r.cure_when_discards_empty == CURE_QUEST_DECK)
    elif level == CREATION:
        came_up(log, L.UP_CREATION_ITEMS)
        creation(s, r, plans, rng, log, p)
    elif level == THUNDERSTORM:
        came_up(log, L.UP_THUNDERSTORM_VP)
        gain_tokens(s, log, p, r.thunderstorm_vp, L.VP_GAIN, level)
    elif level == CHARM:
        companion_spell(s, r, plans, rng, log, p, level, r.charm_companions, r.charm_chooser == BY_CASTER)
    elif level == SUMMON_ELEMENTAL:
        summon_elemental(s, r, rng, log, p)
    elif level == POLYMORPH:
        polymorph(s, r, plans, rng, log, p)
    elif level == FORTUNE:
        came_up(log, L.UP_FORTUNE_VP)
        gain_tokens(s, log, p, r.fortune_vp, L.VP_GAIN, level)
    elif level == DOMINATION:
        companion_spell(s, r, plans, rng, log, p, level, r.domination_companions,
                        r.domination_chooser == CASTER_CHOOSES)
    elif level == WISH:
        came_up(log, L.UP_WISH_CARDS)
        # Wish's own text: 'if Quest Deck and Discard Pile are depleted during this effect'
        draw_from_discards(s, r, rng, log, p, r.wish_cards, level, True)
    # Acceleration and Time Stop acted in the Book Phase; Resistance (and Time Stop) protect
    # through the round: no Quest-Phase effect of their own.


# --- spells ---------------------------------------------------------------------------------------

@compiled
def luck(s, r, plans, rng, log, p):
    """Luck: the caster may discard a face-down card of the zone; a blind draw replaces it."""
    face_down = 0
    for i in range(s.zone_n):
        if s.zone[i] >= 0 and s.zone_face_down[i] == 1:
            face_down += 1
            if r.luck_peeks == YES:
                s.zone_seen[i] |= np.int64(1) << p
    if face_down == 0:
        record(log, L.LUCK, p, -1, -1, -1)
        return
    came_up(log, L.UP_LUCK_PEEKS)
    decided(s, face_down + 1)  # discard one of the face-down cards, or keep them
    slot = players.luck_discard(s, r, p, plans, rng)
    if slot < 0:
        record(log, L.LUCK, p, -1, -1, -1)
        return
    old = s.zone[slot]
    discard_quest_card(s, old)
    s.zone[slot] = -1
    record(log, L.LUCK, p, slot, old)  # told before the draw, which may reshuffle it back
    # The Discard Area holds at least the discarded card: the draw always finds one.
    card = draw_quest_card(s, rng, log)
    s.zone[slot] = card
    s.zone_face_down[slot] = 1
    s.zone_seen[slot] = 0
    record(log, L.LUCK_REPLACEMENT, p, slot, card)


@compiled
def draw_from_discards(s, r, rng, log, p, n_cards, level, then_deck):
    """Cure and Wish: shuffle the Discard Area and draw at random. When it runs out, go on with
    the quest deck if ``then_deck`` (with both empty the game ends at once, cards drawn being
    kept); otherwise the spell draws no more."""
    shuffle(rng, s.quest_discard, s.quest_discard_n)
    for drawn in range(n_cards):
        if s.quest_discard_n > 0:
            s.quest_discard_n -= 1
            card = s.quest_discard[s.quest_discard_n]
            source = L.FROM_DISCARD
            if card < N_TREASURE_KINDS:  # the face-up area shows which card left it
                s.treasures_shown[p, card] += 1
        elif then_deck:
            if level == CURE:
                came_up(log, L.UP_CURE_WHEN_EMPTY)
            card = draw_quest_card(s, rng, log)
            if card < 0:
                return
            source = L.FROM_DECK
        else:
            came_up(log, L.UP_CURE_WHEN_EMPTY)  # only Cure stops when the discards run out
            record(log, L.DISCARDS_EMPTY, p, level, drawn)
            return
        s.cards_drawn[p] += 1
        record(log, L.DRAW, p, card, source, level)
        receive_card(s, r, log, p, card)


@compiled
def creation(s, r, plans, rng, log, p):
    """Creation: an item card, face down; Blessed Shoes may be used at once (one more quest card)."""
    for _ in range(r.creation_items):
        if s.item_deck_n == 0:
            record(log, L.ITEM_DECK_EMPTY, p)
            return
        s.item_deck_n -= 1
        kind = s.item_deck[s.item_deck_n]
        s.items_drawn[p] += 1
        record(log, L.ITEM, p, kind)
        use = False
        if kind == BLESSED_SHOES and zone_cards_left(s) > 0:
            decided(s, 2)  # use the shoes now, or keep them
            use = players.use_shoes(s, r, p, plans, rng)
        if use:
            s.shoes_used[p] += 1
            record(log, L.SHOES, p)
            take_from_zone(s, r, plans, rng, log, p, True)
        else:
            s.items[p, kind] += 1


@compiled
def polymorph_measure(s, r, q):
    """'The player with the highest total VP', by polymorph_target: the total everyone sees, the
    VP tokens, or the true total (a referee's count, face-down cards included)."""
    if r.polymorph_target == TARGET_VISIBLE_TOTAL:
        return public_vp(s, r, q)
    if r.polymorph_target == TARGET_VP_TOKENS:
        return s.tokens[q]
    return score(s, r, q)


@compiled
def target_measure(s, r, level, q):
    """What a targeting spell compares: companions (Charm, Domination) or total VP (Polymorph)."""
    if level == POLYMORPH:
        return polymorph_measure(s, r, q)
    return companion_count(s, q)


@compiled
def find_target(s, r, plans, rng, log, p, level):
    """The player ``p``'s targeting spell hits: the most companions or the highest total VP (at
    least ``target_floor``); players who used a Defensive Spell are ignored and the caster
    chooses among tied rivals. Where the caster is compared too (``caster_is_compared``) and
    alone has the most, the spell does nothing. -1 (logged) when there is no target."""
    floor = target_floor(r, level)
    if level == POLYMORPH:
        came_up(log, L.UP_POLYMORPH_TARGET)
    candidates = np.zeros(MAX_PLAYERS, dtype=np.int64)
    n = 0
    best = -1
    for q in range(s.n_players):
        if q == p:
            continue
        defence_came_up(s, r, log, q)
        if is_protected(s, r, q):
            continue
        v = target_measure(s, r, level, q)
        if v > best:
            best = v
            n = 0
        if v == best:
            candidates[n] = q
            n += 1
    mine = target_measure(s, r, level, p)
    if mine > best and mine >= floor:  # the caster alone has the most: compared, or not
        came_up(log, caster_counts_rule(level))
        if caster_is_compared(r, level):
            record(log, L.CASTER_IS_TARGET, p, level)
            return -1
    if n == 0 or best < floor:
        record(log, L.NO_TARGET, p, level)
        return -1
    t = candidates[0]
    if n > 1:
        decided(s, n)
        t = candidates[players.choose_target(s, r, p, plans, rng, level, candidates, n)]
    record(log, L.TARGET, p, level, t)
    return t


@compiled
def defence_came_up(s, r, log, q):
    """The rules that decide whether ``q``'s spell protects them from a targeting spell: whether
    a Thunderstorm or Time Stop is defensive, and a silenced Defensive Spell's Forbidden flag."""
    if s.spell[q] == THUNDERSTORM:
        came_up(log, L.UP_THUNDERSTORM_DEFENSIVE)
    elif s.spell[q] == TIME_STOP:
        came_up(log, L.UP_TIME_STOP_DEFENDS)
    if s.silenced[q] == 1 and is_defensive_spell(r, s.spell[q]):
        came_up(log, FORBIDDEN_RULES[s.spell[q]])


@compiled
def caster_counts_rule(level):
    """Whether the caster is compared: charm_caster_counts, domination_caster_counts or
    polymorph_caster_counts."""
    if level == CHARM:
        return L.UP_CHARM_CASTER_COUNTS
    if level == DOMINATION:
        return L.UP_DOMINATION_CASTER_COUNTS
    return L.UP_POLYMORPH_CASTER_COUNTS


@compiled
def companion_spell(s, r, plans, rng, log, p, level, count, caster_chooses):
    """Charm and Domination: companions pass from the target to the caster."""
    t = find_target(s, r, plans, rng, log, p, level)
    if t < 0:
        return
    came_up(log, L.UP_CHARM_COMPANIONS if level == CHARM else L.UP_DOMINATION_COMPANIONS)
    for _ in range(count):
        if companion_count(s, t) == 0:
            break
        if companion_kinds(s, t) > 1:  # who chooses makes a difference
            came_up(log, L.UP_CHARM_CHOOSER if level == CHARM else L.UP_DOMINATION_CHOOSER)
        decided(s, companion_kinds(s, t))  # which kind of the target's companions
        if caster_chooses:
            kind = players.companion_to_take(s, r, p, t, plans, rng)
        else:
            kind = players.companion_to_give(s, r, t, p, plans, rng)
        s.quest[t, kind] -= 1
        s.companions_lost[t] += 1
        s.companions_won[p] += 1
        record(log, L.COMPANION_MOVED, t, p, kind)
        receive_card(s, r, log, p, kind)


@compiled
def companion_kinds(s, p):
    """How many kinds of companion ``p`` holds: what a Charm or Domination chooses among."""
    n = 0
    for k in range(FIRST_COMPANION, N_QUEST_KINDS):
        if s.quest[p, k] > 0:
            n += 1
    return n


@compiled
def polymorph(s, r, plans, rng, log, p):
    """Polymorph: half the VP tokens of the player with the highest total VP go to the caster
    ('affects other players' VP Tokens only': their cards are not touched)."""
    t = find_target(s, r, plans, rng, log, p, POLYMORPH)
    if t < 0:
        return
    if s.tokens[t] % 2 == 1:
        came_up(log, L.UP_POLYMORPH_ROUNDING)
    amount = polymorph_amount(r, s.tokens[t])
    s.tokens[t] -= amount
    s.tokens[p] += amount
    s.tokens_lost[t] += amount
    s.tokens_won[p] += amount
    record(log, L.TOKENS_MOVED, t, p, amount)


@compiled
def elemental_measure(s, r, q):
    if r.elemental_measure == MEASURE_QUEST_CARDS:
        return quest_card_count(s, q)
    return s.tokens[q]


@compiled
def summon_elemental(s, r, rng, log, p):
    """Summon Elemental: with the lowest total (ties allowed), cards drawn blind from the deck."""
    came_up(log, L.UP_ELEMENTAL_MEASURE)
    mine = elemental_measure(s, r, p)
    for q in range(s.n_players):
        if q != p and elemental_measure(s, r, q) < mine:
            record(log, L.ELEMENTAL_FAILS, p)
            return
    came_up(log, L.UP_ELEMENTAL_CARDS)
    for _ in range(r.elemental_cards):
        card = draw_quest_card(s, rng, log)
        if card < 0:
            return
        s.cards_drawn[p] += 1
        record(log, L.DRAW, p, card, L.FROM_DECK, SUMMON_ELEMENTAL)
        receive_card(s, r, log, p, card)


# --- A whole game ----------------------------------------------------------------------------------

@compiled
def play_round(s, r, plans, rng, log):
    setup_phase(s, r, rng, log)
    if s.over:
        return
    book_phase(s, r, plans, rng, log)
    quest_phase(s, r, plans, rng, log)
    finish_round(s, r, log)


@compiled
def finish_round(s, r, log):
    """After the Quest Phase: this round's order and spells become last round's; the round
    in which an end trigger fired is the last."""
    if s.over:
        return
    for p in range(s.n_players):
        s.prev_position[p] = s.position[p]
        s.prev_spell[p] = s.spell[p]
    if s.last_round:
        s.over = 1


@compiled
def play_on(s, r, plans, rng, log, until_round):
    """Play rounds until the game ends, reaches ``max_rounds`` (marked truncated) or round
    ``until_round`` would begin (a search's rollout stops there)."""
    while not s.over and s.round_no < until_round:
        if s.round_no >= r.max_rounds:
            came_up(log, L.UP_MAX_ROUNDS)
            s.truncated = 1
            s.end_trigger = BY_MAX_ROUNDS
            record(log, L.TRUNCATED, s.round_no)
            break
        play_round(s, r, plans, rng, log)


# Compiled into the batch loop, its one caller: as a function of its own, LLVM would optimise
# the whole game below it once more.
@compiled(inline="always")
def play_game(r, n_players, plans, rng, log, leaders):
    """Set up and play one game to its end (or to ``max_rounds``, marked truncated), round by
    round as ``play_round`` plays them, but a quest turn at a time, noting in ``leaders`` who
    leads by total VP (the final scoring's count, face-down cards included) after each quest
    turn: the unit the games column ``turns`` counts. A checked run checks the invariants after
    each quest turn and after the final scoring, and stops at the first turn that breaks one."""
    table = new_game(r, n_players, plans, rng, log)
    s = table[0]
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    while not s.over and not s.truncated and not found_broken(log):
        if s.round_no >= r.max_rounds:
            # play_on marks the game truncated and plays nothing. Called here, it also compiles
            # the round loop a search's rollouts play (play_on, quest_turns) in the heuristic
            # loop, before the searching one: see core/game.py's kernel_calls.
            play_on(s, r, plans, rng, log, r.max_rounds + 1)
            break
        setup_phase(s, r, rng, log)
        if s.over:  # the cards ran out dealing the zone: no quest turn is played
            break
        book_phase(s, r, plans, rng, log)
        for k in range(n_players):
            quest_turn(s, r, plans, rng, log, k)
            for p in range(n_players):
                scores[p] = score(s, r, p)
            note_leader(leaders, scores, n_players)
            if checking(log):
                invariants.check(s, r, log, scores)
            if s.over or found_broken(log):
                break
        end_quest_phase(s, log)
        finish_round(s, r, log)
    for p in range(n_players):
        scores[p] = score(s, r, p)
    record(log, L.GAME_END, n_players, scores[0], scores[1], scores[2], scores[3], scores[4])
    if checking(log):
        invariants.check(s, r, log, scores)
    return table
