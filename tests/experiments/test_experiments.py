"""Experiment files, common random numbers, paired comparisons and the comparison report."""

import json
from pathlib import Path

import pytest

from reports.compare import compare_runs, headline_half_width
from simulator import api
from simulator.core.errors import UsageError
from simulator.experiment import load_experiment, load_plan, run_experiment

EXAMPLES = sorted((Path(__file__).parents[2] / "experiments").glob("*.toml"))


def test_every_kind_of_example_ships():
    names = {p.stem for p in EXAMPLES}
    assert {"tax-rounding", "innkeeper-plots", "expedition-range", "victory-target",
            "role-balance", "inn-grid", "players-tax"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs_small_and_reports(tmp_path, playtest, path):
    code, _, err = playtest("experiment", path, "--games", 200, "--out", tmp_path / "x")
    assert code == 0, err
    plan = load_plan(tmp_path / "x")
    experiment = load_experiment(path)
    assert [c["label"] for c in plan["configurations"]] == [c.label for c in experiment.configurations]
    report = tmp_path / "x" / "comparison"
    summary = json.loads((report / "comparison.json").read_text())
    # every configuration is compared with the baseline of its player count and player set
    assert len(summary["comparisons"]) == len(plan["configurations"]) - len(
        {(c["players"], c["player_set"]) for c in plan["configurations"]})
    html = (report / "comparison.html").read_text()
    assert html.count("data:image/png;base64,") == len(list((report / "charts").glob("*.png")))
    for config in plan["configurations"]:
        assert api.load(tmp_path / "x" / config["folder"]).manifest["n_games"] == 200


def _write(tmp_path, text):
    path = tmp_path / "e.toml"
    path.write_text(text)
    return path


BAD = [
    ('[experiment]\ngame = "gremios"\ncolour = "red"\n', "unknown key 'colour'"),
    ('[experiment]\ngame = "chess"\n', "unknown game 'chess'"),
    ('[experiment]\ngame = "gremios"\n[variants.a]\nsettings = { inn_cost = 99 }\n',
     "inn_cost must be an integer from 0 to 30"),
    ('[experiment]\ngame = "gremios"\n[variants.a]\nsettings = { nope = 1 }\n', "unknown parameter 'nope'"),
    ('[experiment]\ngame = "gremios"\nstrategies = ["greedy", "wizard"]\n', "unknown strategy 'wizard'"),
    ('[experiment]\ngame = "gremios"\nplayers = [5]\n', "is played by 2, 3, 4 players"),
    ('[experiment]\ngame = "gremios"\ngames = 0\n', "games = 0"),
    ('[experiment]\ngame = "gremios"\n[sweeps.s]\nparameter = "inn_cost"\nrange = [9, 1, 1]\n', "gives no values"),
    ('[experiment]\ngame = "gremios"\n[sweeps.s]\nparameter = "inn_cost"\n', "either values"),
    ('[experiment]\ngame = "gremios"\n[sweeps.s]\nparameter = "role"\nvalues = ["dragon"]\n', "unknown role 'dragon'"),
    ('[experiment]\ngame = "gremios"\n[variants.a]\nmood = 1\n', "unknown key 'mood'"),
    ('[experiment]\ngame = "gremios"\n[variants.a]\nmode = "duel"\n', "unknown mode 'duel'"),
    ('[experiment]\ngame = "gremios"\nplayers = [4]\n[variants.a]\nmode = "ultimate_duel"\n',
     "configuration 'a'"),
    ('[experiment]\ngame = "gremios"\n[baseline]\nmode = "ultimate_duel"\n', "unknown key 'mode'"),
    ('[experiment\ngame = "gremios"\n', "not valid TOML"),
    ('[experiment]\ngame = "gremios"\n[players.a]\nroles = ["any"]\n', "unknown key 'roles'"),
    ('[experiment]\ngame = "gremios"\n[players.a]\nstrategies = ["nobody"]\n', "unknown strategy 'nobody'"),
    ('[experiment]\ngame = "gremios"\n[players.a]\nbudget = 5\n', "unknown key 'budget'"),
    ('[experiment]\ngame = "gremios"\n[players.a]\ngames = 0\n', "[players.a]: games = 0 must be an integer of at least 1"),
    ('[experiment]\ngame = "gremios"\n[players.a]\ngames = "many"\n', "games = 'many' must be an integer"),
    ('[experiment]\ngame = "gremios"\n[players.a]\nprecision = 0.7\n',
     "[players.a]: precision = 0.7: must be a number between 0 and 0.5"),
    ('[experiment]\ngame = "gremios"\n[players.a]\nprecision = "tight"\n', "precision = 'tight': must be a number"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_bad_experiment_files_are_refused_clearly(tmp_path, playtest, text, message):
    path = _write(tmp_path, text)
    with pytest.raises(UsageError) as e:
        load_experiment(path)
    assert message in str(e.value) and "\n" not in str(e.value)
    code, _, err = playtest("experiment", path, "--out", tmp_path / "o")
    assert code == 2 and message in err
    assert not (tmp_path / "o").exists()


def test_a_variant_plays_another_mode_and_is_compared_with_the_baseline(tmp_path, playtest):
    path = _write(tmp_path, '[experiment]\ngame = "gremios"\nplayers = [2]\ngames = 300\n'
                            '[variants.duel]\nmode = "ultimate_duel"\n')
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x")
    assert code == 0, err
    assert api.load(tmp_path / "x" / "2p-baseline").manifest["mode"] == "standard"
    assert api.load(tmp_path / "x" / "2p-duel").manifest["mode"] == "ultimate_duel"
    summary = json.loads((tmp_path / "x" / "comparison" / "comparison.json").read_text())
    assert len(summary["comparisons"]) == 1


def test_common_random_numbers_and_identical_configurations_show_no_change(tmp_path):
    a = api.run("gremios", games=3000, seed=9, out=tmp_path / "a", progress=False)
    b = api.run("gremios", games=3000, seed=9, out=tmp_path / "b", progress=False)
    changes = compare_runs(a, b)
    assert changes and all(not c.detected for c in changes)
    assert all(c.delta == 0 and c.method == "paired" for c in changes if c.n >= 30)


def test_a_known_tweak_is_detected_in_the_right_direction(tmp_path):
    """Raising the Archbishop's income makes the Archbishop win more."""
    a = api.run("gremios", games=4000, seed=9, out=tmp_path / "a", progress=False)
    b = api.run("gremios", games=4000, seed=9, out=tmp_path / "b", progress=False,
                settings={"archbishop_coins": 4})
    arch = next(c for c in compare_runs(a, b) if c.metric == "win_rate" and c.label == "archbishop")
    assert arch.detected and arch.delta > 0 and arch.low > 0
    assert arch.method == "paired"


def test_paired_interval_is_tighter_than_unpaired(tmp_path):
    a = api.run("gremios", games=4000, seed=9, out=tmp_path / "a", progress=False)
    b = api.run("gremios", games=4000, seed=9, out=tmp_path / "b", progress=False,
                settings={"tax_rounding": "down"})
    c = api.run("gremios", games=4000, seed=10, out=tmp_path / "c", progress=False,
                settings={"tax_rounding": "down"})
    # pairing shrinks the standard error (the intervals also depend on each row's Holm step)
    paired = {(x.metric, x.group, x.label): x.se for x in compare_runs(a, b)}
    unpaired = {(x.metric, x.group, x.label): x.se for x in compare_runs(a, c)}
    assert all(x.method == "unpaired" for x in compare_runs(a, c))
    narrower = sum(paired[k] < unpaired[k] for k in paired if k in unpaired)
    assert narrower > 0.8 * len(paired)


def test_precision_adds_games_until_reached_or_capped(tmp_path):
    path = _write(tmp_path, '[experiment]\ngame = "gremios"\ngames = 500\nmax_games = 2000\nseed = 3\n'
                            '[variants.v]\nsettings = { inn_cost = 5 }\n')
    experiment = load_experiment(path)
    out = run_experiment(experiment, tmp_path / "tight", progress=False, precision=0.001)
    plan = load_plan(out)
    assert [c["games"] for c in plan["configurations"]] == [2000, 2000]  # capped
    data = api.load(out / plan["configurations"][0]["folder"])
    assert data.games["game_id"].to_list() == list(range(2000))
    loose = run_experiment(experiment, tmp_path / "loose", progress=False, precision=0.2)
    assert [c["games"] for c in load_plan(loose)["configurations"]] == [500, 500]
    assert headline_half_width(loose / load_plan(loose)["configurations"][0]["folder"]) <= 0.2


def test_extended_run_equals_a_run_of_the_full_size(tmp_path):
    from polars.testing import assert_frame_equal
    from simulator.core import batch
    from simulator.core.config import make_config
    config = make_config("gremios", 3, seed=4)
    batch.run(config, 700, tmp_path / "grown", progress=False)
    batch.extend(tmp_path / "grown", config, 600, progress=False)
    batch.run(config, 1300, tmp_path / "whole", progress=False)
    grown, whole = api.load(tmp_path / "grown"), api.load(tmp_path / "whole")
    assert_frame_equal(grown.seats, whole.seats)
    assert_frame_equal(grown.games, whole.games)
    with pytest.raises(UsageError, match="other options"):
        batch.extend(tmp_path / "grown", make_config("gremios", 3, seed=5), 10, progress=False)


def test_report_on_an_experiment_folder_points_to_its_report_and_runs(tmp_path, playtest):
    path = _write(tmp_path, '[experiment]\ngame = "gremios"\ngames = 200\n'
                            '[variants.v]\nsettings = { inn_cost = 5 }\n')
    assert playtest("experiment", path, "--out", tmp_path / "x")[0] == 0
    code, _, err = playtest("report", tmp_path / "x")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "an experiment folder" in err and str(tmp_path / "x" / "comparison") in err
    assert "4p-baseline" in err


def test_compare_command(tmp_path, playtest):
    a = api.run("gremios", games=500, seed=1, out=tmp_path / "a", progress=False)
    b = api.run("gremios", games=500, seed=1, out=tmp_path / "b", progress=False,
                settings={"vp_inn": 3})
    code, out, _ = playtest("compare", a, b, "--out", tmp_path / "c")
    assert code == 0 and "What moved" in out
    assert (tmp_path / "c" / "comparison.html").is_file()
    code, _, err = playtest("compare", a, tmp_path / "nothing")
    assert code == 2 and "nothing" in err


def test_player_sets_play_every_configuration_and_list_the_verdicts_that_change(tmp_path, playtest):
    path = _write(tmp_path, """
[experiment]
game = "gremios"
players = [3]
games = 600
seed = 2
[players.default]
strategies = ["greedy", "guild_baron", "inn_builder", "expedition_gambler", "balanced"]
[players.barons]
strategies = ["guild_baron"]
[variants.dear_inns]
settings = { inn_cost = 8 }
""")
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x")
    assert code == 0, err
    plan = load_plan(tmp_path / "x")
    assert [(c["player_set"], c["label"]) for c in plan["configurations"]] == [
        ("default", "baseline"), ("default", "dear_inns"), ("barons", "baseline"), ("barons", "dear_inns")]
    assert api.load(tmp_path / "x" / "3p-barons-dear_inns").manifest["strategies"] == ["guild_baron"]
    summary = json.loads((tmp_path / "x" / "comparison" / "comparison.json").read_text())
    pairs = {(c["baseline"], c["variant"]) for c in summary["comparisons"]}
    assert len(summary["comparisons"]) == 2 and pairs == {("baseline", "dear_inns")}
    assert [(v["label"], v["players"]) for v in summary["verdicts"]] == [("baseline", 3), ("dear_inns", 3)]
    assert "Verdicts under each set of players" in (tmp_path / "x" / "comparison" / "comparison.md").read_text()


def _part_bytes(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


def test_an_interrupted_experiment_resumes_to_the_uninterrupted_result(tmp_path, playtest, monkeypatch):
    path = _write(tmp_path, '[experiment]\ngame = "gremios"\ngames = 300\nseed = 4\n'
                            '[variants.dear]\nsettings = { inn_cost = 5 }\n'
                            '[variants.cheap]\nsettings = { inn_cost = 1 }\n')
    whole = run_experiment(load_experiment(path), tmp_path / "whole")
    from simulator import experiment as module
    real_run, calls = module.batch.run, []

    def interrupted(*args, **kwargs):  # Ctrl-C while the second configuration plays
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_run(*args, **kwargs)
    monkeypatch.setattr(module.batch, "run", interrupted)
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x")
    assert code == 130 and f"--out {tmp_path / 'x'} --resume" in err
    monkeypatch.setattr(module.batch, "run", real_run)
    code, _, err = playtest("report", tmp_path / "x")
    assert code == 2 and "unfinished experiment" in err and "--resume" in err
    # the first configuration as a SIGKILL before its manifest leaves it: finished, not replayed
    folders = [c["folder"] for c in load_plan(whole)["configurations"]]
    (tmp_path / "x" / folders[0] / "manifest.json").unlink()
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x", "--resume")
    assert code == 0, err
    for folder in folders:
        assert _part_bytes(tmp_path / "x" / folder) == _part_bytes(whole / folder)
    assert (tmp_path / "x" / "comparison" / "comparison.html").is_file()
    other = _write(tmp_path, '[experiment]\ngame = "gremios"\ngames = 200\n')
    code, _, err = playtest("experiment", other, "--out", tmp_path / "x", "--resume")
    assert code == 2 and "another experiment file" in err


@pytest.mark.parametrize("value", ["0.7", "0", "nan"])
def test_a_bad_precision_on_the_command_line_is_one_line_and_writes_nothing(tmp_path, playtest, value):
    path = _write(tmp_path, '[experiment]\ngame = "gremios"\ngames = 200\n')
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x", "--precision", value)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"--precision {float(value)!r}" in err and "between 0 and 0.5" in err
    assert not (tmp_path / "x").exists()


def test_an_experiment_folder_is_resumed_only_with_the_same_options(tmp_path, playtest):
    path = _write(tmp_path, '[experiment]\ngame = "gremios"\ngames = 100\n'
                            '[variants.v]\nsettings = { inn_cost = 5 }\n')
    assert playtest("experiment", path, "--out", tmp_path / "x")[0] == 0
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x", "--resume", "--games", 150)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "the experiment was started with games = 100, not 150" in err
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x")
    assert code == 2 and "holds an experiment already; add --resume" in err
    code, _, err = playtest("experiment", path, "--out", tmp_path / "new", "--resume")
    assert code == 2 and "holds no experiment to go on with" in err
    assert not (tmp_path / "new").exists()
