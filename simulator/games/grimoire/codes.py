"""Grimoire: the log codes the kernels write into a replay log, and the other integer codes the
compiled code uses. The words for them are in ``story.py``, which no compiled module imports, so
editing a replay sentence recompiles nothing."""

LOG_KINDS = (
    "round", "reshuffle", "zone_card", "cards_out", "spell_chosen", "order", "time_spell",
    "quest_turn", "thief", "spy_peek", "negated", "silence", "vp_gain", "luck", "luck_replacement",
    "draw",
    "discards_empty", "item", "item_deck_empty", "shoes", "no_target", "caster_is_target",
    "target", "companion_moved", "tokens_moved", "elemental_fails", "take", "zone_empty",
    "zone_discard", "trigger", "truncated", "game_end")
(ROUND, RESHUFFLE, ZONE_CARD, CARDS_OUT, SPELL_CHOSEN, ORDER, TIME_SPELL, QUEST_TURN, THIEF,
 SPY_PEEK, NEGATED, SILENCE, VP_GAIN, LUCK, LUCK_REPLACEMENT, DRAW, DISCARDS_EMPTY, ITEM, ITEM_DECK_EMPTY, SHOES,
 NO_TARGET, CASTER_IS_TARGET, TARGET, COMPANION_MOVED, TOKENS_MOVED, ELEMENTAL_FAILS, TAKE,
 ZONE_EMPTY, ZONE_DISCARD, TRIGGER, TRUNCATED, GAME_END) = range(len(LOG_KINDS))

FROM_DISCARD, FROM_DECK = 0, 1  # where a drawn quest card came from

# The decisions a search player searches (``core.search.searched``'s ``decision``) and what its
# options hold: the spell levels it may choose, the zone slots it may take.
DECIDE_SPELL, DECIDE_CARD = range(2)

# The parameters whose coming up a batch run counts (``came_up`` in core/trace.py), each counted
# where its value can change what happens; the index of a name here is its tally column.
RULES_THAT_COME_UP = (
    "spell_level_max", "face_down_cards", "face_down_cards_five_players", "first_round_order",
    "time_spell_order", "end_companions", "end_treasures", "max_rounds", "vp_supply",
    "thief_tokens", "luck_peeks", "fireball_vp", "cure_cards", "cure_when_discards_empty",
    "creation_items", "thunderstorm_vp", "thunderstorm_defensive", "charm_companions",
    "charm_chooser", "charm_caster_counts", "elemental_cards", "elemental_measure",
    "time_stop_defends", "polymorph_target", "polymorph_rounding", "polymorph_caster_counts",
    "fortune_vp", "domination_companions", "domination_chooser", "domination_caster_counts",
    "wish_cards",
    "forbidden_luck", "forbidden_silence", "forbidden_fireball", "forbidden_cure",
    "forbidden_acceleration", "forbidden_resistance", "forbidden_creation",
    "forbidden_thunderstorm", "forbidden_charm", "forbidden_summon_elemental",
    "forbidden_time_stop", "forbidden_polymorph", "forbidden_fortune", "forbidden_domination",
    "forbidden_wish",
    "copper_vp", "silver_vp", "gold_vp", "thief_vp", "spy_vp", "rogue_vp_per_treasure",
    "rogue_max_vp", "prince_vp", "prince_royal_vp", "queen_vp", "queen_king_bonus", "king_vp",
    "king_royal_bonus", "squire_vp", "knight_vp", "sage_vp",
    "blessed_shoes_vp", "junk_vp", "trinket_vp", "jewel_vp", "relic_vp", "junk_bonus_vp",
    "junk_bonus_ties")
(UP_SPELL_LEVEL_MAX, UP_FACE_DOWN_CARDS, UP_FACE_DOWN_CARDS_FIVE, UP_FIRST_ROUND_ORDER,
 UP_TIME_SPELL_ORDER, UP_END_COMPANIONS, UP_END_TREASURES, UP_MAX_ROUNDS, UP_VP_SUPPLY,
 UP_THIEF_TOKENS, UP_LUCK_PEEKS, UP_FIREBALL_VP, UP_CURE_CARDS, UP_CURE_WHEN_EMPTY,
 UP_CREATION_ITEMS, UP_THUNDERSTORM_VP, UP_THUNDERSTORM_DEFENSIVE, UP_CHARM_COMPANIONS,
 UP_CHARM_CHOOSER, UP_CHARM_CASTER_COUNTS, UP_ELEMENTAL_CARDS, UP_ELEMENTAL_MEASURE,
 UP_TIME_STOP_DEFENDS, UP_POLYMORPH_TARGET, UP_POLYMORPH_ROUNDING, UP_POLYMORPH_CASTER_COUNTS,
 UP_FORTUNE_VP, UP_DOMINATION_COMPANIONS, UP_DOMINATION_CHOOSER, UP_DOMINATION_CASTER_COUNTS,
 UP_WISH_CARDS,
 UP_FORBIDDEN_LUCK, UP_FORBIDDEN_SILENCE, UP_FORBIDDEN_FIREBALL, UP_FORBIDDEN_CURE,
 UP_FORBIDDEN_ACCELERATION, UP_FORBIDDEN_RESISTANCE, UP_FORBIDDEN_CREATION,
 UP_FORBIDDEN_THUNDERSTORM, UP_FORBIDDEN_CHARM, UP_FORBIDDEN_SUMMON_ELEMENTAL,
 UP_FORBIDDEN_TIME_STOP, UP_FORBIDDEN_POLYMORPH, UP_FORBIDDEN_FORTUNE, UP_FORBIDDEN_DOMINATION,
 UP_FORBIDDEN_WISH,
 UP_COPPER_VP, UP_SILVER_VP, UP_GOLD_VP, UP_THIEF_VP, UP_SPY_VP, UP_ROGUE_VP_PER_TREASURE,
 UP_ROGUE_MAX_VP, UP_PRINCE_VP, UP_PRINCE_ROYAL_VP, UP_QUEEN_VP, UP_QUEEN_KING_BONUS, UP_KING_VP,
 UP_KING_ROYAL_BONUS, UP_SQUIRE_VP, UP_KNIGHT_VP, UP_SAGE_VP,
 UP_BLESSED_SHOES_VP, UP_JUNK_VP, UP_TRINKET_VP, UP_JEWEL_VP, UP_RELIC_VP, UP_JUNK_BONUS_VP,
 UP_JUNK_BONUS_TIES) = range(len(RULES_THAT_COME_UP))
