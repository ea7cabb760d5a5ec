"""The Python API covers what a designer does in a notebook: runs, intervals, comparisons,
reports, experiments, scans and balance searches, with the command line's one-line errors."""

import json

import pytest

from simulator import api
from simulator.core.errors import UsageError


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("api")
    base = api.run("gremios", players=4, games=1500, seed=2, out=root / "base", progress=False)
    tweak = api.run("gremios", players=4, games=1500, seed=2, out=root / "tweak", progress=False,
                    settings={"archbishop_coins": 4})
    return base, tweak


def test_win_rates_come_with_wilson_intervals(two_runs):
    rates = api.win_rates(two_runs[0])
    assert set(rates["group"].unique()) == {"seat", "strategy", "role"}
    assert ((rates["low"] <= rates["rate"]) & (rates["rate"] <= rates["high"])).all()
    seats = rates.filter(rates["group"] == "seat")
    assert seats["rate"].sum() == pytest.approx(1.0)


def test_compare_gives_the_commands_rows(two_runs):
    rows = api.compare(*two_runs, min_effect=1)
    arch = next(r for r in rows if r["metric"] == "win_rate" and r["label"] == "archbishop")
    assert arch["detected"] and arch["method"] == "paired" and arch["low"] > 0
    assert all({"p", "p_adjusted", "level", "equivalent"} <= set(r) for r in rows)
    with pytest.raises(UsageError, match="--min-effect -2: must be a positive number"):
        api.compare(*two_runs, min_effect=-2)


def test_report_and_experiment_write_their_folders(two_runs, tmp_path):
    report = api.report(two_runs[0], tmp_path / "report")
    assert (report / "report.html").is_file()
    file = tmp_path / "e.toml"
    file.write_text('[experiment]\ngame = "gremios"\ngames = 300\n'
                    '[variants.dear_inns]\nsettings = { inn_cost = 5 }\n')
    out = api.experiment(file, tmp_path / "x", min_effect=2)
    summary = json.loads((out / "comparison" / "comparison.json").read_text())
    assert summary["min_effect_points"] == 2 and len(summary["comparisons"]) == 1


def test_scans_refuse_an_unknown_option_in_one_line(tmp_path):
    with pytest.raises(UsageError) as e:
        api.sensitivity("gremios", tmp_path / "s", gamez=10)
    assert "unknown option 'gamez'" in str(e.value) and "games" in str(e.value)
    assert "\n" not in str(e.value)
    with pytest.raises(UsageError, match="unknown option 'budgett'"):
        api.balance("gremios", tmp_path / "b", budgett=3)


def test_sensitivity_from_python(tmp_path):
    out = api.sensitivity("gremios", tmp_path / "s", progress=False, players=2, games=200,
                          params=["inn_cost"], steps=1)
    assert (out / "sensitivity.json").is_file()
