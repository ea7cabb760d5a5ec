"""Scripted Grimoire players.

Each seat is played by a strategy id plus a weight vector (``plans = (ids, weights)``, one row
per seat). Heuristic players value every choice in victory points: a spell by what its effect
brings now, where it likely puts them in the turn order, whether a rival will likely pick the same
spell, and whom it hurts; a quest card by what it adds to their final score, their collecting
bias and their progress towards the end trigger. They see only what a player at the table sees:
their own Territory in full, but of rivals only companions, VP tokens and how many treasures and
items lie face down; face-down zone cards only once they have looked at them (Luck, Spy). The
spell choice is simultaneous: nobody reads this round's choices of others.

``lookahead`` searches its spell and its card by rollouts (``simulator/games/grimoire/search.py``)
and makes its smaller choices as its rollout policy would (``acting``).
"""

import numpy as np

from simulator.core.expert import shipped_expert, valued_choice, weight_table
from simulator.core.jit import compiled
from simulator.core.rng import below, jitter
from simulator.core.search import SEARCH_WEIGHTS, searched, weight_layout
from simulator.games.grimoire.board import (
    ACCELERATION, BY_CASTER, CASTER_CHOOSES, CHARM, CREATION, CURE, CURE_QUEST_DECK, DOMINATION,
    FIREBALL, FIRST_COMPANION, FORTUNE, KING, KNIGHT, LUCK, MAX_PLAYERS, MAX_ZONE,
    MEASURE_QUEST_CARDS,
    N_QUEST_KINDS, N_SPELLS, N_TREASURE_KINDS, POLYMORPH, PRINCE, QUEEN, ROGUE, SILENCE, SPY,
    SQUIRE, SUMMON_ELEMENTAL, TARGET_VISIBLE_TOTAL, TARGET_VP_TOKENS, THIEF, THUNDERSTORM,
    TIME_STOP, WISH, can_see, caster_is_compared, companion_count, is_defensive_spell, is_forbidden,
    mean_item_vp, polymorph_amount, public_vp, quest_card_count, quest_card_counts, rogue_vp,
    royals_vp, take_options, target_floor, treasure_count, treasure_vp, visible_score,
    zone_cards_left,
)
from simulator.games.grimoire.codes import DECIDE_CARD, DECIDE_SPELL

RANDOM, GREEDY, COMPANION_COLLECTOR, TREASURE_HOARDER, SPELL_TIMER, BALANCED, LOOKAHEAD, \
    EXPERT = range(8)
NAMES = ("random", "greedy", "companion_collector", "treasure_hoarder", "spell_timer", "balanced",
         "lookahead", "expert")
DESCRIPTIONS = (
    "uniform over the legal choices: any spell up to the marker, any card in the zone",
    "most victory points this turn: the spell and the card worth most right now",
    "takes companions, races to 10 of them, charms and dominates the leader's",
    "takes treasures, draws from the discards with Cure and Wish, keeps a Rogue",
    "avoids spells a rival will likely pick, goes early, punishes the leader",
    "weighs every source of points evenly, with some care for turn order",
    "searches: plays its secret spell and the card it takes out to the end of the game "
    "(rollouts by greedy players, hidden cards and rivals' spells re-dealt) and leaves greedy's "
    "choice only for a surely better one",
    "learnt from the search (playtest distill): values its spell and its card by a weighted sum "
    "of their features, and makes its smaller choices as balanced does",
)

# The weight vector: what each entry means. First a player's style, in victory points...
STYLE_NAMES = (
    "victory_point",     # worth of one victory point (1: the unit)
    "companion",         # bias for each companion taken or won
    "treasure",          # bias for each treasure taken
    "race",              # worth of closing on the end trigger while leading (less while behind)
    "item",              # bias for drawing an item
    "early",             # worth of going first in the Quest Phase rather than last
    "duplicate",         # penalty for a spell a rival will likely choose too
    "attack",            # worth of each VP a targeting spell takes from the leader
    "defense",           # share of the VP expected to be lost to Charm, Polymorph, Domination
                         # that a Defensive Spell is worth
    "noise",             # random jitter on every value, so equal players do not mirror each other
)
# ... then the judgement behind their guesses: chances, shares and small biases, the same for
# every heuristic player (``greedy`` and ``random`` read none of them).
JUDGEMENT_NAMES = (
    "race_behind",       # share of ``race`` that counts against closing on the end while behind
    "spy",               # bias for a Spy: its owner sees the face-down zone cards
    "luck",              # bias for Luck: its caster sees the face-down card and may swap it
    "pick_doubt",        # chance a rival does not choose the spell worth most to them now
    "repeat_doubt",      # chance a rival does not repeat last round's spell
    "hit_top",           # chance a rival's Charm, Domination or Polymorph hits the player with
                         # the most of what it compares (measured on the default table: 0.45)
    "hit_next",          # ... the next in line (0.26: the first defends, or companions move)
    "hit_other",         # ... anyone else (0.12)
    "silence_odds",      # chance a rival casts Silence, negating one's Forbidden Spell
    "silence_again",     # the same for a rival who cast Silence last round
    "silence_reach",     # share of rivals' likely Forbidden gains one Silence denies
    "silence_defense",   # share of the threat to oneself a Silence averts (attacks are Forbidden)
    "attack_leading",    # share of ``attack`` that counts while oneself leads the table
    "unique_spread",     # place (share of the unique rivals) a unique spell of the top level gets
    "shared_place",      # place (share of the last) a shared spell gets
)
# ... then the expert's weight of each option feature (simulator/core/expert.py)...
# What the expert sees of an option, raw (points as the rules count them, chances as the
# heuristics' default judgement guesses them); each decision fills its own features, the rest 0.
FEATURE_NAMES = (
    # a spell (its level)
    "spell_points",       # VP the spell brings this turn, as greedy reckons it
    "spell_harm",         # VP it takes from rivals this turn (the attack greedy does not count)
    "new_items",          # items Creation draws, while the item deck lasts
    "luck", "silence",    # 1 for these two spells (what they bring is seen later, or denied)
    "silence_denies",     # rivals' likely Forbidden gains a Silence denies, per rival
    "defends",            # VP expected lost to rivals' attacks, for a Defensive Spell or Silence
    "silenced_risk",      # VP of a Forbidden Spell lost if some rival casts Silence
    "duplicate_chance",   # chance a rival picks the same spell (shared spells go late)
    "turn_order_loss",    # VP of the best zone card given up by going later with this spell
    # a card (its zone slot)
    "card_points",        # VP the card adds to the final score (a blind card: the deck's mean)
    "blind",              # 1 for a card the player cannot see
    "treasure", "companion",  # its kind, if seen
    "race_while_leading", # progress it makes to the end trigger (share of the cards needed)
    "race_while_behind",  # ... the same, while the player is behind
    "thief_tokens",       # VP tokens a Thief is expected to bring in the rounds left
    "spy",                # 1 for a Spy (its owner sees the face-down zone cards)
)
(F_SPELL_POINTS, F_SPELL_HARM, F_NEW_ITEMS, F_LUCK, F_SILENCE, F_SILENCE_DENIES, F_DEFENDS,
 F_SILENCED_RISK, F_DUPLICATE_CHANCE, F_TURN_ORDER_LOSS, F_CARD_POINTS, F_BLIND, F_TREASURE,
 F_COMPANION, F_RACE_WHILE_LEADING, F_RACE_WHILE_BEHIND, F_THIEF_TOKENS, F_SPY) = \
    range(len(FEATURE_NAMES))
N_FEATURES = len(FEATURE_NAMES)
EXPERT_FALLBACK = BALANCED  # what the expert does where it values no options
# ... and last a search player's budget and rollout policy (simulator/core/search.py).
HEURISTIC_WEIGHT_NAMES = STYLE_NAMES + JUDGEMENT_NAMES
(WEIGHT_NAMES, W_FIRST_VALUE,
 (W_ROLLOUTS, W_ROLLOUT_TURNS, W_ROLLOUT_POLICY, W_SEARCH_CONFIDENCE)) = \
    weight_layout(HEURISTIC_WEIGHT_NAMES, FEATURE_NAMES)
(W_VP, W_COMPANION, W_TREASURE, W_RACE, W_ITEM, W_EARLY, W_DUPLICATE, W_ATTACK, W_DEFENSE, W_NOISE,
 W_RACE_BEHIND, W_SPY, W_LUCK, W_PICK_DOUBT, W_REPEAT_DOUBT, W_HIT_TOP, W_HIT_NEXT, W_HIT_OTHER,
 W_SILENCE_ODDS, W_SILENCE_AGAIN, W_SILENCE_REACH, W_SILENCE_DEFENSE, W_ATTACK_LEADING,
 W_UNIQUE_SPREAD, W_SHARED_PLACE) = range(len(HEURISTIC_WEIGHT_NAMES))
N_WEIGHTS = len(WEIGHT_NAMES)

_STYLE = np.array([
    # vp  comp  treas race item early dup  attack defense noise
    [0.0, 0.0,  0.0,  0.0, 0.0, 0.0,  0.0, 0.0,   0.0,    0.0],   # random (unused)
    [1.0, 0.0,  0.0,  0.0, 0.0, 0.0,  0.0, 0.0,   0.0,    0.0],   # greedy
    [1.0, 0.6,  0.0,  2.0, 0.0, 0.8,  0.3, 0.6,   1.2,    0.3],   # companion_collector
    [1.0, -0.3, 1.2,  2.0, 0.2, 0.8,  0.3, 0.3,   0.6,    0.3],   # treasure_hoarder
    [1.0, 0.2,  0.2,  1.0, 0.2, 1.5,  2.0, 1.0,   1.0,    0.3],   # spell_timer
    [1.0, 0.3,  0.3,  1.0, 0.3, 1.0,  0.8, 0.5,   1.0,    0.3],   # balanced
    [1.0, 0.0,  0.0,  0.0, 0.0, 0.0,  0.0, 0.0,   0.0,    0.0],   # lookahead: greedy's
])
_JUDGEMENT = (
    # behind spy luck pick  repeat top   next  other odds  again reach sdef lead spread shared
    0.5,     0.3, 0.2, 0.45, 0.8,   0.45, 0.26, 0.12, 0.05, 0.4,  0.45, 0.5, 0.3, 0.8,   0.85)
_SEARCH = np.zeros((len(NAMES) - 1, len(SEARCH_WEIGHTS)))
# lookahead: greedy's weights for its rollouts; 8 rollouts per option, to the end of the game
# (0 rounds: no cut), greedy players in every seat, one standard error to leave greedy's choice
# (the budget against its win rate and speed: the game's README, Measured)
_SEARCH[LOOKAHEAD] = (8, 0, GREEDY, 1.0)
DEFAULT_WEIGHTS = weight_table(np.hstack([
    _STYLE, np.array([[0.0] * len(_JUDGEMENT)] * 2 + [list(_JUDGEMENT)] * 4 +
                     [[0.0] * len(_JUDGEMENT)]), _SEARCH]), len(HEURISTIC_WEIGHT_NAMES),
    EXPERT_FALLBACK, shipped_expert("grimoire", FEATURE_NAMES))
assert DEFAULT_WEIGHTS.shape == (len(NAMES), N_WEIGHTS)
JUDGED = DEFAULT_WEIGHTS[BALANCED].copy()  # the judgement the expert's features guess with


@compiled
def acting(plans, p):
    """The strategy that makes ``p``'s decision: a search player makes what it does not search
    (Luck's discard, Blessed Shoes and the extra card they bring, a target among tied rivals,
    the companion it gives up or takes) as its rollout policy would, with its own weights."""
    sid = plans[0][p]
    if sid == EXPERT:
        return EXPERT_FALLBACK
    return int(plans[1][p][W_ROLLOUT_POLICY]) if sid == LOOKAHEAD else sid


@compiled
def expert_choice(decision, s, r, p, plans, options, n):
    """The expert's option: the best valued by its weights over the options' features."""
    return valued_choice(option_features(decision, s, r, p, options, n), n, plans[1][p],
                         W_FIRST_VALUE)


# --- what a card is worth --------------------------------------------------------------------------

@compiled
def marginal_vp(s, r, p, kind, delta):
    """How ``p``'s final score of quest cards changes with ``delta`` (+1 or -1) cards of
    ``kind``, the Rogue and the royals included. Reads only ``p``'s own Territory (a rival's
    companions, which are public, when asked about a companion of theirs)."""
    q = s.quest[p]
    if kind < N_TREASURE_KINDS:
        t = treasure_count(s, p)
        return float(delta * treasure_vp(r, kind) +
                     q[ROGUE] * (rogue_vp(r, t + delta) - rogue_vp(r, t)))
    if kind == ROGUE:
        return float(delta * rogue_vp(r, treasure_count(s, p)))
    if kind == PRINCE or kind == QUEEN or kind == KING:
        princes, queens, kings = q[PRINCE], q[QUEEN], q[KING]
        before = royals_vp(r, princes, queens, kings)
        if kind == PRINCE:
            princes += delta
        elif kind == QUEEN:
            queens += delta
        else:
            kings += delta
        return float(royals_vp(r, princes, queens, kings) - before)
    if kind == THIEF:
        return float(delta * r.thief_vp)
    if kind == SPY:
        return float(delta * r.spy_vp)
    if kind == SQUIRE:
        return float(delta * r.squire_vp)
    if kind == KNIGHT:
        return float(delta * r.knight_vp)
    return float(delta * r.sage_vp)


@compiled
def rounds_left(s, r):
    """A rough count of rounds still to play, from the end triggers and the cards left."""
    n = s.n_players
    closest = 1_000
    for q in range(n):
        closest = min(closest, r.end_companions - companion_count(s, q),
                      r.end_treasures - treasure_count(s, q))
    by_cards = (s.quest_deck_n + s.quest_discard_n) / (n + 1.0)
    return max(1.0, min(float(closest), by_cards))


@compiled
def leading(s, r, p):
    """How far ``p`` is ahead of the best rival as ``p`` sees the table (negative: behind)."""
    mine = visible_score(s, r, p, p)
    best = -1e9
    for q in range(s.n_players):
        if q != p:
            best = max(best, visible_score(s, r, p, q))
    return mine - best


@compiled
def race_weight(s, r, p, w):
    """Closing on the end trigger is worth ``race`` while leading, and costs half that behind."""
    return w[W_RACE] if leading(s, r, p) >= 0.0 else -w[W_RACE_BEHIND] * w[W_RACE]


@compiled
def card_bonuses(s, r, p, w, race):
    """What a heuristic player adds to a card's VP for its type: the collecting bias and the
    progress towards the end trigger (``race`` from ``race_weight``): (treasure, companion)."""
    treasure = w[W_TREASURE] + race * (treasure_count(s, p) + 1.0) / max(1, r.end_treasures)
    companion = w[W_COMPANION] + race * (companion_count(s, p) + 1.0) / max(1, r.end_companions)
    return treasure, companion


@compiled
def card_value(s, r, p, w, kind, bonuses, turns_left):
    """Worth of one more card of ``kind`` to a heuristic player, in victory points; ``bonuses``
    from ``card_bonuses`` and ``turns_left`` from ``rounds_left``."""
    value = marginal_vp(s, r, p, kind, 1) * w[W_VP]
    if kind < N_TREASURE_KINDS:
        return value + bonuses[0]
    value += bonuses[1]
    if kind == THIEF:
        value += r.thief_tokens * turns_left * w[W_VP]
    elif kind == SPY:
        value += w[W_SPY]
    return value


@compiled
def greedy_card_value(s, r, p, kind):
    value = marginal_vp(s, r, p, kind, 1)
    if kind == THIEF:
        value += r.thief_tokens  # a token on its owner's next turn
    return value


@compiled
def average_card_value(s, r, p, w, greedy, bonuses, turns_left, counts):
    """Worth to ``p`` of a card drawn at random from cards of these ``counts`` (by kind); 0 if
    there are none. ``w`` is not read by the greedy valuation."""
    total = 0.0
    n = 0
    for k in range(N_QUEST_KINDS):
        if counts[k] == 0:
            continue
        v = greedy_card_value(s, r, p, k) if greedy else card_value(s, r, p, w, k, bonuses, turns_left)
        total += counts[k] * v
        n += counts[k]
    return total / n if n > 0 else 0.0


@compiled
def unknown_card_value(s, r, p, w, greedy, bonuses, turns_left):
    """Worth of an unseen quest card on average, from the deck's make-up."""
    return average_card_value(s, r, p, w, greedy, bonuses, turns_left, quest_card_counts(r))


@compiled
def discard_card_value(s, r, p, w, greedy, bonuses, turns_left):
    """Worth of a card drawn at random from the Discard Area, which lies face up, so its make-up
    is public; 0 when it is empty."""
    counts = np.zeros(N_QUEST_KINDS, dtype=np.int64)
    for i in range(s.quest_discard_n):
        counts[s.quest_discard[i]] += 1
    return average_card_value(s, r, p, w, greedy, bonuses, turns_left, counts)


# --- the Quest Phase -------------------------------------------------------------------------------

@compiled
def choose_card(s, r, p, plans, rng):
    """The zone slot ``p`` takes on their quest turn (the zone holds at least one card)."""
    if plans[0][p] == LOOKAHEAD or plans[0][p] == EXPERT:
        options = np.zeros(MAX_ZONE, dtype=np.int64)
        n = take_options(s, p, options)
        if n == 1:
            return options[0]
        if plans[0][p] == EXPERT:
            return options[expert_choice(DECIDE_CARD, s, r, p, plans, options, n)]
        return options[searched(DECIDE_CARD, s, r, p, plans, rng, options, n)]
    return card_choice(s, r, p, plans, rng)


@compiled
def choose_extra_card(s, r, p, plans, rng):
    """The zone slot ``p`` takes with Blessed Shoes (a search player as its rollout policy)."""
    return card_choice(s, r, p, plans, rng)


@compiled
def card_choice(s, r, p, plans, rng):
    """A heuristic player's card: the one worth most (blind cards at the deck's average)."""
    sid = acting(plans, p)
    w = plans[1][p]
    if sid == RANDOM:
        k = below(rng, zone_cards_left(s))
        for i in range(s.zone_n):
            if s.zone[i] >= 0:
                if k == 0:
                    return i
                k -= 1
    greedy = sid == GREEDY
    bonuses = card_bonuses(s, r, p, w, 0.0 if greedy else race_weight(s, r, p, w))
    turns_left = 0.0 if greedy else rounds_left(s, r)
    unknown = unknown_card_value(s, r, p, w, greedy, bonuses, turns_left)
    best = -1
    best_value = -1e18
    for i in range(s.zone_n):
        if s.zone[i] < 0:
            continue
        if can_see(s, p, i):
            v = greedy_card_value(s, r, p, s.zone[i]) if greedy else \
                card_value(s, r, p, w, s.zone[i], bonuses, turns_left)
        else:
            v = unknown
        if not greedy:
            v += jitter(w[W_NOISE], rng)
        if v > best_value:
            best, best_value = i, v
    return best


@compiled
def luck_discard(s, r, p, plans, rng):
    """Luck: the face-down slot to discard, or -1 to keep the card(s)."""
    sid = acting(plans, p)
    w = plans[1][p]
    if sid == RANDOM:
        if below(rng, 2) == 0:
            return -1
        for i in range(s.zone_n):
            if s.zone[i] >= 0 and s.zone_face_down[i] == 1:
                return i
        return -1
    greedy = sid == GREEDY
    bonuses = card_bonuses(s, r, p, w, 0.0 if greedy else race_weight(s, r, p, w))
    turns_left = 0.0 if greedy else rounds_left(s, r)
    unknown = unknown_card_value(s, r, p, w, greedy, bonuses, turns_left)
    worst = -1
    worst_value = unknown
    for i in range(s.zone_n):
        if s.zone[i] < 0 or s.zone_face_down[i] == 0 or not can_see(s, p, i):
            continue
        v = greedy_card_value(s, r, p, s.zone[i]) if greedy else \
            card_value(s, r, p, w, s.zone[i], bonuses, turns_left)
        if v < worst_value:
            worst, worst_value = i, v
    return worst


@compiled
def use_shoes(s, r, p, plans, rng):
    """Blessed Shoes: one more card now is worth more than keeping them; ``random`` flips a coin."""
    if acting(plans, p) == RANDOM:
        return below(rng, 2) == 0
    return True


@compiled
def target_preference(s, r, viewer, level, q):
    """How much a caster, as ``viewer`` sees the table, would rather hit ``q`` among tied rivals:
    the most VP tokens for Polymorph (it takes half of them), the table's leader otherwise."""
    if level == POLYMORPH:
        return float(s.tokens[q])
    return visible_score(s, r, viewer, q)


@compiled
def choose_target(s, r, p, plans, rng, level, candidates, n):
    """Index into ``candidates[:n]`` (tied rivals) of the one ``p``'s spell targets."""
    if acting(plans, p) == RANDOM:
        return below(rng, n)
    best = 0
    best_value = -1e18
    for i in range(n):
        v = target_preference(s, r, p, level, candidates[i])
        if v > best_value:
            best, best_value = i, v
    return best


@compiled
def companion_to_give(s, r, giver, receiver, plans, rng):
    """The companion kind ``giver`` hands over: the one they lose least by."""
    if acting(plans, giver) == RANDOM:
        return _random_companion(s, giver, rng)
    best = -1
    best_loss = 1e18
    for k in range(FIRST_COMPANION, N_QUEST_KINDS):
        if s.quest[giver, k] > 0:
            loss = -marginal_vp(s, r, giver, k, -1)
            if loss < best_loss:
                best, best_loss = k, loss
    return best


@compiled
def companion_to_take(s, r, taker, victim, plans, rng):
    """The companion kind ``taker`` takes from ``victim``: most gained plus most taken away."""
    if acting(plans, taker) == RANDOM:
        return _random_companion(s, victim, rng)
    w = plans[1][taker]
    best = -1
    best_value = -1e18
    for k in range(FIRST_COMPANION, N_QUEST_KINDS):
        if s.quest[victim, k] > 0:
            # the victim's companions are face up: their worth to the victim is public
            v = marginal_vp(s, r, taker, k, 1) - w[W_ATTACK] * marginal_vp(s, r, victim, k, -1)
            if v > best_value:
                best, best_value = k, v
    return best


@compiled
def _random_companion(s, p, rng):
    k = below(rng, companion_count(s, p))
    for kind in range(FIRST_COMPANION, N_QUEST_KINDS):
        if k < s.quest[p, kind]:
            return kind
        k -= s.quest[p, kind]
    return -1


# --- the Book Phase -----------------------------------------------------------------------------

@compiled
def target_measure_seen(s, r, viewer, level, q):
    """What a targeting spell compares for ``q``, as ``viewer`` can work it out (-1: anyone at
    the table): companions, or Polymorph's total VP by polymorph_target. The visible total and
    the tokens are public; a true total counts face-down cards at their average (one's own
    exactly)."""
    if level != POLYMORPH:
        return float(companion_count(s, q))
    if r.polymorph_target == TARGET_VISIBLE_TOTAL:
        return float(public_vp(s, r, q))
    if r.polymorph_target == TARGET_VP_TOKENS:
        return float(s.tokens[q])
    return visible_score(s, r, viewer, q)


@compiled
def target_measures(s, r, viewer, level):
    """``target_measure_seen`` of every player, by seat."""
    measures = np.zeros(MAX_PLAYERS, dtype=np.float64)
    for q in range(s.n_players):
        measures[q] = target_measure_seen(s, r, viewer, level, q)
    return measures


@compiled
def likely_target(s, r, viewer, caster, level):
    """The player ``caster``'s targeting spell would hit, as ``viewer`` works it out (nobody's
    Defensive Spell of this round is known yet): among the rivals with the most, the one the
    caster prefers; -1 if nobody has enough, or if the caster would be its own target."""
    measures = target_measures(s, r, viewer, level)
    most = -1e18
    for q in range(s.n_players):
        if q != caster:
            most = max(most, measures[q])
    if most < target_floor(r, level) or (caster_is_compared(r, level) and measures[caster] > most):
        return -1
    best = -1
    best_value = -1e18
    for q in range(s.n_players):
        if q != caster and measures[q] == most:
            v = target_preference(s, r, viewer, level, q)
            if v > best_value:
                best, best_value = q, v
    return best


@compiled
def best_companions_gain(s, r, taker, victim, count, attack):
    """What ``taker`` gains (and ``victim`` loses, times ``attack``) taking ``count`` companions
    chosen greedily one at a time (approximation: each kind taken once)."""
    total = 0.0
    taken = 0
    for _ in range(count):
        best = 0.0
        found = False
        for k in range(FIRST_COMPANION, N_QUEST_KINDS):
            if s.quest[victim, k] > 0:
                v = marginal_vp(s, r, taker, k, 1) - attack * marginal_vp(s, r, victim, k, -1)
                if not found or v > best:
                    best, found = v, True
        if not found or taken >= companion_count(s, victim):
            break
        total += best
        taken += 1
    return total


@compiled
def draw_value(s, n_cards, then_deck, discard_card, unknown):
    """Worth of ``n_cards`` drawn at random from the discards (``discard_card`` each on average)
    and, once they run out, from the quest deck (``unknown`` each) if ``then_deck``."""
    from_discards = min(n_cards, s.quest_discard_n)
    value = from_discards * discard_card
    if then_deck:
        value += min(n_cards - from_discards, s.quest_deck_n) * unknown
    return value


@compiled
def immediate_gain(s, r, p, viewer, level, unknown, discard_card, attack):
    """VP ``p``'s spell of ``level`` brings this turn (on average), as ``viewer`` (``p``, or -1
    for anyone at the table) works it out; ``unknown`` is the worth of a blind quest card,
    ``discard_card`` of a card drawn from the face-up discards, ``attack`` of a VP taken away."""
    if level == FIREBALL:
        return float(min(r.fireball_vp, s.vp_supply))
    if level == THUNDERSTORM:
        return float(min(r.thunderstorm_vp, s.vp_supply))
    if level == FORTUNE:
        return float(min(r.fortune_vp, s.vp_supply))
    if level == CURE:
        return draw_value(s, r.cure_cards, r.cure_when_discards_empty == CURE_QUEST_DECK,
                          discard_card, unknown)
    if level == WISH:
        return draw_value(s, r.wish_cards, True, discard_card, unknown)
    if level == CREATION:
        return r.creation_items * mean_item_vp(r) if s.item_deck_n > 0 else 0.0
    if level == SUMMON_ELEMENTAL:
        for q in range(s.n_players):
            if q == p:
                continue
            if r.elemental_measure == MEASURE_QUEST_CARDS:
                if quest_card_count(s, q) < quest_card_count(s, p):
                    return 0.0
            elif s.tokens[q] < s.tokens[p]:
                return 0.0
        return r.elemental_cards * unknown
    if level == CHARM or level == DOMINATION or level == POLYMORPH:
        t = likely_target(s, r, viewer, p, level)
        if t < 0:
            return 0.0
        if level == POLYMORPH:
            return polymorph_amount(r, s.tokens[t]) * (1.0 + attack)
        count = r.charm_companions if level == CHARM else r.domination_companions
        return best_companions_gain(s, r, p, t, count, attack)
    return 0.0


@compiled
def likely_spell(s, r, q, memo):
    """The spell worth most to ``q`` this turn as anyone at the table can work it out (blind
    cards at the deck's average; ties go to the higher spell), kept in ``memo``: row 0 the
    spell (-1 until worked out), row 1 what it brings ``q``. The memo lives for one Book Phase,
    so the table is read once per round, not once per player."""
    if memo[0, q] >= 0:
        return
    unread = np.zeros(N_WEIGHTS)  # the greedy valuation reads no weights
    unknown = unknown_card_value(s, r, q, unread, True, (0.0, 0.0), 0.0)
    discard_card = discard_card_value(s, r, q, unread, True, (0.0, 0.0), 0.0)
    best = 1
    best_value = -1e18
    for level in range(1, s.level + 1):
        v = immediate_gain(s, r, q, -1, level, unknown, discard_card, 0.0)
        if v >= best_value:
            best, best_value = level, v
    memo[0, q] = best
    memo[1, q] = best_value


@compiled
def predicted_picks(s, r, p, w, probs, memo):
    """``probs[level]``: the chance that at least one rival picks ``level`` this round, as ``p``
    guesses from the table: a rival takes the spell worth most to them now (``likely_spell``),
    or repeats last round's."""
    none = probs  # first the chance that no rival picks each level
    for level in range(N_SPELLS + 1):
        none[level] = 1.0
    for q in range(s.n_players):
        if q == p:
            continue
        likely_spell(s, r, q, memo)
        none[int(memo[0, q])] *= w[W_PICK_DOUBT]
        if s.prev_spell[q] >= 1 and s.prev_spell[q] <= s.level:
            none[s.prev_spell[q]] *= w[W_REPEAT_DOUBT]
    for level in range(N_SPELLS + 1):
        probs[level] = 1.0 - none[level]


@compiled
def pick_chance(s, r, w, q, level, memo):
    """The chance that ``q`` picks ``level`` this round, guessed as in ``predicted_picks``."""
    likely_spell(s, r, q, memo)
    doubt = w[W_PICK_DOUBT] if int(memo[0, q]) == level else 1.0
    if s.prev_spell[q] == level:
        doubt *= w[W_REPEAT_DOUBT]
    return 1.0 - doubt


@compiled
def companions_loss(s, r, p, count, most_valuable):
    """VP ``p`` loses when ``count`` companions are taken, one kind after another: the most
    valuable ones if the caster chooses, the least valuable if ``p`` does."""
    total = 0.0
    taken = np.zeros(N_QUEST_KINDS, dtype=np.int64)
    for _ in range(count):
        pick = -1
        pick_loss = 0.0
        for k in range(FIRST_COMPANION, N_QUEST_KINDS):
            if s.quest[p, k] > taken[k]:
                loss = -marginal_vp(s, r, p, k, -1)
                if pick < 0 or (loss > pick_loss if most_valuable else loss < pick_loss):
                    pick, pick_loss = k, loss
        if pick < 0:
            break
        taken[pick] += 1
        total += pick_loss
    return total


@compiled
def loss_to_spell(s, r, p, level):
    """VP ``p`` loses as the target of a rival's Charm, Domination or Polymorph."""
    if level == POLYMORPH:
        return float(polymorph_amount(r, s.tokens[p]))
    if level == CHARM:
        return companions_loss(s, r, p, r.charm_companions, r.charm_chooser == BY_CASTER)
    return companions_loss(s, r, p, r.domination_companions, r.domination_chooser == CASTER_CHOOSES)


@compiled
def hit_chance(s, r, w, caster, level, q, measures):
    """The chance that ``caster``'s targeting spell of ``level`` hits ``q``, by ``q``'s rank
    among the caster's rivals in what the spell compares (``measures``, as ``q`` sees them): the
    one it would hit now, the next in line, or anyone else. The target's own defence and the
    spells cast before it (companions move during the round) make every rank a possible target."""
    if q == caster or measures[q] < target_floor(r, level):
        return 0.0
    higher = 0
    most = -1e18
    for x in range(s.n_players):
        if x == caster:
            continue
        most = max(most, measures[x])
        if x != q and measures[x] > measures[q]:
            higher += 1
    if caster_is_compared(r, level) and measures[caster] > most:
        return 0.0  # the caster would be its own target
    if higher == 0:
        return w[W_HIT_TOP]
    return w[W_HIT_NEXT] if higher == 1 else w[W_HIT_OTHER]


@compiled
def threat(s, r, p, w, memo):
    """VP ``p`` expects to lose this round to rivals' Charm, Domination and Polymorph: for each
    rival, the chance they cast it (``pick_chance``) and that it hits ``p`` (``hit_chance``),
    times what ``p`` would lose."""
    danger = 0.0
    for level in (CHARM, POLYMORPH, DOMINATION):
        if level > s.level:
            continue
        chances = np.zeros(MAX_PLAYERS, dtype=np.float64)
        for q in range(s.n_players):
            if q != p:
                chances[q] = pick_chance(s, r, w, q, level, memo)
        if chances.max() == 0.0:
            continue
        measures = target_measures(s, r, p, level)
        expected = 0.0  # rivals' casts of it expected to hit p
        for q in range(s.n_players):
            if chances[q] > 0.0:
                expected += chances[q] * hit_chance(s, r, w, q, level, p, measures)
        if expected > 0.0:
            danger += expected * loss_to_spell(s, r, p, level)
    return danger


@compiled
def unique_rivals(s, r, p, memo):
    """How many rivals ``p`` expects to choose a spell nobody else chooses (group A): those whose
    likeliest spell (``likely_spell``) is no other rival's likeliest. Rivals sharing a spell go
    after every unique one, whatever the levels."""
    n = 0
    for q in range(s.n_players):
        if q == p:
            continue
        likely_spell(s, r, q, memo)
        shared = False
        for x in range(s.n_players):
            if x != p and x != q:
                likely_spell(s, r, x, memo)
                if memo[0, x] == memo[0, q]:
                    shared = True
        if not shared:
            n += 1
    return n


@compiled
def forbidden_gains(s, r, p, memo):
    """What rivals would likely gain this round with Forbidden Spells (that a Silence stops)."""
    total = 0.0
    for q in range(s.n_players):
        if q == p:
            continue
        likely_spell(s, r, q, memo)
        if is_forbidden(r, int(memo[0, q])):
            total += memo[1, q]
    return total


@compiled
def zone_values(s, r, p, w, bonuses, turns_left, unknown, values):
    """The worth to ``p`` of the cards in the zone, best first (blind cards at ``unknown``);
    returns how many. Going k-th in the Quest Phase leaves roughly the k-th best."""
    m = 0
    for i in range(s.zone_n):
        if s.zone[i] < 0:
            continue
        v = card_value(s, r, p, w, s.zone[i], bonuses, turns_left) if can_see(s, p, i) else unknown
        j = m
        while j > 0 and values[j - 1] < v:
            values[j] = values[j - 1]
            j -= 1
        values[j] = v
        m += 1
    return m


@compiled
def card_at(values, m, position):
    """The worth of the card left for the player at ``position`` (0 = first), interpolated."""
    if m == 0:
        return 0.0
    position = min(max(position, 0.0), m - 1.0)
    k = int(position)
    if k >= m - 1:
        return values[m - 1]
    f = position - k
    return values[k] * (1.0 - f) + values[k + 1] * f


@compiled
def spell_values(s, r, p, w, greedy, rng, memo, worth):
    """``worth[level]``: what each spell from 1 to the marker is worth to the heuristic player
    ``p`` this round (see ``choose_spell``)."""
    lead = 0.0 if greedy else leading(s, r, p)
    race = w[W_RACE] if lead >= 0.0 else -w[W_RACE_BEHIND] * w[W_RACE]
    turns_left = 0.0 if greedy else rounds_left(s, r)
    bonuses = card_bonuses(s, r, p, w, race)
    unknown = unknown_card_value(s, r, p, w, greedy, bonuses, turns_left)
    discard_card = discard_card_value(s, r, p, w, greedy, bonuses, turns_left)
    if greedy:
        for level in range(1, s.level + 1):
            worth[level] = immediate_gain(s, r, p, p, level, unknown, discard_card, 0.0)
        return
    probs = np.zeros(N_SPELLS + 1, dtype=np.float64)
    if w[W_DUPLICATE] != 0.0:
        predicted_picks(s, r, p, w, probs, memo)
    # Silence denies rivals their Forbidden Spells: worth it to a player who punishes others
    # (a rival makes the likely pick, and after the Silence, only some of the time)
    denied = w[W_SILENCE_REACH] * forbidden_gains(s, r, p, memo) / max(1, s.n_players - 1) \
        if w[W_ATTACK] != 0.0 else 0.0
    danger = threat(s, r, p, w, memo)
    # the chance that no rival casts Silence, which would negate a Forbidden Spell: likelier
    # from one who cast it last round
    unsilenced = 1.0
    for q in range(s.n_players):
        if q != p:
            unsilenced *= 1.0 - (w[W_SILENCE_AGAIN] if s.prev_spell[q] == SILENCE else w[W_SILENCE_ODDS])
    values = np.zeros(MAX_ZONE, dtype=np.float64)
    m = zone_values(s, r, p, w, bonuses, turns_left, unknown, values)
    last = s.n_players - 1.0
    ahead = float(unique_rivals(s, r, p, memo))
    for level in range(1, s.level + 1):
        # hurting the leader is worth more when the target leads the table
        attack = w[W_ATTACK] * (1.0 if lead < 0.0 else w[W_ATTACK_LEADING])
        v = immediate_gain(s, r, p, p, level, unknown, discard_card, attack) * w[W_VP]
        if level == CREATION and s.item_deck_n > 0:
            v += w[W_ITEM] * r.creation_items
        if level == LUCK:
            v += w[W_LUCK]
        if level == SILENCE:
            v += w[W_ATTACK] * denied + w[W_SILENCE_DEFENSE] * danger * w[W_DEFENSE]
        if is_defensive_spell(r, level):
            v += danger * w[W_DEFENSE]
        if is_forbidden(r, level):
            v *= unsilenced
        # turn order: a unique spell goes among the other unique ones, a low one earlier; a
        # shared one goes late; going later leaves a worse card
        dup = probs[level]
        position = (1.0 - dup) * ahead * w[W_UNIQUE_SPREAD] * (level - 1.0) / (N_SPELLS - 1.0) + \
            dup * last * w[W_SHARED_PLACE]
        if level == ACCELERATION:
            position = dup
        elif level == TIME_STOP:
            position = last - position
        v -= w[W_EARLY] * (values[0] - card_at(values, m, position))
        v -= w[W_DUPLICATE] * dup
        worth[level] = v + jitter(w[W_NOISE], rng)


@compiled
def choose_spell(s, r, p, plans, rng, memo):
    """The spell (its level, from 1 to the marker) ``p`` chooses in secret: ``random`` any,
    ``lookahead`` by its search, the others the one worth most (the lowest of equals). ``memo`` is the Book Phase's record
    of what each player will likely choose (see ``likely_spell``): public reasoning shared by
    every player, never this round's actual choices."""
    sid = plans[0][p]
    if sid == LOOKAHEAD or sid == EXPERT:
        if s.level == 1:
            return 1
        options = np.arange(1, s.level + 1)
        if sid == EXPERT:
            return options[expert_choice(DECIDE_SPELL, s, r, p, plans, options, s.level)]
        return options[searched(DECIDE_SPELL, s, r, p, plans, rng, options, s.level)]
    if sid == RANDOM:
        return 1 + below(rng, s.level)
    worth = np.zeros(N_SPELLS + 1, dtype=np.float64)
    spell_values(s, r, p, plans[1][p], sid == GREEDY, rng, memo, worth)
    best = 1
    for level in range(2, s.level + 1):
        if worth[level] > worth[best]:
            best = level
    return best


# --- the expert's view of an option -------------------------------------------------------------

@compiled
def spell_features(s, r, p, options, n, f):
    """Fill ``f`` (a row per spell of ``options``) with what each spell brings ``p`` this round:
    the amounts ``spell_values`` weighs, reckoned with the default judgement."""
    w = JUDGED
    memo = np.full((2, MAX_PLAYERS), -1.0)  # public reasoning, as in the Book Phase
    unread = np.zeros(N_WEIGHTS)  # the greedy valuation reads no weights
    unknown = unknown_card_value(s, r, p, unread, True, (0.0, 0.0), 0.0)
    discard_card = discard_card_value(s, r, p, unread, True, (0.0, 0.0), 0.0)
    probs = np.zeros(N_SPELLS + 1, dtype=np.float64)
    predicted_picks(s, r, p, w, probs, memo)
    denied = forbidden_gains(s, r, p, memo) / max(1, s.n_players - 1)
    danger = threat(s, r, p, w, memo)
    unsilenced = 1.0
    for q in range(s.n_players):
        if q != p:
            unsilenced *= 1.0 - (w[W_SILENCE_AGAIN] if s.prev_spell[q] == SILENCE else w[W_SILENCE_ODDS])
    lead = leading(s, r, p)
    race = w[W_RACE] if lead >= 0.0 else -w[W_RACE_BEHIND] * w[W_RACE]
    turns_left = rounds_left(s, r)
    values = np.zeros(MAX_ZONE, dtype=np.float64)
    m = zone_values(s, r, p, w, card_bonuses(s, r, p, w, race), turns_left,
                    unknown_card_value(s, r, p, w, False, card_bonuses(s, r, p, w, race),
                                       turns_left), values)
    last = s.n_players - 1.0
    ahead = float(unique_rivals(s, r, p, memo))
    for i in range(n):
        level = options[i]
        gain = immediate_gain(s, r, p, p, level, unknown, discard_card, 0.0)
        f[i, F_SPELL_POINTS] = gain
        f[i, F_SPELL_HARM] = immediate_gain(s, r, p, p, level, unknown, discard_card, 1.0) - gain
        if level == CREATION and s.item_deck_n > 0:
            f[i, F_NEW_ITEMS] = r.creation_items
        f[i, F_LUCK] = 1.0 if level == LUCK else 0.0
        if level == SILENCE:
            f[i, F_SILENCE] = 1.0
            f[i, F_SILENCE_DENIES] = denied
        if is_defensive_spell(r, level) or level == SILENCE:
            f[i, F_DEFENDS] = danger
        if is_forbidden(r, level):
            f[i, F_SILENCED_RISK] = (1.0 - unsilenced) * gain
        dup = probs[level]
        f[i, F_DUPLICATE_CHANCE] = dup
        position = (1.0 - dup) * ahead * w[W_UNIQUE_SPREAD] * (level - 1.0) / (N_SPELLS - 1.0) + \
            dup * last * w[W_SHARED_PLACE]
        if level == ACCELERATION:
            position = dup
        elif level == TIME_STOP:
            position = last - position
        f[i, F_TURN_ORDER_LOSS] = values[0] - card_at(values, m, position)


@compiled
def card_features(s, r, p, options, n, f):
    """Fill ``f`` (a row per zone slot of ``options``) with what each card brings ``p``: its
    points, its kind and the progress it makes to the end trigger, a blind card at the deck's
    mean."""
    unread = np.zeros(N_WEIGHTS)
    unknown = unknown_card_value(s, r, p, unread, True, (0.0, 0.0), 0.0)
    behind = leading(s, r, p) < 0.0
    turns_left = rounds_left(s, r)
    for i in range(n):
        slot = options[i]
        if not can_see(s, p, slot):
            f[i, F_BLIND] = 1.0
            f[i, F_CARD_POINTS] = unknown
        else:
            kind = s.zone[slot]
            f[i, F_CARD_POINTS] = greedy_card_value(s, r, p, kind)
            if kind < N_TREASURE_KINDS:
                f[i, F_TREASURE] = 1.0
                progress = (treasure_count(s, p) + 1.0) / max(1, r.end_treasures)
            else:
                f[i, F_COMPANION] = 1.0
                progress = (companion_count(s, p) + 1.0) / max(1, r.end_companions)
            f[i, F_RACE_WHILE_BEHIND if behind else F_RACE_WHILE_LEADING] = progress
            if kind == THIEF:
                f[i, F_THIEF_TOKENS] = r.thief_tokens * turns_left
            f[i, F_SPY] = 1.0 if kind == SPY else 0.0


@compiled
def option_features(decision, s, r, p, options, n):
    """The features (``FEATURE_NAMES``) of each of the ``n`` options of ``p``'s decision, one
    row each, from what ``p`` sees: their own Territory, rivals' public cards and counts, the
    zone cards they may look at."""
    f = np.zeros((n, N_FEATURES))
    if decision == DECIDE_SPELL:
        spell_features(s, r, p, options, n, f)
    else:
        card_features(s, r, p, options, n, f)
    return f
