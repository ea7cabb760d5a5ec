"""El Grande replay: the log codes of ``codes.py`` read as a story.

``turn.py`` and ``effects.py`` record (code, a, b, c, d, e, f) rows with
``simulator.core.trace.record``; ``tell`` turns them into events (dicts for ``--format jsonl``)
with a sentence each for the text story; ``EVENTS`` describes each code: its sentence and its
fields (``simulator.core.story``). The story is an omniscient referee's: it names every
card turned up, every power card, every placement, move and return with the counts it leaves,
every decision with the number of options it was taken from, every secret choice as it is
revealed, every scoring place by place, and every rule that fired without effect.
"""

from simulator.core import story
from simulator.core.story import Choose, Event, each_player, first, fixed, numbered
from simulator.games.elgrande.board import CARD_KEYS, REGION_NAMES
from simulator.games.elgrande.codes import *  # every code: told here, and re-exported

# The decisions whose options are logged, in the order of the DECIDE_ codes.
DECISIONS = ("power card", "action card", "placement", "move", "place", "veto", "take back",
             "alternative", "free move", "limit table space", "held card",
             "Grand Inquisitor's extra Caballero")

# What a secret choice or a chosen place is for, in the order of the SECRET_ codes.
PURPOSES = ("the scoring disc", "return 2", "return all", "destination", "unique region",
            "two Caballeros at setup")
TOKENS = ("Ware", "Gold")
SPACES = {9: ("ambassador", "envoy"), 10: ("Captain",), 11: ("Viceroy",)}
HELD = ("execute action card", "copycat", "free choice")
SCORING_KINDS = ("general scoring", "special scoring")

# Why nothing happened, in the order of the NO_EFFECT reason codes.
WHY = ("no Caballero to move", "nowhere to go", "nothing to return", "no region qualifies",
       "no power card to take back", "no mobile scoreboard may move", "the King stays",
       "the Grande stays", "the provinces are empty", "the supply is empty",
       "the limit table stays in the King's region", "no card to execute")


def place_name(g: int) -> str:
    if g == COURT:
        return "the court"
    if g == PROVINCES:
        return "the provinces"
    if g < 0:
        return "nowhere"
    return REGION_NAMES[g]


def card_name(card: int) -> str:
    return CARD_KEYS[card].replace("_", " ")


def colour_told(c: int) -> str:
    """A colour in a sentence: the player's, or the Grand Inquisitor's black."""
    return "black" if c == 5 else f"P{c}"


def colour_field(c: int):
    """A colour for the structured fields: the player's number, or "black"."""
    return "black" if c == 5 else c


def colours_told(colours) -> str:
    return ", ".join(map(colour_told, colours))


def turn_order(packed, players) -> list[int]:
    return [(packed >> (4 * i)) & 0xF for i in range(players)]


CARD_ORDERS = ("special action first", "placement first", "no special action")
BONUSES = ("King's", "Grande")
EXTRAS = ("places one more Caballero", "takes one more Caballero to the court")
EXTRA_KINDS = ("placement", "court")


def copycat_told(copycat) -> str:
    return " (Copycat: not in its turn)." if copycat else "."


def scoring_told(kind) -> str:
    return SCORING_KINDS[kind].capitalize()


def first_only_told(first_only) -> str:
    return " (first places only)" if first_only else ""


def bonus_field(bonus) -> str:
    return BONUSES[bonus].lower().rstrip("'s")


def destination(place):
    return None if place < 0 else place_name(place)


def destination_told(place) -> str:
    return "stay" if place < 0 else place_name(place)


def card_or_none(card):
    return CARD_KEYS[card] if card >= 0 else None


def held_card_choice(held, chosen, card) -> str:
    """What a player does with a held card: Execute Action Card's option 0 keeps it, the others
    name a face-up card; Copycat's option 1 copies the special action just carried out."""
    if held == 0:
        return f"carry out {card_name(card)}" if chosen else "keep it"
    return f"copy {card_name(card)}" if chosen else f"not copy {card_name(card)}"


def from_whom_told(holder) -> str:
    return f" from {colour_told(holder)}." if holder >= 0 else "."


def space_name(place, space) -> str:
    return SPACES[place][space]


def used_on_told(card) -> str:
    return f" on {card_name(card)}." if card >= 0 else "."


PLACE_A = (place_name, "a")
PLACE_B = (place_name, "b")
PLACE_C = (place_name, "c")
DECISION_FIELDS = {"player": "a", "decision": (DECISIONS, "b"), "options": "c", "chosen": "d"}
DECISION_TEXT = "{player} decides the {decision}: option {option} of {c}"
DECISION_WORDS = {"player": (colour_told, "a"), "option": (numbered, "d")}
TABLE_MOVE_FIELDS = {"player": "a", "colour": (colour_field, "b"), "place": PLACE_C}
TABLE_MOVE_WORDS = {"player": (colour_told, "a"), "colour": (colour_told, "b")}

# In the sentences, {player}, {owner}, {by} and {colour} are colours as told ("P2", "black").
EVENTS = {
    SETUP: Event("El Grande, {a} players: the King in {king}.", {"players": "a", "king": PLACE_B}),
    HOME: Event("{player}'s home region: {home} (Grande and {c} Caballeros there, {d} in the "
                "court, {e} in the provinces).",
                {"player": "a", "home": PLACE_B, "home_caballeros": "c", "court": "d",
                 "provinces": "e"}, words={"player": (colour_told, "a")}),
    ROUND: Event("=== Round {a} ===", {"round": "a"}),
    CARD_UP: Event("Stack {stack} turns up {named}.",
                   {"stack": (numbered, "a"), "card": (CARD_KEYS, "b")},
                   words={"named": (card_name, "b")}),
    STACK_EMPTY: Event("Stack {stack} is empty.", {"stack": (numbered, "a")}),
    POWER_CARD: Event("{player} plays power card {b}.", {"player": "a", "power": "b"},
                      words={"player": (colour_told, "a")}),
    POWER_CLASH: Event("{player} has only values already played: plays {b} and acts after its "
                       "first player.", {"player": "a", "power": "b"},
                       words={"player": (colour_told, "a")}),
    TURN_ORDER: Event("Turn order: {order_told}; {starter} starts the next round's card play.",
                      {"order": (turn_order, "a", "b"), "next_starter": "c"},
                      words={"order_told": (colours_told, "order"),
                             "starter": (colour_told, "c")}),
    TO_COURT: Event("{player} moves {b} Caballero(s) from the provinces to the court (court {c}, "
                    "provinces {d}).", {"player": "a", "caballeros": "b", "court": "c",
                                        "provinces": "d"},
                    words={"player": (colour_told, "a")}),
    TURN: Event("--- {player}'s turn (score {b}, court {c}) ---",
                {"player": "a", "score": "b", "court": "c"},
                words={"player": (colour_told, "a")}),
    CARD_TAKEN: Event("{player} takes {named} (stack {stack}): {order}.",
                      {"player": "a", "card": (CARD_KEYS, "b"), "stack": (numbered, "d"),
                       "order": (CARD_ORDERS, "c")},
                      words={"player": (colour_told, "a"), "named": (card_name, "b")}),
    # e: 1 from the provinces (the expansion's setup), d then what is left
    PLACED: Choose((bool, "e"), {
        True: Event("{player} places a Caballero from the provinces in {place} ({c} there, "
                    "provinces {d}).",
                    {"player": "a", "place": PLACE_B, "there": "c",
                     "from": fixed("the provinces"), "provinces": "d"},
                    words={"player": (colour_told, "a")}),
        False: Event("{player} places a Caballero from the court in {place} ({c} there, court "
                     "{d}).",
                     {"player": "a", "place": PLACE_B, "there": "c", "from": fixed("the court"),
                      "court": "d"}, words={"player": (colour_told, "a")})}),
    MOVED: Event("{by} moves a Caballero of {owner} from {from} to {to} ({e} left, {f} there).",
                 {"owner": "a", "from": PLACE_B, "to": PLACE_C, "by": "d", "left": "e",
                  "there": "f"},
                 words={"by": (colour_told, "d"), "owner": (colour_told, "a")}),
    RETURNED: Event("A Caballero of {owner} goes back from {from} to the provinces ({c} left "
                    "there).", {"owner": "a", "from": PLACE_B, "left": "c"},
                    words={"owner": (colour_told, "a")}),
    # c: 1 for a Copycat's, outside its player's turn
    SPECIAL: Event("{player} carries out {named}{copycat_note}",
                   {"player": "a", "card": (CARD_KEYS, "b"), "copycat": (bool, "c")},
                   words={"player": (colour_told, "a"), "named": (card_name, "b"),
                          "copycat_note": (copycat_told, "c")}),
    SPECIAL_DECLINED: Event("{player} does not use the special action of {named}.",
                            {"player": "a", "card": (CARD_KEYS, "b")},
                            words={"player": (colour_told, "a"), "named": (card_name, "b")}),
    VETO_HELD: Event("{player} holds a Veto ({b} held).", {"player": "a", "vetoes": "b"},
                     words={"player": (colour_told, "a")}),
    VETOED: Event("{player} plays a Veto: {cancelled}'s {named} is cancelled.",
                  {"player": "a", "cancelled": "b", "card": (CARD_KEYS, "c")},
                  words={"player": (colour_told, "a"), "cancelled": (colour_told, "b"),
                         "named": (card_name, "c")}),
    SCORING: Event("{kind} of {place}{first_only_note}.",
                   {"scoring": (SCORING_KINDS, "a"), "place": PLACE_B,
                    "first_only": (bool, "c")},
                   words={"kind": (scoring_told, "a"), "first_only_note": (first_only_told,
                                                                            "c")}),
    PLACE_SCORED: Event("{place}: {player} with {c} Caballero(s) takes place {rank} for {e} "
                        "points (score {f}).",
                        {"place": PLACE_A, "player": "b", "caballeros": "c",
                         "rank": (numbered, "d"), "points": "e", "score": "f"},
                        words={"player": (colour_told, "b")}),
    BONUS: Event("{place}: {player} scores the {what} bonus, {d} points (score {e}).",
                 {"place": PLACE_A, "player": "b", "bonus": (bonus_field, "c"), "points": "d",
                  "score": "e"},
                 words={"player": (colour_told, "b"), "what": (BONUSES, "c")}),
    NOBODY_SCORES: Event("{place}: no Caballero there, nobody scores.", {"place": PLACE_A}),
    KING_MOVED: Event("The King moves from {from} to {to}.", {"from": PLACE_A, "to": PLACE_B}),
    GRANDE_MOVED: Event("{player}'s Grande moves from {from} to {to}.",
                        {"player": "a", "from": PLACE_B, "to": PLACE_C},
                        words={"player": (colour_told, "a")}),
    SCOREBOARD_MOVED: Event("Mobile scoreboard {scoreboard} goes from {from} to {to}.",
                            {"scoreboard": (numbered, "a"), "from": PLACE_B, "to": PLACE_C}),
    SECRET_CHOICE: Event("{player} reveals {place} ({purpose}).",
                         {"player": "a", "place": PLACE_B, "purpose": (PURPOSES, "c")},
                         words={"player": (colour_told, "a")}),
    CASTILLO_EMPTIED: Event("{player} moves {b} Caballero(s) from the Castillo to {to}.",
                            {"player": "a", "caballeros": "b", "to": PLACE_C},
                            words={"player": (colour_told, "a")}),
    DISCARDED: Event("Unused {named} is discarded.", {"card": (CARD_KEYS, "a")},
                     words={"named": (card_name, "a")}),
    POWER_TAKEN_BACK: Event("{player} takes back power card {b}.", {"player": "a", "power": "b"},
                            words={"player": (colour_told, "a")}),
    DECISION: Choose("b", {
        # e: the destination (-1: the Caballero stays)
        DECIDE_FREE_MOVE: Event(DECISION_TEXT + " ({destination_told}).",
                                {**DECISION_FIELDS, "destination": (destination, "e")},
                                words={**DECISION_WORDS,
                                       "destination_told": (destination_told, "e")}),
        # e: the colour going onto the space
        DECIDE_TABLE_SPACE: Event(DECISION_TEXT + " (a Caballero of {colour}).",
                                  {**DECISION_FIELDS, "colour": (colour_field, "e")},
                                  words={**DECISION_WORDS, "colour": (colour_told, "e")}),
        # e: the kept card; f: the card it would carry out (-1: none)
        DECIDE_HELD_CARD: Event(DECISION_TEXT + ": {card}, {choice}.",
                                {**DECISION_FIELDS, "card": (HELD, "e"),
                                 "on": (card_or_none, "f")},
                                words={**DECISION_WORDS,
                                       "choice": (held_card_choice, "e", "d", "f")})},
        otherwise=Event(DECISION_TEXT + ".", DECISION_FIELDS, words=DECISION_WORDS)),
    NO_EFFECT: Event("{player}'s {named}: {why}.",
                     {"player": "a", "card": (CARD_KEYS, "b"), "why": (WHY, "c")},
                     words={"player": (colour_told, "a"), "named": (card_name, "b")}),
    BLACK_PLACED: Event("{b} black Caballero(s) of the Grand Inquisitor in {place}.",
                        {"place": PLACE_A, "caballeros": "b"}),
    TABLE_PLACED: Event("The limit table ({c} spaces) goes from {from} to {to} ({d} "
                        "Caballero(s) on it).",
                        {"from": PLACE_A, "to": PLACE_B, "spaces": "c", "on_table": "d"}),
    BLACK_STAY: Event("{b} black Caballero(s) stay in the Castillo: {player}, the Grand "
                      "Inquisitor's holder, named the King's region, and black Caballeros never "
                      "go to a court.", {"player": "a", "caballeros": "b"},
                      words={"player": (colour_told, "a")}),
    TABLE_FILLED: Event("{by} puts a Caballero of {colour} on the limit table in {place} ({d} of "
                        "its colour on it).",
                        {"colour": (colour_field, "a"), "by": (colour_field, "b"),
                         "place": PLACE_C, "on_table": "d"},
                        words={"by": (colour_told, "b"), "colour": (colour_told, "a")}),
    INQUISITOR_TAKEN: Event("{player} takes the Grand Inquisitor card{from_whom}",
                            {"player": "a", "from": "b"},
                            words={"player": (colour_told, "a"),
                                   "from_whom": (from_whom_told, "b")}),
    EXTRA_CABALLERO: Event("{player}, the Grand Inquisitor's holder, {how} this round.",
                           {"player": "a", "extra": (EXTRA_KINDS, "b")},
                           words={"player": (colour_told, "a"), "how": (EXTRAS, "b")}),
    TOKENS_LAID: Event("{b} {token} token(s) laid in {place} ({d} lying there, {e} in the "
                       "supply).", {"token": (TOKENS, "a"), "laid": "b", "place": PLACE_C,
                                    "lying": "d", "supply": "e"}),
    TOKEN_TAKEN: Event("{d} Caballero(s) of {colour} take {token} in {place} ({e} left lying).",
                       {"colour": (colour_field, "a"), "token": (TOKENS, "b"), "place": PLACE_C,
                        "taken": "d", "lying": "e"},
                       words={"colour": (colour_told, "a")}),
    TOKEN_HOME: Event("A Caballero of {colour} brings {token} to {place}: {d} points (score "
                      "{e}).", {"colour": (colour_field, "a"), "token": (TOKENS, "b"),
                                "place": PLACE_C, "points": "d", "score": "e"},
                      words={"colour": (colour_told, "a")}),
    TOKEN_LOST: Event("A Caballero of {colour} goes to {to}: its {token} is lost to the supply.",
                      {"colour": (colour_field, "a"), "token": (TOKENS, "b"), "to": PLACE_C},
                      words={"colour": (colour_told, "a")}),
    SPACE_SCORED: Event("{place}: {player} on the {space}'s space scores {d} points (score {e}).",
                        {"place": PLACE_A, "player": "b", "space": (space_name, "a", "c"),
                         "points": "d", "score": "e"},
                        words={"player": (colour_told, "b")}),
    CARD_HELD: Event("{player} keeps {card} for later.", {"player": "a", "card": (HELD, "b")},
                     words={"player": (colour_told, "a")}),
    HELD_CARD_USED: Event("{player} uses {card}{used_on}",
                          {"player": "a", "card": (HELD, "b"), "on": (card_or_none, "c")},
                          words={"player": (colour_told, "a"), "used_on": (used_on_told, "c")}),
    # MOVED's row: colour, from, to, by, left, there
    FREE_MOVE: Event("{by} moves a Caballero of {colour} from {from} to {to} as a free move, no "
                     "action ({e} left, {f} there).",
                     {"player": "d", "colour": (colour_field, "a"), "from": PLACE_B,
                      "to": PLACE_C, "left": "e", "there": "f"},
                     words={"by": (colour_told, "d"), "colour": (colour_told, "a")}),
    SETUP_CABALLEROS: Event("{player} takes {b} more Caballeros into the provinces (provinces "
                            "{c}).", {"player": "a", "caballeros": "b", "provinces": "c"},
                            words={"player": (colour_told, "a")}),
    COPYCAT_ACTION: Event("--- {player}'s Copycat action after {after}'s turn: {named} (not a "
                          "turn of {player}'s) ---",
                          {"player": "a", "after": "b", "card": (CARD_KEYS, "c")},
                          words={"player": (colour_told, "a"), "after": (colour_told, "b"),
                                 "named": (card_name, "c")}),
    # d: 0 off the table, 1 onto it
    TABLE_MOVE: Choose("d", {
        0: Event("{player} takes a Caballero of {colour} off the limit table in {place}: it "
                 "stays beside it ({e} of its colour on it; one movement).",
                 {**TABLE_MOVE_FIELDS, "from": fixed("on the table"),
                  "to": fixed("beside the table"), "on_table": "e"}, words=TABLE_MOVE_WORDS),
        1: Event("{player} puts a Caballero of {colour} beside the limit table in {place} onto a "
                 "free space ({e} of its colour on it; one movement).",
                 {**TABLE_MOVE_FIELDS, "from": fixed("beside the table"),
                  "to": fixed("on the table"), "on_table": "e"}, words=TABLE_MOVE_WORDS)}),
    TRUNCATED: Event("The game is cut short."),
    GAME_END: Event("Game over. Final scores: {told}.",
                    {"scores": (first, "a", "b", "c", "d", "e", "f")},
                    words={"told": (each_player, "scores")}),
}


def tell(log) -> list[dict]:
    """The game's events in order, each a dict with ``kind``, ``text`` and its fields."""
    return story.tell(log, EVENTS, LOG_KINDS)
