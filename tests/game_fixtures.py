"""The fixtures every game's scenario tests share, made once here for any game.

A game's ``conftest.py`` binds the ones it uses to module names (pytest finds fixtures by those
names)::

    shared = GameFixtures("gemmis", log_rows=5000, make_plans=make_plans, greedy=GREEDY,
                          random=RANDOM)
    ruleset, rules_with, r, log = shared.ruleset, shared.rules_with, shared.r, shared.log
"""

import numpy as np
import pytest

from simulator.core.game import get_game
from simulator.core.trace import new_log


def log_of(*rows):
    """A replay log holding ``rows`` (code, a, b, c, ...), as a kernel writes them, with a spare
    row (a full log would end its story with ``log_full``)."""
    log = new_log(len(rows) + 1)
    log[0, 0] = len(rows)
    for i, row in enumerate(rows, start=1):
        log[i, :len(row)] = row
    return log


def unfolding_of(standings):
    """(lead_changes, leader_at_third, leader_at_two_thirds) of a game whose seats stood at
    ``standings`` after each turn, worked out here from the rules' words, apart from the core's:
    a seat leads when alone on top (-1: nobody); a change is a new leader after another, a tie
    between them none; the leaders are those after the turns at one and two thirds."""
    leaders = [row.index(max(row)) if list(row).count(max(row)) == 1 else -1 for row in standings]
    changes, last = 0, -1
    for who in leaders:
        if who >= 0:
            changes += last >= 0 and who != last
            last = who
    n = len(leaders)
    return (changes, leaders[n // 3 - 1] if n // 3 else -1,
            leaders[2 * n // 3 - 1] if 2 * n // 3 else -1)


def plan_maker(default_weights, seats):
    """``make_plans(strategy)``: every one of ``seats`` seats played by ``strategy`` with its
    default weights (the plans the engine's functions take)."""
    def make_plans(strategy):
        ids = np.full(seats, strategy, dtype=np.int64)
        return ids, default_weights[ids].copy()
    return make_plans


class GameFixtures:
    def __init__(self, game, log_rows, make_plans, greedy, random):
        @pytest.fixture(scope="session")
        def ruleset():
            """The rule data as printed in rules.toml (no overrides)."""
            return get_game(game).rules()

        @pytest.fixture
        def rules_with(ruleset):
            """``rules_with(name=value, ...)``: the rule record (one-element array) with overrides."""
            return lambda **settings: ruleset.with_overrides(settings).as_record()

        @pytest.fixture
        def r(ruleset):
            """The rule numbers record the engine's functions take."""
            return ruleset.as_record()[0]

        @pytest.fixture
        def log():
            return new_log(log_rows)

        @pytest.fixture
        def plans():
            """Every seat played by the greedy strategy (consulted only where the rules leave a
            choice)."""
            return make_plans(greedy)

        @pytest.fixture
        def random_plans():
            return make_plans(random)

        @pytest.fixture(scope="session")
        def heuristics_compiled():
            """The heuristic game loop compiled before any searching code is (see
            ``simulator.core.game.kernel_calls``): a test calling the rules with searching plans
            directly needs it, as the engine's own warm-up call is skipped there."""
            from simulator.core import batch
            from simulator.core.config import make_config
            batch.play_in_memory(make_config(game, 2), 1)

        self.ruleset, self.rules_with, self.r, self.log = ruleset, rules_with, r, log
        self.plans, self.random_plans = plans, random_plans
        self.heuristics_compiled = heuristics_compiled


def assert_checked_run_gives_the_unchecked_rows(config, n_games):
    """A checked run of ``config`` breaks no invariant (else InvariantBroken) and plays the
    seats and games rows of the unchecked run."""
    from simulator.core import batch
    checked = batch.play_in_memory(config, n_games, with_games=True, check=True)
    unchecked = batch.play_in_memory(config, n_games, with_games=True)
    for checked_table, unchecked_table in zip(checked, unchecked, strict=True):
        assert checked_table.equals(unchecked_table)
    return checked
