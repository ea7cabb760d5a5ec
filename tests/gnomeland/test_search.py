"""The search player: it re-deals only the decks' order, plays reproducibly, and replays."""

import numpy as np
import polars as pl

from simulator import api
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.gnomeland import board
from simulator.games.gnomeland.search import copy_of, redeal_hidden
from simulator.games.gnomeland.turn import new_game
from strategies import gnomeland as players

SMALL_SEARCH = players.DEFAULT_WEIGHTS[players.LOOKAHEAD].copy()
SMALL_SEARCH[players.W_ROLLOUTS] = 1
SMALL_SEARCH[players.W_ROLLOUT_TURNS] = 1   # to the end of the current round
SMALL_SEARCH = list(SMALL_SEARCH)


def test_the_redeal_keeps_every_deck_card_and_touches_nothing_else():
    config = make_config("gnomeland", 3, strategies=["balanced"], seed=1)
    r = config.rules.as_record()[0]
    plans = (np.full(4, players.BALANCED), players.DEFAULT_WEIGHTS[[players.BALANCED] * 4])
    table = new_game(r, 3, plans, seed_stream(1, 0), no_log()).view(np.recarray)
    copy = copy_of(table[0]).view(np.recarray)
    redeal_hidden(copy[0], seed_stream(2, 0))
    s, x = table[0], copy[0]
    for deck, n in (("mission_deck", "mission_deck_n"), ("action_deck", "action_deck_n"),
                    ("spell_deck", "spell_deck_n")):
        k = getattr(s, n)
        assert sorted(getattr(s, deck)[:k]) == sorted(getattr(x, deck)[:k])
    for field in board.STATE.names:
        if field not in ("mission_deck", "action_deck", "spell_deck"):
            assert np.array_equal(getattr(s, field), getattr(x, field)), field



def test_a_small_search_beats_random_players():
    config = make_config("gnomeland", 2, strategies=["lookahead", "random"], seed=2,
                         weights={"lookahead": SMALL_SEARCH})
    seats = batch.play_in_memory(config, 12)
    assert seats.filter(pl.col("strategy") == "lookahead")["win_share"].mean() > 0.6


def test_the_replay_of_a_search_game_is_the_game_of_the_run(tmp_path):
    options = dict(players=2, seed=6, strategies=["lookahead", "greedy"],
                   weights={"lookahead": SMALL_SEARCH})
    path = api.run("gnomeland", games=3, out=tmp_path / "run", progress=False, **options)
    seats = api.load(path).seats
    events = api.replay("gnomeland", game_index=1, **options)
    expected = seats.filter(pl.col("game_id") == 1).sort("seat")["score"].to_list()
    assert events[-1]["kind"] == "game_end" and events[-1]["scores"] == expected
