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
