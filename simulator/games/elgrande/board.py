"""El Grande: the table as numbers, and the questions the rules and the players ask of it.

One game's state is a numpy record of dtype ``STATE`` (layout below); the rule numbers are a
record of ``rules.toml``'s parameters and tables, the tables copied once per game into the
state's (``load_tables``: scoreboards, power cards, the action cards' counts and numbers) so the
rules read them by index. Places are the nine regions of Spain (0-8, alphabetical), the expansion's
four regions outside Spain (9-12: Francia, the Ship, América, África; in play only in the mode
``grand_inquisitor_colonies``) and the Castillo (13). Colours are the players' (0-4) and the
Grand Inquisitor's black Caballeros (``BLACK``).

What is hidden at the table: the order of the action stacks, and the secret choices until they
are revealed. Every other field may be read by any player (see rules.toml, hidden_information).
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.tables import table_factory

MAX_PLAYERS = 5
N_POWER = 13

# --- the map ------------------------------------------------------------------------------------
(ARAGON, CASTILLA_LA_NUEVA, CASTILLA_LA_VIEJA, CATALUNA, GALICIA, GRANADA, PAIS_VASCO, SEVILLA,
 VALENCIA, FRANCIA, SHIP, AMERICA, AFRICA) = range(13)
N_SPAIN = 9              # the mainland's regions (the region cards, the disc)
N_REGIONS = 13           # with the expansion's regions outside Spain
CASTILLO = 13
N_PLACES = 14            # the regions, then the Castillo
REGION_NAMES = ("Aragón", "Castilla la Nueva", "Castilla la Vieja", "Cataluña", "Galicia",
                "Granada", "País Vasco", "Sevilla", "Valencia", "Francia", "the Ship", "América",
                "África", "the Castillo")
REGION_KEYS = ("aragon", "castilla_la_nueva", "castilla_la_vieja", "cataluna", "galicia",
               "granada", "pais_vasco", "sevilla", "valencia", "francia", "ship", "america",
               "africa")
BORDER_LIST = (
    (ARAGON, CASTILLA_LA_NUEVA), (ARAGON, CASTILLA_LA_VIEJA), (ARAGON, CATALUNA),
    (ARAGON, PAIS_VASCO), (ARAGON, VALENCIA), (CASTILLA_LA_NUEVA, CASTILLA_LA_VIEJA),
    (CASTILLA_LA_NUEVA, GRANADA), (CASTILLA_LA_NUEVA, SEVILLA), (CASTILLA_LA_NUEVA, VALENCIA),
    (CASTILLA_LA_VIEJA, GALICIA), (CASTILLA_LA_VIEJA, PAIS_VASCO), (CATALUNA, VALENCIA),
    (GALICIA, PAIS_VASCO), (GRANADA, SEVILLA), (GRANADA, VALENCIA),
    (FRANCIA, ARAGON), (FRANCIA, CATALUNA),  # the expansion: placement into Francia from them
)
BORDERS = np.zeros((N_REGIONS, N_REGIONS), dtype=np.int64)
for _a, _b in BORDER_LIST:
    BORDERS[_a, _b] = BORDERS[_b, _a] = 1
NOWHERE = -1
# The Ship is reached from the coast: placement onto it when the King is in one of these.
COASTAL = np.zeros(N_REGIONS, dtype=np.int64)
for _g in (CATALUNA, VALENCIA, GRANADA, SEVILLA, GALICIA, PAIS_VASCO, FRANCIA):
    COASTAL[_g] = 1
FRANCIA_SPACES = 3       # ambassador, envoy, the third
BLACK = 5                # the Grand Inquisitor's colour
N_COLOURS = 6
WARE, GOLD = 0, 1        # the tokens (Wares lie in África, Gold in América)

# --- the action cards ---------------------------------------------------------------------------
CARD_KEYS = (
    "move_any_out_of_one_region", "move_any_4", "move_own_4", "move_own_2_opponents_2",
    "move_opponents_3", "move_any_3", "place_2_anywhere", "all_out_or_place_2",
    "all_out_of_one_region",
    "veto", "opponents_court_home", "opponents_court_3", "opponents_any_3", "opponents_one_each",
    "secret_return_2", "secret_return_all", "score_chosen_region",
    "score_5_point_regions", "score_4_point_regions", "score_castillo", "score_6_7_point_regions",
    "score_any_region", "score_first_places", "score_most_caballeros", "score_fewest_caballeros",
    "mobile_scoreboard", "move_grande", "take_back_power_card", "king_to_neighbour",
    "opponents_disperse", "provinces_to_court_2", "secret_unique_regions",
    "king",
    "holy_inquisition",
    "execute_action_card", "copycat", "free_choice", "score_outside_spain",
    "score_black_regions", "transport", "limit_table",
)
(MOVE_ANY_OUT_OF_ONE_REGION, MOVE_ANY_4, MOVE_OWN_4, MOVE_OWN_2_OPPONENTS_2, MOVE_OPPONENTS_3,
 MOVE_ANY_3, PLACE_2_ANYWHERE, ALL_OUT_OR_PLACE_2, ALL_OUT_OF_ONE_REGION,
 VETO, OPPONENTS_COURT_HOME, OPPONENTS_COURT_3, OPPONENTS_ANY_3, OPPONENTS_ONE_EACH,
 SECRET_RETURN_2, SECRET_RETURN_ALL, SCORE_CHOSEN_REGION,
 SCORE_5_POINT_REGIONS, SCORE_4_POINT_REGIONS, SCORE_CASTILLO, SCORE_6_7_POINT_REGIONS,
 SCORE_ANY_REGION, SCORE_FIRST_PLACES, SCORE_MOST_CABALLEROS, SCORE_FEWEST_CABALLEROS,
 MOBILE_SCOREBOARD, MOVE_GRANDE, TAKE_BACK_POWER_CARD, KING_TO_NEIGHBOUR,
 OPPONENTS_DISPERSE, PROVINCES_TO_COURT_2, SECRET_UNIQUE_REGIONS,
 KING, HOLY_INQUISITION,
 EXECUTE_ACTION_CARD, COPYCAT, FREE_CHOICE, SCORE_OUTSIDE_SPAIN, SCORE_BLACK_REGIONS, TRANSPORT,
 LIMIT_TABLE) = range(len(CARD_KEYS))
EXPANSION_CARDS = CARD_KEYS[HOLY_INQUISITION:]
N_CARD_KINDS = len(CARD_KEYS)
CARD_STACK = np.array([1] * 9 + [2] * 8 + [3] * 8 + [4] * 7 + [5] + [6] + [7] * 7,
                      dtype=np.int64)  # 1-7
N_STACKS = 7             # the base game's five, the expansion's stacks 6 and 7
BASE_STACKS = 5
KING_STACK = 4           # index of stack 5, the King's card alone
INQUISITION_STACK = 5    # index of stack 6, the Holy Inquisition alone
COLONY_STACK = 6         # index of stack 7
MAX_STACK = 22           # cards a stack may hold (the counts are checked against it)
NUMBERED = ("move_any_out_of_one_region", "move_any_4", "move_own_4", "move_own_2_opponents_2",
            "move_opponents_3", "move_any_3", "place_2_anywhere", "all_out_or_place_2",
            "opponents_court_3", "opponents_any_3", "opponents_one_each", "secret_return_2",
            "provinces_to_court_2")

# Intrigue moves (stack 1): (most moves, most of the mover's own, most of opponents', all out of
# one region) per card; from the card numbers in load_tables.
ANY = 99

# --- points by source (dataset columns) -----------------------------------------------------
(FROM_REGIONS, FROM_CASTILLO, FROM_SPECIAL, FROM_KING, FROM_GRANDE, FROM_FRANCIA, FROM_CAPTAIN,
 FROM_VICEROY, FROM_TOKENS) = range(9)
N_SOURCES = 9
SOURCE_NAMES = ("regions", "castillo", "special_scorings", "king_bonus", "grande_bonus",
                "francia", "captain", "viceroy", "gold_and_wares")
BASE_SOURCES = 5         # the expansion's sources are not columns of the base game
GENERAL, SPECIAL = 0, 1  # the kind of a scoring

# the modes (spec.MODES order)
BASE, GRAND_INQUISITOR_COLONIES = 0, 1

# rules choices (index into a ``choices`` list of rules.toml)
NO, YES = 0, 1
VETO_ROUND, VETO_GAME = 0, 1
TAKE_BACK_ANY, TAKE_BACK_THIS_ROUND = 0, 1
ALL_OUT_BLACK_ALL, ALL_OUT_BLACK_MAY_LEAVE, ALL_OUT_BLACK_NONE = 0, 1, 2
HOLY_PLACES_NEIGHBOURS, HOLY_PLACES_AS_ANY_CARD = 0, 1

STATE = np.dtype([
    # the table
    ("n_players", np.int64),
    ("round_no", np.int64),                  # rounds begun (1 during the first)
    ("over", np.int64),
    ("truncated", np.int64),
    ("turns", np.int64),
    ("king", np.int64),                      # the King's region
    ("starter", np.int64),                   # who plays the first power card this round
    ("expansion", np.int64),                 # 1: Grossinquisitor und Kolonien
    ("n_regions", np.int64),                 # regions in play: 9, or 13 with the expansion
    ("cab", np.int64, (N_COLOURS, N_PLACES)),  # Caballeros in each region and the Castillo
    ("court", np.int64, (MAX_PLAYERS,)),
    ("provinces", np.int64, (MAX_PLAYERS,)),
    ("home", np.int64, (MAX_PLAYERS,)),      # home region dealt at setup
    ("grande", np.int64, (MAX_PLAYERS,)),    # where the Grande stands
    ("score", np.int64, (MAX_PLAYERS,)),
    ("power_used", np.int64, (MAX_PLAYERS, N_POWER + 1)),  # [p, value]: 1 once played
    ("power_played", np.int64, (MAX_PLAYERS,)),  # this round's card (0: none yet)
    ("played_at", np.int64, (MAX_PLAYERS,)),     # when in this round's card play
    ("order", np.int64, (MAX_PLAYERS,)),     # this round's turn order
    ("acting", np.int64),                    # whose turn it is (-1 between turns)
    ("trial", np.int64),                     # 1 on a copy a player plays a card out on
    ("deck", np.int64, (N_STACKS, MAX_STACK)),  # stacks 1-4 and 7, the top card last
    ("deck_n", np.int64, (N_STACKS,)),
    ("face", np.int64, (N_STACKS,)),         # the face-up card of each stack (-1: taken / none)
    ("taken", np.int64, (MAX_PLAYERS,)),     # the card each player took this round (-1)
    ("vetoes", np.int64, (MAX_PLAYERS,)),    # Veto cards held
    ("mobile", np.int64, (2,)),              # region of each mobile scoreboard (-1: beside)
    # the expansion's table (expansion.py)
    ("inquisitor", np.int64),                # who holds the Grand Inquisitor card (-1: nobody)
    ("extra_round", np.int64, (MAX_PLAYERS,)),  # the round its holder last used the extra one
    ("francia", np.int64, (FRANCIA_SPACES,)),  # colour on each space (-1: free)
    ("captain", np.int64),                   # colour on the Captain's space (-1: free)
    ("viceroy", np.int64),                   # colour on the Viceroy's space (-1: free)
    ("arrived", np.int64, (N_COLOURS, N_PLACES)),  # came this round (the Ship, the colonies)
    ("carry", np.int64, (N_COLOURS, N_PLACES, 2)),  # Caballeros there holding a Ware / Gold
    ("lying", np.int64, (2,)),               # Wares in África, Gold in América, not yet taken
    ("supply", np.int64, (2,)),              # Wares and Gold beside the board
    ("table_region", np.int64),              # the limit table's region (-1: none)
    ("table_size", np.int64),
    ("on_table", np.int64, (N_COLOURS,)),    # Caballeros on its spaces (the rest beside it)
    ("held", np.int64, (MAX_PLAYERS, 3)),    # Execute, Copycat, Free Choice kept for later
    ("last_special", np.int64),              # the special action of the turn just played
    ("castillo_closed", np.int64),           # 1 from its emptying to the end of a general scoring
    ("neighbours_only", np.int64),           # 1 while Holy Inquisition's Caballeros are placed
    # the game's tables (load_tables)
    ("points", np.int64, (N_PLACES, 3)),     # printed scoreboards
    ("mobile_points", np.int64, (2, 3)),
    ("power_caballeros", np.int64, (N_POWER + 1,)),
    ("card_count", np.int64, (N_CARD_KINDS,)),
    ("card_number", np.int64, (N_CARD_KINDS,)),
    ("card_caballeros", np.int64, (N_CARD_KINDS,)),  # Caballeros its placement allows
    ("card_tokens", np.int64, (N_CARD_KINDS, 2)),    # Wares and Gold a stack-7 card shows
    ("token_points", np.int64, (2,)),                # a Ware, a Gold brought to Spain
    # what happened, for the dataset
    ("decisions", np.int64),                 # choices among two or more options (core/unfolding.py)
    ("vp", np.int64, (MAX_PLAYERS, N_SOURCES)),
    ("vp_scoring", np.int64, (MAX_PLAYERS, 3)),  # points of each general scoring, all sources
    ("firsts", np.int64, (MAX_PLAYERS, 3)),      # sole first places at each general scoring
    ("stack_taken", np.int64, (MAX_PLAYERS, N_STACKS)),
    ("power_round", np.int64, (MAX_PLAYERS, N_POWER + 1)),  # round a value was (last) played
    ("placed", np.int64, (MAX_PLAYERS,)),        # Caballeros placed from the court
    ("moved", np.int64, (MAX_PLAYERS,)),         # Caballeros of this colour moved by any card
    ("returned", np.int64, (MAX_PLAYERS,)),      # sent back to the provinces
    ("specials_done", np.int64, (MAX_PLAYERS,)),
    ("vetoed", np.int64, (MAX_PLAYERS,)),        # special actions this player cancelled
    ("special_scorings", np.int64),
    ("king_moves", np.int64),
    ("vetoes_used", np.int64),
    ("inquisitor_changes", np.int64),
    ("tokens_home", np.int64, (MAX_PLAYERS,)),   # Gold and Wares brought to Spain
])
HELD_EXECUTE, HELD_COPYCAT, HELD_FREE_CHOICE = range(3)
HELD_CARDS = np.array([EXECUTE_ACTION_CARD, COPYCAT, FREE_CHOICE])  # the card each kind is

new_table, copy_of = table_factory(STATE)


@compiled
def load_tables(s, r):
    """Copy the rule data's tables (rules.toml [tables]) into the state's, once a game."""
    s.points[:] = r.points
    s.mobile_points[:] = r.mobile_points
    s.power_caballeros[:] = r.power_caballeros
    s.card_count[:] = r.card_count
    s.card_number[:] = r.card_number
    s.card_caballeros[:] = r.card_caballeros
    s.card_caballeros[:HOLY_INQUISITION] = CARD_STACK[:HOLY_INQUISITION]  # a base card: its stack's number
    s.card_tokens[:] = r.card_tokens
    s.token_points[:] = r.token_points


def stack_sizes(r) -> list[int]:
    """How many cards each of the seven stacks holds with these counts (for spec.check)."""
    sizes = [0] * N_STACKS
    for kind in range(N_CARD_KINDS):
        sizes[int(CARD_STACK[kind]) - 1] += int(r.card_count[kind])
    return sizes


@compiled
def intrigue_limits(s, card):
    """(most moves, most of the mover's own, most of opponents', one source region, black ones
    only) of a stack-1 moving card, or the expansion's Transport, Free Choice and Holy
    Inquisition (the Grand Inquisitor's black Caballeros, his holder's own)."""
    n = s.card_number[card]
    if card == MOVE_ANY_OUT_OF_ONE_REGION:
        return n, ANY, ANY, True, False
    if card == MOVE_ANY_4 or card == MOVE_ANY_3:
        return n, ANY, ANY, False, False
    if card == MOVE_OWN_4:
        return n, n, 0, False, False
    if card == MOVE_OWN_2_OPPONENTS_2:
        return 2 * n, n, n, False, False
    if card == MOVE_OPPONENTS_3:
        return n, 0, n, False, False
    if card == TRANSPORT or card == FREE_CHOICE:  # the expansion: of your own
        return n, n, 0, False, False
    if card == HOLY_INQUISITION:
        return n, n, 0, False, True
    return 0, 0, 0, False, False


# --- what the board says ------------------------------------------------------------------

@compiled(inline="always")  # called in every valuation: no call overhead
def scoreboard(s, g):
    """The 1st/2nd/3rd points of place ``g`` now: a mobile scoreboard there replaces them."""
    for m in range(2):
        if s.mobile[m] == g:
            return s.mobile_points[m]
    return s.points[g]


@compiled
def first_value(s, g):
    return scoreboard(s, g)[0]


@compiled
def owner(s, c):
    """The player a Caballero of colour ``c`` counts for: its own; a black one, the Grand
    Inquisitor's holder (-1: nobody holds him)."""
    return s.inquisitor if c == BLACK else c


@compiled
def holds_space(s, c, g):
    """1 if a Caballero of colour ``c`` in ``g`` holds the Captain's or the Viceroy's space:
    it never counts toward majority, so it is never one of the limit table's either."""
    return 1 if (g == SHIP and s.captain == c) or (g == AMERICA and s.viceroy == c) else 0


# --- where a Caballero stands: the expansion's places, the limit table, the Grand Inquisitor ------
# The rules' moves keep these (``effects.arrive``, ``effects.move``) and the players ask them when
# they value one Caballero more or fewer in a place, or a move, as the rules would make it.

@compiled
def depart(s, c, a, b):
    """One Caballero of colour ``c`` leaves ``a`` for ``b``: returns the token it takes along
    (-1: none). Which one leaves (rules.toml, leaving): one holding a token when the move goes
    to the Ship or the mainland (towards home), else one holding none; a space (Captain,
    Viceroy, Francia's least) only when no other is there; beside the limit table before on it;
    those that came this round last."""
    s.cab[c, a] -= 1
    if s.expansion == 0:
        return -1
    token = -1
    seat = (a == SHIP and s.captain == c) or (a == AMERICA and s.viceroy == c)
    carriers = s.carry[c, a, WARE] + s.carry[c, a, GOLD]
    plain = s.cab[c, a] + 1 - carriers - (1 if seat else 0)
    homeward = b < N_SPAIN or b == SHIP
    if carriers > 0 and (homeward or plain == 0):
        token = GOLD if s.carry[c, a, GOLD] > 0 else WARE
        s.carry[c, a, token] -= 1
    elif plain == 0 and seat:
        if a == SHIP:
            s.captain = -1
        else:
            s.viceroy = -1
    if a == FRANCIA:
        for i in range(FRANCIA_SPACES - 1, -1, -1):
            if s.francia[i] == c:
                s.francia[i] = -1
                break
    if a == s.table_region and s.on_table[c] > s.cab[c, a] - holds_space(s, c, a):
        s.on_table[c] -= 1
    if s.arrived[c, a] > s.cab[c, a]:
        s.arrived[c, a] = s.cab[c, a]
    return token


@compiled
def stand(s, c, b, token):
    """One Caballero of colour ``c`` (holding ``token``, -1: none) comes into place ``b`` and
    takes its place there: Francia's best free space, the Captain's or Viceroy's space when free
    (never with a token), else the limit table while it has room. Returns whether the table was
    full (its size kept this one beside it). What the token then does is ``effects.arrive``'s."""
    s.cab[c, b] += 1
    if s.expansion == 0:
        return False
    if b == SHIP or b == AMERICA or b == AFRICA:
        s.arrived[c, b] += 1
    space = False
    if b == FRANCIA:
        for i in range(FRANCIA_SPACES):
            if s.francia[i] < 0:
                s.francia[i] = c
                break
    elif b == SHIP and s.captain < 0 and token < 0:
        s.captain = c
        space = True
    elif b == AMERICA and s.viceroy < 0 and token < 0:
        s.viceroy = c
        space = True
    if b == s.table_region and not space:
        if table_load(s) < s.table_size:
            s.on_table[c] += 1
        else:
            return True
    return False


@compiled
def table_load(s):
    """Caballeros on the limit table's spaces."""
    t = 0
    for c in range(s.on_table.shape[0]):
        t += s.on_table[c]
    return t


@compiled
def table_filler(s, by):
    """Who fills the table's free spaces after a turn or a general scoring: the Grand
    Inquisitor's holder; with nobody holding him, ``by`` (the player whose turn it was)."""
    return s.inquisitor if s.inquisitor >= 0 else by


@compiled
def black_all_out(s, r, p, g):
    """How many black Caballeros in ``g`` may go along when ``p`` moves 'all of [its]
    Caballeros out of one region': all there, for the Grand Inquisitor's holder, as his own
    (``all_out_takes_black``: 'may_leave' lets him stop early; 'none', never any)."""
    if s.inquisitor != p or r.all_out_takes_black == ALL_OUT_BLACK_NONE:
        return 0
    return s.cab[BLACK, g]


@compiled
def colour_counted(s, c, g):
    """Colour ``c``'s Caballeros that count in ``g``: only those on the limit table where it
    stands; never the Captain or the Viceroy."""
    if g == s.table_region:
        return s.on_table[c]
    return s.cab[c, g] - holds_space(s, c, g)


@compiled
def counted(s, p, g):
    """``p``'s Caballeros counted when ``g`` is scored (with the expansion: the black ones too,
    for the Grand Inquisitor's holder)."""
    if s.expansion == 0:
        return s.cab[p, g]
    k = colour_counted(s, p, g)
    if s.inquisitor == p:
        k += colour_counted(s, BLACK, g)
    return k


@compiled
def sole_most(s, g):
    """The player who alone has the most Caballeros in ``g`` (-1: nobody, or a tie)."""
    best = 0
    who = -1
    for p in range(s.n_players):
        c = counted(s, p, g)
        if c > best:
            best, who = c, p
        elif c == best and c > 0:
            who = -1
    return who


@compiled(inline="always")  # called in every valuation: no call overhead
def placings(s, g, places):
    """Each player's place in ``g`` by the tie rule (0 = first, 3 and more: no points; -1: no
    Caballero there). Tied players slide back one place and the next takes the place after.
    Every seat is counted, an empty one as having no Caballero (fixed-length loops: fast)."""
    for p in range(MAX_PLAYERS):  # the counts; a player placed at ``at`` is marked -2 - at
        places[p] = counted(s, p, g) if p < s.n_players else 0
    place = 0
    while True:
        best = 0
        for p in range(MAX_PLAYERS):
            best = max(best, places[p])
        if best == 0:
            break
        tied = 0
        for p in range(MAX_PLAYERS):
            tied += 1 if places[p] == best else 0
        at = place if tied == 1 else place + 1
        for p in range(MAX_PLAYERS):
            places[p] = -2 - at if places[p] == best else places[p]
        place += 1 if tied == 1 else 2
    for p in range(MAX_PLAYERS):
        places[p] = -1 if places[p] == 0 else -2 - places[p]


@compiled
def seat_bonus(s, r, g, i):
    """(player, points, source) of the ``i``-th space of ``g`` that scores with it: Francia's
    ambassador (0) and envoy (1), the Ship's Captain, América's Viceroy; (-1, 0, 0) if none."""
    if g == FRANCIA:
        if i == 0 and s.francia[0] >= 0:
            return owner(s, s.francia[0]), r.ambassador_bonus, FROM_FRANCIA
        if i == 1 and s.francia[1] >= 0:
            return owner(s, s.francia[1]), r.envoy_bonus, FROM_FRANCIA
    elif i == 0 and g == SHIP and s.captain >= 0:
        return owner(s, s.captain), r.captain_points, FROM_CAPTAIN
    elif i == 0 and g == AMERICA and s.viceroy >= 0:
        return owner(s, s.viceroy), r.viceroy_points, FROM_VICEROY
    return -1, 0, 0


@compiled(inline="always")  # called in every valuation: no call overhead
def standings(s, r, g, first_only, out):
    """The points each player would score if ``g`` were scored now (``out``, by seat; an empty
    seat's 0): its places by the tie rule (or only a sole first, ``first_only``), the King's
    bonus in the King's region, the Grandes' bonuses, the expansion's spaces. Returns nothing;
    the rules and the players both read it."""
    placings(s, g, out)  # the places first, turned into points in place (no allocation)
    board = scoreboard(s, g)
    top = -1  # alone at the top: first place (a tie for first slides to second)
    for p in range(MAX_PLAYERS):  # an empty seat has no place: no points
        at = out[p]
        out[p] = 0
        if at == 0:
            top = p
        if at < 0 or at > 2 or (first_only and at != 0):
            continue
        out[p] = board[at]
    if g == CASTILLO or (first_only and r.first_places_bonuses == NO):
        return
    if g >= N_SPAIN:
        for i in range(2):
            q, points, _ = seat_bonus(s, r, g, i)
            if q >= 0:
                out[q] += points
    if top < 0:
        return
    if g == s.king:
        out[top] += r.king_bonus
    if s.grande[top] == g:
        out[top] += r.grande_bonus


@compiled
def bonus_parts(s, r, g, p, first_only):
    """(King's bonus, Grande bonus) ``p`` gets when ``g`` is scored."""
    if g == CASTILLO or (first_only and r.first_places_bonuses == NO) or sole_most(s, g) != p:
        return 0, 0
    return (r.king_bonus if g == s.king else 0), (r.grande_bonus if s.grande[p] == g else 0)


@compiled
def total_caballeros(s, g):
    """Every Caballero standing in ``g``, the black ones too."""
    t = s.cab[BLACK, g]
    for p in range(s.n_players):
        t += s.cab[p, g]
    return t


@compiled(inline="always")  # called in every valuation: no call overhead
def in_play(s, g):
    """A region of this game's board, or the Castillo."""
    return g < s.n_regions or g == CASTILLO


@compiled
def francia_free(s):
    """Free spaces in Francia (no more than three Caballeros stand there)."""
    k = 0
    for i in range(FRANCIA_SPACES):
        k += 1 if s.francia[i] < 0 else 0
    return k


@compiled(inline="always")  # called in every valuation: no call overhead
def may_move_through(s, r, g):
    """Whether a Caballero may be moved into or out of place ``g`` by a card: never the King's
    region; the Castillo by intrigue_castillo."""
    if g == CASTILLO:
        return r.intrigue_castillo == YES
    return g != s.king and g < s.n_regions


@compiled
def may_enter(s, r, g):
    """Whether a Caballero may be moved into ``g``: as ``may_move_through``, Francia only onto a
    free space, the Castillo not once a general scoring has emptied it (Free Choice)."""
    if g == CASTILLO and s.castillo_closed:
        return False
    return may_move_through(s, r, g) and (g != FRANCIA or francia_free(s) > 0)


@compiled
def may_place_anywhere(s, r, g):
    """A place an 'anywhere' placement may use: América and África are reached only by moves."""
    return may_enter(s, r, g) and g != AMERICA and g != AFRICA


@compiled(inline="always")  # called in every valuation: no call overhead
def placement_target(s, g):
    """A region bordering the King's region, or the Castillo; with the expansion, the Ship when
    the King is on the coast, Francia when a space is free; never América or África. Holy
    Inquisition's placement (``neighbours_only``) only 'into regions neighboring the King's
    region': neither the Castillo nor the Ship (``holy_inquisition_places``)."""
    if g == CASTILLO:
        return s.neighbours_only == 0
    if g >= s.n_regions or g == AMERICA or g == AFRICA:
        return False
    if g == SHIP:
        return COASTAL[s.king] == 1 and s.neighbours_only == 0
    if g == FRANCIA and francia_free(s) == 0:
        return False
    return BORDERS[s.king, g] == 1


@compiled
def place_options(allowed, may_decline):
    """How many options a choice of a place among ``allowed[:N_PLACES + 1]`` (the last one the
    court) offers, declining one more when the player ``may_decline`` (the options
    ``trials.choose_place`` chooses among)."""
    k = 1 if may_decline else 0
    for g in range(N_PLACES + 1):
        k += 1 if allowed[g] > 0 else 0
    return k


@compiled
def cards_face_up(s):
    """The action cards face up now, one to a stack."""
    k = 0
    for stack in range(N_STACKS):
        k += 1 if s.face[stack] >= 0 else 0
    return k


@compiled
def king_may_enter(s, g):
    """The King stays on the mainland; Francia is the one region outside Spain he may enter."""
    return g < N_SPAIN or (g == FRANCIA and s.expansion == 1)


@compiled
def caballeros_of(s, p):
    """Every Caballero of ``p``: provinces, court, regions and Castillo (conserved)."""
    t = s.provinces[p] + s.court[p]
    for g in range(N_PLACES):
        t += s.cab[p, g]
    return t


@compiled
def general_scoring_after(r, round_no):
    return round_no % r.scoring_every == 0 or round_no == r.rounds


@compiled
def scoring_index(r, round_no):
    """Which general scoring (0, 1, 2...) follows ``round_no`` (capped at the last column)."""
    return min(2, (round_no - 1) // r.scoring_every)
