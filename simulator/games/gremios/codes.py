"""Gremios: the log codes the kernels write into a replay log, and the other integer codes the
compiled code uses (actions, causes, reasons). The words for them are in ``story.py``, which no
compiled module imports, so editing a replay sentence recompiles nothing."""

LOG_KINDS = (
    "setup_guild", "roles_dealt", "turn", "reshuffle", "reveal", "governor_choice", "guild_founded",
    "event_coins", "blockade_placed", "blockades_lifted", "plague_placed", "roll", "income",
    "blocked", "mutiny", "lost_investments", "bankruptcy", "expedition_sails", "treasure_taken",
    "treasure_deck_empty", "stowaway_sneaks", "inns_destroyed", "lands_lost", "cultivation_lost",
    "tax_paid", "collection", "role_coins", "action", "emblem", "top_investor", "game_end",
    "no_event", "pending", "points", "setup", "set_aside", "starting_plots", "pending_no_guild",
    "guild_not_on_board", "nobody_loses", "expedition_no_stakes", "event_no_effect",
    "stowaway_stays", "role_no_coins", "options", "inn_built", "blockades_discarded",
    "target_reached", "roll_pays_nobody")
(SETUP_GUILD, ROLES_DEALT, TURN, RESHUFFLE, REVEAL, GOVERNOR_CHOICE, GUILD_FOUNDED, EVENT_COINS,
 BLOCKADE_PLACED, BLOCKADES_LIFTED, PLAGUE_PLACED, ROLL, INCOME, BLOCKED, MUTINY, LOST_INVESTMENTS,
 BANKRUPTCY, EXPEDITION_SAILS, TREASURE_TAKEN, TREASURE_DECK_EMPTY, STOWAWAY_SNEAKS, INNS_DESTROYED,
 LANDS_LOST, CULTIVATION_LOST, TAX_PAID, COLLECTION, ROLE_COINS, ACTION, EMBLEM, TOP_INVESTOR,
 GAME_END, NO_EVENT, PENDING, POINTS, SETUP, SET_ASIDE, STARTING_PLOTS, PENDING_NO_GUILD,
 NOT_ON_BOARD, NOBODY_LOSES, EXPEDITION_NO_STAKES, EVENT_NO_EFFECT, STOWAWAY_STAYS, ROLE_NO_COINS,
 OPTION, INN_BUILT, BLOCKADES_DISCARDED, TARGET_REACHED, ROLL_PAYS_NOBODY) = range(len(LOG_KINDS))

# The decisions a search player searches (``core.search.searched``'s ``decision``) and what the
# first column of its options holds: the dealt role cards, the legal investment actions (rows of
# action, argument), the Governor's two revealed events.
DECIDE_ROLE, DECIDE_ACTION, DECIDE_EVENT = range(3)

# Investment-phase actions (also the codes strategies choose among).
END_TURN, INVEST_GUILD, INVEST_EXPEDITION, BUY_LAND, CULTIVATE, BUILD_INN, REPAIR_INN, \
    EXCHANGE_WEALTH, CRAFTSMAN_BUY, CRAFTSMAN_SELL, MERCENARY_MUTINY = range(11)

# Why something happened (the ``cause`` field of mutinies, bankruptcies, lifted blockades...).
BY_EVENT, BY_SECOND_BLOCKADE, BY_THIRD_BLOCKADE, BY_MERCENARY, BY_SEVEN, BY_PROSPERITY = range(6)

# Which role's rule paid coins, or fired with nothing to pay.
(R_ARCHBISHOP, R_DOCTOR_INVASION, R_DOCTOR_PLAGUE, R_INNKEEPER, R_MERCENARY, R_PEASANT, R_PIRATE,
 R_SHOPKEEPER, R_SHOPKEEPER_FAMINE, R_STOWAWAY, R_TRADER, R_GOVERNOR) = range(12)

# Why the Stowaway does not sneak on board.
STOWAWAY_DECLINES, STOWAWAY_HAS_STAKE, STOWAWAY_NO_SHIP = range(3)

# The plot an inn is built on.
PLOT_BOUGHT, PLOT_UNCULTIVATED, PLOT_CULTIVATED = range(3)

# The parameters whose coming up a batch run counts (``came_up`` in core/trace.py), each counted
# where its value can change what happens; the index of a name here is its tally column.
RULES_THAT_COME_UP = (
    "peasant_free_cultivations", "peasant_harvest_bonus", "master_builder_free_repairs",
    "master_builder_discount", "trader_extra_investments", "craftsman_trades_per_turn",
    "craftsman_treasure_price", "mercenary_mutinies_per_turn", "mercenary_mutiny_cost",
    "mercenary_coins_per_inn", "archbishop_coins", "shopkeeper_coins",
    "shopkeeper_famine_coins", "innkeeper_coins", "innkeeper_starting_plots",
    "doctor_plague_coins", "doctor_invasion_coins", "stowaway_coins", "stowaway_threshold",
    "stowaway_threshold_two_players", "stowaway_boards_empty_ship", "harvest_coins_per_plot",
    "prosperity_coins", "tax_threshold", "tax_rounding", "invasion_rounding",
    "expropriation_rounding", "blockades_for_mutiny", "blockades_for_bankruptcy",
    "wealth_low_coins", "wealth_high_coins", "emblem_min_treasures", "top_investor_ties",
    "guilds_at_start_two_players", "max_turns")
(UP_FREE_CULTIVATIONS, UP_HARVEST_BONUS, UP_FREE_REPAIRS, UP_BUILDER_DISCOUNT,
 UP_EXTRA_INVESTMENTS, UP_CRAFTSMAN_TRADES, UP_CRAFTSMAN_PRICE, UP_MERCENARY_MUTINIES,
 UP_MUTINY_COST, UP_MERCENARY_COINS, UP_ARCHBISHOP_COINS, UP_SHOPKEEPER_COINS,
 UP_SHOPKEEPER_FAMINE, UP_INNKEEPER_COINS, UP_INNKEEPER_PLOTS, UP_DOCTOR_PLAGUE,
 UP_DOCTOR_INVASION, UP_STOWAWAY_COINS, UP_STOWAWAY_THRESHOLD, UP_STOWAWAY_THRESHOLD_TWO,
 UP_STOWAWAY_EMPTY_SHIP, UP_HARVEST_COINS, UP_PROSPERITY_COINS, UP_TAX_THRESHOLD, UP_TAX_ROUNDING,
 UP_INVASION_ROUNDING, UP_EXPROPRIATION_ROUNDING, UP_BLOCKADES_MUTINY, UP_BLOCKADES_BANKRUPTCY,
 UP_WEALTH_LOW, UP_WEALTH_HIGH, UP_EMBLEM_MIN, UP_TOP_INVESTOR_TIES,
 UP_GUILDS_AT_START_TWO, UP_MAX_TURNS) = range(len(RULES_THAT_COME_UP))
