"""El Grande: what the rules do to the table, with no decision in it.

Every change of the board goes through these functions, so each is logged once and counted for
the dataset the same way whoever calls it: the rules (``turn.py``, ``expansion.py``) with the
game's log, and the rules' trials of an option on a copy of the table (``trials.py``, ``turn.py``)
with no log, to show a player what the option would leave. Where a Caballero stands as it comes
and goes (``depart``, ``stand``), the players ask too: that is ``board.py``'s.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.trace import came_up, record
from simulator.games.elgrande import codes as L
from simulator.games.elgrande.board import (
    AFRICA, ALL_OUT_OF_ONE_REGION, ALL_OUT_OR_PLACE_2, AMERICA, BLACK, CASTILLO, COPYCAT,
    EXECUTE_ACTION_CARD, FRANCIA, FREE_CHOICE, FROM_CASTILLO, FROM_GRANDE,
    FROM_KING, FROM_REGIONS, FROM_SPECIAL, FROM_TOKENS, GENERAL, GOLD, HOLY_INQUISITION,
    KING_TO_NEIGHBOUR, LIMIT_TABLE, MAX_PLAYERS, MOBILE_SCOREBOARD, MOVE_ANY_3, MOVE_ANY_4,
    MOVE_ANY_OUT_OF_ONE_REGION, MOVE_GRANDE, MOVE_OPPONENTS_3, MOVE_OWN_2_OPPONENTS_2, MOVE_OWN_4,
    N_CARD_KINDS, N_SPAIN, NO, OPPONENTS_ANY_3, OPPONENTS_COURT_3, OPPONENTS_COURT_HOME,
    OPPONENTS_DISPERSE, OPPONENTS_ONE_EACH, PLACE_2_ANYWHERE, PROVINCES_TO_COURT_2,
    SCORE_4_POINT_REGIONS, SCORE_5_POINT_REGIONS, SCORE_6_7_POINT_REGIONS, SCORE_ANY_REGION,
    SCORE_BLACK_REGIONS, SCORE_CASTILLO, SCORE_CHOSEN_REGION, SCORE_FEWEST_CABALLEROS,
    SCORE_FIRST_PLACES, SCORE_MOST_CABALLEROS, SCORE_OUTSIDE_SPAIN, SECRET_RETURN_2,
    SECRET_RETURN_ALL, SECRET_UNIQUE_REGIONS, SHIP, TAKE_BACK_POWER_CARD, TRANSPORT, VETO, WARE,
    bonus_parts, counted, depart, owner, placings, scoreboard, scoring_index, seat_bonus,
    sole_most, stand, standings,
)
from simulator.games.elgrande.board import copy_of, table_load  # noqa: F401  (E.copy_of, ...)


# --- the rules that came up --------------------------------------------------------------------

# The rule (its index in codes.RULES_THAT_COME_UP; -1: none counted) each number of the game's
# tables comes from, for ``came_up`` where that number is read.
POINTS_RULES = np.array((  # [place, first / second / third]
    (L.UP_ARAGON_POINTS_1, L.UP_ARAGON_POINTS_2, L.UP_ARAGON_POINTS_3),
    (L.UP_CASTILLA_LA_NUEVA_POINTS_1, L.UP_CASTILLA_LA_NUEVA_POINTS_2,
     L.UP_CASTILLA_LA_NUEVA_POINTS_3),
    (L.UP_CASTILLA_LA_VIEJA_POINTS_1, L.UP_CASTILLA_LA_VIEJA_POINTS_2,
     L.UP_CASTILLA_LA_VIEJA_POINTS_3),
    (L.UP_CATALUNA_POINTS_1, L.UP_CATALUNA_POINTS_2, L.UP_CATALUNA_POINTS_3),
    (L.UP_GALICIA_POINTS_1, L.UP_GALICIA_POINTS_2, L.UP_GALICIA_POINTS_3),
    (L.UP_GRANADA_POINTS_1, L.UP_GRANADA_POINTS_2, L.UP_GRANADA_POINTS_3),
    (L.UP_PAIS_VASCO_POINTS_1, L.UP_PAIS_VASCO_POINTS_2, L.UP_PAIS_VASCO_POINTS_3),
    (L.UP_SEVILLA_POINTS_1, L.UP_SEVILLA_POINTS_2, L.UP_SEVILLA_POINTS_3),
    (L.UP_VALENCIA_POINTS_1, L.UP_VALENCIA_POINTS_2, L.UP_VALENCIA_POINTS_3),
    (L.UP_FRANCIA_POINTS_1, L.UP_FRANCIA_POINTS_2, L.UP_FRANCIA_POINTS_3),
    (L.UP_SHIP_POINTS_1, L.UP_SHIP_POINTS_2, L.UP_SHIP_POINTS_3),
    (L.UP_AMERICA_POINTS_1, L.UP_AMERICA_POINTS_2, L.UP_AMERICA_POINTS_3),
    (L.UP_AFRICA_POINTS_1, L.UP_AFRICA_POINTS_2, L.UP_AFRICA_POINTS_3),
    (L.UP_CASTILLO_POINTS_1, L.UP_CASTILLO_POINTS_2, L.UP_CASTILLO_POINTS_3),
), dtype=np.int64)
MOBILE_POINTS_RULES = np.array((
    (L.UP_MOBILE_1_POINTS_1, L.UP_MOBILE_1_POINTS_2, L.UP_MOBILE_1_POINTS_3),
    (L.UP_MOBILE_2_POINTS_1, L.UP_MOBILE_2_POINTS_2, L.UP_MOBILE_2_POINTS_3),
), dtype=np.int64)
POWER_RULES = np.array((  # [power card value]
    -1, L.UP_POWER_1_CABALLEROS, L.UP_POWER_2_CABALLEROS, L.UP_POWER_3_CABALLEROS,
    L.UP_POWER_4_CABALLEROS, L.UP_POWER_5_CABALLEROS, L.UP_POWER_6_CABALLEROS,
    L.UP_POWER_7_CABALLEROS, L.UP_POWER_8_CABALLEROS, L.UP_POWER_9_CABALLEROS,
    L.UP_POWER_10_CABALLEROS, L.UP_POWER_11_CABALLEROS, L.UP_POWER_12_CABALLEROS,
    L.UP_POWER_13_CABALLEROS,
), dtype=np.int64)


def card_rules(rules):
    """A table [card] of the rules in ``rules`` ({card: rule}), -1 for the other cards."""
    table = np.full(N_CARD_KINDS, -1, dtype=np.int64)
    for card, rule in rules.items():
        table[card] = rule
    return table


CARD_COUNT_RULES = card_rules({  # its count in the stacks
    MOVE_ANY_OUT_OF_ONE_REGION: L.UP_MOVE_ANY_OUT_OF_ONE_REGION_CARDS,
    MOVE_ANY_4: L.UP_MOVE_ANY_4_CARDS, MOVE_OWN_4: L.UP_MOVE_OWN_4_CARDS,
    MOVE_OWN_2_OPPONENTS_2: L.UP_MOVE_OWN_2_OPPONENTS_2_CARDS,
    MOVE_OPPONENTS_3: L.UP_MOVE_OPPONENTS_3_CARDS, MOVE_ANY_3: L.UP_MOVE_ANY_3_CARDS,
    PLACE_2_ANYWHERE: L.UP_PLACE_2_ANYWHERE_CARDS,
    ALL_OUT_OR_PLACE_2: L.UP_ALL_OUT_OR_PLACE_2_CARDS,
    ALL_OUT_OF_ONE_REGION: L.UP_ALL_OUT_OF_ONE_REGION_CARDS, VETO: L.UP_VETO_CARDS,
    OPPONENTS_COURT_HOME: L.UP_OPPONENTS_COURT_HOME_CARDS,
    OPPONENTS_COURT_3: L.UP_OPPONENTS_COURT_3_CARDS, OPPONENTS_ANY_3: L.UP_OPPONENTS_ANY_3_CARDS,
    OPPONENTS_ONE_EACH: L.UP_OPPONENTS_ONE_EACH_CARDS, SECRET_RETURN_2: L.UP_SECRET_RETURN_2_CARDS,
    SECRET_RETURN_ALL: L.UP_SECRET_RETURN_ALL_CARDS,
    SCORE_CHOSEN_REGION: L.UP_SCORE_CHOSEN_REGION_CARDS,
    SCORE_5_POINT_REGIONS: L.UP_SCORE_5_POINT_REGIONS_CARDS,
    SCORE_4_POINT_REGIONS: L.UP_SCORE_4_POINT_REGIONS_CARDS,
    SCORE_CASTILLO: L.UP_SCORE_CASTILLO_CARDS,
    SCORE_6_7_POINT_REGIONS: L.UP_SCORE_6_7_POINT_REGIONS_CARDS,
    SCORE_ANY_REGION: L.UP_SCORE_ANY_REGION_CARDS,
    SCORE_FIRST_PLACES: L.UP_SCORE_FIRST_PLACES_CARDS,
    SCORE_MOST_CABALLEROS: L.UP_SCORE_MOST_CABALLEROS_CARDS,
    SCORE_FEWEST_CABALLEROS: L.UP_SCORE_FEWEST_CABALLEROS_CARDS,
    MOBILE_SCOREBOARD: L.UP_MOBILE_SCOREBOARD_CARDS, MOVE_GRANDE: L.UP_MOVE_GRANDE_CARDS,
    TAKE_BACK_POWER_CARD: L.UP_TAKE_BACK_POWER_CARD_CARDS,
    KING_TO_NEIGHBOUR: L.UP_KING_TO_NEIGHBOUR_CARDS,
    OPPONENTS_DISPERSE: L.UP_OPPONENTS_DISPERSE_CARDS,
    PROVINCES_TO_COURT_2: L.UP_PROVINCES_TO_COURT_2_CARDS,
    SECRET_UNIQUE_REGIONS: L.UP_SECRET_UNIQUE_REGIONS_CARDS,
    EXECUTE_ACTION_CARD: L.UP_EXECUTE_ACTION_CARD_CARDS, COPYCAT: L.UP_COPYCAT_CARDS,
    FREE_CHOICE: L.UP_FREE_CHOICE_CARDS, SCORE_OUTSIDE_SPAIN: L.UP_SCORE_OUTSIDE_SPAIN_CARDS,
    SCORE_BLACK_REGIONS: L.UP_SCORE_BLACK_REGIONS_CARDS, TRANSPORT: L.UP_TRANSPORT_CARDS,
    LIMIT_TABLE: L.UP_LIMIT_TABLE_CARDS,
})
CARD_NUMBER_RULES = card_rules({  # the number printed on it
    MOVE_ANY_OUT_OF_ONE_REGION: L.UP_MOVE_ANY_OUT_OF_ONE_REGION_NUMBER,
    MOVE_ANY_4: L.UP_MOVE_ANY_4_NUMBER, MOVE_OWN_4: L.UP_MOVE_OWN_4_NUMBER,
    MOVE_OWN_2_OPPONENTS_2: L.UP_MOVE_OWN_2_OPPONENTS_2_NUMBER,
    MOVE_OPPONENTS_3: L.UP_MOVE_OPPONENTS_3_NUMBER, MOVE_ANY_3: L.UP_MOVE_ANY_3_NUMBER,
    PLACE_2_ANYWHERE: L.UP_PLACE_2_ANYWHERE_NUMBER,
    ALL_OUT_OR_PLACE_2: L.UP_ALL_OUT_OR_PLACE_2_NUMBER,
    OPPONENTS_COURT_3: L.UP_OPPONENTS_COURT_3_NUMBER, OPPONENTS_ANY_3: L.UP_OPPONENTS_ANY_3_NUMBER,
    OPPONENTS_ONE_EACH: L.UP_OPPONENTS_ONE_EACH_NUMBER,
    SECRET_RETURN_2: L.UP_SECRET_RETURN_2_NUMBER,
    PROVINCES_TO_COURT_2: L.UP_PROVINCES_TO_COURT_2_NUMBER,
    HOLY_INQUISITION: L.UP_HOLY_INQUISITION_NUMBER, FREE_CHOICE: L.UP_FREE_CHOICE_NUMBER,
    TRANSPORT: L.UP_TRANSPORT_NUMBER,
})
CARD_CABALLEROS_RULES = card_rules({  # the Caballeros it places (stacks 6-7)
    HOLY_INQUISITION: L.UP_HOLY_INQUISITION_CABALLEROS,
    EXECUTE_ACTION_CARD: L.UP_EXECUTE_ACTION_CARD_CABALLEROS, COPYCAT: L.UP_COPYCAT_CABALLEROS,
    FREE_CHOICE: L.UP_FREE_CHOICE_CABALLEROS,
    SCORE_OUTSIDE_SPAIN: L.UP_SCORE_OUTSIDE_SPAIN_CABALLEROS,
    SCORE_BLACK_REGIONS: L.UP_SCORE_BLACK_REGIONS_CABALLEROS, TRANSPORT: L.UP_TRANSPORT_CABALLEROS,
    LIMIT_TABLE: L.UP_LIMIT_TABLE_CABALLEROS,
})
CARD_WARES_RULES = card_rules({  # the Wares a stack-7 card lays
    EXECUTE_ACTION_CARD: L.UP_EXECUTE_ACTION_CARD_WARES, COPYCAT: L.UP_COPYCAT_WARES,
    FREE_CHOICE: L.UP_FREE_CHOICE_WARES, SCORE_OUTSIDE_SPAIN: L.UP_SCORE_OUTSIDE_SPAIN_WARES,
    SCORE_BLACK_REGIONS: L.UP_SCORE_BLACK_REGIONS_WARES, TRANSPORT: L.UP_TRANSPORT_WARES,
    LIMIT_TABLE: L.UP_LIMIT_TABLE_WARES,
})
CARD_GOLD_RULES = card_rules({  # the Gold a stack-7 card lays
    EXECUTE_ACTION_CARD: L.UP_EXECUTE_ACTION_CARD_GOLD, COPYCAT: L.UP_COPYCAT_GOLD,
    FREE_CHOICE: L.UP_FREE_CHOICE_GOLD, SCORE_OUTSIDE_SPAIN: L.UP_SCORE_OUTSIDE_SPAIN_GOLD,
    SCORE_BLACK_REGIONS: L.UP_SCORE_BLACK_REGIONS_GOLD, TRANSPORT: L.UP_TRANSPORT_GOLD,
    LIMIT_TABLE: L.UP_LIMIT_TABLE_GOLD,
})


@compiled(inline="always")
def rule_came_up(log, rule):
    """``came_up`` for a rule of one of the tables above (-1: none counted)."""
    if rule >= 0:
        came_up(log, rule)


@compiled
def board_rule(s, g, at):
    """The rule of the points place ``g``'s scoreboard pays for place ``at`` now (a mobile
    scoreboard's where one stands)."""
    for m in range(2):
        if s.mobile[m] == g:
            return MOBILE_POINTS_RULES[m, at]
    return POINTS_RULES[g, at]


@compiled
def space_rule(g, i):
    """The rule of the points the ``i``-th space of ``g`` pays (``board.seat_bonus``)."""
    if g == FRANCIA:
        return L.UP_AMBASSADOR_BONUS if i == 0 else L.UP_ENVOY_BONUS
    return L.UP_CAPTAIN_POINTS if g == SHIP else L.UP_VICEROY_POINTS


@compiled
def to_court(s, p, k, log):
    """Up to ``k`` of ``p``'s Caballeros from the provinces to the court; returns how many."""
    k = min(k, s.provinces[p])
    s.provinces[p] -= k
    s.court[p] += k
    record(log, L.TO_COURT, p, k, s.court[p], s.provinces[p])
    return k


@compiled
def place_from_provinces(s, p, g, k, log):
    """``k`` of ``p``'s Caballeros straight from the provinces into ``g`` (the expansion's setup)."""
    for _ in range(k):
        s.provinces[p] -= 1
        arrive(s, p, g, -1, log)
        s.placed[p] += 1
        record(log, L.PLACED, p, g, s.cab[p, g], s.provinces[p], 1)  # 1: from the provinces


@compiled
def place(s, p, g, log):
    """One of ``p``'s Caballeros from the court into place ``g``."""
    s.court[p] -= 1
    arrive(s, p, g, -1, log)
    s.placed[p] += 1
    record(log, L.PLACED, p, g, s.cab[p, g], s.court[p])


@compiled
def move(s, q, a, b, by, log):
    """One of colour ``q``'s Caballeros from place ``a`` to place ``b`` (``L.COURT``: to the
    court), with the token it holds (expansion)."""
    shift(s, q, a, b, by, log, L.MOVED)


@compiled
def free_move(s, q, a, b, by, log):
    """A free move (expansion: the Ship and the colonies), told once as such."""
    shift(s, q, a, b, by, log, L.FREE_MOVE)


@compiled
def shift(s, q, a, b, by, log, code):
    """``move``'s change, told by ``code`` before what it results in (a token brought home,
    or lost)."""
    token = depart(s, q, a, b)
    if q < MAX_PLAYERS:
        s.moved[q] += 1
    if b == L.COURT:
        s.court[q] += 1
        record(log, code, q, a, b, by, s.cab[q, a], s.court[q])
    else:  # told before arriving: arriving may bring a token home (its own event)
        record(log, code, q, a, b, by, s.cab[q, a], s.cab[q, b] + 1)
        arrive(s, q, b, token, log)
    if token >= 0 and (b == L.COURT or b == CASTILLO):
        lose_token(s, q, token, b, log)


@compiled
def move_on_table(s, c, onto, by, log):
    """A movement within the limit table's region (rules.toml, expansion_table_moves): one of
    colour ``c``'s Caballeros beside the table put onto a free space (``onto``), or one taken
    off it to stand beside it, by ``by``'s card; one movement, like a move."""
    s.on_table[c] += 1 if onto else -1
    if c < MAX_PLAYERS:
        s.moved[c] += 1
    record(log, L.TABLE_MOVE, by, c, s.table_region, 1 if onto else 0, s.on_table[c])


@compiled
def send_home(s, q, g, log):
    """One of ``q``'s Caballeros from place ``g`` (or ``L.COURT``) back to the provinces."""
    if g == L.COURT:
        s.court[q] -= 1
        left = s.court[q]
        token = -1
    else:
        token = depart(s, q, g, L.PROVINCES)
        left = s.cab[q, g]
    s.provinces[q] += 1
    s.returned[q] += 1
    record(log, L.RETURNED, q, g, left)
    if token >= 0:
        lose_token(s, q, token, L.PROVINCES, log)


# --- the expansion's places: a Caballero coming in (who stands where: board.stand, depart) -----

@compiled
def arrive(s, c, b, token, log):
    """One Caballero of colour ``c`` (holding ``token``, -1: none) comes into place ``b``, where
    ``board.stand`` seats it; a token brought to the mainland scores, one brought elsewhere is
    carried on. (Which one leaves a place is ``board.depart``.)"""
    if stand(s, c, b, token):  # the table full: its size kept this one beside it
        came_up(log, L.UP_LIMIT_TABLE_SMALL if s.n_players <= 3 else L.UP_LIMIT_TABLE_LARGE)
    if s.expansion == 0 or token < 0:
        return
    if b < N_SPAIN:
        bring_home(s, c, b, token, log)
    elif b != CASTILLO:
        s.carry[c, b, token] += 1


@compiled
def put_table(s, g, log):
    """The limit table emptied into its region and set, empty, in ``g``."""
    record(log, L.TABLE_PLACED, s.table_region, g, s.table_size, 0)
    s.on_table[:] = 0
    s.table_region = g


@compiled
def bring_home(s, c, g, token, log):
    """A token brought to Spain goes back to the supply and scores for the Caballero's player."""
    s.supply[token] += 1
    p = owner(s, c)
    points = s.token_points[token]
    came_up(log, L.UP_GOLD_POINTS if token == GOLD else L.UP_WARE_POINTS)
    if p >= 0:
        s.score[p] += points
        s.vp[p, FROM_TOKENS] += points
        s.tokens_home[p] += 1
    record(log, L.TOKEN_HOME, c, token, g, points, s.score[p] if p >= 0 else 0)


@compiled
def lose_token(s, c, token, to, log):
    """A token whose Caballero goes to the court, the provinces or the Castillo is lost to the
    supply, for no points."""
    s.supply[token] += 1
    record(log, L.TOKEN_LOST, c, token, to)


@compiled
def take_tokens(s, p, log):
    """``p`` takes what it can (a free action, not an action): each Caballero of its own, and
    black ones for the Grand Inquisitor's holder, holding nothing and on no space, takes one
    token lying where it stands (Wares in África, Gold in América). Only in its own turn
    ('During your turn, you may take Gold and Wares'): not by Free Choice at a general scoring,
    nor by Copycat after another's turn."""
    if s.acting != p:
        return
    for c in (p, BLACK):
        if c == BLACK and s.inquisitor != p:
            continue
        for g, token in ((AFRICA, WARE), (AMERICA, GOLD)):
            free = s.cab[c, g] - s.carry[c, g, WARE] - s.carry[c, g, GOLD] - (
                1 if g == AMERICA and s.viceroy == c else 0)
            k = min(free, s.lying[token])
            if k > 0:
                s.lying[token] -= k
                s.carry[c, g, token] += k
                record(log, L.TOKEN_TAKEN, c, token, g, k, s.lying[token])


@compiled
def gain(s, p, points, source, kind, round_no, r):
    s.score[p] += points
    s.vp[p, source] += points
    if kind == GENERAL:
        s.vp_scoring[p, scoring_index(r, round_no)] += points


@compiled
def score_place(s, r, g, kind, first_only, log):
    """Score place ``g``: each player's place by the tie rule (or a sole first only), then the
    King's and the Grandes' bonuses. Returns the points scored in all."""
    record(log, L.SCORING, kind, g, 1 if first_only else 0)
    n = s.n_players
    places = np.empty(MAX_PLAYERS, dtype=np.int64)
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    placings(s, g, places)
    board = scoreboard(s, g)
    anyone = False
    total = 0
    source = FROM_SPECIAL if kind != GENERAL else (FROM_CASTILLO if g == CASTILLO else FROM_REGIONS)
    for p in range(n):
        at = places[p]
        if at < 0:
            continue
        anyone = True
        points = board[at] if at <= 2 and (not first_only or at == 0) else 0
        if at <= 2 and (not first_only or at == 0):
            rule_came_up(log, board_rule(s, g, at))
        gain(s, p, points, source, kind, s.round_no, r)
        total += points
        record(log, L.PLACE_SCORED, g, p, counted(s, p, g), at, points, s.score[p])
    if not first_only or r.first_places_bonuses != NO:
        for i in range(2):  # the expansion's spaces score whoever else is there
            q, points, seat_source = seat_bonus(s, r, g, i)
            if q >= 0:
                came_up(log, space_rule(g, i))
                gain(s, q, points, seat_source, kind, s.round_no, r)
                total += points
                record(log, L.SPACE_SCORED, g, q, i, points, s.score[q])
    if not anyone:
        record(log, L.NOBODY_SCORES, g)
        return total
    if kind == GENERAL and g != CASTILLO and sole_most(s, g) >= 0:
        s.firsts[sole_most(s, g), scoring_index(r, s.round_no)] += 1
    top = sole_most(s, g)
    if first_only and g != CASTILLO and (
            (top >= 0 and (g == s.king or s.grande[top] == g)) or seat_bonus(s, r, g, 0)[0] >= 0
            or seat_bonus(s, r, g, 1)[0] >= 0):
        came_up(log, L.UP_FIRST_PLACES_BONUSES)  # a bonus the 'first places' scoring may pay
    if top >= 0:
        if g != CASTILLO and (not first_only or r.first_places_bonuses != NO):
            if g == s.king:
                came_up(log, L.UP_KING_BONUS)
            if s.grande[top] == g:
                came_up(log, L.UP_GRANDE_BONUS)
        king, grande = bonus_parts(s, r, g, top, first_only)
        if king > 0:
            gain(s, top, king, FROM_KING, kind, s.round_no, r)
            record(log, L.BONUS, g, top, 0, king, s.score[top])
        if grande > 0:
            gain(s, top, grande, FROM_GRANDE, kind, s.round_no, r)
            record(log, L.BONUS, g, top, 1, grande, s.score[top])
        total += king + grande
    return total


@compiled
def special_scoring_done(s, p, card, scored, log):
    """A special scoring of ``scored`` regions counts once a game-count; none: a rule that fired
    without effect."""
    if scored == 0:
        record(log, L.NO_EFFECT, p, card, L.NO_REGION)
    else:
        s.special_scorings += 1


@compiled
def move_king(s, g, log):
    record(log, L.KING_MOVED, s.king, g)
    s.king = g
    s.king_moves += 1


@compiled
def move_grande(s, p, g, log):
    record(log, L.GRANDE_MOVED, p, s.grande[p], g)
    s.grande[p] = g


@compiled
def move_scoreboard(s, m, g, log):
    record(log, L.SCOREBOARD_MOVED, m, s.mobile[m], g)
    s.mobile[m] = g


@compiled
def empty_castillo(s, p, g, log):
    """``p``'s Caballeros in the Castillo go to region ``g`` (to the court if it is the King's)."""
    k = s.cab[p, CASTILLO]
    to = L.COURT if g == s.king else g
    record(log, L.CASTILLO_EMPTIED, p, k, to)
    s.cab[p, CASTILLO] = 0
    if to == L.COURT:
        s.court[p] += k
    else:  # beside the limit table, if it stands there: the Grand Inquisitor fills it after
        s.cab[p, g] += k


@compiled
def standing_points(s, r, g, first_only):
    """``standings`` as a fresh array (for tests and the players)."""
    out = np.zeros(MAX_PLAYERS, dtype=np.int64)
    standings(s, r, g, first_only, out)
    return out

