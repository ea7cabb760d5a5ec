"""The expansion's moves on hand-built tables (mode grand_inquisitor_colonies): the Grand
Inquisitor's holder's black Caballeros with 'all of your Caballeros out of one region'
(rules.toml, expansion_inquisitor, all_out_takes_black), and the movements on and off the
limit table within its region, by the moving cards and by Holy Inquisition's black moves
(rules.toml, expansion_table_moves, table_moves_in_region).
"""

import pytest

from simulator import api
from simulator.core.rng import seed_stream
from simulator.core.trace import entries, new_log
from simulator.games.elgrande import effects as E
from simulator.games.elgrande import expansion as X
from simulator.games.elgrande import story as L
from simulator.games.elgrande import turn
from simulator.games.elgrande.board import (
    ALL_OUT_OF_ONE_REGION, ARAGON, BLACK, CASTILLO, FRANCIA, GALICIA, GRAND_INQUISITOR_COLONIES,
    HOLY_INQUISITION, MOVE_ANY_3, MOVE_ANY_OUT_OF_ONE_REGION, MOVE_OWN_2_OPPONENTS_2, SHIP,
    counted, table_filler,
)
from strategies import elgrande as players
from tests.elgrande.conftest import make_plans

GIC = GRAND_INQUISITOR_COLONIES


def rng(i=1):
    return seed_stream(99, i)


def logged(log, code):
    return [tuple(int(x) for x in row[1:]) for row in entries(log) if row[0] == code]


@pytest.fixture
def xtable(table):
    """``xtable(n_players, king=...)``: a cleared table of the expansion."""
    return lambda n_players=3, king=ARAGON: table(n_players, king=king, mode=GIC)


# --- 'All of your Caballeros out of one region' and the black Caballeros ------------------------

def holder_in_galicia(xtable, holder, own):
    """``own`` of P0's Caballeros and 2 black ones in Galicia, nothing else on the board; the
    Grand Inquisitor held by ``holder``."""
    s = xtable(3, king=ARAGON)
    s.inquisitor = holder
    s.cab[0, GALICIA] = own
    s.cab[BLACK, GALICIA] = 2
    return s


def all_out_plays(xtable, rules, plans, holder, own, n):
    """(table, log) after each of ``n`` plays of 'all out of one region' by P0 on
    ``holder_in_galicia`` (a fresh table and random stream each)."""
    for i in range(n):
        s = holder_in_galicia(xtable, holder, own)
        log = new_log(200)
        turn.all_out_of_one_region(s, rules, plans, rng(i), log, 0, ALL_OUT_OF_ONE_REGION)
        yield s, log


def test_all_out_takes_the_holders_black_caballeros_along(xtable, r, random_plans):
    """The holder 'may move black Caballeros ... as if they were his own': his 'all of your
    Caballeros out of one region' moves his own out of Galicia, then the black ones there
    (all_out_takes_black = all), each to a place he picks; none stays, none leaves the board.
    (The random player, which may also decline the card's 'may'.)"""
    chosen = 0
    for s, log in all_out_plays(xtable, r, random_plans, 0, 2, 10):
        moved = logged(log, L.MOVED)
        if not moved:
            continue
        chosen += 1
        assert [m[0] for m in moved] == [0, 0, BLACK, BLACK]  # his own first
        assert all(m[1] == GALICIA and m[2] not in (GALICIA, ARAGON) and m[3] == 0
                   for m in moved)
        assert s.cab[0, GALICIA] == 0 and s.cab[BLACK, GALICIA] == 0
        assert s.cab[BLACK].sum() == 2
    assert chosen > 0


@pytest.mark.parametrize("setting,holder", [("none", 0), ("all", 1), ("all", -1)])
def test_all_out_leaves_the_black_ones_of_another_or_by_none(xtable, rules_with, random_plans,
                                                             setting, holder):
    """Only the holder's card takes them ('none', the rules version 2 play, never does)."""
    rr = rules_with(all_out_takes_black=setting)[0]
    chosen = 0
    for s, log in all_out_plays(xtable, rr, random_plans, holder, 2, 10):
        assert s.cab[BLACK, GALICIA] == 2 and all(m[0] == 0 for m in logged(log, L.MOVED))
        chosen += s.cab[0, GALICIA] == 0
    assert chosen > 0


@pytest.mark.parametrize("setting", ["all", "none"])
def test_a_region_of_his_black_ones_only_may_be_chosen(xtable, rules_with, random_plans,
                                                      setting):
    """With only black Caballeros of his in Galicia, the holder may choose Galicia ('all':
    his own there are the black ones) and they all go; by 'none' the card finds nothing to
    move. The random player chooses Galicia or declines (the card's 'may')."""
    rr = rules_with(all_out_takes_black=setting)[0]
    chosen = 0
    for s, log in all_out_plays(xtable, rr, random_plans, 0, 0, 40):
        moved = logged(log, L.MOVED)
        assert s.cab[BLACK, GALICIA] in (0, 2) and len(moved) == 2 - s.cab[BLACK, GALICIA]
        chosen += s.cab[BLACK, GALICIA] == 0
        if setting == "none":
            assert logged(log, L.NO_EFFECT) == [(0, ALL_OUT_OF_ONE_REGION, L.NO_CABALLERO, 0, 0,
                                                 0)]
    assert (chosen > 0) == (setting == "all")


def test_may_leave_lets_the_holder_keep_black_ones_there(xtable, rules_with, random_plans):
    """By 'may_leave' the holder moves as many of the black ones as he likes (the random player:
    none, one or both, after his own); by 'all' always both."""
    for setting, expected in (("may_leave", {0, 1, 2}), ("all", {0})):
        rr = rules_with(all_out_takes_black=setting)[0]
        left = set()
        for s, _ in all_out_plays(xtable, rr, random_plans, 0, 1, 200):
            if s.cab[0, GALICIA] == 0:  # the random player chose Galicia (it may decline)
                left.add(int(s.cab[BLACK, GALICIA]))
        assert left == expected, setting


def test_a_heuristic_holder_sends_his_black_ones_where_they_score(xtable, r, plans, log):
    """The greedy holder values the card by where the black ones will go (each where it adds
    most to his points), not as lost: tied 3-3 with P1 in Galicia (his 1 and 2 black), he takes
    them all out, and the black ones go each to a region where it stands first."""
    s = holder_in_galicia(xtable, 0, 1)
    s.cab[1, GALICIA] = 3
    turn.all_out_of_one_region(s, r, plans, rng(), log, 0, ALL_OUT_OF_ONE_REGION)
    black = [m for m in logged(log, L.MOVED) if m[0] == BLACK]
    assert len(black) == 2 and s.cab[BLACK, GALICIA] == 0
    assert all(s.cab[BLACK, m[2]] + s.cab[0, m[2]] > 0 and s.cab[1, m[2]] == 0 for m in black)


# --- On and off the limit table within its region ----------------------------------------------

def table_in_galicia(xtable, on, beside):
    """The limit table (6 spaces) in Galicia with ``on[p]`` of player p's Caballeros on it and
    ``beside[p]`` beside it; the King in Aragón; nobody holds the Grand Inquisitor."""
    s = xtable(3, king=ARAGON)
    s.table_region, s.table_size = GALICIA, 6
    for p in range(3):
        s.cab[p, GALICIA] = on[p] + beside[p]
        s.on_table[p] = on[p]
    return s


def test_off_the_table_stays_in_the_region_and_the_space_is_filled(xtable, r, plans, log):
    """'Move Caballeros on and off the limit table. You may even do this from within the same
    region': one of P1's taken off stays in Galicia, beside the table and not counted, and its
    space is free; after the turn the Grand Inquisitor's holder (P2) fills it from those beside
    (his own). The replay tells the movement: who, whose, where, off."""
    s = table_in_galicia(xtable, on=(2, 4, 0), beside=(0, 0, 1))
    s.inquisitor = 2
    E.move_on_table(s, 1, False, 0, log)
    assert s.cab[1, GALICIA] == 4 and s.on_table[1] == 3 and counted(s, 1, GALICIA) == 3
    assert E.table_load(s) == 5 and s.moved[1] == 1
    assert logged(log, L.TABLE_MOVE) == [(0, 1, GALICIA, 0, 3, 0)]
    X.fill_table(s, r, plans, rng(), log, table_filler(s, 0))
    assert list(s.on_table[:3]) == [2, 3, 1] and E.table_load(s) == 6
    event = L.tell(log)[0]
    assert event["kind"] == "table_move"
    assert {k: event[k] for k in ("player", "colour", "place", "from", "to")} == {
        "player": 0, "colour": 1, "place": "Galicia", "from": "on the table",
        "to": "beside the table"}


def test_a_swap_is_two_movements(xtable, r, log):
    """'When you move 1 Caballero off of a limit table and replace it with another Caballero,
    this counts as 2 movements': P1's off and P0's on leave the table as full as before, with
    one more of P0 and one fewer of P1 counted, and two movements."""
    s = table_in_galicia(xtable, on=(3, 3, 0), beside=(1, 0, 0))
    E.move_on_table(s, 1, False, 0, log)
    E.move_on_table(s, 0, True, 0, log)
    assert list(s.on_table[:2]) == [4, 2] and E.table_load(s) == 6
    assert s.moved[0] + s.moved[1] == 2
    assert [row[3] for row in logged(log, L.TABLE_MOVE)] == [0, 1]


@pytest.mark.parametrize("card,limit", [(MOVE_ANY_3, 1), (MOVE_ANY_3, 2),
                                        (MOVE_OWN_2_OPPONENTS_2, 0)])
def test_table_movements_count_against_the_cards_limits(xtable, r, random_plans, card, limit):
    """Each movement on or off the table is one of the card's moves of that colour: the random
    player (uniform over every legal movement) makes them, and never more movements than the
    card allows (its number, here cut to ``limit`` for 'any 3'; 2 own and 2 opponents' for the
    other)."""
    tables = 0
    for i in range(150):
        s = table_in_galicia(xtable, on=(3, 3, 0), beside=(1, 1, 1))
        if limit:
            s.card_number[card] = limit
        log = new_log(300)
        turn.intrigue(s, r, random_plans, rng(i), log, 0, card)
        shifts = logged(log, L.TABLE_MOVE)
        colours = [m[1] for m in shifts] + [m[0] for m in logged(log, L.MOVED)]
        own = sum(c == 0 for c in colours)
        if card == MOVE_ANY_3:
            assert len(colours) <= limit
        else:
            assert own <= 2 and len(colours) - own <= 2
        assert s.on_table.sum() <= 6 and (s.on_table[:3] <= s.cab[:3, GALICIA]).all()
        tables += len(shifts)
    assert tables > 0


def test_no_table_movement_by_out_of_one_region_or_when_off(xtable, r, rules_with,
                                                           random_plans):
    """The 'out of one region' card moves Caballeros out of a region, never within it; by
    table_moves_in_region = no (rules version 2) no card moves on or off the table; nor while the
    table stands in the King's region (closed)."""
    off = rules_with(table_moves_in_region="no")[0]
    for rules, card, king in ((r, MOVE_ANY_OUT_OF_ONE_REGION, ARAGON), (off, MOVE_ANY_3, ARAGON),
                              (r, MOVE_ANY_3, GALICIA)):
        for i in range(40):
            s = table_in_galicia(xtable, on=(3, 3, 0), beside=(1, 1, 1))
            s.king = king
            log = new_log(300)
            turn.intrigue(s, rules, random_plans, rng(i), log, 0, card)
            assert logged(log, L.TABLE_MOVE) == []


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_heuristic_swaps_a_rival_off_for_its_own(xtable, r, log, number):
    """The intriguer with 'any 3' (cut to ``number`` movements), tied 3-3 with P1 on a full
    table in Galicia with one of its own beside, P1 holding the Grand Inquisitor; everywhere
    else it is first by far (no move there changes a standing) and the spaces are taken. P1
    taken off and its own put on in its place makes it first in Galicia; P1 taken off alone
    would be put back when P1 fills the table after the turn. So with two movements or more it
    swaps (two movements) and stays first once P1 has filled the table; with one it makes no
    table movement."""
    s = table_in_galicia(xtable, on=(3, 3, 0), beside=(1, 0, 0))
    s.inquisitor = 1
    for g in range(CASTILLO + 1):
        if g not in (GALICIA, ARAGON):
            s.cab[0, g] = 5
    s.cab[0, FRANCIA] = 3
    s.francia[:] = 0
    s.captain = s.viceroy = 0
    s.mobile[0] = SHIP  # a move of P1's to the Ship would score for it there
    s.card_number[MOVE_ANY_3] = number
    intriguer = make_plans(players.INTRIGUER)
    turn.intrigue(s, r, intriguer, rng(), log, 0, MOVE_ANY_3)
    shifts = logged(log, L.TABLE_MOVE)
    assert len(shifts) + len(logged(log, L.MOVED)) <= number
    X.fill_table(s, r, intriguer, rng(), log, table_filler(s, 0))  # after the turn, by P1
    if number == 1:
        assert shifts == []  # it moves P1 out of Galicia instead: that one does not come back
    else:
        assert shifts[0][1] == 1 and shifts[0][3] == 0  # P1 off first
        if number == 2:  # then its own on: the swap (with three, P1 off again is as good)
            assert [(m[1], m[3]) for m in shifts] == [(1, 0), (0, 1)]
        assert counted(s, 0, GALICIA) == 4 and counted(s, 1, GALICIA) < 4
        assert s.cab[1, GALICIA] == 3


@pytest.mark.parametrize("strategy", ["random", "intriguer"])
def test_players_make_table_movements_in_seeded_games(strategy):
    """In seeded five-player games of the expansion the random player and a heuristic both move
    Caballeros on or off the limit table within its region (the replay's table_move events)."""
    count = 0
    for index in range(12):
        events = api.replay("elgrande", seed=5, game_index=index, players=5,
                            strategies=[strategy] * 5, mode="grand_inquisitor_colonies")
        moves = [e for e in events if e["kind"] == "table_move"]
        assert all(e["from"] != e["to"] and e["place"] not in ("Francia",) for e in moves)
        count += len(moves)
    assert count > 0


@pytest.mark.parametrize("setting", ["yes", "no"])
def test_holy_inquisitions_black_moves_may_be_table_movements(xtable, rules_with, random_plans,
                                                             setting):
    """Holy Inquisition's 'move up to 2 of the Grand Inquisitor's (black) Caballeros' are moves
    as the Move section has them: one on the table in Galicia may be taken off (it stays
    beside) and one beside put onto the free space, each one of the 2; only black ones move,
    none leaves the board. By table_moves_in_region = no they go between places only. (The
    random player, uniform over every legal movement and stopping.) Nothing moved is told as
    no effect, as for the other moving cards."""
    rr = rules_with(table_moves_in_region=setting)[0]
    shifts = idle = 0
    for i in range(150):
        s = table_in_galicia(xtable, on=(2, 2, 0), beside=(0, 0, 0))
        s.cab[BLACK, GALICIA] = 2
        s.on_table[BLACK] = 1  # five of six spaces taken: one black one beside
        log = new_log(300)
        turn.special_action(s, rr, random_plans, rng(i), log, 0, HOLY_INQUISITION)
        assert s.inquisitor == 0
        table_moves = logged(log, L.TABLE_MOVE)
        moved = logged(log, L.MOVED)
        assert all(m[1] == BLACK and m[2] == GALICIA for m in table_moves)
        assert all(m[0] == BLACK for m in moved)
        assert len(table_moves) + len(moved) <= 2
        assert s.cab[BLACK].sum() == 2 and E.table_load(s) <= 6
        assert 0 <= s.on_table[BLACK] <= s.cab[BLACK, GALICIA]
        assert list(s.on_table[:3]) == [2, 2, 0]
        shifts += len(table_moves)
        nothing = len(table_moves) + len(moved) == 0
        assert logged(log, L.NO_EFFECT) == (
            [(0, HOLY_INQUISITION, L.NO_CABALLERO, 0, 0, 0)] if nothing else [])
        idle += nothing
    assert (shifts > 0) == (setting == "yes") and idle > 0
