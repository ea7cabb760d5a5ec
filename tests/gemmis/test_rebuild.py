"""The replay tells everything (issue 30): a GEMMiS game rebuilt from its JSONL story alone ends
where the engine's game ends.

``Rebuild`` walks the events ``playtest replay gemmis --format jsonl`` writes and keeps the
table from them and the rule data only: both zones, the market street, the sack and the used
pile as counts of gems, the gems set aside, the score track (markers and small gems), the small
gems held and spent, the Alguazil alert levels and the market's closing. It knows the game from
the draft rulebook's meaning and the rule data (``rules.toml``'s values), never from the game's
rule modules: a move is checked legal, a combination checked to be runs of three, its points
counted from the Puncta Gemmarum, and every running total an event states (points, gaps, counts
of gems, levels, small gems held) checked against the rebuilt table. At the end the rebuilt
table is compared with the engine's own: the seat columns of the same game, and its final state
record, got by playing the game again through the compiled rules with the same seats and seed.
"""

import itertools
import json
from collections import Counter

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.replay import told_with_seats_and_result
from simulator.core.rng import seed_stream
from simulator.core.search import SEARCHING
from simulator.core.trace import new_log
from simulator.games.gemmis import board, story
from simulator.games.gemmis.spec import MODES, REPLAY_LOG_ROWS
from simulator.games.gemmis.turn import finish_game, new_game, play_on

ROWS, COLUMNS, STREET = 2, 6, 9
CELLS = ROWS * COLUMNS
# The draft's examples' colours, in the order the rule data counts them.
COLOURS = ("red", "blue", "white", "green", "amber")
JOKER = "joker"
# Where the street's gems gather as it moves (the direction as the story names it).
GATHER_AT = {"towards place 0": 0, "towards place 8": STREET - 1}


def printed(gem):
    """A gem's printed value (a gem is told as "colour" or "colour value"; a joker has none)."""
    parts = gem.split()
    return int(parts[1]) if len(parts) == 2 else 0


def colour(gem):
    return gem.split()[0]


def runs_of(shade):
    """The cells of a zone (each cell's colour, or None) in runs of three or more of one colour
    side by side in a row."""
    cells = []
    for row in range(ROWS):
        start = row * COLUMNS
        for end in range(row * COLUMNS + 1, (row + 1) * COLUMNS + 1):
            if end == (row + 1) * COLUMNS or shade[end] is None or shade[end] != shade[start]:
                if shade[start] is not None and end - start >= 3:
                    cells.extend(range(start, end))
                start = end
    return frozenset(cells)


def touching(cell):
    """The street places an inner-row cell touches (the zones centred on the street)."""
    column = cell - COLUMNS
    return (column + 1, column + 2)


class Rebuild:
    """The table kept from a game's events and the rule data (a ``RuleSet``)."""

    def __init__(self, rules, events):
        self.rule = rules.value
        self.top = self.rule("alguazil_levels") - 1  # the level at which an Alguazil is available
        self.zone = [[None] * CELLS for _ in range(2)]
        self.street = [None] * STREET
        self.sack = Counter()
        self.used = Counter()
        self.aside = []
        self.points = [0, 0]
        self.on_track = []              # cells of the small gems still on the score track
        self.held = [0, 0]              # small gems taken (used or not)
        self.spent = [0, 0]
        self.alert = [0, 0]
        self.market_open = True
        self.closer = -1
        self.final_turns = 0
        self.turns = 0
        self.turns_after_close = 0
        self.truncated = False
        self.penalty = [0, 0]
        self.small_gem_points = [0, 0]
        self.counts = [Counter(), Counter()]  # per seat: what the dataset counts
        self.street_moves = 0
        self.sack_refills = 0
        self.returned = None                  # a street gem pushed off the end (told first)
        self.pending = []                     # events the rules say must come next
        self.combination = None               # the combination being told (jokers follow it)
        for e in events:
            if self.combination is not None and e["kind"] != "joker":
                self.trigger()
            if self.pending and e["kind"] != self.pending[0][0]:
                raise AssertionError(f"expected {self.pending[0]}, got {e}")
            getattr(self, "on_" + e["kind"])(e)
        assert not self.pending, self.pending

    def expect(self, kind, **fields):
        self.pending.append((kind, fields))

    def expected(self, e):
        kind, fields = self.pending.pop(0)
        for name, value in fields.items():
            assert e[name] == value, (e, fields)

    # --- setting up ---------------------------------------------------------------------------

    def on_seating(self, e):
        self.strategies = e["strategies"]

    def on_setup(self, e):
        self.mode = e["mode"]
        self.advanced = self.mode.startswith("advanced")
        self.alguazil = self.mode.endswith("alguazil")
        colours = self.rule("colours")
        assert colours <= len(COLOURS)
        for name in COLOURS[:colours]:
            self.sack[name] += self.rule("plain_gems_per_colour")
            for value in (1, 2, 3):
                self.sack[f"{name} {value}"] += self.rule(f"value_{value}_gems_per_colour")
        self.sack[JOKER] += self.rule("jokers")
        self.chips = self.sack.copy()
        assert (e["chips"], e["colours"]) == (sum(self.chips.values()), colours)
        assert e["setup"] == self.rule("setup") and e["closing_score"] == self.rule("closing_score")
        assert e["alguazil_available_level"] == self.top

    def on_zone_gem(self, e):
        gem = e["gem"]
        assert printed(gem) == 0 and gem != JOKER, "the initial gems have no printed number"
        self.take_from_sack(gem)
        self.zone[e["player"]][e["cell"]] = gem
        if e["player"] == 1 and e["cell"] == CELLS - 1:
            for p in range(2):
                assert self.natural(p) == set(), "no combination stands at the start"

    def on_small_gem_placed(self, e):
        k = len(self.on_track) + 1
        assert e["cell"] == self.rule(f"small_gem_cell_{k}")
        self.on_track.append(e["cell"])

    # --- the sack and the street --------------------------------------------------------------

    def take_from_sack(self, gem):
        assert self.sack[gem] > 0, f"no {gem} in the sack"
        self.sack[gem] -= 1

    def on_sack_refilled(self, e):
        assert sum(self.sack.values()) == 0, "refilled while gems are left in it"
        assert e["gems"] == sum(self.used.values()) > 0
        self.sack += self.used
        self.used = Counter()
        self.sack_refills += 1

    def on_sack_empty(self, e):
        assert sum(self.sack.values()) == 0 and sum(self.used.values()) == 0

    def on_street_filled(self, e):
        assert self.market_open and self.street[e["place"]] is None
        cause = "opens the market" if self.turns == 0 else "cleans" if self.aside else "refilling"
        assert cause in e["cause"]
        self.take_from_sack(e["gem"])
        self.street[e["place"]] = e["gem"]

    def on_street_left_empty(self, e):
        assert self.street[e["place"]] is None
        assert sum(self.sack.values()) == 0 and sum(self.used.values()) == 0

    # --- the turn -----------------------------------------------------------------------------

    def on_turn(self, e):
        self.check_every_chip_in_one_place()
        assert not self.truncated
        if not self.market_open:
            assert self.turns_after_close < self.final_turns, "a turn after the last"
            self.turns_after_close += 1
            self.expect("last_turn", player=e["player"])
        assert e["turn"] == self.turns + 1 and e["player"] == self.turns % 2
        assert e["points"] == self.points
        self.player = e["player"]
        self.turns += 1
        self.counts[self.player]["turns_played"] += 1
        self.cascade = 0        # combinations triggered so far this turn
        self.last_size = 0
        self.spent_this_turn = 0
        self.skill = None       # the Alguazil skill being used, until its effect is told

    def on_last_turn(self, e):
        self.expected(e)

    def switches(self, p):
        """The legal switches: two gems of the zone side by side or one above the other, and
        (swap_rule zone_and_street) an inner-row gem with a street gem it touches."""
        zone = self.zone[p]
        n = 0
        for row in range(ROWS):
            for column in range(COLUMNS - 1):
                cell = row * COLUMNS + column
                n += zone[cell] is not None and zone[cell + 1] is not None
        for column in range(COLUMNS):
            n += zone[column] is not None and zone[COLUMNS + column] is not None
        if self.rule("swap_rule") == "zone_and_street":
            for cell in range(COLUMNS, CELLS):
                if zone[cell] is not None:
                    n += sum(self.street[place] is not None for place in touching(cell))
        return n

    def on_options(self, e):
        assert e["player"] == self.player and 0 <= e["chosen"] < e["options"]
        if e["decision"] in ("switch", "extra switch"):
            assert e["options"] == self.switches(self.player)
        if e["decision"] == "combination":
            assert e["options"] == self.combination_choices(self.player)
        if e["decision"] == "fill":
            assert e["options"] == self.fills(self.player)
        if e["decision"] == "direction":
            assert e["options"] == 2

    def on_no_switch(self, e):
        assert self.switches(e["player"]) == 0

    def on_switch(self, e):
        p, a, b = e["player"], e["cell"], e["other"]
        assert p == self.player
        if e["small_gem"] and self.rule("small_gem_switch_when") == "no_combination_stands":
            assert not self.natural(p), "a combination got is triggered at once"
        zone = self.zone[p]
        if e["with"] == "zone":
            side_by_side = a // COLUMNS == b // COLUMNS and abs(a - b) == 1
            assert side_by_side or abs(a - b) == COLUMNS, "two connected gems"
            assert (zone[a], zone[b]) == (e["gem"], e["other_gem"])
            zone[a], zone[b] = zone[b], zone[a]
        else:
            assert self.rule("swap_rule") == "zone_and_street"
            assert a >= COLUMNS and b in touching(a), "an inner gem and a street gem it touches"
            assert (zone[a], self.street[b]) == (e["gem"], e["other_gem"])
            zone[a], self.street[b] = self.street[b], zone[a]
        self.counts[p]["switches"] += 1
        assert e["small_gem"] == (e["kind"] == "small_gem_switch")
        if e["small_gem"]:
            # one more switch right after the turn's, while none got stands (by default)
            assert self.rule("small_gem_use") == "extra_switch" and self.cascade == 0
            self.spent[p] += 1
            self.spent_this_turn += 1
            assert self.spent[p] <= self.held[p]
            no_limit = not self.market_open and self.rule("small_gem_last_turn") == "no_limit"
            assert no_limit or self.spent_this_turn <= self.rule("small_gems_per_turn")

    on_small_gem_switch = on_switch

    def on_small_gem_kept(self, e):
        assert e["unused"] == self.held[e["player"]] - self.spent[e["player"]] > 0

    # --- combinations -------------------------------------------------------------------------

    def natural(self, p):
        """The cells in runs of three or more gems of one colour side by side, jokers apart."""
        return runs_of([None if g in (None, JOKER) else colour(g) for g in self.zone[p]])

    def combination_choices(self, p):
        """The combinations ``p`` may choose from, as the jokers' owner gives each of them any
        colour or none (a colour of their own: jokers side by side make a run): every distinct
        set of runs of three or more of one colour, of at least the size a cascade needs
        (advanced), and one more, triggering nothing, unless a combination stands without
        jokers (a combination got is mandatory)."""
        zone = self.zone[p]
        jokers = [c for c in range(CELLS) if zone[c] == JOKER]
        least = self.last_size + 1 if self.advanced and self.cascade else 3
        shades = COLOURS[:self.rule("colours")] + ("own", None)  # None: joins nothing
        found = set()
        for declared in itertools.product(shades, repeat=len(jokers)):
            shade = [colour(g) if g is not None else None for g in zone]
            for c, s in zip(jokers, declared):
                shade[c] = s
            cells = runs_of(shade)
            if len(cells) >= least:
                found.add(cells)
        natural = self.natural(p)
        return len(found) + (0 if natural and len(natural) >= least else 1)

    def on_no_combination(self, e):
        assert e["player"] == self.player and e["cascade"] == self.cascade
        assert not self.natural(self.player), "a combination got is mandatory"

    def on_kept(self, e):
        # only a combination that needs jokers may be kept (or, advanced, when the one that
        # stands without them is a cascade too small to trigger)
        natural = len(self.natural(e["player"]))
        assert not natural or (self.advanced and self.cascade and natural <= self.last_size)
        assert e["options"] == self.combination_choices(e["player"]) - 1
        self.counts[e["player"]]["kept"] += 1

    def on_left_standing(self, e):
        assert self.advanced and self.cascade > 0
        assert e["size"] == len(self.natural(e["player"])) <= self.last_size == e["last_size"]
        self.counts[e["player"]]["left_standing"] += 1

    def on_deferred(self, e):
        assert self.cascade > 0 and self.rule("cascades") == "next_turn"
        self.counts[e["player"]]["left_standing"] += 1

    def on_combination(self, e):
        p = e["player"]
        assert p == self.player and e["cascade"] == self.cascade
        cells = e["cells"]
        assert len(cells) == e["size"] and all(self.zone[p][c] is not None for c in cells)
        assert self.natural(p) <= set(cells), "the runs standing without jokers are triggered"
        if self.advanced and self.cascade:
            assert e["size"] > self.last_size, "advanced: a cascade bigger than the last"
        assert e["table_points"] == self.rule(f"points_{e['size']}")
        assert e["values"] == sum(printed(self.zone[p][c]) for c in cells)
        self.combination = (e, {})

    def on_joker(self, e):
        told, declared = self.combination
        assert e["player"] == told["player"] and e["cell"] in told["cells"]
        assert self.zone[e["player"]][e["cell"]] == JOKER
        declared[e["cell"]] = e["colour"]

    def trigger(self):
        """The combination told and its jokers' colours: runs of three or more of one colour
        side by side; its gems go beside the board, used."""
        e, declared = self.combination
        self.combination = None
        p, cells = e["player"], sorted(e["cells"])
        zone = self.zone[p]
        assert all(c in declared for c in cells if zone[c] == JOKER), "every joker given a colour"
        shade = [None] * CELLS
        for c in cells:
            shade[c] = declared[c] if zone[c] == JOKER else colour(zone[c])
        assert runs_of(shade) == set(cells), f"not runs of three: {e} {shade}"
        counts = self.counts[p]
        counts[f"combinations_{e['size']}"] += 1
        counts["combinations"] += 1
        counts["points_combinations"] += e["table_points"]
        counts["points_values"] += e["values"]
        counts["cascades"] += e["cascade"] > 0
        counts["multi_colour"] += len({shade[c] for c in cells}) >= 2
        counts["two_rows"] += len({c // COLUMNS for c in cells}) == 2
        counts["jokers_used"] += sum(zone[c] == JOKER for c in cells)
        counts["biggest"] = max(counts["biggest"], e["size"])
        for c in cells:
            self.used[zone[c]] += 1
            zone[c] = None
        self.cascade += 1
        self.last_size = e["size"]
        before = self.points[p]
        after = before + e["table_points"] + e["values"]
        self.expect("points", player=p, before=before, after=after)
        held = self.held[p]
        for cell in self.on_track:
            exact = self.rule("small_gem_taken") == "land_exactly"
            if after == cell if exact else before < cell <= after:
                held += 1
                self.expect("small_gem_taken", player=p, cell=cell, held=held)
        if self.market_open and after >= self.rule("closing_score"):
            final = {"opponent": 1, "equal_turns": 1 if p == 0 else 0, "none": 0}
            self.expect("market_closed", player=p, points=after,
                        final_turns=final[self.rule("last_turn")])
        if self.alguazil:
            level = min(self.alert[1 - p] + 1, self.top)
            self.expect("alert", player=1 - p, level=level, rose=level > self.alert[1 - p],
                        available_at=self.top)

    def on_points(self, e):
        self.expected(e)
        self.points[e["player"]] = e["after"]

    def on_small_gem_taken(self, e):
        self.expected(e)
        self.on_track.remove(e["cell"])
        self.held[e["player"]] += 1

    def on_market_closed(self, e):
        self.expected(e)
        self.market_open = False
        self.closer = e["player"]
        self.final_turns = e["final_turns"]

    def on_alert(self, e):
        self.expected(e)
        self.alert[e["player"]] = e["level"]

    # --- filling the zone; moving and filling the street --------------------------------------

    def fills(self, p):
        """The (street gem, empty zone place) pairs the zone may be filled with: any street gem
        into any empty place (street_choice), or one of the two an empty inner cell touches
        (street_touching); none when the zone is filled blind from the sack."""
        refill = self.rule("zone_refill")
        empty = [cell for cell in range(CELLS) if self.zone[p][cell] is None]
        n = 0
        for place in range(STREET):
            if self.street[place] is None or refill == "sack":
                continue
            n += sum(refill == "street_choice" or (cell >= COLUMNS and place in touching(cell))
                     for cell in empty)
        return n

    def on_zone_filled(self, e):
        p, cell, gem = e["player"], e["cell"], e["gem"]
        assert self.zone[p][cell] is None
        refill = self.rule("zone_refill")
        if e["from"] == "street":
            assert refill != "sack" and self.street[e["place"]] == gem
            if refill == "street_touching":
                assert cell >= COLUMNS and e["place"] in touching(cell)
            self.street[e["place"]] = None
        else:
            if refill == "street_touching" and self.rule("sack_into_zone") == "inner_row":
                assert cell >= COLUMNS, "a gem from the sack enters through the inner row"
            assert self.fills(p) == 0, "the sack fills only what the street cannot"
            self.take_from_sack(gem)
        self.zone[p][cell] = gem

    def on_zone_settled(self, e):
        p, below, cell = e["player"], e["from_cell"], e["cell"]
        assert self.rule("zone_refill") == "street_touching"
        assert below == cell + COLUMNS and self.zone[p][cell] is None
        assert self.zone[p][below] == e["gem"]
        self.zone[p][cell], self.zone[p][below] = e["gem"], None

    def on_zone_left_empty(self, e):
        assert not self.market_open
        assert e["cells"] == sum(g is None for g in self.zone[e["player"]]) > 0

    def on_direction(self, e):
        assert e["player"] == self.player and self.market_open
        self.way = e["direction"]

    def on_direction_changed(self, e):
        assert self.skill == ("change_direction", e["player"]) and e["player"] != self.player
        assert e["direction"] != self.way
        self.way = e["direction"]
        self.skill = None

    def on_street_gem_returned(self, e):
        self.returned = e

    def on_street_moved(self, e):
        assert e["direction"] == self.way
        gaps = sum(g is None for g in self.street)
        shifts = self.rule("street_move") == "shift_one" or (
            self.rule("street_moving") == "every_turn" and gaps == 0)
        assert e["gaps"] == gaps and e["shift_one"] == shifts
        self.close_gaps()
        returned, self.returned = self.returned, None
        end = GATHER_AT[self.way]
        if shifts and self.street[end] is not None:  # pushed off the end, back into the sack
            assert returned is not None
            assert (returned["gem"], returned["place"]) == (self.street[end], end)
            self.sack[self.street[end]] += 1
            self.street[end] = None
            self.close_gaps()
        else:
            assert returned is None
        self.street_moves += 1

    def close_gaps(self):
        gems = [g for g in self.street if g is not None]
        empty = [None] * (STREET - len(gems))
        self.street = gems + empty if GATHER_AT[self.way] == 0 else empty + gems

    def on_street_still(self, e):
        assert all(g is not None for g in self.street) and self.market_open
        assert self.rule("street_move") == "close_gaps", "shift_one moves a full street too"

    def on_street_closed(self, e):
        assert not self.market_open

    # --- the Alguazil -------------------------------------------------------------------------

    def on_alguazil_used(self, e):
        p, skill = e["player"], e["skill"]
        assert self.alguazil and self.market_open and self.alert[p] == self.top
        assert skill == "clean_street" or p != self.player, "the opponent's skills"
        self.counts[p][f"alguazil_{skill}"] += 1
        self.alert[p] = 0  # used: down to the lowest level
        self.skill = (skill, p)

    def on_alguazil_cancelled(self, e):
        q = e["player"]
        assert self.skill is not None and self.skill[1] != q and self.alert[q] == self.top
        assert e["skill"] == self.skill[0]
        self.counts[q]["alguazil_cancel"] += 1
        self.alert[q] = 0  # both Alguazils drop to the lowest level
        self.skill = None

    def on_alert_after_skill(self, e):
        assert e["level"] == self.alert[e["player"]] and e["available_at"] == self.top

    def on_interrupted(self, e):
        assert self.skill == ("interrupt", 1 - e["player"]) and e["player"] == self.player
        assert e["size"] >= max(3, len(self.natural(e["player"])))
        self.counts[e["player"]]["interrupted"] += 1
        self.skill = None

    def on_street_cleaned(self, e):
        assert self.skill == ("clean_street", e["player"])
        assert all(g is not None for g in self.street) and e["gems"] == STREET
        self.aside, self.street = self.street, [None] * STREET
        self.skill = None

    def on_aside_returned(self, e):
        assert e["gems"] == len(self.aside)
        self.sack.update(self.aside)
        self.aside = []

    # --- the end ------------------------------------------------------------------------------

    def on_truncated(self, e):
        assert e["turns"] == self.turns == self.rule("max_turns")
        self.truncated = True

    def on_penalty(self, e):
        assert self.advanced
        p = e["player"]
        assert e["values"] == sum(printed(g) for g in self.zone[p] if g is not None)
        self.penalty[p] = e["values"]

    def on_small_gem_points(self, e):
        p = e["player"]
        assert e["unused"] == self.held[p] - self.spent[p] > 0
        assert e["points"] == e["unused"] * self.rule("small_gem_points")
        self.small_gem_points[p] = e["points"]

    def on_game_end(self, e):
        self.check_every_chip_in_one_place()
        if not self.truncated:
            assert not self.market_open and self.turns_after_close == self.final_turns
        if self.advanced:  # every zone's printed values are counted against it, 0 or not
            for p in range(2):
                assert self.penalty[p] == sum(printed(g) for g in self.zone[p] if g is not None)
        self.scores = [self.points[p] - self.penalty[p] + self.small_gem_points[p]
                       for p in range(2)]
        assert e["scores"] == self.scores and e["small_gems"] == self.held
        # the higher score wins; a tie goes to fewer small gems (used or not); still equal, shared
        key = [(self.scores[p], -self.held[p]) for p in range(2)]
        self.ranks = [1 + sum(key[q] > key[p] for q in range(2)) for p in range(2)]
        self.winners = [p for p in range(2) if self.ranks[p] == 1]
        assert e["ranks"] == self.ranks and e["winners"] == self.winners
        assert e["win_shares"] == [1 / len(self.winners) if p in self.winners else 0.0
                                   for p in range(2)]

    def check_every_chip_in_one_place(self):
        places = Counter(g for g in self.zone[0] + self.zone[1] + self.street + self.aside
                         if g is not None) + self.sack + self.used
        assert places == self.chips


def gem_name(s, chip):
    """A chip of the engine's state as the story names it."""
    if chip < 0:
        return None
    if s.chip_colour[chip] == board.JOKER:
        return JOKER
    value = s.chip_value[chip]
    return COLOURS[s.chip_colour[chip]] + (f" {value}" if value else "")


def play_and_tell(config, index):
    """Game ``index`` of the run ``config``: its events as ``playtest replay --format jsonl``
    writes them, its seat columns, and the engine's final state record, from playing it again
    through the compiled rules with the seats and random stream the batch kernel gives it."""
    rules = config.rules.as_record()
    told, seats = config.game.replay(rules, config.seed, index, config.setup)
    columns = config.game.seat_columns(seats, config)
    events = json.loads(json.dumps(told_with_seats_and_result(told, columns)))
    setup = config.setup
    row = setup.seatings[index % setup.seatings.shape[0]]
    plans = (np.ascontiguousarray(setup.mix_ids[row]), np.ascontiguousarray(setup.mix_weights[row]))
    if setup.seats_searching_plans:
        plans += (SEARCHING,)
    rng = seed_stream(config.seed, index)
    log = new_log(REPLAY_LOG_ROWS)
    table = new_game(rules[0], setup.mode, plans, rng, log).view(np.recarray)
    play_on(table[0], rules[0], plans, rng, log, np.iinfo(np.int64).max)
    finish_game(table[0], rules[0], log)
    # the same game: its story is the replay's, but for the seating and the end
    assert json.loads(json.dumps(story.tell(log))) == events[1:-1]
    return events, columns, table[0]


SEAT_COUNTS = (
    "turns_played", "switches", "combinations", "points_combinations", "points_values",
    "cascades", "multi_colour", "two_rows", "jokers_used", "kept", "left_standing", "biggest",
    "interrupted", "alguazil_interrupt", "alguazil_clean_street", "alguazil_change_direction",
    "alguazil_cancel") + tuple(f"combinations_{k}" for k in range(3, CELLS + 1))


def compare(rebuilt, columns, s, rules):
    """The rebuilt table against the engine's: its final state and the game's seat columns."""
    for p in range(2):
        assert rebuilt.zone[p] == [gem_name(s, chip) for chip in s.zone[p]], p
    assert rebuilt.street == [gem_name(s, chip) for chip in s.street]
    assert rebuilt.sack == Counter(gem_name(s, chip) for chip in s.sack[:s.sack_n])
    assert rebuilt.used == Counter(gem_name(s, chip) for chip in s.used[:s.used_n])
    assert rebuilt.aside == [] and s.aside_n == 0
    track = [rules.value(f"small_gem_cell_{k + 1}") for k in range(3) if s.small_gem_on_cell[k]]
    assert rebuilt.on_track == track
    assert rebuilt.points == list(s.points)
    assert (rebuilt.held, rebuilt.spent) == (list(s.small_gems), list(s.small_gems_used))
    assert rebuilt.alert == list(s.alert)
    assert (rebuilt.market_open, rebuilt.closer) == (bool(s.market_open), s.closer)
    assert (rebuilt.turns, rebuilt.truncated) == (s.turn, bool(s.truncated))
    assert (rebuilt.penalty, rebuilt.small_gem_points) == (list(s.penalty),
                                                           list(s.points_small_gems))
    assert (rebuilt.street_moves, rebuilt.sack_refills) == (s.street_moves, s.sack_refills)
    assert columns["strategy"].to_pylist() == rebuilt.strategies
    assert list(columns["score"]) == rebuilt.scores
    assert list(columns["rank"]) == rebuilt.ranks
    assert [p for p in range(2) if columns["winner"][p]] == rebuilt.winners
    assert list(columns["small_gems"]) == rebuilt.held
    assert list(columns["small_gems_used"]) == rebuilt.spent
    assert list(columns["points_penalty"]) == [-x for x in rebuilt.penalty]
    assert list(columns["points_small_gems"]) == rebuilt.small_gem_points
    assert list(columns["closed_market"]) == [rebuilt.closer == p for p in range(2)]
    for name in SEAT_COUNTS:
        assert list(columns[name]) == [rebuilt.counts[p][name] for p in range(2)], name


SEED = 30
# Games per mode for each set of players: the default mix, random players, the search player
# (its own rollouts make its games slow) against the heuristic it rolls out with, and the
# expert, whose playouts must leave nothing in the story.
MIXES = {"default": (None, 60), "random": (["random"], 30),
         "search": (["lookahead", "quick_scorer"], 6), "expert": (["expert", "quick_scorer"], 20)}


@pytest.mark.parametrize("mix", list(MIXES))
@pytest.mark.parametrize("mode", list(MODES))
def test_the_replay_rebuilds_the_game(mode, mix):
    strategies, games = MIXES[mix]
    config = make_config("gemmis", 2, mode, strategies, seed=SEED)
    for index in range(games):
        events, columns, final = play_and_tell(config, index)
        compare(Rebuild(config.rules, events), columns, final, config.rules)


# The rule data's other readings (rules.toml's choices), each in every mode.
VARIANTS = [{"zone_refill": "street_choice"}, {"zone_refill": "sack"},
            {"sack_into_zone": "empty_cell"}, {"swap_rule": "own_zone"},
            {"street_move": "shift_one"}, {"street_moving": "every_turn"},
            {"cascades": "next_turn"}, {"last_turn": "equal_turns"}, {"last_turn": "none"},
            {"setup": "dealt"}, {"small_gem_switch_when": "before_triggering"},
            {"small_gem_taken": "land_exactly", "small_gem_last_turn": "per_turn_limit"},
            {"small_gem_use": "none", "small_gem_points": 3},
            {"small_gems_per_turn": 3, "alguazil_levels": 2, "closing_score": 60},
            {"max_turns": 25}]


@pytest.mark.slow
@pytest.mark.parametrize("settings", VARIANTS,
                         ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
@pytest.mark.parametrize("mode", list(MODES))
def test_the_replay_rebuilds_the_game_under_every_reading(mode, settings):
    for strategies in (None, ["random"]):
        config = make_config("gemmis", 2, mode, strategies, settings=settings, seed=SEED)
        for index in range(20):
            events, columns, final = play_and_tell(config, index)
            compare(Rebuild(config.rules, events), columns, final, config.rules)
