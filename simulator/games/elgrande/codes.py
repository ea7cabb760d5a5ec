"""El Grande: the log codes the kernels write into a replay log, and the other integer codes the
compiled code uses (places, decisions, a card's order, purposes, reasons), the rules' and the
players' alike. The words for them are in ``story.py``, which no compiled module imports, so
editing a replay sentence recompiles nothing."""

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

# How a player carries out the card taken (``turn.choose_card``): the order of its two parts.
ACTION_FIRST, PLACEMENT_FIRST, NO_ACTION = range(3)

# What a chosen place is for (``trials.choose_place``'s ``purpose``; ``extra`` as noted): the
# rules try the option out by it (``trials.apply_option``).
(P_PLACE, P_ALL_OUT, P_DESTINATION, P_RETURN_OWN, P_VICTIM, P_SECRET_RETURN,
 P_SECRET_RETURN_ALL, P_SCORE, P_DISC, P_KING, P_GRANDE, P_DISPERSE_FROM, P_DISPERSE_TO,
 P_UNIQUE, P_SETUP, P_FREE_MOVE, P_LIMIT_TABLE, P_FREE_MOVE_BLACK, P_DESTINATION_BLACK) = range(19)
# P_DESTINATION(_BLACK), P_DISPERSE_TO, P_FREE_MOVE(_BLACK): extra = the place the Caballeros
# leave (a black one's for the Grand Inquisitor's holder); P_VICTIM:
# extra = the opponent losing one; P_SECRET_RETURN, P_SETUP: extra = how many.

# What a secret choice or a chosen place is for (SECRET_CHOICE / scoring causes).
(SECRET_DISC, SECRET_RETURN_TWO, SECRET_RETURN_ALL_, SECRET_DESTINATION, SECRET_UNIQUE,
 SECRET_SETUP) = range(6)

# Why nothing happened (NO_EFFECT rows).
(NO_CABALLERO, NOWHERE, NOTHING_TO_RETURN, NO_REGION, NO_POWER_CARD, NO_SCOREBOARD_MOVE,
 KING_STAYS, GRANDE_STAYS, PROVINCES_EMPTY, SUPPLY_EMPTY, TABLE_STAYS,
 NO_CARD) = range(12)

# The parameters whose coming up a batch run counts (``came_up`` in core/trace.py), each counted
# where its value can change what happens; the index of a name here is its tally column. Not
# counted: the setup's numbers, read alike in every game (the Caballeros per player, home and
# court; the expansion's six more, the two set up, the black ones, the tokens laid at the start)
# and the King's and Holy Inquisition's card counts, fixed at 1.
RULES_THAT_COME_UP = (
    "rounds", "scoring_every", "king_bonus", "grande_bonus", "power_card_clash", "veto_lasts",
    "take_back", "intrigue_castillo", "first_places_bonuses", "power_1_caballeros",
    "power_2_caballeros", "power_3_caballeros", "power_4_caballeros", "power_5_caballeros",
    "power_6_caballeros", "power_7_caballeros", "power_8_caballeros", "power_9_caballeros",
    "power_10_caballeros", "power_11_caballeros", "power_12_caballeros", "power_13_caballeros",
    "aragon_points_1", "aragon_points_2", "aragon_points_3", "castilla_la_nueva_points_1",
    "castilla_la_nueva_points_2", "castilla_la_nueva_points_3", "castilla_la_vieja_points_1",
    "castilla_la_vieja_points_2", "castilla_la_vieja_points_3", "cataluna_points_1",
    "cataluna_points_2", "cataluna_points_3", "galicia_points_1", "galicia_points_2",
    "galicia_points_3", "granada_points_1", "granada_points_2", "granada_points_3",
    "pais_vasco_points_1", "pais_vasco_points_2", "pais_vasco_points_3", "sevilla_points_1",
    "sevilla_points_2", "sevilla_points_3", "valencia_points_1", "valencia_points_2",
    "valencia_points_3", "castillo_points_1", "castillo_points_2", "castillo_points_3",
    "mobile_1_points_1", "mobile_1_points_2", "mobile_1_points_3", "mobile_2_points_1",
    "mobile_2_points_2", "mobile_2_points_3", "move_any_out_of_one_region_cards",
    "move_any_4_cards", "move_own_4_cards", "move_own_2_opponents_2_cards",
    "move_opponents_3_cards", "move_any_3_cards", "place_2_anywhere_cards",
    "all_out_or_place_2_cards", "all_out_of_one_region_cards", "veto_cards",
    "opponents_court_home_cards", "opponents_court_3_cards", "opponents_any_3_cards",
    "opponents_one_each_cards", "secret_return_2_cards", "secret_return_all_cards",
    "score_chosen_region_cards", "score_5_point_regions_cards", "score_4_point_regions_cards",
    "score_castillo_cards", "score_6_7_point_regions_cards", "score_any_region_cards",
    "score_first_places_cards", "score_most_caballeros_cards", "score_fewest_caballeros_cards",
    "mobile_scoreboard_cards", "move_grande_cards", "take_back_power_card_cards",
    "king_to_neighbour_cards", "opponents_disperse_cards", "provinces_to_court_2_cards",
    "secret_unique_regions_cards", "move_any_out_of_one_region_number", "move_any_4_number",
    "move_own_4_number", "move_own_2_opponents_2_number", "move_opponents_3_number",
    "move_any_3_number", "place_2_anywhere_number", "all_out_or_place_2_number",
    "opponents_court_3_number", "opponents_any_3_number", "opponents_one_each_number",
    "secret_return_2_number", "provinces_to_court_2_number", "limit_table_small",
    "limit_table_large", "wares", "gold", "ware_points", "gold_points", "ambassador_bonus",
    "envoy_bonus", "captain_points", "viceroy_points", "francia_points_1", "francia_points_2",
    "francia_points_3", "ship_points_1", "ship_points_2", "ship_points_3", "america_points_1",
    "america_points_2", "america_points_3", "africa_points_1", "africa_points_2",
    "africa_points_3", "holy_inquisition_caballeros", "holy_inquisition_places",
    "holy_inquisition_number", "inquisitor_extra", "all_out_takes_black", "table_moves_in_region",
    "inquisitor_extra_ship", "execute_action_card_cards", "copycat_cards", "free_choice_cards",
    "score_outside_spain_cards", "score_black_regions_cards", "transport_cards",
    "limit_table_cards", "execute_action_card_caballeros", "copycat_caballeros",
    "free_choice_caballeros", "score_outside_spain_caballeros", "score_black_regions_caballeros",
    "transport_caballeros", "limit_table_caballeros", "transport_number", "free_choice_number",
    "execute_action_card_wares", "execute_action_card_gold", "copycat_wares", "copycat_gold",
    "free_choice_wares", "free_choice_gold", "score_outside_spain_wares",
    "score_outside_spain_gold", "score_black_regions_wares", "score_black_regions_gold",
    "transport_wares", "transport_gold", "limit_table_wares", "limit_table_gold")
(UP_ROUNDS, UP_SCORING_EVERY, UP_KING_BONUS, UP_GRANDE_BONUS, UP_POWER_CARD_CLASH, UP_VETO_LASTS,
 UP_TAKE_BACK, UP_INTRIGUE_CASTILLO, UP_FIRST_PLACES_BONUSES, UP_POWER_1_CABALLEROS,
 UP_POWER_2_CABALLEROS, UP_POWER_3_CABALLEROS, UP_POWER_4_CABALLEROS, UP_POWER_5_CABALLEROS,
 UP_POWER_6_CABALLEROS, UP_POWER_7_CABALLEROS, UP_POWER_8_CABALLEROS, UP_POWER_9_CABALLEROS,
 UP_POWER_10_CABALLEROS, UP_POWER_11_CABALLEROS, UP_POWER_12_CABALLEROS, UP_POWER_13_CABALLEROS,
 UP_ARAGON_POINTS_1, UP_ARAGON_POINTS_2, UP_ARAGON_POINTS_3, UP_CASTILLA_LA_NUEVA_POINTS_1,
 UP_CASTILLA_LA_NUEVA_POINTS_2, UP_CASTILLA_LA_NUEVA_POINTS_3, UP_CASTILLA_LA_VIEJA_POINTS_1,
 UP_CASTILLA_LA_VIEJA_POINTS_2, UP_CASTILLA_LA_VIEJA_POINTS_3, UP_CATALUNA_POINTS_1,
 UP_CATALUNA_POINTS_2, UP_CATALUNA_POINTS_3, UP_GALICIA_POINTS_1, UP_GALICIA_POINTS_2,
 UP_GALICIA_POINTS_3, UP_GRANADA_POINTS_1, UP_GRANADA_POINTS_2, UP_GRANADA_POINTS_3,
 UP_PAIS_VASCO_POINTS_1, UP_PAIS_VASCO_POINTS_2, UP_PAIS_VASCO_POINTS_3, UP_SEVILLA_POINTS_1,
 UP_SEVILLA_POINTS_2, UP_SEVILLA_POINTS_3, UP_VALENCIA_POINTS_1, UP_VALENCIA_POINTS_2,
 UP_VALENCIA_POINTS_3, UP_CASTILLO_POINTS_1, UP_CASTILLO_POINTS_2, UP_CASTILLO_POINTS_3,
 UP_MOBILE_1_POINTS_1, UP_MOBILE_1_POINTS_2, UP_MOBILE_1_POINTS_3, UP_MOBILE_2_POINTS_1,
 UP_MOBILE_2_POINTS_2, UP_MOBILE_2_POINTS_3, UP_MOVE_ANY_OUT_OF_ONE_REGION_CARDS,
 UP_MOVE_ANY_4_CARDS, UP_MOVE_OWN_4_CARDS, UP_MOVE_OWN_2_OPPONENTS_2_CARDS,
 UP_MOVE_OPPONENTS_3_CARDS, UP_MOVE_ANY_3_CARDS, UP_PLACE_2_ANYWHERE_CARDS,
 UP_ALL_OUT_OR_PLACE_2_CARDS, UP_ALL_OUT_OF_ONE_REGION_CARDS, UP_VETO_CARDS,
 UP_OPPONENTS_COURT_HOME_CARDS, UP_OPPONENTS_COURT_3_CARDS, UP_OPPONENTS_ANY_3_CARDS,
 UP_OPPONENTS_ONE_EACH_CARDS, UP_SECRET_RETURN_2_CARDS, UP_SECRET_RETURN_ALL_CARDS,
 UP_SCORE_CHOSEN_REGION_CARDS, UP_SCORE_5_POINT_REGIONS_CARDS, UP_SCORE_4_POINT_REGIONS_CARDS,
 UP_SCORE_CASTILLO_CARDS, UP_SCORE_6_7_POINT_REGIONS_CARDS, UP_SCORE_ANY_REGION_CARDS,
 UP_SCORE_FIRST_PLACES_CARDS, UP_SCORE_MOST_CABALLEROS_CARDS, UP_SCORE_FEWEST_CABALLEROS_CARDS,
 UP_MOBILE_SCOREBOARD_CARDS, UP_MOVE_GRANDE_CARDS, UP_TAKE_BACK_POWER_CARD_CARDS,
 UP_KING_TO_NEIGHBOUR_CARDS, UP_OPPONENTS_DISPERSE_CARDS, UP_PROVINCES_TO_COURT_2_CARDS,
 UP_SECRET_UNIQUE_REGIONS_CARDS, UP_MOVE_ANY_OUT_OF_ONE_REGION_NUMBER, UP_MOVE_ANY_4_NUMBER,
 UP_MOVE_OWN_4_NUMBER, UP_MOVE_OWN_2_OPPONENTS_2_NUMBER, UP_MOVE_OPPONENTS_3_NUMBER,
 UP_MOVE_ANY_3_NUMBER, UP_PLACE_2_ANYWHERE_NUMBER, UP_ALL_OUT_OR_PLACE_2_NUMBER,
 UP_OPPONENTS_COURT_3_NUMBER, UP_OPPONENTS_ANY_3_NUMBER, UP_OPPONENTS_ONE_EACH_NUMBER,
 UP_SECRET_RETURN_2_NUMBER, UP_PROVINCES_TO_COURT_2_NUMBER, UP_LIMIT_TABLE_SMALL,
 UP_LIMIT_TABLE_LARGE, UP_WARES, UP_GOLD, UP_WARE_POINTS, UP_GOLD_POINTS, UP_AMBASSADOR_BONUS,
 UP_ENVOY_BONUS, UP_CAPTAIN_POINTS, UP_VICEROY_POINTS, UP_FRANCIA_POINTS_1, UP_FRANCIA_POINTS_2,
 UP_FRANCIA_POINTS_3, UP_SHIP_POINTS_1, UP_SHIP_POINTS_2, UP_SHIP_POINTS_3, UP_AMERICA_POINTS_1,
 UP_AMERICA_POINTS_2, UP_AMERICA_POINTS_3, UP_AFRICA_POINTS_1, UP_AFRICA_POINTS_2,
 UP_AFRICA_POINTS_3, UP_HOLY_INQUISITION_CABALLEROS, UP_HOLY_INQUISITION_PLACES,
 UP_HOLY_INQUISITION_NUMBER, UP_INQUISITOR_EXTRA, UP_ALL_OUT_TAKES_BLACK, UP_TABLE_MOVES_IN_REGION,
 UP_INQUISITOR_EXTRA_SHIP, UP_EXECUTE_ACTION_CARD_CARDS, UP_COPYCAT_CARDS, UP_FREE_CHOICE_CARDS,
 UP_SCORE_OUTSIDE_SPAIN_CARDS, UP_SCORE_BLACK_REGIONS_CARDS, UP_TRANSPORT_CARDS,
 UP_LIMIT_TABLE_CARDS, UP_EXECUTE_ACTION_CARD_CABALLEROS, UP_COPYCAT_CABALLEROS,
 UP_FREE_CHOICE_CABALLEROS, UP_SCORE_OUTSIDE_SPAIN_CABALLEROS, UP_SCORE_BLACK_REGIONS_CABALLEROS,
 UP_TRANSPORT_CABALLEROS, UP_LIMIT_TABLE_CABALLEROS, UP_TRANSPORT_NUMBER, UP_FREE_CHOICE_NUMBER,
 UP_EXECUTE_ACTION_CARD_WARES, UP_EXECUTE_ACTION_CARD_GOLD, UP_COPYCAT_WARES, UP_COPYCAT_GOLD,
 UP_FREE_CHOICE_WARES, UP_FREE_CHOICE_GOLD, UP_SCORE_OUTSIDE_SPAIN_WARES,
 UP_SCORE_OUTSIDE_SPAIN_GOLD, UP_SCORE_BLACK_REGIONS_WARES, UP_SCORE_BLACK_REGIONS_GOLD,
 UP_TRANSPORT_WARES, UP_TRANSPORT_GOLD, UP_LIMIT_TABLE_WARES,
 UP_LIMIT_TABLE_GOLD) = range(len(RULES_THAT_COME_UP))
