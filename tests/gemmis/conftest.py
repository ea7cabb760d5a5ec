"""Shared fixtures for the GEMMiS scenario tests: the rules, a hand-built table, plans.

A zone is written as two strings, outer row then inner row, one token per cell: a colour letter
(R red, B blue, W white, G green, A amber) with an optional printed value (``R3``), ``J`` for a
joker, ``.`` for an empty cell. The street is one string of nine such tokens.
"""

import numpy as np
import pytest

from simulator.games.gemmis import board
from strategies.gemmis import (
    DEFAULT_WEIGHTS, GREEDY, LOOKAHEAD, RANDOM, W_ROLLOUT_TURNS, W_ROLLOUTS, W_SEARCH_BREADTH,
)
from tests.game_fixtures import GameFixtures, plan_maker

LETTERS = {"R": 0, "B": 1, "W": 2, "G": 3, "A": 4}

SMALL_SEARCH = DEFAULT_WEIGHTS[LOOKAHEAD].copy()
SMALL_SEARCH[W_ROLLOUTS] = 2
SMALL_SEARCH[W_ROLLOUT_TURNS] = 4
SMALL_SEARCH[W_SEARCH_BREADTH] = 3
SMALL_SEARCH = list(SMALL_SEARCH)


make_plans = plan_maker(DEFAULT_WEIGHTS, board.N_PLAYERS)
shared = GameFixtures("gemmis", log_rows=5000, make_plans=make_plans, greedy=GREEDY, random=RANDOM)
ruleset, rules_with, r, log = shared.ruleset, shared.rules_with, shared.r, shared.log
plans, random_plans = shared.plans, shared.random_plans
heuristics_compiled = shared.heuristics_compiled


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
