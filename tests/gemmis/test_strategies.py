"""Scripted players: they decide only on what a player sees (never the order of the sack), the
personalities play as described, and every heuristic beats random clearly."""

import numpy as np
import polars as pl
import pytest

from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.rng import seed_stream, shuffle
from simulator.core.trace import no_log
from simulator.games.gemmis import board
from simulator.games.gemmis.turn import new_game, play_turn
from strategies import gemmis as players
from tests.gemmis.conftest import make_plans, options

HEURISTICS = [n for n in players.NAMES if n not in ("random", "lookahead")]


def decisions(s, r, plans, rng):
    """Every kind of decision taken on this table, by the player with the turn (p) and the
    opponent (q): the switch, a small gem's extra switch, the street's direction and the fill;
    after each switch that makes one, the combination with its jokers' colours and whether q's
    Alguazil interrupts it (and p cancels that); q cleaning the street; q changing either
    direction (and p cancelling that)."""
    p, q = s.player, 1 - s.player
    out = np.empty((board.MAX_SWITCHES, 3), dtype=np.int64)
    n = board.switches(s, r, p, s.street, out)
    picks = [players.choose_switch(s, r, p, plans, rng.copy(), out, n),
             players.choose_extra_switch(s, r, p, plans, rng.copy(), out, n),
             players.choose_direction(s, r, p, plans, rng.copy()),
             players.choose_fill(s, r, p, plans, rng.copy()),
             players.cleans_street(s, r, q, plans, rng.copy())]
    for direction in (board.TOWARDS_FIRST, board.TOWARDS_LAST):
        picks += [players.changes_direction(s, r, q, plans, rng.copy(), direction),
                  players.cancels(s, r, p, plans, rng.copy(), board.CHANGE_DIRECTION, 0, direction)]
    masks = board.zone_masks(s, p)
    for i in range(n):
        after = board.masks_after_switch(s, masks, s.street, out[i, 0], out[i, 1], out[i, 2])
        found, colours = options(after)
        if len(found) == 1 and found[0] == 0:
            continue  # no combination after this switch
        mandatory = found[0] != 0
        picks.append(players.choose_combination(s, r, p, plans, rng.copy(), after, found, colours,
                                                len(found), mandatory))
        mask = found[0] if mandatory else found[1]
        picks += [players.interrupts(s, r, q, plans, rng.copy(), after, mask),
                  players.cancels(s, r, p, plans, rng.copy(), board.INTERRUPT, mask, 0)]
    return tuple(picks)


@pytest.mark.parametrize("strategy", HEURISTICS)
def test_decisions_ignore_the_order_of_the_sack(strategy):
    config = make_config("gemmis", 2, "family_alguazil", [strategy], seed=3)
    r = config.rules.as_record()[0]
    plans = (np.repeat(config.setup.mix_ids, 2), np.repeat(config.setup.mix_weights, 2, 0))
    checked = 0
    for game in range(4):
        rng = seed_stream(3, game)
        table = new_game(r, config.setup.mode, plans, rng, no_log()).view(np.recarray)
        s = table[0]
        while not s.over and s.turn < 40:
            play_turn(s, r, plans, rng, no_log())
            if s.over or s.sack_n < 2:
                continue
            picks = []
            for k in range(3):
                view = table.copy().view(np.recarray)
                shuffle(seed_stream(50 + k, s.turn), view[0].sack, view[0].sack_n)
                picks.append(decisions(view[0], r, plans, seed_stream(9, s.turn)))
            assert picks[0] == picks[1] == picks[2]
            checked += 1
    assert checked > 40


def test_greedy_switches_to_the_biggest_combination_now(table, r):
    # outer 2 <-> outer 3 makes three reds; outer 2 <-> inner 2 (a red below) makes four
    t = table().zone(0, "R R B R G W", "G B R A W B").street("W A G B R G A W B")
    s = t.s
    out = np.empty((board.MAX_SWITCHES, 3), dtype=np.int64)
    n = board.switches(s, r, 0, s.street, out)
    i = players.choose_switch(s, r, 0, make_plans(players.GREEDY), seed_stream(1, 0), out, n)
    assert list(out[i]) == [board.SWITCH_IN_ZONE, 2, 8]
    after = board.masks_after_switch(s, t.masks(), s.street, out[i, 0], out[i, 1], out[i, 2])
    assert board.popcount(options(after)[0][0]) == 4


def test_big_builder_keeps_a_joker_combination_that_greedy_triggers(table, r):
    t = table().zone(0, "A A J R B G", "G W R B W R")
    s = t.s
    masks = t.masks()
    option_masks, option_colours = options(masks)
    picks = {}
    for sid in (players.GREEDY, players.BIG_BUILDER):
        picks[sid] = players.choose_combination(s, r, 0, make_plans(sid), seed_stream(1, 0), masks,
                                                option_masks[1:].copy(), option_colours[1:].copy(),
                                                len(option_masks) - 1, False)
    assert picks[players.GREEDY] == 0 and picks[players.BIG_BUILDER] == -1


def test_the_opponents_replies_are_valued_anew_when_their_zone_changes(table, r):
    # player 1's inner gem of column 0 touches street place 1: its red makes three reds
    t = table().zone(1, "B W G A B W", "A R R G W B").street("G R W B A G W B A")
    s = t.s
    assert players.best_switch_points(s, r, 1, s.street) == r.points_3
    s.zone[1, 7] = t.chip("B")  # the kept values were of the zone before this change
    fresh = t.table.copy().view(np.recarray)
    fresh[0].reply_for = 0
    assert players.best_switch_points(s, r, 1, s.street) == \
        players.best_switch_points(fresh[0], r, 1, fresh[0].street) < r.points_3


@pytest.mark.parametrize("strategy", HEURISTICS)
def test_every_heuristic_beats_random_clearly(strategy):
    config = make_config("gemmis", 2, "family", [strategy, "random"], seed=11)
    seats = batch.play_in_memory(config, 60)
    rate = seats.filter(pl.col("strategy") == strategy)["win_share"].mean()
    assert rate > 0.85, rate
