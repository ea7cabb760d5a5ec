"""Verdicts under several sets of players: side by side, flagged when they do not hold."""

import json

import pytest

from reports.verdicts import FAIR, STRONG, WEAK, PlayerSet, _flags, compare_verdicts
from simulator import api
from simulator.core.errors import UsageError


def cell(rate, low, high, verdict):
    return {"win_rate": rate, "low": low, "high": high, "verdict": verdict}


SETS = [PlayerSet("weak", None), PlayerSet("strong", None)]


@pytest.mark.parametrize("first, then, kind", [
    (cell(0.40, 0.38, 0.42, STRONG), cell(0.20, 0.18, 0.22, WEAK), "changes sign"),
    (cell(0.40, 0.38, 0.42, STRONG), cell(0.26, 0.23, 0.29, FAIR), "loses significance: the effect shrank"),
    (cell(0.40, 0.38, 0.42, STRONG), cell(0.30, 0.20, 0.41, FAIR),
     "loses significance: too few games to confirm it"),
    (cell(0.25, 0.23, 0.27, FAIR), cell(0.20, 0.18, 0.22, WEAK), "becomes significant"),
])
def test_a_verdict_that_does_not_hold_is_flagged_with_its_kind(first, then, kind):
    flags = _flags("role", "pirate", "pirate", SETS, [first, then])
    assert [f["kind"] for f in flags] == [kind]


def test_a_verdict_that_holds_is_not_flagged():
    assert _flags("role", "pirate", "pirate", SETS, [cell(0.4, 0.38, 0.42, STRONG),
                                                     cell(0.35, 0.3, 0.4, STRONG)]) == []


@pytest.fixture(scope="module")
def three_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("verdicts")
    runs = {}
    for name, strategies in (("default", None), ("barons", ["guild_baron"]),
                             ("mixed", ["greedy", "balanced", "inn_builder"])):
        runs[name] = api.run("gremios", players=3, games=1500, seed=2, strategies=strategies,
                             out=base / name, progress=False)
    return runs


def test_the_report_of_several_runs_puts_every_verdict_side_by_side(three_runs, playtest, tmp_path):
    code, out, err = playtest("report", three_runs["default"], three_runs["barons"],
                              three_runs["mixed"], "--labels", "default,barons,mixed",
                              "--out", tmp_path / "v")
    assert code == 0, err
    result = json.loads((tmp_path / "v" / "verdicts.json").read_text())
    assert [p["label"] for p in result["player_sets"]] == ["default", "barons", "mixed"]
    roles = {r["label"]: r for r in result["families"]["role"]}
    assert len(roles) == 12 and all(len(r["cells"]) == 3 for r in roles.values())
    # every flag is backed by the cells: the reference verdict and the later one differ
    for f in result["flags"]:
        row = next(r for r in result["families"][f["family"]] if r["label"] == f["label"])
        first = row["cells"][0]["verdict"]
        then = row["cells"][[p["label"] for p in result["player_sets"]].index(f["under"])]["verdict"]
        assert first == f["first"] and then == f["then"] and first != then
    # a table of one strategy has no strategy verdict
    strategies = {r["label"]: r for r in result["families"]["strategy"]}
    assert all(r["cells"][1] is None for r in strategies.values())
    for name in ("verdicts.html", "verdicts.md", "charts/role.png", "charts/seat.png"):
        assert (tmp_path / "v" / name).stat().st_size > 0
    headings = [line for line in (tmp_path / "v" / "verdicts.md").read_text().splitlines()
                if line.startswith("## ")]
    assert {"## Seats", "## Roles", "## Strategies"} <= set(headings)


def test_runs_of_other_rules_or_player_counts_are_refused(three_runs, tmp_path):
    other = api.run("gremios", players=3, games=50, seed=2, settings={"inn_cost": 7},
                    out=tmp_path / "other", progress=False)
    with pytest.raises(UsageError, match="other rules"):
        compare_verdicts([PlayerSet("a", three_runs["default"]), PlayerSet("b", other)])
    four = api.run("gremios", players=4, games=50, seed=2, out=tmp_path / "four", progress=False)
    with pytest.raises(UsageError, match="player count"):
        compare_verdicts([PlayerSet("a", three_runs["default"]), PlayerSet("b", four)])


def test_labels_must_match_the_runs(three_runs, playtest, tmp_path):
    code, out, err = playtest("report", three_runs["default"], three_runs["barons"],
                              "--labels", "only_one", "--out", tmp_path / "v")
    assert code == 2 and "--labels" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "v").exists()
