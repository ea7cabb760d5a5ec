"""GEMMiS: what holds after every turn of a checked run, and ``check``, the compiled test of it
(the gems, the score track, the small gems, the Alguazil's thermometer, the market's close)."""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.trace import broken
from simulator.games.gemmis.board import (
    CASCADE_SAME_TURN, CELLS, COLUMNS, EMPTY, INNER, LAST_TURN_NO_LIMIT, MAX_CHIPS,
    N_PLAYERS, N_SMALL_GEMS_ON_TRACK, OUTER, REFILL_TOUCHING, STREET, TAKEN_REACH_OR_PASS,
    USE_EXTRA_SWITCH, alert_available, cell_of, chip_count, natural_combination, points_for_size,
    popcount, small_gem_cell, zone_masks, zone_penalty,
)

INVARIANTS = (
    "{a} chips are in the game, not the {b} of the rule data's make-up",
    "the sack holds {a} gems, outside 0 to the game's {b} chips",
    "the used pile holds {a} gems, outside 0 to the game's {b} chips",
    "{a} gems are still set aside after the turn, though the street's cleaning puts them back "
    "into the sack",
    "a place holds {a}, neither an empty place nor one of the game's {b} chips",
    "chip {a} lies in two places at once",
    "{a} chips lie in the zones, the street, the sack, the used pile and set aside, not the "
    "game's {b}",
    "street place {a} is empty while the market is open and {b} gems are in the sack and the "
    "used pile",
    "the inner-row gem of column {b} in player {a}'s zone has not slid out into the empty outer "
    "cell above it",
    "player {a}'s turn triggered {b} combinations, past the cascade_limit",
    "player {a}'s zone holds a combination of {b} gems after their turn, though a combination "
    "got is mandatory and triggered at once",
    "player {a} has triggered a combination of {b} gems, fewer than three",
    "player {a} has {b} points from the Puncta Gemmarum table, not the table's points for the "
    "combinations they triggered",
    "player {a} has {b} points from printed values, fewer than none",
    "player {a}'s marker on the score track stands at {b}, not at their combinations' points "
    "plus printed values",
    "player {a}'s end penalty is {b}, not the printed values left in their zone (advanced mode, "
    "after the last turn; none otherwise)",
    "player {a} scores {b} for unused small gems, not small_gem_points for each one (after the "
    "last turn; none before)",
    "{a} small gems are on the score track and with the players, not the {b} placed at setup",
    "player {a} has spent {b} small gems, more than they took or fewer than none",
    "player {a} spent {b} small gems in their turn, more than the small gems' rules allow",
    "a small gem still lies on cell {a} of the score track, though a marker has reached {b}",
    "the small gem of cell {a} was taken, though no marker has reached it (the highest stands "
    "at {b})",
    "player {a}'s alert stands at level {b}, off the thermometer",
    "player {a} used the Alguazil {b} times in a game without the Alguazil",
    "player {a}'s marker stands at {b}, at or past the closing score, while the market is open",
    "the market is closed by player {a} (-1: nobody), whose marker stands at {b}, short of the "
    "closing score",
    "the players have played {a} turns, not the game's {b}",
    "the game has gone {a} turns, past max_turns ({b})",
)
(CHIPS_IN_GAME, SACK_COUNT, USED_COUNT, ASIDE_LEFT, NOT_A_CHIP, CHIP_TWICE, CHIPS_LOST,
 STREET_GAP, ZONE_NOT_SETTLED, CASCADE_LIMIT, COMBINATION_STANDS, SMALL_COMBINATION, TABLE_POINTS,
 NEGATIVE_VALUES, MARKER, PENALTY, SMALL_GEM_POINTS, SMALL_GEMS_LOST, SMALL_GEMS_OVERSPENT,
 SMALL_GEMS_PER_TURN, SMALL_GEM_LEFT_BEHIND, SMALL_GEM_TAKEN_EARLY, ALERT, ALGUAZIL_WITHOUT,
 OPEN_PAST_CLOSING, CLOSED_SHORT, TURNS, TURN_LIMIT) = range(len(INVARIANTS))

# The chips seen in their places, a bit each in three 64-bit words (no array to allocate).
assert MAX_CHIPS <= 3 * 64


@compiled(inline="always")
def seen_again(seen, chip):
    """``seen`` with ``chip`` marked, and whether it was marked already."""
    bit = np.int64(1) << (chip & 63)
    low, middle, high = seen
    word = chip >> 6
    if word == 0:
        return (low | bit, middle, high), low & bit != 0
    if word == 1:
        return (low, middle | bit, high), middle & bit != 0
    return (low, middle, high | bit), high & bit != 0


@compiled(inline="always")
def place_chip(log, s, seen, chip, may_be_empty):
    """``seen`` with the chip of one place marked (an empty place, where one may be, marks
    nothing)."""
    if chip == EMPTY and may_be_empty:
        return seen
    if chip < 0 or chip >= s.n_chips:
        broken(log, NOT_A_CHIP, chip, s.n_chips)
        return seen
    seen, twice = seen_again(seen, chip)
    if twice:
        broken(log, CHIP_TWICE, chip, 0)
    return seen


@compiled
def check_chips(s, r, log):
    """Every chip of the make-up in exactly one place: a zone, the street, the sack, the used
    pile or set aside (only while the street is cleaned)."""
    if s.n_chips != chip_count(r) or not 0 <= s.n_chips <= MAX_CHIPS:
        broken(log, CHIPS_IN_GAME, s.n_chips, chip_count(r))
        return
    if not 0 <= s.sack_n <= s.n_chips:
        broken(log, SACK_COUNT, s.sack_n, s.n_chips)
        return
    if not 0 <= s.used_n <= s.n_chips:
        broken(log, USED_COUNT, s.used_n, s.n_chips)
        return
    if s.aside_n != 0:
        broken(log, ASIDE_LEFT, s.aside_n, 0)
        return
    seen = (np.int64(0), np.int64(0), np.int64(0))
    placed = s.sack_n + s.used_n
    for p in range(N_PLAYERS):
        for cell in range(CELLS):
            seen = place_chip(log, s, seen, s.zone[p, cell], True)
            placed += s.zone[p, cell] != EMPTY
    for place in range(STREET):
        seen = place_chip(log, s, seen, s.street[place], True)
        placed += s.street[place] != EMPTY
    for i in range(s.sack_n):
        seen = place_chip(log, s, seen, s.sack[i], False)
    for i in range(s.used_n):
        seen = place_chip(log, s, seen, s.used[i], False)
    if placed != s.n_chips:
        broken(log, CHIPS_LOST, placed, s.n_chips)


@compiled
def check_table(s, r, log):
    """The street and the zones as the turn leaves them."""
    if s.market_open and s.alguazil == 0:  # (a cleaning may leave gaps the aside gems fill)
        for place in range(STREET):
            if s.street[place] == EMPTY and s.sack_n + s.used_n > 0:
                broken(log, STREET_GAP, place, s.sack_n + s.used_n)
    if r.zone_refill == REFILL_TOUCHING:
        for p in range(N_PLAYERS):
            for column in range(COLUMNS):
                outer, inner = cell_of(OUTER, column), cell_of(INNER, column)
                if s.zone[p, outer] == EMPTY and s.zone[p, inner] != EMPTY:
                    broken(log, ZONE_NOT_SETTLED, p, column)
    size = popcount(natural_combination(zone_masks(s, s.player)))
    if s.cascade > r.cascade_limit:
        broken(log, CASCADE_LIMIT, s.player, s.cascade)
    # An interruption (the Alguazil), a deferred cascade or the cascade_limit leaves a
    # combination for the next turn; advanced mode one not bigger than the turn's last.
    if s.alguazil == 0 and r.cascades == CASCADE_SAME_TURN and s.cascade < r.cascade_limit:
        if size > (s.last_size if s.advanced else 0):
            broken(log, COMBINATION_STANDS, s.player, size)


@compiled
def check_scores(s, r, log, finished):
    """The marker on the score track is the sum of its sources; the end's penalty and small
    gems' points come only after the last turn."""
    for p in range(N_PLAYERS):
        table_points = 0
        for size in range(CELLS + 1):
            if size < 3 and s.combinations[p, size] != 0:
                broken(log, SMALL_COMBINATION, p, size)
            elif size >= 3:
                table_points += s.combinations[p, size] * points_for_size(r, size)
        if s.points_sizes[p] != table_points:
            broken(log, TABLE_POINTS, p, s.points_sizes[p])
        if s.points_values[p] < 0:
            broken(log, NEGATIVE_VALUES, p, s.points_values[p])
        if s.points[p] != s.points_sizes[p] + s.points_values[p]:
            broken(log, MARKER, p, s.points[p])
        penalty = zone_penalty(s, p) if finished and s.advanced else 0
        if s.penalty[p] != penalty:
            broken(log, PENALTY, p, s.penalty[p])
        unused = s.small_gems[p] - s.small_gems_used[p]
        if s.points_small_gems[p] != (unused * r.small_gem_points if finished else 0):
            broken(log, SMALL_GEM_POINTS, p, s.points_small_gems[p])


@compiled
def check_small_gems(s, r, log):
    """The three small gems: on the track until a marker reaches them, then a player's, each
    spent at most once, as many a turn as the rules allow."""
    on_track = 0
    for k in range(N_SMALL_GEMS_ON_TRACK):
        on_track += s.small_gem_on_cell[k]
    if on_track + s.small_gems[0] + s.small_gems[1] != N_SMALL_GEMS_ON_TRACK:
        broken(log, SMALL_GEMS_LOST, on_track + s.small_gems[0] + s.small_gems[1],
               N_SMALL_GEMS_ON_TRACK)
    for p in range(N_PLAYERS):
        if not 0 <= s.small_gems_used[p] <= s.small_gems[p]:
            broken(log, SMALL_GEMS_OVERSPENT, p, s.small_gems_used[p])
    # the turn just played: its small gems were spent before any combination, so with no limit
    # only if the market had closed before it
    last_turn = s.market_open == 0 and s.close_turn < s.turn - 1
    if r.small_gem_use != USE_EXTRA_SWITCH:
        limit = 0
    elif last_turn and r.small_gem_last_turn == LAST_TURN_NO_LIMIT:
        limit = N_SMALL_GEMS_ON_TRACK
    else:
        limit = r.small_gems_per_turn
    if s.small_gems_this_turn > limit:
        broken(log, SMALL_GEMS_PER_TURN, s.player, s.small_gems_this_turn)
    highest = max(s.points[0], s.points[1])
    for k in range(N_SMALL_GEMS_ON_TRACK):
        cell = small_gem_cell(r, k)
        if s.small_gem_on_cell[k] and highest >= cell and r.small_gem_taken == TAKEN_REACH_OR_PASS:
            broken(log, SMALL_GEM_LEFT_BEHIND, cell, highest)
        if not s.small_gem_on_cell[k] and highest < cell:
            broken(log, SMALL_GEM_TAKEN_EARLY, cell, highest)


@compiled
def check_alguazil(s, r, log):
    top = alert_available(r) if s.alguazil else 0
    for p in range(N_PLAYERS):
        if not 0 <= s.alert[p] <= top:
            broken(log, ALERT, p, s.alert[p])
        if s.alguazil == 0:
            uses = 0
            for skill in range(4):
                uses += s.alguazil_uses[p, skill]
            if uses:
                broken(log, ALGUAZIL_WITHOUT, p, uses)


@compiled
def check_end(s, r, log):
    """The market closes the moment a marker reaches the closing score; the turns."""
    if s.market_open:
        for p in range(N_PLAYERS):
            if s.points[p] >= r.closing_score:
                broken(log, OPEN_PAST_CLOSING, p, s.points[p])
    elif not 0 <= s.closer < N_PLAYERS:
        broken(log, CLOSED_SHORT, s.closer, 0)
    elif s.points[s.closer] < r.closing_score:
        broken(log, CLOSED_SHORT, s.closer, s.points[s.closer])
    if s.turns_played[0] + s.turns_played[1] != s.turn:
        broken(log, TURNS, s.turns_played[0] + s.turns_played[1], s.turn)
    if s.turn > r.max_turns:
        broken(log, TURN_LIMIT, s.turn, r.max_turns)


@compiled
def check(s, r, log, finished):
    """Note in ``log`` (``trace.broken``) each invariant the state ``s`` breaks after a turn
    (``finished``: after the last turn's final scoring)."""
    check_chips(s, r, log)
    check_table(s, r, log)
    check_scores(s, r, log, finished)
    check_small_gems(s, r, log)
    check_alguazil(s, r, log)
    check_end(s, r, log)
