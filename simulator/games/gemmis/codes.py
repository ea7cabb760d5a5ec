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
    "zone_settled", "alert_after_skill")
(SETUP, ZONE_GEM, SMALL_GEM_PLACED, STREET_FILLED, TURN, SWITCH, NO_SWITCH, SMALL_GEM_SWITCH,
 SMALL_GEM_KEPT, OPTIONS, COMBINATION, JOKER_COLOUR, NO_COMBINATION, KEPT, LEFT_STANDING,
 DEFERRED, ZONE_FILLED, ZONE_LEFT_EMPTY, DIRECTION, STREET_MOVED, STREET_STILL, STREET_CLOSED,
 STREET_GEM_RETURNED, STREET_LEFT_EMPTY, SACK_REFILLED, SACK_EMPTY, POINTS, SMALL_GEM_TAKEN,
 ALERT, ALGUAZIL_USED, ALGUAZIL_CANCELLED, INTERRUPTED, STREET_CLEANED, ASIDE_RETURNED,
 DIRECTION_CHANGED, MARKET_CLOSED, LAST_TURN, PENALTY, SMALL_GEM_POINTS, TRUNCATED,
 GAME_END, ZONE_SETTLED, ALERT_AFTER_SKILL) = range(len(LOG_KINDS))

# The decisions whose options are logged (OPTIONS rows).
DECIDE_SWITCH, DECIDE_COMBINATION, DECIDE_FILL, DECIDE_DIRECTION, DECIDE_EXTRA_SWITCH = range(5)

# Why gems were drawn into the street, and where a zone's gem came from.
BY_OPENING, BY_REFILL, BY_CLEANING = range(3)
FROM_STREET, FROM_SACK = range(2)

# The parameters whose coming up a batch run counts (``came_up`` in core/trace.py), each counted
# where its value can change what happens; the index of a name here is its tally column.
RULES_THAT_COME_UP = ()
