"""Seeded invariant playouts over every player count and strategy, checked after every turn and
scoring; and the dataset a run writes."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.elgrande import board, turn
from strategies import elgrande as players

PLAYER_COUNTS = (2, 3, 4, 5)
GAMES_PER_CASE = 2


def check_invariants(s, r):
    n = s.n_players
    for p in range(n):
        assert board.caballeros_of(s, p) == r.caballeros_per_player
    assert (s.cab[:n] >= 0).all() and (s.court[:n] >= 0).all() and (s.provinces[:n] >= 0).all()
    assert (s.score[:n] == s.vp[:n].sum(axis=1)).all()
    assert (s.power_used[:n].sum(axis=1) <= s.round_no).all()
    assert s.king != board.CASTILLO and (s.grande[:n] != board.CASTILLO).all()


def play_checked(s, r, plans, rng):
    """``turn.play_round`` step by step, with the invariants after each step; nothing in the
    King's region changes during a turn that leaves the King where he was, nor in a scoring."""
    s.round_no += 1
    turn.turn_up_cards(s, no_log())
    before = s.power_used[:s.n_players].copy()
    turn.play_power_cards(s, r, plans, rng, no_log())
    for p in range(s.n_players):
        v = s.power_played[p]
        assert before[p, v] == 0  # each power card once (until taken back)
        assert s.power_used[p, v] == 1
    turn.set_turn_order(s, no_log())
    assert sorted(s.order[:s.n_players]) == list(range(s.n_players))
    for i in range(s.n_players):
        king, inside, mobile = s.king, s.cab[:, s.king].copy(), s.mobile.copy()
        turn.play_turn(s, r, plans, rng, no_log(), s.order[i])
        if s.king == king:  # closed: no Caballero and no scoreboard enters or leaves
            assert (s.cab[:, king] == inside).all()
            for m in range(2):
                assert (s.mobile[m] == mobile[m]) or king not in (s.mobile[m], mobile[m])
        check_invariants(s, r)
    turn.end_of_round(s, r, no_log())
    if board.general_scoring_after(r, s.round_no):
        king, inside = s.king, s.cab[:, s.king].copy()
        turn.general_scoring(s, r, plans, rng, no_log())
        assert (s.cab[:, king] == inside).all() and (s.cab[:, board.CASTILLO] == 0).all()
    check_invariants(s, r)


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
@pytest.mark.parametrize("strategy", players.NAMES)
def test_invariants_hold_every_turn(n_players, strategy):
    config = make_config("elgrande", n_players, "base", [strategy], seed=123)
    r = config.rules.as_record()[0]
    plans = (np.repeat(config.setup.mix_ids, board.MAX_PLAYERS),
             np.repeat(config.setup.mix_weights, board.MAX_PLAYERS, 0))
    for game in range(GAMES_PER_CASE):
        rng = seed_stream(123, game)
        table = turn.new_game(r, n_players, plans, rng, no_log()).view(np.recarray)
        s = table[0]
        check_invariants(s, r)
        while s.round_no < r.rounds:
            play_checked(s, r, plans, rng)
        assert s.turns == r.rounds * n_players and not s.truncated
        assert s.power_used[:n_players].sum() >= r.rounds * n_players - 2  # two take-back cards


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
def test_dataset_invariants(small_runs, n_players):
    data = api.load(small_runs[n_players])
    seats, games = data.seats, data.games
    assert seats.height == 60 * n_players and games.height == 60
    assert seats["role"].null_count() == seats.height
    shares = seats.group_by("game_id").agg(pl.col("win_share").sum())["win_share"]
    assert np.allclose(shares.to_numpy(), 1.0)
    sources = sum(seats[c] for c in ("vp_regions", "vp_castillo", "vp_special_scorings",
                                     "vp_king_bonus", "vp_grande_bonus"))
    assert (seats["score"] == sources).all()
    general = seats["vp_scoring_1"] + seats["vp_scoring_2"] + seats["vp_scoring_3"]
    assert (general <= seats["score"]).all()
    bonuses = seats["vp_king_bonus"] + seats["vp_grande_bonus"]
    special = seats["score"] - general  # special scorings, with the bonuses they paid
    assert (special >= seats["vp_special_scorings"]).all()
    assert (special <= seats["vp_special_scorings"] + bonuses).all()
    cards = sum(seats[f"cards_stack_{k}"] for k in range(1, 6))
    assert (cards == 9).all()
    played = sum((seats[f"power_{v}_round"] > 0).cast(pl.Int32) for v in range(1, 14))
    assert (played <= 9).all() and (played >= 9 - 2).all()
    assert (games["rounds"] == 9).all() and not games["truncated"].any()
    assert (games["turns"] == 9 * n_players).all()
    assert (seats.filter(pl.col("rank") == 1)["winner"]).all()
    best = seats.group_by("game_id").agg(pl.col("score").max().alias("best")).sort("game_id")
    assert (best["best"] == games.sort("game_id")["winning_score"]).all()
