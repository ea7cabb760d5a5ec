"""Shared fixtures for the GEMMiS scenario tests: the rules, a hand-built table, plans.

A zone is written as two strings, outer row then inner row, one token per cell: a colour letter
(R red, B blue, W white, G green, A amber) with an optional printed value (``R3``), ``J`` for a
joker, ``.`` for an empty cell. The street is one string of nine such tokens.
"""

from pathlib import Path

import numpy as np
import pytest

from simulator.core.ruledata import load_rules
from simulator.core.trace import new_log
from simulator.games.gemmis import board
from strategies.gemmis import (
    DEFAULT_WEIGHTS, GREEDY, LOOKAHEAD, RANDOM, W_ROLLOUT_TURNS, W_ROLLOUTS, W_SEARCH_BREADTH,
)

RULES_PATH = Path(__file__).resolve().parents[2] / "simulator" / "games" / "gemmis" / "rules.toml"
LETTERS = {"R": 0, "B": 1, "W": 2, "G": 3, "A": 4}

SMALL_SEARCH = DEFAULT_WEIGHTS[LOOKAHEAD].copy()
SMALL_SEARCH[W_ROLLOUTS] = 2
SMALL_SEARCH[W_ROLLOUT_TURNS] = 4
SMALL_SEARCH[W_SEARCH_BREADTH] = 3
SMALL_SEARCH = list(SMALL_SEARCH)


@pytest.fixture(scope="session")
def heuristics_compiled():
    """The heuristic game loop compiled before any searching code is (see
    ``simulator.core.game.kernel_calls``)."""
    from simulator.core import batch
    from simulator.core.config import make_config
    batch.play_in_memory(make_config("gemmis", 2), 1)


@pytest.fixture(scope="session")
def ruleset():
    return load_rules(RULES_PATH, "gemmis")


@pytest.fixture
def rules_with(ruleset):
    """``rules_with(name=value, ...)``: the rule record (one-element array) with overrides."""
    return lambda **settings: ruleset.with_overrides(settings).as_record()


@pytest.fixture
def r(ruleset):
    return ruleset.as_record()[0]


@pytest.fixture
def log():
    return new_log(5000)


def make_plans(strategy):
    ids = np.full(board.N_PLAYERS, strategy, dtype=np.int64)
    return ids, DEFAULT_WEIGHTS[ids].copy()


@pytest.fixture
def plans():
    return make_plans(GREEDY)


@pytest.fixture
def random_plans():
    return make_plans(RANDOM)


class Table:
    """A hand-built table: chips are made as the tokens name them (``chip_colour``/``value``)."""

    def __init__(self, advanced=0, alguazil=0):
        self.table = board.new_table()
        s = self.s = self.table[0]
        s.advanced = advanced
        s.alguazil = alguazil
        s.n_colours = 5
        s.market_open = 1
        s.closer = -1
        s.zone[:, :] = board.EMPTY
        s.street[:] = board.EMPTY

    def chip(self, token):
        if token == ".":
            return board.EMPTY
        s = self.s
        n = s.n_chips
        s.chip_colour[n] = board.JOKER if token == "J" else LETTERS[token[0]]
        s.chip_value[n] = int(token[1:]) if len(token) > 1 else 0
        s.n_chips = n + 1
        return n

    def zone(self, p, outer, inner=". . . . . ."):
        tokens = outer.split() + inner.split()
        assert len(tokens) == board.CELLS
        for cell, token in enumerate(tokens):
            self.s.zone[p, cell] = self.chip(token)
        return self

    def street(self, text):
        tokens = text.split()
        assert len(tokens) == board.STREET
        for place, token in enumerate(tokens):
            self.s.street[place] = self.chip(token)
        return self

    def sack(self, text):
        """The sack, bottom first: the last token is drawn first."""
        for token in text.split():
            self.s.sack[self.s.sack_n] = self.chip(token)
            self.s.sack_n += 1
        return self

    def masks(self, p=0):
        return board.zone_masks(self.s, p)


@pytest.fixture
def table():
    tables = []  # keep the arrays alive as long as the test

    def make(**kwargs):
        t = Table(**kwargs)
        tables.append(t)
        return t

    return make


def options(masks):
    """The zone's combinations (masks), the natural one first."""
    out = np.zeros(board.MAX_OPTIONS, dtype=np.int64)
    colours = np.zeros(board.MAX_OPTIONS, dtype=np.int64)
    n = board.combination_options(masks, out, colours, np.zeros(board.WORK_SIZE, dtype=np.int64))
    return out[:n].copy(), colours[:n].copy()
