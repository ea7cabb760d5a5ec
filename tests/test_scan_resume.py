"""Nothing lost: an interrupted sensitivity scan, balance search or tournament goes on with
--resume, to the bytes of an uninterrupted one; Ctrl-C prints the command that does it."""

import json
import shlex

import pytest

from simulator.core import batch

SCAN = ["sensitivity", "gremios", "-p", "2", "-n", "100", "--params",
        "victory_points_to_win,tax_rounding", "--steps", "0", "--near", "1", "-q"]
TOURNAMENT = ["tournament", "gremios", "-p", "2", "--strategies", "greedy,balanced", "-n", "200"]


def _interrupt_run(monkeypatch, at: int):
    """Ctrl-C as the ``at``-th run starts playing (its run.json written, no part yet)."""
    real, calls = batch._play, []

    def play(*args, **kwargs):
        calls.append(1)
        if len(calls) == at:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(batch, "_play", play)
    return lambda: monkeypatch.setattr(batch, "_play", real)


def _resume_words(err: str) -> list[str]:
    """The command the interruption message gives, as arguments of ``playtest``."""
    assert err.count("\n") == 1 and "what was played is kept: go on with " in err
    words = shlex.split(err.split("go on with ", 1)[1])
    assert words[0] == "playtest" and words[-1] == "--resume"
    return words[1:]


def _files(folder, pattern):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob(pattern))}


def test_an_interrupted_scan_resumes_to_the_uninterrupted_bytes(tmp_path, playtest, monkeypatch):
    code, _, err = playtest(*SCAN, "--out", tmp_path / "whole")
    assert code == 0, err
    restore = _interrupt_run(monkeypatch, 4)  # the baseline and two points finished
    code, _, err = playtest(*SCAN, "--out", tmp_path / "x")
    assert code == 130
    words = _resume_words(err)
    assert words[words.index("--out") + 1] == str(tmp_path / "x")
    runs = tmp_path / "x" / "runs"
    finished = [f for f in runs.iterdir() if (f / "manifest.json").is_file()]
    unfinished = [f for f in runs.iterdir() if not (f / "manifest.json").is_file()]
    assert len(finished) == 3 and len(unfinished) == 1 and (unfinished[0] / "run.json").is_file()
    kept = {f.name: (f / "manifest.json").read_bytes() for f in finished}
    restore()
    code, _, err = playtest(*words)
    assert code == 0, err
    # the finished configurations were kept, not played again; the unfinished one was finished
    assert {name: (runs / name / "manifest.json").read_bytes() for name in kept} == kept
    assert _files(runs, "*.parquet") == _files(tmp_path / "whole" / "runs", "*.parquet")
    for name in ("sensitivity.md", "sensitivity.html", "tornado.png"):
        assert (tmp_path / "x" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    whole, resumed = (json.loads((f / "sensitivity.json").read_text()) for f in (tmp_path / "whole", tmp_path / "x"))
    assert {k: v for k, v in whole.items() if k != "created"} == {k: v for k, v in resumed.items() if k != "created"}


def _one_line_error(playtest, *args, says: str):
    code, out, err = playtest(*args)
    assert code == 2 and out == ""
    assert err.startswith("playtest: error: ") and err.count("\n") == 1 and says in err, err


def test_bad_resume_usage_is_a_one_line_error(tmp_path, playtest):
    small = ["sensitivity", "gremios", "-p", "2", "-n", "40", "--params", "tax_rounding", "-q"]
    _one_line_error(playtest, *small, "--resume", says="--resume: give the --out folder of the scan")
    _one_line_error(playtest, *small, "--out", tmp_path / "new", "--resume",
                    says="holds no sensitivity scan to go on with")
    assert not (tmp_path / "new").exists()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    _one_line_error(playtest, *small, "--out", tmp_path / "other", "--resume",
                    says="holds no sensitivity scan")
    _one_line_error(playtest, *small, "--out", tmp_path / "other",
                    says="folder is not empty and holds no sensitivity scan")
    code, _, err = playtest(*small, "--out", tmp_path / "s")
    assert code == 0, err
    _one_line_error(playtest, *small, "--out", tmp_path / "s",
                    says="holds a sensitivity scan already; add --resume")
    _one_line_error(playtest, *small[:-2], "tax_rounding,inn_cost", "-q", "--out", tmp_path / "s",
                    "--resume", says="started with params = ['tax_rounding'], not ['tax_rounding', 'inn_cost']")
    _one_line_error(playtest, *TOURNAMENT, "--out", tmp_path / "s", "--resume",
                    says="holds no tournament to go on with")


def test_an_interrupted_tournament_resumes_to_the_uninterrupted_ratings(tmp_path, playtest, monkeypatch):
    code, _, err = playtest(*TOURNAMENT, "--out", tmp_path / "whole")
    assert code == 0, err
    restore = _interrupt_run(monkeypatch, 1)
    code, _, err = playtest(*TOURNAMENT, "--out", tmp_path / "x")
    assert code == 130 and not (tmp_path / "x" / "run" / "manifest.json").exists()
    words = _resume_words(err)
    restore()
    _one_line_error(playtest, *TOURNAMENT, "--out", tmp_path / "x",
                    says="holds a tournament already; add --resume")
    _one_line_error(playtest, *TOURNAMENT[:-1], "300", "--out", tmp_path / "x", "--resume",
                    says="started with games = 200, not 300")
    code, out, err = playtest(*words)
    assert code == 0, err
    assert _files(tmp_path / "x" / "run", "*.parquet") == _files(tmp_path / "whole" / "run", "*.parquet")
    for name in ("tournament.json", "tournament.md", "tournament.png"):
        assert (tmp_path / "x" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name


def test_an_interrupted_balance_search_prints_the_command_that_goes_on(tmp_path, playtest, monkeypatch):
    from simulator import balance
    args = ["balance", "gremios", "-p", "4", "-n", "120", "--budget", "3", "--candidates", "2",
            "--proposals", "1", "--verify-games", "60", "--params", "tax_rounding,inn_income",
            "-q", "--out", tmp_path / "b"]
    real, calls = balance.Evaluator.play, []

    def play(self, *a, **k):  # Ctrl-C in the search, after the baseline and the screen
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(self, *a, **k)
    monkeypatch.setattr(balance.Evaluator, "play", play)
    code, _, err = playtest(*args)
    assert code == 130
    words = _resume_words(err)
    monkeypatch.setattr(balance.Evaluator, "play", real)
    code, out, err = playtest(*words)
    assert code == 0, err
    result = json.loads((tmp_path / "b" / "balance.json").read_text())
    assert result["trials"]["total"] == 3 and (tmp_path / "b" / "balance.html").is_file()
    # the interrupted candidate was tried again: the budget's three were all played
    import optuna
    study = optuna.load_study(study_name="balance", storage=optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(str(tmp_path / "b" / "study.journal"))))
    states = [t.state.name for t in study.trials]
    assert states.count("FAIL") == 1 and len(states) - 1 == 3


KINDS = {  # what each command writes: its words, what it is, its page, and where Ctrl-C hits
    "sensitivity": (["sensitivity", "gremios", "-p", "2", "-n", "40", "--params", "tax_rounding",
                     "-q"], "sensitivity scan", "sensitivity.html", "batch"),
    "balance": (["balance", "gremios", "-p", "4", "-n", "120", "--budget", "1", "--candidates", "1",
                 "--proposals", "1", "--verify-games", "30", "--params", "tax_rounding,inn_income",
                 "-q"], "balance search", "balance.html", "balance"),
    "tournament": (TOURNAMENT[:-1] + ["100"], "tournament", "tournament.md", "batch"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_report_on_a_scan_balance_or_tournament_folder_says_what_it_is(tmp_path, playtest,
                                                                       monkeypatch, kind):
    from simulator import api, balance
    from simulator.core.errors import UsageError
    args, what, page, hit = KINDS[kind]
    out = tmp_path / kind
    if hit == "balance":
        monkeypatch.setattr(balance.Evaluator, "play", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    else:
        _interrupt_run(monkeypatch, 1)
    assert playtest(*args, "--out", out)[0] == 130
    monkeypatch.undo()
    code, _, err = playtest("report", out)
    assert code == 2 and err.count("\n") == 1, err
    assert f"it is an unfinished {what}: go on with playtest {kind} gremios" in err
    words = shlex.split(err.split("go on with ", 1)[1])
    assert words[-3:] == ["--out", str(out), "--resume"]
    code, _, err = playtest(*words[1:])  # the command it names goes on with the same options
    assert code == 0, err
    for command in (["report", out], ["compare", out, out, "--out", tmp_path / "c"]):
        code, _, err = playtest(*command)
        assert code == 2 and err.count("\n") == 1, err
        assert f"it is a {what} folder: its page is {out / page}, " in err
    if kind == "sensitivity":
        assert f"its runs are the sub-folders of {out / 'runs'} (baseline, " in err
    elif kind == "tournament":
        assert f"its games are the run {out / 'run'}" in err
    elif (out / "verify").is_dir():
        assert f"its runs are the sub-folders of {out / 'verify'} (baseline, " in err
    else:
        assert "it kept no runs" in err
    with pytest.raises(UsageError, match=f"it is a {what} folder"):
        api.load(out)
    assert not (tmp_path / "c").exists()
