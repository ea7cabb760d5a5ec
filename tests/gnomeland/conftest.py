"""Shared fixtures for the Gnomeland scenario tests: the rules, a set-up table, plans."""

import numpy as np
import pytest

from simulator.core.rng import seed_stream
from simulator.core.trace import new_log
from simulator.games.gnomeland.board import MAX_PLAYERS
from simulator.games.gnomeland.turn import new_game
from strategies.gnomeland import DEFAULT_WEIGHTS, GREEDY, RANDOM
from tests.game_fixtures import GameFixtures, plan_maker

make_plans = plan_maker(DEFAULT_WEIGHTS, MAX_PLAYERS)
shared = GameFixtures("gnomeland", log_rows=5000, make_plans=make_plans, greedy=GREEDY,
                      random=RANDOM)
ruleset, rules_with, r, log = shared.ruleset, shared.rules_with, shared.r, shared.log
plans, random_plans = shared.plans, shared.random_plans
heuristics_compiled = shared.heuristics_compiled


@pytest.fixture
def table(r, plans):
    """``table(n_players)``: a table set up by the rules (seeded), as the state record ``s``;
    P0 is the first player and it is P0's turn with no dice yet."""
    keep = []

    def make(n_players=4, rules=None):
        rr = r if rules is None else rules
        t = new_game(rr, n_players, plans, seed_stream(5, 0), new_log(100)).view(np.recarray)
        keep.append(t)
        s = t[0]
        s.first_player = 0
        s.round_no = 1
        s.current = 0
        s.n_dice = 0
        return s

    return make


def give_dice(s, values, neutral=()):
    """The active player's dice (unspent)."""
    s.n_dice = len(values)
    s.dice[:len(values)] = values
    s.dice_spent[:] = 0
    s.dice_neutral[:] = 0
    for i in neutral:
        s.dice_neutral[i] = 1
