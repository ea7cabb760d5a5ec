"""Grimoire: the table as numbers, and the questions the rules and the players ask of it.

One game's state is a numpy record of dtype ``STATE`` (layout below, field by field); the rule
numbers are a record of ``rules.toml``'s parameters (``r.wish_cards``...). Spells are numbered by
their level (1-15), so a spell id is its level. Quest cards and item cards are kinds (indices
below); a player's Territory is a count per kind. Everything here only reads the state, except
``new_table``; the rules that change it are in ``turn.py``.

Hidden information: treasures and items lie face down, and so do the quest and item decks. A
player may read every field of their own, but of a rival only what the table shows: the number of
treasure cards and of items, the companions (face up) and the VP tokens; and the Discard Area,
which lies face up (``quest_discard``). The kinds of some face-down treasures are known too: a
treasure taken face up from the zone or drawn from the Discard Area (``treasures_shown``), and
one taken from the zone after a player looked at it there (``treasures_seen``). ``visible_score`` is a rival's score as a player sees it,
``public_vp`` the part of it everyone sees exactly.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.tables import table_factory
from simulator.core.trace import came_up
from simulator.games.grimoire import codes as L

MAX_PLAYERS = 5
MAX_QUEST_CARDS = 256   # quest deck + discard; rules.toml card counts are checked against it
MAX_ITEM_CARDS = 64
MAX_ZONE = 8            # players + zone_extra_cards (at most 5 + 3)

# --- spells, by level -------------------------------------------------------------------------
NO_SPELL = 0
LUCK, SILENCE, FIREBALL, CURE, ACCELERATION, RESISTANCE, CREATION, THUNDERSTORM, CHARM, \
    SUMMON_ELEMENTAL, TIME_STOP, POLYMORPH, FORTUNE, DOMINATION, WISH = range(1, 16)
N_SPELLS = 15
SPELL_NAMES = ("(none)", "Luck", "Silence", "Fireball", "Cure", "Acceleration", "Resistance",
               "Creation", "Thunderstorm", "Charm", "Summon Elemental", "Time Stop", "Polymorph",
               "Fortune", "Domination", "Wish")

# --- quest cards --------------------------------------------------------------------------------
# Treasures (face down) come first, then companions (face up).
COPPER, SILVER, GOLD, THIEF, SPY, ROGUE, PRINCE, QUEEN, KING, SQUIRE, KNIGHT, SAGE = range(12)
N_QUEST_KINDS = 12
N_TREASURE_KINDS = 3
FIRST_COMPANION = THIEF
QUEST_NAMES = ("Copper Coin", "Silver Chalice", "Gold Crown", "Thief", "Spy", "Rogue", "Prince",
               "Queen", "King", "Squire", "Knight", "Sage")

# --- items ------------------------------------------------------------------------------------
BLESSED_SHOES, JUNK, TRINKET, JEWEL, RELIC = range(5)
N_ITEM_KINDS = 5
ITEM_NAMES = ("Blessed Shoes", "Junk", "Trinket", "Jewel", "Relic")

# --- how a game ended (games column end_trigger) ----------------------------------------------
NOT_ENDED, BY_COMPANIONS, BY_TREASURES, BY_CARDS_OUT, BY_MAX_ROUNDS = -1, 0, 1, 2, 3
END_TRIGGER_NAMES = ("companions", "treasures", "cards_out", "max_rounds")

# rules choices (index into the ``choices`` list of rules.toml)
NO, YES = 0, 1                       # every yes/no parameter lists its choices as ["no", "yes"]
BY_TARGET, BY_CASTER = 0, 1          # charm_chooser: target, caster
CASTER_CHOOSES, TARGET_CHOOSES = 0, 1  # domination_chooser: caster, target
ACCELERATION_FIRST, TIME_STOP_FIRST = 0, 1
TARGET_VISIBLE_TOTAL, TARGET_VP_TOKENS, TARGET_TRUE_TOTAL = 0, 1, 2  # polymorph_target
CURE_NOTHING, CURE_QUEST_DECK = 0, 1   # cure_when_discards_empty
ROUND_DOWN, ROUND_UP = 0, 1
MEASURE_QUEST_CARDS, MEASURE_VP_TOKENS = 0, 1
JUNK_TIES_ALL, JUNK_TIES_NONE = 0, 1
FIRST_ORDER_SEATS, FIRST_ORDER_RANDOM = 0, 1

STATE = np.dtype([
    # the table
    ("n_players", np.int64),
    ("round_no", np.int64),                  # rounds begun so far (1 during the first round)
    ("level", np.int64),                     # the spell-level marker
    ("over", np.int64),
    ("truncated", np.int64),
    ("end_trigger", np.int64),               # NOT_ENDED, or how the game ends (BY_...)
    ("trigger_player", np.int64),            # who reached 10 companions/treasures first, or -1
    ("last_round", np.int64),                # 1 once an end trigger fired: finish this round
    ("quest_deck", np.int64, (MAX_QUEST_CARDS,)),     # kinds; the top card is the last one
    ("quest_deck_n", np.int64),
    ("quest_discard", np.int64, (MAX_QUEST_CARDS,)),  # the Discard Area
    ("quest_discard_n", np.int64),
    ("item_deck", np.int64, (MAX_ITEM_CARDS,)),
    ("item_deck_n", np.int64),
    ("vp_supply", np.int64),                 # VP in the token area (tokens change freely)
    # the Quest Card Zone: one slot per card placed this round
    ("zone", np.int64, (MAX_ZONE,)),         # card kind, or -1 once taken or discarded
    ("zone_face_down", np.int64, (MAX_ZONE,)),
    ("zone_seen", np.int64, (MAX_ZONE,)),    # bit p set: player p has looked at this face-down card
    ("zone_n", np.int64),                    # slots used this round
    # the players' Territories
    ("quest", np.int64, (MAX_PLAYERS, N_QUEST_KINDS)),  # quest cards held, by kind
    ("items", np.int64, (MAX_PLAYERS, N_ITEM_KINDS)),   # item cards held (face down), by kind
    ("tokens", np.int64, (MAX_PLAYERS,)),    # VP in tokens
    # what is known of the face-down treasures (the search player's re-deal reads it): by kind,
    # those everyone saw (taken face up from the zone, or drawn from the face-up Discard Area)...
    ("treasures_shown", np.int64, (MAX_PLAYERS, N_TREASURE_KINDS)),
    # ... and treasures_seen[v, q]: those of q that v alone looked at in the zone (Luck, Spy)
    ("treasures_seen", np.int64, (MAX_PLAYERS, MAX_PLAYERS, N_TREASURE_KINDS)),
    # the round
    ("spell", np.int64, (MAX_PLAYERS,)),     # this round's spell (level), NO_SPELL before the reveal
    ("prev_spell", np.int64, (MAX_PLAYERS,)),  # last round's spell (public)
    ("order", np.int64, (MAX_PLAYERS,)),     # order[k]: the player holding turn-order token k + 1
    ("position", np.int64, (MAX_PLAYERS,)),  # position[p]: p's token - 1 this round
    ("prev_position", np.int64, (MAX_PLAYERS,)),  # last round's (seat order before the first)
    ("duplicated", np.int64, (MAX_PLAYERS,)),  # 1: p's spell was chosen by someone else too
    ("silenced", np.int64, (MAX_PLAYERS,)),  # 1: a rival's Silence negates p's forbidden spell
    ("current", np.int64),                   # the player taking their quest turn, or -1
    ("first_to_act", np.int64),              # who held turn-order token 1 in the first round
    # what happened, for the dataset
    ("decisions", np.int64),                 # choices among two or more options (core/unfolding.py)
    ("cast", np.int64, (MAX_PLAYERS, N_SPELLS + 1)),  # spells chosen, by level
    ("times_duplicated", np.int64, (MAX_PLAYERS,)),
    ("times_negated", np.int64, (MAX_PLAYERS,)),
    ("times_first", np.int64, (MAX_PLAYERS,)),
    ("companions_won", np.int64, (MAX_PLAYERS,)),
    ("companions_lost", np.int64, (MAX_PLAYERS,)),
    ("tokens_won", np.int64, (MAX_PLAYERS,)),
    ("tokens_lost", np.int64, (MAX_PLAYERS,)),
    ("cards_taken", np.int64, (MAX_PLAYERS,)),   # from the zone
    ("cards_drawn", np.int64, (MAX_PLAYERS,)),   # blind, by Cure, Wish, Summon Elemental
    ("items_drawn", np.int64, (MAX_PLAYERS,)),
    ("shoes_used", np.int64, (MAX_PLAYERS,)),
    ("turns", np.int64),                     # quest turns played
    ("deck_reshuffles", np.int64),
])


new_table, copy_of = table_factory(STATE)


# --- rule lookups by kind ----------------------------------------------------------------------

@compiled
def quest_card_counts(r):
    """How many cards of each quest kind the deck holds, in kind order."""
    return r.quest_cards


@compiled
def item_card_counts(r):
    return r.item_cards


@compiled
def item_vp(r, kind):
    return r.item_vp[kind]


@compiled
def is_forbidden(r, level):
    """Whether the spell of ``level`` is a Forbidden Spell (its effect can be negated by Silence)."""
    flags = (0, r.forbidden_luck, r.forbidden_silence, r.forbidden_fireball, r.forbidden_cure,
             r.forbidden_acceleration, r.forbidden_resistance, r.forbidden_creation,
             r.forbidden_thunderstorm, r.forbidden_charm, r.forbidden_summon_elemental,
             r.forbidden_time_stop, r.forbidden_polymorph, r.forbidden_fortune,
             r.forbidden_domination, r.forbidden_wish)
    return flags[level] == YES


@compiled
def is_defensive_spell(r, level):
    """Resistance and Time Stop protect from Charm, Polymorph and Domination (and the
    Thunderstorm when the rules make it defensive)."""
    if level == RESISTANCE:
        return True
    if level == TIME_STOP:
        return r.time_stop_defends == YES
    return level == THUNDERSTORM and r.thunderstorm_defensive == YES


@compiled
def is_negated(s, r, p):
    """Whether ``p``'s spell effect is negated now: a Forbidden Spell after a rival's Silence."""
    return s.silenced[p] == 1 and is_forbidden(r, s.spell[p])


@compiled
def is_protected(s, r, p):
    """Whether ``p`` used a Defensive Spell this round (and it is not negated)."""
    return is_defensive_spell(r, s.spell[p]) and not is_negated(s, r, p)


@compiled
def polymorph_amount(r, tokens):
    """The VP tokens Polymorph takes from a target holding ``tokens``: half, rounded by the rules."""
    return tokens // 2 if r.polymorph_rounding == ROUND_DOWN else (tokens + 1) // 2


@compiled
def caster_is_compared(r, level):
    """Whether the caster of a targeting spell is compared with the others when finding its
    target (charm_caster_counts, domination_caster_counts, polymorph_caster_counts)."""
    if level == CHARM:
        return r.charm_caster_counts == YES
    if level == DOMINATION:
        return r.domination_caster_counts == YES
    return r.polymorph_caster_counts == YES


@compiled
def target_floor(r, level):
    """The least a target must have: a companion to give, or a token when Polymorph compares
    tokens; any total will do when it compares totals."""
    return 0 if level == POLYMORPH and r.polymorph_target != TARGET_VP_TOKENS else 1


# --- counts (all public) -----------------------------------------------------------------------

@compiled
def treasure_count(s, p):
    return s.quest[p, COPPER] + s.quest[p, SILVER] + s.quest[p, GOLD]


@compiled
def companion_count(s, p):
    n = 0
    for k in range(FIRST_COMPANION, N_QUEST_KINDS):
        n += s.quest[p, k]
    return n


@compiled
def quest_card_count(s, p):
    return treasure_count(s, p) + companion_count(s, p)


@compiled
def item_count(s, p):
    n = 0
    for k in range(N_ITEM_KINDS):
        n += s.items[p, k]
    return n


@compiled
def zone_cards_left(s):
    n = 0
    for i in range(s.zone_n):
        if s.zone[i] >= 0:
            n += 1
    return n


# --- victory points ------------------------------------------------------------------------

@compiled
def treasure_vp(r, kind):
    if kind == COPPER:
        return r.copper_vp
    if kind == SILVER:
        return r.silver_vp
    return r.gold_vp


@compiled
def rogue_vp(r, treasures):
    """One Rogue: its owner's treasure cards make it worth more, up to a cap."""
    return min(treasures * r.rogue_vp_per_treasure, r.rogue_max_vp)


@compiled
def royals_vp(r, princes, queens, kings):
    """The Prince(s), Queen(s) and King(s) of one Territory, valued by each other."""
    prince = r.prince_royal_vp if kings + queens > 0 else r.prince_vp
    queen = r.queen_vp + (r.queen_king_bonus if kings > 0 else 0)
    king = r.king_vp + r.king_royal_bonus * (queens + princes)
    return princes * prince + queens * queen + kings * king


@compiled
def companions_vp_of(r, counts, treasures):
    """VP of a Territory's companions (``counts`` by quest kind), the Rogue, Prince, Queen and King
    valued first: the Rogue by the treasures held, the royals by each other."""
    total = counts[THIEF] * r.thief_vp + counts[SPY] * r.spy_vp + counts[SQUIRE] * r.squire_vp + \
        counts[KNIGHT] * r.knight_vp + counts[SAGE] * r.sage_vp
    total += counts[ROGUE] * rogue_vp(r, treasures)
    return total + royals_vp(r, counts[PRINCE], counts[QUEEN], counts[KING])


@compiled
def vp_companions(s, r, p):
    return companions_vp_of(r, s.quest[p], treasure_count(s, p))


@compiled
def vp_treasures(s, r, p):
    return s.quest[p, COPPER] * r.copper_vp + s.quest[p, SILVER] * r.silver_vp + \
        s.quest[p, GOLD] * r.gold_vp


@compiled
def vp_items(s, r, p):
    total = 0
    for k in range(N_ITEM_KINDS):
        total += s.items[p, k] * item_vp(r, k)
    return total


JUNK_NOT_MOST, JUNK_MOST_ALONE, JUNK_MOST_TIED = range(3)


@compiled
def junk_standing(s, p):
    """Whether ``p`` has the most Junk items (at least one), alone or tied."""
    mine = s.items[p, JUNK]
    if mine == 0:
        return JUNK_NOT_MOST
    tied = False
    for q in range(s.n_players):
        if q == p:
            continue
        if s.items[q, JUNK] > mine:
            return JUNK_NOT_MOST
        if s.items[q, JUNK] == mine:
            tied = True
    return JUNK_MOST_TIED if tied else JUNK_MOST_ALONE


@compiled
def vp_junk(s, r, p):
    """The junk bonus: the most Junk items (at least one); tied players all score it, or none
    with junk_bonus_ties = none."""
    standing = junk_standing(s, p)
    if standing == JUNK_NOT_MOST:
        return 0
    if standing == JUNK_MOST_TIED and r.junk_bonus_ties == JUNK_TIES_NONE:
        return 0
    return r.junk_bonus_vp


@compiled
def vp_tokens(s, r, p):
    return s.tokens[p]


@compiled
def score(s, r, p):
    """Final Scoring: card values (Rogue, royals, junk first), then every card and token."""
    return vp_companions(s, r, p) + vp_treasures(s, r, p) + vp_items(s, r, p) + vp_junk(s, r, p) + \
        vp_tokens(s, r, p)


# The item values' rules, by item kind.
ITEM_VP_RULES = (L.UP_BLESSED_SHOES_VP, L.UP_JUNK_VP, L.UP_TRINKET_VP, L.UP_JEWEL_VP, L.UP_RELIC_VP)


@compiled
def scoring_came_up(s, r, log, p):
    """The card values the final scoring of ``p`` reads where they count: a kind held, a Rogue's
    cap reached, a royal beside another, the most Junk (tied or not)."""
    q = s.quest[p]
    if q[COPPER] > 0:
        came_up(log, L.UP_COPPER_VP)
    if q[SILVER] > 0:
        came_up(log, L.UP_SILVER_VP)
    if q[GOLD] > 0:
        came_up(log, L.UP_GOLD_VP)
    if q[THIEF] > 0:
        came_up(log, L.UP_THIEF_VP)
    if q[SPY] > 0:
        came_up(log, L.UP_SPY_VP)
    if q[SQUIRE] > 0:
        came_up(log, L.UP_SQUIRE_VP)
    if q[KNIGHT] > 0:
        came_up(log, L.UP_KNIGHT_VP)
    if q[SAGE] > 0:
        came_up(log, L.UP_SAGE_VP)
    treasures = treasure_count(s, p)
    if q[ROGUE] > 0 and treasures > 0:
        came_up(log, L.UP_ROGUE_VP_PER_TREASURE)
        if treasures * r.rogue_vp_per_treasure >= r.rogue_max_vp:
            came_up(log, L.UP_ROGUE_MAX_VP)
    if q[PRINCE] > 0:
        came_up(log, L.UP_PRINCE_ROYAL_VP if q[KING] + q[QUEEN] > 0 else L.UP_PRINCE_VP)
    if q[QUEEN] > 0:
        came_up(log, L.UP_QUEEN_VP)
        if q[KING] > 0:
            came_up(log, L.UP_QUEEN_KING_BONUS)
    if q[KING] > 0:
        came_up(log, L.UP_KING_VP)
        if q[QUEEN] + q[PRINCE] > 0:
            came_up(log, L.UP_KING_ROYAL_BONUS)
    for k in range(N_ITEM_KINDS):
        if s.items[p, k] > 0:
            came_up(log, ITEM_VP_RULES[k])
    standing = junk_standing(s, p)
    if standing != JUNK_NOT_MOST:
        came_up(log, L.UP_JUNK_BONUS_VP)
        if standing == JUNK_MOST_TIED:
            came_up(log, L.UP_JUNK_BONUS_TIES)


# --- what a player can see ----------------------------------------------------------------------

@compiled
def mean_treasure_vp(r):
    """VP of an unseen treasure card on average, from the deck's make-up."""
    n = r.copper_cards + r.silver_cards + r.gold_cards
    if n == 0:
        return 0.0
    return (r.copper_cards * r.copper_vp + r.silver_cards * r.silver_vp + r.gold_cards * r.gold_vp) / n


@compiled
def mean_item_vp(r):
    """VP of an unseen item card on average (the junk bonus left out)."""
    n = 0
    total = 0
    counts = item_card_counts(r)
    for k in range(N_ITEM_KINDS):
        n += counts[k]
        total += counts[k] * item_vp(r, k)
    return total / n if n > 0 else 0.0


@compiled
def visible_score(s, r, viewer, q):
    """``q``'s score as ``viewer`` sees it: a rival's face-down treasures and items count at
    their average worth; one's own cards exactly, but without the junk bonus, which depends on
    the rivals' face-down items."""
    if q == viewer:
        return float(vp_companions(s, r, q) + vp_treasures(s, r, q) + vp_items(s, r, q) +
                     vp_tokens(s, r, q))
    return companions_vp_of(r, s.quest[q], treasure_count(s, q)) + \
        treasure_count(s, q) * mean_treasure_vp(r) + item_count(s, q) * mean_item_vp(r) + s.tokens[q]


@compiled
def public_vp(s, r, q):
    """``q``'s total VP as everyone at the table sees it: the face-up companions valued as the
    final scoring values them (the Rogue by the number of treasures, the royals by each other)
    and the VP tokens; face-down treasures and items are not counted."""
    return companions_vp_of(r, s.quest[q], treasure_count(s, q)) + s.tokens[q]


@compiled
def can_see(s, p, slot):
    """Whether ``p`` knows the card in zone ``slot`` (face up, or looked at)."""
    return s.zone_face_down[slot] == 0 or (s.zone_seen[slot] >> p) & 1 == 1


@compiled
def alike(s, p, a, b):
    """Whether taking zone slot ``a`` or ``b`` is the same choice for ``p``: both lie face up or
    down, everyone has looked at the same ones, and ``p`` knows them to be the same card or
    knows neither."""
    if s.zone_face_down[a] != s.zone_face_down[b] or s.zone_seen[a] != s.zone_seen[b]:
        return False
    seen_a = can_see(s, p, a)
    if seen_a != can_see(s, p, b):
        return False
    return not seen_a or s.zone[a] == s.zone[b]


@compiled
def take_options(s, p, options):
    """The zone slots ``p`` may take, one of each set of alike slots (``alike``), in
    ``options``; returns how many."""
    n = 0
    for i in range(s.zone_n):
        if s.zone[i] < 0:
            continue
        new = True
        for o in range(n):
            if alike(s, p, options[o], i):
                new = False
                break
        if new:
            options[n] = i
            n += 1
    return n
