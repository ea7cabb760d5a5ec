"""Shared fixtures for the El Grande tests: the rules, a set-up table to arrange by hand, plans,
and one small run that the dataset tests share."""

import numpy as np
import pytest

from simulator import api
from simulator.core.rng import seed_stream
from simulator.core.trace import new_log
from simulator.games.elgrande.board import BASE, GOLD, MAX_PLAYERS, N_PLACES, WARE
from simulator.games.elgrande.turn import new_game
from strategies.elgrande import DEFAULT_WEIGHTS, GREEDY, NAMES, RANDOM
from tests.game_fixtures import GameFixtures, plan_maker

HEURISTICS = [n for n in NAMES if n not in ("random", "lookahead", "expert")]  # the search
# player: test_search.py; the learnt expert: test_expert.py


make_plans = plan_maker(DEFAULT_WEIGHTS, MAX_PLAYERS)
shared = GameFixtures("elgrande", log_rows=5000, make_plans=make_plans, greedy=GREEDY,
                      random=RANDOM)
ruleset, rules_with, r, log = shared.ruleset, shared.rules_with, shared.r, shared.log
plans, random_plans = shared.plans, shared.random_plans
heuristics_compiled = shared.heuristics_compiled


@pytest.fixture
def table(r, plans):
    """``table(n_players, king=..., mode=...)``: a table set up by the rules (seeded) and then
    cleared: no Caballero in any region or the Castillo (they wait in the provinces), the Grandes
    beside the board (-1) unless placed, and the King where asked. With the expansion: no black
    Caballero, no limit table, nobody on a space, no Grand Inquisitor, no token lying (all in
    the supply)."""
    keep = []

    def make(n_players=4, king=0, rules=None, mode=BASE):
        rr = r if rules is None else rules
        t = new_game(rr, n_players, plans, seed_stream(5, 0), new_log(100), mode).view(np.recarray)
        keep.append(t)
        s = t[0]
        for p in range(n_players):
            s.provinces[p] += int(s.cab[p, :N_PLACES].sum())
        s.cab[:, :] = 0
        s.grande[:] = -1
        s.king = king
        s.round_no = 1
        s.francia[:] = -1
        s.captain = s.viceroy = s.table_region = s.inquisitor = -1
        s.on_table[:] = 0
        s.placed[:] = 0
        s.carry[:] = 0
        s.arrived[:] = 0
        s.lying[:] = 0
        s.supply[WARE], s.supply[GOLD] = rr.wares, rr.gold
        return s

    return make


@pytest.fixture(scope="session")
def small_runs(tmp_path_factory):
    """A run of 60 games at each table size with the heuristic mix (the dataset tests share it)."""
    out = {}
    for n in (2, 3, 4, 5):
        path = tmp_path_factory.mktemp("elgrande") / f"p{n}"
        out[n] = api.run("elgrande", players=n, games=60, seed=11, strategies=HEURISTICS,
                         out=path, progress=False)
    return out


EXPANSION = "grand_inquisitor_colonies"


@pytest.fixture(scope="session")
def expansion_run(tmp_path_factory):
    """A run of the expansion: 120 four-player games with every heuristic (the dataset, replay
    and strategy tests share it; the strategy test compares the personalities' means, which 40
    games left a tenth of a point apart)."""
    path = tmp_path_factory.mktemp("elgrande") / "expansion"
    return api.run("elgrande", players=4, games=120, seed=11, mode=EXPANSION,
                   strategies=HEURISTICS, out=path, progress=False)
