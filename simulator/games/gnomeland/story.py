"""Gnomeland replay: the log codes of ``codes.py`` read as a story.

``turn.py`` records (code, a, b, c, d, e, f) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story.
Resource bundles travel packed as ``coin + 10 * mana + 100 * weapons`` (``pack``), or three digits
a resource where a count may pass 9 (``pack_wide``: a hand, a payment, what is kept).
"""

from simulator.core import trace
from simulator.games.gnomeland.board import (
    ACTION_NAMES, COIN, CURSE, HEX, MERCENARY_NAMES, MISSION_NAMES, NORMAL_NAMES, RESOURCE_NAMES,
    SOURCE_NAMES, SPECIAL_NAMES, SPELL_NAMES, SUMMONING, WEAPON,
)
from simulator.games.gnomeland.codes import *  # every code: told here, and re-exported

# the option kinds, in the order of the OPT_ codes
OPTION_NAMES = ("end turn", "spend die", "tavern", "cast spell", "palace die", "change die",
                "re-roll die", "convert", "income", "hire", "build normal", "build special",
                "upgrade normal", "upgrade special", "mission")


def unpack(x: int) -> dict:
    """A packed bundle as {"coin", "mana", "weapons"} (mercenaries in the thousands, if any)."""
    out = {"coin": x % 10, "mana": (x // 10) % 10, "weapons": (x // 100) % 10}
    if x >= 1000:
        out["mercenaries"] = x // 1000
    return out


def unpack_wide(x: int) -> dict:
    """A bundle packed three digits a resource (``turn.pack_wide``: a hand, a payment, what is
    kept, where a count may pass 9)."""
    return {"coin": x % 1000, "mana": (x // 1000) % 1000, "weapons": x // 1_000_000}


def _bundle(x: int) -> str:
    return _words(unpack(x))


def _words(b: dict) -> str:
    parts = [f"{b['coin']} Coin"] if b["coin"] else []
    if b["mana"]:
        parts.append(f"{b['mana']} Mana")
    if b["weapons"]:
        parts.append(f"{b['weapons']} Weapons")
    if b.get("mercenaries"):
        parts.append(f"{b['mercenaries']} Mercenary card(s)")
    return ", ".join(parts) if parts else "nothing"


def _p(p: int) -> str:
    return f"P{p}"


def _normal(t, side):
    return NORMAL_NAMES[t][side]


def describe_option(kind, a, b) -> str:
    if kind == OPT_DIE:
        if b >= 2:
            return f"spend die {a} for a {MERCENARY_NAMES[b - 2]}"
        return f"spend die {a}" + (" (the other side of '/')" if b == 1 else "")
    if kind == OPT_TAVERN:
        return f"gnome on {ACTION_NAMES[b]} (Tavern card {a})"
    if kind == OPT_SPELL:
        return f"cast {SPELL_NAMES[b]}" + _spell_variant(a, b)
    if kind == OPT_DIE_CHANGE:
        return f"change die {b // 2} by {'+1' if b % 2 == 0 else '-1'}"
    if kind == OPT_REROLL:
        return f"re-roll die {b}"
    if kind == OPT_CONVERT:
        return f"convert Coins into {RESOURCE_NAMES[b]}"
    if kind == OPT_HIRE:
        return f"hire a {MERCENARY_NAMES[a]} paying {RESOURCE_NAMES[b]}"
    if kind == OPT_BUILD_NORMAL:
        return f"build {NORMAL_NAMES[a][0]} on slot {b}"
    if kind == OPT_BUILD_SPECIAL:
        return f"build {SPECIAL_NAMES[a][0]} on special slot {b}"
    if kind == OPT_UPGRADE_NORMAL:
        return f"upgrade {NORMAL_NAMES[b][0]} to {NORMAL_NAMES[b][1]} (slot {a})"
    if kind == OPT_UPGRADE_SPECIAL:
        return f"upgrade {SPECIAL_NAMES[b][0]} to {SPECIAL_NAMES[b][1]} (special slot {a})"
    if kind == OPT_MISSION:
        return f"complete {MISSION_NAMES[b][0 if a < 2 else 1]} (space {a})"
    return OPTION_NAMES[kind]


def _spell_variant(a, spell) -> str:
    """Which target a spell option (variant ``a``) takes: see ``turn.cast_spell``."""
    if spell == SUMMONING:
        return f" for a {MERCENARY_NAMES[a]}"
    if spell == HEX:
        return f" on mission space {a}"
    if spell == CURSE:
        if a == 0:
            return " on the supply"
        return f" on P{(a - 1) // 2}'s {RESOURCE_NAMES[COIN if (a - 1) % 2 == 0 else WEAPON]}"
    return ""


def option_card(kind, a, b):
    """The name of the card an option plays (a Tavern action, the spell, a building, a mission),
    or None."""
    if kind == OPT_TAVERN:
        return ACTION_NAMES[b]
    if kind == OPT_SPELL:
        return SPELL_NAMES[b]
    if kind == OPT_BUILD_NORMAL:
        return NORMAL_NAMES[a][0]
    if kind == OPT_BUILD_SPECIAL:
        return SPECIAL_NAMES[a][0]
    if kind == OPT_UPGRADE_NORMAL:
        return NORMAL_NAMES[b][1]
    if kind == OPT_UPGRADE_SPECIAL:
        return SPECIAL_NAMES[b][1]
    if kind == OPT_MISSION:
        return MISSION_NAMES[b][0 if a < 2 else 1]
    return None


def _describe(code, a, b, c, d, e, f) -> tuple[str, dict]:
    if code == ROUND:
        return f"=== Round {a}: first player P{b} ===", {"round": a, "first_player": b}
    if code == FIRST_ROLL:
        return f"P{a} rolls {b} for first player.", {"player": a, "total": b}
    if code == ROLL:
        dice = [x for x in (b, c, d, e, f) if x > 0]
        return f"{_p(a)} rolls {dice}.", {"player": a, "dice": dice}
    if code == TURN:
        return f"--- {_p(a)}'s turn ---", {"player": a}
    if code == HAND:
        stored, copied = unpack_wide(b), unpack_wide(c)
        return (f"{_p(a)} takes into hand {_words(stored)} (Warehouses) and {_words(copied)} "
                "(copied).", {"player": a, "stored": stored, "copied": copied})
    if code == EXTRA_DIE:
        why = ("building", "spell", "action")[c]
        return (f"{_p(a)} rolls a neutral die ({why}): {b}.",
                {"player": a, "value": b, "why": why, "die": d})
    if code == OPTIONS:
        return f"{_p(a)} chooses among {b} options.", {"player": a, "options": b}
    if code == OPTION:
        return (f"  option {b}: {describe_option(c, d, e)} (cost {_bundle(f // 1000)})"
                + (" <- chosen" if a else ""),
                {"chosen": bool(a), "index": b, "option": OPTION_NAMES[c], "a": d, "b": e,
                 "card": option_card(c, d, e),
                 "cost": unpack(f // 1000), "value": (f % 1000) / 10.0 - 50.0})
    if code == DIE:
        t, side = f // 2, f % 2
        alt, die = d % 10, d // 10  # turn.spend_die packs both in one field
        return (f"{_p(a)} spends die {die} (a {b}) on {_normal(t, side)} (slot {c}): {_bundle(e)}.",
                {"player": a, "die": die, "value": b, "slot": c, "alternative": alt,
                 "building": _normal(t, side), "gained": unpack(e)})
    if code == MERCENARY:
        why = ("a building", "a spell", "a mission", "hired")[c]
        return f"{_p(a)} takes a {MERCENARY_NAMES[b]} ({why}).", {"player": a, "mercenary": MERCENARY_NAMES[b], "why": why}
    if code == COPY:
        return (f"{_p(a)} spends a gnome to copy {_p(b)}: {_bundle(c)} kept for the next turn.",
                {"player": a, "copied": b, "gained": unpack(c), "gnomes_left": d})
    if code == COPY_DECLINED:
        text = (f"{_p(a)} cannot copy {_p(b)}: the supply has none of it." if c == 2 else
                f"{_p(a)} {'has no gnome' if c else 'declines'} to copy {_p(b)}.")
        return (text,
                {"player": a, "copied": b, "no_gnome": c == 1, "supply_empty": c == 2})
    if code == GAIN:
        return (f"{_p(a)} gains {_bundle(c)} ({SOURCE_NAMES[b]}).",
                {"player": a, "source": SOURCE_NAMES[b], "gained": unpack(c)})
    if code == SUPPLY_SHORT:
        return (f"The supply has no more {RESOURCE_NAMES[b]}: {_p(a)} misses {c}.",
                {"player": a, "resource": RESOURCE_NAMES[b], "missed": c})
    if code == SUPPLY:
        return (f"  (the supply now: {a} Coin, {b} Mana, {c} Weapons)",
                {"coin": a, "mana": b, "weapons": c})
    if code == PAY:
        which = dict(zip(MERCENARY_NAMES, (d % 10, (d // 10) % 10, (d // 100) % 10)))
        named = ", ".join(f"{v} {m}" for m, v in which.items() if v)
        return (f"{_p(a)} pays {_words(unpack_wide(b))} (discarding {c} Mercenary card(s) for "
                "resources" + (f": {named}" if named else "") + ").",
                {"player": a, "paid": unpack_wide(b), "mercenaries_discarded": c,
                 "discarded": which})
    if code == HIRE:
        return (f"{_p(a)} hires a {MERCENARY_NAMES[b]} for {c} {RESOURCE_NAMES[d]}"
                + (" in the contest and spends it at once." if e else "."),
                {"player": a, "mercenary": MERCENARY_NAMES[b], "price": c, "paid_in": RESOURCE_NAMES[d],
                 "in_contest": bool(e)})
    if code == BUILD:
        names = NORMAL_NAMES if b == 0 else SPECIAL_NAMES
        old = names[e][f] if e >= 0 else "(empty)"
        return (f"{_p(a)} builds {names[c][0]} on {'special ' if b else ''}slot {d}, covering {old}.",
                # building_kind, not kind: a field named kind would overwrite the event's own
                {"player": a, "building_kind": "normal" if b == 0 else "special",
                 "building": names[c][0], "slot": d, "replaced": old})
    if code == UPGRADE:
        names = NORMAL_NAMES if b == 0 else SPECIAL_NAMES
        return (f"{_p(a)} upgrades {names[d][0]} to {names[d][1]} (slot {c}).",
                {"player": a, "building_kind": "normal" if b == 0 else "special", "slot": c,
                 "building": names[d][1]})
    if code == WAREHOUSE_DISCARDED:
        return (f"{_p(a)}'s Warehouse on special slot {b} is covered: {_words(unpack_wide(c))} "
                "kept on it discarded.", {"player": a, "slot": b, "discarded": unpack_wide(c)})
    if code == GNOMES_DISCARDED:
        return (f"{_p(a)}'s Gnome House is covered: {b} gnome(s) on it leave the game.",
                {"player": a, "gnomes": b})
    if code == MISSION_MERCENARIES:
        handed = dict(zip(MERCENARY_NAMES, (b % 10, (b // 10) % 10, (b // 100) % 10)))
        return (f"{_p(a)} hands in " + ", ".join(f"{v} {m}" for m, v in handed.items() if v)
                + f" for the mission on space {c}.",
                {"player": a, "space": c, "mercenaries": handed})
    if code == MISSION:
        return (f"{_p(a)} completes {MISSION_NAMES[c][d]} (space {b}): {e} VP"
                + (f" ({f} less for the Hex)" if f else "") + ".",
                {"player": a, "space": b, "mission": MISSION_NAMES[c][d],
                 "side": "base" if d == 0 else "advanced", "vp": e, "hexed": f})
    if code == TAVERN:
        return (f"{_p(a)} places a gnome on {ACTION_NAMES[c]} (Tavern card {b}).",
                {"player": a, "slot": b, "action": ACTION_NAMES[c]})
    if code == REROLL:
        why = ("building", "spell", "action")[e]
        return (f"{_p(a)} re-rolls die {b}: {c} -> {d} ({why}).",
                {"player": a, "die": b, "old": c, "new": d, "why": why})
    if code == DIE_CHANGE:
        return (f"{_p(a)} turns die {b} from {c} to {d} ({SPECIAL_NAMES[e][f]}).",
                {"player": a, "die": b, "old": c, "new": d, "building": SPECIAL_NAMES[e][f]})
    if code == SPELL:
        return (f"{_p(a)} casts {SPELL_NAMES[b]}.", {"player": a, "spell": SPELL_NAMES[b], "variant": c})
    if code == HEX:
        return (f"{_p(a)}'s Hex on mission space {b}: it gives {c} VP this round.",
                {"player": a, "space": b, "vp_now": c})
    if code == RECALL:
        return f"{_p(a)} recovers a gnome ({b} at home).", {"player": a, "gnomes_home": b}
    if code == CURSE:
        if b < 0:
            return (f"{_p(a)}'s Curse takes {d} Coin from the supply.",
                    {"player": a, "from": None, "resource": RESOURCE_NAMES[c], "amount": d})
        return (f"{_p(a)}'s Curse steals {d} {RESOURCE_NAMES[c]} from {_p(b)}'s Warehouses.",
                {"player": a, "from": b, "resource": RESOURCE_NAMES[c], "amount": d})
    if code == SPECIAL:
        return (f"{_p(a)} uses {SPECIAL_NAMES[b][c]}: {_bundle(d)}.",
                {"player": a, "building": SPECIAL_NAMES[b][c], "gained": unpack(d)})
    if code == KEEP:
        return (f"{_p(a)} ends the turn keeping {_words(unpack_wide(b))} in the Warehouses; {c} "
                "resource(s) go back.", {"player": a, "kept": unpack_wide(b), "discarded": c})
    if code == CONTEST:
        return (f"*** {ACTION_NAMES[a]} (Tavern card {b}): {c} gnome(s) on it ***",
                {"contest": ACTION_NAMES[a], "slot": b, "gnomes": c})
    if code == CONTEST_ROLL:
        return (f"{_p(a)} counts {b} (dice and buildings {c}, Warehouses {d}, Mercenaries {e}, "
                f"gnome {f}).", {"player": a, "total": b, "dice": c, "warehouses": d,
                                 "mercenaries": e, "gnome": f})
    if code == CONTEST_DICE:
        rolled, dice = _digits(c, b), _digits(d, b)
        changed = f"; counted as {dice} after the die changers" if dice != rolled else ""
        return (f"{_p(a)} rolls {rolled}{changed}.",
                {"player": a, "rolled": rolled, "dice": dice})
    if code == CONTEST_POINTS:
        return f"{_p(a)} beats {b} player(s): {c} VP.", {"player": a, "beaten": b, "vp": c}
    if code == MISSION_FLIP:
        return (f"Mission {MISSION_NAMES[a][0]} turns to its Advanced side {MISSION_NAMES[a][1]} "
                f"(space {b})" + (f", discarding {MISSION_NAMES[c][1]}." if c >= 0 else "."),
                {"mission": MISSION_NAMES[a][1], "space": b,
                 "discarded": MISSION_NAMES[c][1] if c >= 0 else None})
    if code == MISSION_DRAWN:
        if b < 0:
            return f"No mission left for space {a}.", {"space": a, "mission": None}
        return f"New Base mission on space {a}: {MISSION_NAMES[b][0]}.", {"space": a, "mission": MISSION_NAMES[b][0]}
    if code == TAVERN_CARD:
        if b < 0:
            return f"No Action card for Tavern space {a}.", {"slot": a, "action": None}
        return f"Tavern card {a}: {ACTION_NAMES[b]}.", {"slot": a, "action": ACTION_NAMES[b]}
    if code == ACTION_RESHUFFLE:
        return f"The Action deck is empty: {a} used cards are shuffled into a new one.", {"cards": a}
    if code == SPELL_CARD:
        if a < 0:
            return "The Spell deck is empty: no spell this round.", {"spell": None}
        return f"The Wizard's Tower shows {SPELL_NAMES[a]}.", {"spell": SPELL_NAMES[a]}
    if code == GNOMES_REMOVED:
        return f"{_p(a)}'s {b} gnome(s) on the Tavern leave the game.", {"player": a, "gnomes": b}
    if code == FIRST_PLAYER:
        return f"The First Player marker goes to {_p(a)} ({b} VP).", {"player": a, "vp": b}
    if code == NO_NEUTRAL_DIE:
        return f"{_p(a)}: no neutral die left in the pool for the {SPECIAL_NAMES[b][1]}.", {"player": a}
    if code == SCORE:
        why = ("mission", "contest")[c]
        return f"{_p(a)} scores {b} VP ({why}): {d} on the track.", {"player": a, "vp": b, "why": why, "total": d}
    if code == TRUNCATED:
        return f"{_p(a)}'s turn reaches the step limit and is cut short.", {"player": a}
    if code == GAME_END:
        return ("Game over. Final scores: " + " ".join(f"P{i}={v}" for i, v in enumerate([b, c, d, e][:a])) +
                ".", {"scores": [b, c, d, e][:a], "building_points": _unpack_points(f, a)})
    raise ValueError(f"unknown log code {code}")


def _digits(x, n):
    """``n`` dice packed one decimal digit each, the first die the most significant."""
    return [int(ch) for ch in str(x).zfill(n)] if n else []


def _unpack_points(f, n):
    return [(f >> (8 * i)) & 0xFF for i in range(n)]


def tell(log) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields."""
    return trace.tell(log, _describe, LOG_KINDS)
