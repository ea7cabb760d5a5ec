"""Shared fixtures for the Gremios scenario tests: the rules, an empty table, forced dice."""

import pytest

from simulator.core.rng import roll_2d6, seed_stream
from simulator.core.trace import no_log
from simulator.games.gremios.board import NO_ROLE, new_table
from simulator.games.gremios.turn import collection_phase, invest_in_guild
from strategies.gremios import (
    DEFAULT_WEIGHTS, GREEDY, LOOKAHEAD, RANDOM, W_ROLLOUT_TURNS, W_ROLLOUTS,
)
from tests.game_fixtures import GameFixtures, plan_maker

# The search player on a small budget (two rollouts per option, six turns deep): its mechanics
# at a cost the fast suite can pay.
SMALL_SEARCH = DEFAULT_WEIGHTS[LOOKAHEAD].copy()
SMALL_SEARCH[W_ROLLOUTS] = 2
SMALL_SEARCH[W_ROLLOUT_TURNS] = 6
SMALL_SEARCH = list(SMALL_SEARCH)


shared = GameFixtures("gremios", log_rows=1000, make_plans=plan_maker(DEFAULT_WEIGHTS, 4),
                      greedy=GREEDY, random=RANDOM)
ruleset, log, plans = shared.ruleset, shared.log, shared.plans
heuristics_compiled = shared.heuristics_compiled


@pytest.fixture(scope="session")
def rules(ruleset):
    return ruleset.as_record()


@pytest.fixture
def r(rules):
    """The rule numbers record the engine's functions take."""
    return rules[0]


@pytest.fixture
def rules_with(ruleset):
    """``rules_with(end_rule="finish_action")``: the rule numbers with those parameters changed."""
    records = []  # keep the arrays alive as long as the test

    def make(**settings):
        record = ruleset.with_overrides(settings).as_record()
        records.append(record)
        return record[0]

    return make


@pytest.fixture
def blank():
    """A factory for an empty table: no guild on the board, no role, no card, no coin.

    ``blank(n_players)`` returns the state record ``s``; fields are set by attribute in each test.
    The land and inn decks hold 12 and 10 cards (rules.toml's counts) so that buying and building
    are possible; the event and treasure decks are empty unless a test fills them.
    """
    tables = []  # keep the arrays alive as long as the test

    def make(n_players=4):
        table = new_table()
        tables.append(table)
        s = table[0]
        s.n_players = n_players
        s.two_player_turns = 1 if n_players == 2 else 0
        s.roles[:, :] = NO_ROLE
        s.role_not_chosen[:] = NO_ROLE
        s.top_investor[:] = -1
        s.emblem = -1
        s.pending = -1
        s.land_deck_n = 12
        s.inn_deck_n = 10
        return s

    return make


@pytest.fixture
def start_turn(r):
    """``start_turn(s, p, coins)``: make it ``p``'s turn, run the collection phase (which sets the
    turn's allowances: one guild and one expedition investment, role abilities), then set ``p``'s
    purse to ``coins`` so the investment phase starts from a known amount."""

    def start(s, p, coins):
        s.player = p
        collection_phase(s, r, no_log())
        s.coins[p] = coins

    return start


@pytest.fixture
def place_coins(r):
    """``place_coins(s, [(player, guild), ...])``: coins already on the guilds, placed in that order.

    Opens each guild and places each coin with the engine's own investment (so the top-investor
    marker and the order of placement are recorded as in play), then gives back the price and the
    turn allowances: the coins were placed on earlier turns.
    """

    def place(s, placements):
        coins = s.coins.copy()
        allowances = (s.guild_investments_left, s.expedition_investments_left, s.extra_investments_left)
        for p, g in placements:
            s.guild_open[g] = 1
            invest_in_guild(s, r, no_log(), p, g)
        s.coins[:] = coins
        s.guild_investments_left, s.expedition_investments_left, s.extra_investments_left = allowances

    return place


_SEED_CACHE = {}


def _seed_rolling(totals):
    if totals not in _SEED_CACHE:
        for seed in range(1_000_000):
            probe = seed_stream(seed, 0)
            if all(sum(roll_2d6(probe)) == t for t in totals):
                _SEED_CACHE[totals] = seed
                break
        else:  # pragma: no cover
            raise RuntimeError(f"no seed rolls {totals}")
    return _SEED_CACHE[totals]


@pytest.fixture(scope="session")
def rolling():
    """``rolling(8)`` (or ``rolling(8, 5)``): a fresh random stream whose next 2d6 totals are those."""

    def make(*totals):
        return seed_stream(_seed_rolling(tuple(totals)), 0)

    return make
