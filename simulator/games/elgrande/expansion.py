"""El Grande's expansion "Grossinquisitor und Kolonien", in its rulebook's order.

Called from ``turn.py`` where the expansion hooks into the base game (mode
``grand_inquisitor_colonies``; ``s.expansion`` is 1): the additional setup; the new regions
(their places and spaces are kept by ``board.stand``/``depart``, their counting and scoring by
``board.counted``/``seat_bonus``); the Ship's and the colonies' free moves; Gold and Wares;
the Grand Inquisitor and his black Caballeros; the limit table; the stack-7 cards. Every gap is
an assumption of ``rules.toml`` ("expansion_*" notes). "King and Intrigue" is not modelled: the
rulebook itself advises against combining the two. The places a player chooses are tried
out for it by ``trials.py``; the table's questions (``black_all_out``, ``table_filler``,
``table_load``) are ``board.py``'s, the players ask them too.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.rng import shuffle
from simulator.core.trace import came_up, record
from simulator.core.unfolding import decided
from simulator.games.elgrande import effects as E
from simulator.games.elgrande import codes as L
from simulator.games.elgrande import trials
from simulator.games.elgrande.board import (
    AFRICA, AMERICA, BLACK, BORDERS, CASTILLO, COASTAL, COLONY_STACK,
    FRANCIA, GOLD,
    HOLY_INQUISITION, MAX_PLAYERS, N_CARD_KINDS, N_COLOURS, N_PLACES,
    N_REGIONS, N_SPAIN, SHIP, SPECIAL, WARE, YES, francia_free, holds_space, place_options,
)
from strategies import elgrande as players


# --- Additional components and setup ------------------------------------------------------------

@compiled
def setup(s, r, plans, rng, log, regions):
    """Setup steps 2-8 (the board's ship side, step 1, is the map itself): the Grand
    Inquisitor beside the board; Holy Inquisition alone as stack 6; stack 7 shuffled; two more
    region cards for the black Caballeros and one for the limit table (its side by the player
    count); six more Caballeros each in the provinces, two of which each player places by a
    secret choice; Wares in África and Gold in América, the rest a supply. ``regions`` is the
    shuffled region cards: the King's first, then these three, then the homes."""
    n = s.n_players
    s.inquisitor = -1
    for i in (1, 2):
        g = regions[i]
        s.cab[BLACK, g] = r.black_caballeros_per_region
        record(log, L.BLACK_PLACED, g, s.cab[BLACK, g])
    s.table_size = r.limit_table_small if n <= 3 else r.limit_table_large
    s.table_region = regions[3]
    record(log, L.TABLE_PLACED, -1, s.table_region, s.table_size, 0)
    for card in range(HOLY_INQUISITION + 1, N_CARD_KINDS):
        for _ in range(s.card_count[card]):
            s.deck[COLONY_STACK, s.deck_n[COLONY_STACK]] = card
            s.deck_n[COLONY_STACK] += 1
    shuffle(rng, s.deck[COLONY_STACK], s.deck_n[COLONY_STACK])
    for p in range(n):
        s.provinces[p] += r.expansion_caballeros
        record(log, L.SETUP_CABALLEROS, p, r.expansion_caballeros, s.provinces[p])
    picks = np.zeros(MAX_PLAYERS, dtype=np.int64)
    setup_picks(s, r, plans, rng, log, picks)
    for p in range(n):
        if picks[p] >= 0:
            E.place_from_provinces(s, p, picks[p], r.setup_caballeros, log)
    s.lying[WARE] = r.wares_at_start
    s.lying[GOLD] = r.gold_at_start
    s.supply[WARE] = r.wares - r.wares_at_start
    s.supply[GOLD] = r.gold - r.gold_at_start
    record(log, L.TOKENS_LAID, WARE, r.wares_at_start, AFRICA, s.lying[WARE], s.supply[WARE])
    record(log, L.TOKENS_LAID, GOLD, r.gold_at_start, AMERICA, s.lying[GOLD], s.supply[GOLD])


@compiled
def setup_picks(s, r, plans, rng, log, picks):
    """Every player chooses a region of Spain on the secret disc (not the King's), all before any
    is revealed: the base game's secret choice (``turn.secret_picks``' way)."""
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    for g in range(N_SPAIN):
        allowed[g] = 1 if g != s.king else 0
    for q in range(s.n_players):
        decided(s, place_options(allowed, False))
        picks[q] = trials.choose_place(s, r, q, plans, rng, L.P_SETUP, allowed,
                                        r.setup_caballeros, False)
    for q in range(s.n_players):
        record(log, L.SECRET_CHOICE, q, picks[q], L.SECRET_SETUP)


# --- Game sequence: the new regions -------------------------------------------------------------

@compiled
def free_moves(s, r, plans, rng, log, p):
    """At the beginning of ``p``'s turn: each of its Caballeros on the Ship since an earlier
    round may go to América, África or a coastal region of Spain; each in América or África
    since an earlier round may go to the Ship (free actions: no place or move action). The
    Grand Inquisitor's holder moves the black Caballeros there likewise, 'as if they were his
    own' (after its own). First ``p`` takes the tokens it can: one that came outside its turn
    (Free Choice, Copycat, another's card) takes its token before it may move away."""
    E.take_tokens(s, p, log)
    free_moves_of(s, r, plans, rng, log, p, p, L.P_FREE_MOVE)
    if s.inquisitor == p:
        free_moves_of(s, r, plans, rng, log, p, BLACK, L.P_FREE_MOVE_BLACK)


@compiled
def free_moves_of(s, r, plans, rng, log, p, c, purpose):
    """``p``'s free moves of colour ``c`` (its own, or the black ones it holds)."""
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    for _ in range(free_movers(s, c, SHIP)):
        free_destinations(s, SHIP, allowed)  # anew: Francia may have filled
        decided(s, place_options(allowed, True))
        g = trials.choose_place(s, r, p, plans, rng, purpose, allowed, SHIP, True)
        # the option's index (0: stay; then the destinations in place order), and the place
        record(log, L.DECISION, p, L.DECIDE_FREE_MOVE, allowed.sum() + 1,
               allowed[:g].sum() + 1 if g >= 0 else 0, g)
        if g < 0:
            break
        E.free_move(s, c, SHIP, g, p, log)
        E.take_tokens(s, p, log)
    for a in (AMERICA, AFRICA):
        free_destinations(s, a, allowed)
        for _ in range(free_movers(s, c, a)):
            decided(s, place_options(allowed, True))
            g = trials.choose_place(s, r, p, plans, rng, purpose, allowed, a, True)
            record(log, L.DECISION, p, L.DECIDE_FREE_MOVE, 2, 1 if g >= 0 else 0, g)
            if g < 0:
                break
            E.free_move(s, c, a, SHIP, p, log)


@compiled
def free_destinations(s, a, allowed):
    """Where a free move from ``a`` may go (``allowed``): from the Ship to América, África or a
    coastal region (not the King's; Francia, on the coastal list and reached 'from the Ship' by
    its own section, while it has a free space); from a colony to the Ship."""
    allowed[:] = 0
    for g in range(N_REGIONS):
        if a == SHIP:
            allowed[g] = 1 if (g == AMERICA or g == AFRICA or COASTAL[g] == 1) and \
                g != s.king and (g != FRANCIA or francia_free(s) > 0) else 0
    if a != SHIP:
        allowed[SHIP] = 1


@compiled
def free_movers(s, c, g):
    """Colour ``c``'s Caballeros in ``g`` that came in an earlier round: those a free move may
    take."""
    return s.cab[c, g] - s.arrived[c, g]


@compiled
def end_of_round(s):
    """Every Caballero now on the Ship or in the colonies is there 'from a previous round'."""
    s.arrived[:, :] = 0


# --- Gold and Wares --------------------------------------------------------------------------

@compiled
def lay_tokens(s, p, card, log):
    """A stack-7 card's Gold and Wares are laid (Gold in América, Wares in África) from the
    supply, as far as it lasts."""
    E.rule_came_up(log, E.CARD_WARES_RULES[card])
    E.rule_came_up(log, E.CARD_GOLD_RULES[card])
    for token, g in ((WARE, AFRICA), (GOLD, AMERICA)):
        want = s.card_tokens[card, token]
        if want == 0:
            continue
        k = min(want, s.supply[token])
        if k < want:
            came_up(log, L.UP_GOLD if token == GOLD else L.UP_WARES)  # the box's tokens all out
            record(log, L.NO_EFFECT, p, card, L.SUPPLY_EMPTY)
        if k > 0:
            s.supply[token] -= k
            s.lying[token] += k
            record(log, L.TOKENS_LAID, token, k, g, s.lying[token], s.supply[token])


# --- The Grand Inquisitor ----------------------------------------------------------------------

@compiled
def take_inquisitor(s, p, log):
    """The Grand Inquisitor card goes in front of ``p`` (until another takes it)."""
    record(log, L.INQUISITOR_TAKEN, p, s.inquisitor)
    if s.inquisitor != p:
        s.inquisitor_changes += 1
    s.inquisitor = p


@compiled
def table_moves_open(s, r):
    """Whether a card's moves may also move Caballeros on and off the limit table within its
    region now (``table_moves_in_region``): a table stands outside the King's region."""
    return r.table_moves_in_region == YES and s.table_region >= 0 and s.table_region != s.king


@compiled
def black_from_castillo(s, g, log):
    """At a general scoring the black Caballeros in the Castillo go, like their holder's own, to
    the region ``g`` on the holder's disc. Assumption: when the disc names the King's region they
    stay in the Castillo, as they 'can never be added to ... a player's Court' and the King's
    region is closed."""
    k = s.cab[BLACK, CASTILLO]
    if k == 0:
        return
    if g == s.king:
        record(log, L.BLACK_STAY, s.inquisitor, k)
    else:
        E.empty_castillo(s, BLACK, g, log)


@compiled
def inquisitor_extra(s, r, plans, rng, log, p, n):
    """Once in each round he holds the Grand Inquisitor, at a placement of ``n`` (his turn's),
    the holder ``p`` may 'take 1 additional Caballero from the Province into [his] Court or
    place 1 additional Caballero from [his] Court into a region neighboring the King's region'
    (``inquisitor_extra`` of them): his choice, or neither. The region: a region bordering the
    King's (Francia while it has a free space; the Ship by ``inquisitor_extra_ship``), never
    the Castillo. The extra one is placed before the card's ``n``."""
    if s.expansion == 0 or s.inquisitor != p or s.extra_round[p] == s.round_no:
        return
    came_up(log, L.UP_INQUISITOR_EXTRA)
    if r.inquisitor_extra == 0:
        return
    if COASTAL[s.king] == 1 and s.court[p] > 0:
        came_up(log, L.UP_INQUISITOR_EXTRA_SHIP)  # the Ship among the extra one's places, or not
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    k = extra_targets(s, r, allowed) if s.court[p] > 0 else 0
    allowed[L.COURT] = 1 if s.provinces[p] > 0 else 0
    if k + allowed[L.COURT] == 0:
        return
    decided(s, place_options(allowed, True))  # a region, the court, or neither
    g = players.choose_inquisitor_extra(s, r, p, plans, rng, n, allowed)
    record(log, L.DECISION, p, L.DECIDE_INQUISITOR_EXTRA, allowed.sum() + 1,
           allowed[:g].sum() + 1 if g >= 0 else 0)
    if g < 0:
        return
    s.extra_round[p] = s.round_no
    if g == L.COURT:
        record(log, L.EXTRA_CABALLERO, p, 1)
        E.to_court(s, p, r.inquisitor_extra, log)
        return
    record(log, L.EXTRA_CABALLERO, p, 0)
    E.place(s, p, g, log)
    for _ in range(r.inquisitor_extra - 1):  # more than one (a changed rule): each chosen
        if s.court[p] == 0 or extra_targets(s, r, allowed) == 0:
            return
        decided(s, place_options(allowed, True))
        g = trials.choose_place(s, r, p, plans, rng, L.P_PLACE, allowed, 0, True)
        if g < 0:
            return
        E.place(s, p, g, log)


@compiled
def extra_targets(s, r, allowed):
    """Where the Grand Inquisitor's extra Caballero may be placed (``allowed``; returns how
    many): 'a region neighboring the King's region', Francia among them while it has a free
    space (it borders Aragón and Cataluña), the Ship only by ``inquisitor_extra_ship``."""
    allowed[:] = 0
    k = 0
    for g in range(s.n_regions):
        if g == SHIP:
            ok = r.inquisitor_extra_ship == YES and COASTAL[s.king] == 1
        else:
            ok = BORDERS[s.king, g] == 1 and (g != FRANCIA or francia_free(s) > 0)
        allowed[g] = 1 if ok else 0
        k += allowed[g]
    return k


# --- The limit table ---------------------------------------------------------------------------

@compiled
def fill_table(s, r, plans, rng, log, chooser):
    """Free spaces of the limit table are filled from the Caballeros beside it, one at a time,
    ``chooser`` picking whose (``board.table_filler``)."""
    g = s.table_region
    if g < 0:
        return
    beside = np.zeros(N_COLOURS, dtype=np.int64)
    while E.table_load(s) < s.table_size:
        k = 0
        for c in range(N_COLOURS):
            beside[c] = s.cab[c, g] - s.on_table[c] - holds_space(s, c, g)
            k += 1 if beside[c] > 0 else 0
        if k == 0:
            return
        decided(s, k)
        c = players.choose_table_colour(s, r, chooser, plans, rng, beside)
        chosen = 0  # the colour's index among those beside the table, and the colour
        for d in range(c):
            chosen += 1 if beside[d] > 0 else 0
        record(log, L.DECISION, chooser, L.DECIDE_TABLE_SPACE, k, chosen, c)
        s.on_table[c] += 1
        record(log, L.TABLE_FILLED, c, chooser, g, s.on_table[c])


@compiled
def move_table(s, r, plans, rng, log, p, card):
    """The Limit Table card: the Caballeros on the table go into its region; the empty table
    goes to another region (never the King's or Francia; it never leaves the King's region),
    and the Caballeros there go onto it, ``p`` choosing when there is not room for all."""
    if s.table_region == s.king:
        record(log, L.NO_EFFECT, p, card, L.TABLE_STAYS)
        return
    allowed = np.zeros(N_PLACES + 1, dtype=np.int64)
    table_destinations(s, allowed)
    decided(s, place_options(allowed, True))
    g = trials.choose_place(s, r, p, plans, rng, L.P_LIMIT_TABLE, allowed, 0, True)
    if g < 0:
        return
    E.put_table(s, g, log)
    fill_table(s, r, plans, rng, log, p)


@compiled
def table_destinations(s, allowed):
    """Where the Limit Table card may set the table (``allowed``): any other region but the
    King's and Francia."""
    allowed[:] = 0
    for g in range(s.n_regions):
        allowed[g] = 1 if g != s.king and g != FRANCIA and g != s.table_region else 0


# --- Action cards: stack 7 ---------------------------------------------------------------------

@compiled
def score_outside_spain(s, r, log):
    """All four regions outside Spain scored (the order cannot matter: a scoring moves
    nothing)."""
    for g in (FRANCIA, AMERICA, AFRICA, SHIP):
        E.score_place(s, r, g, SPECIAL, False, log)
    s.special_scorings += 1


@compiled
def score_black_regions(s, r, log, p, card):
    """The card's player takes the Grand Inquisitor card (rules.toml: always, it is 'may');
    every region holding a black Caballero is scored, the black ones counting as its."""
    take_inquisitor(s, p, log)
    scored = 0
    for g in range(s.n_regions):
        if s.cab[BLACK, g] > 0:
            E.score_place(s, r, g, SPECIAL, False, log)
            scored += 1
    E.special_scoring_done(s, p, card, scored, log)

