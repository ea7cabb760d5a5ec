"""GEMMiS: Fures Codice, played by the draft rulebook: setup, the player's turn, the end.

The functions follow the rulebook's order: setting up the game, the player's turn (switch a gem,
got or did not get a combination, triggering it, filling the player zone, moving the main street,
filling the street, cascade combinations), the sack, the small gems, the end of the game and the
winner; the advanced mode and the Alguazil mini-expansion where they act. ``s`` is one game's
state (``board.STATE``), ``r`` the rule numbers (``rules.toml``), ``rng`` the game's random
stream, ``log`` the replay log (empty in batch runs), and ``plans`` the seats' strategies that
every decision is asked of. Where the draft is a heading without text, ``rules.toml`` says what
is played and why (its ``assumption:`` sources and ``[notes]``).
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.rng import shuffle
from simulator.core.trace import came_up, checking, found_broken, record, telling
from simulator.core.unfolding import decided, note_leader
from simulator.games.gemmis import codes as L
from simulator.games.gemmis import invariants
from simulator.games.gemmis.board import (
    ADVANCED, ADVANCED_ALGUAZIL, CANCEL, CASCADE_NEXT_TURN, CELLS, CHANGE_DIRECTION,
    CLEAN_STREET, COLUMNS, EMPTY, EXTRA_IF_NONE_STANDS, FAMILY_ALGUAZIL, INNER, INTERRUPT, JOKER,
    LAST_TURN_EQUAL, LAST_TURN_NONE, LAST_TURN_NO_LIMIT, MAX_CHIPS, MAX_OPTIONS,
    MOVES_EVERY_TURN, N_PLAYERS, N_SMALL_GEMS_ON_TRACK, REFILL_FROM_SACK,
    REFILL_TOUCHING, SACK_INTO_INNER_ROW,
    ROWS, SETUP_CARD, SETUP_DEALT, STREET, SWITCH_IN_ZONE, TAKEN_LAND_EXACTLY, TOWARDS_FIRST,
    USE_EXTRA_SWITCH, alert_available, cell_of, colour_count, combination_options, declare_jokers,
    declared_colour, final_score,
    gem_code, gems_per_colour, jokers_of, mask_values, natural_combination, new_table,
    points_for_size, popcount, small_gem_cell, street_after_move, street_full, street_shifts,
    switches, zone_masks, zone_penalty,
)
from strategies import gemmis as players

# The tally columns (codes.RULES_THAT_COME_UP) of the points of each combination size, from 3,
# and of each small gem's cell on the score track.
POINTS_COME_UP = (L.UP_POINTS_3, L.UP_POINTS_4, L.UP_POINTS_5, L.UP_POINTS_6, L.UP_POINTS_7,
                  L.UP_POINTS_8, L.UP_POINTS_9, L.UP_POINTS_10, L.UP_POINTS_11, L.UP_POINTS_12)
SMALL_GEM_CELLS_COME_UP = (L.UP_SMALL_GEM_CELL_1, L.UP_SMALL_GEM_CELL_2, L.UP_SMALL_GEM_CELL_3)


# --- The sack -----------------------------------------------------------------------------------

@compiled
def refill_sack(s, rng, log):
    """The sack got empty: every gem used in combinations goes back into it, shuffled. (Gems an
    Alguazil put beside the board are not in the used pile: the special case of cleaning.)"""
    if s.used_n == 0:
        record(log, L.SACK_EMPTY)
        return
    for i in range(s.used_n):
        s.sack[s.sack_n] = s.used[i]
        s.sack_n += 1
    record(log, L.SACK_REFILLED, s.used_n)
    s.used_n = 0
    s.sack_refills += 1
    shuffle(rng, s.sack, s.sack_n)


@compiled
def draw(s, rng, log):
    """A random gem from the sack (EMPTY if none is left anywhere). The caller logs where the
    gem goes, then calls ``sack_emptied``."""
    if s.sack_n == 0:  # emptied when nothing had been used yet: perhaps something has now
        refill_sack(s, rng, log)
        if s.sack_n == 0:
            return EMPTY
    s.sack_n -= 1
    return s.sack[s.sack_n]


@compiled
def sack_emptied(s, rng, log):
    """The sack is refilled the moment it gets empty ('at any moment of the game'): after the
    last gem's draw is logged, so the log tells the gems in the sack right at every step."""
    if s.sack_n == 0:
        refill_sack(s, rng, log)


@compiled
def put_into_sack(s, rng, chip):
    """A gem back into the sack (a sack is shaken: no gem has a place in it)."""
    s.sack[s.sack_n] = chip
    s.sack_n += 1
    shuffle(rng, s.sack, s.sack_n)


# --- Setting up the game ------------------------------------------------------------------------

@compiled
def make_chips(s, r):
    """The 70 chips: every colour's plain gems and gems with printed values 1, 2 and 3, then the
    jokers (numbered in that order)."""
    n = 0
    per = gems_per_colour(r)
    for colour in range(r.colours):
        for value in range(4):
            for _ in range(per[value]):
                s.chip_colour[n] = colour
                s.chip_value[n] = value
                n += 1
    for _ in range(r.jokers):
        s.chip_colour[n] = JOKER
        s.chip_value[n] = 0
        n += 1
    s.n_chips = n


@compiled
def completes_a_run(zone, s, cell, colour):
    """Whether a gem of ``colour`` at ``cell`` would stand third in a row with the two before it."""
    column = cell % COLUMNS
    if column < 2:
        return False
    left, further = zone[cell - 1], zone[cell - 2]
    return s.chip_colour[left] == colour and s.chip_colour[further] == colour


@compiled
def new_game(r, mode, plans, rng, log):
    """Setting up the game: the initial gems (only gems without a printed number), the rest of
    the chips shuffled in the sack, the small gems on the score track, and the first player
    (seat 0: seats are numbered from the player chosen at random to start) opens the market."""
    table = new_table()
    s = table[0]
    s.advanced = 1 if mode == ADVANCED or mode == ADVANCED_ALGUAZIL else 0
    s.alguazil = 1 if mode == FAMILY_ALGUAZIL or mode == ADVANCED_ALGUAZIL else 0
    s.n_colours = r.colours
    s.market_open = 1
    s.closer = -1
    s.zone[:, :] = EMPTY
    s.street[:] = EMPTY
    make_chips(s, r)
    record(log, L.SETUP, mode, s.n_chips, s.n_colours, r.setup, r.closing_score,
           alert_available(r))
    placed = np.zeros(MAX_CHIPS, dtype=np.int64)
    if r.setup == SETUP_DEALT:
        deal_zones(s, r, rng, placed)
    else:
        lay_out_card(s, placed)
    for p in range(N_PLAYERS):
        for cell in range(CELLS):
            record(log, L.ZONE_GEM, p, cell, gem_code(s, s.zone[p, cell]))
    for chip in range(s.n_chips):
        if not placed[chip]:
            s.sack[s.sack_n] = chip
            s.sack_n += 1
    shuffle(rng, s.sack, s.sack_n)
    for k in range(N_SMALL_GEMS_ON_TRACK):
        s.small_gem_on_cell[k] = 1
        record(log, L.SMALL_GEM_PLACED, small_gem_cell(r, k))
    fill_street(s, r, rng, log, L.BY_OPENING)
    return table


@compiled
def lay_out_card(s, placed):
    """The initial setup card: the same layout in both zones, each seen from its owner's seat
    (columns count from the first player's left, so the second zone's rows run backwards)."""
    for p in range(N_PLAYERS):
        for row in range(ROWS):
            for k in range(COLUMNS):
                colour = SETUP_CARD[row, k]
                column = k if p == 0 else COLUMNS - 1 - k
                for chip in range(s.n_chips):
                    if not placed[chip] and s.chip_colour[chip] == colour and s.chip_value[chip] == 0:
                        placed[chip] = 1
                        s.zone[p, cell_of(row, column)] = chip
                        break


@compiled
def deal_zones(s, r, rng, placed):
    """setup = dealt: plain gems drawn at random into the zones, each one that would make a run
    of three put back for another (any colour will do when no other is left)."""
    plain = np.empty(MAX_CHIPS, dtype=np.int64)
    n = 0
    for chip in range(s.n_chips):
        if s.chip_colour[chip] != JOKER and s.chip_value[chip] == 0:
            plain[n] = chip
            n += 1
    shuffle(rng, plain, n)
    k = 0
    for p in range(N_PLAYERS):
        for cell in range(CELLS):
            pick = k
            for i in range(k, n):
                if not completes_a_run(s.zone[p], s, cell, s.chip_colour[plain[i]]):
                    pick = i
                    break
            plain[k], plain[pick] = plain[pick], plain[k]
            s.zone[p, cell] = plain[k]
            placed[plain[k]] = 1
            k += 1


# --- The player's turn: 1. switch a gem -----------------------------------------------------------

@compiled
def switch(s, log, p, kind, a, b, code):
    """Two connected gems change places (a zone gem and a street gem, or two zone gems)."""
    if kind == SWITCH_IN_ZONE:
        record(log, code, p, kind, a, b, gem_code(s, s.zone[p, a]), gem_code(s, s.zone[p, b]))
        s.zone[p, a], s.zone[p, b] = s.zone[p, b], s.zone[p, a]
    else:
        record(log, code, p, kind, a, b, gem_code(s, s.zone[p, a]), gem_code(s, s.street[b]))
        s.zone[p, a], s.street[b] = s.street[b], s.zone[p, a]
    s.switches[p] += 1


@compiled
def switch_step(s, r, plans, rng, log):
    """The first thing a player always does: switch two connected gems (the turn's main
    decision)."""
    p = s.player
    options = s.turn_switches
    came_up(log, L.UP_SWAP_RULE)
    n = switches(s, r, p, s.street, options)
    if n == 0:
        record(log, L.NO_SWITCH, p)
        return
    decided(s, n)
    i = players.choose_switch(s, r, p, plans, rng, options, n)
    record(log, L.OPTIONS, p, L.DECIDE_SWITCH, n, i)
    switch(s, log, p, options[i, 0], options[i, 1], options[i, 2], L.SWITCH)


@compiled
def small_gem_switches(s, r, plans, rng, log):
    """Small gems (small_gem_use = extra_switch): each one spent buys one more switch right after
    the first, up to small_gems_per_turn in a turn, and with no limit in a last turn (after the
    market closed) under small_gem_last_turn = no_limit; under small_gem_switch_when =
    no_combination_stands only while the zone holds no combination (one got is triggered at
    once)."""
    p = s.player
    if s.small_gems[p] == s.small_gems_used[p]:
        return
    came_up(log, L.UP_SMALL_GEM_USE)
    if r.small_gem_use != USE_EXTRA_SWITCH:
        return
    if s.market_open == 0:
        came_up(log, L.UP_SMALL_GEM_LAST_TURN)
    no_limit = s.market_open == 0 and r.small_gem_last_turn == LAST_TURN_NO_LIMIT
    while s.small_gems[p] > s.small_gems_used[p]:
        if not no_limit:
            came_up(log, L.UP_SMALL_GEMS_PER_TURN)
            if s.small_gems_this_turn >= r.small_gems_per_turn:
                return
        if natural_combination(zone_masks(s, p)) != 0:
            came_up(log, L.UP_SMALL_GEM_SWITCH_WHEN)
            if r.small_gem_switch_when == EXTRA_IF_NONE_STANDS:
                return
        options = s.turn_switches
        came_up(log, L.UP_SWAP_RULE)
        n = switches(s, r, p, s.street, options)
        if n == 0:
            return
        decided(s, n + 1)  # one of the n switches, or keep the small gem
        i = players.choose_extra_switch(s, r, p, plans, rng, options, n)
        if i < 0:
            record(log, L.SMALL_GEM_KEPT, p, s.small_gems[p] - s.small_gems_used[p])
            return
        record(log, L.OPTIONS, p, L.DECIDE_EXTRA_SWITCH, n, i)
        s.small_gems_used[p] += 1
        s.small_gems_this_turn += 1
        switch(s, log, p, options[i, 0], options[i, 1], options[i, 2], L.SMALL_GEM_SWITCH)


# --- 2. got a combination, or did not; 3. triggering it --------------------------------------------

@compiled
def combinations_and_cascades(s, r, plans, rng, log):
    """After the switch: a combination got is triggered, the zone and the street are refilled,
    and every combination the refill makes is triggered in cascade, until none stands (advanced
    mode: until one is not bigger than the last) or the cascade_limit is reached."""
    while s.cascade < r.cascade_limit:
        if not combination_step(s, r, plans, rng, log):
            if s.cascade == 0 and s.market_open:
                came_up(log, L.UP_STREET_MOVING)
            if s.cascade == 0 and r.street_moving == MOVES_EVERY_TURN:
                move_street(s, r, plans, rng, log)  # no combination: the street moves all the same
                if s.market_open:
                    fill_street(s, r, rng, log, L.BY_REFILL)
            return
        move_street(s, r, plans, rng, log)
        next_combination(s, r, rng, log)
    came_up(log, L.UP_CASCADE_LIMIT)
    record(log, L.CASCADE_LIMIT, s.player, s.cascade)


@compiled
def next_combination(s, r, rng, log):
    """Filling the street's empty places, then on to the cascade check."""
    if s.market_open:
        fill_street(s, r, rng, log, L.BY_REFILL)
    s.cascade += 1


@compiled
def combination_step(s, r, plans, rng, log):
    """Got a combination or did not: a combination got is mandatory and triggered at once, the
    jokers' colours being the player's choice ("not this colour" to keep building); then the
    zone is refilled. Returns whether a combination was triggered."""
    p = s.player
    masks = zone_masks(s, p)
    if jokers_of(masks) == 0 and natural_combination(masks) == 0:  # no options to list
        record(log, L.NO_COMBINATION, p, s.cascade)
        return False
    option_masks = np.empty(MAX_OPTIONS, dtype=np.int64)
    option_colours = np.empty(MAX_OPTIONS, dtype=np.int64)
    n = combination_options(masks, option_masks, option_colours, s.work)
    natural = option_masks[0]
    # Advanced mode: a cascade must be bigger than the turn's last combination.
    least = s.last_size + 1 if (s.advanced and s.cascade > 0) else 3
    m = 0
    for i in range(n):
        if option_masks[i] and popcount(option_masks[i]) >= least:
            option_masks[m] = option_masks[i]
            option_colours[m] = option_colours[i]
            m += 1
    mandatory = natural != 0 and popcount(natural) >= least
    if m == 0:
        if natural:  # advanced: a cascade too small stays in the zone
            record(log, L.LEFT_STANDING, p, popcount(natural), s.last_size)
            s.left_standing[p] += 1
        else:
            record(log, L.NO_COMBINATION, p, s.cascade)
        return False
    if s.cascade > 0:
        came_up(log, L.UP_CASCADES)
    if s.cascade > 0 and r.cascades == CASCADE_NEXT_TURN:
        record(log, L.DEFERRED, p, popcount(option_masks[0]))
        s.left_standing[p] += 1
        return False
    decided(s, m + (0 if mandatory else 1))  # the m combinations, or (jokers only) none
    i = players.choose_combination(s, r, p, plans, rng, masks, option_masks, option_colours, m,
                                   mandatory)
    record(log, L.OPTIONS, p, L.DECIDE_COMBINATION, m + (0 if mandatory else 1),
           i if i >= 0 else m)
    if i < 0:  # every joker declared "not this colour": nothing is triggered
        record(log, L.KEPT, p, m)
        s.kept[p] += 1
        return False
    if alguazil_interrupts(s, r, plans, rng, log, masks, option_masks[i]):
        return False
    trigger(s, r, rng, log, p, masks, option_masks[i], option_colours[i], s.cascade)
    fill_zone(s, r, plans, rng, log, p)
    return True


@compiled
def trigger(s, r, rng, log, p, masks, mask, colours, cascade):
    """Triggering a combination: its points (the table's for its size, plus the gems' printed
    values) counted at once on the track; its gems go beside the board, used."""
    size = popcount(mask)
    table_points = points_for_size(r, size)
    came_up(log, POINTS_COME_UP[size - 3])
    values = mask_values(masks, mask)
    record(log, L.COMBINATION, p, size, table_points, values, mask, cascade)
    jokers = jokers_of(masks) & mask
    if jokers and telling(log):  # (a batch run records nothing: no declaration to find)
        # each joker is told in the colour of a declaration that makes this combination (the
        # gem nearest it need not be in its run: red red red joker amber amber makes it amber)
        declare_jokers(masks, mask, s.work)
        j = 0
        for cell in range(CELLS):
            if jokers_of(masks) >> cell & 1:
                if mask >> cell & 1:
                    record(log, L.JOKER_COLOUR, p, cell, declared_colour(s.work, j, cell))
                j += 1
    for cell in range(CELLS):
        if mask >> cell & 1:
            s.used[s.used_n] = s.zone[p, cell]
            s.used_n += 1
            s.zone[p, cell] = EMPTY
    s.combinations[p, size] += 1
    s.points_sizes[p] += table_points
    s.points_values[p] += values
    s.jokers_used[p] += popcount(jokers)
    s.biggest[p] = max(s.biggest[p], size)
    if cascade > 0:
        s.cascades[p] += 1
    if colour_count(colours) >= 2:
        s.multi_colour[p] += 1
    if mask & ((1 << COLUMNS) - 1) and mask >> COLUMNS:
        s.two_rows[p] += 1
    s.last_size = size
    move_marker(s, r, log, p, table_points + values)
    if s.alguazil:
        raise_alert(s, r, log, 1 - p)


@compiled
def move_marker(s, r, log, p, points):
    """The player's small gem moves on the score track; it may take a small gem from a corner
    (small_gem_taken) and close the market (closing_score)."""
    before = s.points[p]
    after = before + points
    s.points[p] = after
    record(log, L.POINTS, p, before, after)
    for k in range(N_SMALL_GEMS_ON_TRACK):
        cell = small_gem_cell(r, k)
        if not s.small_gem_on_cell[k]:
            continue
        if before < cell <= after or after == cell:
            came_up(log, SMALL_GEM_CELLS_COME_UP[k])
        if before < cell < after or before == after == cell:  # the two readings differ
            came_up(log, L.UP_SMALL_GEM_TAKEN)
        if r.small_gem_taken == TAKEN_LAND_EXACTLY:
            reached = after == cell
        else:
            reached = before < cell <= after
        if reached:
            s.small_gem_on_cell[k] = 0
            s.small_gems[p] += 1
            record(log, L.SMALL_GEM_TAKEN, p, cell, s.small_gems[p])
    if s.market_open and after >= r.closing_score:
        close_market(s, r, log, p)


# --- 4. filling the player zone (making decisions) -------------------------------------------------

@compiled
def fill_zone(s, r, plans, rng, log, p):
    """Filling the empty places of the zone, by zone_refill. street_touching: the zone fills from
    the street side: an inner-row gem slides out into the empty outer cell of its column, and an
    empty inner-row cell takes one of the two street gems it touches, the player deciding which
    cell takes which gem and in what order; an inner cell no street gem touches is filled from
    the sack, and that gem too slides out into an empty outer cell above it, the inner cell then
    taking another (sack_into_zone = inner_row; empty_cell: the sack fills outer cells too).
    street_choice: the player takes any street gems into any empty places (the rest from the
    sack when the street runs out). sack: they come blind from the sack, in cell order. A closed
    market's street is not refilled, so places it cannot fill stay empty."""
    came_up(log, L.UP_ZONE_REFILL)
    if r.zone_refill != REFILL_FROM_SACK:
        while True:
            settle(s, r, log, p)
            place, cell, n, chosen = players.choose_fill(s, r, p, plans, rng)
            if cell < 0:
                break
            decided(s, n)  # the (street gem, zone place) pairs: counted once the player tells n
            record(log, L.OPTIONS, p, L.DECIDE_FILL, n, chosen)
            s.zone[p, cell] = s.street[place]
            s.street[place] = EMPTY
            record(log, L.ZONE_FILLED, p, cell, gem_code(s, s.zone[p, cell]), L.FROM_STREET, place)
        if not s.market_open:
            left = 0
            for cell in range(CELLS):
                if s.zone[p, cell] == EMPTY:
                    left += 1
            if left:
                record(log, L.ZONE_LEFT_EMPTY, p, left)
            return
    # street_touching with sack_into_zone = inner_row: only inner cells take gems from the sack,
    # an outer cell being filled by the gem sliding out beneath it (rules.toml says why)
    if r.zone_refill == REFILL_TOUCHING:
        for column in range(COLUMNS):
            if s.zone[p, cell_of(0, column)] == EMPTY:  # an outer cell the sack may fill
                came_up(log, L.UP_SACK_INTO_ZONE)
                break
    through_inner = r.zone_refill == REFILL_TOUCHING and r.sack_into_zone == SACK_INTO_INNER_ROW
    first = COLUMNS if through_inner else 0
    for _ in range(ROWS):
        for cell in range(CELLS - 1, first - 1, -1):  # inner row first: it settles outward
            if s.zone[p, cell] == EMPTY:
                chip = draw(s, rng, log)
                if chip == EMPTY:
                    return
                s.zone[p, cell] = chip
                record(log, L.ZONE_FILLED, p, cell, gem_code(s, chip), L.FROM_SACK, -1)
                sack_emptied(s, rng, log)
        settle(s, r, log, p)


@compiled
def settle(s, r, log, p):
    """street_touching: every inner-row gem above an empty outer cell slides out into it."""
    if r.zone_refill != REFILL_TOUCHING:
        return
    for column in range(COLUMNS):
        outer, inner = cell_of(0, column), cell_of(INNER, column)
        if s.zone[p, outer] == EMPTY and s.zone[p, inner] != EMPTY:
            s.zone[p, outer] = s.zone[p, inner]
            s.zone[p, inner] = EMPTY
            record(log, L.ZONE_SETTLED, p, inner, outer, gem_code(s, s.zone[p, outer]))


# --- 5. moving the main street of the market; 6. filling it ----------------------------------------

@compiled
def move_street(s, r, plans, rng, log):
    """The player chooses the way the street moves (the opponent's Alguazil may change it): its
    gems close the gaps left by the gems taken, gathering the empty places at the other end
    (and one place more where it shifts, ``board.street_shifts``: street_move = shift_one, or a
    full street with street_moving = every_turn; the gem pushed off the end goes back into the
    sack)."""
    if not s.market_open:
        record(log, L.STREET_CLOSED)
        return
    if not (r.street_moving == MOVES_EVERY_TURN and street_full(s)):  # a full street shifts then
        came_up(log, L.UP_STREET_MOVE)
    if street_full(s) and not street_shifts(s, r):
        record(log, L.STREET_STILL)
        return
    p = s.player
    decided(s, 2)
    direction = players.choose_direction(s, r, p, plans, rng)
    record(log, L.OPTIONS, p, L.DECIDE_DIRECTION, 2, direction)
    street_moves(s, r, plans, rng, log, direction)


@compiled
def street_moves(s, r, plans, rng, log, direction):
    """The street moves the way the player chose, or the other way if the opponent's Alguazil
    changes it."""
    p = s.player
    record(log, L.DIRECTION, p, direction)
    q = 1 - p
    if alguazil_ready(s, r, q):
        decided(s, 2)  # change the direction or not
        if players.changes_direction(s, r, q, plans, rng, direction):
            if use_alguazil(s, r, plans, rng, log, q, CHANGE_DIRECTION, 0, direction):
                direction = 1 - direction
                record(log, L.DIRECTION_CHANGED, q, direction)
    gaps = 0
    for place in range(STREET):
        if s.street[place] == EMPTY:
            gaps += 1
    shift = street_shifts(s, r)
    moved = s.moved_street
    street_after_move(s.street, direction, moved)
    s.street[:] = moved
    if shift:
        end = 0 if direction == TOWARDS_FIRST else STREET - 1
        pushed = s.street[end]
        if pushed != EMPTY:
            record(log, L.STREET_GEM_RETURNED, gem_code(s, pushed), end)
            put_into_sack(s, rng, pushed)
            s.street[end] = EMPTY
            street_after_move(s.street, direction, moved)
            s.street[:] = moved
    record(log, L.STREET_MOVED, direction, 1 if shift else 0, gaps)
    s.street_moves += 1


@compiled
def fill_street(s, r, rng, log, cause):
    """Every empty place of the street gets a random gem from the sack."""
    for place in range(STREET):
        if s.street[place] != EMPTY:
            continue
        chip = draw(s, rng, log)
        if chip == EMPTY:
            record(log, L.STREET_LEFT_EMPTY, place)
            continue
        s.street[place] = chip
        record(log, L.STREET_FILLED, place, gem_code(s, chip), cause)
        sack_emptied(s, rng, log)


# --- The Alguazil mini-expansion ---------------------------------------------------------------------

@compiled
def raise_alert(s, r, log, q):
    """Any time the opponent triggers a combination, the alert goes up one level (to the top)."""
    top = alert_available(r)
    came_up(log, L.UP_ALGUAZIL_LEVELS)
    if s.alert[q] < top:
        s.alert[q] += 1
    record(log, L.ALERT, q, s.alert[q], top)


@compiled
def alguazil_ready(s, r, q):
    """An Alguazil can act: the mini-expansion is in play, it is at the top of its thermometer,
    and the market is still open."""
    return s.alguazil == 1 and s.market_open == 1 and s.alert[q] >= alert_available(r)


@compiled
def use_alguazil(s, r, plans, rng, log, user, skill, mask, direction):
    """``user`` uses a skill; the other player's available Alguazil may cancel it (both then
    drop to the lowest level). Returns whether the skill takes effect. ``mask`` is the
    combination an interruption stops, ``direction`` the one a change of direction reverses."""
    record(log, L.ALGUAZIL_USED, user, skill)
    s.alguazil_uses[user, skill] += 1
    other = 1 - user
    if alguazil_ready(s, r, other):
        decided(s, 2)  # cancel it or not
        if players.cancels(s, r, other, plans, rng, skill, mask, direction):
            s.alguazil_uses[other, CANCEL] += 1
            s.alert[user] = 0
            s.alert[other] = 0
            record(log, L.ALGUAZIL_CANCELLED, other, skill)
            record(log, L.ALERT_AFTER_SKILL, user, s.alert[user], alert_available(r))
            record(log, L.ALERT_AFTER_SKILL, other, s.alert[other], alert_available(r))
            return False
    s.alert[user] = 0
    record(log, L.ALERT_AFTER_SKILL, user, s.alert[user], alert_available(r))
    return True


@compiled
def alguazil_interrupts(s, r, plans, rng, log, masks, mask):
    """Interrupt a combination: as the player with the turn is going to trigger it, the opponent
    may interrupt; it stays in the zone for the player's next turn, and this turn ends."""
    p = s.player
    q = 1 - p
    if not alguazil_ready(s, r, q):
        return False
    decided(s, 2)  # interrupt or not
    if not players.interrupts(s, r, q, plans, rng, masks, mask):
        return False
    if not use_alguazil(s, r, plans, rng, log, q, INTERRUPT, mask, 0):
        return False
    s.interrupted[p] += 1
    record(log, L.INTERRUPTED, p, popcount(mask))
    return True


@compiled
def cleaning_moment(s, r, plans, rng, log):
    """Clean the main street: any time it is totally filled, a player with the Alguazil available
    may clear it. Played at the start of each turn (the player with the turn first, then the
    opponent): the one moment of a turn when the street is sure to be full and a decision on it
    follows (rules.toml [notes] alguazil_cleaning)."""
    p = s.player
    for user in (p, 1 - p):
        if not street_full(s):
            return
        if alguazil_ready(s, r, user):
            decided(s, 2)  # clean the street or not
            if players.cleans_street(s, r, user, plans, rng):
                if use_alguazil(s, r, plans, rng, log, user, CLEAN_STREET, 0, 0):
                    clean_street(s, r, rng, log, user)


@compiled
def clean_street(s, r, rng, log, user):
    """Put beside the board all the street's gems, refill the street from the sack (an empty
    sack is refilled from the used gems, never with those beside the board), then return the
    gems beside the board into the sack."""
    for place in range(STREET):
        s.aside[s.aside_n] = s.street[place]
        s.aside_n += 1
        s.street[place] = EMPTY
    record(log, L.STREET_CLEANED, user, s.aside_n)
    fill_street(s, r, rng, log, L.BY_CLEANING)
    record(log, L.ASIDE_RETURNED, s.aside_n)
    for i in range(s.aside_n):
        s.sack[s.sack_n] = s.aside[i]
        s.sack_n += 1
    s.aside_n = 0
    shuffle(rng, s.sack, s.sack_n)


# --- The end of the game -----------------------------------------------------------------------------

@compiled
def close_market(s, r, log, p):
    """A player reaches closing_score: the market closes at once (the street no longer moves nor
    is refilled; no Alguazil from now on). Then the last turn(s), by last_turn: the opponent
    plays one last turn, or the second player does if the first closed (equal_turns), or none."""
    came_up(log, L.UP_CLOSING_SCORE)
    came_up(log, L.UP_LAST_TURN)
    s.market_open = 0
    s.closer = p
    s.close_turn = s.turn
    if r.last_turn == LAST_TURN_NONE:
        s.final_turns = 0
    elif r.last_turn == LAST_TURN_EQUAL:
        s.final_turns = 1 if p == 0 else 0
    else:
        s.final_turns = 1
    record(log, L.MARKET_CLOSED, p, s.points[p], s.final_turns)


@compiled
def end_turn(s):
    p = s.player
    s.turns_played[p] += 1
    if not s.market_open:
        if s.turn > s.close_turn:
            s.final_turns -= 1
        if s.final_turns <= 0:
            s.over = 1
    s.turn += 1


@compiled
def finish_game(s, r, log):
    """After the last turn: in advanced mode the printed values left in each zone are subtracted;
    unused small gems score small_gem_points each."""
    for p in range(N_PLAYERS):
        if s.advanced:
            s.penalty[p] = zone_penalty(s, p)
            record(log, L.PENALTY, p, s.penalty[p])
        unused = s.small_gems[p] - s.small_gems_used[p]
        if unused > 0:
            came_up(log, L.UP_SMALL_GEM_POINTS)
        if r.small_gem_points > 0 and unused > 0:
            s.points_small_gems[p] = unused * r.small_gem_points
            record(log, L.SMALL_GEM_POINTS, p, unused, s.points_small_gems[p])


# --- A whole game ------------------------------------------------------------------------------------

@compiled
def begin_turn(s, log):
    s.player = s.turn % N_PLAYERS
    s.last_size = 0
    s.cascade = 0
    s.small_gems_this_turn = 0
    record(log, L.TURN, s.player, s.turn, s.points[0], s.points[1])
    if not s.market_open:
        record(log, L.LAST_TURN, s.player)


@compiled
def after_switch(s, r, plans, rng, log):
    """The turn after its switch: small gems' switches, the combinations and cascades."""
    small_gem_switches(s, r, plans, rng, log)
    combinations_and_cascades(s, r, plans, rng, log)
    end_turn(s)


@compiled
def play_turn(s, r, plans, rng, log):
    begin_turn(s, log)
    cleaning_moment(s, r, plans, rng, log)
    switch_step(s, r, plans, rng, log)
    after_switch(s, r, plans, rng, log)


@compiled
def play_on(s, r, plans, rng, log, until_turn):
    """Play turns until the game ends, reaches ``max_turns`` (marked truncated) or turn
    ``until_turn`` (a search's rollout stops there)."""
    while not s.over and s.turn < until_turn:
        if s.turn >= r.max_turns:
            came_up(log, L.UP_MAX_TURNS)
            s.truncated = 1
            record(log, L.TRUNCATED, s.turn)
            break
        play_turn(s, r, plans, rng, log)


# Compiled into the batch loop, its one caller: as a function of its own, LLVM would optimise
# the whole game below it once more.
@compiled(inline="always")
def play_game(r, mode, plans, rng, log, leaders):
    """Set up and play one game to its end (or to ``max_turns``, marked truncated), a turn at a
    time, noting in ``leaders`` who leads by the points on the score track after each turn (the
    final score as it stands: the advanced penalty and the small gems' points come only after
    the last turn, in ``finish_game``). A checked batch checks the invariants after each turn
    and after the final scoring, and stops the game at the first one broken."""
    table = new_game(r, mode, plans, rng, log)
    s = table[0]
    scores = np.zeros(N_PLAYERS, dtype=np.int64)
    while not s.over and not s.truncated:
        turn = s.turn
        play_on(s, r, plans, rng, log, turn + 1)
        for p in range(N_PLAYERS):
            scores[p] = final_score(s, r, p)
        if s.turn > turn:  # not the step that only marks the game truncated
            note_leader(leaders, scores, N_PLAYERS)
        if checking(log):
            invariants.check(s, r, log, False)
            if found_broken(log):
                break
    finish_game(s, r, log)
    if checking(log):
        invariants.check(s, r, log, True)
    record(log, L.GAME_END, s.points[0] - s.penalty[0] + s.points_small_gems[0],
           s.points[1] - s.penalty[1] + s.points_small_gems[1], s.small_gems[0], s.small_gems[1])
    return table
