"""Shared fixtures for the Grimoire scenario tests: the rules, an empty table, plans."""

import numpy as np
import pytest

from simulator.games.grimoire.board import MAX_PLAYERS, NOT_ENDED, new_table
from strategies.grimoire import (
    DEFAULT_WEIGHTS, GREEDY, LOOKAHEAD, RANDOM, W_ROLLOUT_TURNS, W_ROLLOUTS,
)
from tests.game_fixtures import GameFixtures, plan_maker

# The search player on a small budget (two rollouts per option, two rounds deep): its mechanics
# at a cost the fast suite can pay.
SMALL_SEARCH = DEFAULT_WEIGHTS[LOOKAHEAD].copy()
SMALL_SEARCH[W_ROLLOUTS] = 2
SMALL_SEARCH[W_ROLLOUT_TURNS] = 2
SMALL_SEARCH = list(SMALL_SEARCH)


make_plans = plan_maker(DEFAULT_WEIGHTS, MAX_PLAYERS)
shared = GameFixtures("grimoire", log_rows=2000, make_plans=make_plans, greedy=GREEDY, random=RANDOM)
ruleset, rules_with, r, log = shared.ruleset, shared.rules_with, shared.r, shared.log
plans, random_plans = shared.plans, shared.random_plans
heuristics_compiled = shared.heuristics_compiled


@pytest.fixture
def blank():
    """A factory for an empty table: no card anywhere, no token, the marker at 6.

    ``blank(n_players)`` returns the state record ``s``; tests set fields by attribute. The
    previous-round order is the seat order, as before the first round.
    """
    tables = []  # keep the arrays alive as long as the test

    def make(n_players=4):
        table = new_table()
        tables.append(table)
        s = table[0]
        s.n_players = n_players
        s.level = 6
        s.round_no = 1
        s.end_trigger = NOT_ENDED
        s.trigger_player = -1
        s.current = -1
        s.zone[:] = -1
        s.vp_supply = 60
        s.prev_position[:n_players] = np.arange(n_players)
        return s

    return make


def set_deck(s, cards):
    """The quest deck, bottom first: the last card is drawn first."""
    s.quest_deck[:len(cards)] = cards
    s.quest_deck_n = len(cards)


def set_discard(s, cards):
    s.quest_discard[:len(cards)] = cards
    s.quest_discard_n = len(cards)


def set_items(s, cards):
    s.item_deck[:len(cards)] = cards
    s.item_deck_n = len(cards)


def set_zone(s, cards, face_down=()):
    """The Quest Card Zone: ``cards`` by slot; slots in ``face_down`` lie face down."""
    s.zone[:] = -1
    s.zone_face_down[:] = 0
    s.zone_seen[:] = 0
    s.zone[:len(cards)] = cards
    for i in face_down:
        s.zone_face_down[i] = 1
    s.zone_n = len(cards)


def give(s, p, kind, count=1):
    s.quest[p, kind] += count
