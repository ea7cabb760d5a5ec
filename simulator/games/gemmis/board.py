"""GEMMiS: the table as numbers, and the questions the rules and the players ask of it.

One game's state is a numpy record of dtype ``STATE`` (layout below, field by field); the rule
numbers are a record of ``rules.toml``'s parameters (``r.closing_score``...). Everything here only
reads the state, except ``new_table``; the rules that change it are in ``turn.py`` (and the
players' kept replies, the ``reply_*`` fields, are written by ``strategies.gemmis.replies_for``).

**Chips.** The 70 plastic chips are numbered; ``chip_colour`` and ``chip_value`` (built at setup
from the rule data) say what each one is: a gem of a colour with a printed value of 0 to 3, or a
joker (colour ``JOKER``, no value).

**Places.** A player zone is two rows of six cells, ``cell = row * 6 + column``: row 0 is the
outer row, row 1 the inner row, beside the market street. Columns and street places are counted
from the first player's left for both zones. The zones are centred on the street of nine, which
reaches one and a half places beyond them on each side, so an inner-row cell of column ``c``
touches the two street places ``c + 1`` and ``c + 2`` (``touching_places``); places 0 and 8
touch no zone (rules.toml [notes] street_geometry).

**Zone masks.** The questions about combinations are answered on bit masks of the 12 cells: one
mask per colour, the jokers' mask and one mask per printed value, so a run of three is three
shifts and two ANDs (``runs``). ``zone_masks`` lays them side by side in 12-bit lanes of three
words, ``(colours 0-4, colours 5-7 and the jokers, printed values 1-3)``: lane ``k`` of a word
holds bits ``12k .. 12k + 11``, and a shift within a row never carries a bit across a lane's
useful cells, so one ``runs`` or switch answers for every colour at once (the players value
thousands of zones a game; the masks of a zone after a switch, and its points, are compiled
into their callers' loops, ``inline="always"``). ``colour_mask`` and ``value_mask`` read one
lane.

Hidden information: only the order of the sack. Zones, street, the used pile, the gems set
aside, scores, small gems and Alguazil levels lie open on the table; what the sack holds can be
counted from them, but not in which order the gems come out.
"""

import numpy as np
from numba import types
from numba.extending import intrinsic, overload

from simulator.core.jit import compiled
from simulator.core.tables import table_factory

N_PLAYERS = 2
ROWS, COLUMNS = 2, 6
CELLS = ROWS * COLUMNS
OUTER, INNER = 0, 1
STREET = 9                 # places in the market street
MAX_COLOURS = 8
MAX_VALUE = 3              # printed values run from 1 to 3 (rules.toml value_N_gems_per_colour)
MAX_CHIPS = 160            # the rule data's chip counts are checked against it
N_SMALL_GEMS_ON_TRACK = 3  # the small gems placed on the score track at setup
EMPTY = -1                 # a cell or street place without a gem
JOKER = MAX_COLOURS        # the colour of a joker chip
FULL = (1 << CELLS) - 1
ROW_MASK = ((1 << COLUMNS) - 1, ((1 << COLUMNS) - 1) << COLUMNS)
COLOUR_NAMES = ("red", "blue", "white", "green", "amber", "purple", "black", "pink")

# zone_masks layout (module docstring): 12-bit lanes, five to a word; colour c in lane c % 5 of
# word c // 5 (the jokers, colour JOKER, in lane 3 of word 1), printed value v in lane v - 1 of
# word VALUES.
LANES = 5
LANE_BITS = sum(1 << (CELLS * k) for k in range(LANES))  # cell 0 of every lane
VALUES = 2
JOKER_LANE = FULL << (CELLS * (JOKER % LANES))           # in word 1
COLOUR_LANES_1 = LANE_BITS * FULL & ~JOKER_LANE          # word 1 less the jokers
NO_MASKS = (0, 0, 0)                                     # an empty zone
# the cells where a run of three can start, in every lane
RUN_STARTS = (0b001111 | (0b001111 << COLUMNS)) * LANE_BITS
ROWS_IN_LANES = (ROW_MASK[0] * LANE_BITS, ROW_MASK[1] * LANE_BITS)

# A joker's colour at trigger time: a colour, NOT_JOINED ("not this colour": it joins no run),
# or OWN_COLOUR (a colour that none of its neighbours has, so that jokers side by side can make
# a run of their own).
NOT_JOINED = -1
OWN_COLOUR = MAX_COLOURS

# The setup card (rules.toml [notes] setup_card): each player's zone as seen from their own seat,
# outer row then inner row, in the colours red 0, blue 1, white 2, green 3, amber 4. The second
# player's zone is the same card seen from the other side of the board (each row reversed).
SETUP_CARD = np.array([[2, 0, 3, 2, 4, 1],
                       [3, 1, 0, 4, 2, 0]], dtype=np.int64)

# Modes (spec.MODES, in order): advanced rules and the Alguazil mini-expansion, each on or off.
FAMILY, ADVANCED, FAMILY_ALGUAZIL, ADVANCED_ALGUAZIL = range(4)
MODE_NAMES = ("family", "advanced", "family_alguazil", "advanced_alguazil")

# How a switch is made (``switches``' rows: kind, a, b).
SWITCH_IN_ZONE, SWITCH_WITH_STREET = 0, 1  # cells a and b; cell a and street place b
MAX_SWITCHES = 32

# Which way the market street moves: towards place 0 or towards place 8.
TOWARDS_FIRST, TOWARDS_LAST = 0, 1
DIRECTION_NAMES = ("towards place 0", "towards place 8")

# The Alguazil's skills (and cancelling one), as counted in the dataset.
INTERRUPT, CLEAN_STREET, CHANGE_DIRECTION, CANCEL = range(4)
SKILL_NAMES = ("interrupt", "clean_street", "change_direction", "cancel")

# rules choices (index into the ``choices`` list of rules.toml)
SETUP_CARD_LAYOUT, SETUP_DEALT = 0, 1                # setup
SWAP_ZONE_AND_STREET, SWAP_OWN_ZONE = 0, 1           # swap_rule
REFILL_TOUCHING, REFILL_FROM_STREET, REFILL_FROM_SACK = 0, 1, 2  # zone_refill
SACK_INTO_INNER_ROW, SACK_INTO_EMPTY_CELL = 0, 1   # sack_into_zone
MOVE_CLOSE_GAPS, MOVE_SHIFT_ONE = 0, 1               # street_move
MOVES_AFTER_COMBINATION, MOVES_EVERY_TURN = 0, 1     # street_moving
CASCADE_SAME_TURN, CASCADE_NEXT_TURN = 0, 1          # cascades
LAST_TURN_OPPONENT, LAST_TURN_EQUAL, LAST_TURN_NONE = 0, 1, 2  # last_turn
TAKEN_REACH_OR_PASS, TAKEN_LAND_EXACTLY = 0, 1       # small_gem_taken
USE_EXTRA_SWITCH, USE_NONE = 0, 1                    # small_gem_use
EXTRA_IF_NONE_STANDS, EXTRA_BEFORE_TRIGGER = 0, 1    # small_gem_switch_when
LAST_TURN_NO_LIMIT, LAST_TURN_PER_TURN_LIMIT = 0, 1  # small_gem_last_turn

GEM_KINDS = (MAX_COLOURS + 1) * (MAX_VALUE + 1)  # a colour (or JOKER) and a printed value
MAX_OPTIONS = 256       # distinct combinations a zone's jokers can make
# The jokers' declarations in ``work`` (the state's): for joker j, how many colours it may be
# declared and which of them it is declared now; from WORK_CHOICES_AT, for each of its (up to
# four) colours, the bits that colour adds to the masks' words (colours 0-4, colours 5-7, the
# jokers' own colour: DECLARED_WORDS words).
WORK_N_CHOICES_AT, WORK_PICK_AT, WORK_CHOICES_AT = 0, CELLS, 2 * CELLS
DECLARED_WORDS = 3
WORK_SIZE = WORK_CHOICES_AT + CELLS * 4 * DECLARED_WORDS

STATE = np.dtype([
    # the game
    ("advanced", np.int64),                  # 1: advanced mode (cascades must grow; penalty)
    ("alguazil", np.int64),                  # 1: the Alguazil mini-expansion is in play
    ("n_colours", np.int64),
    ("n_chips", np.int64),
    ("chip_colour", np.int64, (MAX_CHIPS,)),  # a colour, or JOKER
    ("chip_value", np.int64, (MAX_CHIPS,)),   # printed value (0: none)
    # where the chips are (each chip in exactly one place)
    ("zone", np.int64, (N_PLAYERS, CELLS)),  # chip, or EMPTY
    ("street", np.int64, (STREET,)),         # chip, or EMPTY
    ("sack", np.int64, (MAX_CHIPS,)),        # the sack; the next gem drawn is the last one
    ("sack_n", np.int64),
    ("used", np.int64, (MAX_CHIPS,)),        # the gems used in combinations, beside the board
    ("used_n", np.int64),
    ("aside", np.int64, (STREET,)),          # street gems an Alguazil put aside while cleaning
    ("aside_n", np.int64),
    # the score track
    ("points", np.int64, (N_PLAYERS,)),      # the marker on the track: combinations + values
    ("small_gem_on_cell", np.int64, (N_SMALL_GEMS_ON_TRACK,)),  # 1 while still on the track
    ("small_gems", np.int64, (N_PLAYERS,)),  # small gems taken from the track (used or not)
    ("small_gems_used", np.int64, (N_PLAYERS,)),
    ("alert", np.int64, (N_PLAYERS,)),       # Alguazil alert level, 0 = the lowest
    # the turn
    ("turn", np.int64),                      # turns played so far
    ("player", np.int64),                    # whose turn it is (seat 0 opened the market)
    ("last_size", np.int64),                 # the size of this turn's last combination (0: none)
    ("small_gems_this_turn", np.int64),
    ("cascade", np.int64),                   # combinations triggered so far this turn
    ("market_open", np.int64),
    ("closer", np.int64),                    # who closed the market, or -1
    ("close_turn", np.int64),                # the turn in which it closed
    ("final_turns", np.int64),               # turns still to play once the market is closed
    ("over", np.int64),
    ("truncated", np.int64),
    # what happened, for the dataset
    ("decisions", np.int64),                 # choices among two or more options (core/unfolding.py)
    ("points_sizes", np.int64, (N_PLAYERS,)),   # points from the table, by combination size
    ("points_values", np.int64, (N_PLAYERS,)),  # printed values of the gems in combinations
    ("penalty", np.int64, (N_PLAYERS,)),        # advanced: printed values left in the zone
    ("points_small_gems", np.int64, (N_PLAYERS,)),  # unused small gems at the end
    ("combinations", np.int64, (N_PLAYERS, CELLS + 1)),  # triggered, by size
    ("cascades", np.int64, (N_PLAYERS,)),    # combinations triggered after the turn's first
    ("multi_colour", np.int64, (N_PLAYERS,)),  # combinations of two or more colours
    ("two_rows", np.int64, (N_PLAYERS,)),    # combinations with gems in both rows
    ("jokers_used", np.int64, (N_PLAYERS,)),
    ("kept", np.int64, (N_PLAYERS,)),        # combinations their jokers could make, not made
    ("left_standing", np.int64, (N_PLAYERS,)),  # cascades too small (advanced) or deferred
    ("biggest", np.int64, (N_PLAYERS,)),
    ("alguazil_uses", np.int64, (N_PLAYERS, 4)),  # by skill (INTERRUPT ... CANCEL)
    ("interrupted", np.int64, (N_PLAYERS,)),  # their combinations an Alguazil interrupted
    ("switches", np.int64, (N_PLAYERS,)),
    ("turns_played", np.int64, (N_PLAYERS,)),
    ("sack_refills", np.int64),
    ("street_moves", np.int64),
    # what the players' valuation keeps while a zone is unchanged (no part of the game): the
    # points the switches of player ``reply_for - 1`` (0: none yet), whose zone was
    # ``reply_zone``, could score within the zone, and with each kind of street gem (GEM_KINDS)
    # for the inner gem of each column (-1: not valued yet); strategies.gemmis.replies_for
    ("reply_for", np.int64),
    ("reply_zone", np.int64, (CELLS,)),
    ("reply_zone_points", np.int64),
    ("reply_street_points", np.int64, (COLUMNS, GEM_KINDS)),
    # scratch space, no part of the game, kept here so that the turn and its decisions allocate
    # nothing (thousands of small arrays a game): the jokers' declarations (``joker_choices``);
    # the turn's legal switches and what each is worth (``switch_step``, ``small_gem_switches``);
    # the opponent's switches (``strategies.gemmis``: a player's replies); the street after a
    # move; the (street place, zone cell) pairs a fill may take
    ("work", np.int64, (WORK_SIZE,)),
    ("turn_switches", np.int64, (MAX_SWITCHES, 3)),
    ("turn_values", np.float64, (MAX_SWITCHES,)),
    ("turn_replies", np.int64, (MAX_SWITCHES,)),  # the opponent's best reply to each switch
    ("replies", np.int64, (MAX_SWITCHES, 3)),
    ("moved_street", np.int64, (STREET,)),
    ("fill_pairs", np.int64, (STREET * CELLS, 2)),
])

new_table, copy_of = table_factory(STATE)


# --- rule lookups ---------------------------------------------------------------------------

@compiled
def points_for_size(r, size):
    """Puncta Gemmarum: the points of a combination of ``size`` gems (none below three)."""
    return r.combination_points[size]


@compiled
def gems_per_colour(r):
    """(plain, value 1, value 2, value 3) gems of every colour."""
    return r.gems_per_colour


@compiled
def chip_count(r):
    """The chips in the game: every colour's gems and the jokers (70 by the rule data)."""
    per = gems_per_colour(r)
    return r.colours * (per[0] + per[1] + per[2] + per[3]) + r.jokers


@compiled
def small_gem_cell(r, k):
    return r.small_gem_cells[k]


@compiled
def alert_available(r):
    """The alert level at which an Alguazil is available: the top of the thermometer."""
    return r.alguazil_levels - 1


# --- places ----------------------------------------------------------------------------------

@compiled
def touching_places(column):
    """The two street places an inner-row cell of ``column`` touches."""
    return column + 1, column + 2


@compiled
def cell_of(row, column):
    return row * COLUMNS + column


@compiled
def fill_allowed(s, r, p, place, cell):
    """Whether ``p`` may fill the empty ``cell`` of their zone with the gem at street ``place``:
    any gem into any empty place (zone_refill = street_choice), or (street_touching) a gem of
    one of the two street places an empty inner-row cell touches."""
    if s.zone[p, cell] != EMPTY or s.street[place] == EMPTY:
        return False
    if r.zone_refill == REFILL_FROM_STREET:
        return True
    if r.zone_refill != REFILL_TOUCHING or cell < COLUMNS:
        return False
    a, b = touching_places(cell - COLUMNS)
    return place == a or place == b


@compiled
def landing_cell(s, r, p, cell):
    """Where a gem put into ``p``'s ``cell`` comes to rest: with zone_refill = street_touching an
    inner-row gem slides out into an empty outer cell of its column (the zone fills from the
    street side); else where it is put."""
    if r.zone_refill == REFILL_TOUCHING and cell >= COLUMNS and s.zone[p, cell - COLUMNS] == EMPTY:
        return cell - COLUMNS
    return cell


@compiled
def street_full(s):
    for k in range(STREET):
        if s.street[k] == EMPTY:
            return False
    return True


@compiled
def street_shifts(s, r):
    """Whether the street, as it is, moves one place further than its gaps when it moves (the
    gem pushed off the end going back into the sack): with street_move = shift_one always;
    with street_moving = every_turn when it is full, as it has no gap to close."""
    return r.street_move == MOVE_SHIFT_ONE or (r.street_moving == MOVES_EVERY_TURN and
                                               street_full(s))


@compiled
def gem_kind(s, chip):
    """What the combinations see of a chip (0 .. GEM_KINDS - 1): its colour and printed value."""
    return s.chip_colour[chip] * (MAX_VALUE + 1) + s.chip_value[chip]


@compiled
def gem_code(s, chip):
    """A gem as the replay names it: colour * 10 + printed value (a joker: JOKER * 10; none: -1)."""
    if chip == EMPTY:
        return -1
    return s.chip_colour[chip] * 10 + s.chip_value[chip]


# --- zone masks ------------------------------------------------------------------------------

def bit_count(x):
    """The set bits of the integer ``x``: Python's own count when interpreted
    (NUMBA_DISABLE_JIT), the processor's instruction when compiled."""
    return int(x).bit_count()


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@overload(bit_count, jit_options={"cache": True})
def _bit_count(x):
    return lambda x: _ctpop(x)


@compiled
def popcount(mask):
    """The set bits of ``mask``: cells, or cells in every lane of a word."""
    return bit_count(np.int64(mask))


@compiled
def colour_mask(masks, colour):
    """The cells of a colour's gems (or JOKER's)."""
    return (masks[colour // LANES] >> (CELLS * (colour % LANES))) & FULL


@compiled
def jokers_of(masks):
    return colour_mask(masks, JOKER)


@compiled
def value_mask(masks, value):
    """The cells of the gems printed ``value`` (1 to 3)."""
    return (masks[VALUES] >> (CELLS * (value - 1))) & FULL


@compiled(inline="always")
def put_in_masks(s, masks, cell, chip):
    """``masks`` with ``chip`` marked at ``cell`` (the cell's bits were clear)."""
    if chip == EMPTY:
        return masks
    low, high, values = masks
    colour = s.chip_colour[chip]
    bit = np.int64(1) << (CELLS * (colour % LANES) + cell)
    if colour < LANES:
        low |= bit
    else:
        high |= bit
    v = s.chip_value[chip]
    values |= np.int64(v > 0) << (CELLS * max(v - 1, 0) + cell)  # no branch: printed or not
    return low, high, values


@compiled
def masks_of(s, cells):
    """The masks of a zone's ``cells`` (12 chips or EMPTY)."""
    masks = NO_MASKS
    for cell in range(CELLS):
        masks = put_in_masks(s, masks, cell, cells[cell])
    return masks


@compiled
def zone_masks(s, p):
    return masks_of(s, s.zone[p])


@compiled
def runs(m):
    """The cells of ``m`` that lie in a horizontal run of three or more (in either row; in
    every lane of a word)."""
    t = m & (m >> 1) & (m >> 2) & RUN_STARTS
    return t | (t << 1) | (t << 2)


@compiled
def lanes_together(m):
    """The cells set in any lane of ``m``."""
    return (m | (m >> CELLS) | (m >> (2 * CELLS)) | (m >> (3 * CELLS)) |
            (m >> (4 * CELLS))) & FULL


@compiled
def lanes_set(m, first):
    """A bit per colour (``first`` for lane 0) whose lane of ``m`` is not empty."""
    colours = 0
    for k in range(LANES):
        if (m >> (CELLS * k)) & FULL:
            colours |= 1 << (first + k)
    return colours


@compiled
def runs_cells(low, high, own):
    """The cells of the runs ``low`` and ``high`` (words of lanes) and ``own`` (the jokers' own
    colour)."""
    return own | lanes_together(low | high)


@compiled
def runs_colours(low, high, own):
    """A bit per colour with a run (bit OWN_COLOUR for the jokers' own)."""
    return lanes_set(low, 0) | lanes_set(high, LANES) | ((1 << OWN_COLOUR) if own else 0)


@compiled
def natural_combination(masks):
    """The cells in runs of three or more gems of one colour, jokers left out."""
    return runs_cells(runs(masks[0]), runs(masks[1] & COLOUR_LANES_1), 0)


@compiled
def mask_values(masks, mask):
    """The printed values of the gems in ``mask``."""
    return popcount(mask & value_mask(masks, 1)) + 2 * popcount(mask & value_mask(masks, 2)) + \
        3 * popcount(mask & value_mask(masks, 3))


@compiled
def combination_points(r, masks, mask):
    """A combination's points: the table's for its size plus its gems' printed values."""
    return points_for_size(r, popcount(mask)) + mask_values(masks, mask)


@compiled
def colour_of_cell(masks, cell):
    """The colour of the gem at ``cell`` (JOKER for a joker, EMPTY for none): the lane holding
    the cell's bit (a single bit at 12k: the 12k bits below it count k)."""
    low = (masks[0] >> cell) & LANE_BITS
    if low:
        return popcount(low - 1) // CELLS
    high = (masks[1] >> cell) & LANE_BITS
    if high:
        return LANES + popcount(high - 1) // CELLS  # the jokers' lane gives JOKER
    return EMPTY


@compiled
def neighbour_colour(masks, cell, step):
    """The colour of the first gem beside ``cell`` in its row in direction ``step`` (+1 or -1),
    across jokers; -1 at the row's end or at an empty cell."""
    column = cell % COLUMNS + step
    row_start = cell - cell % COLUMNS
    while 0 <= column < COLUMNS:
        c = colour_of_cell(masks, row_start + column)
        if c == EMPTY:
            return -1
        if c != JOKER:
            return c
        column += step
    return -1


@compiled
def combination_options(masks, out_masks, out_colours, work):
    """Every distinct combination the zone can make, its owner deciding each joker's colour.

    ``out_masks[0]`` is the natural combination (jokers joining nothing; 0 if none stands); the
    others, bigger, need jokers. ``out_colours[k]`` has bit ``c`` set for each colour of
    combination ``k``'s runs (bit OWN_COLOUR for jokers making a run of their own). Returns the
    number of options. ``work`` is scratch space (the state's ``work``).
    """
    natural = natural_combination(masks)
    out_masks[0] = natural
    out_colours[0] = runs_colours(runs(masks[0]), runs(masks[1] & COLOUR_LANES_1), 0)
    n = 1
    if jokers_of(masks) == 0:
        return n
    k = joker_choices(masks, work)
    while True:
        low, high, own = declared_runs(masks, work, k)
        mask = runs_cells(low, high, own)
        if mask != natural:
            seen = False
            for i in range(n):
                if out_masks[i] == mask:
                    seen = True
                    break
            if not seen and n < out_masks.shape[0]:
                out_masks[n] = mask
                out_colours[n] = runs_colours(low, high, own)
                n += 1
        if not next_declaration(work, k):
            return n


@compiled
def joker_choices(masks, work):
    """Each joker of the zone and the colours its owner may declare: the colour of the gem
    beside it on either side (across jokers: joining that run), a colour none of them has (in a
    row of three or more jokers, a run of their own), or "not this colour" (joining nothing);
    every other colour makes the same combinations as one of these. Written into ``work``, every
    joker declared "not this colour" to start with. Returns the number of jokers."""
    jokers = jokers_of(masks)
    own_runs = runs(jokers)  # a joker elsewhere declared a colour of its own joins nothing
    k = 0
    for cell in range(CELLS):
        if jokers >> cell & 1:
            left = neighbour_colour(masks, cell, -1)
            right = neighbour_colour(masks, cell, 1)
            at = WORK_CHOICES_AT + 4 * DECLARED_WORDS * k
            declare(work, at, cell, NOT_JOINED)
            m = 1
            if left >= 0:
                declare(work, at + DECLARED_WORDS * m, cell, left)
                m += 1
            if right >= 0 and right != left:
                declare(work, at + DECLARED_WORDS * m, cell, right)
                m += 1
            if own_runs >> cell & 1:
                declare(work, at + DECLARED_WORDS * m, cell, OWN_COLOUR)
                m += 1
            work[WORK_N_CHOICES_AT + k] = m
            work[WORK_PICK_AT + k] = 0
            k += 1
    return k


@compiled
def jokers_join(masks):
    """Whether some declaration of the zone's jokers makes a run its gems do not make alone:
    every joker added to every colour (runs only grow with their cells), and the jokers alone
    (their own colour). False without jokers: then every declaration is the natural one."""
    jokers = jokers_of(masks)
    if jokers == 0:
        return False
    everywhere = jokers * LANE_BITS
    low = masks[0]
    high = masks[1] & COLOUR_LANES_1
    return runs(jokers) != 0 or runs(low | everywhere) != runs(low) or \
        runs(high | (everywhere & COLOUR_LANES_1)) != runs(high)


@compiled
def declare(work, at, cell, colour):
    """Write at ``work[at]`` the bits that declare the joker at ``cell`` ``colour`` (none for
    NOT_JOINED), one per word of ``declared_runs``."""
    bit = np.int64(1) << cell
    work[at] = bit << (CELLS * colour) if 0 <= colour < LANES else 0
    work[at + 1] = bit << (CELLS * (colour - LANES)) if LANES <= colour < OWN_COLOUR else 0
    work[at + 2] = bit if colour == OWN_COLOUR else 0


@compiled
def declared_runs(masks, work, k):
    """The runs the zone makes with its ``k`` jokers declared as ``work`` has them, as words:
    (colours 0-4 in lanes, colours 5-7 in lanes, the jokers' own colour)."""
    low = masks[0]
    high = masks[1] & COLOUR_LANES_1
    own = 0
    for j in range(k):
        at = WORK_CHOICES_AT + DECLARED_WORDS * (4 * j + work[WORK_PICK_AT + j])
        low |= work[at]
        high |= work[at + 1]
        own |= work[at + 2]
    return runs(low), runs(high), runs(own)


@compiled
def declared_combination(masks, work, k):
    """The cells of the combination the zone makes with its ``k`` jokers declared as ``work``
    has them."""
    low, high, own = declared_runs(masks, work, k)
    return runs_cells(low, high, own)


@compiled
def next_declaration(work, k):
    """The jokers' next declaration in ``work``, as an odometer; False after the last."""
    for j in range(k):
        work[WORK_PICK_AT + j] += 1
        if work[WORK_PICK_AT + j] < work[WORK_N_CHOICES_AT + j]:
            return True
        work[WORK_PICK_AT + j] = 0
    return False


@compiled
def declare_jokers(masks, mask, work):
    """Set ``work`` to a declaration of the zone's jokers that makes exactly combination
    ``mask`` (the first in ``next_declaration``'s order: of two colours that make it, the left
    gem's), so that each joker is told in the colour it took there. Returns the number of
    jokers, or -1 if no declaration makes ``mask``."""
    k = joker_choices(masks, work)
    while True:
        if declared_combination(masks, work, k) == mask:
            return k
        if not next_declaration(work, k):
            return -1


@compiled
def declared_colour(work, j, cell):
    """The colour joker ``j`` (at ``cell``) is declared in ``work``: read back from the bits
    ``declare`` wrote (the 12 bits below a lane's cell count its lane)."""
    at = WORK_CHOICES_AT + DECLARED_WORDS * (4 * j + work[WORK_PICK_AT + j])
    if work[at + 2]:
        return OWN_COLOUR
    if work[at]:
        return popcount((work[at] >> cell) - 1) // CELLS
    if work[at + 1]:
        return LANES + popcount((work[at + 1] >> cell) - 1) // CELLS
    return NOT_JOINED


@compiled
def colour_count(colours):
    n = 0
    for c in range(MAX_COLOURS + 1):
        if colours >> c & 1:
            n += 1
    return n


# --- switches --------------------------------------------------------------------------------

@compiled
def switches(s, r, p, street, out):
    """The legal switches of ``p`` with the market street ``street``: two connected gems of the
    zone (side by side in a row, or one above the other), and with swap_rule zone_and_street an
    inner-row gem with a street gem it touches. Rows of ``out``: (kind, a, b). Returns the count."""
    return street_switches(s, r, p, street, out, zone_switches(s, p, out, 0))


@compiled
def zone_switches(s, p, out, n):
    """The switches within ``p``'s zone, written into ``out`` from row ``n``; returns the new
    count."""
    zone = s.zone[p]
    for row in range(ROWS):
        for column in range(COLUMNS - 1):
            a = cell_of(row, column)
            if zone[a] != EMPTY and zone[a + 1] != EMPTY:
                out[n, 0], out[n, 1], out[n, 2] = SWITCH_IN_ZONE, a, a + 1
                n += 1
    for column in range(COLUMNS):
        a, b = cell_of(OUTER, column), cell_of(INNER, column)
        if zone[a] != EMPTY and zone[b] != EMPTY:
            out[n, 0], out[n, 1], out[n, 2] = SWITCH_IN_ZONE, a, b
            n += 1
    return n


@compiled
def street_switches(s, r, p, street, out, n):
    """The switches of ``p``'s inner-row gems with the street gems they touch (swap_rule
    zone_and_street), written into ``out`` from row ``n``; returns the new count."""
    if r.swap_rule != SWAP_ZONE_AND_STREET:
        return n
    zone = s.zone[p]
    for column in range(COLUMNS):
        a = cell_of(INNER, column)
        if zone[a] == EMPTY:
            continue
        for place in touching_places(column):
            if street[place] != EMPTY:
                out[n, 0], out[n, 1], out[n, 2] = SWITCH_WITH_STREET, a, place
                n += 1
    return n


@compiled
def swapped(m, a, b):
    """``m`` with cells ``a`` and ``b`` swapped in every lane."""
    differ = ((m >> a) ^ (m >> b)) & LANE_BITS
    return m ^ (differ << a) ^ (differ << b)


@compiled(inline="always")
def masks_after_switch(s, masks, street, kind, a, b):
    """The zone's masks after a switch (the zone itself is not changed)."""
    if kind != SWITCH_IN_ZONE:
        return masks_with_gem(s, masks, a, street[b])
    return swapped(masks[0], a, b), swapped(masks[1], a, b), swapped(masks[VALUES], a, b)


@compiled(inline="always")
def masks_with_gem(s, masks, cell, chip):
    """The zone's masks with ``chip`` in ``cell`` instead of the gem there."""
    keep = ~(LANE_BITS << cell)
    return put_in_masks(s, (masks[0] & keep, masks[1] & keep, masks[VALUES] & keep), cell, chip)


@compiled(inline="always")
def best_points(s, r, masks):
    """The most points the zone's combinations can make now (jokers declared to the best).

    Without jokers, or where no joker can join a run, the natural combination is the only one: a
    few mask operations (the players ask this of every switch; most zones hold no joker)."""
    if not jokers_join(masks):
        return combination_points(r, masks, natural_combination(masks))
    return best_points_with_jokers(s, r, masks)


@compiled
def best_points_with_jokers(s, r, masks):
    natural = natural_combination(masks)
    best = combination_points(r, masks, natural)
    work = s.work
    k = joker_choices(masks, work)
    while next_declaration(work, k):
        mask = declared_combination(masks, work, k)
        if mask != natural:  # most declarations join no run
            best = max(best, combination_points(r, masks, mask))
    return best


@compiled
def street_after_move(street, direction, out):
    """``out`` = the street once its gems have closed their gaps towards ``direction`` (the
    places left at the other end empty, for the sack to fill). Returns the empty places."""
    out[:] = EMPTY
    k = 0
    if direction == TOWARDS_FIRST:
        for place in range(STREET):
            if street[place] != EMPTY:
                out[k] = street[place]
                k += 1
    else:
        for place in range(STREET - 1, -1, -1):
            if street[place] != EMPTY:
                out[STREET - 1 - k] = street[place]
                k += 1
    return STREET - k


@compiled
def street_seen_after_move(s, r, direction, out):
    """``out`` = the street as a player foresees it after moving towards ``direction``: its gaps
    closed, and one place further where it shifts (``street_shifts``); the places the sack will
    fill are unknown (EMPTY)."""
    street_after_move(s.street, direction, out)
    if street_shifts(s, r):  # the end gem pushed off, the rest one place on
        if direction == TOWARDS_FIRST:
            for place in range(STREET - 1):
                out[place] = out[place + 1]
            out[STREET - 1] = EMPTY
        else:
            for place in range(STREET - 1, 0, -1):
                out[place] = out[place - 1]
            out[0] = EMPTY


# --- scores ---------------------------------------------------------------------------------

@compiled
def final_score(s, r, p):
    """The score that decides the winner: the track's points, less (advanced) the printed values
    left in the zone, plus any worth of unused small gems."""
    return s.points[p] - s.penalty[p] + s.points_small_gems[p]


@compiled
def zone_penalty(s, p):
    """The printed values of the gems left in ``p``'s zone (advanced mode's end penalty)."""
    total = 0
    for cell in range(CELLS):
        chip = s.zone[p, cell]
        if chip != EMPTY:
            total += s.chip_value[chip]
    return total


@compiled
def standing(s, r, p):
    """``p``'s score as it would end now (a search judges its rollouts by it)."""
    penalty = zone_penalty(s, p) if s.advanced else 0
    unused = s.small_gems[p] - s.small_gems_used[p]
    return s.points[p] - penalty + unused * r.small_gem_points
