"""Gremios replay: the log codes of ``codes.py`` read as a story.

``turn.py`` records (code, a, b, c, d, e, f) rows with ``simulator.core.trace.record``; ``tell``
turns them into events (dicts for ``--format jsonl``) with a sentence each for the text story.
The story is an omniscient referee's: it names face-down cards (the event cards set aside, the
treasures drawn), every decision with the options it was taken from, and every rule that fired,
including those that changed nothing, so the game can be followed step by step with the rulebook.
"""

from simulator.core import trace
from simulator.games.gremios.board import BANKRUPTCY as BANKRUPTCY_CARD  # BANKRUPTCY: a log code
from simulator.games.gremios.board import (
    BAD_HARVEST, BLOCKADE_GUILDS, BLOCKADE_NAMES, EVENT_NAMES, FOREIGN_INVASION,
    GOOD_HARVEST, GUILD_NAMES, GUILD_NUMBERS, LAND_EXPROPRIATION, MAX_PLAYERS, MODE_NAMES,
    ROLE_NAMES, TAX_COLLECTION, TREASURE_NAMES,
)
from simulator.games.gremios.codes import *  # every code: told here, and re-exported

# The investment-phase actions, in the order of their codes.
ACTION_NAMES = ("end turn", "invest in guild", "invest in expedition", "buy land", "cultivate",
                "build inn", "repair inn", "exchange wealth", "buy treasure (Craftsman)",
                "sell treasure (Craftsman)", "cause mutiny (Mercenary)")

# Why something happened, in the order of the BY_ codes.
CAUSES = ("the event card", "a second blockade", "a third blockade", "the Mercenary",
          "a roll of 7", "the Age of Prosperity")
# The role's rule that paid, in the order of the R_ codes.
ROLE_REASONS = ("Archbishop: a rival invested in the Church/Monastery or bought land",
                "Doctor: Foreign Invasion", "Doctor: Plague lifted", "Innkeeper: a rival built an inn",
                "Mercenary: rival inns destroyed", "Peasant: Good Harvest bonus",
                "Pirate: failed expedition", "Shopkeeper: a rival invested in the Farm/Tavern",
                "Shopkeeper: active Famine", "Stowaway: expedition and Port stakes",
                "Trader: investments lost", "Governor: Tax Collection")
# A role's rule that fired with nothing to pay: why (the fields c, d of the row, where used);
# any other rule pays nothing only when its coins are set to 0.
NO_COINS_REASONS = {
    R_DOCTOR_PLAGUE: "they top no guild but the Church and the Monastery",
    R_MERCENARY: "no rival inn was destroyed",
    R_PEASANT: "{c} cultivated plot(s), not more than the rivals' {d} together",
    R_SHOPKEEPER_FAMINE: "no Famine is active",
    R_STOWAWAY: "{c} stake(s) in the Expedition and the Port, {d} needed",
    R_GOVERNOR: "nobody paid tax",
}

# Why the Stowaway does not sneak on board.
STOWAWAY_REASONS = ("declines the free stake", "already has a stake on board",
                    "finds no ship: nobody has invested (stowaway_boards_empty_ship = no)")

# The plot an inn is built on.
PLOT_NAMES = ("a plot bought for it", "an uncultivated plot", "a cultivated plot")

END_RULES = ("at_once", "finish_action")  # rules.end_rule

# Why an action event changed nothing (the row's b field is the Tax Collection threshold).
NO_EFFECT_REASONS = {
    GOOD_HARVEST: "nobody has a cultivated plot",
    BAD_HARVEST: "nobody has a cultivated plot",
    FOREIGN_INVASION: "nobody has a standing inn",
    LAND_EXPROPRIATION: "nobody holds a plot",
    TAX_COLLECTION: "nobody (the Governor aside) has {b} or more coins",
}


def _guild(g: int, numbers) -> str:
    return f"{GUILD_NAMES[g]} ({numbers[g]})"


def _player(p: int) -> str:
    return f"P{p}"


def _option(action: int, arg: int, price: int, numbers) -> tuple[str, dict]:
    """An investment-phase action as words and fields: what, on what, for how much."""
    what = ACTION_NAMES[action]
    fields = {"action": what}
    if action in (INVEST_GUILD, MERCENARY_MUTINY):
        what += f": {_guild(arg, numbers)}"
        fields["guild"] = GUILD_NAMES[arg]
    elif action in (EXCHANGE_WEALTH, CRAFTSMAN_SELL):
        what += f": {TREASURE_NAMES[arg]}"
        fields["treasure"] = TREASURE_NAMES[arg]
    fields["arg"] = arg
    fields["cost"] = price
    if action != END_TURN:
        what += f" for {price}" if price >= 0 else f" receiving {-price}"
    return what, fields


def _describe(code, a, b, c, d, e, f, numbers, n_players) -> tuple[str, dict]:
    """One log row as (sentence, fields); ``numbers`` are the guilds' numbers in this game."""
    if code == SETUP:
        return (f"Setup: {a} players, {MODE_NAMES[b]} mode, {c} victory points to win "
                f"(end rule {END_RULES[e]}), {d} coins each.",
                {"players": a, "mode": MODE_NAMES[b], "target": c, "starting_coins": d,
                 "end_rule": END_RULES[e]})
    if code == SETUP_GUILD:
        return f"Setup: the {_guild(a, numbers)} is on the board.", {"guild": GUILD_NAMES[a]}
    if code == SET_ASIDE:
        when = "setup" if d == 0 else f"reshuffle {d}"
        return (f"Set aside into the discard pile ({when}, {b} of {c}): {EVENT_NAMES[a]}.",
                {"card": EVENT_NAMES[a], "number": b, "of": c, "reshuffle": d})
    if code == ROLES_DEALT:
        dealt = [ROLE_NAMES[x] for x in (b, c, d) if x >= 0]
        held = "+".join(ROLE_NAMES[x] for x in (e, f) if x >= 0)
        others = [x for x in dealt if x not in held.split("+")]
        return (f"Setup: {_player(a)} is dealt {', '.join(dealt) or 'a fixed role'} and plays {held}.",
                {"player": a, "dealt": dealt, "role": held, "not_chosen": others})
    if code == STARTING_PLOTS:
        return (f"Setup: {_player(a)} (Innkeeper) starts with {b} uncultivated plot(s); "
                f"{c} land card(s) left.", {"player": a, "plots": b, "land_deck": c})
    if code == TURN:
        return f"--- Turn {b + 1}: {_player(a)} ---", {"player": a, "turn": b + 1}
    if code == RESHUFFLE:
        return (f"The event deck ran out: the discard pile's {a} cards are shuffled into a new "
                f"deck (reshuffle {b}).", {"deck": a, "reshuffle": b})
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
    if code == EVENT_NO_EFFECT:
        why = NO_EFFECT_REASONS[a].format(b=b)
        return f"{EVENT_NAMES[a]} changes nothing: {why}.", {"card": EVENT_NAMES[a], "reason": why}
    if code == BLOCKADE_PLACED:
        return (f"{BLOCKADE_NAMES[a]} placed: {b} active, blocking the {_guild(BLOCKADE_GUILDS[a][0], numbers)} "
                f"and the {_guild(BLOCKADE_GUILDS[a][1], numbers)}.", {"blockade": BLOCKADE_NAMES[a], "active": b})
    if code == BLOCKADES_DISCARDED:
        return (f"The {b} {BLOCKADE_NAMES[a]} cards go to the discard pile.",
                {"blockade": BLOCKADE_NAMES[a], "cards": b})
    if code == NOT_ON_BOARD:
        return (f"The {EVENT_NAMES[b]} of {CAUSES[c]} has no effect on the {_guild(a, numbers)}: "
                f"it is not on the board.", {"guild": GUILD_NAMES[a], "effect": EVENT_NAMES[b],
                                             "cause": CAUSES[c]})
    if code == BLOCKADES_LIFTED:
        counts = {BLOCKADE_NAMES[k]: n for k, n in enumerate((b, c, d, e)) if n}
        if f:
            counts["Plague"] = f
        if not counts:
            return (f"No temporary event is active: {CAUSES[a]} lifts nothing.",
                    {"cause": CAUSES[a], "lifted": {}})
        listed = ", ".join(f"{n} {name}" for name, n in counts.items())
        return (f"All temporary events are lifted by {CAUSES[a]}: {listed}.",
                {"cause": CAUSES[a], "lifted": counts})
    if code == PLAGUE_PLACED:
        if a > 1:
            return f"Another Plague ({a} active): nothing more changes.", {"active": a}
        return "The Plague: only the Church and the Monastery pay.", {"active": a}
    if code == PENDING:
        return f"{EVENT_NAMES[a]} waits for the roll.", {"card": EVENT_NAMES[a]}
    if code == PENDING_NO_GUILD:
        where = "a 7 names no guild" if c < 0 else f"the {_guild(c, numbers)} is not on the board"
        return (f"{EVENT_NAMES[a]} on a roll of {b} has no effect: {where}.",
                {"card": EVENT_NAMES[a], "roll": b, "guild": GUILD_NAMES[c] if c >= 0 else None,
                 "reason": "seven" if c < 0 else "not founded"})
    if code == EXPEDITION_NO_STAKES:
        return "Nobody has invested in the expedition: no ship sails.", {}
    if code == ROLL:
        why = "roll phase" if c == 0 else "expedition sails"
        return f"{_player(a)} rolls {b} ({why}).", {"player": a, "roll": b, "for": why}
    if code == ROLL_PAYS_NOBODY:
        why = "it is not on the board" if c == 0 else "nobody has invested in it"
        return (f"The roll of {a} names the {_guild(b, numbers)}, which pays nobody: {why}.",
                {"roll": a, "guild": GUILD_NAMES[b], "reason": "not founded" if c == 0 else "no investments"})
    if code == INCOME:
        return (f"{_player(a)} collects {c} coin(s) from the {_guild(b, numbers)} (now {d}).",
                {"player": a, "guild": GUILD_NAMES[b], "coins": c, "purse": d})
    if code == BLOCKED:
        return (f"The {_guild(a, numbers)} is blocked by {EVENT_NAMES[d]}: {_player(b)} collects "
                f"nothing of their {c} coin(s) there.",
                {"guild": GUILD_NAMES[a], "player": b, "withheld": c, "blocked_by": EVENT_NAMES[d]})
    if code == MUTINY:
        return f"Mutiny in the {_guild(a, numbers)} (by {CAUSES[b]}).", {"guild": GUILD_NAMES[a], "cause": CAUSES[b]}
    if code == BANKRUPTCY:
        return (f"Bankruptcy in the {_guild(a, numbers)} (by {CAUSES[b]}): all investments lost.",
                {"guild": GUILD_NAMES[a], "cause": CAUSES[b]})
    if code == NOBODY_LOSES:
        why = "nobody has invested there" if b == BANKRUPTCY_CARD else \
            "nobody has more than one investment there"
        return (f"The {EVENT_NAMES[b]} in the {_guild(a, numbers)} takes nothing: {why}.",
                {"guild": GUILD_NAMES[a], "card": EVENT_NAMES[b], "reason": why})
    if code == LOST_INVESTMENTS:
        return (f"{_player(a)} loses {c} investment(s) in the {_guild(b, numbers)}.",
                {"player": a, "guild": GUILD_NAMES[b], "lost": c})
    if code == EXPEDITION_SAILS:
        outcome = "success" if c else "failure"
        return (f"The expedition sails with {a} stake(s); roll {b}: {outcome}. The stakes go back "
                f"to the reserve.", {"stakes": a, "roll": b, "success": bool(c)})
    if code == TREASURE_TAKEN:
        return (f"{_player(a)} takes a treasure ({TREASURE_NAMES[b]}); {c} left in the deck.",
                {"player": a, "treasure": TREASURE_NAMES[b], "treasure_deck": c})
    if code == TREASURE_DECK_EMPTY:
        return "The treasure deck is empty: no treasure for the rest.", {}
    if code == STOWAWAY_SNEAKS:
        return (f"{_player(a)} (Stowaway) sneaks on board for free ({b} stake(s) now).",
                {"player": a, "stakes": b})
    if code == STOWAWAY_STAYS:
        return (f"{_player(a)} (Stowaway) {STOWAWAY_REASONS[b]} ({c} stake(s) on board).",
                {"player": a, "reason": STOWAWAY_REASONS[b], "stakes": c})
    if code == INNS_DESTROYED:
        return f"{_player(a)} has {b} inn(s) destroyed.", {"player": a, "destroyed": b}
    if code == LANDS_LOST:
        return (f"{_player(a)} must give up {b + c} of {d + e} plot(s) ({d} cultivated, {e} "
                f"uncultivated) and chooses {b} cultivated and {c} uncultivated.",
                {"player": a, "cultivated": b, "uncultivated": c, "held_cultivated": d,
                 "held_uncultivated": e})
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
    if code == ROLE_NO_COINS:
        why = NO_COINS_REASONS.get(b, "its coins are set to 0").format(c=c, d=d)
        fields = {"player": a, "rule": ROLE_REASONS[b], "reason": why}
        if b == R_PEASANT:
            fields.update(cultivated=c, rivals_cultivated=d)
        elif b == R_STOWAWAY:
            fields.update(stakes=c, needed=d)
        return f"{_player(a)} receives nothing ({ROLE_REASONS[b]}): {why}.", fields
    if code == OPTION:
        what, fields = _option(b, c, d, numbers)
        return what, fields
    if code == ACTION:
        if b == END_TURN:
            return (f"{_player(a)} ends the turn with {e} coin(s).",
                    {"player": a, "action": ACTION_NAMES[b], "arg": 0, "cost": 0, "purse_before": e})
        what, fields = _option(b, c, d, numbers)
        return f"{_player(a)}: {what} (purse was {e}).", {"player": a, **fields, "purse_before": e}
    if code == INN_BUILT:
        return (f"{_player(a)} builds the inn on {PLOT_NAMES[b]} (the plot goes back to the land "
                f"deck); {c} standing inn(s).", {"player": a, "plot": PLOT_NAMES[b], "inns": c})
    if code == EMBLEM:
        counts = [c, d, e, f][:n_players]
        fields = {"before": a if a >= 0 else None, "holder": b if b >= 0 else None,
                  "changed": a != b, "treasure_cards": counts}
        if a == b:
            where = f"stays with {_player(b)}" if b >= 0 else "stays unclaimed"
            return f"Discoverer emblem check (treasure cards {counts}): it {where}.", fields
        if b < 0:
            return f"The discoverer emblem is discarded (treasure cards {counts}).", fields
        return f"{_player(b)} now holds the discoverer emblem (treasure cards {counts}).", fields
    if code == TOP_INVESTOR:
        if b < 0:
            return f"The {_guild(a, numbers)} has no top investor.", {"guild": GUILD_NAMES[a], "holder": None}
        return (f"{_player(b)} is now top investor of the {_guild(a, numbers)}.",
                {"guild": GUILD_NAMES[a], "holder": b})
    if code == POINTS:
        return (f"{_player(a)} now has {c} victory point(s) ({c - b:+d}).",
                {"player": a, "before": b, "points": c})
    if code == TARGET_REACHED:
        then = "the game ends at once" if END_RULES[d] == "at_once" else \
            "the game ends once this action is resolved"
        return (f"{_player(a)} has reached {b} victory point(s) (target {c}): {then}.",
                {"player": a, "points": b, "target": c, "end_rule": END_RULES[d]})
    if code == GAME_END:
        scores = [b, c, d, e][:a]
        best = max(scores)
        winners = [p for p, v in enumerate(scores) if v == best]
        told = " ".join(f"P{i}={v}" for i, v in enumerate(scores))
        cut = " (truncated at the turn limit)" if f else ""
        return (f"Game over{cut}. Victory points: {told}. Winner(s): "
                f"{', '.join(_player(p) for p in winners)}.",
                {"scores": scores, "winners": winners, "truncated": bool(f)})
    raise ValueError(f"unknown log code {code}")


def tell(log, famine_numbers: int = 0) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields.

    ``famine_numbers`` is the rules' choice of guild numbers, for the numbers in the text. The
    legal options of one investment-phase decision (rows from option 0, ending the turn) become
    one ``options`` event listing them all, followed by the ``action`` chosen.
    """
    numbers = GUILD_NUMBERS[famine_numbers]
    n_players = MAX_PLAYERS
    events = []
    for row in trace.entries(log):
        code, a, b, c, d, e, f = (int(x) for x in row)
        if code == SETUP:
            n_players = a
        text, fields = _describe(code, a, b, c, d, e, f, numbers, n_players)
        if code == OPTION:
            if e == 0:
                events.append({"kind": LOG_KINDS[code], "text": f"{_player(a)} may: {text}",
                               "player": a, "options": []})
            else:
                events[-1]["text"] += f"; {text}"
            events[-1]["options"].append(fields)
            continue
        events.append({"kind": LOG_KINDS[code], "text": text, **fields})
    if trace.is_full(log):
        events.append({"kind": "log_full", "text": "(the log is full: the rest of the game is not shown)"})
    return events
