"""El Grande's invariants: what holds of every table between turns, checked after each turn and
each round's end of a checked run (``playtest run elgrande --check``)."""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.trace import broken
from simulator.games.elgrande.board import (
    AMERICA, BLACK, CARD_STACK, CASTILLO, FRANCIA, FRANCIA_SPACES, FROM_TOKENS, GOLD,
    HELD_FREE_CHOICE, HOLY_INQUISITION, INQUISITION_STACK, KING_STACK,
    MAX_PLAYERS, N_CARD_KINDS, N_COLOURS, N_PLACES, N_POWER, N_SOURCES, N_SPAIN, N_STACKS, SHIP,
    VETO_ROUND, WARE, caballeros_of, general_scoring_after, holds_space, king_may_enter,
)

INVARIANTS = (
    "player {a} has {b} Caballeros in the provinces, the court, the regions and the Castillo, "
    "not the Caballeros each player has (30, and 6 more with the expansion)",
    "colour {a} has {b} Caballeros in one place (the provinces, the court, a region or the "
    "Castillo), fewer than none",
    "colour {a}, no player's at this table, has {b} Caballeros in the game",
    "{a} black Caballeros stand in the regions and the Castillo, not the Grand Inquisitor's {b} "
    "(no rule removes one; none in the base game)",
    "colour {a} has Caballeros in region {b}, outside Spain (only the expansion's board has it)",
    "colour {a}'s Caballeros in the King's region changed by {b} while he stood there (no "
    "Caballero enters or leaves it)",
    "piece {a} (0-4 a player's Grande, 5-6 a mobile scoreboard, 7 the limit table) entered or "
    "left the King's region {b} while he stood there",
    "the King stands in region {a}, outside Spain (Francia is the one region outside Spain he "
    "may enter, with the expansion)",
    "player {a}'s Grande stands in place {b}, not a region of this game's board",
    "mobile scoreboard {a} stands in place {b}, neither beside the board nor in a region of this "
    "game's board",
    "both mobile scoreboards stand in region {a}",
    "player {a} has {b} Caballeros in the Castillo after a general scoring (they go to the "
    "regions on the discs)",
    "{b} tokens of kind {a} (0 Wares, 1 Gold) are in the supply, lying in África and América and "
    "carried, not the limited supply's count (none in the base game)",
    "{b} tokens of kind {a} (0 Wares, 1 Gold) lie in the supply or in the colonies, fewer than "
    "none",
    "colour {a} carries {b} tokens in one place, more than its Caballeros there off the Captain's "
    "and Viceroy's spaces (one per Caballero) or fewer than none",
    "colour {a} carries a token in place {b}, in Spain or the Castillo (brought home or lost "
    "there)",
    "colour {a} has {b} Caballeros counted as come this round to a place, more than stand there, "
    "fewer than none, or any after the end of a round with no general scoring",
    "the limit table stands in place {a}, not a region of the expansion's board other than "
    "Francia (none in the base game)",
    "colour {a} has {b} Caballeros on the limit table, more than stand in its region off the "
    "Captain's and Viceroy's spaces, or fewer than none",
    "the limit table holds {a} Caballeros, more than its {b} spaces",
    "the limit table has {a} free spaces while {b} Caballeros stand beside it (free spaces are "
    "filled after every turn)",
    "colour {a} holds {b} of Francia's spaces, not one for each of its Caballeros there",
    "the {a} space (0 the Captain's, 1 the Viceroy's) holds colour {b}, with no Caballero of it "
    "there",
    "the Grand Inquisitor card is with player {a}, not one of the {b} players or nobody (nobody "
    "in the base game)",
    "player {a} has power card {b} in play, not played this round (each plays one a round; none "
    "after the round's end)",
    "player {a} has used {b} power cards, more than the rounds begun (each card once a game)",
    "player {a}'s power card {b} is marked used but was never played",
    "player {a} played power card {b}, already played this round, while holding a value nobody "
    "had played",
    "stack {a} holds {b} cards face down, not its cards less one turned up each round",
    "stack {a} shows card {b}, a card of another stack (or any card after the round's end)",
    "player {a} holds {b} Vetoes, fewer than none, or any after the round's end while a Veto "
    "lasts the round",
    "{b} cards of kind {a} (0 Execute Action Card, 1 Copycat, 2 Free Choice) are kept, fewer than "
    "none, or Free Choice still kept after a general scoring (kept until the next one)",
    "player {a} scores {b}, not the sum of their points from regions, the Castillo, special "
    "scorings, the King's and Grande bonuses, Francia, the Captain, the Viceroy, Gold and Wares",
    "player {a} has {b} points from one source, fewer than none",
    "player {a} has {b} points from Gold and Wares, not a Ware's or a Gold's points for each "
    "token they brought to Spain",
    "round {a} is not one of the game's {b} rounds",
)
(CABALLEROS, CABALLEROS_NEGATIVE, NO_SUCH_COLOUR, BLACK_CABALLEROS, OUTSIDE_SPAIN,
 KINGS_REGION_CABALLEROS, KINGS_REGION_PIECES, KING_PLACE, GRANDE_PLACE, SCOREBOARD_PLACE,
 SCOREBOARDS_TOGETHER, CASTILLO_AFTER_SCORING, TOKENS, TOKENS_NEGATIVE, CARRIED,
 CARRIED_IN_SPAIN, ARRIVED, TABLE_PLACE, TABLE_COLOUR, TABLE_FULL, TABLE_FILLED,
 FRANCIA_HOLDERS, SPACE_HOLDER, INQUISITOR, POWER_IN_PLAY, POWER_USED, POWER_NEVER_PLAYED,
 POWER_CLASH, STACK_SIZE, FACE_UP, VETOES, HELD, SCORE_SOURCES, POINTS_NEGATIVE, TOKEN_POINTS,
 ROUND) = range(36)

# What the King's region held at the last check: (King's moves then, his region, each colour's
# Caballeros there, then 1 for each piece there: the Grandes, the mobile scoreboards, the table).
KINGS_REGION_SLOTS = 2 + N_COLOURS + MAX_PLAYERS + 3
PIECES = 2 + N_COLOURS


@compiled
def new_kings_region():
    """Nothing noted of the King's region yet: the next check only notes it."""
    return np.full(KINGS_REGION_SLOTS, -1, dtype=np.int64)


@compiled
def note_kings_region(s, kings_region):
    """Note what the King's region holds now (``kings_region``, see KINGS_REGION_SLOTS)."""
    g = s.king
    kings_region[0] = s.king_moves
    kings_region[1] = g
    for c in range(N_COLOURS):
        kings_region[2 + c] = s.cab[c, g]
    for p in range(MAX_PLAYERS):
        kings_region[PIECES + p] = 1 if p < s.n_players and s.grande[p] == g else 0
    for m in range(2):
        kings_region[PIECES + MAX_PLAYERS + m] = 1 if s.mobile[m] == g else 0
    kings_region[PIECES + MAX_PLAYERS + 2] = 1 if s.table_region == g else 0


@compiled
def check(s, r, log, kings_region, round_over):
    """Note in ``log`` each invariant the table ``s`` breaks between turns (the first noted is
    kept): after a turn, or after the round's end (``round_over``: its general scoring too).
    ``kings_region`` is what the King's region held at the last check (updated here)."""
    if not 1 <= s.round_no <= r.rounds:
        broken(log, ROUND, s.round_no, r.rounds)
    check_caballeros(s, r, log)
    check_kings_region(s, log, kings_region)
    check_pieces(s, r, log, round_over)
    if s.expansion:
        check_spaces(s, log)
        check_tokens(s, r, log, round_over)
    else:
        check_base_board(s, log)
    check_power_cards(s, log, round_over)
    check_cards(s, r, log, round_over)
    check_scores(s, log)


@compiled
def check_caballeros(s, r, log):
    """Each colour's Caballeros: as many as set up, none fewer than none, the black ones all on
    the board."""
    n = s.n_players
    each = r.caballeros_per_player + (r.expansion_caballeros if s.expansion else 0)
    for c in range(N_COLOURS):
        if c < MAX_PLAYERS and (s.court[c] < 0 or s.provinces[c] < 0):
            broken(log, CABALLEROS_NEGATIVE, c, min(s.court[c], s.provinces[c]))
        for g in range(N_PLACES):
            if s.cab[c, g] < 0:
                broken(log, CABALLEROS_NEGATIVE, c, s.cab[c, g])
        if c < n and caballeros_of(s, c) != each:
            broken(log, CABALLEROS, c, caballeros_of(s, c))
        if n <= c < MAX_PLAYERS and caballeros_of(s, c) != 0:
            broken(log, NO_SUCH_COLOUR, c, caballeros_of(s, c))
    black = 0
    for g in range(N_PLACES):
        black += s.cab[BLACK, g]
    expected = 2 * r.black_caballeros_per_region if s.expansion else 0
    if black != expected:
        broken(log, BLACK_CABALLEROS, black, expected)


@compiled
def check_kings_region(s, log, kings_region):
    """Nothing entered or left the King's region since the last check, unless the King moved;
    then what it holds now is noted."""
    if kings_region[0] == s.king_moves and kings_region[1] == s.king:
        g = s.king
        for c in range(N_COLOURS):
            if s.cab[c, g] != kings_region[2 + c]:
                broken(log, KINGS_REGION_CABALLEROS, c, s.cab[c, g] - kings_region[2 + c])
        for p in range(s.n_players):
            if (1 if s.grande[p] == g else 0) != kings_region[PIECES + p]:
                broken(log, KINGS_REGION_PIECES, p, g)
        for m in range(2):
            if (1 if s.mobile[m] == g else 0) != kings_region[PIECES + MAX_PLAYERS + m]:
                broken(log, KINGS_REGION_PIECES, MAX_PLAYERS + m, g)
        if (1 if s.table_region == g else 0) != kings_region[PIECES + MAX_PLAYERS + 2]:
            broken(log, KINGS_REGION_PIECES, MAX_PLAYERS + 2, g)
    note_kings_region(s, kings_region)


@compiled
def check_pieces(s, r, log, round_over):
    """The King, the Grandes and the mobile scoreboards on this game's board; the Castillo
    emptied by a general scoring."""
    if not 0 <= s.king < s.n_regions or not king_may_enter(s, s.king):
        broken(log, KING_PLACE, s.king, 0)
    for p in range(s.n_players):
        if not 0 <= s.grande[p] < s.n_regions:
            broken(log, GRANDE_PLACE, p, s.grande[p])
    for m in range(2):
        if not -1 <= s.mobile[m] < s.n_regions:
            broken(log, SCOREBOARD_PLACE, m, s.mobile[m])
    if s.mobile[0] >= 0 and s.mobile[0] == s.mobile[1]:
        broken(log, SCOREBOARDS_TOGETHER, s.mobile[0], 0)
    if round_over and general_scoring_after(r, s.round_no):
        for p in range(s.n_players):
            if s.cab[p, CASTILLO] != 0:
                broken(log, CASTILLO_AFTER_SCORING, p, s.cab[p, CASTILLO])


@compiled
def check_base_board(s, log):
    """The base game: no Caballero, token, table or Grand Inquisitor of the expansion."""
    for c in range(N_COLOURS):
        for g in range(N_SPAIN, CASTILLO):
            if s.cab[c, g] != 0:
                broken(log, OUTSIDE_SPAIN, c, g)
    for token in range(2):
        if s.supply[token] + s.lying[token] != 0:
            broken(log, TOKENS, token, s.supply[token] + s.lying[token])
    if s.table_region != -1:
        broken(log, TABLE_PLACE, s.table_region, 0)
    if s.inquisitor != -1:
        broken(log, INQUISITOR, s.inquisitor, s.n_players)


@compiled
def check_tokens(s, r, log, round_over):
    """Gold and Wares: the limited supply's count in the supply, lying and carried; carried one
    per Caballero outside Spain; none counted as come this round to the Ship and the colonies
    once the round is over (its general scoring too)."""
    total_ware = s.supply[WARE] + s.lying[WARE]
    total_gold = s.supply[GOLD] + s.lying[GOLD]
    for token in range(2):
        if s.supply[token] < 0 or s.lying[token] < 0:
            broken(log, TOKENS_NEGATIVE, token, min(s.supply[token], s.lying[token]))
    for c in range(N_COLOURS):
        for g in range(N_PLACES):
            carried = s.carry[c, g, WARE] + s.carry[c, g, GOLD]
            total_ware += s.carry[c, g, WARE]
            total_gold += s.carry[c, g, GOLD]
            if s.carry[c, g, WARE] < 0 or s.carry[c, g, GOLD] < 0 or \
                    carried > s.cab[c, g] - holds_space(s, c, g):
                broken(log, CARRIED, c, carried)
            if carried != 0 and (g < N_SPAIN or g == CASTILLO):
                broken(log, CARRIED_IN_SPAIN, c, g)
            came = s.arrived[c, g]
            if came < 0 or came > s.cab[c, g] or (came > 0 and round_over):
                broken(log, ARRIVED, c, came)
    if total_ware != r.wares:
        broken(log, TOKENS, WARE, total_ware)
    if total_gold != r.gold:
        broken(log, TOKENS, GOLD, total_gold)


@compiled
def check_spaces(s, log):
    """The Captain and the Viceroy, Francia's three spaces, the limit table, the Grand
    Inquisitor."""
    if s.captain >= 0 and (s.captain >= N_COLOURS or s.cab[s.captain, SHIP] == 0):
        broken(log, SPACE_HOLDER, 0, s.captain)
    if s.viceroy >= 0 and (s.viceroy >= N_COLOURS or s.cab[s.viceroy, AMERICA] == 0):
        broken(log, SPACE_HOLDER, 1, s.viceroy)
    for c in range(N_COLOURS):
        held = 0
        for i in range(FRANCIA_SPACES):
            held += 1 if s.francia[i] == c else 0
        if held != s.cab[c, FRANCIA]:
            broken(log, FRANCIA_HOLDERS, c, held)
    t = s.table_region
    if not 0 <= t < s.n_regions or t == FRANCIA:
        broken(log, TABLE_PLACE, t, 0)
    else:
        load = 0
        beside = 0
        for c in range(N_COLOURS):
            standing = s.cab[c, t] - holds_space(s, c, t)
            if not 0 <= s.on_table[c] <= standing:
                broken(log, TABLE_COLOUR, c, s.on_table[c])
            load += s.on_table[c]
            beside += standing - s.on_table[c]
        if load > s.table_size:
            broken(log, TABLE_FULL, load, s.table_size)
        elif load < s.table_size and beside > 0:
            broken(log, TABLE_FILLED, s.table_size - load, beside)
    if not -1 <= s.inquisitor < s.n_players:
        broken(log, INQUISITOR, s.inquisitor, s.n_players)


@compiled
def check_power_cards(s, log, round_over):
    """Each player's power cards: one in play a round, each played once a game (until taken
    back), a value played twice in a round only by one who had no other."""
    n = s.n_players
    for p in range(n):
        v = s.power_played[p]
        if round_over and v != 0 or not round_over and (
                not 1 <= v <= N_POWER or s.power_round[p, v] != s.round_no):
            broken(log, POWER_IN_PLAY, p, v)
        used = 0
        for w in range(1, N_POWER + 1):
            used += s.power_used[p, w]
            if s.power_used[p, w] != 0 and not 1 <= s.power_round[p, w] <= s.round_no:
                broken(log, POWER_NEVER_PLAYED, p, w)
        if used > s.round_no:
            broken(log, POWER_USED, p, used)
        if round_over or not 1 <= v <= N_POWER:
            continue
        for q in range(n):  # p played v after q did: p had no value nobody had played
            if q == p or s.power_played[q] != v or s.played_at[q] > s.played_at[p]:
                continue
            for w in range(1, N_POWER + 1):
                if s.power_round[p, w] != 0:
                    continue  # played before (or now): unused then only if taken back since
                played_before = False
                for o in range(n):
                    played_before = played_before or (
                        s.power_played[o] == w and s.played_at[o] < s.played_at[p])
                if not played_before:
                    broken(log, POWER_CLASH, p, v)


@compiled
def check_cards(s, r, log, round_over):
    """The action cards: each stack's face-down cards one fewer each round, the face-up ones of
    their stack; the Vetoes and the kept cards none fewer than none (a copied or executed
    card's special action may hold one more than the stack had: no upper bound), the Vetoes
    gone at the round's end, Free Choice used at the general scoring."""
    for stack in range(N_STACKS):
        size = 0
        if stack != KING_STACK and stack != INQUISITION_STACK:
            for card in range(N_CARD_KINDS if s.expansion else HOLY_INQUISITION):
                size += s.card_count[card] if CARD_STACK[card] == stack + 1 else 0
        if s.deck_n[stack] != max(0, size - s.round_no):
            broken(log, STACK_SIZE, stack, s.deck_n[stack])
        card = s.face[stack]
        if card >= 0 and (round_over or card >= N_CARD_KINDS or CARD_STACK[card] != stack + 1):
            broken(log, FACE_UP, stack, card)
    for p in range(s.n_players):
        if s.vetoes[p] < 0 or (round_over and r.veto_lasts == VETO_ROUND and s.vetoes[p] != 0):
            broken(log, VETOES, p, s.vetoes[p])
    for which in range(3):
        kept = 0
        for p in range(s.n_players):
            if s.held[p, which] < 0:
                broken(log, HELD, which, s.held[p, which])
            kept += s.held[p, which]
        if which == HELD_FREE_CHOICE and round_over and kept != 0 and \
                general_scoring_after(r, s.round_no):
            broken(log, HELD, which, kept)


@compiled
def check_scores(s, log):
    """Each player's score is the sum of its points by source, none fewer than none; Gold and
    Wares pay their points each."""
    low = min(s.token_points[WARE], s.token_points[GOLD])
    high = max(s.token_points[WARE], s.token_points[GOLD])
    for p in range(s.n_players):
        total = 0
        for source in range(N_SOURCES):
            total += s.vp[p, source]
            if s.vp[p, source] < 0:
                broken(log, POINTS_NEGATIVE, p, s.vp[p, source])
        if total != s.score[p]:
            broken(log, SCORE_SOURCES, p, s.score[p])
        points = s.vp[p, FROM_TOKENS]
        if not low * s.tokens_home[p] <= points <= high * s.tokens_home[p]:
            broken(log, TOKEN_POINTS, p, points)
