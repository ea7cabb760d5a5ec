"""GEMMiS: the log codes the kernels write into a replay log, and the other integer codes the
compiled code uses (decisions, causes). The words for them are in ``story.py``, which no
compiled module imports, so editing a replay sentence recompiles nothing."""

LOG_KINDS = (
    "setup", "zone_gem", "small_gem_placed", "street_filled", "turn", "switch", "no_switch",
    "small_gem_switch", "small_gem_kept", "options", "combination", "joker", "no_combination",
    "kept", "left_standing", "deferred", "zone_filled", "zone_left_empty", "direction",
    "street_moved", "street_still", "street_closed", "street_gem_returned", "street_left_empty",
    "sack_refilled", "sack_empty", "points", "small_gem_taken", "alert", "alguazil_used",
    "alguazil_cancelled", "interrupted", "street_cleaned", "aside_returned", "direction_changed",
    "market_closed", "last_turn", "penalty", "small_gem_points", "truncated", "game_end",
    "zone_settled", "alert_after_skill", "cascade_limit")
(SETUP, ZONE_GEM, SMALL_GEM_PLACED, STREET_FILLED, TURN, SWITCH, NO_SWITCH, SMALL_GEM_SWITCH,
 SMALL_GEM_KEPT, OPTIONS, COMBINATION, JOKER_COLOUR, NO_COMBINATION, KEPT, LEFT_STANDING,
 DEFERRED, ZONE_FILLED, ZONE_LEFT_EMPTY, DIRECTION, STREET_MOVED, STREET_STILL, STREET_CLOSED,
 STREET_GEM_RETURNED, STREET_LEFT_EMPTY, SACK_REFILLED, SACK_EMPTY, POINTS, SMALL_GEM_TAKEN,
 ALERT, ALGUAZIL_USED, ALGUAZIL_CANCELLED, INTERRUPTED, STREET_CLEANED, ASIDE_RETURNED,
 DIRECTION_CHANGED, MARKET_CLOSED, LAST_TURN, PENALTY, SMALL_GEM_POINTS, TRUNCATED,
 GAME_END, ZONE_SETTLED, ALERT_AFTER_SKILL, CASCADE_LIMIT) = range(len(LOG_KINDS))

# The decisions whose options are logged (OPTIONS rows).
DECIDE_SWITCH, DECIDE_COMBINATION, DECIDE_FILL, DECIDE_DIRECTION, DECIDE_EXTRA_SWITCH = range(5)

# Why gems were drawn into the street, and where a zone's gem came from.
BY_OPENING, BY_REFILL, BY_CLEANING = range(3)
FROM_STREET, FROM_SACK = range(2)

# The parameters whose coming up a batch run counts (``came_up`` in core/trace.py), each counted
# where its value can change what happens; the index of a name here is its tally column.
# The Puncta Gemmarum count by the size of the combination triggered (UP_POINTS_3 + size - 3);
# the small gems' cells when a marker reaches or passes one still on the track. The chip make-up
# and the setup are read in every game and are not counted.
RULES_THAT_COME_UP = (
    "points_3", "points_4", "points_5", "points_6", "points_7", "points_8", "points_9",
    "points_10", "points_11", "points_12", "small_gem_cell_1", "small_gem_cell_2",
    "small_gem_cell_3", "swap_rule", "zone_refill", "sack_into_zone", "street_move",
    "street_moving", "cascades", "max_turns", "closing_score", "last_turn", "small_gem_taken",
    "small_gem_use", "small_gem_switch_when", "small_gems_per_turn", "small_gem_last_turn",
    "small_gem_points", "alguazil_levels", "cascade_limit")
(UP_POINTS_3, UP_POINTS_4, UP_POINTS_5, UP_POINTS_6, UP_POINTS_7, UP_POINTS_8, UP_POINTS_9,
 UP_POINTS_10, UP_POINTS_11, UP_POINTS_12, UP_SMALL_GEM_CELL_1, UP_SMALL_GEM_CELL_2,
 UP_SMALL_GEM_CELL_3, UP_SWAP_RULE, UP_ZONE_REFILL, UP_SACK_INTO_ZONE, UP_STREET_MOVE,
 UP_STREET_MOVING, UP_CASCADES, UP_MAX_TURNS, UP_CLOSING_SCORE, UP_LAST_TURN,
 UP_SMALL_GEM_TAKEN, UP_SMALL_GEM_USE, UP_SMALL_GEM_SWITCH_WHEN, UP_SMALL_GEMS_PER_TURN,
 UP_SMALL_GEM_LAST_TURN, UP_SMALL_GEM_POINTS, UP_ALGUAZIL_LEVELS,
 UP_CASCADE_LIMIT) = range(len(RULES_THAT_COME_UP))
