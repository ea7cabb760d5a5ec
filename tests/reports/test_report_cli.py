"""``playtest report``: the click command, its terminal summary and its one-line errors."""

import json

import pytest
from click.testing import CliRunner

from reports.cli import report
from simulator import cli
from simulator.core.errors import UsageError


def test_report_command_prints_findings_and_the_path(small_run, tmp_path):
    out = tmp_path / "r"
    result = CliRunner().invoke(report, [str(small_run), "--out", str(out), "--confidence", "0.9"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    lines = result.output.splitlines()
    assert lines[0] == summary["report"]["title"]
    for item in summary["findings"]:
        assert f"  - {item}" in lines
    assert lines[-1] == str(out)
    assert summary["report"]["confidence"] == 0.9


@pytest.mark.parametrize("value", ["0", "1", "1.5", "-0.5"])
def test_confidence_outside_zero_one_is_a_usage_error(small_run, tmp_path, value):
    result = CliRunner().invoke(report, [str(small_run), "--out", str(tmp_path / "r"),
                                         "--confidence", value])
    assert isinstance(result.exception, UsageError)
    assert "--confidence" in str(result.exception) and "\n" not in str(result.exception)
    assert not (tmp_path / "r").exists()


def test_playtest_report_is_wired_into_the_cli(small_run, tmp_path, playtest):
    assert "report" in cli.main.commands, "register it: main.add_command(report) in simulator/cli.py"
    code, out, err = playtest("report", small_run, "--out", tmp_path / "r")
    assert code == 0 and out.splitlines()[-1] == str(tmp_path / "r"), err
    code, out, err = playtest("report", small_run, "--confidence", "2")
    assert code == 2 and err.startswith("playtest: error: --confidence 2") and err.count("\n") == 1
    code, out, err = playtest("report", tmp_path / "nothing-here")
    assert code == 2 and "not a folder" in err and err.count("\n") == 1
