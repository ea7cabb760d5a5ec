"""Gnomeland: the log codes the kernels write into a replay log, and the other integer codes the
compiled code uses (the turn's option kinds, causes). The words for them are in ``story.py``,
which no compiled module imports, so editing a replay sentence recompiles nothing."""

LOG_KINDS = (
    "round", "first_roll", "roll", "turn", "hand", "extra_die", "options", "option", "die",
    "mercenary", "copy", "copy_declined", "gain", "supply_short", "pay", "hire", "build",
    "upgrade", "gnomes_discarded", "mission", "tavern", "reroll", "die_change", "spell", "hex",
    "recall", "curse", "special", "keep", "contest", "contest_roll", "contest_points",
    "mission_flip", "mission_drawn", "tavern_card", "action_reshuffle", "spell_card",
    "gnomes_removed", "first_player", "no_neutral_die", "truncated", "game_end", "score",
    "warehouse_discarded", "mission_mercenaries", "contest_dice", "supply")
(ROUND, FIRST_ROLL, ROLL, TURN, HAND, EXTRA_DIE, OPTIONS, OPTION, DIE, MERCENARY, COPY,
 COPY_DECLINED, GAIN, SUPPLY_SHORT, PAY, HIRE, BUILD, UPGRADE, GNOMES_DISCARDED, MISSION, TAVERN,
 REROLL, DIE_CHANGE, SPELL, HEX, RECALL, CURSE, SPECIAL, KEEP, CONTEST, CONTEST_ROLL,
 CONTEST_POINTS, MISSION_FLIP, MISSION_DRAWN, TAVERN_CARD, ACTION_RESHUFFLE, SPELL_CARD,
 GNOMES_REMOVED, FIRST_PLAYER, NO_NEUTRAL_DIE, TRUNCATED, GAME_END, SCORE,
 WAREHOUSE_DISCARDED, MISSION_MERCENARIES, CONTEST_DICE, SUPPLY) = range(len(LOG_KINDS))

# option kinds (the turn's actions; ``opts[i, 0]``)
(OPT_END, OPT_DIE, OPT_TAVERN, OPT_SPELL, OPT_PALACE, OPT_DIE_CHANGE, OPT_REROLL, OPT_CONVERT,
 OPT_INCOME, OPT_HIRE, OPT_BUILD_NORMAL, OPT_BUILD_SPECIAL, OPT_UPGRADE_NORMAL,
 OPT_UPGRADE_SPECIAL, OPT_MISSION) = range(15)

# why a die was added or re-rolled, why points were scored
BY_BUILDING, BY_SPELL, BY_ACTION = 0, 1, 2
SCORE_MISSION, SCORE_CONTEST = 0, 1

# The parameters whose coming up a batch run counts (``came_up`` in core/trace.py), each counted
# where its value can change what happens; the index of a name here is its tally column.
RULES_THAT_COME_UP = ()
