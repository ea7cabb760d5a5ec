"""Grimoire on the command line: games, run, replay, and every bad input as one line, exit 2."""

import json

import pytest

BAD = [
    (["run", "grimoire", "--roles", "wizard,any,any,any,any"], "grimoire has no roles"),
    (["run", "grimoire", "--players", "6"], "is played by 2, 3, 4, 5 players"),
    (["run", "grimoire", "--players", "1"], "is played by 2, 3, 4, 5 players"),
    (["run", "grimoire", "--strategies", "greedy,hoarder"], "unknown strategy 'hoarder'"),
    (["run", "grimoire", "--mode", "ultimate_duel"], "unknown mode 'ultimate_duel'"),
    (["run", "grimoire", "--set", "wish_cards=11"], "wish_cards must be an integer from 0 to 10"),
    (["run", "grimoire", "--set", "forbidden_charm=maybe"], "one of no, yes"),
    (["run", "grimoire", "--set", "inn_cost=3"], "unknown parameter 'inn_cost'"),
    (["run", "grimoire", "--set", "squire_cards=300"], "squire_cards must be an integer from 0 to 100"),
    (["run", "grimoire", "--set", "squire_cards=100", "--set", "knight_cards=100",
      "--set", "sage_cards=100"], "quest deck would hold"),
    (["run", "grimoire", "--set", "junk_cards=40", "--set", "trinket_cards=40"], "item deck would hold"),
    (["replay", "grimoire", "--players", "6"], "is played by 2, 3, 4, 5 players"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_line_exit_2_nothing_written(playtest, tmp_path, args, message):
    out_dir = tmp_path / "out"
    if args[0] == "run":
        args = args + ["--out", out_dir, "--games", 10]
    code, out, err = playtest(*args)
    assert code == 2, err
    assert message in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert not out_dir.exists()


def test_games_lists_grimoire(playtest):
    code, out, _ = playtest("games", "grimoire")
    assert code == 0
    for text in ("grimoire", "2, 3, 4, 5 players", "spell_timer", "wish_cards", "assumption",
                 "common_spells"):
        assert text in out
    assert "roles:" not in out


def test_run_five_players_and_summary(playtest, tmp_path):
    out = tmp_path / "run"
    code, stdout, err = playtest("run", "grimoire", "-p", 5, "-n", 300,
                                 "--seed", 1, "--set", "wish_cards=2", "--out", out)
    assert code == 0, err
    assert "grimoire" in stdout and "strategy" in stdout and "role " not in stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["n_players"] == 5 and manifest["game"] == "grimoire"
    params = {p["name"]: p for p in manifest["parameters"]}
    assert params["wish_cards"]["value"] == 2 and params["wish_cards"]["overridden"]
    assert manifest["columns"]["point_sources"][0] == "vp_companions"


def test_replay_text_and_jsonl(playtest):
    code, text, _ = playtest("replay", "grimoire", "--seed", 1, "-p", 3)
    assert code == 0 and "Round 1: spell level 6" in text and "Game over" in text
    code, lines, _ = playtest("replay", "grimoire", "--seed", 1, "-p", 3,
                              "--format", "jsonl")
    events = [json.loads(line) for line in lines.splitlines()]
    assert code == 0 and events[-1]["kind"] == "game_end" and len(events[-1]["scores"]) == 3
    assert [e["text"] for e in events] == text.splitlines()
