"""Same command and seed, same data: with the search player on any thread count, with every
heuristic at the table when replayed, and interpreted (tests/test_contract.py checks every game's
threads and chunk sizes with the default mix and random players)."""

import importlib
import json
import os
import subprocess
import sys

import polars as pl
import pytest

from simulator import api
from simulator.core.game import GAME_NAMES, get_game


def _players(game):
    """A small table the game is played at: three players, or as many as it allows."""
    return min(3, max(get_game(game).player_counts))


def _tables(path):
    data = api.load(path)
    return data.seats, data.games


@pytest.mark.parametrize("game", GAME_NAMES)
def test_different_seeds_differ(tmp_path, game):
    a = api.run(game, players=_players(game), games=200, seed=1, out=tmp_path / "a", progress=False)
    b = api.run(game, players=_players(game), games=200, seed=2, out=tmp_path / "b", progress=False)
    assert not _tables(a)[0]["score"].equals(_tables(b)[0]["score"])


@pytest.mark.parametrize("players,mode", [(4, "standard"), (2, "standard"), (2, "ultimate_duel")])
def test_gremios_replay_matches_the_run(tmp_path, players, mode):
    path = api.run("gremios", players=players, mode=mode, games=40, seed=3, out=tmp_path / "run",
                   progress=False)
    seats, games = _tables(path)
    for index in (0, 17, 39):
        events = api.replay("gremios", seed=3, game_index=index, players=players, mode=mode)
        end = events[-1]
        assert end["kind"] == "game_end"
        expected = seats.filter(pl.col("game_id") == index).sort("seat")["score"].to_list()
        assert end["scores"] == expected
        turns = sum(1 for e in events if e["kind"] == "turn")
        assert turns == games.filter(pl.col("game_id") == index)["turns"].item()
        rolls = sum(1 for e in events if e["kind"] == "roll" and e["for"] == "roll phase")
        assert rolls == games.filter(pl.col("game_id") == index)["rolls"].item()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_replay_tells_the_seats_and_the_result_the_run_records(tmp_path, game):
    """The core opens every game's replay with who sits where and ends it with each seat's
    rank, the winners, their win shares and the roles held: those of the run's own rows."""
    players = get_game(game).strategies
    strategies = [n for n in players.names if n != players.search]  # every heuristic, random too
    path = api.run(game, players=_players(game), games=12, seed=6, strategies=strategies,
                   out=tmp_path / "run", progress=False)
    seats, _ = _tables(path)
    for index in (0, 5, 11):
        events = api.replay(game, seed=6, game_index=index, players=_players(game),
                            strategies=strategies)
        rows = seats.filter(pl.col("game_id") == index).sort("seat")
        assert events[0]["kind"] == "seating"
        assert events[0]["strategies"] == rows["strategy"].to_list()
        assert sum(e["kind"] == "seating" for e in events) == 1
        end = events[-1]
        assert end["kind"] == "game_end"
        assert end["ranks"] == rows["rank"].to_list()
        assert end["winners"] == [p for p, w in enumerate(rows["winner"].to_list()) if w]
        assert end["win_shares"] == pytest.approx(rows["win_share"].to_list())
        assert end["roles"] == rows["role"].to_list()
        assert end["scores"] == rows["score"].to_list()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_interpreted_engine_matches_compiled(game):
    """The pure-Python path (NUMBA_DISABLE_JIT=1) plays the same game as the compiled one."""
    code = ("import json; from simulator import api; "
            f"e = api.replay({game!r}, seed=4, game_index=2, players={_players(game)}); "
            "print(json.dumps([x['text'] for x in e]))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    interpreted = json.loads(out.stdout.strip().splitlines()[-1])
    compiled = [x["text"] for x in api.replay(game, seed=4, game_index=2, players=_players(game))]
    assert interpreted == compiled


# Games with a search player, and how many small search games show it (each game's own test
# package holds its small budget, SMALL_SEARCH).
SEARCH_RUNS = {"gremios": 24, "grimoire": 24, "gemmis": 8, "gnomeland": 6, "elgrande": 4}


@pytest.mark.parametrize("game", list(SEARCH_RUNS))
def test_a_search_run_gives_the_same_bytes_on_one_or_two_threads(game, tmp_path):
    small = importlib.import_module(f"tests.{game}.test_search").SMALL_SEARCH
    runs = []
    for threads in (1, 2):
        path = api.run(game, players=2, games=SEARCH_RUNS[game], seed=9,
                       strategies=["lookahead", "greedy"], weights={"lookahead": small},
                       threads=threads, out=tmp_path / f"t{threads}", progress=False)
        runs.append([(path / t / "part-00000.parquet").read_bytes() for t in ("seats", "games")])
    assert runs[0] == runs[1]
