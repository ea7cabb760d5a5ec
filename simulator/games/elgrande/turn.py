"""El Grande, played by the base game's rules: setup, the nine rounds, the scorings, the end.

The functions follow the rules' order: setting up; a round (the action cards turned up, the
power cards, the turn order); a player's turn (Caballeros to the court, an action card taken,
its special action before or after placing, the placement); the special actions of the 45
action cards, stack by stack; the end of the round; the general scoring; the end of the game.
``s`` is one game's state (``board.STATE``), ``r`` the rule numbers (``rules.toml``), ``rng``
the game's random stream, ``log`` the replay log (empty in batch runs), and ``plans`` the
seats' strategies that every decision is asked of. Every board change goes through
``effects.py``. Where no rule text speaks, ``rules.toml`` says what is played and why.

Where a player chooses by trying options out on a copy of the table, the rules try them (an
action card, an alternative, a Veto's and a kept card's special action here; a place or a
scoreboard's move in ``trials.py``) and the player values each copy (``strategies/elgrande.py``,
which imports no rule).
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.rng import shuffle
from simulator.core.trace import came_up, checking, found_broken, no_log, record
from simulator.core.unfolding import decided, note_leader
from simulator.games.elgrande import effects as E
from simulator.games.elgrande import expansion as X
from simulator.games.elgrande import codes as L
from simulator.games.elgrande import invariants
from simulator.games.elgrande import trials
from simulator.games.elgrande.board import (
    ALL_OUT_BLACK_MAY_LEAVE, ALL_OUT_OF_ONE_REGION, ALL_OUT_OR_PLACE_2, BLACK, BORDERS,
    CARD_STACK, CASTILLO, COLONY_STACK, COPYCAT, EXECUTE_ACTION_CARD, FRANCIA, FREE_CHOICE,
    GENERAL, GRAND_INQUISITOR_COLONIES, HELD_CARDS,
    HELD_COPYCAT, HELD_EXECUTE, HELD_FREE_CHOICE, HOLY_INQUISITION, HOLY_PLACES_NEIGHBOURS,
    INQUISITION_STACK, KING,
    KING_STACK, KING_TO_NEIGHBOUR, LIMIT_TABLE, MAX_PLAYERS, MOBILE_SCOREBOARD,
    SCORE_BLACK_REGIONS, SCORE_OUTSIDE_SPAIN,
    MOVE_GRANDE, N_PLACES, N_POWER, N_REGIONS, N_SPAIN, N_STACKS, OPPONENTS_ANY_3,
    OPPONENTS_COURT_3, OPPONENTS_COURT_HOME, OPPONENTS_DISPERSE, OPPONENTS_ONE_EACH,
    PLACE_2_ANYWHERE, PROVINCES_TO_COURT_2, SCORE_4_POINT_REGIONS, SCORE_5_POINT_REGIONS,
    SCORE_6_7_POINT_REGIONS, SCORE_ANY_REGION, SCORE_CASTILLO,
    SCORE_FIRST_PLACES, SCORE_MOST_CABALLEROS, SECRET_RETURN_2,
    SECRET_RETURN_ALL, SPECIAL, TAKE_BACK_POWER_CARD,
    TAKE_BACK_THIS_ROUND, VETO, VETO_ROUND, black_all_out, cards_face_up, copy_of, first_value,
    general_scoring_after, intrigue_limits, king_may_enter, load_tables, may_enter,
    may_move_through, may_place_anywhere, new_table, place_options, placement_target,
    table_filler, total_caballeros,
)
from simulator.games.elgrande.codes import ACTION_FIRST, NO_ACTION, PLACEMENT_FIRST
from strategies import elgrande as players


# --- Setting up ----------------------------------------------------------------------------------

@compiled
def new_game(r, n_players, plans, rng, log, mode):
    """Setup: the region cards pick the King's region, then each player's home region (no one
    starts in the King's region); each player's Grande and Caballeros home, court and provinces;
    the four action stacks shuffled; the mobile scoreboards beside the board. With the
    expansion (``mode``), its setup (``expansion.setup``)."""
    table = new_table()
    s = table[0]
    load_tables(s, r)
    s.n_players = n_players
    s.expansion = 1 if mode == GRAND_INQUISITOR_COLONIES else 0
    s.n_regions = N_REGIONS if s.expansion else N_SPAIN
    s.acting = -1
    s.mobile[:] = -1
    s.taken[:] = -1
    s.face[:] = -1
    s.francia[:] = -1
    s.captain = -1
    s.viceroy = -1
    s.table_region = -1
    s.inquisitor = -1
    s.last_special = -1
    regions = np.arange(N_SPAIN)
    shuffle(rng, regions, N_SPAIN)
    s.king = regions[0]
    record(log, L.SETUP, n_players, s.king)
    first_home = 4 if s.expansion else 1  # the expansion reveals three more cards first
    for p in range(n_players):
        g = regions[first_home + p]
        s.home[p] = g
        s.grande[p] = g
        s.cab[p, g] = r.caballeros_home
        s.court[p] = r.caballeros_court
        s.provinces[p] = r.caballeros_per_player - r.caballeros_home - r.caballeros_court
        record(log, L.HOME, p, g, s.cab[p, g], s.court[p], s.provinces[p])
    for card in range(HOLY_INQUISITION):
        stack = CARD_STACK[card] - 1
        if stack == KING_STACK:
            continue
        for _ in range(s.card_count[card]):
            s.deck[stack, s.deck_n[stack]] = card
            s.deck_n[stack] += 1
    for stack in range(KING_STACK):
        shuffle(rng, s.deck[stack], s.deck_n[stack])
    if s.expansion:
        X.setup(s, r, plans, rng, log, regions)
    return table


# --- A round: the action cards, the power cards, the turn order ----------------------------------

@compiled
def turn_up_cards(s, log):
    """The top card of each of stacks 1-4 (and 7) is turned up; the King's card (and the Holy
    Inquisition, alone in stack 6: rules.toml, holy_inquisition_returns) is always there."""
    for stack in range(N_STACKS):
        if stack == KING_STACK or stack == INQUISITION_STACK or (
                stack == COLONY_STACK and not s.expansion):
            continue
        if s.deck_n[stack] == 0:
            s.face[stack] = -1
            record(log, L.STACK_EMPTY, stack)
            continue
        s.deck_n[stack] -= 1
        s.face[stack] = s.deck[stack, s.deck_n[stack]]
        record(log, L.CARD_UP, stack, s.face[stack])
    s.face[KING_STACK] = KING
    record(log, L.CARD_UP, KING_STACK, KING)
    if s.expansion:
        s.face[INQUISITION_STACK] = HOLY_INQUISITION
        record(log, L.CARD_UP, INQUISITION_STACK, HOLY_INQUISITION)


@compiled
def play_power_cards(s, r, plans, rng, log, first):
    """Each player in turn, from the starter, plays a power card not used before; a value
    already played this round is refused (power_card_clash: unless it is all the player has).
    From the ``first``-th player on (0; a search's rollout goes on from its own card)."""
    allowed = np.zeros(N_POWER + 1, dtype=np.int64)
    for i in range(first, s.n_players):
        p = (s.starter + i) % s.n_players
        k, clash = power_cards_allowed(s, p, allowed)
        decided(s, k)
        v, chosen = players.choose_power(s, r, p, plans, rng, allowed)
        record(log, L.DECISION, p, L.DECIDE_POWER, k, chosen)
        play_power_card(s, log, p, i, v, clash)


@compiled
def power_cards_allowed(s, p, allowed):
    """(how many, whether by a clash): the values ``p`` may play now (``allowed[v]``)."""
    k = 0
    for v in range(1, N_POWER + 1):
        played = False
        for q in range(s.n_players):
            played = played or s.power_played[q] == v
        allowed[v] = 1 if s.power_used[p, v] == 0 and not played else 0
        k += allowed[v]
    clash = k == 0
    if clash:
        for v in range(1, N_POWER + 1):
            allowed[v] = 1 - s.power_used[p, v]
            k += allowed[v]
    return k, clash


@compiled
def play_power_card(s, log, p, i, v, clash):
    """``p``, the ``i``-th to play, plays the value ``v``."""
    if clash:
        came_up(log, L.UP_POWER_CARD_CLASH)
    record(log, L.POWER_CLASH if clash else L.POWER_CARD, p, v)
    s.power_used[p, v] = 1
    s.power_played[p] = v
    s.played_at[p] = i
    s.power_round[p, v] = s.round_no


@compiled
def set_turn_order(s, log):
    """Highest power card first (a clash: who played it first goes first); the player of the
    lowest card starts the next round's card play."""
    n = s.n_players
    for i in range(n):
        s.order[i] = i
    for i in range(1, n):  # insertion sort: value down, then the order cards were played
        j = i
        while j > 0:
            a, b = s.order[j - 1], s.order[j]
            if s.power_played[b] > s.power_played[a] or (
                    s.power_played[b] == s.power_played[a] and s.played_at[b] < s.played_at[a]):
                s.order[j - 1], s.order[j] = b, a
                j -= 1
            else:
                break
    s.starter = s.order[n - 1]
    packed = 0
    for i in range(n):
        packed |= s.order[i] << (4 * i)
    record(log, L.TURN_ORDER, packed, n, s.starter)


# --- A player's turn ----------------------------------------------------------------------------

# The thin steps from a round down to a card's special action (a round, a turn and its start,
# the card played and announced, a kept Execute Action Card used) are compiled into their
# callers (inline): LLVM optimises every compiled function together with all it calls, so each
# step of its own would compile the turn once more. Not those the search's rollouts call
# (the verbs of ``search.py``, numba overloads): compiled into them, numba's cached code calls a
# null address once loaded.
@compiled(inline="always")
def play_turn(s, r, plans, rng, log, p):
    """Caballeros to the court by the power card; an action card taken (compulsory); its
    special action (optional) before or after the placement."""
    begin_turn(s, r, plans, rng, log, p)
    decided(s, 3 * cards_face_up(s))  # each face-up card, in each of the three orders
    stack, order, options, chosen = choose_card(s, r, p, plans, rng)
    record(log, L.DECISION, p, L.DECIDE_CARD, options, chosen)
    take_card(s, r, plans, rng, log, p, stack, order)


@compiled(inline="always")  # compiled into its caller: see play_turn
def begin_turn(s, r, plans, rng, log, p):
    """The turn up to the card's choice: (the expansion's free moves and a kept Execute Action
    Card,) the power card's Caballeros to the court."""
    s.acting = p
    s.turns += 1
    s.last_special = -1
    record(log, L.TURN, p, s.score[p], s.court[p])
    if s.expansion:
        X.free_moves(s, r, plans, rng, log, p)
        use_execute(s, r, plans, rng, log, p)
    if s.provinces[p] > 0:
        E.rule_came_up(log, E.POWER_RULES[s.power_played[p]])
    E.to_court(s, p, s.power_caballeros[s.power_played[p]], log)


@compiled  # not inlined: the search's rollouts call it (see play_turn)
def take_card(s, r, plans, rng, log, p, stack, order):
    """The rest of the turn: the card of ``stack`` taken and carried out in ``order``."""
    card = s.face[stack]
    s.face[stack] = -1
    s.taken[p] = card
    s.stack_taken[p, stack] += 1
    E.rule_came_up(log, E.CARD_COUNT_RULES[card])
    record(log, L.CARD_TAKEN, p, card, order, stack)
    play_card(s, r, plans, rng, log, p, card, order)
    if s.expansion:
        if card == EXECUTE_ACTION_CARD:  # 'in this round or any later round'
            use_execute(s, r, plans, rng, log, p)
        E.take_tokens(s, p, log)
        X.fill_table(s, r, plans, rng, log, table_filler(s, p))
    s.acting = -1


@compiled(inline="always")  # compiled into its caller: see play_turn
def play_card(s, r, plans, rng, log, p, card, order):
    """The card's two parts in the order chosen (also tried on copies for a player choosing:
    ``card_choice``, ``announce``), a stack-7 card's Gold and Wares laid first
    (``lay_card_tokens``)."""
    lay_card_tokens(s, p, card, log)
    if order == ACTION_FIRST:
        announce(s, r, plans, rng, log, p, card)
    place_caballeros(s, r, plans, rng, log, p, card)
    if order == PLACEMENT_FIRST:
        announce(s, r, plans, rng, log, p, card)
    elif order == NO_ACTION:
        record(log, L.SPECIAL_DECLINED, p, card)


@compiled(inline="always")  # compiled into its caller: see play_turn
def choose_card(s, r, p, plans, rng):
    """(stack, order, options, chosen) of the action card ``p`` takes and how it carries it out
    (``ACTION_FIRST``, ``PLACEMENT_FIRST`` or ``NO_ACTION``; ``chosen`` counts the options three
    to a face-up card): the search player's search (``strategies.searched_card``), the learnt
    expert's or a quick player's valuation (``strategies.valued_card``; the expert first tries
    every card as its fallback does, ``card_choice``'s trials; a quick player tries none), else
    each card tried (``card_choice``)."""
    trials = np.zeros((N_STACKS, 2), dtype=np.float64)
    if players.values_cards(plans, p):
        if plans[0][p] == players.EXPERT:
            card_choice(s, r, p, plans, rng, -1, trials)
        stack, n, o, order = players.valued_card(s, r, p, plans, trials)
        return stack, order, 3 * n, 3 * o + order
    if players.searches_cards(plans, p):
        return players.searched_card(s, r, p, plans, rng)
    return card_choice(s, r, p, plans, rng, -1, trials)


@compiled
def card_choice(s, r, p, plans, rng, only, trials):
    """A player's choice of card: each face-up card (only the card of stack ``only``, if not
    -1) played out on a copy of the table in each order the player finds worth trying, every
    seat played as the player itself (``strategies.mirror``: it knows no other seat's plan),
    nobody asked for a Veto (``announce``); the player values each copy (``card_value``). A
    random player tries nothing. Each card's trials are kept: ``trials[stack]`` is (the value
    of its best order, that order), -1e18 for a card not tried."""
    trials[:, 0] = -1e18
    trials[:, 1] = 0
    k = 0
    for stack in range(N_STACKS):
        if s.face[stack] >= 0:
            k += 1
    options = 3 * k
    if players.at_random(plans, p):
        return players.random_card(s, rng, only, options)
    model = players.mirror(plans, p)
    w, judge = players.judge_places(s, r, p, plans)
    table = copy_of(s)
    nl = no_log()
    best = -1e18
    best_stack, best_order, chosen = -1, 0, 0
    ties = 0
    i = -1
    for stack in range(N_STACKS):
        card = s.face[stack]
        if card < 0:
            continue
        for order in range(3):
            i += 1
            if (only >= 0 and stack != only) or not players.worth_trying(card, order):
                continue
            table[0] = s
            x = table[0]
            x.trial = 1  # nobody is asked for a Veto (``announce``)
            play_card(x, r, model, rng, nl, p, card, order)
            v = players.card_value(table, s, r, p, w, judge, stack, rng)
            if v > trials[stack, 0]:
                trials[stack, 0], trials[stack, 1] = v, order
            replace, ties = players.better(v, best, ties, rng)
            if replace:
                best, best_stack, best_order, chosen = v, stack, order, i
    return best_stack, best_order, options, chosen


@compiled
def card_orders(s, r, p, plans, rng, cards, n):
    """The order ``p`` would carry out each face-up card of ``cards[:n]`` in (into
    ``cards[:n, 1]``); returns the row of the card it would take (the search player's rollout
    policy's, ``search.py``)."""
    trials = np.empty((N_STACKS, 2), dtype=np.float64)
    stack, order, _, _ = card_choice(s, r, p, plans, rng, -1, trials)
    taken = 0
    for o in range(n):
        if cards[o, 0] == stack:
            cards[o, 1] = order
            taken = o
        else:
            cards[o, 1] = card_choice(s, r, p, plans, rng, cards[o, 0], trials)[1]
    return taken


@compiled
def lay_card_tokens(s, p, card, log):
    """A stack-7 card lays its Gold and Wares first, the moment it is chosen ('whenever a player
    chooses a card from stack 7, he immediately places the depicted Gold and/or Wares'), also
    when its special action is then declined or vetoed; an executed or copied one brings them
    with it."""
    if CARD_STACK[card] == COLONY_STACK + 1:
        X.lay_tokens(s, p, card, log)
        E.take_tokens(s, p, log)


@compiled
def place_caballeros(s, r, plans, rng, log, p, card):
    """Up to the card's number of Caballeros from the court into regions bordering the King's
    region and/or the Castillo (Holy Inquisition's 'into regions neighboring the King's
    region' only, by ``holy_inquisition_places``); first the Grand Inquisitor's holder's extra
    one, if it so chooses (``expansion.inquisitor_extra``)."""
    n = s.card_caballeros[card]
    s.neighbours_only = 1 if card == HOLY_INQUISITION and \
        r.holy_inquisition_places == HOLY_PLACES_NEIGHBOURS else 0
    X.inquisitor_extra(s, r, plans, rng, log, p, n)  # its player weighs the card's places
    if s.court[p] > 0:
        E.rule_came_up(log, E.CARD_CABALLEROS_RULES[card])
        if card == HOLY_INQUISITION:
            came_up(log, L.UP_HOLY_INQUISITION_PLACES)
    memo = players.new_memo()  # the player's standings, kept from one placement to the next
    for _ in range(n):
        if s.court[p] == 0:
            break
        decided(s, placement_options(s))
        g = players.choose_placement(s, r, p, plans, rng, memo)
        if g < 0:
            break
        E.place(s, p, g, log)
        players.forget(memo, g, g)
    s.neighbours_only = 0


@compiled
def placement_options(s):
    """The options of a placement from the court: each place it may go (``placement_target``),
    or keeping the rest in the court."""
    k = 1
    for g in range(N_PLACES):
        k += 1 if placement_target(s, g) else 0
    return k


@compiled(inline="always")  # compiled into its caller: see play_turn
def announce(s, r, plans, rng, log, p, card):
    """A special action is announced; a Veto held by another player may cancel it (asked in
    seat order from ``p``'s left), else it is carried out. On a player's trial copy
    (``s.trial``) nobody is asked: the player does not guess the others' vetoes."""
    if s.trial == 0 and card != VETO:
        n = s.n_players
        for i in range(1, n):
            q = (p + i) % n
            if s.vetoes[q] > 0:
                decided(s, 2)
                cancel = vetoes(s, r, q, plans, rng, p, card)
                record(log, L.DECISION, q, L.DECIDE_VETO, 2, 1 if cancel else 0)
                if cancel:
                    s.vetoes[q] -= 1
                    s.vetoed[q] += 1
                    s.vetoes_used += 1
                    record(log, L.VETOED, q, p, card)
                    return
    special_action(s, r, plans, rng, log, p, card)


@compiled
def vetoes(s, r, q, plans, rng, p, card):
    """Whether ``q`` spends a Veto on ``p``'s announced special action: carried out on a copy
    (as ``q`` would carry it out, every seat played as ``q``), the player judges what it costs
    (``strategies.costs_a_veto``)."""
    if players.at_random(plans, q):
        return players.random_below(rng, 2) == 0
    w, coef = players.judge(s, q, plans)
    table = copy_of(s)
    x = table[0]
    special_action(x, r, players.mirror(plans, q), rng, no_log(), p, card)
    return players.costs_a_veto(s, table, r, q, w, coef)


# --- The special actions ----------------------------------------------------------------------

@compiled
def special_action(s, r, plans, rng, log, p, card):
    """``p`` carries out ``card``'s special action: the card it chose this turn, or one it
    executes or copies (Execute Action Card, Copycat); a stack-7 card's Gold and Wares are laid
    before (``lay_card_tokens``)."""
    record(log, L.SPECIAL, p, card, 1 if s.acting != p else 0)  # 1: a Copycat's, in no turn
    s.specials_done[p] += 1
    s.last_special = card
    stack = CARD_STACK[card]
    if stack >= INQUISITION_STACK + 1:
        stacks_6_and_7(s, r, plans, rng, log, p, card)
    elif card == PLACE_2_ANYWHERE:
        place_anywhere(s, r, plans, rng, log, p, card)
    elif card == ALL_OUT_OF_ONE_REGION:
        all_out_of_one_region(s, r, plans, rng, log, p, card)
    elif card == ALL_OUT_OR_PLACE_2:
        decided(s, 2)
        if choose_alternative(s, r, p, plans, rng) == 0:
            all_out_of_one_region(s, r, plans, rng, log, p, card)
        else:
            place_anywhere(s, r, plans, rng, log, p, card)
    elif stack == 1:
        intrigue(s, r, plans, rng, log, p, card)
    elif stack == 2:
        stack_2(s, r, plans, rng, log, p, card)
    elif stack == 3:
        stack_3(s, r, plans, rng, log, p, card)
    else:
        stack_4_and_king(s, r, plans, rng, log, p, card)


@compiled
def choose_alternative(s, r, p, plans, rng):
    """'All out of one region' (0) or 'place 2 anywhere' (1): both tried on copies, the player
    valuing each."""
    if players.at_random(plans, p):
        return players.random_below(rng, 2)
    w, coef = players.judge(s, p, plans)
    model = players.mirror(plans, p)
    values = np.zeros(2, dtype=np.float64)
    for alt in range(2):
        table = copy_of(s)
        x = table[0]
        if alt == 0:
            all_out_of_one_region(x, r, model, rng, no_log(), p, ALL_OUT_OR_PLACE_2)
        else:
            place_anywhere(x, r, model, rng, no_log(), p, ALL_OUT_OR_PLACE_2)
        values[alt] = players.value_of_table(table, r, p, w, coef)
    return players.first_of_two(values)


@compiled
def intrigue(s, r, plans, rng, log, p, card):
    """Stack 1's moving cards (and the expansion's Transport, Free Choice and Holy Inquisition's
    black Caballeros): the card's moves (``moves``), never to or from the King's region; 'out of
    one region' takes them all from one; nothing moved is told as no effect."""
    if moves(s, r, plans, rng, log, p, card) == 0:
        record(log, L.NO_EFFECT, p, card, L.NO_CABALLERO)


@compiled
def moves(s, r, plans, rng, log, p, card):
    """The moves of ``card`` by ``p`` (``intrigue_limits``): up to its number, at most so many
    of its own (a black one counting as its own) and of its opponents', all from one region
    for 'out of one region', only the black Caballeros for Holy Inquisition. With the
    expansion a move may be a movement on or off the limit table within its region
    (``expansion.table_moves_open``; never 'out of one region'). Returns how many Caballeros
    moved. (The limits come from the card, not as constant arguments: numba would compile this
    and every chooser below it once for each constant.)"""
    total, own_max, opp_max, one_source, only_black = intrigue_limits(s, card)
    E.rule_came_up(log, E.CARD_NUMBER_RULES[card])
    if not s.castillo_closed:
        came_up(log, L.UP_INTRIGUE_CASTILLO)  # the Castillo among the moves' places, or not
    if s.expansion == 1 and not one_source and s.table_region >= 0 and s.table_region != s.king:
        came_up(log, L.UP_TABLE_MOVES_IN_REGION)
    source = -1
    own = 0
    opp = 0
    memo = players.new_memo()  # the player's standings, kept from one move to the next
    for _ in range(total):
        if s.expansion == 1 and not one_source and X.table_moves_open(s, r):
            # also on or off the limit table within its region (rules.toml, table moves)
            decided(s, move_options(s, r, p, own_max - own, opp_max - opp, -1, only_black,
                                    True))
            q, a, b, onto = players.choose_movement(s, r, p, plans, rng, own_max - own,
                                                    opp_max - opp, total - own - opp,
                                                    only_black, memo)
        else:
            decided(s, move_options(s, r, p, own_max - own, opp_max - opp, source, only_black,
                                    False))
            q, a, b = players.choose_move(s, r, p, plans, rng, own_max - own, opp_max - opp,
                                          source, only_black, memo)
            onto = -1
        if q < 0:
            break
        if onto >= 0:
            E.move_on_table(s, q, onto == 1, p, log)  # a == b: the table's region
        else:
            E.move(s, q, a, b, p, log)
            if s.expansion:
                E.take_tokens(s, p, log)
        players.forget(memo, a, b)
        if q == p or q == BLACK:  # a black one: only the holder's choice, as its own
            own += 1
        else:
            opp += 1
        if one_source:
            source = a
    return own + opp


@compiled
def move_options(s, r, p, own_left, opp_left, source, only_black, table_moves):
    """The options of a card's next move: every move of a Caballero between two places
    (owner, from, to) the card still allows, with ``table_moves`` every movement onto or off
    the limit table within its region, and stopping (the movements
    ``strategies.choose_move``/``choose_movement`` choose among)."""
    k = players.nth_move(s, r, p, own_left, opp_left, source, only_black, -1)[3] + 1
    if table_moves:
        for i in range(players.first_mover(s, only_black), s.n_players + 1):
            q = players.mover_colour(s, p, i)
            if q >= 0:
                for onto in range(2):
                    if players.table_move_open(s, r, p, q, onto, own_left, opp_left):
                        k += 1
    return k


@compiled
def place_anywhere(s, r, plans, rng, log, p, card):
    """Place the card's number of extra Caballeros from the court anywhere (any region but the
    King's; the Castillo by intrigue_castillo)."""
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    for g in range(N_PLACES):
        allowed[g] = 1 if may_place_anywhere(s, r, g) else 0
    E.rule_came_up(log, E.CARD_NUMBER_RULES[card])
    came_up(log, L.UP_INTRIGUE_CASTILLO)  # the Castillo among the places, or not
    placed = 0
    for _ in range(s.card_number[card]):
        if s.court[p] == 0:
            break
        decided(s, place_options(allowed, True))
        g = trials.choose_place(s, r, p, plans, rng, L.P_PLACE, allowed, 0, True)
        if g < 0:
            break
        E.place(s, p, g, log)
        placed += 1
        allowed[FRANCIA] = 1 if may_place_anywhere(s, r, FRANCIA) else 0
    if placed == 0:
        record(log, L.NO_EFFECT, p, card, L.NO_CABALLERO)


@compiled
def all_out_of_one_region(s, r, plans, rng, log, p, card):
    """All of ``p``'s Caballeros out of one region (each to a place its owner picks); the Grand
    Inquisitor's holder's black ones there (the expansion) go too, after his own, each to
    a place he picks (``expansion.black_all_out``; by 'may_leave' he may stop), and a region
    where only black ones of his stand may be chosen."""
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    k = 0
    for g in range(N_PLACES):
        mine = s.cab[p, g] > 0 or black_all_out(s, r, p, g) > 0
        allowed[g] = 1 if mine and may_move_through(s, r, g) else 0
        k += allowed[g]
    if k == 0:
        record(log, L.NO_EFFECT, p, card, L.NO_CABALLERO)
        return
    decided(s, place_options(allowed, True))
    came_up(log, L.UP_INTRIGUE_CASTILLO)  # the Castillo among the places, or not
    a = trials.choose_place(s, r, p, plans, rng, L.P_ALL_OUT, allowed, 0, True)
    if a < 0:
        return
    if s.inquisitor == p and s.cab[BLACK, a] > 0:
        came_up(log, L.UP_ALL_OUT_TAKES_BLACK)
    to = np.zeros(N_PLACES + 1, dtype=np.int64)
    for g in range(N_PLACES):
        to[g] = 1 if g != a and may_enter(s, r, g) else 0
    while s.cab[p, a] > 0:
        to[FRANCIA] = 1 if a != FRANCIA and may_enter(s, r, FRANCIA) else 0
        decided(s, place_options(to, False))
        b = trials.choose_place(s, r, p, plans, rng, L.P_DESTINATION, to, a, False)
        E.move(s, p, a, b, p, log)
    may_leave = r.all_out_takes_black == ALL_OUT_BLACK_MAY_LEAVE
    for _ in range(black_all_out(s, r, p, a)):
        to[FRANCIA] = 1 if a != FRANCIA and may_enter(s, r, FRANCIA) else 0
        decided(s, place_options(to, may_leave))
        b = trials.choose_place(s, r, p, plans, rng, L.P_DESTINATION_BLACK, to, a,
                                 may_leave)
        if b < 0:
            break
        E.move(s, BLACK, a, b, p, log)


@compiled
def secret_picks(s, r, plans, rng, log, purpose, players_from, need, picks):
    """Every player from ``players_from`` on chooses a region secretly (``picks``; -1: none
    qualifies), all before any is revealed; then they are revealed."""
    n = s.n_players
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    for q in range(n):
        picks[q] = -1
        if q < players_from:
            continue
        k = 0
        for g in range(s.n_regions):
            if purpose == L.P_UNIQUE or purpose == L.P_DISC:
                # the disc shows Spain's regions and may name the King's: to the court
                allowed[g] = 1 if g < N_SPAIN else 0
            else:
                allowed[g] = 1 if s.cab[q, g] >= need and g != s.king else 0
            k += allowed[g]
        if k > 0:
            decided(s, k)
            picks[q] = trials.choose_place(s, r, q, plans, rng, purpose, allowed, need, False)
    for q in range(n):
        if picks[q] >= 0:
            record(log, L.SECRET_CHOICE, q, picks[q], secret_kind(purpose))


@compiled
def secret_kind(purpose):
    if purpose == L.P_DISC:
        return L.SECRET_DISC
    if purpose == L.P_SECRET_RETURN:
        return L.SECRET_RETURN_TWO
    if purpose == L.P_SECRET_RETURN_ALL:
        return L.SECRET_RETURN_ALL_
    if purpose == L.P_UNIQUE:
        return L.SECRET_UNIQUE
    return L.SECRET_DESTINATION


@compiled
def stack_2(s, r, plans, rng, log, p, card):
    """Stack 2: the Veto, the returns to the provinces, the scoring of one chosen region."""
    E.rule_came_up(log, E.CARD_NUMBER_RULES[card])
    n = s.n_players
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    if card == VETO:
        s.vetoes[p] += 1
        record(log, L.VETO_HELD, p, s.vetoes[p])
    elif card == OPPONENTS_COURT_HOME or card == OPPONENTS_COURT_3:
        returned = 0
        for q in range(n):
            if q == p:
                continue
            k = s.court[q] if card == OPPONENTS_COURT_HOME else min(s.court[q], s.card_number[card])
            for _ in range(k):
                E.send_home(s, q, L.COURT, log)
                returned += 1
        if returned == 0:
            record(log, L.NO_EFFECT, p, card, L.NOTHING_TO_RETURN)
    elif card == OPPONENTS_ANY_3 or card == OPPONENTS_ONE_EACH:
        # 'each opponent returns 3 from regions and/or court': the owner chooses; 'return 1 of
        # each opponent from the regions': the card's player chooses
        by_owner = card == OPPONENTS_ANY_3
        returned = 0
        for q in range(n):
            if q == p:
                continue
            for _ in range(s.card_number[card]):
                k = 0
                for g in range(s.n_regions):
                    allowed[g] = 1 if s.cab[q, g] > 0 and g != s.king else 0
                    k += allowed[g]
                allowed[L.COURT] = 1 if by_owner and s.court[q] > 0 else 0
                k += allowed[L.COURT]
                if k == 0:
                    break
                decided(s, k)
                if by_owner:
                    g = trials.choose_place(s, r, q, plans, rng, L.P_RETURN_OWN, allowed,
                                             0, False)
                else:
                    g = trials.choose_place(s, r, p, plans, rng, L.P_VICTIM, allowed, q,
                                             False)
                E.send_home(s, q, g, log)
                returned += 1
        if returned == 0:
            record(log, L.NO_EFFECT, p, card, L.NOTHING_TO_RETURN)
    elif card == SECRET_RETURN_2 or card == SECRET_RETURN_ALL:
        picks = np.zeros(MAX_PLAYERS, dtype=np.int64)
        two = card == SECRET_RETURN_2
        purpose = L.P_SECRET_RETURN if two else L.P_SECRET_RETURN_ALL
        secret_picks(s, r, plans, rng, log, purpose, 0, s.card_number[card] if two else 1, picks)
        returned = 0
        for q in range(n):
            if picks[q] < 0:
                continue
            k = s.card_number[card] if two else s.cab[q, picks[q]]
            for _ in range(k):
                E.send_home(s, q, picks[q], log)
                returned += 1
        if returned == 0:
            record(log, L.NO_EFFECT, p, card, L.NOTHING_TO_RETURN)
    else:  # SCORE_CHOSEN_REGION
        score_chosen(s, r, plans, rng, log, p)


@compiled
def score_chosen(s, r, plans, rng, log, p):
    """Score one region the card's player chooses (any region, the King's too)."""
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    allowed[:s.n_regions] = 1
    decided(s, s.n_regions)
    g = trials.choose_place(s, r, p, plans, rng, L.P_SCORE, allowed, 0, False)
    E.score_place(s, r, g, SPECIAL, False, log)
    s.special_scorings += 1


@compiled
def stack_3(s, r, plans, rng, log, p, card):
    """Stack 3: the special scorings."""
    if card == SCORE_CASTILLO:
        E.score_place(s, r, CASTILLO, SPECIAL, False, log)
        s.special_scorings += 1
        return
    if card == SCORE_ANY_REGION:
        score_chosen(s, r, plans, rng, log, p)
        return
    totals = np.zeros(N_REGIONS, dtype=np.int64)
    most = 0
    fewest = 1 << 30
    for g in range(s.n_regions):
        totals[g] = total_caballeros(s, g)
        most = max(most, totals[g])
        if totals[g] > 0:
            fewest = min(fewest, totals[g])
    scored = 0
    for g in range(s.n_regions):
        v = first_value(s, g)
        if card == SCORE_5_POINT_REGIONS:
            hit = v == 5
        elif card == SCORE_4_POINT_REGIONS:
            hit = v == 4
        elif card == SCORE_6_7_POINT_REGIONS:
            hit = v == 6 or v == 7
        elif card == SCORE_FIRST_PLACES:
            hit = True
        elif card == SCORE_MOST_CABALLEROS:
            hit = most > 0 and totals[g] == most
        else:  # SCORE_FEWEST_CABALLEROS
            hit = totals[g] > 0 and totals[g] == fewest
        if hit:
            E.score_place(s, r, g, SPECIAL, card == SCORE_FIRST_PLACES, log)
            scored += 1
    E.special_scoring_done(s, p, card, scored, log)


@compiled
def stack_4_and_king(s, r, plans, rng, log, p, card):
    """Stack 4 and the King's card: scoreboards, Grande, power card, King, dispersal, court,
    the secret unique regions."""
    n = s.n_players
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    if card == MOBILE_SCOREBOARD:
        options = np.zeros(2 * N_REGIONS, dtype=np.int64)
        k = 0
        for m in range(2):
            if s.mobile[m] == s.king:
                continue  # nothing leaves the King's region
            for g in range(s.n_regions):
                if g != s.king and g != s.mobile[0] and g != s.mobile[1]:
                    options[m * N_REGIONS + g] = 1
                    k += 1
        if k == 0:
            record(log, L.NO_EFFECT, p, card, L.NO_SCOREBOARD_MOVE)
            return
        decided(s, k)
        o = trials.choose_scoreboard(s, r, p, plans, rng, options)
        E.move_scoreboard(s, o // N_REGIONS, o % N_REGIONS, log)
    elif card == MOVE_GRANDE:
        if s.grande[p] == s.king:
            record(log, L.NO_EFFECT, p, card, L.GRANDE_STAYS)
            return
        for g in range(s.n_regions):
            allowed[g] = 1 if g != s.king and g != s.grande[p] else 0
        decided(s, place_options(allowed, False))
        E.move_grande(s, p, trials.choose_place(s, r, p, plans, rng, L.P_GRANDE, allowed,
                                                 0, False), log)
    elif card == TAKE_BACK_POWER_CARD:
        came_up(log, L.UP_TAKE_BACK)
        usable = np.zeros(N_POWER + 1, dtype=np.int64)
        k = 0
        for v in range(1, N_POWER + 1):
            if s.power_used[p, v] and (r.take_back != TAKE_BACK_THIS_ROUND
                                       or v == s.power_played[p]):
                usable[v] = 1
                k += 1
        if k == 0:
            record(log, L.NO_EFFECT, p, card, L.NO_POWER_CARD)
            return
        decided(s, k)
        v = players.choose_take_back(s, r, p, plans, rng, usable)
        record(log, L.DECISION, p, L.DECIDE_TAKE_BACK, k, usable[:v].sum())
        s.power_used[p, v] = 0
        record(log, L.POWER_TAKEN_BACK, p, v)
    elif card == KING_TO_NEIGHBOUR or card == KING:
        for g in range(s.n_regions):
            allowed[g] = 1 if g != s.king and king_may_enter(s, g) and (
                card == KING or BORDERS[s.king, g] == 1) else 0
        decided(s, place_options(allowed, False))
        E.move_king(s, trials.choose_place(s, r, p, plans, rng, L.P_KING, allowed, 0,
                                            False), log)
    elif card == OPPONENTS_DISPERSE:
        disperse(s, r, plans, rng, log, p, card)
    elif card == PROVINCES_TO_COURT_2:
        if s.provinces[p] > 0:
            came_up(log, L.UP_PROVINCES_TO_COURT_2_NUMBER)
        if E.to_court(s, p, s.card_number[card], log) == 0:
            record(log, L.NO_EFFECT, p, card, L.PROVINCES_EMPTY)
    else:  # SECRET_UNIQUE_REGIONS
        picks = np.zeros(MAX_PLAYERS, dtype=np.int64)
        secret_picks(s, r, plans, rng, log, L.P_UNIQUE, 0, 0, picks)
        scored = 0
        for g in range(N_SPAIN):
            k = 0
            for q in range(n):
                k += 1 if picks[q] == g else 0
            if k == 1:
                E.score_place(s, r, g, SPECIAL, False, log)
                scored += 1
        E.special_scoring_done(s, p, card, scored, log)


@compiled
def disperse(s, r, plans, rng, log, p, card):
    """The card's player chooses a region; every opponent secretly chooses where all of theirs
    there go (any other region but the King's); then they move."""
    n = s.n_players
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    k = 0
    for g in range(s.n_regions):
        there = 0
        for q in range(n):
            if q != p:
                there += s.cab[q, g]
        allowed[g] = 1 if there > 0 and g != s.king else 0
        k += allowed[g]
    if k == 0:
        record(log, L.NO_EFFECT, p, card, L.NO_REGION)
        return
    decided(s, k)
    a = trials.choose_place(s, r, p, plans, rng, L.P_DISPERSE_FROM, allowed, 0, False)
    picks = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for g in range(s.n_regions):  # all go together: never onto Francia's three spaces
        allowed[g] = 1 if g != a and g != s.king and g != FRANCIA else 0
    for q in range(n):
        picks[q] = -1
        if q != p and s.cab[q, a] > 0:
            decided(s, place_options(allowed, False))
            picks[q] = trials.choose_place(s, r, q, plans, rng, L.P_DISPERSE_TO, allowed,
                                            a, False)
    for q in range(n):
        if picks[q] >= 0:
            record(log, L.SECRET_CHOICE, q, picks[q], L.SECRET_DESTINATION)
            while s.cab[q, a] > 0:
                E.move(s, q, a, picks[q], p, log)


# --- The expansion's action cards: stacks 6 and 7 ---------------------------------------------

@compiled
def stacks_6_and_7(s, r, plans, rng, log, p, card):
    """Holy Inquisition (stack 6); the stack-7 cards (their Gold and Wares laid already:
    ``lay_card_tokens``)."""
    if card == HOLY_INQUISITION:
        # take the Grand Inquisitor card; move up to 2 of his black Caballeros (as any move:
        # never into or out of the King's region; on or off the limit table). The card's
        # three Caballeros are its placement.
        X.take_inquisitor(s, p, log)
        intrigue(s, r, plans, rng, log, p, card)
        return
    if card == EXECUTE_ACTION_CARD:
        hold(s, p, HELD_EXECUTE, log)
    elif card == COPYCAT:
        hold(s, p, HELD_COPYCAT, log)
    elif card == FREE_CHOICE:
        hold(s, p, HELD_FREE_CHOICE, log)
    elif card == SCORE_OUTSIDE_SPAIN:
        X.score_outside_spain(s, r, log)
    elif card == SCORE_BLACK_REGIONS:
        X.score_black_regions(s, r, log, p, card)
    elif card == LIMIT_TABLE:
        X.move_table(s, r, plans, rng, log, p, card)
    else:  # TRANSPORT: a move of the player's own Caballeros
        intrigue(s, r, plans, rng, log, p, card)


@compiled
def hold(s, p, which, log):
    """Execute Action Card, Copycat and Free Choice are kept in front of their player."""
    s.held[p, which] += 1
    record(log, L.CARD_HELD, p, which)


@compiled(inline="always")  # compiled into its caller: see play_turn
def use_execute(s, r, plans, rng, log, p):
    """Execute Action Card, kept: its player may carry out the special action of a face-up
    card still there, which may then not be taken (it is discarded); or keep it."""
    if s.held[p, HELD_EXECUTE] == 0:
        return
    options = cards_face_up(s) + 1  # a face-up card's special action, or keeping the card
    decided(s, options)
    stack = choose_execute(s, r, p, plans, rng)
    # the option's index (0: keep; then the face-up cards in stack order), and the card
    chosen = 0
    if stack >= 0:
        for k in range(stack + 1):
            chosen += 1 if s.face[k] >= 0 else 0
    record(log, L.DECISION, p, L.DECIDE_HELD_CARD, options, chosen, HELD_EXECUTE,
           s.face[stack] if stack >= 0 else -1)
    if stack < 0:
        return
    card = s.face[stack]
    s.face[stack] = -1
    E.rule_came_up(log, E.CARD_COUNT_RULES[card])
    s.held[p, HELD_EXECUTE] -= 1
    record(log, L.HELD_CARD_USED, p, HELD_EXECUTE, card)
    carry_out_kept(s, r, plans, rng, log, p, card)


@compiled
def choose_execute(s, r, p, plans, rng):
    """Execute Action Card: the stack of the face-up card whose special action ``p`` carries out
    now, or -1 to keep the card: each tried on a copy against keeping it, the player valuing
    each."""
    k = 0
    for stack in range(N_STACKS):
        k += 1 if s.face[stack] >= 0 else 0
    if k == 0:
        return -1
    if players.at_random(plans, p):
        return players.random_flag(rng, s.face >= 0, N_STACKS, 1)
    w, coef = players.judge(s, p, plans)
    model = players.mirror(plans, p)
    nl = no_log()
    best = players.value(s, r, p, w, coef) + 1e-9
    pick = -1
    ties = 0
    for stack in range(N_STACKS):
        card = s.face[stack]
        if card < 0:
            continue
        table = copy_of(s)
        x = table[0]
        x.face[stack] = -1
        carry_out_kept(x, r, model, rng, nl, p, card)
        v = players.table_value(table, r, p, w, coef, rng)
        replace, ties = players.better(v, best, ties, rng)
        if replace:
            best, pick = v, stack
    return pick


@compiled  # not inlined: the search's rollouts call it (see play_turn)
def copycat(s, r, plans, rng, log, p):
    """Directly after ``p``'s turn, a holder of Copycat may carry out the special action ``p``
    carried out (with its Gold and Wares), not its placement."""
    card = s.last_special
    if card < 0:
        return
    n = s.n_players
    for i in range(1, n):
        q = (p + i) % n
        if s.held[q, HELD_COPYCAT] <= 0:
            continue
        decided(s, 2)
        copies = copies_card(s, r, q, plans, rng, card)
        record(log, L.DECISION, q, L.DECIDE_HELD_CARD, 2, 1 if copies else 0, HELD_COPYCAT, card)
        if copies:
            s.held[q, HELD_COPYCAT] -= 1
            record(log, L.COPYCAT_ACTION, q, p, card)
            record(log, L.HELD_CARD_USED, q, HELD_COPYCAT, card)
            carry_out_kept(s, r, plans, rng, log, q, card)  # not q's turn: s.acting stays -1
            X.fill_table(s, r, plans, rng, log, table_filler(s, q))  # after every turn's change
            return


@compiled
def copies_card(s, r, q, plans, rng, card):
    """Whether ``q`` spends Copycat on ``card``'s special action: carried out on a copy, the
    player judges whether it leaves the table worth more to it (``strategies.gains``)."""
    if players.at_random(plans, q):
        return players.random_below(rng, 2) == 0
    w, coef = players.judge(s, q, plans)
    table = copy_of(s)
    x = table[0]
    nl = no_log()
    carry_out_kept(x, r, players.mirror(plans, q), rng, nl, q, card)
    return players.gains(s, table, r, q, w, coef)


@compiled(inline="always")  # compiled into its callers: not one more compiled level
def carry_out_kept(s, r, plans, rng, log, p, card):
    """The special action of a card ``p`` executes or copies (Execute Action Card, Copycat), not
    its placement, with its Gold and Wares laid first, as when the card is chosen
    (``lay_card_tokens``). The players try it on copies the same way."""
    lay_card_tokens(s, p, card, log)
    special_action(s, r, plans, rng, log, p, card)


@compiled
def free_choice(s, r, plans, rng, log):
    """Free Choice, kept: after the Castillo's Caballeros have gone by the discs and before the
    regions are scored, its holder may move 2 of its Caballeros."""
    for q in range(s.n_players):
        while s.held[q, HELD_FREE_CHOICE] > 0:
            s.held[q, HELD_FREE_CHOICE] -= 1
            record(log, L.HELD_CARD_USED, q, HELD_FREE_CHOICE, -1)
            # the card from a table, not the constant: numba would compile intrigue and the
            # move choosers below it once more for a constant argument
            intrigue(s, r, plans, rng, log, q, HELD_CARDS[HELD_FREE_CHOICE])


# --- The end of the round, the general scoring ------------------------------------------------

@compiled
def end_of_round(s, r, log):
    """Unused face-up cards are discarded (the King's card comes back); Vetoes not used go
    with them (veto_lasts)."""
    s.face[KING_STACK] = -1
    s.face[INQUISITION_STACK] = -1
    for stack in range(N_STACKS):
        if s.face[stack] >= 0:
            record(log, L.DISCARDED, s.face[stack])
            s.face[stack] = -1
    if s.vetoes.sum() > 0:  # a Veto kept to the round's end: it goes, or stays (veto_lasts)
        came_up(log, L.UP_VETO_LASTS)
    if r.veto_lasts == VETO_ROUND:
        s.vetoes[:] = 0
    s.taken[:] = -1
    s.power_played[:] = 0


@compiled
def general_scoring(s, r, plans, rng, log):
    """Every player's secret region choice on the disc; the Castillo scored; its Caballeros
    moved to the chosen regions (to the court if it is the King's); every region scored."""
    picks = np.zeros(MAX_PLAYERS, dtype=np.int64)
    secret_picks(s, r, plans, rng, log, L.P_DISC, 0, 0, picks)
    E.score_place(s, r, CASTILLO, GENERAL, False, log)
    for q in range(s.n_players):
        if s.cab[q, CASTILLO] > 0:
            E.empty_castillo(s, q, picks[q], log)
    if s.expansion:
        if s.inquisitor >= 0:
            X.black_from_castillo(s, picks[s.inquisitor], log)
        X.fill_table(s, r, plans, rng, log, table_filler(s, s.starter))
        s.castillo_closed = 1  # Free Choice moves between regions: the Castillo is scored
        free_choice(s, r, plans, rng, log)
        s.castillo_closed = 0
        X.fill_table(s, r, plans, rng, log, table_filler(s, s.starter))  # after Free Choice
    for g in range(s.n_regions):
        E.score_place(s, r, g, GENERAL, False, log)


@compiled(inline="always")  # compiled into its caller: see play_turn
def play_round(s, r, plans, rng, log):
    s.round_no += 1
    record(log, L.ROUND, s.round_no)
    turn_up_cards(s, log)
    play_power_cards(s, r, plans, rng, log, 0)
    set_turn_order(s, log)
    play_turns(s, r, plans, rng, log, 0)


@compiled  # not inlined: the search's rollouts call it (see play_turn)
def play_turns(s, r, plans, rng, log, first):
    """The turns in the turn order from the ``first``-th on (0; a search's rollout goes on
    after its own turn), each followed by Copycat (expansion); the end of the round; a general
    scoring when due. A checked run checks the invariants after each turn and the round's end,
    and stops at the first broken (the King's region noted between checks)."""
    kings_region = invariants.new_kings_region()
    if checking(log):
        invariants.note_kings_region(s, kings_region)
    for i in range(first, s.n_players):
        play_turn(s, r, plans, rng, log, s.order[i])
        if s.expansion:
            copycat(s, r, plans, rng, log, s.order[i])
        if checking(log):
            invariants.check(s, r, log, kings_region, False)
        if found_broken(log):
            return
    end_of_round(s, r, log)
    if general_scoring_after(r, s.round_no):
        if s.round_no % r.scoring_every == 0:
            came_up(log, L.UP_SCORING_EVERY)
        general_scoring(s, r, plans, rng, log)
    if s.expansion:  # after the scoring: a Caballero Free Choice moves then came this round
        X.end_of_round(s)
    if checking(log):
        invariants.check(s, r, log, kings_region, True)


@compiled  # not inlined: the search's rollouts call it (see play_turn)
def play_on(s, r, plans, rng, log, last_round):
    """The rounds up to ``last_round`` (how a game goes on, and a search's rollout)."""
    while s.round_no < last_round:
        play_round(s, r, plans, rng, log)


# Compiled into the batch loop, its one caller: as a function of its own, LLVM would optimise
# the whole game below it once more.
@compiled(inline="always")
def play_game(r, n_players, plans, rng, log, mode, leaders):
    """Set up and play the rounds, a round at a time, noting in ``leaders`` who leads by the
    score track after each round; the highest score after the last general scoring wins."""
    table = new_game(r, n_players, plans, rng, log, mode)
    s = table[0]
    while s.round_no < r.rounds:
        played = s.round_no
        play_on(s, r, plans, rng, log, played + 1)
        if s.round_no > played:  # a round was played (play_on always plays one here)
            note_leader(leaders, s.score, n_players)
        if found_broken(log):  # checked after each turn and round (play_turns)
            break
    s.over = 1
    came_up(log, L.UP_ROUNDS)  # the game's length
    sc = s.score
    record(log, L.GAME_END, n_players, sc[0], sc[1], sc[2], sc[3], sc[4])
    if checking(log):  # the end of the game: nothing left noted of the King's region
        invariants.check(s, r, log, invariants.new_kings_region(), True)
    return table
