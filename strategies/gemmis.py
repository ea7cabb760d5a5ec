"""Scripted GEMMiS players.

Each seat is played by a strategy id plus a weight vector (``plans = (ids, weights)``, one row
per seat). The heuristic players value a zone in points: the points a combination scores now, and
what the zone keeps for later (windows of three cells holding two gems of a colour, one gem
short of a run; such near runs in both rows at once, the makings of a two-row combination;
jokers kept; the printed values still in the zone), less, for the players who watch the market,
the points the opponent's best next switch could score. Every decision (the switch, the jokers'
colours, the gems taken from the street, the street's direction, small gems, the Alguazil) takes
the option worth most by those weights. Players see what a player at the table sees: everything
but the order of the sack (the new gems the street will draw count as unknown).

The small functions of the valuation are compiled into the decisions' loops (``inline="always"``):
they run for every option valued, thousands of times a game, and a compiled call cost about as
much as their work. Not those that take an array (the random stream): inlined in a loop, an
array argument is reference-counted on every pass (and a compiled call with one, every call).
"""

from collections import namedtuple

import numpy as np

from simulator.core.expert import shipped_expert, valued_choice, weight_table
from simulator.core.jit import compiled
from simulator.core.rng import below, jitter
from simulator.core.search import played_out, searched, weight_layout
from simulator.games.gemmis.board import (
    CELLS, CLEAN_STREET, COLOUR_LANES_1, COLUMNS, EMPTY, FULL, INTERRUPT, LANE_BITS,
    ROWS_IN_LANES, RUN_STARTS, STREET, SWITCH_IN_ZONE, TOWARDS_FIRST, TOWARDS_LAST, best_points,
    combination_points, declared_combination, fill_allowed, gem_kind, joker_choices,
    jokers_join, jokers_of, landing_cell, mask_values, masks_after_switch, masks_with_gem,
    natural_combination, next_declaration, popcount, put_in_masks, street_seen_after_move,
    street_switches, zone_masks, zone_switches,
)
from simulator.games.gemmis.codes import DECIDE_DIRECTION, DECIDE_SWITCH

RANDOM, GREEDY, QUICK_SCORER, BIG_BUILDER, MARKET_TRADER, ALGUAZIL_TACTICIAN, LOOKAHEAD, \
    EXPERT = range(8)
NAMES = ("random", "greedy", "quick_scorer", "big_builder", "market_trader", "alguazil_tactician",
         "lookahead", "expert")
DESCRIPTIONS = (
    "uniform over the legal choices (switches, jokers' colours, gems taken, direction, skills)",
    "most points now: the switch, jokers and refill that score most at once; nothing for later",
    "triggers small combinations fast, places the street gems it takes for cascades, values "
    "near runs and printed values",
    "builds big two-row, multi-colour combinations: keeps jokers ('not this colour') and pairs "
    "in both rows, avoids small combinations",
    "plays the market: switches and moves the street to leave the opponent the worst street",
    "scores like quick_scorer and spends the Alguazil well: interrupts big combinations, "
    "cleans a street that favours the opponent, turns the market, cancels",
    "searches: plays each of its switches (and street directions) out, the sack re-dealt "
    "before each rollout, and leaves its rollout policy's choice only for a surely better one",
    "learnt from the search (playtest distill): values its switches and street directions by a "
    "weighted sum of their features, and decides the rest as quick_scorer does",
)

# The weight vector: what each entry means (values are in points), then the expert's and the
# search's weights.
HEURISTIC_WEIGHT_NAMES = (
    "points",             # value of one point scored now
    "near_runs",          # value of each window of three cells holding two gems of a colour
    "both_rows",          # value of near runs (or runs) in both rows at once
    "kept_joker",         # value of each joker kept in the zone
    "small_combination",  # cost per gem a triggered combination falls short of min_size
    "min_size",           # the combination size worth waiting for
    "zone_values",        # value of each printed point in the zone (advanced: turns into the
                          # end penalty as the market nears its close)
    "denial",             # cost of each point the opponent's best next switch could score
    "interrupt_at",       # interrupt an opponent's combination worth at least this many points
    "clean_at",           # clean the street when the opponent's best switch scores this many
    "reverse_at",         # change the opponent's direction when it gains this many points
    "cancel_at",          # cancel an Alguazil skill that costs this many points
    "small_gem_at",       # spend a small gem when one more switch gains this many points
    "noise",              # random jitter on every value, so equal players do not mirror each other
    "search_breadth",     # the search player: how many of its policy's best switches it plays out
)
(W_POINTS, W_NEAR_RUNS, W_BOTH_ROWS, W_KEPT_JOKER, W_SMALL_COMBINATION, W_MIN_SIZE,
 W_ZONE_VALUES, W_DENIAL, W_INTERRUPT_AT, W_CLEAN_AT, W_REVERSE_AT, W_CANCEL_AT, W_SMALL_GEM_AT,
 W_NOISE, W_SEARCH_BREADTH) = range(len(HEURISTIC_WEIGHT_NAMES))

# What the expert (core/expert.py) sees of an option, raw: points as the rules count them, gems
# and windows as they lie in the zone. Only what the player sees (the sack's new gems unknown).
FEATURE_NAMES = (
    # a switch (the zone after it)
    "points_now",         # the most points a combination of the zone scores after the switch
    "turn_points",        # the points the turn scores, cascades included, played out once
                          # (core/search.py's played_out: quick_scorer's refills and street,
                          # the sack re-dealt); points_now where it is not played out: a
                          # switch that makes no combination, and at a rollout's table
    "combination_gems",   # gems in its natural combination (runs of three or more; 0 if none)
    "near_runs",          # windows of three cells holding two gems of a colour, in what the
                          # natural combination leaves of the zone
    "both_rows",          # 1 if those near runs lie in both rows
    "jokers_kept",        # jokers left in the zone
    "zone_values",        # printed points left in the zone
    "with_street",        # 1 for a switch with the street (0: within the zone)
    # a switch or a direction of the street
    "opponent_reply",     # the most points the opponent's best next switch could score on the
                          # street this option leaves (its new gems unknown)
    "towards_last",       # a direction: 1 for the street moving towards place 8
)
(F_POINTS_NOW, F_TURN_POINTS, F_COMBINATION_GEMS, F_NEAR_RUNS, F_BOTH_ROWS, F_JOKERS_KEPT,
 F_ZONE_VALUES, F_WITH_STREET, F_OPPONENT_REPLY, F_TOWARDS_LAST) = range(len(FEATURE_NAMES))
N_FEATURES = len(FEATURE_NAMES)
EXPERT_FALLBACK = QUICK_SCORER  # what the expert does where it values no options (the search's
                                # rollout policy, among the strongest of the mix)

(WEIGHT_NAMES, W_FIRST_VALUE,
 (W_ROLLOUTS, W_ROLLOUT_TURNS, W_ROLLOUT_POLICY, W_SEARCH_CONFIDENCE)) = \
    weight_layout(HEURISTIC_WEIGHT_NAMES, FEATURE_NAMES)
N_WEIGHTS = len(WEIGHT_NAMES)
NEVER = 999.0  # a threshold no stake reaches
SEARCH_BREADTH = 8  # the search player's switches played out

DEFAULT_WEIGHTS = weight_table(np.array([
    # pts near both  joker small size values deny  intr   clean  rev    cancel gem  noise brd  rollouts turns policy conf
    [0.0, 0.0, 0.0,  0.0,  0.0,  0.0, 0.0,   0.0,  0.0,   0.0,   0.0,   0.0,   0.0, 0.0,  0,   0, 0, 0, 0],   # random (unused)
    [1.0, 0.0, 0.0,  0.0,  0.0,  0.0, 0.0,   0.0,  6.0,   NEVER, NEVER, 6.0,   1.0, 0.0,  0,   0, 0, 0, 0],   # greedy
    [1.0, 0.35, 0.2, 0.3,  0.0,  0.0, 0.3,   0.1,  5.0,   NEVER, 3.0,   5.0,   2.0, 0.05, 0,   0, 0, 0, 0],   # quick_scorer
    [1.0, 0.5, 1.5,  2.0,  0.8,  6.0, 0.15,  0.0,  8.0,   NEVER, NEVER, 8.0,   3.0, 0.05, 0,   0, 0, 0, 0],   # big_builder
    [1.0, 0.35, 0.2, 0.3,  0.0,  0.0, 0.3,   0.6,  5.0,   NEVER, 2.0,   5.0,   2.0, 0.05, 0,   0, 0, 0, 0],   # market_trader
    [1.0, 0.35, 0.2, 0.3,  0.0,  0.0, 0.3,   0.1,  3.0,   3.0,   1.5,   3.0,   2.0, 0.05, 0,   0, 0, 0, 0],   # alguazil_tactician
    # lookahead: quick_scorer's weights for its rollouts; 8 switches searched, 16 rollouts
    # each, 8 turns deep
    [1.0, 0.35, 0.2, 0.3,  0.0,  0.0, 0.3,   0.1,  5.0,   NEVER, 3.0,   5.0,   2.0, 0.05, SEARCH_BREADTH, 16, 8, QUICK_SCORER, 1.0],
]), len(HEURISTIC_WEIGHT_NAMES), EXPERT_FALLBACK, shipped_expert("gemmis", FEATURE_NAMES))
# The expert never reads its search_breadth; distill's later rounds search with the expert's row
# (its search weights replaced), and the search must then still try the search's many switches.
DEFAULT_WEIGHTS[EXPERT, W_SEARCH_BREADTH] = SEARCH_BREADTH


@compiled
def acting(plans, p):
    """The strategy that makes ``p``'s decision: a search player decides what it does not search
    (jokers, refills, small gems, the Alguazil) as its rollout policy would."""
    sid = plans[0][p]
    if sid == EXPERT:
        return EXPERT_FALLBACK
    return int(plans[1][p][W_ROLLOUT_POLICY]) if sid == LOOKAHEAD else sid


@compiled
def expert_choice(decision, s, r, p, plans, options, n):
    """The expert's option: the best valued by its weights over the options' features."""
    return valued_choice(option_features(decision, s, r, p, plans, options, n), n, plans[1][p],
                         W_FIRST_VALUE)


@compiled(inline="always")
def _rank(value, best, ties):
    """``value`` against the best so far, and the ties so far: (1, 1) above it; (0, ties + 1)
    equal to it (within rounding), when each of the tied is taken with equal chance (the caller
    draws ``below(rng, ties) == 0``); (-1, ties) below it."""
    if value > best + 1e-9:
        return 1, 1
    if value > best - 1e-9:
        return 0, ties + 1
    return -1, ties


# --- what a zone is worth ----------------------------------------------------------------------

@compiled
def near_windows(m):
    """Starts of the windows of three cells of a row holding exactly two of ``m``'s gems (in
    every lane of a word: ``board.zone_masks``)."""
    a = m & RUN_STARTS
    b = (m >> 1) & RUN_STARTS
    c = (m >> 2) & RUN_STARTS
    return (a & b & ~c) | (a & ~b & c) | (~a & b & c)


@compiled
def progress(s, r):
    """How far the game is towards the market's close: 0 at the start, 1 at the closing score."""
    return min(1.0, max(s.points[0], s.points[1]) / max(1, r.closing_score))


@compiled
def values_weight(s, r, w):
    """What a printed point left in the zone is worth: later points in family mode; in advanced
    mode less and less as the close nears, until it is the penalty it will cost."""
    if not s.advanced:
        return w[W_ZONE_VALUES]
    t = progress(s, r)
    return w[W_ZONE_VALUES] * (1.0 - t) - t


# The weights a zone's valuation reads, taken once per decision (``valuation``): a tuple is
# passed by value, so the thousands of zones valued in a game are valued without reference
# counting (an array argument costs an atomic increment and decrement in every compiled call).
Valuation = namedtuple("Valuation", ("points", "near_runs", "both_rows", "kept_joker",
                                     "small_combination", "min_size", "values", "noise"))


@compiled
def valuation(s, r, w):
    """The personality ``w``'s valuation weights at this moment of the game."""
    return Valuation(w[W_POINTS], w[W_NEAR_RUNS], w[W_BOTH_ROWS], w[W_KEPT_JOKER],
                     w[W_SMALL_COMBINATION], w[W_MIN_SIZE], values_weight(s, r, w), w[W_NOISE])


@compiled(inline="always")
def zone_worth(s, v, masks, gone):
    """What a zone keeps for later (less the cells ``gone``, a combination about to be
    triggered): near runs, near runs in both rows, jokers, printed values."""
    keep = ~(gone * LANE_BITS)  # in every lane
    low = near_windows(masks[0] & keep)
    high = near_windows(masks[1] & COLOUR_LANES_1 & keep)
    near_outer = popcount(low & ROWS_IN_LANES[0]) + popcount(high & ROWS_IN_LANES[0])
    near_inner = popcount(low & ROWS_IN_LANES[1]) + popcount(high & ROWS_IN_LANES[1])
    worth = v.near_runs * (near_outer + near_inner)
    if near_outer > 0 and near_inner > 0:
        worth += v.both_rows
    worth += v.kept_joker * popcount(jokers_of(masks) & ~gone)
    return worth + v.values * mask_values(masks, FULL & ~gone)


@compiled(inline="always")
def option_value(s, r, v, masks, mask):
    """Triggering combination ``mask`` now: its points (less the cost of its being small) and
    what the zone keeps."""
    size = popcount(mask)
    short = max(0.0, v.min_size - size)
    return v.points * combination_points(r, masks, mask) - v.small_combination * short + \
        zone_worth(s, v, masks, mask)


@compiled(inline="always")
def best_outcome(s, r, v, masks, least):
    """The value for this personality of the best of a zone's combinations of at least
    ``least`` gems, or of keeping the zone as it is where that is allowed. Without jokers the
    natural combination is the only one (most zones), as where no joker can join a run."""
    if jokers_join(masks):
        return best_outcome_with_jokers(s, r, v, masks, least)
    natural = natural_combination(masks)
    if natural != 0 and popcount(natural) >= least:
        return option_value(s, r, v, masks, natural)
    return zone_worth(s, v, masks, 0)


@compiled
def best_outcome_with_jokers(s, r, v, masks, least):
    natural = natural_combination(masks)
    if natural != 0 and popcount(natural) >= least:  # mandatory
        best = option_value(s, r, v, masks, natural)
    else:  # the zone may be kept as it is
        best = zone_worth(s, v, masks, 0)
    work = s.work
    k = joker_choices(masks, work)
    while next_declaration(work, k):  # the first declaration (no joker joins) is the natural one
        mask = declared_combination(masks, work, k)
        if mask != natural and popcount(mask) >= least:
            best = max(best, option_value(s, r, v, masks, mask))
    return best


# --- the opponent's street ----------------------------------------------------------------------

@compiled
def replies_for(s, r, q, masks):
    """Make the state's reply fields (``board.STATE``) those of ``q``'s zone (``masks``): what
    ``q``'s switches could score depends only on their zone and, for a switch with the street,
    on the kind of gem it takes (and on the rules, the same for a whole game); their zone does
    not change during the other player's turn, so every decision of that turn (and of its
    rollouts) shares these values."""
    if s.reply_for == q + 1:
        same = True
        for cell in range(CELLS):
            if s.reply_zone[cell] != s.zone[q, cell]:
                same = False
                break
        if same:
            return
    s.reply_for = q + 1
    s.reply_zone[:] = s.zone[q]
    s.reply_street_points[:, :] = -1
    options = s.replies
    best = 0
    for j in range(zone_switches(s, q, options, 0)):
        after = masks_after_switch(s, masks, s.street, options[j, 0], options[j, 1],
                                   options[j, 2])
        best = max(best, best_points(s, r, after))
    s.reply_zone_points = best


@compiled(inline="always")
def street_reply_points(s, r, q, masks, cell, chip):
    """The most points ``q`` (``replies_for`` made) scores switching the gem of their inner
    ``cell`` with the street gem ``chip``."""
    column = cell - COLUMNS
    kind = gem_kind(s, chip)
    points = s.reply_street_points[column, kind]
    if points < 0:
        points = best_points(s, r, masks_with_gem(s, masks, cell, chip))
        s.reply_street_points[column, kind] = points
    return points


@compiled
def street_switch_points(s, r, q, masks, street):
    """The most points ``q``'s switches with ``street`` (unknown places EMPTY) could score."""
    options = s.replies
    best = 0
    for j in range(street_switches(s, r, q, street, options, 0)):
        best = max(best, street_reply_points(s, r, q, masks, options[j, 1],
                                             street[options[j, 2]]))
    return best


@compiled
def best_switch_points(s, r, q, street):
    """The most points ``q``'s best switch could score now with ``street`` (unknown places
    EMPTY): what the market leaves them."""
    masks = zone_masks(s, q)
    replies_for(s, r, q, masks)
    return max(s.reply_zone_points, street_switch_points(s, r, q, masks, street))


# --- 1. the switch ------------------------------------------------------------------------------

@compiled
def switch_values(s, r, p, w, options, n, values, rng):
    """What each of ``p``'s switches is worth to the personality ``w``: the best combination it
    gets (or the zone it leaves), less the opponent's best switch on the street it leaves
    (``switch_replies``, weighed by its denial)."""
    replies = s.turn_replies
    if w[W_DENIAL] != 0.0:
        switch_replies(s, r, p, options, n, replies)
    valued_switches(s, r, p, w, options, n, values, rng, replies)


@compiled
def valued_switches(s, r, p, w, options, n, values, rng, replies):
    """``switch_values`` with the opponent's replies known (``replies[:n]``)."""
    v = valuation(s, r, w)
    masks = zone_masks(s, p)
    deny = w[W_DENIAL] != 0.0
    for i in range(n):
        kind, a, b = options[i, 0], options[i, 1], options[i, 2]
        value = best_outcome(s, r, v, masks_after_switch(s, masks, s.street, kind, a, b), 3)
        if deny:
            value -= w[W_DENIAL] * replies[i]
        values[i] = value + jitter(v.noise, rng)


@compiled
def switch_replies(s, r, p, options, n, replies):
    """The points of the opponent's best switch after each of ``p``'s switches (``replies[:n]``).

    The opponent's switches are valued once on the street as it is (those within their zone do
    not depend on it); a switch with street place ``b`` changes only the opponent's switches
    with that place (``replies_for`` keeps what each kind of gem there gives them). Of the
    others, the best is the best at any place (``top``) unless that is ``b``, then the best at
    another (``second``)."""
    q = 1 - p
    q_masks = zone_masks(s, q)
    replies_for(s, r, q, q_masks)
    in_zone = s.reply_zone_points
    q_options = s.replies
    q_n = street_switches(s, r, q, s.street, q_options, 0)
    top, top_place, second = 0, -1, 0
    for j in range(q_n):
        points = street_reply_points(s, r, q, q_masks, q_options[j, 1], s.street[q_options[j, 2]])
        place = q_options[j, 2]
        if points > top:
            if place != top_place:
                second = top
            top, top_place = points, place
        elif place != top_place:
            second = max(second, points)
    unchanged = max(in_zone, top)
    for i in range(n):
        kind, a, b = options[i, 0], options[i, 1], options[i, 2]
        if kind == SWITCH_IN_ZONE:
            replies[i] = unchanged
            continue
        best = max(in_zone, second if top_place == b else top)
        for j in range(q_n):
            if q_options[j, 2] == b:
                best = max(best, street_reply_points(s, r, q, q_masks, q_options[j, 1],
                                                     s.zone[p, a]))
        replies[i] = best


@compiled
def pick_best(values, n, rng):
    best = -1e18
    pick = 0
    ties = 0
    for i in range(n):
        rank, ties = _rank(values[i], best, ties)
        if rank > 0 or (rank == 0 and below(rng, ties) == 0):
            best, pick = values[i], i
    return pick


@compiled
def choose_switch(s, r, p, plans, rng, options, n):
    """Index (into ``options[:n]``) of the switch to make: the turn's main decision."""
    sid = plans[0][p]
    if sid == LOOKAHEAD:
        return searched(DECIDE_SWITCH, s, r, p, plans, rng, options, n)
    if sid == EXPERT:
        return expert_choice(DECIDE_SWITCH, s, r, p, plans, options, n)
    if sid == RANDOM:
        return below(rng, n)
    values = s.turn_values
    switch_values(s, r, p, plans[1][p], options, n, values, rng)
    return pick_best(values, n, rng)


@compiled
def choose_extra_switch(s, r, p, plans, rng, options, n):
    """Spend a small gem for one more switch (its index), or keep it (-1): worth it when the best
    switch gains at least small_gem_at points over the zone as it stands."""
    sid = acting(plans, p)
    if sid == RANDOM:
        return below(rng, n) if below(rng, 2) == 0 else -1
    w = plans[1][p]
    values = s.turn_values
    switch_values(s, r, p, w, options, n, values, rng)
    i = pick_best(values, n, rng)
    now = best_outcome(s, r, valuation(s, r, w), zone_masks(s, p), 3)
    if w[W_DENIAL] != 0.0:
        now -= w[W_DENIAL] * best_switch_points(s, r, 1 - p, s.street)
    gain = (values[i] - now) / max(w[W_POINTS], 1e-9)
    return i if gain >= w[W_SMALL_GEM_AT] else -1


# --- 2-3. the combination and its jokers ------------------------------------------------------

@compiled
def choose_combination(s, r, p, plans, rng, masks, option_masks, option_colours, n, mandatory):
    """Which of the ``n`` combinations the zone can make to trigger (the jokers' colours that
    make it), or -1 to declare the jokers not to join (only when none is ``mandatory``)."""
    sid = acting(plans, p)
    if sid == RANDOM:
        k = below(rng, n + (0 if mandatory else 1))
        return k if k < n else -1
    v = valuation(s, r, plans[1][p])
    best = -1e18
    pick = -1
    ties = 0
    if not mandatory:
        best = zone_worth(s, v, masks, 0)
        ties = 1
    for i in range(n):
        value = option_value(s, r, v, masks, option_masks[i]) + jitter(v.noise, rng)
        rank, ties = _rank(value, best, ties)
        if rank > 0 or (rank == 0 and below(rng, ties) == 0):
            best, pick = value, i
    return pick


# --- 4. filling the zone from the street -------------------------------------------------------

@compiled
def choose_fill(s, r, p, plans, rng):
    """The next gem taken from the street and the empty place it goes to (``board.fill_allowed``
    says which pairs zone_refill allows): (place, cell, options, index of the pair among them),
    or (-1, -1, 0, -1) when none is allowed. Each gem is placed where the zone is then worth
    most: the combination it will make (the cascade to come) and what it keeps."""
    empty = 0  # the zone's empty cells: only they can be filled
    for cell in range(CELLS):
        if s.zone[p, cell] == EMPTY:
            empty |= 1 << cell
    pairs = s.fill_pairs
    n = 0
    for place in range(STREET):
        if s.street[place] == EMPTY:
            continue
        left = empty
        while left:
            cell = popcount((left & -left) - 1)  # the lowest empty cell left
            left &= left - 1
            if fill_allowed(s, r, p, place, cell):
                pairs[n, 0], pairs[n, 1] = place, cell
                n += 1
    if n == 0:
        return -1, -1, 0, -1
    sid = acting(plans, p)
    if sid == RANDOM:
        k = below(rng, n)
        return pairs[k, 0], pairs[k, 1], n, k
    v = valuation(s, r, plans[1][p])
    masks = zone_masks(s, p)
    least = s.last_size + 1 if s.advanced else 3
    best = -1e18
    best_index = -1
    ties = 0
    for i in range(n):
        place, cell = pairs[i, 0], pairs[i, 1]
        after = put_in_masks(s, masks, landing_cell(s, r, p, cell), s.street[place])
        value = best_outcome(s, r, v, after, least)
        rank, ties = _rank(value + jitter(v.noise, rng), best, ties)
        if rank > 0 or (rank == 0 and below(rng, ties) == 0):
            best, best_index = value, i
    return pairs[best_index, 0], pairs[best_index, 1], n, best_index


# --- 5. the street's direction -------------------------------------------------------------------

@compiled
def direction_replies(s, r, p):
    """(towards place 0, towards place 8): the points of the opponent's best switch on the
    street each direction leaves (its new gems unknown)."""
    q = 1 - p
    masks = zone_masks(s, q)
    replies_for(s, r, q, masks)
    in_zone = s.reply_zone_points
    moved = s.moved_street
    replies = np.zeros(2, dtype=np.float64)
    for d in (TOWARDS_FIRST, TOWARDS_LAST):
        street_seen_after_move(s, r, d, moved)
        replies[d] = max(in_zone, street_switch_points(s, r, q, masks, moved))
    return replies


@compiled
def direction_values(s, r, p, w):
    """(towards place 0, towards place 8): minus the denial cost of the opponent's best reply on
    the street each direction leaves."""
    return -w[W_DENIAL] * direction_replies(s, r, p)


@compiled
def choose_direction(s, r, p, plans, rng):
    if plans[0][p] == LOOKAHEAD:
        options = np.zeros((2, 3), dtype=np.int64)
        options[1, 0] = TOWARDS_LAST
        return searched(DECIDE_DIRECTION, s, r, p, plans, rng, options, 2)
    if plans[0][p] == EXPERT:
        options = np.zeros((2, 3), dtype=np.int64)
        options[1, 0] = TOWARDS_LAST
        return expert_choice(DECIDE_DIRECTION, s, r, p, plans, options, 2)
    sid = acting(plans, p)
    w = plans[1][p]
    if sid == RANDOM or w[W_DENIAL] == 0.0:
        return below(rng, 2)
    values = direction_values(s, r, p, w)
    values[0] += jitter(w[W_NOISE], rng)
    values[1] += jitter(w[W_NOISE], rng)
    return pick_best(values, 2, rng)


# --- the Alguazil ----------------------------------------------------------------------------------

@compiled
def street_gain_of_reversal(s, r, q, direction):
    """How many more points ``q``'s best next switch scores if the street moves the other way."""
    masks = zone_masks(s, q)
    replies_for(s, r, q, masks)
    in_zone = s.reply_zone_points
    moved = s.moved_street
    street_seen_after_move(s, r, direction, moved)
    as_chosen = max(in_zone, street_switch_points(s, r, q, masks, moved))
    street_seen_after_move(s, r, 1 - direction, moved)
    return max(in_zone, street_switch_points(s, r, q, masks, moved)) - as_chosen


@compiled
def interrupts(s, r, q, plans, rng, masks, mask):
    """Interrupt the combination the player with the turn is going to trigger."""
    if acting(plans, q) == RANDOM:
        return below(rng, 2) == 0
    return combination_points(r, masks, mask) >= plans[1][q][W_INTERRUPT_AT]


@compiled
def cleans_street(s, r, u, plans, rng):
    """Clean the full street: at the start of the opponent's turn, when the best switch it offers
    them scores at least clean_at points."""
    if acting(plans, u) == RANDOM:
        return below(rng, 2) == 0
    if u == s.player:
        return False
    return best_switch_points(s, r, s.player, s.street) >= \
        plans[1][u][W_CLEAN_AT]


@compiled
def changes_direction(s, r, q, plans, rng, direction):
    """Change the direction the opponent chose, when the other way gains ``q`` reverse_at points
    on their next switch."""
    if acting(plans, q) == RANDOM:
        return below(rng, 2) == 0
    return street_gain_of_reversal(s, r, q, direction) >= plans[1][q][W_REVERSE_AT]


@compiled
def cancels(s, r, u, plans, rng, skill, mask, direction):
    """Cancel the opponent's Alguazil: when what its skill takes from ``u`` is worth cancel_at
    points (an interrupted combination's points; the switch a cleaning takes away; the points a
    change of direction gives the opponent)."""
    if acting(plans, u) == RANDOM:
        return below(rng, 2) == 0
    if skill == INTERRUPT:
        stake = combination_points(r, zone_masks(s, u), mask)
    elif skill == CLEAN_STREET:
        stake = best_switch_points(s, r, s.player, s.street) \
            if u == s.player else 0
    else:
        stake = street_gain_of_reversal(s, r, 1 - u, direction)
    return stake >= plans[1][u][W_CANCEL_AT]


# --- the expert's view of an option -------------------------------------------------------------

@compiled
def zone_features(masks, gone, f):
    """Fill ``f`` (one option's row) with what the zone ``masks`` keeps once the cells ``gone``
    are triggered: the raw counts ``zone_worth`` weighs."""
    keep = ~(gone * LANE_BITS)  # in every lane
    low = near_windows(masks[0] & keep)
    high = near_windows(masks[1] & COLOUR_LANES_1 & keep)
    near_outer = popcount(low & ROWS_IN_LANES[0]) + popcount(high & ROWS_IN_LANES[0])
    near_inner = popcount(low & ROWS_IN_LANES[1]) + popcount(high & ROWS_IN_LANES[1])
    f[F_NEAR_RUNS] = near_outer + near_inner
    f[F_BOTH_ROWS] = 1.0 if near_outer > 0 and near_inner > 0 else 0.0
    f[F_JOKERS_KEPT] = popcount(jokers_of(masks) & ~gone)
    f[F_ZONE_VALUES] = mask_values(masks, FULL & ~gone)


@compiled
def option_features(decision, s, r, p, plans, options, n):
    """The features (``FEATURE_NAMES``) of each of the ``n`` options of ``p``'s decision, one
    row each, from what ``p`` sees: both zones and the street (never the sack's order)."""
    f = np.zeros((n, N_FEATURES))
    if decision == DECIDE_SWITCH:
        replies = s.turn_replies
        switch_replies(s, r, p, options, n, replies)
        masks = zone_masks(s, p)
        for i in range(n):
            kind, a, b = options[i, 0], options[i, 1], options[i, 2]
            after = masks_after_switch(s, masks, s.street, kind, a, b)
            natural = natural_combination(after)
            f[i, F_POINTS_NOW] = best_points(s, r, after)
            f[i, F_COMBINATION_GEMS] = popcount(natural)
            zone_features(after, natural, f[i])
            f[i, F_WITH_STREET] = 0.0 if kind == SWITCH_IN_ZONE else 1.0
            f[i, F_OPPONENT_REPLY] = replies[i]
    else:
        replies = direction_replies(s, r, p)
        for i in range(n):
            d = options[i, 0]
            f[i, F_OPPONENT_REPLY] = replies[d]
            f[i, F_TOWARDS_LAST] = 1.0 if d == TOWARDS_LAST else 0.0
    # The turn played out: both directions, and the switches that make a combination (the zone
    # is refilled and the street moves only after one; playing out the others too, for a small
    # gem's extra switch, cost three times as much and won no more). A table of heuristic
    # plans, a rollout's, plays nothing out and keeps the switch's own points.
    f[:n, F_TURN_POINTS] = f[:n, F_POINTS_NOW]
    played = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(n):
        if decision != DECIDE_SWITCH or f[i, F_POINTS_NOW] > 0:
            played[k] = i
            k += 1
    gains = np.empty(k, dtype=np.float64)
    if played_out(decision, s, r, p, plans, EXPERT_FALLBACK, DEFAULT_WEIGHTS[EXPERT_FALLBACK],
                  options[played[:k]], k, gains):
        for j in range(k):
            f[played[j], F_TURN_POINTS] = gains[j]
    return f
