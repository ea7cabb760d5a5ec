"""The expansion's moves on hand-built tables (mode grand_inquisitor_colonies): the Grand
Inquisitor's holder's black Caballeros with 'all of your Caballeros out of one region'
(rules.toml, expansion_inquisitor, all_out_takes_black).
"""

import pytest

from simulator.core.rng import seed_stream
from simulator.core.trace import entries, new_log
from simulator.games.elgrande import story as L
from simulator.games.elgrande import turn
from simulator.games.elgrande.board import (
    ALL_OUT_OF_ONE_REGION, ARAGON, BLACK, GALICIA, GRAND_INQUISITOR_COLONIES,
)

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


def test_all_out_takes_the_holders_black_caballeros_along(xtable, r, random_plans):
    """The holder 'may move black Caballeros ... as if they were his own': his 'all of your
    Caballeros out of one region' moves his own out of Galicia, then the black ones there
    (all_out_takes_black = all), each to a place he picks; none stays, none leaves the board.
    (The random player, which may also decline the card's 'may'.)"""
    chosen = 0
    for i in range(10):
        s = holder_in_galicia(xtable, 0, 2)
        log = new_log(200)
        turn.all_out_of_one_region(s, r, random_plans, rng(i), log, 0, ALL_OUT_OF_ONE_REGION)
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
    for i in range(10):
        s = holder_in_galicia(xtable, holder, 2)
        log = new_log(200)
        turn.all_out_of_one_region(s, rr, random_plans, rng(i), log, 0, ALL_OUT_OF_ONE_REGION)
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
    for i in range(40):
        s = holder_in_galicia(xtable, 0, 0)
        log = new_log(200)
        turn.all_out_of_one_region(s, rr, random_plans, rng(i), log, 0, ALL_OUT_OF_ONE_REGION)
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
        for i in range(200):
            s = holder_in_galicia(xtable, 0, 1)
            turn.all_out_of_one_region(s, rr, random_plans, rng(i), new_log(200), 0,
                                       ALL_OUT_OF_ONE_REGION)
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
