"""A tweak judged under each set of players, and each set's own game count or precision."""

import json
import math

import pytest
from scipy.stats import norm

from reports.compare import Change, holm_correct
from reports.verdicts import LOWERED, NO_CHANGE, RAISED, compare_effects, effect_text
from simulator import api
from simulator.experiment import load_experiment, load_plan, run_experiment

SETS = ["default", "balanced"]


def effect(delta, se, group="role", label="governor", metric="win_rate"):
    """One row's change with a normal p-value, its interval and verdict at 95% (one row)."""
    c = Change(metric, group, label, 0.3, 0.3 + delta, delta, math.nan, math.nan, 4000, "paired",
               p=float(2 * norm.sf(abs(delta) / se)), se=se)
    holm_correct([c], 0.95)
    return c


def test_an_effect_that_holds_under_every_set_is_not_flagged():
    result = compare_effects(SETS, [[effect(-0.046, 0.0036)], [effect(-0.030, 0.006)]],
                             [False, False])
    (row,) = result["rows"]
    assert [c["verdict"] for c in row["cells"]] == [LOWERED, LOWERED]
    assert result["flags"] == [] and row["flags"] == []


def test_an_effect_that_does_not_hold_under_another_set_is_flagged():
    # -4.6 ± 0.7 under default, +0.3 ± 1.1 under balanced: the interval excludes -4.6
    result = compare_effects(SETS, [[effect(-0.046, 0.0036)], [effect(0.003, 0.0056)]],
                             [False, False])
    (flag,) = result["flags"]
    assert flag["kind"] == "loses significance: the effect shrank"
    assert (flag["first"]["verdict"], flag["then"]["verdict"]) == (LOWERED, NO_CHANGE)
    assert flag["text"] == ("role governor: -4.60 ± 0.71 pts (lowered) under default, "
                            "+0.30 ± 1.10 pts (no detectable change) under balanced: the effect "
                            "does not hold under balanced.")


@pytest.mark.parametrize("first, then, kind", [
    ((-0.046, 0.0036), (0.040, 0.005), "changes sign"),
    ((-0.046, 0.0036), (-0.040, 0.030), "loses significance: too few games to confirm it"),
    ((0.002, 0.004), (0.050, 0.005), "becomes significant"),
])
def test_each_way_an_effect_changes_is_named(first, then, kind):
    result = compare_effects(SETS, [[effect(*first)], [effect(*then)]], [False, False])
    assert [f["kind"] for f in result["flags"]] == [kind]


def test_a_table_of_one_strategy_says_nothing_about_strategies():
    rows = [[effect(0.05, 0.005, "strategy", "balanced")], [effect(0.0, 0.005, "strategy", "balanced")]]
    result = compare_effects(SETS, rows, [False, True])
    assert result["rows"][0]["cells"][1] is None and result["flags"] == []


def test_effect_text_gives_the_interval_and_the_verdict():
    cell = compare_effects(SETS[:1], [[effect(0.031, 0.004)]], [False])["rows"][0]["cells"][0]
    assert cell["verdict"] == RAISED
    half = 100 * norm.ppf(0.975) * 0.004  # one row: a plain 95% normal interval
    assert effect_text(cell, "win_rate") == f"+3.10 ± {half:.2f} pts (raised)"


EXPERIMENT = """
[experiment]
game = "gremios"
players = [3]
games = 2000
seed = 2
confirm_with = "few"
[players.default]
strategies = ["greedy", "guild_baron", "inn_builder", "expedition_gambler", "balanced"]
[players.few]
description = "the same players on a tenth of the games"
strategies = ["greedy", "guild_baron", "inn_builder", "expedition_gambler", "balanced"]
games = 400
[variants.rich_archbishop]
settings = { archbishop_coins = 4 }
"""


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sets")
    path = folder / "e.toml"
    path.write_text(EXPERIMENT)
    return path


def test_each_set_plays_its_own_games_and_the_report_judges_the_tweak_under_each(
        experiment, playtest, tmp_path):
    code, out, err = playtest("experiment", experiment, "--out", tmp_path / "x")
    assert code == 0, err
    plan = load_plan(tmp_path / "x")
    assert [(c["player_set"], c["games"]) for c in plan["configurations"]] == [
        ("default", 2000), ("default", 2000), ("few", 400), ("few", 400)]
    for c in plan["configurations"]:
        assert api.load(tmp_path / "x" / c["folder"]).manifest["n_games"] == c["games"]
    report = tmp_path / "x" / "comparison"
    summary = json.loads((report / "comparison.json").read_text())
    (effects,) = summary["effects_under_player_sets"]
    assert (effects["label"], effects["players"], effects["player_sets"]) == (
        "rich_archbishop", 3, ["default", "few"])
    assert effects["multiple_comparisons"].startswith("holm")
    # each set's effect is its own comparison's row: the same numbers, with its interval
    assert len(summary["comparisons"]) == 2
    for row in effects["rows"]:
        for cell, comparison in zip(row["cells"], summary["comparisons"]):
            same = next(x for x in comparison["changes"] if (x["metric"], x["group"], x["label"])
                        == (row["metric"], row["group"], row["label"]))
            assert cell["delta"] == same["delta"] and cell["low"] == same["low"]
            assert cell["low"] <= cell["delta"] <= cell["high"] and cell["method"] == "paired"
    rows = {(r["group"], r["label"]): r for r in effects["rows"]}
    # the Archbishop's richer income raises its win rate under both sets: it holds
    archbishop = rows["role", "archbishop"]
    assert [c["verdict"] for c in archbishop["cells"]] == [RAISED, RAISED]
    assert archbishop["flags"] == []
    # a tenth of the games cannot confirm the smaller effects the full count shows
    lost = [f for f in effects["flags"] if f["kind"] == "loses significance: too few games to confirm it"]
    assert lost and all(f["under"] == "few" for f in lost)
    for f in effects["flags"]:
        row = rows[f["group"], f["label"]]
        assert f["first"] == row["cells"][0] and f["then"] == row["cells"][1]
        assert f["first"]["verdict"] != f["then"]["verdict"]
    markdown = (report / "comparison.md").read_text()
    assert "## The tweak under each set of players" in markdown
    assert "Holm-corrected over the rows of each set's comparison" in markdown
    assert effect_text(archbishop["cells"][0], "win_rate") in markdown
    assert effect_text(archbishop["cells"][1], "win_rate") in markdown
    assert all(f["text"] in markdown for f in effects["flags"])
    headline = next(line for line in out.splitlines() if line.startswith("- rich_archbishop (3 players) "))
    assert "does not do the same under every set of players" in headline
    # the file names the set that must confirm the first set's effects: the few games cannot
    confirmed = effects["confirmation"]
    assert confirmed["by"] == "few" and not confirmed["holds"]
    assert "role archbishop" in confirmed["confirmed"]
    assert {f["name"] for f in lost} <= set(confirmed["not_confirmed"])
    assert set(confirmed["effects"]) == set(confirmed["confirmed"]) | set(confirmed["not_confirmed"])
    assert confirmed["text"] in headline and headline.count("NOT confirmed by few") == 1
    html = (report / "comparison.html").read_text()
    assert "The tweak under each set of players" in html
    assert (report / "charts" / "effect-3p-rich_archbishop.png").stat().st_size > 0
    # every delta chart is named for its set of players
    assert {p.name for p in (report / "charts").glob("delta-*.png")} == {
        "delta-3p-default-rich_archbishop.png", "delta-3p-few-rich_archbishop.png"}


@pytest.mark.parametrize("value, says", [('"nobody"', "'nobody': name a player set after the first"),
                                         ('"default"', "allowed: few"), ("3", "3: name a player set")])
def test_confirm_with_must_name_a_later_player_set(value, says, tmp_path, playtest):
    path = tmp_path / "e.toml"
    path.write_text(EXPERIMENT.replace('confirm_with = "few"', f"confirm_with = {value}"))
    code, out, err = playtest("experiment", path, "--out", tmp_path / "x")
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err, err
    assert not (tmp_path / "x").exists()


def test_without_player_sets_there_is_no_per_set_section(tmp_path):
    path = tmp_path / "plain.toml"
    path.write_text('[experiment]\ngame = "gremios"\nplayers = [3]\ngames = 300\n'
                    '[variants.v]\nsettings = { inn_cost = 5 }\n')
    from reports.comparison import Entry, build_comparison
    out = run_experiment(load_experiment(path), tmp_path / "x")
    entries = [Entry(c["label"], out / c["folder"]) for c in load_plan(out)["configurations"]]
    report = build_comparison(entries, out / "comparison")
    assert "effects_under_player_sets" not in json.loads((report / "comparison.json").read_text())
    assert "under each set of players" not in (report / "comparison.md").read_text()


def test_a_set_with_its_own_precision_grows_while_the_others_keep_their_count(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[experiment]\ngame = "gremios"\nplayers = [3]\ngames = 300\nmax_games = 1200\n'
                    'seed = 5\n[players.tight]\nstrategies = ["greedy", "balanced"]\nprecision = 0.001\n'
                    '[players.plain]\nstrategies = ["greedy", "balanced"]\ngames = 500\n')
    plan = load_plan(run_experiment(load_experiment(path), tmp_path / "x"))
    assert [(c["player_set"], c["games"], c["precision"]) for c in plan["configurations"]] == [
        ("tight", 1200, 0.001), ("plain", 500, None)]  # the tight set is capped by max_games
    # --games replaces every count of the file; --precision every set's target
    plan = load_plan(run_experiment(load_experiment(path, games=200), tmp_path / "y", precision=0.4))
    assert [(c["games"], c["precision"]) for c in plan["configurations"]] == [(200, 0.4), (200, 0.4)]


def _part_bytes(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


@pytest.mark.parametrize("step, at", [("run", 4), ("extend", 1)],
                         ids=["as the small set's variant starts", "as the grown set grows"])
def test_an_interrupted_experiment_with_per_set_counts_resumes_to_the_uninterrupted_result(
        tmp_path, playtest, monkeypatch, step, at):
    path = tmp_path / "r.toml"
    path.write_text('[experiment]\ngame = "gremios"\nplayers = [3]\ngames = 300\nseed = 4\n'
                    'max_games = 600\n'
                    '[players.grown]\nstrategies = ["greedy", "balanced"]\nprecision = 0.01\n'
                    '[players.small]\nstrategies = ["guild_baron"]\ngames = 150\n'
                    '[variants.dear]\nsettings = { inn_cost = 5 }\n')
    whole = run_experiment(load_experiment(path), tmp_path / "whole")
    counts = [(c["folder"], c["games"]) for c in load_plan(whole)["configurations"]]
    assert [games for _, games in counts] == [600, 600, 150, 150]
    from simulator import experiment as module
    real, calls = getattr(module.batch, step), []

    def interrupted(*args, **kwargs):  # Ctrl-C at the ``at``-th call of batch.run or .extend
        calls.append(1)
        if len(calls) == at:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(module.batch, step, interrupted)
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x")
    assert code == 130 and "--resume" in err
    monkeypatch.setattr(module.batch, step, real)
    code, _, err = playtest("experiment", path, "--out", tmp_path / "x", "--resume")
    assert code == 0, err
    assert [(c["folder"], c["games"]) for c in load_plan(tmp_path / "x")["configurations"]] == counts
    for folder, _ in counts:
        assert _part_bytes(tmp_path / "x" / folder) == _part_bytes(whole / folder)
