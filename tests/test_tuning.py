"""playtest tune: CMA-ES over a heuristic's weights, a file run accepts, resumable."""

import json

import pytest

from simulator import api
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.errors import UsageError
from simulator.tuning import TuneOptions, tune

SMALL = dict(players=2, table=["greedy"], games=400, budget=16, held_out_games=4000, seed=1)
# El Grande's games are the slowest by far; half the games still leave its tuned player's gain
# well clear of zero (+7.5 points, interval +6.4 to +8.7, on 2026-12-04).
SMALLER = {"elgrande": dict(games=200, held_out_games=2000)}


# The player tuned against greedy in each game: balanced where it has room to improve on
# greedy; else the personality with the most room (GEMMiS' quick_scorer already wins 98% of
# them; Gnomeland's balanced 88% since rules version 2, its engine_builder 45%).
TUNED = {"gremios": "balanced", "grimoire": "balanced", "gnomeland": "engine_builder",
         "gemmis": "big_builder", "elgrande": "king_shadow"}


@pytest.fixture(scope="module")
def tuned_files(tmp_path_factory):
    """A small tuning of one player against greedy, in every game."""
    folder = tmp_path_factory.mktemp("tune")
    return {game: tune(TuneOptions(game, strategy, **{**SMALL, **SMALLER.get(game, {})}),
                       folder / f"{game}-{strategy}.json", progress=False)
            for game, strategy in TUNED.items()}


@pytest.fixture(scope="module")
def tuned_file(tuned_files):
    return tuned_files["gremios"]


@pytest.mark.parametrize("game", list(TUNED))
def test_the_tuned_player_beats_the_untuned_one_on_held_out_games(tuned_files, game):
    record = json.loads(tuned_files[game].read_text())
    assert record["game"] == game
    held = record["held_out"]
    assert held["seed"] not in range(SMALL["seed"], SMALL["seed"] + record["search"]["generations"])
    assert held["difference"]["interval_95"][0] > 0, held
    assert held["after"]["win_rate"] > held["before"]["win_rate"]
    assert record["search"]["evaluations"] >= SMALL["budget"]
    assert "noise" not in record["search"]["tuned"]
    assert record["weights"]["noise"] == record["untuned_weights"]["noise"]


def test_run_accepts_the_tuned_file_as_a_strategy(tuned_file, tmp_path):
    copy = tmp_path / "balanced.json"
    copy.write_text(tuned_file.read_text())  # named after the file: tuned:balanced
    path = api.run("gremios", players=2, games=200, seed=4, out=tmp_path / "run", progress=False,
                   strategies=[f"tuned:{copy}", "greedy"])
    data = api.load(path)
    assert set(data.seats["strategy"].unique()) == {"tuned:balanced", "greedy"}
    record = json.loads(tuned_file.read_text())
    assert data.manifest["strategy_weights"]["tuned:balanced"] == list(record["weights"].values())
    assert data.manifest["base_strategies"] == ["balanced", "greedy"]
    # a resumed run or a cluster worker rebuilds the mix from the run's request, without the file
    copy.unlink()
    again = make_config(**batch.read_plan(path)["request"])
    assert list(again.weights[0]) == list(record["weights"].values())


def test_an_interrupted_tuning_resumes_to_the_same_weights(tmp_path, monkeypatch):
    options = TuneOptions("gremios", "inn_builder", players=2, table=["greedy"], games=200,
                          budget=12, held_out_games=500, seed=3, popsize=4)
    whole = tune(options, tmp_path / "whole.json", progress=False)
    real = batch.play_in_memory
    calls = {"n": 0}

    def stop_after_six(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] > 6:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(batch, "play_in_memory", stop_after_six)
    out = tmp_path / "cut.json"
    with pytest.raises(KeyboardInterrupt):
        tune(options, out, progress=False)
    assert not out.exists() and (tmp_path / "cut.json.state").exists()
    with pytest.raises(UsageError, match="--resume"):
        tune(options, out, progress=False)
    monkeypatch.setattr(batch, "play_in_memory", real)
    tune(options, out, resume=True, progress=False)
    assert json.loads(out.read_text())["weights"] == json.loads(whole.read_text())["weights"]
    assert not (tmp_path / "cut.json.state").exists()


def test_a_role_tuning_seats_the_candidate_with_that_role_only():
    from simulator.tuning import _config
    config = _config(TuneOptions("gremios", "balanced", players=3, role="pirate"),
                     make_config("gremios").weights[0], 0)
    seats = batch.play_in_memory(config, 300)
    mine = seats.filter(seats["strategy"] == "candidate")
    assert mine.height > 0 and set(mine["role"]) == {"pirate"}
    # at the candidate's tables nobody else holds the Pirate; at the others it is dealt as usual
    its_games = mine["game_id"].to_list()
    others = seats.filter(seats["strategy"] != "candidate")
    assert "pirate" not in set(others.filter(others["game_id"].is_in(its_games))["role"])
    assert "pirate" in set(others.filter(~others["game_id"].is_in(its_games))["role"])


@pytest.mark.parametrize("options, message", [
    (dict(strategy="random"), "not a tunable strategy"),
    (dict(strategy="balanced", games=0), "--games 0"),
    (dict(strategy="balanced", role="wizard"), "unknown role 'wizard'"),
    (dict(strategy="balanced", table=["nobody"]), "unknown strategy 'nobody'"),
    (dict(strategy="balanced", players=4, table=["greedy"], role="pirate"), "sit twice"),
])
def test_bad_tuning_options_are_one_line_errors(options, message, tmp_path):
    with pytest.raises(UsageError, match=message):
        tune(TuneOptions("gremios", **options), tmp_path / "x.json", progress=False)
    assert not (tmp_path / "x.json").exists()


def test_a_file_that_is_not_a_tuned_file_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(UsageError, match="not a tuned-weights file"):
        api.run("gremios", players=2, games=10, strategies=[f"tuned:{bad}"], out=tmp_path / "r")
    with pytest.raises(UsageError, match="cannot read"):
        api.run("gremios", players=2, games=10, strategies=[f"tuned:{tmp_path}/none.json"],
                out=tmp_path / "r2")
    assert not (tmp_path / "r").exists() and not (tmp_path / "r2").exists()


def test_a_tuned_file_of_another_game_or_with_bad_weights_is_refused(tuned_file, tmp_path):
    good = json.loads(tuned_file.read_text())
    cases = [({**good, "game": "grimoire"}, "tuned for grimoire, not gremios"),
             ({**good, "weights": dict(list(good["weights"].items())[:-1])}, "are not the game's"),
             ({**good, "weights": [1, 2]}, "are not the game's"),
             ({**good, "weights": {**good["weights"], "noise": "loud"}}, "noise = 'loud' is not a number"),
             ({**good, "strategy": "wizard"}, "tunes 'wizard', not one of gremios's strategies")]
    for i, (record, message) in enumerate(cases):
        bad = tmp_path / f"bad{i}.json"
        bad.write_text(json.dumps(record))
        with pytest.raises(UsageError, match=message):
            api.run("gremios", players=2, games=10, strategies=[f"tuned:{bad}"], out=tmp_path / "r")
        assert not (tmp_path / "r").exists()


def test_the_tune_command_prints_the_held_out_comparison(playtest, tmp_path):
    code, out, err = playtest("tune", "gremios", "-s", "balanced", "-p", "2", "--table", "greedy",
                              "-n", "100", "-b", "4", "--held-out-games", "300", "-q",
                              "--out", tmp_path / "t.json")
    assert code == 0, err
    assert "held-out games (300" in out and f"tuned:{tmp_path / 't.json'}" in out
    code, out, err = playtest("tune", "gremios", "-s", "balanced", "--resume")
    assert code == 2 and "--resume" in err and len(err.strip().splitlines()) == 1
