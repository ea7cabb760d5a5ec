"""A replayed Grimoire game is the game of the run, event for event.

Its result (scores, ranks, winners), threads and chunk sizes are checked for every game in
tests/test_contract.py, the interpreted engine in tests/test_determinism.py.
"""

import polars as pl

from simulator import api


def _tables(path):
    data = api.load(path)
    return data.seats, data.games


def test_replay_matches_the_run(tmp_path):
    for players in (2, 5):
        path = api.run("grimoire", players=players, games=40, seed=3, out=tmp_path / f"run{players}",
                       progress=False)
        seats, games = _tables(path)
        for index in (0, 17, 39):
            events = api.replay("grimoire", seed=3, game_index=index, players=players)
            game = games.filter(pl.col("game_id") == index)
            assert sum(1 for e in events if e["kind"] == "quest_turn") == game["turns"].item()
            assert sum(1 for e in events if e["kind"] == "round") == game["rounds"].item()
            assert sum(1 for e in events if e["kind"] == "reshuffle") == game["deck_reshuffles"].item()
            firsts = [e["player"] for e in events if e["kind"] == "order" and e["token"] == 1]
            assert firsts[0] == game["first_seat"].item()
            for seat in range(players):
                row = seats.filter((pl.col("game_id") == index) & (pl.col("seat") == seat))
                chosen = [e["level"] for e in events
                          if e["kind"] == "spell_chosen" and e["player"] == seat]
                for level in range(1, 16):
                    assert chosen.count(level) == row[f"cast_level_{level}"].item()
