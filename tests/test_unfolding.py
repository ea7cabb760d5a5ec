"""How a game unfolds (simulator/core/unfolding.py): leaders, lead changes, decisions and the
final margin, in the core and in every game's dataset."""

import numpy as np
import polars as pl
import pytest

from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.game import GAME_NAMES, get_game
from simulator.core.unfolding import NOBODY, new_leaders, note_leader, write_unfolding


def unfold(standings, n_players=3, decisions=0, room=50):
    leaders = new_leaders(room)
    for row in standings:
        note_leader(leaders, np.array(row, dtype=np.int64), n_players)
    out = np.zeros(4, dtype=np.int64)
    write_unfolding(leaders, decisions, out)
    return leaders, out


def test_a_seat_leads_only_when_above_every_other():
    leaders, _ = unfold([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 2], [3, 1, 3], [2, 5, 5]])
    assert list(leaders[1:7]) == [NOBODY, 0, NOBODY, 2, NOBODY, NOBODY]
    assert leaders[0] == 6


def test_lead_changes_count_a_new_leader_not_a_tie_between():
    # 0 leads, a tie, 0 again (no change), 1 (a change), a tie, 2 (a change)
    standings = [[1, 0, 0], [1, 1, 0], [2, 1, 0], [2, 3, 0], [3, 3, 3], [3, 3, 4]]
    _, out = unfold(standings, decisions=17)
    assert out[0] == 2
    assert out[3] == 17


def test_leaders_at_one_and_two_thirds_of_the_turns():
    standings = [[1, 0, 0]] * 3 + [[1, 2, 0]] * 3 + [[1, 2, 3]] * 3  # nine turns
    _, out = unfold(standings)
    assert (out[1], out[2]) == (0, 1)  # after turns 3 and 6
    _, short = unfold([[1, 0, 0], [1, 2, 0]])  # two turns: no turn at one third
    assert (short[1], short[2]) == (NOBODY, 0)


def test_a_game_longer_than_the_room_keeps_its_first_turns():
    leaders, out = unfold([[1, 0, 0]] * 4 + [[0, 1, 0]] * 4, room=5)
    assert leaders[0] == 5 and out[0] == 1


@pytest.fixture(scope="module", params=GAME_NAMES)
def played(request):
    game = get_game(request.param)
    n = max(game.player_counts)
    seats, games = batch.play_in_memory(make_config(game.name, n, seed=11), 300, with_games=True)
    return game, n, seats, games


def test_every_game_says_what_leading_means(played):
    game, *_ = played
    assert len(game.rules().notes.get("leading", "")) > 40


def test_the_unfolding_columns_agree_with_the_seats(played):
    game, n, seats, games = played
    assert games["lead_changes"].min() >= 0
    assert (games["lead_changes"] < games["turns"].cast(pl.Int64) + 1).all()
    assert games["decisions"].min() > 0
    scores = seats.sort("game_id", "seat").group_by("game_id", maintain_order=True).agg(
        pl.col("score"), pl.col("winner"))
    for at in ("third", "two_thirds"):
        leader = games[f"leader_at_{at}"].to_numpy()
        won = games[f"leader_at_{at}_won"]
        assert ((leader >= NOBODY) & (leader < n)).all()
        assert (won.is_null().to_numpy() == (leader == NOBODY)).all()
        expected = [w[p] if p >= 0 else None
                    for w, p in zip(scores["winner"].to_list(), leader)]
        assert won.to_list() == expected
    margins = [max(s) - max([x for x, w in zip(s, ws) if not w], default=max(s))
               for s, ws in zip(scores["score"].to_list(), scores["winner"].to_list())]
    assert games["final_margin"].to_list() == margins
    assert games["final_margin"].min() >= 0
    # somebody leads at some point in most games, and leads change in some of them
    assert (games["leader_at_two_thirds"] != NOBODY).mean() > 0.3
    assert games["lead_changes"].max() > 0
