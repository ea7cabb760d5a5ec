"""Shared fixtures for the Grimoire scenario tests: the rules, an empty table, plans."""

from pathlib import Path

import numpy as np
import pytest

from simulator.core.ruledata import load_rules
from simulator.core.trace import new_log
from simulator.games.grimoire.board import MAX_PLAYERS, NOT_ENDED, new_table
from strategies.grimoire import (
    DEFAULT_WEIGHTS, GREEDY, LOOKAHEAD, RANDOM, W_ROLLOUT_TURNS, W_ROLLOUTS,
)

# The search player on a small budget (two rollouts per option, two rounds deep): its mechanics
# at a cost the fast suite can pay.
SMALL_SEARCH = DEFAULT_WEIGHTS[LOOKAHEAD].copy()
SMALL_SEARCH[W_ROLLOUTS] = 2
SMALL_SEARCH[W_ROLLOUT_TURNS] = 2
SMALL_SEARCH = list(SMALL_SEARCH)


@pytest.fixture(scope="session")
def heuristics_compiled():
    """The heuristic game loop compiled before any searching code is (see
    ``simulator.core.game.kernel_calls``): a test calling the rules with searching plans
    directly needs it, as the engine's own warm-up call is skipped there."""
    from simulator.core import batch
    from simulator.core.config import make_config
    batch.play_in_memory(make_config("grimoire", 2), 1)


RULES_PATH = Path(__file__).resolve().parents[2] / "simulator" / "games" / "grimoire" / "rules.toml"


@pytest.fixture(scope="session")
def ruleset():
    """The rule data as printed in rules.toml (no overrides)."""
    return load_rules(RULES_PATH, "grimoire")


@pytest.fixture
def rules_with(ruleset):
    """``rules_with(name=value, ...)``: the rule record with overrides."""
    return lambda **settings: ruleset.with_overrides(settings).as_record()


@pytest.fixture
def r(ruleset):
    """The rule numbers record the engine's functions take."""
    return ruleset.as_record()[0]


@pytest.fixture
def log():
    return new_log(2000)


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
