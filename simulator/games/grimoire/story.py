"""Grimoire replay: the log codes of ``codes.py`` read as a story.

``turn.py`` records (code, a, b, c, d, e, f) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story;
``EVENTS`` describes each code: its sentence and its fields (``simulator.core.story``).
The story is the referee's view: it names face-down cards too.
"""

from simulator.core import story
from simulator.core.story import Choose, Event, each_player, first, fixed, missing, numbered
from simulator.games.grimoire.board import (
    END_TRIGGER_NAMES, ITEM_NAMES, POLYMORPH, QUEST_NAMES, SPELL_NAMES,
)
from simulator.games.grimoire.codes import *  # every code: told here, and re-exported


def spell_and_level(level: int) -> str:
    return f"{SPELL_NAMES[level]} ({level})"


def group_letter(duplicate) -> str:
    return "B" if duplicate else "A"


def group_told(duplicate) -> str:
    return "B (duplicate)" if duplicate else "A (unique)"


def time_spell_effect(level) -> str:
    return "takes turn-order token 1" if level == 5 else "reverses the turn order"


def card_side(face_down) -> str:
    return "face down" if face_down else "face up"


def taken_side(face_down) -> str:
    return "the face-down card" if face_down else "the face-up card"


def drawn_from(source) -> str:
    return "the discards" if source == FROM_DISCARD else "the quest deck"


def discards_drawn(cards) -> str:
    if cards == 0:
        return "finds no discards: nothing is drawn"
    return f"empties the discards after {cards} card(s)"


def most_of(spell) -> str:
    return "the highest total VP" if spell == POLYMORPH else "the most companions"


def any_taken(vp) -> bool:
    return vp > 0


SPELL = (SPELL_NAMES, "b")  # the spell a player casts, by its level
TOKENS_MOVED_FIELDS = {"from": "a", "to": "b", "vp": "c"}

EVENTS = {
    ROUND: Event("=== Round {a}: spell level {b} ===", {"round": "a", "level": "b"}),
    RESHUFFLE: Event("The quest deck is empty: the Discard Area ({a} cards) is shuffled into a "
                     "new deck.", {"cards": "a"}),
    ZONE_CARD: Event("Zone slot {a}: {card} ({side}).",
                     {"slot": "a", "card": (QUEST_NAMES, "b"), "face_down": (bool, "c")},
                     words={"side": (card_side, "c")}),
    CARDS_OUT: Event("The quest deck and the Discard Area are both empty: the game ends at once."),
    SPELL_CHOSEN: Event("P{a} reveals {spell} ({b}).",
                        {"player": "a", "spell": SPELL, "level": "b"}),
    ORDER: Event("Turn-order token {token}: P{b}, group {grouping}, {spell}.",
                 {"token": (numbered, "a"), "player": "b", "group": (group_letter, "c"),
                  "level": "d"},
                 words={"grouping": (group_told, "c"), "spell": (spell_and_level, "d")}),
    TIME_SPELL: Event("P{a}'s {spell} ({b}) {effect}.", {"player": "a", "spell": SPELL},
                      words={"effect": (time_spell_effect, "b")}),
    QUEST_TURN: Event("--- P{a} (token {token}) ---", {"player": "a", "token": (numbered, "b")}),
    THIEF: Event("P{a}'s Thief takes {b} VP from the supply (tokens {c}).",
                 {"player": "a", "vp": "b", "tokens": "c"}),
    SPY_PEEK: Event("P{a}'s Spy looks at {b} face-down card(s).", {"player": "a", "cards": "b"}),
    NEGATED: Event("P{a}'s {spell} ({b}) is a Forbidden Spell and is negated by Silence.",
                   {"player": "a", "spell": SPELL}),
    SILENCE: Event("P{a} casts Silence: other Forbidden Spells are negated this round.",
                   {"player": "a"}),
    VP_GAIN: Event("P{a} takes {b} VP from the supply with {spell} ({c}) (tokens {d}).",
                   {"player": "a", "vp": "b", "spell": (SPELL_NAMES, "c"), "tokens": "d"}),
    LUCK: Choose((missing, "c"), {
        True: Event("P{a} (Luck) keeps the face-down card.",
                    {"player": "a", "discarded": fixed(None)}),
        False: Event("P{a} (Luck) discards the face-down {discarded} from slot {b}.",
                     {"player": "a", "slot": "b", "discarded": (QUEST_NAMES, "c")})}),
    LUCK_REPLACEMENT: Event("{card} from the quest deck replaces it, face down in slot {b}.",
                            {"player": "a", "slot": "b", "card": (QUEST_NAMES, "c")}),
    DRAW: Event("P{a} draws {card} from {from} ({spell} ({d})).",
                {"player": "a", "card": (QUEST_NAMES, "b"), "from": (drawn_from, "c"),
                 "spell": (SPELL_NAMES, "d")}),
    DISCARDS_EMPTY: Event("P{a}'s {spell} ({b}) {drawing}.",
                          {"player": "a", "spell": SPELL, "drawn": "c"},
                          words={"drawing": (discards_drawn, "c")}),
    ITEM: Event("P{a} draws the item {item}.", {"player": "a", "item": (ITEM_NAMES, "b")}),
    ITEM_DECK_EMPTY: Event("P{a}: the item deck is empty, no item.", {"player": "a"}),
    SHOES: Event("P{a} uses the Blessed Shoes: one more quest card now.", {"player": "a"}),
    NO_TARGET: Event("P{a}'s {spell} ({b}) finds no target.", {"player": "a", "spell": SPELL}),
    CASTER_IS_TARGET: Event("P{a} has {most}: P{a}'s {spell} ({b}) would target its caster and "
                            "does nothing.", {"player": "a", "spell": SPELL},
                            words={"most": (most_of, "b")}),
    TARGET: Event("P{a}'s {spell} ({b}) targets P{c}.",
                  {"player": "a", "spell": SPELL, "target": "c"}),
    COMPANION_MOVED: Event("P{a} loses the {card} to P{b}.",
                           {"from": "a", "to": "b", "card": (QUEST_NAMES, "c")}),
    TOKENS_MOVED: Choose((any_taken, "c"), {
        True: Event("P{b} takes {c} VP in tokens from P{a}.", TOKENS_MOVED_FIELDS),
        False: Event("P{b} takes no VP tokens from P{a}: half of theirs, rounded, is none.",
                     TOKENS_MOVED_FIELDS)}),
    ELEMENTAL_FAILS: Event("P{a} is not lowest in quest cards: the Elemental does nothing.",
                           {"player": "a"}),
    TAKE: Event("P{a} takes {side} of slot {b}: {card}.",
                {"player": "a", "slot": "b", "card": (QUEST_NAMES, "c"), "face_down": (bool, "d")},
                words={"side": (taken_side, "d")}),
    ZONE_EMPTY: Event("P{a} finds the zone empty.", {"player": "a"}),
    ZONE_DISCARD: Event("{a} card(s) left in the zone go to the Discard Area.", {"cards": "a"}),
    TRIGGER: Event("P{a} has {c} {trigger}: the game ends after this round.",
                   {"player": "a", "trigger": (END_TRIGGER_NAMES, "b"), "count": "c"}),
    TRUNCATED: Event("The game reaches the {a}-round limit and is cut short.", {"rounds": "a"}),
    GAME_END: Event("Game over. Victory points: {told}.",
                    {"scores": (first, "a", "b", "c", "d", "e", "f")},
                    words={"told": (each_player, "scores")}),
}


def tell(log) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields."""
    return story.tell(log, EVENTS, LOG_KINDS)
