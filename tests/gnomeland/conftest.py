"""Shared fixtures for the Gnomeland scenario tests: the rules, a set-up table, plans."""

from pathlib import Path

import numpy as np
import pytest

from simulator.core.rng import seed_stream
from simulator.core.ruledata import load_rules
from simulator.core.trace import new_log
from simulator.games.gnomeland.board import MAX_PLAYERS
from simulator.games.gnomeland.turn import new_game
from strategies.gnomeland import DEFAULT_WEIGHTS, GREEDY, RANDOM

RULES_PATH = Path(__file__).resolve().parents[2] / "simulator" / "games" / "gnomeland" / "rules.toml"


@pytest.fixture(scope="session")
def ruleset():
    return load_rules(RULES_PATH, "gnomeland")


@pytest.fixture
def rules_with(ruleset):
    """``rules_with(name=value, ...)``: the rule record with overrides."""
    return lambda **settings: ruleset.with_overrides(settings).as_record()


@pytest.fixture
def r(ruleset):
    return ruleset.as_record()[0]


@pytest.fixture
def log():
    return new_log(5000)


def make_plans(strategy):
    ids = np.full(MAX_PLAYERS, strategy, dtype=np.int64)
    return ids, DEFAULT_WEIGHTS[ids].copy()


@pytest.fixture
def plans():
    """Every seat played by the greedy strategy (consulted only where the rules leave a choice)."""
    return make_plans(GREEDY)


@pytest.fixture
def random_plans():
    return make_plans(RANDOM)


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
