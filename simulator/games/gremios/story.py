"""Gremios replay: the log codes the turn writes, and their reading as a story.

``turn.py`` records (code, a, b, c, d, e) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story.
"""

from simulator.core import trace
from simulator.games.gremios.board import (
    BLOCKADE_GUILDS, BLOCKADE_NAMES, EVENT_NAMES, GUILD_NAMES, GUILD_NUMBERS, ROLE_NAMES,
    TREASURE_NAMES,
)

LOG_KINDS = (
    "setup_guild", "roles_dealt", "turn", "reshuffle", "reveal", "governor_choice", "guild_founded",
    "event_coins", "blockade_placed", "blockades_lifted", "plague_placed", "roll", "income",
    "blocked", "mutiny", "lost_investments", "bankruptcy", "expedition_sails", "treasure_taken",
    "treasure_deck_empty", "stowaway_sneaks", "inns_destroyed", "lands_lost", "cultivation_lost",
    "tax_paid", "collection", "role_coins", "action", "emblem", "top_investor", "game_end",
    "no_event", "pending", "points")
(SETUP_GUILD, ROLES_DEALT, TURN, RESHUFFLE, REVEAL, GOVERNOR_CHOICE, GUILD_FOUNDED, EVENT_COINS,
 BLOCKADE_PLACED, BLOCKADES_LIFTED, PLAGUE_PLACED, ROLL, INCOME, BLOCKED, MUTINY, LOST_INVESTMENTS,
 BANKRUPTCY, EXPEDITION_SAILS, TREASURE_TAKEN, TREASURE_DECK_EMPTY, STOWAWAY_SNEAKS, INNS_DESTROYED,
 LANDS_LOST, CULTIVATION_LOST, TAX_PAID, COLLECTION, ROLE_COINS, ACTION, EMBLEM, TOP_INVESTOR,
 GAME_END, NO_EVENT, PENDING, POINTS) = range(len(LOG_KINDS))

# Investment-phase actions (also the codes strategies choose among).
END_TURN, INVEST_GUILD, INVEST_EXPEDITION, BUY_LAND, CULTIVATE, BUILD_INN, REPAIR_INN, \
    EXCHANGE_WEALTH, CRAFTSMAN_BUY, CRAFTSMAN_SELL, MERCENARY_MUTINY = range(11)
ACTION_NAMES = ("end turn", "invest in guild", "invest in expedition", "buy land", "cultivate",
                "build inn", "repair inn", "exchange wealth", "buy treasure (Craftsman)",
                "sell treasure (Craftsman)", "cause mutiny (Mercenary)")

# Why something happened (the ``cause`` field of mutinies, bankruptcies, lifted blockades...).
BY_EVENT, BY_SECOND_BLOCKADE, BY_THIRD_BLOCKADE, BY_MERCENARY, BY_SEVEN, BY_PROSPERITY = range(6)
CAUSES = ("the event card", "a second blockade", "a third blockade", "the Mercenary",
          "a roll of 7", "the Age of Prosperity")
ROLE_REASONS = ("Archbishop: a rival invested in the Church/Monastery or bought land",
                "Doctor: Foreign Invasion", "Doctor: Plague lifted", "Innkeeper: a rival built an inn",
                "Mercenary: rival inns destroyed", "Peasant: Good Harvest bonus",
                "Pirate: failed expedition", "Shopkeeper: a rival invested in the Farm/Tavern",
                "Shopkeeper: active Famine", "Stowaway: expedition and Port stakes",
                "Trader: investments lost", "Governor: Tax Collection")
(R_ARCHBISHOP, R_DOCTOR_INVASION, R_DOCTOR_PLAGUE, R_INNKEEPER, R_MERCENARY, R_PEASANT, R_PIRATE,
 R_SHOPKEEPER, R_SHOPKEEPER_FAMINE, R_STOWAWAY, R_TRADER, R_GOVERNOR) = range(12)


def _guild(g: int, numbers) -> str:
    return f"{GUILD_NAMES[g]} ({numbers[g]})"


def _player(p: int) -> str:
    return f"P{p}"


def _describe(code, a, b, c, d, e, f, numbers) -> tuple[str, dict]:
    """One log row as (sentence, fields); ``numbers`` are the guilds' numbers in this game."""
    if code == SETUP_GUILD:
        return f"Setup: the {_guild(a, numbers)} is on the board.", {"guild": GUILD_NAMES[a]}
    if code == ROLES_DEALT:
        dealt = [ROLE_NAMES[x] for x in (b, c, d) if x >= 0]
        held = "+".join(ROLE_NAMES[x] for x in (e, f) if x >= 0)
        return (f"Setup: {_player(a)} is dealt {', '.join(dealt) or 'a fixed role'} and plays {held}.",
                {"player": a, "dealt": dealt, "role": held})
    if code == TURN:
        return f"--- Turn {b + 1}: {_player(a)} ---", {"player": a, "turn": b + 1}
    if code == RESHUFFLE:
        return (f"The event deck ran out: {a} cards reshuffled, {b} set aside again.",
                {"deck": a, "set_aside": b})
    if code == NO_EVENT:
        return "No event card is left to reveal.", {}
    if code == REVEAL:
        return f"{_player(a)} reveals {EVENT_NAMES[b]}.", {"player": a, "card": EVENT_NAMES[b]}
    if code == GOVERNOR_CHOICE:
        return (f"{_player(a)} (Governor) applies {EVENT_NAMES[b]} and puts {EVENT_NAMES[c]} back on top.",
                {"player": a, "applied": EVENT_NAMES[b], "returned": EVENT_NAMES[c]})
    if code == GUILD_FOUNDED:
        return f"The {_guild(a, numbers)} is founded.", {"guild": GUILD_NAMES[a]}
    if code == EVENT_COINS:
        return (f"{_player(a)} receives {b} coin(s) from {EVENT_NAMES[c]} (now {d}).",
                {"player": a, "coins": b, "card": EVENT_NAMES[c], "purse": d})
    if code == BLOCKADE_PLACED:
        return (f"{BLOCKADE_NAMES[a]} placed: {b} active, blocking the {_guild(BLOCKADE_GUILDS[a][0], numbers)} "
                f"and the {_guild(BLOCKADE_GUILDS[a][1], numbers)}.", {"blockade": BLOCKADE_NAMES[a], "active": b})
    if code == BLOCKADES_LIFTED:
        return f"All temporary events are lifted by {CAUSES[a]}.", {"cause": CAUSES[a]}
    if code == PLAGUE_PLACED:
        return "The Plague: only the Church and the Monastery pay.", {}
    if code == PENDING:
        return f"{EVENT_NAMES[a]} waits for the roll.", {"card": EVENT_NAMES[a]}
    if code == ROLL:
        why = "roll phase" if c == 0 else "expedition sails"
        return f"{_player(a)} rolls {b} ({why}).", {"player": a, "roll": b, "for": why}
    if code == INCOME:
        return (f"{_player(a)} collects {c} coin(s) from the {_guild(b, numbers)} (now {d}).",
                {"player": a, "guild": GUILD_NAMES[b], "coins": c, "purse": d})
    if code == BLOCKED:
        return (f"The {_guild(a, numbers)} is blocked: {_player(b)} collects nothing there.",
                {"guild": GUILD_NAMES[a], "player": b})
    if code == MUTINY:
        return f"Mutiny in the {_guild(a, numbers)} (by {CAUSES[b]}).", {"guild": GUILD_NAMES[a], "cause": CAUSES[b]}
    if code == BANKRUPTCY:
        return (f"Bankruptcy in the {_guild(a, numbers)} (by {CAUSES[b]}): all investments lost.",
                {"guild": GUILD_NAMES[a], "cause": CAUSES[b]})
    if code == LOST_INVESTMENTS:
        return (f"{_player(a)} loses {c} investment(s) in the {_guild(b, numbers)}.",
                {"player": a, "guild": GUILD_NAMES[b], "lost": c})
    if code == EXPEDITION_SAILS:
        outcome = "success" if c else "failure"
        return (f"The expedition sails with {a} stake(s); roll {b}: {outcome}.",
                {"stakes": a, "roll": b, "success": bool(c)})
    if code == TREASURE_TAKEN:
        return (f"{_player(a)} takes a treasure ({TREASURE_NAMES[b]}).",
                {"player": a, "treasure": TREASURE_NAMES[b]})
    if code == TREASURE_DECK_EMPTY:
        return "The treasure deck is empty: no treasure for the rest.", {}
    if code == STOWAWAY_SNEAKS:
        return f"{_player(a)} (Stowaway) sneaks on board for free.", {"player": a}
    if code == INNS_DESTROYED:
        return f"{_player(a)} has {b} inn(s) destroyed.", {"player": a, "destroyed": b}
    if code == LANDS_LOST:
        return (f"{_player(a)} loses {b} cultivated and {c} uncultivated plot(s).",
                {"player": a, "cultivated": b, "uncultivated": c})
    if code == CULTIVATION_LOST:
        return f"{_player(a)} loses the cultivation of a plot.", {"player": a}
    if code == TAX_PAID:
        return f"{_player(a)} pays {b} coin(s) in tax (now {c}).", {"player": a, "tax": b, "purse": c}
    if code == COLLECTION:
        return (f"{_player(a)} collects {b} for the turn and {c} from inns (now {d}).",
                {"player": a, "turn_coins": b, "inn_coins": c, "purse": d})
    if code == ROLE_COINS:
        return (f"{_player(a)} receives {b} coin(s): {ROLE_REASONS[c]} (now {d}).",
                {"player": a, "coins": b, "reason": ROLE_REASONS[c], "purse": d})
    if code == ACTION:
        what = ACTION_NAMES[b]
        if b in (INVEST_GUILD, MERCENARY_MUTINY):
            what += f": {_guild(c, numbers)}"
        elif b in (EXCHANGE_WEALTH, CRAFTSMAN_SELL):
            what += f": {TREASURE_NAMES[c]}"
        price = f"paying {d}" if d >= 0 else f"receiving {-d}"
        return (f"{_player(a)}: {what}, {price} (purse was {e}).",
                {"player": a, "action": ACTION_NAMES[b], "arg": c, "cost": d, "purse_before": e})
    if code == EMBLEM:
        if b < 0:
            return "The discoverer emblem is discarded.", {"holder": None}
        return f"{_player(b)} now holds the discoverer emblem.", {"holder": b}
    if code == TOP_INVESTOR:
        if b < 0:
            return f"The {_guild(a, numbers)} has no top investor.", {"guild": GUILD_NAMES[a], "holder": None}
        return (f"{_player(b)} is now top investor of the {_guild(a, numbers)}.",
                {"guild": GUILD_NAMES[a], "holder": b})
    if code == POINTS:
        return (f"{_player(a)} now has {c} victory point(s) ({c - b:+d}).",
                {"player": a, "before": b, "points": c})
    if code == GAME_END:
        scores = " ".join(f"P{i}={v}" for i, v in enumerate((b, c, d, e)[:a]))
        return f"Game over. Victory points: {scores}.", {"scores": [b, c, d, e][:a]}
    raise ValueError(f"unknown log code {code}")


def tell(log, famine_numbers: int = 0) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields.

    ``famine_numbers`` is the rules' choice of guild numbers, for the numbers in the text.
    """
    numbers = GUILD_NUMBERS[famine_numbers]
    events = []
    for row in trace.entries(log):
        code, a, b, c, d, e, f = (int(x) for x in row)
        text, fields = _describe(code, a, b, c, d, e, f, numbers)
        events.append({"kind": LOG_KINDS[code], "text": text, **fields})
    if trace.is_full(log):
        events.append({"kind": "log_full", "text": "(the log is full: the rest of the game is not shown)"})
    return events
