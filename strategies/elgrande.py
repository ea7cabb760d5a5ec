"""Scripted El Grande players.

Each seat is played by a strategy id plus a weight vector (``plans = (ids, weights)``, one row
per seat). The heuristic players value a table in points: their score, and the points every
place (the nine regions and the Castillo) would give them if it were scored now, by the tie rule
with the King's and Grande bonuses; less, by ``rival`` and ``leader``, the same for the others;
plus what they keep in the Castillo and the court. A decision takes the option that leaves the
table worth most: placements and moves are valued by the two places they change (where a
Caballero would stand is ``board.py``'s), every other choice on a copy of the table. The copies
are the rules': they try each option out (``trials.py``; an action card, with the special action
before, after or without the placement, an alternative, a Veto's or a kept card's action in
``turn.py``, every player in that trial played as the chooser, ``mirror``: it knows no other
seat's plan) and ask the player what each is worth (``copy_value``, ``card_value``...). So this
module imports no rule, only the table (``board.py``) and the codes. Power cards are chosen by
the order they buy and the Caballeros they bring.

What a player reads: the open board (see rules.toml, hidden_information): never the order of
the stacks, and every secret choice is made before any is revealed (``turn.secret_picks``).

The search player (``lookahead``) plays its action cards (and its power cards) out to see which
wins most (the core's ``searched``, on the verbs of ``simulator/games/elgrande/search.py``);
every other decision it makes as its rollout policy would, with its own weights.
"""

import numpy as np

from simulator.core.expert import shipped_expert, valued_choice
from simulator.core.jit import compiled
from simulator.core.rng import below, flagged, jitter
from simulator.core.search import SEARCH_WEIGHTS, searched, weight_layout
from simulator.core.tables import table_factory
from simulator.games.elgrande import codes as L
from simulator.games.elgrande.board import (
    ALL_OUT_OF_ONE_REGION, ALL_OUT_OR_PLACE_2, OPPONENTS_COURT_HOME, SCORE_BLACK_REGIONS,
    SCORE_CASTILLO, SCORE_FEWEST_CABALLEROS, SCORE_OUTSIDE_SPAIN,
    CARD_KEYS, CARD_STACK, CASTILLO, KING, KING_TO_NEIGHBOUR, MAX_PLAYERS, MOBILE_SCOREBOARD,
    MOVE_GRANDE,
    N_PLACES, N_POWER, N_STACKS, SCORE_ANY_REGION, SCORE_CHOSEN_REGION, SECRET_RETURN_2,
    SECRET_RETURN_ALL, SECRET_UNIQUE_REGIONS, AFRICA, AMERICA, BLACK, GOLD, N_COLOURS, SHIP, WARE,
    copy_of, depart, in_play, may_enter, may_move_through, holds_space, placement_target, stand,
    standings, table_filler, table_load,
)

RANDOM, GREEDY, KING_SHADOW, CASTILLO_SCHEMER, INTRIGUER, SPOILER, COLONIAL_MERCHANT, \
    INQUISITOR, LOOKAHEAD, EXPERT, QUICK_GREEDY, QUICK_KING_SHADOW, QUICK_CASTILLO_SCHEMER, \
    QUICK_INTRIGUER, QUICK_SPOILER = range(15)
NAMES = ("random", "greedy", "king_shadow", "castillo_schemer", "intriguer", "spoiler",
         "colonial_merchant", "inquisitor", "lookahead", "expert", "quick_greedy",
         "quick_king_shadow", "quick_castillo_schemer", "quick_intriguer", "quick_spoiler")
# The quick players: a heuristic's own, except that they choose their power and action cards by
# the first expert's weights, and carry the action card out without trying it first.
QUICK_OF = {QUICK_GREEDY: GREEDY, QUICK_KING_SHADOW: KING_SHADOW,
            QUICK_CASTILLO_SCHEMER: CASTILLO_SCHEMER, QUICK_INTRIGUER: INTRIGUER,
            QUICK_SPOILER: SPOILER}
DESCRIPTIONS = (
    "uniform over the legal choices (power card, action card and its order, every placement, "
    "move and region)",
    "most points if the board were scored now: its own score and standings, nothing else",
    "the King's shadow: plays high power cards to move first, covets the King's card, and "
    "places next to the King",
    "the Castillo schemer: fills the Castillo and springs it on the region that needs it at "
    "general scoring",
    "the intriguer: lives on the stack-1 moves, shifting its own and others' Caballeros",
    "the spoiler: contests the leader's regions, counting the leader's points as losses",
    "the colonial merchant (expansion): ships Caballeros out, values the Gold and Wares they "
    "carry, likes stack 7",
    "the inquisitor (expansion): covets the Holy Inquisition and the Grand Inquisitor's black "
    "Caballeros",
    "searches: plays each face-up action card (and each power card) out to the end of the round "
    "(rollouts by spoiler players, the stacks re-dealt) and leaves spoiler's choice only for a "
    "surely better one",
    "learnt from the search (playtest distill): values its power card and its action card by a "
    "weighted sum of their features (each action card tried as spoiler tries it, nothing played "
    "on past the turn), carries the card out in its trial's best order, and decides the rest as "
    "spoiler does",
) + tuple(
    f"{NAMES[h]}'s style, but its power and action cards chosen by the first expert's learnt "
    "weights (its liking for a stack counted as points of placement), the card carried out in a "
    "fixed order per card (a scoring it trails in declined): no card played out"
    for h in QUICK_OF.values())

# The weight vector: what each entry means (values in points).
STYLE_NAMES = (
    "standing",     # value of each point the places would give if scored now
    "rival",        # cost of the others' points (score and standings), shared among them
    "leader",       # extra cost of the leading rival's points
    "castillo",     # value of each own Caballero in the Castillo
    "court",        # value of each own Caballero kept in the court
    "power_order",  # value of acting early: the power card's value / 13
    "power_court",  # value of each Caballero a power card brings to the court
    "power_save",   # cost of playing a card above the mean of those left (/ 13)
    "stack_1", "stack_2", "stack_3", "stack_4", "stack_5",  # liking for a stack's cards
    "stack_6", "stack_7",  # the expansion's stacks
    "veto_at",      # cancel a special action that costs at least this many points
    "cargo",        # value of each point a token carried by an own Caballero will bring home
    "voyage",       # value of each own Caballero on the Ship or in a colony holding no token
    "inquisitor",   # value of holding the Grand Inquisitor card
    "noise",        # random jitter on every value, so equal players do not mirror each other
)
# What the learnt expert (core/expert.py) sees of an option, raw, from the open board and, for an
# action card, from its fallback's trials of the cards (no card played on past the turn). Each
# decision fills only its own features (the rest 0).
FEATURE_NAMES = (
    # the power card (DECIDE_POWER)
    "power_order",     # the card's value / 13 (acting early)
    "power_court",     # Caballeros it brings from the provinces to the court
    "power_save",      # its value above the mean of the player's cards left, / 13
    "power_beats",     # share of the rivals whose card played this round it beats
    "power_beaten",    # share of the rivals whose card played this round beats it
    "power_beaten_later",  # the rivals yet to play this round: the mean share of the cards
                           # each has left that would beat it
    "power_highest",   # 1 if it is the highest card the player has left
    # the action card (DECIDE_CARD)
    "card_trial",      # the card tried as spoiler tries it (each order worth trying, the table
                       # valued after it: turn.card_choice), less the best card's value; 0 for a
                       # quick player, who tries nothing
    "card_places",     # Caballeros its placement lets the player place (at most its court)
    "place_points",    # points the best such placements would gain now (each valued alone,
                       # own less the rivals' mean, as greedy values a placement)
    "stack_1", "stack_2", "stack_3", "stack_4", "stack_5",  # which stack the card is from
    "stack_6", "stack_7",
    "king_card",       # the King's card or King to a neighbour: the King moves
    "scoring_lead",    # a scoring card: the player's lead if the board were scored now
    "castillo_lead",   # the Castillo's scoring card: the player's lead in the Castillo
    "returns",         # a card that sends Caballeros home (the secret returns, all out...)
)
(F_POWER_ORDER, F_POWER_COURT, F_POWER_SAVE, F_POWER_BEATS, F_POWER_BEATEN, F_POWER_BEATEN_LATER,
 F_POWER_HIGHEST, F_CARD_TRIAL, F_CARD_PLACES, F_PLACE_POINTS, F_STACK_1, F_STACK_2, F_STACK_3,
 F_STACK_4, F_STACK_5, F_STACK_6, F_STACK_7, F_KING_CARD, F_SCORING_LEAD, F_CASTILLO_LEAD,
 F_RETURNS) = range(len(FEATURE_NAMES))
N_FEATURES = len(FEATURE_NAMES)
NO_TRIALS = np.zeros((N_STACKS, 2))  # (a power card's features read no card's trials)
# What the expert does where it values no options (placements, moves, regions, Vetoes...):
# spoiler's, as the search player it learns from does (greedy's placements, blind to the rivals'
# points, lose nearly every two-player game to spoiler's).
EXPERT_FALLBACK = SPOILER

HEURISTIC_WEIGHT_NAMES = STYLE_NAMES + (
    "search_power",  # the search player: 1 plays its power cards out too, 0 plays its policy's
)
(W_STANDING, W_RIVAL, W_LEADER, W_CASTILLO, W_COURT, W_POWER_ORDER, W_POWER_COURT, W_POWER_SAVE,
 W_STACK_1, W_STACK_2, W_STACK_3, W_STACK_4, W_STACK_5, W_STACK_6, W_STACK_7, W_VETO_AT, W_CARGO,
 W_VOYAGE, W_INQUISITOR, W_NOISE, W_SEARCH_POWER) = range(len(HEURISTIC_WEIGHT_NAMES))
(WEIGHT_NAMES, W_FIRST_VALUE,
 (W_ROLLOUTS, W_ROLLOUT_TURNS, W_ROLLOUT_POLICY, W_SEARCH_CONFIDENCE)) = \
    weight_layout(HEURISTIC_WEIGHT_NAMES, FEATURE_NAMES)
N_WEIGHTS = len(WEIGHT_NAMES)

# The expansion's weights (stack_6, stack_7, cargo, voyage, inquisitor) weigh nothing in the
# base game, which has none of those things.
_STYLE = np.array([
    # stand rival lead  cast  court order pcourt save  st1  st2  st3  st4  st5  st6  st7  veto cargo voy  inq  noise
    [0.0,   0.0,  0.0,  0.0,  0.0,  0.0,  0.0,   0.0,  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # random (unused)
    [1.0,   0.0,  0.0,  0.0,  0.0,  2.0,  0.5,   2.0,  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.6, 0.3, 0.0, 0.0],  # greedy
    [0.8,   0.3,  0.0,  0.1,  0.1,  3.5,  0.3,   1.0,  0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 3.0, 0.5, 0.2, 1.0, 0.1],  # king_shadow
    [0.8,   0.3,  0.0,  1.2,  0.1,  2.0,  0.6,   2.0,  0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 3.0, 0.5, 0.2, 1.0, 0.1],  # castillo_schemer
    [0.8,   0.4,  0.0,  0.2,  0.1,  2.0,  0.5,   2.0,  2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.5, 0.3, 1.0, 0.1],  # intriguer
    [0.8,   0.3,  0.8,  0.2,  0.1,  2.0,  0.5,   2.0,  0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.5, 0.2, 1.0, 0.1],  # spoiler
    [0.8,   0.3,  0.0,  0.1,  0.1,  2.0,  0.5,   2.0,  0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.9, 1.5, 1.0, 0.1],  # colonial_merchant
    [0.8,   0.3,  0.0,  0.2,  0.1,  5.0,  0.5,   1.0,  0.0, 0.0, 0.0, 0.0, 0.0, 6.0, 0.0, 3.0, 0.5, 0.2, 4.0, 0.1],  # inquisitor
])
_SEARCH = np.zeros((EXPERT, 1 + len(SEARCH_WEIGHTS)))
# lookahead: spoiler's weights (the strongest heuristic at 3 and 4 players); power cards searched
# too; 4 rollouts per option to the end of the round, spoiler rollouts, leaving spoiler's own
# choice at 1 standard error
_STYLE = np.vstack([_STYLE, _STYLE[SPOILER]])
_SEARCH[LOOKAHEAD] = (1, 4, 1, SPOILER, 1.0)
# The expert's row (built as core/expert.py's weight_table builds one, search_power kept apart):
# its fallback's style, the shipped values; search_power 1, so that a search player distilled
# from it (playtest distill: its row with the search's budget) still plays its power cards out.
_EXPERT = np.concatenate([_STYLE[EXPERT_FALLBACK], [1.0], shipped_expert("elgrande", FEATURE_NAMES),
                          np.zeros(len(SEARCH_WEIGHTS))])
# A quick player's row: its heuristic's style and the weights it values the cards' features by:
# the first expert's (distilled 2026-12-05, when the expert tried no card but its own), kept in a
# file of their own so that distilling the expert again leaves the default mix as it is.
_QUICK_VALUES = shipped_expert("elgrande", FEATURE_NAMES, "elgrande-quick")
_QUICK = np.array([np.concatenate([_STYLE[h], [0.0], _QUICK_VALUES, np.zeros(len(SEARCH_WEIGHTS))])
                   for h in QUICK_OF.values()])
DEFAULT_WEIGHTS = np.vstack([
    np.hstack([_STYLE, _SEARCH[:, :1], np.zeros((EXPERT, N_FEATURES)), _SEARCH[:, 1:]]),
    _EXPERT, _QUICK])
assert DEFAULT_WEIGHTS.shape == (len(NAMES), N_WEIGHTS)

@compiled
def acting(plans, p):
    """The strategy that makes ``p``'s decision: a search player decides what it does not search
    as its rollout policy would."""
    sid = plans[0][p]
    if sid == EXPERT:
        return EXPERT_FALLBACK
    return int(plans[1][p][W_ROLLOUT_POLICY]) if sid == LOOKAHEAD else sid


@compiled
def expert_choice(decision, s, r, p, plans, options, n):
    """The expert's option: the best valued by its weights over the options' features."""
    return valued_choice(option_features(decision, s, r, p, options, n, NO_TRIALS), n, plans[1][p],
                         W_FIRST_VALUE)


@compiled
def mirror(plans, p):
    """Heuristic plans with every seat played as ``p`` (a search player as its rollout policy):
    a player's model of the table when it tries an option out (it knows no other seat's plan)."""
    w = plans[1][p]
    ids = np.full(MAX_PLAYERS, acting(plans, p), dtype=np.int64)
    weights = np.empty((MAX_PLAYERS, w.shape[0]), dtype=np.float64)
    for q in range(MAX_PLAYERS):
        weights[q, :] = w
    return (ids, weights)


@compiled(inline="always")  # called in every valuation: no call overhead
def better(value, best, ties, rng):
    """Whether ``value`` replaces ``best`` (equal values: each of the tied with equal chance)."""
    if value > best + 1e-9:
        return True, 1
    if value > best - 1e-9:
        ties += 1
        return below(rng, ties) == 0, ties
    return False, ties


# --- what a table is worth --------------------------------------------------------------------

@compiled
def coefficients(s, p, w):
    """How much each player's points count for ``p``: 1 its own; the others less ``rival``
    shared among them, the leading rival less ``leader`` more."""
    coef = np.empty(MAX_PLAYERS, dtype=np.float64)
    fill_coefficients(s, p, w, coef)
    return coef


@compiled(inline="always")  # a card's placements and moves fill the room their memo has
def fill_coefficients(s, p, w, coef):
    """``coefficients`` into ``coef``."""
    n = s.n_players
    coef[:] = 0.0
    leader = -1
    for q in range(n):
        if q != p:
            coef[q] = -w[W_RIVAL] / max(1, n - 1)
            if leader < 0 or s.score[q] > s.score[leader]:
                leader = q
    coef[p] = 1.0
    if leader >= 0:
        coef[leader] -= w[W_LEADER]


@compiled
def place_term(s, r, g, coef, pts):
    """The weighted points of place ``g`` if it were scored now."""
    standings(s, r, g, False, pts)
    t = 0.0
    for q in range(s.n_players):
        t += coef[q] * pts[q]
    return t


@compiled
def place_terms(s, r, coef, pts):
    """``place_term`` of every place (``pts``: room for one place's points)."""
    terms = np.empty(N_PLACES, dtype=np.float64)
    fill_place_terms(s, r, coef, pts, terms)
    return terms


@compiled(inline="always")  # place_terms, and a judge's
def fill_place_terms(s, r, coef, pts, terms):
    """``place_terms`` into ``terms``."""
    for g in range(N_PLACES):
        terms[g] = place_term(s, r, g, coef, pts) if in_play(s, g) else 0.0


@compiled
def worth(s, p, w, coef, terms):
    """The table's worth to ``p`` from its places' ``terms``: scores, standings, the Castillo
    and the court."""
    v = scores_worth(s, coef)
    for g in range(N_PLACES):
        if in_play(s, g):
            v += w[W_STANDING] * terms[g]
    return with_holdings(v, s, p, w)


@compiled(inline="always")  # a part of every valuation: no call overhead
def scores_worth(s, coef):
    """The first part of a table's worth: the players' scores, weighted."""
    v = 0.0
    for q in range(s.n_players):
        v += coef[q] * s.score[q]
    return v


@compiled(inline="always")  # a part of every valuation: no call overhead
def with_holdings(v, s, p, w):
    """``v`` (scores and standings) and what ``p`` holds: the Castillo, the court, the
    expansion's tokens, voyages and the Grand Inquisitor."""
    v = v + w[W_CASTILLO] * s.cab[p, CASTILLO] + w[W_COURT] * s.court[p]  # as before: same sums
    if s.expansion:
        v += expansion_value(s, p, w)
    return v


@compiled
def value(s, r, p, w, coef):
    """The table's worth to ``p``: scores, standings, the Castillo and the court."""
    return worth(s, p, w, coef, place_terms(s, r, coef, np.empty(MAX_PLAYERS, dtype=np.int64)))


@compiled
def value_of_table(copy, r, p, w, coef):
    """``value`` of the state in the table ``copy`` (see ``value_of_copy``)."""
    return value(copy[0], r, p, w, coef)


@compiled
def term_of_table(copy, r, g, coef, pts):
    """``place_term`` of ``g`` in the state in the table ``copy`` (see ``value_of_copy``)."""
    return place_term(copy[0], r, g, coef, pts)


@compiled(inline="always")  # called in every valuation: no call overhead
def same_standings(x, s, g):
    """Whether place ``g`` would score the same on table ``x`` as on ``s``: the same
    Caballeros there, the same scoreboard, King and Grandes (everything ``board.standings``
    reads; a test changes every field of the state to check it)."""
    for q in range(MAX_PLAYERS):  # every seat, an empty one alike on both (fixed length: fast)
        if x.cab[q, g] != s.cab[q, g] or (x.grande[q] == g) != (s.grande[q] == g):
            return False
    for m in range(2):
        if (x.mobile[m] == g) != (s.mobile[m] == g):
            return False
    if s.expansion and not same_expansion_standings(x, s, g):  # the base game never moves them
        return False
    return (x.king == g) == (s.king == g)


@compiled(inline="always")
def same_expansion_standings(x, s, g):
    """The expansion's part of ``same_standings``: the black Caballeros and their holder, the
    limit table, and the spaces that score (Francia's, the Captain, the Viceroy)."""
    if x.cab[BLACK, g] != s.cab[BLACK, g] or x.inquisitor != s.inquisitor:
        return False
    if x.table_region != s.table_region or x.captain != s.captain or x.viceroy != s.viceroy:
        return False
    for c in range(x.on_table.shape[0]):
        if x.on_table[c] != s.on_table[c]:
            return False
    for i in range(x.francia.shape[0]):
        if x.francia[i] != s.francia[i]:
            return False
    return True


@compiled
def value_of_copy(copy, s, r, p, w, judge):
    """``value`` of the state in ``copy``, a table holding a changed copy of ``s``, by the
    ``judge`` of ``s`` (``judge_places``): only the places the change touched are valued again
    (the same number, far fewer standings). The copies' valuations take the tables, not their
    records, so that they stay in hand while they are read (``simulator/core/tables.py``;
    ``tests/test_tables.py``)."""
    x = copy[0]
    j = judge[0]
    coef, terms, pts = j.coef, j.terms, j.pts
    v = scores_worth(x, coef)
    for g in range(N_PLACES):
        if in_play(x, g):
            v += w[W_STANDING] * (terms[g] if same_standings(x, s, g) else
                                  place_term(x, r, g, coef, pts))
    return with_holdings(v, x, p, w)


@compiled
def term_with(s, r, q, g, change, coef, pts):
    """``place_term`` of ``g`` with ``change`` more Caballeros of ``q`` there."""
    if s.expansion:
        return expansion_term_with(s, r, q, g, change, coef, pts)
    s.cab[q, g] += change
    t = place_term(s, r, g, coef, pts)
    s.cab[q, g] -= change
    return t


# What a player keeps between the decisions of one card (its placements, or its moves): each
# place's points by player now, and with one Caballero of a colour fewer or more, as
# ``remembered`` works them out; ``forget`` drops a place a placement or move changed. The same
# numbers as working them out again, with far fewer standings. It also holds the room those
# decisions work in, so that their loops make no array: a record's arrays carry no reference
# count, where a loop over arrays of their own would count references at every call.
MEMO = np.dtype([
    ("points", np.int16, (3, N_COLOURS, N_PLACES, MAX_PLAYERS)),  # [change + 1, colour, place]
    ("known", np.int8, (3, N_COLOURS, N_PLACES)),  # 1: ``points`` holds them
    ("coef", np.float64, (MAX_PLAYERS,)),  # the deciding player's coefficients
    ("pts", np.int64, (MAX_PLAYERS,)),     # one place's points, as worked out
    ("now", np.float64, (N_PLACES,)),      # a move's: each place's term now,
    ("out", np.float64, (N_PLACES,)),      # what taking one away from it gains,
    ("into", np.float64, (N_PLACES,)),     # and what adding one to it gains
])
# ``new_memo()``: a card's memo, holding no points yet (keep it in hand while its record is read)
new_memo, _ = table_factory(MEMO)


@compiled(inline="always")  # called in every valuation: no call overhead
def remembered(m, s, r, q, g, change, coef, pts):
    """``place_term`` of ``g`` (``change`` 0), or ``term_with`` ``change`` (-1 or 1) more of
    colour ``q`` there: from the memo's record ``m`` when it holds the points, else worked out
    and kept."""
    k = change + 1
    c = q if change != 0 else 0
    n = s.n_players
    if m.known[k, c, g]:
        t = 0.0
        for i in range(n):  # place_term's sum, in its order: the same number
            t += coef[i] * m.points[k, c, g, i]
        return t
    t = place_term(s, r, g, coef, pts) if change == 0 else term_with(s, r, q, g, change, coef, pts)
    for i in range(n):
        m.points[k, c, g, i] = pts[i]
    m.known[k, c, g] = 1
    return t


@compiled
def forget(memo, a, b):
    """A Caballero left place ``a`` for ``b`` (or was placed in ``a`` == ``b``): their points are
    worked out again. Nothing else a move does (the tokens its player then takes) changes a
    place's standings (a test checks it)."""
    m = memo[0]
    m.known[:, :, a] = 0
    m.known[:, :, b] = 0


# --- what the rules' trials show, valued -----------------------------------------------------
# Where an option is tried out on a copy of the table (a place, a scoreboard's move: the rules'
# ``trials.py``; an action card, an alternative, a Veto, a kept card: ``turn.py``), the rules play
# the option and ask the player what the copy is worth; these are the player's side of it.

@compiled
def at_random(plans, p):
    """Whether ``p`` chooses at random (the rules then try nothing out)."""
    return acting(plans, p) == RANDOM


@compiled
def random_flag(rng, flags, n, none):
    """The random player's pick of an option flagged in ``flags[:n]`` (``none`` 1: or none)."""
    return flagged(rng, flags, n, none)


@compiled
def random_below(rng, n):
    """The random player's pick of one of ``n`` options."""
    return below(rng, n)


@compiled
def judge(s, p, plans):
    """(weights, coefficients) ``p`` values a table with."""
    w = plans[1][p]
    return w, coefficients(s, p, w)


# How a player values copies of one table (``judge_places``): its coefficients, the place terms
# of the table the copies were made from, and room for one place's points. A record, so that
# valuing many copies counts no references to its arrays (as ``MEMO``).
JUDGE = np.dtype([
    ("coef", np.float64, (MAX_PLAYERS,)),
    ("terms", np.float64, (N_PLACES,)),
    ("pts", np.int64, (MAX_PLAYERS,)),
])
new_judge, _ = table_factory(JUDGE)


@compiled
def judge_places(s, r, p, plans):
    """(weights, a ``JUDGE`` of ``s``) ``p`` values copies of ``s`` with (``copy_value``)."""
    w = plans[1][p]
    judge = new_judge()
    j = judge[0]
    fill_coefficients(s, p, w, j.coef)
    fill_place_terms(s, r, j.coef, j.pts, j.terms)
    return w, judge


@compiled
def judged_worth(s, p, w, judge):
    """``worth`` of ``s`` itself, by its ``judge``."""
    j = judge[0]
    return worth(s, p, w, j.coef, j.terms)


@compiled(inline="always")  # valued for every option: no call, no reference counts
def copy_value(table, s, r, p, w, judge, rng):
    """What a trial's copy of ``s`` (in ``table``) is worth to ``p``, with its noise."""
    return value_of_copy(table, s, r, p, w, judge) + jitter(w[W_NOISE], rng)


@compiled(inline="always")  # valued for every option: no call, no reference counts
def card_value(table, s, r, p, w, judge, stack, rng):
    """``copy_value`` of a card of ``stack`` tried out, with ``p``'s liking for the stack."""
    return value_of_copy(table, s, r, p, w, judge) + w[W_STACK_1 + stack] + \
        jitter(w[W_NOISE], rng)


@compiled
def table_value(table, r, p, w, coef, rng):
    """What a trial's table is worth to ``p`` (valued whole), with its noise."""
    return value_of_table(table, r, p, w, coef) + jitter(w[W_NOISE], rng)


@compiled
def costs_a_veto(s, table, r, q, w, coef):
    """Whether the special action tried in ``table`` costs ``q`` at least veto_at points (it
    then spends a Veto on it)."""
    return value(s, r, q, w, coef) - value_of_table(table, r, q, w, coef) >= w[W_VETO_AT]


@compiled
def gains(s, table, r, q, w, coef):
    """Whether ``table`` (a special action tried) is worth more to ``q`` than ``s``."""
    return value_of_table(table, r, q, w, coef) > value(s, r, q, w, coef) + 1e-9


@compiled
def first_of_two(values):
    """0 if the first of two trials' values is the better, else 1."""
    return 0 if values[0] > values[1] else 1


# --- power cards --------------------------------------------------------------------------------

@compiled
def power_cards_left(s, p):
    """(the mean value, the highest value) of the power cards ``p`` has not played."""
    left = 0.0
    n_left = 0
    highest = 0
    for v in range(1, N_POWER + 1):
        if s.power_used[p, v] == 0:
            left += v
            n_left += 1
            highest = v
    return left / max(1, n_left), highest


@compiled
def choose_power(s, r, p, plans, rng, allowed):
    """(value, its index among the allowed) of the power card to play."""
    k = 0
    for v in range(1, N_POWER + 1):
        k += allowed[v]
    searches = plans[0][p] == LOOKAHEAD and plans[1][p][W_SEARCH_POWER] > 0
    if searches or values_cards(plans, p):
        options = np.zeros((N_POWER, 1), dtype=np.int64)
        i = 0
        for v in range(1, N_POWER + 1):
            if allowed[v]:
                options[i, 0] = v
                i += 1
        if searches:
            i = searched(L.DECIDE_POWER, s, r, p, plans, rng, options, k)
        else:
            i = expert_choice(L.DECIDE_POWER, s, r, p, plans, options, k)
        return options[i, 0], i
    sid = acting(plans, p)
    if sid == RANDOM:
        pick = below(rng, k)
        i = 0
        for v in range(1, N_POWER + 1):
            if allowed[v]:
                if i == pick:
                    return v, i
                i += 1
    w = plans[1][p]
    mean = power_cards_left(s, p)[0]
    best = -1e18
    pick_v = -1
    pick_i = 0
    ties = 0
    i = -1
    for v in range(1, N_POWER + 1):
        if not allowed[v]:
            continue
        i += 1
        gain = min(s.power_caballeros[v], s.provinces[p])
        x = w[W_POWER_ORDER] * v / N_POWER + w[W_POWER_COURT] * gain \
            - w[W_POWER_SAVE] * (v - mean) / N_POWER + jitter(w[W_NOISE], rng)
        replace, ties = better(x, best, ties, rng)
        if replace:
            best, pick_v, pick_i = x, v, i
    return pick_v, pick_i


# --- the action card ----------------------------------------------------------------------------

@compiled
def worth_trying(card, order):
    """Whether a heuristic player tries ``card`` in ``order`` (a saving of time, not a rule):
    the placement first only where it can change what the action does (moves, the King,
    scorings, returns of one's own, more Caballeros to the court); declining only an action that
    can cost its own player (the scorings and secret picks everyone joins, the King's moves)."""
    stack = CARD_STACK[card]
    if order == L.ACTION_FIRST:
        return True
    if order == L.PLACEMENT_FIRST:
        return stack == 1 or stack == 3 or card == KING or card == KING_TO_NEIGHBOUR or \
            card == SCORE_CHOSEN_REGION or card == SECRET_UNIQUE_REGIONS or \
            card == SECRET_RETURN_2 or card == SECRET_RETURN_ALL or card == MOVE_GRANDE or \
            card == MOBILE_SCOREBOARD
    return (stack == 3 and card != SCORE_ANY_REGION) or card == SECRET_RETURN_2 or \
        card == SECRET_RETURN_ALL or card == SECRET_UNIQUE_REGIONS or card == KING or \
        card == KING_TO_NEIGHBOUR


@compiled
def searches_cards(plans, p):
    """Whether ``p`` is the search player, who searches its action card (``searched_card``)."""
    return plans[0][p] == LOOKAHEAD


@compiled
def values_cards(plans, p):
    """Whether ``p`` is the learnt expert or a quick player, who value their power card
    (``choose_power``) and action card (``valued_card``) by weights over their features (the
    expert's own, the quick players' the first expert's), playing neither on past the turn."""
    return plans[0][p] == EXPERT or plans[0][p] >= QUICK_GREEDY  # the quick ids come last


@compiled
def valued_card(s, r, p, plans, trials):
    """(stack, face-up cards, the card's row among them, the order to carry it out in) of the
    card the expert's weights value most, ``trials`` the cards' trials (``turn.card_choice``;
    all 0 for a quick player); the order the expert's best in its trial, a quick player's
    ``quick_order``. A quick player counts its liking for a card's stack as that many more
    points of placement."""
    cards = np.zeros((N_STACKS, 2), dtype=np.int64)
    n = 0
    for stack in range(N_STACKS):
        if s.face[stack] >= 0:
            cards[n, 0] = stack
            n += 1
    f = option_features(L.DECIDE_CARD, s, r, p, cards, n, trials)
    w = plans[1][p]
    quick = plans[0][p] != EXPERT
    if quick:
        for o in range(n):
            f[o, F_PLACE_POINTS] += w[W_STACK_1 + CARD_STACK[s.face[cards[o, 0]]] - 1]
    o = valued_choice(f, n, w, W_FIRST_VALUE)
    card = s.face[cards[o, 0]]
    return cards[o, 0], n, o, quick_order(card, f[o]) if quick else int(trials[cards[o, 0], 1])


# The order a quick player carries each action card out in: the one spoiler (the search's rollout
# policy, whose orders the search's choices carry) chose most often for it, in 2,520 choices of 40
# spoiler games at two and at five players (seed 7); the expansion's cards, the action first. The
# King's card is the exception: spoiler moved the King first 363 times, placed first 269, but
# quick_spoiler placing first won 35% of 400 two-player games against spoiler, moving first 21%.
PLACEMENT_FIRST_CARDS = (
    "move_any_out_of_one_region", "move_any_4", "move_own_4", "move_own_2_opponents_2",
    "move_any_3", "place_2_anywhere", "all_out_or_place_2", "score_chosen_region",
    "score_5_point_regions", "score_4_point_regions", "score_castillo", "score_6_7_point_regions",
    "score_any_region", "score_first_places", "score_most_caballeros", "score_fewest_caballeros",
    "mobile_scoreboard", "move_grande", "king_to_neighbour", "secret_unique_regions", "king",
)
QUICK_ORDER = np.array([L.PLACEMENT_FIRST if key in PLACEMENT_FIRST_CARDS else L.ACTION_FIRST
                        for key in CARD_KEYS], dtype=np.int64)


@compiled
def quick_order(card, features):
    """A quick player's order for ``card`` (its row of ``option_features``): ``QUICK_ORDER``'s,
    but a scoring card declined when it trails in what the board would score now, if it is one
    the heuristics try declining (``worth_trying``)."""
    lead = features[F_SCORING_LEAD] + features[F_CASTILLO_LEAD]
    if lead < 0 and worth_trying(card, L.NO_ACTION):
        return L.NO_ACTION
    return QUICK_ORDER[card]


@compiled(inline="always")  # compiled into its caller, turn.choose_card
def searched_card(s, r, p, plans, rng):
    """``turn.choose_card`` for the search player: (stack, order, options, chosen) of the card
    its rollouts find best, each card carried out in its rollout policy's order."""
    cards = np.zeros((N_STACKS, 2), dtype=np.int64)  # (stack, order): the search orders
    n = 0
    for stack in range(N_STACKS):
        if s.face[stack] >= 0:
            cards[n, 0] = stack
            n += 1
    o = searched(L.DECIDE_CARD, s, r, p, plans, rng, cards, n)
    return cards[o, 0], cards[o, 1], 3 * n, 3 * o + cards[o, 1]


@compiled
def random_card(s, rng, only, options):
    """The random player's action card: (stack, order, options, chosen), uniform over the
    ``options`` (each face-up card in each order; only stack ``only``'s, if not -1)."""
    if only >= 0:
        return only, below(rng, 3), options, 0
    pick = below(rng, options)
    i = 0
    for stack in range(N_STACKS):
        if s.face[stack] >= 0:
            if i == pick // 3:
                return stack, pick % 3, options, pick
            i += 1
    return -1, 0, options, pick  # (never: pick < options)


# --- placements and moves -----------------------------------------------------------------

@compiled
def choose_placement(s, r, p, plans, rng, memo):
    """The next place a Caballero goes from the court (a region bordering the King's or the
    Castillo), or -1 to keep the rest in the court. ``memo``: the standings kept from the
    card's earlier placements (``new_memo``)."""
    sid = acting(plans, p)
    if sid == RANDOM:
        targets = np.zeros(N_PLACES, dtype=np.bool_)
        for g in range(N_PLACES):
            targets[g] = placement_target(s, g)
        return flagged(rng, targets, N_PLACES, 1)
    w = plans[1][p]
    m = memo[0]
    coef, pts = m.coef, m.pts
    fill_coefficients(s, p, w, coef)
    best = 1e-9
    pick = -1
    ties = 0
    for g in range(N_PLACES):
        if not placement_target(s, g):
            continue
        gain = w[W_STANDING] * (remembered(m, s, r, p, g, 1, coef, pts) -
                                remembered(m, s, r, p, g, 0, coef, pts))
        gain += (w[W_CASTILLO] if g == CASTILLO else 0.0) - w[W_COURT] + jitter(w[W_NOISE], rng)
        replace, ties = better(gain, best, ties, rng)
        if replace:
            best, pick = gain, g
    return pick


@compiled(inline="always")  # called in every valuation: no call overhead
def movable(s, r, p, q, a, own_left, opp_left, source):
    if s.cab[q, a] == 0 or not may_move_through(s, r, a) or (source >= 0 and a != source):
        return False
    return own_left > 0 if q == p or q == BLACK else opp_left > 0


@compiled(inline="always")
def mover_colour(s, p, i):
    """The ``i``-th colour ``p`` may move with an intrigue move (``i`` < n_players + 1): the
    players', then the black Caballeros, which only the Grand Inquisitor's holder moves, as its
    own (-1: not ``p``'s to move)."""
    if i < s.n_players:
        return i
    return BLACK if s.inquisitor == p else -1


@compiled(inline="always")
def first_mover(s, only_black):
    """The first ``i`` of ``mover_colour`` a move may take: the black Caballeros alone (Holy
    Inquisition's moves), or every colour."""
    return s.n_players if only_black else 0


@compiled
def nth_move(s, r, p, own_left, opp_left, source, only_black, pick):
    """(owner, from, to, count): the ``pick``-th of the moves between places ``choose_move``
    may choose from, in its order, and how many there are ((-1, -1, -1, count) when there is
    no ``pick``-th, as for -1)."""
    k = 0
    for i in range(first_mover(s, only_black), s.n_players + 1):
        q = mover_colour(s, p, i)
        if q < 0:
            continue
        for a in range(N_PLACES):
            if movable(s, r, p, q, a, own_left, opp_left, source):
                for b in range(N_PLACES):
                    if b != a and may_enter(s, r, b):
                        if k == pick:
                            return q, a, b, k
                        k += 1
    return -1, -1, -1, k


@compiled
def choose_move(s, r, p, plans, rng, own_left, opp_left, source, only_black, memo):
    """The next intrigue move (owner, from, to), or (-1, -1, -1) to stop: each move valued by the
    two places it changes. The Grand Inquisitor's holder moves black Caballeros too, as its
    own (``only_black``: those alone, Holy Inquisition's moves). ``memo``: the standings kept
    from the card's earlier moves (``new_memo``)."""
    n = s.n_players
    sid = acting(plans, p)
    if sid == RANDOM:
        count = nth_move(s, r, p, own_left, opp_left, source, only_black, -1)[3]
        q, a, b, _ = nth_move(s, r, p, own_left, opp_left, source, only_black,
                              below(rng, count + 1))
        return q, a, b
    w = plans[1][p]
    m = memo[0]
    coef, pts, now, out, into = m.coef, m.pts, m.now, m.out, m.into
    fill_coefficients(s, p, w, coef)
    for g in range(N_PLACES):
        now[g] = remembered(m, s, r, 0, g, 0, coef, pts)
    best = 1e-9
    pick_q, pick_a, pick_b = -1, -1, -1
    ties = 0
    for i in range(first_mover(s, only_black), n + 1):
        q = mover_colour(s, p, i)
        if q < 0:
            continue
        any_a = False
        for a in range(N_PLACES):
            out[a] = -1e18
            if movable(s, r, p, q, a, own_left, opp_left, source):
                out[a] = w[W_STANDING] * (remembered(m, s, r, q, a, -1, coef, pts) - now[a])
                if q == p and a == CASTILLO:
                    out[a] -= w[W_CASTILLO]
                any_a = True
        if not any_a:
            continue
        for b in range(N_PLACES):
            into[b] = -1e18
            if may_enter(s, r, b):
                into[b] = w[W_STANDING] * (remembered(m, s, r, q, b, 1, coef, pts) - now[b])
                if q == p and b == CASTILLO:
                    into[b] += w[W_CASTILLO]
        for a in range(N_PLACES):
            if out[a] < -1e17:
                continue
            for b in range(N_PLACES):
                if b == a or into[b] < -1e17:
                    continue
                gain = out[a] + into[b] + jitter(w[W_NOISE], rng)
                replace, ties = better(gain, best, ties, rng)
                if replace:
                    best, pick_q, pick_a, pick_b = gain, q, a, b
    return pick_q, pick_a, pick_b


@compiled
def choose_take_back(s, r, p, plans, rng, usable):
    """The power card taken back: the highest (random: any)."""
    if acting(plans, p) == RANDOM:
        return flagged(rng, usable, N_POWER + 1, 0)
    for v in range(N_POWER, 0, -1):
        if usable[v]:
            return v
    return -1


# --- the expansion "Grossinquisitor und Kolonien" -----------------------------------------------
# Its values and choices, kept apart from the base game's: the tokens carried and the voyages
# under way, the Grand Inquisitor held; the places the expansion's rules ask for (the setup's
# secret region, a free move, where the limit table goes), his black Caballeros' moves, which
# colour fills a limit-table space, Execute Action Card and Copycat.

@compiled
def expansion_value(s, p, w):
    """What the table's expansion holds for ``p`` beyond the standings: each token its
    Caballeros (and black ones, for the Grand Inquisitor's holder) carry, by ``cargo`` times
    its points, half as much in a colony as on the Ship (one free move from home); each of its
    Caballeros on the Ship or in a colony holding none, by ``voyage``; the Grand Inquisitor
    card, by ``inquisitor``."""
    v = 0.0
    for c in (p, BLACK):
        if c == BLACK and s.inquisitor != p:
            continue
        for g in (SHIP, AMERICA, AFRICA):
            ware, gold = s.carry[c, g, WARE], s.carry[c, g, GOLD]
            near = 1.0 if g == SHIP else 0.5
            v += near * w[W_CARGO] * (ware * s.token_points[WARE] + gold * s.token_points[GOLD])
            if c == p:
                v += w[W_VOYAGE] * (s.cab[p, g] - ware - gold)
    if s.inquisitor == p:
        v += w[W_INQUISITOR]
    return v


@compiled
def expansion_term_with(s, r, q, g, change, coef, pts):
    """``term_with`` where Caballeros take spaces and the limit table: one more (or fewer) of
    colour ``q`` in ``g`` as the rules would place (or take) it, on a copy."""
    table = copy_of(s)
    x = table[0]
    if change > 0:
        stand(x, q, g, -1)
    else:
        depart(x, q, g, L.COURT)
    return term_of_table(table, r, g, coef, pts)


@compiled
def move_gain(s, r, p, w, coef, pts, q, a, b):
    """What moving one of colour ``q``'s Caballeros from ``a`` to ``b`` is worth to ``p``: the
    two places it changes, valued on a copy; an own one's Castillo worth."""
    before = place_term(s, r, a, coef, pts) + place_term(s, r, b, coef, pts)
    table = copy_of(s)
    x = table[0]
    stand(x, q, b, depart(x, q, a, b))  # as the rules' move seats it (all the standings read)
    gain = w[W_STANDING] * (term_of_table(table, r, a, coef, pts) +
                            term_of_table(table, r, b, coef, pts) - before)
    if q == p and (a == CASTILLO or b == CASTILLO):
        gain += w[W_CASTILLO] if b == CASTILLO else -w[W_CASTILLO]
    return gain


@compiled
def table_move_open(s, r, p, q, onto, own_left, opp_left):
    """Whether ``p``'s card may move one of colour ``q``'s Caballeros onto the limit table from
    beside it (``onto``) or off it, within its region (rules.toml, expansion_table_moves): a
    colour and a count the card allows, as for a move."""
    g = s.table_region
    if not movable(s, r, p, q, g, own_left, opp_left, -1):
        return False
    if onto == 1:
        return table_load(s) < s.table_size and \
            s.cab[q, g] - s.on_table[q] - holds_space(s, q, g) > 0
    return s.on_table[q] > 0


@compiled
def choose_movement(s, r, p, plans, rng, own_left, opp_left, moves_left, only_black, memo):
    """The next movement of an intrigue move where the limit table's Caballeros may move within
    its region (``turn.intrigue``; ``moves_left`` of the card's movements left): (q, a, b, -1),
    ``choose_move``'s move; (q, g, g, 1) one of colour ``q`` beside the table in ``g`` put onto
    a free space, (q, g, g, 0) one taken off it; (-1, -1, -1, -1) to stop. The random player
    draws uniformly over every legal movement and stopping; the others take a movement on or
    off the table only when it gains more than the move ``choose_move`` would make (or than
    stopping), valued by the table's region once its free spaces are filled after the turn
    (``table_term_filled``), one taken off with the best one put on in its place (a swap) when
    a movement is left for it. ``only_black``, ``memo``: as for ``choose_move``."""
    g = s.table_region
    first = first_mover(s, only_black)
    shifts = 0
    for i in range(first, s.n_players + 1):
        q = mover_colour(s, p, i)
        if q >= 0:
            for onto in range(2):
                shifts += 1 if table_move_open(s, r, p, q, onto, own_left, opp_left) else 0
    if shifts > 0 and acting(plans, p) == RANDOM:
        moves = nth_move(s, r, p, own_left, opp_left, -1, only_black, -1)[3]
        pick = below(rng, shifts + moves + 1)
        for i in range(first, s.n_players + 1):
            q = mover_colour(s, p, i)
            if q >= 0:
                for onto in range(2):
                    if table_move_open(s, r, p, q, onto, own_left, opp_left):
                        if pick == 0:
                            return q, g, g, onto
                        pick -= 1
        # not a table movement: choose_move's own uniform draw over the moves and stopping
    q, a, b = choose_move(s, r, p, plans, rng, own_left, opp_left, -1, only_black, memo)
    if shifts == 0 or acting(plans, p) == RANDOM:
        return q, a, b, -1
    w = plans[1][p]
    m = memo[0]
    coef, pts = m.coef, m.pts
    fill_coefficients(s, p, w, coef)
    best = move_gain(s, r, p, w, coef, pts, q, a, b) if q >= 0 else 1e-9
    now = table_term_filled(s, r, p, w, coef, pts)
    pick_q, pick_onto = -1, -1
    for i in range(first, s.n_players + 1):
        c = mover_colour(s, p, i)
        if c < 0:
            continue
        for onto in range(2):
            if not table_move_open(s, r, p, c, onto, own_left, opp_left):
                continue
            step = 1 if onto == 1 else -1
            s.on_table[c] += step
            after = table_term_filled(s, r, p, w, coef, pts)
            if onto == 0 and moves_left > 1:  # the swap: another put on in its place
                own2 = own_left - (1 if c == p or c == BLACK else 0)
                opp2 = opp_left - (0 if c == p or c == BLACK else 1)
                for j in range(first, s.n_players + 1):
                    d = mover_colour(s, p, j)
                    if d >= 0 and table_move_open(s, r, p, d, 1, own2, opp2):
                        s.on_table[d] += 1
                        after = max(after, table_term_filled(s, r, p, w, coef, pts))
                        s.on_table[d] -= 1
            s.on_table[c] -= step
            gain = w[W_STANDING] * (after - now) + jitter(w[W_NOISE], rng)
            if gain > best + 1e-9:
                best, pick_q, pick_onto = gain, c, onto
    if pick_q >= 0:
        return pick_q, g, g, pick_onto
    return q, a, b, -1


@compiled
def table_term_filled(s, r, p, w, coef, pts):
    """``place_term`` of the limit table's region for ``p`` once its free spaces are filled
    after the turn (``expansion.fill_table``) by the filler, each space by the colour beside it
    that ``choose_table_colour`` would pick in the filler's place with ``p``'s weights (a
    player's model of another: itself); of colours equally good to the filler, its own, else
    the worst for ``p``. ``s`` is left as it was."""
    g = s.table_region
    filler = table_filler(s, p)
    fcoef = coefficients(s, filler, w)
    added = np.zeros(N_COLOURS, dtype=np.int64)
    while table_load(s) < s.table_size:
        best = -1e18
        worst_for_p = 1e18
        pick = -1
        for c in range(N_COLOURS):
            if s.cab[c, g] - s.on_table[c] - holds_space(s, c, g) > 0:
                s.on_table[c] += 1
                v = place_term(s, r, g, fcoef, pts)
                mine = place_term(s, r, g, coef, pts)
                s.on_table[c] -= 1
                if v > best + 1e-9 or (v > best - 1e-9 and pick != filler and (
                        c == filler or mine < worst_for_p)):
                    best, worst_for_p, pick = v, mine, c
        if pick < 0:
            break
        s.on_table[pick] += 1
        added[pick] += 1
    t = place_term(s, r, g, coef, pts)
    for c in range(N_COLOURS):
        s.on_table[c] -= added[c]
    return t


@compiled
def placement_gain(s, r, p, w, coef, pts, g):
    """What one more of ``p``'s Caballeros placed from the court into ``g`` is worth to it
    (``choose_placement``'s valuation)."""
    gain = w[W_STANDING] * (term_with(s, r, p, g, 1, coef, pts) - place_term(s, r, g, coef, pts))
    return gain + (w[W_CASTILLO] if g == CASTILLO else 0.0) - w[W_COURT]


@compiled
def choose_inquisitor_extra(s, r, p, plans, rng, n, allowed):
    """The Grand Inquisitor's extra Caballero: the region (``allowed[:N_PLACES]``) its holder
    ``p`` places one more in, ``L.COURT`` to take one more from the provinces into the court
    (``allowed[L.COURT]``), or -1 for neither. A player places the extra one when its court
    holds more than the card's ``n`` (else it would only be one of the ``n``) and the best
    allowed region is worth it; else it takes one to the court, worth a court Caballero and,
    when the court holds fewer than ``n``, one more placement."""
    if acting(plans, p) == RANDOM:
        return flagged(rng, allowed, N_PLACES + 1, 1)
    w = plans[1][p]
    coef = coefficients(s, p, w)
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    best = 1e-9
    pick = -1
    ties = 0
    if s.court[p] > n:  # else the extra one would only be one of the card's
        for g in range(N_PLACES):
            if allowed[g]:
                v = placement_gain(s, r, p, w, coef, pts, g) + jitter(w[W_NOISE], rng)
                replace, ties = better(v, best, ties, rng)
                if replace:
                    best, pick = v, g
    if allowed[L.COURT]:
        v = w[W_COURT]  # one more kept in the court
        if s.court[p] < n:  # or, the card's placements running short, one more placed
            for g in range(N_PLACES):
                if placement_target(s, g):
                    v = max(v, placement_gain(s, r, p, w, coef, pts, g) + w[W_COURT])
        v += jitter(w[W_NOISE], rng)
        replace, ties = better(v, best, ties, rng)
        if replace:
            best, pick = v, L.COURT
    return pick


@compiled
def choose_table_colour(s, r, p, plans, rng, beside):
    """Which colour beside the limit table (``beside[c] > 0``) ``p`` puts on a free space: the
    one whose counting leaves the region worth most to ``p``."""
    if acting(plans, p) == RANDOM:
        return flagged(rng, beside > 0, N_COLOURS, 0)
    w = plans[1][p]
    coef = coefficients(s, p, w)
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    best = -1e18
    pick_c = -1
    ties = 0
    for c in range(N_COLOURS):
        if beside[c] == 0:
            continue
        s.on_table[c] += 1
        v = place_term(s, r, s.table_region, coef, pts) + jitter(w[W_NOISE], rng)
        s.on_table[c] -= 1
        replace, ties = better(v, best, ties, rng)
        if replace:
            best, pick_c = v, c
    return pick_c


# --- the expert's view of an option -------------------------------------------------------------

@compiled
def descending(values, k):
    """``values[:k]`` sorted highest first, in place (an insertion sort: a handful of values,
    no array made)."""
    for i in range(1, k):
        v = values[i]
        j = i
        while j > 0 and values[j - 1] < v:
            values[j] = values[j - 1]
            j -= 1
        values[j] = v
    return values[:k]


@compiled
def beating_shares(s, q):
    """For each value ``v``, the share of the power cards ``q`` has left (and may play: none
    played this round) that are higher than ``v``."""
    may_play = np.zeros(N_POWER + 1, dtype=np.int64)
    for u in range(1, N_POWER + 1):
        may_play[u] = 1 - s.power_used[q, u]
    for x in range(s.n_players):
        may_play[s.power_played[x]] = 0  # (0: none played yet; never a card)
    left = may_play.sum()
    shares = np.zeros(N_POWER + 1, dtype=np.float64)
    higher = 0
    for v in range(N_POWER, 0, -1):
        shares[v] = higher / max(1, left)
        higher += may_play[v]
    return shares


@compiled
def option_features(decision, s, r, p, options, n, trials):
    """One row of ``FEATURE_NAMES`` per option of ``options[:n]`` (the power cards' values, or
    the face-up cards' stacks, ``trials`` their trials: ``turn.card_choice``)."""
    f = np.zeros((n, N_FEATURES), dtype=np.float64)
    if decision == L.DECIDE_POWER:
        mean, highest = power_cards_left(s, p)
        rivals = max(1, s.n_players - 1)
        beaten_later = np.zeros(N_POWER + 1, dtype=np.float64)
        for q in range(s.n_players):
            if q != p and s.power_played[q] == 0:
                beaten_later += beating_shares(s, q) / rivals
        for o in range(n):
            v = options[o, 0]
            f[o, F_POWER_ORDER] = v / N_POWER
            f[o, F_POWER_COURT] = min(s.power_caballeros[v], s.provinces[p])
            f[o, F_POWER_SAVE] = (v - mean) / N_POWER
            for q in range(s.n_players):
                played = s.power_played[q]
                if q != p and played > 0:
                    if played < v:
                        f[o, F_POWER_BEATS] += 1.0 / rivals
                    elif played > v:
                        f[o, F_POWER_BEATEN] += 1.0 / rivals
            f[o, F_POWER_BEATEN_LATER] = beaten_later[v]
            f[o, F_POWER_HIGHEST] = 1.0 if v == highest else 0.0
        return f
    # the action card: the placements' points, each place valued alone (own less the rivals'
    # mean), best first; the lead in every place and in the Castillo, were they scored now
    coef = np.full(MAX_PLAYERS, -1.0 / max(1, s.n_players - 1), dtype=np.float64)
    coef[p] = 1.0
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    gains = np.zeros(N_PLACES, dtype=np.float64)
    k = 0
    lead = 0.0
    castillo = 0.0
    for g in range(N_PLACES):
        if not in_play(s, g):
            continue
        now = place_term(s, r, g, coef, pts)
        lead += now
        if g == CASTILLO:
            castillo = now
        if placement_target(s, g):
            gains[k] = term_with(s, r, p, g, 1, coef, pts) - now
            k += 1
    ranked = descending(gains, k)
    best_trial = -1e18
    for o in range(n):
        best_trial = max(best_trial, trials[options[o, 0], 0])
    for o in range(n):
        stack = options[o, 0]
        card = s.face[stack]
        f[o, F_CARD_TRIAL] = trials[stack, 0] - best_trial
        places = min(s.card_caballeros[card], s.court[p])
        f[o, F_CARD_PLACES] = places
        for i in range(min(places, k)):  # one place's gain for each Caballero, at most once each
            if ranked[i] > 0:
                f[o, F_PLACE_POINTS] += ranked[i]
        f[o, F_STACK_1 + CARD_STACK[card] - 1] = 1.0
        f[o, F_KING_CARD] = 1.0 if card == KING or card == KING_TO_NEIGHBOUR else 0.0
        if SCORE_CHOSEN_REGION <= card <= SCORE_FEWEST_CABALLEROS or card == MOBILE_SCOREBOARD \
                or card == SCORE_OUTSIDE_SPAIN or card == SCORE_BLACK_REGIONS:
            f[o, F_SCORING_LEAD] = lead
        f[o, F_CASTILLO_LEAD] = castillo if card == SCORE_CASTILLO else 0.0
        f[o, F_RETURNS] = 1.0 if card == SECRET_RETURN_2 or card == SECRET_RETURN_ALL or \
            card == ALL_OUT_OF_ONE_REGION or card == ALL_OUT_OR_PLACE_2 or \
            card == OPPONENTS_COURT_HOME else 0.0
    return f
