"""Gnomeland on the command line: games, run, and every bad input as one line, exit 2."""

import json

import pytest

BAD = [
    (["run", "gnomeland", "--roles", "a,any"], "gnomeland has no roles"),
    (["run", "gnomeland", "--players", "5"], "is played by 2, 3, 4 players"),
    (["run", "gnomeland", "--strategies", "greedy,hoarder"], "unknown strategy 'hoarder'"),
    (["run", "gnomeland", "--set", "shop_upgrade_coin=10"], "shop_upgrade_coin must be an integer from 0 to 9"),
    (["run", "gnomeland", "--set", "supply_limited=maybe"], "one of no, yes"),
    (["run", "gnomeland", "--set", "inn_cost=3"], "unknown parameter 'inn_cost'"),
    (["run", "gnomeland", "--set", "action_fortune=0", "--set", "action_favour=0",
      "--set", "action_brawl=0", "--set", "action_magic_challenge=0",
      "--set", "action_two_coins=0"], "Action deck would be empty"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_line_exit_2_nothing_written(playtest, tmp_path, args, message):
    out_dir = tmp_path / "out"
    code, out, err = playtest(*(args + ["--out", out_dir, "--games", 10]))
    assert code == 2, err
    assert message in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert not out_dir.exists()


def test_games_lists_gnomeland(playtest):
    code, out, _ = playtest("games", "gnomeland")
    assert code == 0
    for text in ("gnomeland", "2, 3, 4 players", "mission_hunter", "shop_upgrade_coin",
                 "assumption", "mission_flip", "lookahead"):
        assert text in out, text


def test_run_with_a_setting_and_summary(playtest, tmp_path):
    out = tmp_path / "run"
    code, stdout, err = playtest("run", "gnomeland", "-p", 3, "-n", 200, "--seed", 1,
                                 "--set", "supply_limited=no", "--out", out)
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["n_players"] == 3 and manifest["game"] == "gnomeland"
    params = {p["name"]: p for p in manifest["parameters"]}
    assert params["supply_limited"]["value"] == "no" and params["supply_limited"]["overridden"]
    assert manifest["columns"]["point_sources"][0] == "vp_missions"
    # The report reads Gnomeland unchanged; its gains are coins, mana and weapons, named so.
    code, _, err = playtest("report", out, "--out", tmp_path / "report")
    assert code == 0, err
    charts = {p.stem for p in (tmp_path / "report" / "charts").glob("*.png")}
    assert {"points_by_strategy", "resources_by_strategy"} <= charts, charts
    assert "coins_by_strategy" not in charts
    markdown = (tmp_path / "report" / "report.md").read_text()
    assert "Where the resources come from, per strategy" in markdown
