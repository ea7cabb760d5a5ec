"""The command line: every bad input is one line, exit code 2, and nothing written."""

import json
import os
import stat

import pytest



BAD = [
    (["run", "monopoly"], "unknown game 'monopoly'"),
    (["run", "gremios", "--strategies", "greedy,cheater"], "unknown strategy 'cheater'"),
    (["run", "gremios", "--roles", "pirate,wizard,any,any"], "unknown role 'wizard'"),
    (["run", "gremios", "--roles", "pirate,pirate,any,any"], "pirate is given to two seats"),
    (["run", "gremios", "--roles", "pirate,any"], "one entry per seat"),
    (["run", "gremios", "--mode", "coop"], "unknown mode 'coop'"),
    (["run", "gremios", "--set", "bogus=1"], "unknown parameter 'bogus'"),
    (["run", "gremios", "--set", "inn_cost=99"], "inn_cost must be an integer from 0 to 30"),
    (["run", "gremios", "--set", "inn_cost=cheap"], "not an integer"),
    (["run", "gremios", "--set", "tax_rounding=sideways"], "one of up, down"),
    (["run", "gremios", "--set", "inn_cost"], "expected KEY=VALUE"),
    (["run", "gremios", "--players", "5"], "is played by 2, 3, 4 players"),
    (["run", "gremios", "--mode", "ultimate_duel", "--players", "4"], "is played by 2 players"),
    (["run", "gremios", "--games", "0"], "--games 0"),
    (["run", "gremios", "--threads", "0"], "--threads 0"),
    (["run", "gremios", "--players", "two"], "'two' is not a valid integer"),
    (["run", "gremios", "--no-such-option"], "No such option"),
    (["replay", "gremios", "--game-index", "-1"], "--game-index -1"),
    (["games", "chess"], "unknown game 'chess'"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_line_exit_2_nothing_written(playtest, tmp_path, args, message):
    out_dir = tmp_path / "out"
    if args[0] == "run":
        args = args + ["--out", out_dir, "--games" if "--games" not in args else "--seed", 10]
    code, out, err = playtest(*args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
    assert not out_dir.exists()


def test_unwritable_output_folder(playtest, tmp_path):
    if os.geteuid() == 0:
        target = "/proc/playtest-run"  # root may write anywhere else
    else:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
        target = locked / "run"
    code, _, err = playtest("run", "gremios", "--games", 10, "--out", target)
    assert code == 2 and "cannot create the folder" in err and len(err.strip().splitlines()) == 1


def test_non_empty_output_folder_is_refused(playtest, tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    code, _, err = playtest("run", "gremios", "--games", 10, "--out", tmp_path)
    assert code == 2 and "not empty" in err
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_an_option_given_twice_adds_to_it_rather_than_replacing_it(playtest, tmp_path):
    """`-s a -s b` is `-s a,b` (click keeps only the last by default: a tuned player given
    first would silently not play)."""
    code, _, err = playtest("run", "gremios", "-n", 10, "-s", "balanced", "-s", "greedy",
                            "--roles", "pirate,any", "--roles", "any,any", "--out", tmp_path / "r")
    assert code == 0, err
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["strategies"] == ["balanced", "greedy"]
    assert manifest["roles"] == ["pirate", "any", "any", "any"]
    (tmp_path / "t.json").write_text('{"game": "grimoire"}')
    code, _, err = playtest("run", "gremios", "-n", 10, "-s", f"tuned:{tmp_path / 't.json'}",
                            "-s", "greedy", "--out", tmp_path / "r2")
    assert code == 2 and "not a tuned-weights file" in err and not (tmp_path / "r2").exists()


def test_run_writes_a_complete_dataset(playtest, tmp_path):
    out = tmp_path / "run"
    code, stdout, err = playtest("run", "gremios", "-p", 3, "-n", 500, "--seed", 4,
                                 "--set", "victory_points_to_win=12", "--out", out)
    assert code == 0, err
    assert "strategy" in stdout and str(out) in stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["n_games"] == 500 and manifest["n_players"] == 3 and manifest["seed"] == 4
    params = {p["name"]: p for p in manifest["parameters"]}
    assert params["victory_points_to_win"]["value"] == 12 and params["victory_points_to_win"]["overridden"]
    assert not params["inn_cost"]["overridden"]
    for key in ("git_commit", "numba_version", "package_version", "wall_time_s", "games_per_second",
                "seat_assignment", "rules_version", "mode", "strategies"):
        assert key in manifest
    assert not list(out.rglob("*.tmp"))


def test_games_lists_everything(playtest):
    code, out, _ = playtest("games")
    assert code == 0
    for text in ("gremios", "ultimate_duel", "pirate", "guild_baron", "inn_cost", "assumption"):
        assert text in out


@pytest.mark.parametrize("game,name,starred", [("gnomeland", "covered_warehouse", True),
                                               ("elgrande", "black_caballeros_per_region", True),
                                               ("elgrande", "all_out_takes_black", True),
                                               ("elgrande", "transport_cards", True),
                                               ("gremios", "inn_cost", False)])
def test_games_stars_every_assumption_wherever_its_source_names_it(playtest, game, name, starred):
    """A source that reads a rulebook passage and then says "Assumption: ..." is starred too."""
    code, out, _ = playtest("games", game)
    line = next(l for l in out.splitlines() if l.strip().lstrip("*").startswith(name + " "))
    assert code == 0 and line.lstrip().startswith("*") == starred


def test_replay_text_and_jsonl(playtest):
    code, text, _ = playtest("replay", "gremios", "--seed", 3, "-i", 2)
    assert code == 0 and "Turn 1" in text and "Game over" in text
    code, lines, _ = playtest("replay", "gremios", "--seed", 3, "-i", 2,
                              "--format", "jsonl")
    events = [json.loads(line) for line in lines.splitlines()]
    assert code == 0 and events[-1]["kind"] == "game_end"
    assert [e["text"] for e in events] == text.splitlines()


def test_a_value_of_the_wrong_kind_from_python_is_the_same_one_line_error():
    from simulator.core.config import make_config
    from simulator.core.errors import UsageError
    with pytest.raises(UsageError, match="unknown mode '11' of gremios"):
        make_config("gremios", 4, 11)
