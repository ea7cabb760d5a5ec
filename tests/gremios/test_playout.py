"""Seeded invariant playouts: every player count, mode and strategy, checked after every turn."""

import numpy as np
import polars as pl
import pytest

from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.search import SEARCHING
from simulator.core.trace import no_log
from simulator.games.gremios import board
from simulator.games.gremios.turn import new_game, play_turn
from strategies import gremios as players
from tests.contract import assert_rows_keep_the_contract
from tests.gremios.conftest import SMALL_SEARCH

CONFIGS = [(n, "standard") for n in (2, 3, 4)] + [(2, "ultimate_duel")]
GAMES_PER_CASE = 12


def check_invariants(s, r, n_cards):
    n = s.n_players
    coins = s.coins[:n]
    assert (coins >= 0).all(), coins
    for field in ("plots", "cultivated", "inns", "destroyed_inns"):
        assert (getattr(s, field)[:n] >= 0).all(), field
    assert (s.investments[:n] >= 0).all() and (s.treasures[:n] >= 0).all()
    # Components are conserved: plots, inns and treasures are somewhere.
    assert s.land_deck_n + s.plots[:n].sum() + s.cultivated[:n].sum() == r.land_cards
    assert s.inn_deck_n + s.inns[:n].sum() + s.destroyed_inns[:n].sum() == r.inn_cards
    n_treasures = r.wealth_low_cards + r.wealth_high_cards + r.common_treasure_cards + r.rare_treasure_cards
    assert s.treasure_deck_n + s.treasures[:n].sum() + s.treasures_cashed[:n].sum() == n_treasures
    on_board = s.blockades.sum() + s.plague + (1 if s.pending >= 0 else 0)
    at_start = min(r.guilds_at_start_two_players if n == 2 else n, board.N_GUILDS)
    guilds_from_deck = s.guild_open.sum() - at_start
    assert s.event_deck_n + s.event_discard_n + on_board + guilds_from_deck == n_cards - at_start
    # Guilds: capacity, and the marker sits with someone who has no fewer coins than anyone.
    for g in range(board.N_GUILDS):
        held = s.investments[:n, g]
        assert held.sum() <= r.guild_slots
        top = s.top_investor[g]
        if held.sum() == 0:
            assert top == -1
        else:
            assert top >= 0 and held[top] == held.max(), (g, top, held)
    # The points kept with the markers are what a recount of the markers gives.
    for p in range(n):
        held = [g for g in range(board.N_GUILDS) if s.top_investor[g] == p]
        assert s.top_investor_points[p] == sum(board.guild_vp(s, r, p, g) for g in held)
    assert 0 <= s.expedition_n < r.expedition_slots
    # The emblem holder has at least two treasure cards and nobody has more.
    if s.emblem >= 0:
        counts = s.treasures[:n].sum(axis=1)
        assert counts[s.emblem] >= r.emblem_min_treasures and counts[s.emblem] == counts.max()
    assert (s.blockades < r.blockades_for_bankruptcy).all()


@pytest.mark.parametrize("n_players,mode", CONFIGS)
@pytest.mark.parametrize("strategy", players.NAMES)
def test_invariants_hold_every_turn(n_players, mode, strategy, heuristics_compiled):
    weights = {"lookahead": SMALL_SEARCH} if strategy == "lookahead" else None
    config = make_config("gremios", n_players, mode, [strategy], seed=123, weights=weights)
    rules = config.rules.as_record()
    r = rules[0]
    n_cards = sum(int(r[name]) for name in r.dtype.names if name.startswith("cards_")) + board.N_GUILDS
    setup = config.setup
    plans = (np.repeat(setup.mix_ids, board.MAX_PLAYERS), np.repeat(setup.mix_weights, board.MAX_PLAYERS, 0))
    if setup.seats_searching_plans:
        plans = plans + (SEARCHING,)
    for game in range(GAMES_PER_CASE if not setup.seats_searching_plans else 3):
        rng = seed_stream(123, game)
        table = new_game(r, n_players, setup.mode, setup.fixed_roles, plans, rng, no_log()).view(np.recarray)
        s = table[0]
        held = s.roles[:n_players]
        assert len(set(held[held >= 0].tolist())) == (held >= 0).sum()  # each role card once
        if mode == "ultimate_duel":
            assert (held >= 0).all()
        check_invariants(s, r, n_cards)
        while not s.over and s.turn < r.max_turns:
            play_turn(s, r, plans, rng, no_log())
            check_invariants(s, r, n_cards)
        scores = [board.victory_points(s, r, p) for p in range(n_players)]
        if s.over:
            assert max(scores) >= r.victory_points_to_win
        else:
            assert s.turn == r.max_turns


@pytest.mark.parametrize("n_players,mode", CONFIGS)
def test_dataset_invariants(tmp_path, n_players, mode):
    from simulator import api
    path = api.run("gremios", players=n_players, mode=mode, games=600, seed=5,
                   strategies=list(players.NAMES), weights={"lookahead": SMALL_SEARCH},
                   out=tmp_path / "run", progress=False)
    data = api.load(path)
    seats, games = data.seats, data.games
    assert_rows_keep_the_contract("gremios", seats, games, n_players, 600)  # with the search player
    winners = seats.filter(seats["winner"]).join(games, on="game_id")
    assert ((winners["score"] >= 10) | winners["truncated"]).all()
    # Every strategy sits in every seat (the seat design), and truncation stays rare.
    assert seats.group_by("seat", "strategy").len().height == n_players * len(players.NAMES)
    assert games["truncated"].mean() < 0.02
    if mode == "ultimate_duel":
        assert seats["role"].str.contains(r"\+").all()
    else:  # one role a seat, each role card at most once a game
        assert not seats["role"].str.contains(r"\+").any()
        assert seats.group_by("game_id").agg(pl.col("role").n_unique())["role"].min() == n_players
