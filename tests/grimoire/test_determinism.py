"""Same command and seed, same Grimoire data: on any thread count, chunk size, and when replayed."""

import json
import os
import subprocess
import sys

import numba
import polars as pl
from polars.testing import assert_frame_equal

from simulator import api
from simulator.core import dataset


def _tables(path):
    data = api.load(path)
    return data.seats, data.games


def test_threads_and_chunk_sizes_give_identical_bytes(tmp_path):
    base = dict(players=5, games=3000, seed=99, progress=False)
    one = api.run("grimoire", out=tmp_path / "one", threads=1, chunk_size=3000, **base)
    two = api.run("grimoire", out=tmp_path / "two", threads=min(2, numba.config.NUMBA_NUM_THREADS),
                  chunk_size=257, **base)
    for a, b in zip(_tables(one), _tables(two)):
        assert_frame_equal(a, b)
    for table in ("seats", "games"):
        name = dataset.part_name(0)
        assert (one / table / name).read_bytes() == (two / table / name).read_bytes()


def test_different_seeds_differ(tmp_path):
    a = api.run("grimoire", players=3, games=200, seed=1, out=tmp_path / "a", progress=False)
    b = api.run("grimoire", players=3, games=200, seed=2, out=tmp_path / "b", progress=False)
    assert not _tables(a)[0]["score"].equals(_tables(b)[0]["score"])


def test_replay_matches_the_run(tmp_path):
    for players in (2, 5):
        path = api.run("grimoire", players=players, games=40, seed=3, out=tmp_path / f"run{players}",
                       progress=False)
        seats, games = _tables(path)
        for index in (0, 17, 39):
            events = api.replay("grimoire", seed=3, game_index=index, players=players)
            end = events[-1]
            assert end["kind"] == "game_end"
            expected = seats.filter(pl.col("game_id") == index).sort("seat")["score"].to_list()
            assert end["scores"] == expected
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


def test_interpreted_engine_matches_compiled():
    """The pure-Python path (NUMBA_DISABLE_JIT=1) plays the same games as the compiled one."""
    code = ("import json; from simulator import api; "
            "e = api.replay('grimoire', seed=4, game_index=2, players=5); "
            "print(json.dumps([x['text'] for x in e]))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    interpreted = json.loads(out.stdout.strip().splitlines()[-1])
    compiled = [x["text"] for x in api.replay("grimoire", seed=4, game_index=2, players=5)]
    assert interpreted == compiled
