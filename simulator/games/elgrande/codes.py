"""El Grande: the log codes the kernels write into a replay log, and the other integer codes the
compiled code uses (places, decisions, purposes, reasons). The words for them are in
``story.py``, which no compiled module imports, so editing a replay sentence recompiles nothing."""

from simulator.games.elgrande.board import N_PLACES

LOG_KINDS = (
    "setup", "home", "round", "card_up", "stack_empty", "power_card", "power_clash",
    "turn_order", "to_court", "card_taken", "placed", "moved", "returned", "special",
    "special_declined", "vetoed", "scoring", "place_scored", "bonus", "nobody_scores",
    "king_moved", "grande_moved", "scoreboard_moved", "secret_choice", "castillo_emptied",
    "discarded", "power_taken_back", "decision", "no_effect", "game_end", "truncated",
    "turn", "veto_held",
    # the expansion
    "black_placed", "table_placed", "table_filled", "inquisitor_taken", "extra_caballero",
    "tokens_laid", "token_taken", "token_home", "token_lost", "space_scored", "card_held",
    "held_card_used", "free_move", "black_stay", "table_move", "setup_caballeros",
    "copycat_action",
)
(SETUP, HOME, ROUND, CARD_UP, STACK_EMPTY, POWER_CARD, POWER_CLASH, TURN_ORDER, TO_COURT,
 CARD_TAKEN, PLACED, MOVED, RETURNED, SPECIAL, SPECIAL_DECLINED, VETOED, SCORING, PLACE_SCORED,
 BONUS, NOBODY_SCORES, KING_MOVED, GRANDE_MOVED, SCOREBOARD_MOVED, SECRET_CHOICE,
 CASTILLO_EMPTIED, DISCARDED, POWER_TAKEN_BACK, DECISION, NO_EFFECT, GAME_END, TRUNCATED,
 TURN, VETO_HELD,
 BLACK_PLACED, TABLE_PLACED, TABLE_FILLED, INQUISITOR_TAKEN, EXTRA_CABALLERO, TOKENS_LAID,
 TOKEN_TAKEN, TOKEN_HOME, TOKEN_LOST, SPACE_SCORED, CARD_HELD, HELD_CARD_USED,
 FREE_MOVE, BLACK_STAY, TABLE_MOVE, SETUP_CABALLEROS, COPYCAT_ACTION) = range(len(LOG_KINDS))

COURT = N_PLACES          # where a move's "place" is the court (returns, a disc naming the King)
PROVINCES = N_PLACES + 1

# Decisions whose options are logged (DECISION rows).
(DECIDE_POWER, DECIDE_CARD, DECIDE_PLACEMENT, DECIDE_MOVE, DECIDE_PLACE, DECIDE_VETO,
 DECIDE_TAKE_BACK, DECIDE_ALTERNATIVE, DECIDE_FREE_MOVE, DECIDE_TABLE_SPACE,
 DECIDE_HELD_CARD, DECIDE_INQUISITOR_EXTRA) = range(12)

# What a secret choice or a chosen place is for (SECRET_CHOICE / scoring causes).
(SECRET_DISC, SECRET_RETURN_TWO, SECRET_RETURN_ALL_, SECRET_DESTINATION, SECRET_UNIQUE,
 SECRET_SETUP) = range(6)

# Why nothing happened (NO_EFFECT rows).
(NO_CABALLERO, NOWHERE, NOTHING_TO_RETURN, NO_REGION, NO_POWER_CARD, NO_SCOREBOARD_MOVE,
 KING_STAYS, GRANDE_STAYS, PROVINCES_EMPTY, SUPPLY_EMPTY, TABLE_STAYS,
 NO_CARD) = range(12)

# The parameters whose coming up a batch run counts (``came_up`` in core/trace.py), each counted
# where its value can change what happens; the index of a name here is its tally column.
RULES_THAT_COME_UP = ()
