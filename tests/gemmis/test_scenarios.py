"""Every worked example of the draft rulebook, on a hand-built board; and the rules around them
(mandatory triggering, the street and the opponent's zone, the advanced cascade limit, the sack,
the Alguazil, the end of the game and the tie)."""

import numpy as np
import pytest

from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.core.unfolding import new_leaders
from simulator.games.gemmis import board, turn
from tests.gemmis.conftest import make_plans, options
from strategies.gemmis import GREEDY, RANDOM


def size(mask):
    return int(board.popcount(mask))


def points(r, masks, mask):
    return int(board.combination_points(r, masks, mask))


def natural(t, p=0):
    return int(board.natural_combination(t.masks(p)))


# --- Some examples of combinations ---------------------------------------------------------------

def test_combination_of_3_with_a_value_3_gem_on_the_right_scores_4(table, r):
    t = table().zone(0, "B R R R3 W G", "G W B A R W")
    m = natural(t)
    assert size(m) == 3 and points(r, t.masks(), m) == 1 + 3


def test_combination_of_4_with_two_value_1_gems_on_the_left_scores_4(table, r):
    t = table().zone(0, "W B A R G W", "G1 G1 G G R A")
    m = natural(t)
    assert size(m) == 4 and points(r, t.masks(), m) == 2 + 2


def test_combination_of_5_with_a_value_1_gem_on_the_right_scores_6(table, r):
    t = table().zone(0, "A A A A A1 R", "G W B R W G")
    m = natural(t)
    assert size(m) == 5 and points(r, t.masks(), m) == 5 + 1


def test_combination_of_6_in_one_row_scores_8(table, r):
    t = table().zone(0, "W W W W W W", "G R B A G R")
    m = natural(t)
    assert size(m) == 6 and points(r, t.masks(), m) == 8


def test_combination_of_6_as_three_and_three_in_two_rows_at_any_positions(table, r):
    # the three on the top at the most left, the three at the bottom at the most right
    t = table().zone(0, "R R R G B A", "G A B W W W")
    m = natural(t)
    assert size(m) == 6 and points(r, t.masks(), m) == 8
    assert m & board.ROW_MASK[0] and m & board.ROW_MASK[1]


def test_two_fives_of_different_colours_in_two_rows_make_a_10_worth_28(table, r):
    t = table().zone(0, "R R1 R R R2 B", "G W W W W W")
    m = natural(t)
    assert size(m) == 10 and points(r, t.masks(), m) == 25 + 3


def test_the_points_table(r):
    table = {3: 1, 4: 2, 5: 5, 6: 8, 7: 12, 8: 16, 9: 20, 10: 25, 11: 32, 12: 40}
    for k, value in table.items():
        assert board.points_for_size(r, k) == value


# --- The joker ------------------------------------------------------------------------------------

def test_a_joker_beside_two_ambers_may_make_3_or_be_declared_not_amber(table, r):
    t = table().zone(0, "A A J R B G", "G W R B W R")
    masks, colours = options(t.masks())
    assert masks[0] == 0  # nothing stands without the joker: nothing is mandatory
    assert sorted(size(m) for m in masks[1:]) == [3]
    assert points(r, t.masks(), masks[1]) == 1


def test_a_joker_between_whites_and_reds_makes_the_white_red_combination_of_6(table):
    t = table().zone(0, "W W W J R R", "G B A G B A")
    masks, colours = options(t.masks())
    assert size(masks[0]) == 3  # declared not red: only the three whites
    sizes = {size(m) for m in masks}
    assert {3, 6} <= sizes  # red: white/red 6 (white too: a run of four whites)
    six = [k for k, m in enumerate(masks) if size(m) == 6][0]
    assert board.colour_count(colours[six]) == 2


def test_the_four_joker_options_make_6_9_9_or_12(table, r):
    t = table().zone(0, "W W W R R J", "G G G A A J")
    masks, colours = options(t.masks())
    assert sorted(size(m) for m in masks) == [6, 9, 9, 12]
    assert size(masks[0]) == 6  # white/green, the jokers joining nothing
    nines = sorted(board.colour_count(colours[k]) for k, m in enumerate(masks) if size(m) == 9)
    assert nines == [3, 3]  # white/red/green and white/green/amber
    twelve = [k for k, m in enumerate(masks) if size(m) == 12][0]
    assert board.colour_count(colours[twelve]) == 4
    assert points(r, t.masks(), masks[twelve]) == 40


def test_jokers_side_by_side_can_make_a_run_of_their_own_colour(table):
    t = table().zone(0, "J J J R B G", "G W R B W R")
    masks, _ = options(t.masks())
    sizes = [size(m) for m in masks]
    assert sizes[0] == 0  # nothing stands without them
    assert 3 in sizes[1:] and 4 in sizes[1:]  # a colour of their own; or red, with the red


# --- Some examples of NO valid combinations --------------------------------------------------------

def test_a_green_above_three_greens_is_a_combination_of_3_not_4(table):
    t = table().zone(0, "R G B W A R", "G G G B W A")
    assert size(natural(t)) == 3


def test_a_green_below_three_greens_is_a_combination_of_3_not_4(table):
    t = table().zone(0, "B G G G W A", "R W B A G R")
    assert size(natural(t)) == 3


def test_two_greens_above_three_greens_are_a_combination_of_3_not_5(table):
    t = table().zone(0, "G R G B W A", "G G G A B R")
    assert size(natural(t)) == 3


def test_no_combination_in_the_street_nor_the_opponents_zone(table, r, plans, log):
    t = table().zone(0, "R G B W A R", "G B W A R G").zone(1, "R R R B B B", "W W W G G G")
    t.street("A A A W W W R R R").sack("G B W A R G B W A R G B")
    s = t.s
    assert natural(t, 0) == 0
    assert not turn.combination_step(s, r, plans, seed_stream(1, 0), log)
    assert s.points[0] == 0 and s.points[1] == 0 and s.combinations.sum() == 0


# --- Triggering, filling, cascades ------------------------------------------------------------------

def test_a_standing_combination_is_mandatory_and_triggered_at_once(table, r, log):
    t = table().zone(0, "R R R B G W", "G B W A G B").street("W A G B R W A G B")
    t.sack("R B W G A R B W G A")
    s = t.s
    for plans in (make_plans(GREEDY), make_plans(RANDOM)):
        s.points[0] = 0
        s.zone[0, :3] = [t.chip("R"), t.chip("R"), t.chip("R")]
        assert turn.combination_step(s, r, plans, seed_stream(2, 0), log)
        assert s.points[0] == 1 and s.combinations[0, 3] >= 1
        assert (s.zone[0] != board.EMPTY).all()  # the zone is filled again


def test_street_touching_refill_takes_touching_street_gems_and_slides_outward(table, r, plans, log):
    # outer cells 0-2 triggered: inner 0-2 slide out, then inner 0-2 take gems from street 1-4
    t = table().zone(0, ". . . B G W", "G B W A G B").street("W A G B R W A G B")
    t.sack("R B W G A R B W G A")
    s = t.s
    street_before = list(s.street)
    turn.fill_zone(s, r, plans, seed_stream(3, 0), log, 0)
    assert (s.zone[0] != board.EMPTY).all()
    taken = [k for k in range(9) if s.street[k] == board.EMPTY]
    assert len(taken) == 3 and all(1 <= k <= 4 for k in taken)
    for k in taken:
        assert street_before[k] in list(s.zone[0])
    assert s.sack_n == 10  # nothing came from the sack


def test_street_touching_a_gem_from_the_sack_enters_the_inner_row_and_slides_out(table, rules_with,
                                                                                  plans, log):
    """Issue 30 (seed 8201, family, game 1, events 627-628): outer 2 and inner 2 empty, the street
    places inner 2 touches (3 and 4) taken: the sack filled inner 2 and then outer 2 straight.
    By zone_refill's own words every gem enters from the street side: the sack's gem goes into
    inner 2, slides out into outer 2, and inner 2 takes the next."""
    for reading, outer, inner in (("inner_row", 3, 2), ("empty_cell", 2, 3)):
        t = table().zone(0, "B W . R A B", "G R . W B A").street("W A G . . W A G B")
        t.sack("R B W G")  # drawn first: green, then white
        s = t.s
        turn.fill_zone(s, rules_with(sack_into_zone=reading)[0], plans, seed_stream(3, 0), log, 0)
        assert (s.chip_colour[s.zone[0, 2]], s.chip_colour[s.zone[0, 8]]) == (outer, inner)
        assert s.sack_n == 2 and list(s.street).count(board.EMPTY) == 2


def test_a_zone_filled_from_the_sack_never_takes_it_into_an_outer_cell():
    """The issue's game, and seeded games of every mode: with street_touching no outer cell is
    filled from the sack (under sack_into_zone = empty_cell the issue's two fills come back)."""
    from simulator import api
    events = api.replay("gemmis", seed=8201, game_index=1, mode="family",
                        settings={"sack_into_zone": "empty_cell"})
    fills = [(e["player"], e["cell"]) for e in events
             if e["kind"] == "zone_filled" and e["from"] == "sack"]
    assert (1, 2) in fills and fills[fills.index((1, 2)) - 1] == (1, 8)
    from_sack = 0
    for mode in ("family", "advanced", "family_alguazil", "advanced_alguazil"):
        for i in range(4):
            for e in api.replay("gemmis", seed=8201, game_index=i, mode=mode):
                if e["kind"] == "zone_filled" and e["from"] == "sack":
                    assert e["cell"] >= board.COLUMNS, e["text"]
                    from_sack += 1
    assert from_sack > 0


def test_the_street_closes_its_gaps_in_the_chosen_direction_and_refills(table, r, plans, log):
    t = table().street("W . G . R W . G B").sack("R B W G A R B W G A")
    s = t.s
    gems = [int(x) for x in s.street if x != board.EMPTY]
    turn.street_moves(s, r, plans, seed_stream(4, 0), log, board.TOWARDS_FIRST)
    assert list(s.street[:6]) == gems and (s.street[6:] == board.EMPTY).all()
    turn.fill_street(s, r, seed_stream(4, 0), log, 1)
    assert (s.street != board.EMPTY).all() and s.sack_n == 7


@pytest.mark.parametrize("moving, moves", [("after_a_combination", False), ("every_turn", True)])
def test_in_a_turn_without_a_combination_the_street_moves_only_every_turn(table, rules_with, plans,
                                                                          log, moving, moves):
    """street_moving: with every_turn the street moves in a turn without a combination too, a
    full street one place (the gem pushed off the end back into the sack, the freed place
    refilled from the sack); with after_a_combination it stands still."""
    r = rules_with(street_moving=moving)[0]
    t = table().zone(0, "R B W G A R", "B W G A R B").street("W A G B R W A G B").sack("R R")
    s = t.s
    street_before = list(s.street)
    turn.combinations_and_cascades(s, r, plans, seed_stream(6, 0), log)
    if not moves:
        assert list(s.street) == street_before and s.sack_n == 2 and s.street_moves == 0
        return
    assert s.street_moves == 1 and (s.street != board.EMPTY).all() and s.sack_n == 2
    towards_first = list(s.street[:8]) == street_before[1:]
    assert towards_first != (list(s.street[1:]) == street_before[:8])  # one place, one way
    pushed = street_before[0] if towards_first else street_before[8]
    assert pushed in list(s.sack[:s.sack_n])  # back into the sack; one drawn for the freed place


def test_advanced_mode_a_cascade_must_be_bigger_than_the_last(table, r, plans, log):
    t = table(advanced=1).zone(0, "R R R B G W", "G B W A G B")
    s = t.s
    s.cascade, s.last_size = 1, 3
    assert not turn.combination_step(s, r, plans, seed_stream(5, 0), log)
    assert s.points[0] == 0 and s.left_standing[0] == 1
    s.cascade = 0  # the first combination of a turn is free of the limit
    t.street("W A G B R W A G B").sack("R B W G A R B W G A")
    assert turn.combination_step(s, r, plans, seed_stream(5, 1), log)
    assert s.points[0] == 1


def test_advanced_mode_subtracts_the_printed_values_left_in_the_zone(table, r, log):
    t = table(advanced=1).zone(0, "R3 G B W A R", "G B2 W A R G").zone(1, "R G B W A R",
                                                                       "G B W A R G1")
    s = t.s
    s.points[:] = [10, 10]
    turn.finish_game(s, r, log)
    assert board.final_score(s, r, 0) == 5 and board.final_score(s, r, 1) == 9


def test_the_sack_is_refilled_from_the_used_gems_when_it_empties(table, r, log):
    t = table().sack("R")
    s = t.s
    for token in ("B", "W", "G"):
        s.used[s.used_n] = t.chip(token)
        s.used_n += 1
    rng = seed_stream(6, 0)
    chip = turn.draw(s, rng, log)
    assert s.chip_colour[chip] == 0
    assert s.sack_n == 0 and s.sack_refills == 0  # refilled once the draw is logged:
    turn.sack_emptied(s, rng, log)
    assert s.sack_n == 3 and s.used_n == 0 and s.sack_refills == 1


# --- The Alguazil ---------------------------------------------------------------------------------

def test_the_alert_rises_with_each_opponent_combination_to_available(table, r, log):
    t = table(alguazil=1)
    s = t.s
    top = board.alert_available(r)
    for k in range(top + 2):
        turn.raise_alert(s, r, log, 1)
    assert s.alert[1] == top and turn.alguazil_ready(s, r, 1)
    s.market_open = 0
    assert not turn.alguazil_ready(s, r, 1)  # no use once the market is closed


def test_an_interrupted_combination_stays_for_the_next_turn(table, r, log):
    t = table(alguazil=1).zone(0, "R R R B G W", "G B W A G B").street("W A G B R W A G B")
    s = t.s
    s.alert[1] = board.alert_available(r)
    plans = make_plans(GREEDY)
    plans[1][1, :] = 0.0  # interrupt_at 0: interrupt anything
    assert not turn.combination_step(s, r, plans, seed_stream(7, 0), log)
    assert s.points[0] == 0 and s.interrupted[0] == 1 and s.alert[1] == 0
    assert size(natural(t)) == 3  # still standing


def test_a_cancelled_skill_drops_both_alguazils_to_the_lowest_level(table, r, log):
    t = table(alguazil=1).zone(0, "R R R B G W", "G B W A G B").street("W A G B R W A G B")
    t.sack("R B W G A R B W G A")
    s = t.s
    s.alert[:] = board.alert_available(r)
    plans = make_plans(GREEDY)
    plans[1][:, :] = 0.0  # every threshold 0: interrupt, then cancel
    assert turn.combination_step(s, r, plans, seed_stream(8, 0), log)
    assert s.alguazil_uses[1, board.INTERRUPT] == 1 and s.alguazil_uses[0, board.CANCEL] == 1
    assert s.points[0] == 1  # the combination is triggered after all
    assert (s.alert == [0, 1]).all()  # both dropped; then P1 rose one level as P0 triggered


def test_cleaning_the_street_keeps_its_gems_out_of_the_refilled_sack(table, r, log):
    t = table(alguazil=1).street("R R R R R R R R R").sack("B B")
    s = t.s
    for token in "W W W W W W W".split():
        s.used[s.used_n] = t.chip(token)
        s.used_n += 1
    turn.clean_street(s, r, seed_stream(9, 0), log, 1)
    colours = [int(s.chip_colour[c]) for c in s.street]
    assert colours.count(0) == 0  # no red came back before the street was full
    assert sorted(colours) == [1, 1] + [2] * 7
    assert s.sack_n == 9 and s.aside_n == 0  # the nine reds went back into the sack after


# --- The end --------------------------------------------------------------------------------------

def test_reaching_the_closing_score_closes_the_market_and_the_opponent_plays_a_last_turn(table, r,
                                                                                         log):
    t = table()
    s = t.s
    s.points[1] = r.closing_score - 1
    s.turn = 5
    turn.move_marker(s, r, log, 1, 4)
    assert s.market_open == 0 and s.closer == 1 and s.final_turns == 1
    turn.end_turn(s)
    assert not s.over  # the closing turn itself
    turn.end_turn(s)
    assert s.over  # the opponent's last turn


def test_small_gems_are_taken_when_reached_or_passed(table, r, log):
    t = table()
    s = t.s
    s.small_gem_on_cell[:] = 1
    turn.move_marker(s, r, log, 0, 30)
    assert s.small_gems[0] == 1 and list(s.small_gem_on_cell) == [0, 1, 1]
    turn.move_marker(s, r, log, 1, 60)
    assert s.small_gems[1] == 1  # the gem on 25 is gone: only 50 is taken


@pytest.mark.parametrize("when, with_a_combination_standing", [
    ("no_combination_stands", False), ("before_triggering", True)])
def test_a_small_gems_extra_switch_only_while_no_combination_stands(table, rules_with, random_plans,
                                                                    log, when,
                                                                    with_a_combination_standing):
    """small_gem_switch_when: a combination got is triggered at once, so by default the extra
    switch is offered only while none stands; before_triggering offers it in between too. A
    random player, asked, spends its gem about half the time (eight tables each)."""
    r = rules_with(small_gem_switch_when=when)[0]
    for outer, may_spend in (("R R R B G W", with_a_combination_standing),
                             ("R R B R G W", True)):  # three reds standing; none standing
        spent = 0
        for seed in range(8):
            t = table().zone(0, outer, "G B W A G B").street("W A G B R W A G B")
            t.s.small_gems[0] = 1
            turn.small_gem_switches(t.s, r, random_plans, seed_stream(seed, 0), log)
            spent += t.s.small_gems_used[0]
        assert (spent > 0) == may_spend, outer


@pytest.mark.parametrize("small", [(0, 1), (2, 1)])
def test_a_tie_goes_to_fewer_small_gems_used_or_not(table, r, small):
    from simulator.games.gemmis import kernel
    t = table()
    s = t.s
    s.points[:] = [50, 50]
    s.small_gems[:] = small
    s.small_gems_used[:] = [small[0], 0]
    seats = np.zeros((2, len(kernel.SEAT)), dtype=np.int64)
    games = np.zeros((1, len(kernel.GAME)), dtype=np.int64)
    kernel.finish(t.table, r, 2, np.zeros(2, dtype=np.int64), seats, 0, games[0], new_leaders(1),
                  no_log())
    winner = 0 if small[0] < small[1] else 1
    assert seats[winner, 3] == 1 and seats[1 - winner, 3] == 0
    assert games[0, kernel.GAME.tie_broken] == 1
