"""Grimoire replay: the log codes of ``codes.py`` read as a story.

``turn.py`` records (code, a, b, c, d, e, f) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story.
The story is the referee's view: it names face-down cards too.
"""

from simulator.core import trace
from simulator.games.grimoire.board import (
    END_TRIGGER_NAMES, ITEM_NAMES, POLYMORPH, QUEST_NAMES, SPELL_NAMES,
)
from simulator.games.grimoire.codes import *  # every code: told here, and re-exported


def _player(p: int) -> str:
    return f"P{p}"


def _spell(level: int) -> str:
    return f"{SPELL_NAMES[level]} ({level})"


def _describe(code, a, b, c, d, e, f) -> tuple[str, dict]:
    if code == ROUND:
        return f"=== Round {a}: spell level {b} ===", {"round": a, "level": b}
    if code == RESHUFFLE:
        return (f"The quest deck is empty: the Discard Area ({a} cards) is shuffled into a new deck.",
                {"cards": a})
    if code == ZONE_CARD:
        side = "face down" if c else "face up"
        return f"Zone slot {a}: {QUEST_NAMES[b]} ({side}).", {"slot": a, "card": QUEST_NAMES[b],
                                                              "face_down": bool(c)}
    if code == CARDS_OUT:
        return "The quest deck and the Discard Area are both empty: the game ends at once.", {}
    if code == SPELL_CHOSEN:
        return f"{_player(a)} reveals {_spell(b)}.", {"player": a, "spell": SPELL_NAMES[b], "level": b}
    if code == ORDER:
        group = "A (unique)" if c == 0 else "B (duplicate)"
        return (f"Turn-order token {a + 1}: {_player(b)}, group {group}, {_spell(d)}.",
                {"token": a + 1, "player": b, "group": "A" if c == 0 else "B", "level": d})
    if code == TIME_SPELL:
        what = "takes turn-order token 1" if b == 5 else "reverses the turn order"
        return f"{_player(a)}'s {_spell(b)} {what}.", {"player": a, "spell": SPELL_NAMES[b]}
    if code == QUEST_TURN:
        return f"--- {_player(a)} (token {b + 1}) ---", {"player": a, "token": b + 1}
    if code == THIEF:
        return (f"{_player(a)}'s Thief takes {b} VP from the supply (tokens {c}).",
                {"player": a, "vp": b, "tokens": c})
    if code == SPY_PEEK:
        return f"{_player(a)}'s Spy looks at {b} face-down card(s).", {"player": a, "cards": b}
    if code == NEGATED:
        return (f"{_player(a)}'s {_spell(b)} is a Forbidden Spell and is negated by Silence.",
                {"player": a, "spell": SPELL_NAMES[b]})
    if code == SILENCE:
        return f"{_player(a)} casts Silence: other Forbidden Spells are negated this round.", {"player": a}
    if code == VP_GAIN:
        return (f"{_player(a)} takes {b} VP from the supply with {_spell(c)} (tokens {d}).",
                {"player": a, "vp": b, "spell": SPELL_NAMES[c], "tokens": d})
    if code == LUCK:
        if c < 0:
            return f"{_player(a)} (Luck) keeps the face-down card.", {"player": a, "discarded": None}
        return (f"{_player(a)} (Luck) discards the face-down {QUEST_NAMES[c]} from slot {b}.",
                {"player": a, "slot": b, "discarded": QUEST_NAMES[c]})
    if code == LUCK_REPLACEMENT:
        return (f"{QUEST_NAMES[c]} from the quest deck replaces it, face down in slot {b}.",
                {"player": a, "slot": b, "card": QUEST_NAMES[c]})
    if code == DRAW:
        where = "the discards" if c == FROM_DISCARD else "the quest deck"
        return (f"{_player(a)} draws {QUEST_NAMES[b]} from {where} ({_spell(d)}).",
                {"player": a, "card": QUEST_NAMES[b], "from": where, "spell": SPELL_NAMES[d]})
    if code == DISCARDS_EMPTY:
        what = "finds no discards: nothing is drawn" if c == 0 else f"empties the discards after {c} card(s)"
        return f"{_player(a)}'s {_spell(b)} {what}.", {"player": a, "spell": SPELL_NAMES[b], "drawn": c}
    if code == ITEM:
        return f"{_player(a)} draws the item {ITEM_NAMES[b]}.", {"player": a, "item": ITEM_NAMES[b]}
    if code == ITEM_DECK_EMPTY:
        return f"{_player(a)}: the item deck is empty, no item.", {"player": a}
    if code == SHOES:
        return f"{_player(a)} uses the Blessed Shoes: one more quest card now.", {"player": a}
    if code == NO_TARGET:
        return f"{_player(a)}'s {_spell(b)} finds no target.", {"player": a, "spell": SPELL_NAMES[b]}
    if code == CASTER_IS_TARGET:
        most = "the highest total VP" if b == POLYMORPH else "the most companions"
        return (f"{_player(a)} has {most}: {_player(a)}'s {_spell(b)} would target its caster and "
                "does nothing.", {"player": a, "spell": SPELL_NAMES[b]})
    if code == TARGET:
        return (f"{_player(a)}'s {_spell(b)} targets {_player(c)}.",
                {"player": a, "spell": SPELL_NAMES[b], "target": c})
    if code == COMPANION_MOVED:
        return (f"{_player(a)} loses the {QUEST_NAMES[c]} to {_player(b)}.",
                {"from": a, "to": b, "card": QUEST_NAMES[c]})
    if code == TOKENS_MOVED:
        text = f"{_player(b)} takes {c} VP in tokens from {_player(a)}." if c > 0 else \
            f"{_player(b)} takes no VP tokens from {_player(a)}: half of theirs, rounded, is none."
        return text, {"from": a, "to": b, "vp": c}
    if code == ELEMENTAL_FAILS:
        return (f"{_player(a)} is not lowest in quest cards: the Elemental does nothing.", {"player": a})
    if code == TAKE:
        side = "the face-down card" if d else "the face-up card"
        return (f"{_player(a)} takes {side} of slot {b}: {QUEST_NAMES[c]}.",
                {"player": a, "slot": b, "card": QUEST_NAMES[c], "face_down": bool(d)})
    if code == ZONE_EMPTY:
        return f"{_player(a)} finds the zone empty.", {"player": a}
    if code == ZONE_DISCARD:
        return f"{a} card(s) left in the zone go to the Discard Area.", {"cards": a}
    if code == TRIGGER:
        what = END_TRIGGER_NAMES[b]
        return (f"{_player(a)} has {c} {what}: the game ends after this round.",
                {"player": a, "trigger": what, "count": c})
    if code == TRUNCATED:
        return f"The game reaches the {a}-round limit and is cut short.", {"rounds": a}
    if code == GAME_END:
        scores = [b, c, d, e, f][:a]
        return ("Game over. Victory points: " + " ".join(f"P{i}={v}" for i, v in enumerate(scores)) + ".",
                {"scores": scores})
    raise ValueError(f"unknown log code {code}")


def tell(log) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields."""
    return trace.tell(log, _describe, LOG_KINDS)
