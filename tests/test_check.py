"""Checked runs and ``playtest check`` (issue 33): a game that breaks an invariant stops the run
with one line naming the seed, the game and the invariant, and how to replay it; the check's
plan covers every table and mix; its state goes on after an interruption.

The engine here is a stand-in kernel built by the same ``kernel_entry_points`` as every game's,
which breaks an invariant in chosen games through the compiled ``core/trace.py`` calls a
game's turn loop makes; each game's own invariants are tested in its folder."""

import json
import random
import types
from dataclasses import replace

import numba
import numpy as np
import pytest

from simulator import check as checking_command
from simulator.core import backends, batch
from simulator.core.columns import columns
from simulator.core.game import GAME_NAMES
from simulator.core.config import make_config
from simulator.core.errors import InvariantBroken, UsageError
from simulator.core.game import Game, get_game, kernel_entry_points
from simulator.core.trace import broken, broken_in, checking, stop_at_broken, tally_log

BROKEN_GAMES = (37, 1200)  # the games the stand-in breaks, in different blocks
DESCRIPTION = "player {a} holds {b} coins, fewer than none"


def play_games(rules, run_seed, first_game, n_games, n_players, seatings, mix_ids, mix_weights,
               own, seats, games, log, marker):
    """A stand-in kernel: what a game's loop does when game ``BROKEN_GAMES`` break a rule."""
    for i in range(n_games):
        game_index = first_game + i
        if checking(log) and game_index in BROKEN_GAMES:
            broken(log, 0, 2, -1)
        if stop_at_broken(log, game_index):
            return


STAND_IN = types.SimpleNamespace(__name__="simulator.games.gremios.kernel", SEAT=columns("score"),
                                 GAME=columns("turns"), play_games=play_games)


@pytest.fixture()
def breaking_gremios(monkeypatch):
    """Gremios played by the stand-in kernel, with one invariant."""
    play, _ = kernel_entry_points(STAND_IN, (), tell=None, log_rows=10)
    game = replace(get_game("gremios"), play=play)
    monkeypatch.setattr(Game, "invariants", property(lambda self: (DESCRIPTION,)))
    monkeypatch.setattr("simulator.games.gremios.spec.GAME", game)
    return game


def test_the_tally_keeps_the_first_invariant_broken_and_the_game():
    log = tally_log(3, check=True)
    assert checking(log) and broken_in(log) is None
    broken(log, 4, 1, 9)
    broken(log, 2, 0, 0)  # a second one in the same game: the first is kept
    assert not stop_at_broken(tally_log(3, check=True), 5)
    assert stop_at_broken(log, 12)
    assert broken_in(log) == (12, 4, 1, 9)
    assert not checking(tally_log(3)) and not checking(np.zeros((5, 7), dtype=np.int64))


def test_a_checked_block_stops_at_the_first_game_that_breaks_an_invariant(breaking_gremios):
    config = make_config("gremios", 4, seed=5)
    rules = config.rules.as_record()
    breaking_gremios.play(rules, 5, 0, 2000, config.setup)  # unchecked: nothing is looked at
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    with pytest.raises(InvariantBroken) as e:
        breaking_gremios.play(rules, 5, 0, 2000, config.setup, True)
    assert str(e.value) == ("gremios: game 37 of seed 5 broke an invariant: player 2 holds -1 "
                            "coins, fewer than none")
    with pytest.raises(InvariantBroken, match="game 1200 of seed 5"):
        breaking_gremios.play(rules, 5, 1000, 1000, config.setup, True)


def test_the_error_says_how_to_replay_the_game(breaking_gremios):
    config = make_config("gremios", 3, "standard", ["greedy", "random"], None,
                         {"tax_rounding": "down"}, 5)
    with pytest.raises(InvariantBroken) as e:
        backends.play_part(config, 0, 500, 100, check=True)
    assert str(e.value).endswith(
        "see it with playtest replay gremios --players 3 --mode standard --seed 5 --game-index 37 "
        "--strategies greedy,random --set tax_rounding=down")


def test_run_check_ends_with_one_line_and_exit_code_1(breaking_gremios, playtest, tmp_path):
    code, out, err = playtest("run", "gremios", "--games", 100, "--seed", 5, "--check",
                              "--out", tmp_path / "run", "--quiet")
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("playtest: invariant broken: gremios: game 37")
    assert not (tmp_path / "run" / "manifest.json").exists()


def test_the_plan_covers_every_table_and_mix_and_shares_the_games():
    options = checking_command.CheckOptions("gremios", games=1_000_003, search_games=7,
                                            rule_draws=3, seed=11)
    plan = checking_command.plan(options)
    game = get_game("gremios")
    tables = {(m.name, n) for m in game.modes.values() for n in m.player_counts}
    assert {(c["mode"], c["players"]) for c in plan} == tables
    for table in tables:
        kinds = [c["kind"] for c in plan if (c["mode"], c["players"]) == table]
        assert kinds == ["default mix", "random"] + ["drawn rules"] * 3 + ["search player"]
    heuristic = [c["games"] for c in plan if c["kind"] != "search player"]
    assert sum(heuristic) == 1_000_003 and max(heuristic) - min(heuristic) <= 1
    assert all(c["games"] == 7 for c in plan if c["kind"] == "search player")
    assert len({c["seed"] for c in plan}) == len(plan)
    assert checking_command.plan(options) == plan, "the same options, the same plan"
    for c in plan:  # each configuration is one the game accepts
        make_config("gremios", c["players"], c["mode"], c["strategies"], None, c["settings"],
                    c["seed"])


def test_drawn_settings_stay_within_their_ranges():
    game = get_game("grimoire")
    params = game.rules().params
    draws = [checking_command.draw_settings(game, random.Random(k)) for k in range(40)]
    assert draws == [checking_command.draw_settings(game, random.Random(k)) for k in range(40)]
    moved = [len(d) / len(params) for d in draws]
    assert 0.3 < np.mean(moved) < 0.7, "each parameter moved half the time"
    for d in draws:
        for name, value in d.items():
            p = params[name]
            assert value in p.choices if p.choices else p.low <= value <= p.high


def test_a_check_stops_at_a_broken_game_keeps_it_and_says_so_again(breaking_gremios, playtest,
                                                                    tmp_path):
    out = tmp_path / "check"
    args = ("check", "gremios", "--games", 3000, "--rule-draws", 0, "--search-games", 0,
            "--players", 4, "--out", out, "--quiet")
    code, _, err = playtest(*args)
    assert code == 1 and "game 37 of seed 0" in err and err.count("\n") == 1
    state = json.loads((out / "check.json").read_text())
    assert state["broken"]["game_index"] == 37 and not state.get("finished")
    code, _, again = playtest(*args, "--resume")
    assert code == 1 and again == err


def test_bad_check_options_write_nothing(playtest, tmp_path):
    for args, named in ((("--players", "9"), "--players 9"),
                        (("--modes", "duel"), "unknown mode 'duel'"),
                        (("--players", "x"), "--players x"),
                        (("--games", "0", "--search-games", "0"), "nothing to check")):
        code, _, err = playtest("check", "gremios", *args, "--out", tmp_path / "c")
        assert code == 2 and named in err and err.count("\n") == 1, err
        assert not (tmp_path / "c").exists()


class Interrupted(Exception):
    """Ctrl-C, or anything else that stops a check part-way."""


def test_an_interrupted_check_goes_on_with_the_parts_left(tmp_path, monkeypatch):
    """A check cut off after its first part plays only the others when resumed, and counts
    every game once."""
    options = checking_command.CheckOptions("gremios", games=120_000, search_games=0,
                                            rule_draws=0, players=[2], modes=["standard"])
    played, interrupting = [], True
    real_play_part = backends.play_part

    def counting_play_part(config, first, count, chunk_size, check=False):
        assert check
        played.append((config.seed, first, count))
        if len(played) == 2 and interrupting:
            raise Interrupted
        return real_play_part(config, first, min(count, 10), chunk_size, check)

    monkeypatch.setattr(backends, "play_part", counting_play_part)
    with pytest.raises(Interrupted):
        checking_command.check(options, tmp_path / "c", threads=1, progress=False)
    first = played[0]
    played.clear()
    interrupting = False
    state = checking_command.check(options, tmp_path / "c", resume=True, threads=1,
                                   progress=False)
    assert first not in played and len(played) == 3  # 60,000 games a mix: parts of 50,000 and 10,000
    assert state["finished"]
    assert "120,000 games checked in all; no invariant broken" in checking_command.summary(state)
    with pytest.raises(UsageError, match="started with games = 120000, not 1000"):
        checking_command.check(replace(options, games=1000), tmp_path / "c", resume=True)


def test_every_table_of_every_game_finds_drawn_settings_it_accepts():
    """El Grande's card counts are each a number of its own: moved all at once they overfill a
    stack, so refused draws move fewer numbers (the first accepted draw is kept)."""
    for name in GAME_NAMES:
        configurations = checking_command.plan(checking_command.CheckOptions(name, games=1000))
        drawn = [c for c in configurations if c["kind"] == "drawn rules"]
        assert drawn and any(c["settings"] for c in drawn), name
