"""Every rule parameter is playable anywhere in its declared range (what sensitivity scans and
balance searches rely on): Hypothesis draws settings within the ranges (any subset of the
parameters moved at once), a table and a seed, plays a few games with the game's default mix
and checks what must hold of every game's data."""

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from simulator.check import draw_settings
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.errors import UsageError
from simulator.core.game import GAME_NAMES, get_game

GAMES_PER_EXAMPLE = 3


def rule_settings(game):
    """Any subset of the parameters, each at a value its range allows: the draws of
    ``playtest check`` (``draw_settings``), from Hypothesis' seeded randomness."""
    return st.randoms(use_true_random=False).map(lambda rng: draw_settings(game, rng))


def tables(game):
    return st.sampled_from([(m.name, n) for m in game.modes.values() for n in m.player_counts])


def check_games(game, config, seats: pl.DataFrame, games: pl.DataFrame):
    n = config.n_players
    assert seats.height == GAMES_PER_EXAMPLE * n and games.height == GAMES_PER_EXAMPLE
    share = seats.group_by("game_id").agg(pl.col("win_share").sum())["win_share"].to_numpy()
    assert np.allclose(share, 1.0), "every game has winners sharing one win"
    assert (seats.filter(pl.col("winner"))["rank"] == 1).all(), "a winner ranks first"
    assert (games["turns"] >= 0).all()
    sources = [c for c in config.game.report_columns.get("point_sources", [])
               if c in seats.columns]  # a mode's tables hold its own sources
    if sources:
        total = sum(seats[c].cast(pl.Int64) for c in sources)
        assert (total == seats["score"].cast(pl.Int64)).all(), "the score is the sum of its sources"


def one_parameter(game):
    """One parameter at any value its range allows."""
    params = list(game.rules().params.values())
    return st.sampled_from(params).flatmap(
        lambda p: (st.sampled_from(p.choices) if p.choices else st.integers(p.low, p.high))
        .map(lambda v: {p.name: v}))


def play_and_check(game, rules, table, seed):
    mode, players = table
    config = make_config(game.name, players, mode, None, None, rules, seed)
    seats, games = batch.play_in_memory(config, GAMES_PER_EXAMPLE, with_games=True, threads=1,
                                        check=True)
    check_games(game, config, seats, games)


EXAMPLES = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


# A parameter that one mode cannot take at every value of its range, and why (the only ones).
MODE_LIMITS = {("gremios", "ultimate_duel", "roles_dealt"): "the mode keeps two dealt roles a seat"}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_end_of_every_range_is_accepted_at_every_table(name):
    """Each parameter alone at both ends of its range (a choice: every option), every mode and
    player count: the configuration is accepted (the ends are what sensitivity scans play)."""
    from simulator import scan
    game = get_game(name)
    refused = []
    for p in game.rules().params.values():
        for value in scan.scan_values(p, p.default, 0):
            for mode in game.modes.values():
                if (name, mode.name, p.name) in MODE_LIMITS:
                    continue
                for players in mode.player_counts:
                    try:
                        make_config(name, players, mode.name, None, None, {p.name: value}, 0)
                    except UsageError as e:
                        refused.append(f"{mode.name} {players}p {p.name}={value}: {e}")
    assert refused == []


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_parameter_alone_plays_anywhere_in_its_range(name):
    game = get_game(name)

    @EXAMPLES
    @given(rules=one_parameter(game), table=tables(game), seed=st.integers(0, 2**31 - 1))
    def playable(rules, table, seed):
        if (name, table[0], next(iter(rules))) in MODE_LIMITS:
            return
        play_and_check(game, rules, table, seed)  # never refused: its range is its promise

    playable()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_parameters_moved_together_play_or_are_refused_in_one_line(name):
    """Numbers moved together can break a joint limit (a deck's capacity); that must be a clear
    one-line refusal, and every setting the game accepts must play."""
    game = get_game(name)
    outcomes = []

    @EXAMPLES
    @given(rules=rule_settings(game), table=tables(game), seed=st.integers(0, 2**31 - 1))
    def playable(rules, table, seed):
        try:
            play_and_check(game, rules, table, seed)
        except UsageError as e:
            assert "\n" not in str(e)
            outcomes.append("refused")
            return
        outcomes.append("played")

    playable()
    assert "played" in outcomes, outcomes
