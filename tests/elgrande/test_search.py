"""The search player: it re-deals only the stacks' order, plays reproducibly, beats random and its
own rollout policy, and replays."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.games.elgrande import board
from simulator.games.elgrande.effects import copy_of
from simulator.games.elgrande.search import redeal_hidden
from strategies import elgrande as players

EXPANSION = "grand_inquisitor_colonies"
SMALL_SEARCH = players.DEFAULT_WEIGHTS[players.LOOKAHEAD].copy()
SMALL_SEARCH[players.W_ROLLOUTS] = 1  # to the end of the round, power cards searched too
SMALL_SEARCH = list(SMALL_SEARCH)


@pytest.mark.parametrize("mode", [board.BASE, board.GRAND_INQUISITOR_COLONIES])
def test_the_redeal_keeps_every_stack_card_and_touches_nothing_else(table, mode):
    s = table(4, mode=mode)
    copy = copy_of(s).view(np.recarray)
    redeal_hidden(copy[0], seed_stream(2, 0))
    x = copy[0]
    moved = 0
    for stack in range(board.N_STACKS):
        k = s.deck_n[stack]
        assert sorted(s.deck[stack, :k]) == sorted(x.deck[stack, :k])
        moved += int((s.deck[stack, :k] != x.deck[stack, :k]).any())
    assert moved == (5 if mode else 4)  # stacks 1-4 (and 7) re-dealt; 5 and 6 hold none
    for field in board.STATE.names:
        if field != "deck":
            assert np.array_equal(getattr(s, field), getattr(x, field)), field



def share_against(opponent, games):
    config = make_config("elgrande", 2, strategies=["lookahead", opponent], seed=2,
                         weights={"lookahead": SMALL_SEARCH})
    seats = batch.play_in_memory(config, games)
    return seats.filter(pl.col("strategy") == "lookahead")["win_share"].mean()


def test_a_small_search_beats_random_players():
    assert share_against("random", 10) > 0.8  # measured: 100 of 100 games (default budget)


def test_a_small_search_beats_its_own_rollout_policy():
    """One rollout per option: 85.8% ± 4.8 of 200 games against spoiler, its rollout policy
    (measured); more than 60% of 30 games is some four standard deviations below that."""
    assert share_against("spoiler", 30) > 0.6


def test_the_replay_of_a_search_game_is_the_game_of_the_run(tmp_path):
    options = dict(players=3, seed=6, mode=EXPANSION, strategies=["lookahead", "spoiler"],
                   weights={"lookahead": SMALL_SEARCH})
    path = api.run("elgrande", games=2, out=tmp_path / "run", progress=False, **options)
    seats = api.load(path).seats
    events = api.replay("elgrande", game_index=1, **options)
    expected = seats.filter(pl.col("game_id") == 1).sort("seat")["score"].to_list()
    assert events[-1]["kind"] == "game_end" and events[-1]["scores"] == expected
    assert any(e["kind"] == "decision" for e in events)
