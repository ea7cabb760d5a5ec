"""Seeded invariant playouts: every mode, every strategy and the main gap-filling choices,
checked after every turn; and the dataset a run writes."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.gemmis import board, kernel
from simulator.games.gemmis.spec import MODES
from simulator.games.gemmis.turn import finish_game, new_game, play_turn
from strategies import gemmis as players
from tests.contract import assert_rows_keep_the_contract
from tests.game_fixtures import unfolding_of
from tests.gemmis.conftest import SMALL_SEARCH

GAMES_PER_CASE = 4
HEURISTICS = [n for n in players.NAMES if n != "lookahead"]
VARIANTS = [{}, {"zone_refill": "street_choice"}, {"zone_refill": "sack"},
            {"swap_rule": "own_zone"}, {"street_move": "shift_one"},
            {"street_moving": "every_turn"}, {"street_moving": "every_turn", "swap_rule": "own_zone"},
            {"cascades": "next_turn"},
            {"last_turn": "equal_turns"}, {"last_turn": "none"}, {"setup": "dealt"},
            {"small_gem_taken": "land_exactly", "small_gem_last_turn": "per_turn_limit"},
            {"small_gem_use": "none", "small_gem_points": 3}]


def check_invariants(s, r):
    # every chip in exactly one place: a zone, the street, the sack, the used pile, set aside
    places = np.concatenate([s.zone.ravel(), s.street, s.sack[:s.sack_n], s.used[:s.used_n],
                             s.aside[:s.aside_n]])
    places = places[places != board.EMPTY]
    assert len(places) == s.n_chips == board.chip_count(r)
    assert (np.bincount(places, minlength=s.n_chips) == 1).all()
    assert s.aside_n == 0  # set aside only while the street is cleaned
    # the track's points are the sum of their sources
    assert (s.points == s.points_sizes + s.points_values).all()
    sizes = sum(s.combinations[:, k] * board.points_for_size(r, k) for k in range(3, 13))
    assert (sizes == s.points_sizes).all()
    assert (s.alert >= 0).all() and (s.alert <= board.alert_available(r)).all()
    assert (s.small_gems_used <= s.small_gems).all()
    assert s.small_gems.sum() + s.small_gem_on_cell.sum() == board.N_SMALL_GEMS_ON_TRACK
    if s.alguazil == 0:
        assert s.alguazil_uses.sum() == 0 and s.alert.sum() == 0
    if s.market_open:
        assert max(s.points) < r.closing_score and s.closer == -1
    else:
        assert s.points[s.closer] >= r.closing_score


def play_checked(r, mode, plans, seed, game):
    rng = seed_stream(seed, game)
    table = new_game(r, mode, plans, rng, no_log()).view(np.recarray)
    s = table[0]
    check_invariants(s, r)
    assert (s.street != board.EMPTY).all()
    assert board.best_points(s, r, board.zone_masks(s, 0)) == 0
    last_scoring_turn = 0
    while not s.over and s.turn < r.max_turns:
        before = s.points.sum()
        play_turn(s, r, plans, rng, no_log())
        check_invariants(s, r)
        if s.points.sum() != before:
            last_scoring_turn = s.turn
    if not s.over:
        s.truncated = 1
    finish_game(s, r, no_log())
    for p in range(2):
        assert board.final_score(s, r, p) == s.points_sizes[p] + s.points_values[p] - \
            s.penalty[p] + s.points_small_gems[p]
        if not s.advanced:
            assert s.penalty[p] == 0
    return table, last_scoring_turn


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("strategy", HEURISTICS)
def test_invariants_hold_every_turn(mode, strategy):
    config = make_config("gemmis", 2, mode, [strategy], seed=123)
    r = config.rules.as_record()[0]
    plans = (np.repeat(config.setup.mix_ids, 2), np.repeat(config.setup.mix_weights, 2, 0))
    for game in range(GAMES_PER_CASE):
        table, last_scoring_turn = play_checked(r, config.setup.mode, plans, 123, game)
        if strategy != "random":  # two random players may score too slowly to close the market
            # the README's "Truncated games": a default game reaches the turn limit only when
            # locked, nothing scored for the second half of its turns
            assert table[0].over or last_scoring_turn <= r.max_turns // 2, \
                f"game {game} reached the turn limit still scoring (turn {last_scoring_turn})"


@pytest.mark.parametrize("settings", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default")
def test_invariants_hold_under_every_gap_filling_choice(settings):
    config = make_config("gemmis", 2, "advanced_alguazil", ["alguazil_tactician", "random"],
                         seed=7, settings=settings)
    r = config.rules.as_record()[0]
    plans = (config.setup.mix_ids.copy(), config.setup.mix_weights.copy())
    for game in range(GAMES_PER_CASE):
        play_checked(r, config.setup.mode, plans, 7, game)


def test_the_turn_limit_truncates(tmp_path):
    path = api.run("gemmis", games=50, seed=4, out=tmp_path / "r", progress=False,
                   settings={"max_turns": 6})
    games = api.load(path).games
    assert games["truncated"].all() and (games["turns"] == 6).all()


@pytest.mark.parametrize("mode", list(MODES))
def test_dataset_invariants(tmp_path, mode):
    path = api.run("gemmis", games=300, seed=5, mode=mode, strategies=list(players.NAMES),
                   weights={"lookahead": SMALL_SEARCH} if mode == "family" else None,
                   out=tmp_path / "run", progress=False) if mode == "family" else \
        api.run("gemmis", games=300, seed=5, mode=mode, strategies=HEURISTICS,
                out=tmp_path / "run", progress=False)
    data = api.load(path)
    seats, games = data.seats, data.games
    assert_rows_keep_the_contract("gemmis", seats, games, 2, 300)  # the family's: the search player
    assert seats["role"].null_count() == seats.height
    assert (seats["combinations"] == sum(seats[c] for c in kernel.SIZE_COLUMNS)).all()
    assert (seats["cascades"] <= seats["combinations"]).all()
    assert (seats["small_gems_used"] <= seats["small_gems"]).all()
    if "advanced" not in mode:
        assert (seats["points_penalty"] == 0).all()
    if "alguazil" not in mode:
        assert (seats.select(kernel.SKILL_COLUMNS).sum_horizontal() == 0).all()
    # two myopic players can swap gems back and forth for ever with no combination in reach
    # (measured: 19 of 20,000 default games reach the turn limit); marked truncated
    assert games["truncated"].mean() < 0.02
    closed = seats.group_by("game_id").agg(pl.col("closed_market").sum()).join(games, on="game_id")
    assert (closed["closed_market"] == (~closed["truncated"].cast(pl.Boolean)).cast(pl.Int64)).all()


def rebuilt_standings(events):
    """Each player's standing after each turn, rebuilt from a replay: their marker on the score
    track (``points`` events), noted when the next turn begins or the game stops."""
    standing, standings, playing = [0, 0], [], False
    for e in events:
        if e["kind"] in ("turn", "truncated", "game_end") and playing:
            standings.append(list(standing))
            playing = False
        if e["kind"] == "turn":
            assert e["points"] == standing  # the story's own account of the track agrees
            playing = True
        elif e["kind"] == "points":
            assert e["before"] == standing[e["player"]]
            standing[e["player"]] = e["after"]
    return standings


@pytest.mark.parametrize("mode", ["family", "advanced_alguazil"])
def test_the_unfolding_is_the_replayed_games(mode):
    """Lead changes and the leaders at one and two thirds of the turns, rebuilt from the replays'
    score track, are the dataset's; every logged choice among two options or more is counted."""
    seats, games = batch.play_in_memory(make_config("gemmis", 2, mode, seed=9), 6,
                                        with_games=True)
    games = games.sort("game_id")
    changes_seen = 0
    for index in range(6):
        events = api.replay("gemmis", seed=9, game_index=index, mode=mode)
        game = games.row(index, named=True)
        standings = rebuilt_standings(events)
        assert len(standings) == game["turns"]
        changes, third, two_thirds = unfolding_of(standings)
        assert (game["lead_changes"], game["leader_at_third"], game["leader_at_two_thirds"]) == \
            (changes, third, two_thirds)
        logged = sum(1 for e in events if e["kind"] == "options" and e["options"] >= 2)
        assert game["decisions"] >= logged > 0
        changes_seen += changes
    assert changes_seen > 0  # the lead did change hands in some of them
