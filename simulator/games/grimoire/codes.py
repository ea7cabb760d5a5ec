"""Grimoire: the log codes the kernels write into a replay log, and the other integer codes the
compiled code uses. The words for them are in ``story.py``, which no compiled module imports, so
editing a replay sentence recompiles nothing."""

LOG_KINDS = (
    "round", "reshuffle", "zone_card", "cards_out", "spell_chosen", "order", "time_spell",
    "quest_turn", "thief", "spy_peek", "negated", "silence", "vp_gain", "luck", "draw",
    "discards_empty", "item", "item_deck_empty", "shoes", "no_target", "caster_is_target",
    "target", "companion_moved", "tokens_moved", "elemental_fails", "take", "zone_empty",
    "zone_discard", "trigger", "truncated", "game_end")
(ROUND, RESHUFFLE, ZONE_CARD, CARDS_OUT, SPELL_CHOSEN, ORDER, TIME_SPELL, QUEST_TURN, THIEF,
 SPY_PEEK, NEGATED, SILENCE, VP_GAIN, LUCK, DRAW, DISCARDS_EMPTY, ITEM, ITEM_DECK_EMPTY, SHOES,
 NO_TARGET, CASTER_IS_TARGET, TARGET, COMPANION_MOVED, TOKENS_MOVED, ELEMENTAL_FAILS, TAKE,
 ZONE_EMPTY, ZONE_DISCARD, TRIGGER, TRUNCATED, GAME_END) = range(len(LOG_KINDS))

FROM_DISCARD, FROM_DECK = 0, 1  # where a drawn quest card came from

# The parameters whose coming up a batch run counts (``came_up`` in core/trace.py), each counted
# where its value can change what happens; the index of a name here is its tally column.
RULES_THAT_COME_UP = ()
