"""One contract over every game, in the manner of OpenSpiel's random-simulation test: for every
game, mode and player count, with the default mix and with random players, a small run keeps the
dataset's invariants (tests/contract.py), its replays tell the results it records, and it gives
the same bytes on one or two threads and in any chunk size. (That every event code is described
is tests/test_event_tables.py's.)"""

import numba
import pytest

from simulator import api
from simulator.core import batch, dataset
from simulator.core.config import make_config
from simulator.core.game import GAME_NAMES, get_game
from tests.contract import assert_rows_keep_the_contract

MIXES = {"default": None, "random": ["random"]}
# Games a configuration plays, as many as keep the file within a few minutes on two cores: an
# El Grande game of heuristic players costs 4-30 ms, the other games' under 1 ms (2026-12-05).
# A game not named here (a new one) plays GAMES_OTHERWISE.
GAMES = {"gremios": 400, "grimoire": 400, "gemmis": 300, "gnomeland": 400, "elgrande": 40}
GAMES_OTHERWISE = 200
SEED = 17
CHUNK_SIZE = 7  # against one chunk of every game: blocks and chunks ending mid-way


def n_games(game: str) -> int:
    return GAMES.get(game, GAMES_OTHERWISE)


def configurations():
    for game in GAME_NAMES:
        for mode in get_game(game).modes.values():
            for players in mode.player_counts:
                for mix in MIXES:
                    yield pytest.param((game, mode.name, players, mix),
                                       id=f"{game}-{mode.name}-{players}p-{mix}")


def options(game, mode, players, mix):
    return dict(players=players, mode=mode, strategies=MIXES[mix], seed=SEED)


@pytest.fixture(scope="module", params=list(configurations()))
def played(request, tmp_path_factory):
    """The configuration and its run on one thread, in one chunk."""
    game, *_ = configuration = request.param
    path = api.run(game, games=n_games(game), threads=1, chunk_size=n_games(game),
                   out=tmp_path_factory.mktemp(game) / "one", progress=False,
                   **options(*configuration))
    return configuration, path


def test_the_rows_keep_the_dataset_contract(played):
    (game, _, players, _), path = played
    data = api.load(path)
    assert_rows_keep_the_contract(game, data.seats, data.games, players, n_games(game))


def test_the_replay_tells_the_result_the_run_records(played):
    configuration, path = played
    game = configuration[0]
    seats = api.load(path).seats
    last = n_games(game) - 1
    for index in (0, last // 2, last):
        events = api.replay(game, game_index=index, **options(*configuration))
        rows = seats.filter(seats["game_id"] == index).sort("seat")
        assert events[0]["strategies"] == rows["strategy"].to_list()
        end = events[-1]
        assert end["kind"] == "game_end"
        assert end["scores"] == rows["score"].to_list()  # the game's own story of its end
        assert end["ranks"] == rows["rank"].to_list()
        assert end["winners"] == [p for p, won in enumerate(rows["winner"]) if won]
        assert end["win_shares"] == pytest.approx(rows["win_share"].to_list())
        assert end["roles"] == rows["role"].to_list()


def test_two_threads_and_small_chunks_give_the_same_bytes(played, tmp_path):
    configuration, one = played
    game = configuration[0]
    two = api.run(game, games=n_games(game), threads=min(2, numba.config.NUMBA_NUM_THREADS),
                  chunk_size=CHUNK_SIZE, out=tmp_path / "two", progress=False,
                  **options(*configuration))
    for table in ("seats", "games"):
        part = dataset.part_name(0)
        assert (one / table / part).read_bytes() == (two / table / part).read_bytes(), table


@pytest.mark.slow
@pytest.mark.parametrize("configuration", list(configurations()))
def test_many_games_keep_the_dataset_contract(configuration):
    """Fifty times the games, where rare endings come up: GEMMiS's heuristic players reach the
    turn limit some 15 times in 15,000 games and share a win about once (2026-12-05)."""
    game, _, players, _ = configuration
    many = 50 * n_games(game)
    config = make_config(game, **options(*configuration))
    seats, games = batch.play_in_memory(config, many, with_games=True)
    assert_rows_keep_the_contract(game, seats, games, players, many)
