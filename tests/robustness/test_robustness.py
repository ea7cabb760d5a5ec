"""Nothing lost: interrupted runs resume to the same data, damaged datasets are caught, and
every failure is a clear error rather than a short dataset."""

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator import api
from simulator.core import batch, dataset, folders
from simulator.core.config import make_config
from simulator.core.errors import UsageError

PLAYTEST = str(Path(sys.executable).with_name("playtest"))


def _parts_bytes(path: Path) -> dict:
    return {str(p.relative_to(path)): p.read_bytes()
            for table in ("seats", "games") for p in sorted((path / table).glob("*.parquet"))}


def test_sigkill_mid_run_then_resume_gives_the_uninterrupted_data(tmp_path):
    out = tmp_path / "killed"
    games = batch.GAMES_PER_PART + 20_000  # killed while it plays the second of two parts
    proc = subprocess.Popen([PLAYTEST, "run", "gremios", "-n", str(games), "--seed", "21",
                             "--threads", "1", "--out", str(out), "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 240
    while time.time() < deadline and not list((out / "seats").glob("part-*.parquet")):
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (out / dataset.MANIFEST).exists()
    with pytest.raises(UsageError, match=f"no manifest.json.*unfinished run: finish it with "
                                         f"playtest run --resume {out}"):
        api.load(out)
    with pytest.raises(UsageError, match="no manifest.json"):
        api.verify(out)
    written = len(list((out / "seats").glob("part-*.parquet")))
    assert written == 1
    api.resume(out, progress=False)
    assert api.verify(out) == []
    whole = api.run("gremios", games=games, seed=21, out=tmp_path / "whole", progress=False)
    assert _parts_bytes(out) == _parts_bytes(whole)
    with pytest.raises(UsageError, match="already complete"):
        api.resume(out)


def test_a_second_process_writing_the_same_run_refuses(tmp_path):
    """While one process writes a run, another resuming it (or running into it) stops with a
    one-line error and exit code 2 instead of writing its parts among the first one's."""
    out = tmp_path / "busy"
    first = subprocess.Popen([PLAYTEST, "run", "gremios", "-n", "200000", "--seed", "2",
                              "--threads", "1", "--out", str(out), "-q"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not (out / folders.RUN_PLAN).exists():
            assert first.poll() is None, first.stderr.read().decode()
            time.sleep(0.05)
        for args in (["--resume", str(out)], ["gremios", "-n", "10", "--out", str(out)]):
            second = subprocess.run([PLAYTEST, "run", *args], capture_output=True, text=True)
            assert second.returncode == 2, second.stderr
            assert second.stderr.count("\n") == 1
            assert ("another playtest process is writing this run" in second.stderr
                    or "folder is not empty" in second.stderr), second.stderr
        assert first.poll() is None  # the first run goes on undisturbed
    finally:
        first.kill()
        first.wait()


def test_the_writing_lock_guards_run_resume_and_extend(small, tmp_path):
    busy = tmp_path / "new"
    busy.mkdir()
    with batch.only_writer(busy):
        with pytest.raises(UsageError, match="another playtest process is writing this run"):
            api.run("gremios", players=3, games=10, seed=2, out=busy, progress=False)
    assert list(busy.iterdir()) == []  # nothing written, the lock gone with its holder
    api.run("gremios", players=3, games=10, seed=2, out=busy, progress=False)

    config = make_config("gremios", 3, seed=2)
    manifest = (small / dataset.MANIFEST).read_bytes()
    with batch.only_writer(small):
        with pytest.raises(UsageError, match="another playtest process is writing this run"):
            batch.extend(small, config, 100)
    assert (small / dataset.MANIFEST).read_bytes() == manifest and api.verify(small) == []

    unfinished = tmp_path / "unfinished"
    shutil.copytree(small, unfinished)
    (unfinished / dataset.MANIFEST).unlink()
    with batch.only_writer(unfinished):
        with pytest.raises(UsageError, match="another playtest process is writing this run"):
            api.resume(unfinished, progress=False)
    api.resume(unfinished, progress=False)
    assert api.verify(unfinished) == [] and not (unfinished / batch.WRITING).exists()


@pytest.fixture()
def small(tmp_path):
    return api.run("gremios", players=3, games=1200, seed=2, out=tmp_path / "run", progress=False)


def test_verify_passes_a_sound_dataset(small):
    assert api.verify(small) == []


@pytest.mark.parametrize("damage,expected", [
    ("delete_part", "missing"),
    ("edit_part", "checksum"),
    ("extra_part", "not in the manifest"),
    ("manifest_rows", "rows"),
    ("manifest_games", "rows in the manifest's parts"),
])
def test_verify_catches_damage_and_reports_refuse_it(small, damage, expected):
    manifest = json.loads((small / "manifest.json").read_text())
    part = small / "seats" / "part-00000.parquet"
    if damage == "delete_part":
        part.unlink()
    elif damage == "edit_part":
        data = bytearray(part.read_bytes())
        data[len(data) // 2] ^= 0xFF
        part.write_bytes(bytes(data))
    elif damage == "extra_part":
        (small / "seats" / "part-00099.parquet").write_bytes(part.read_bytes())
    elif damage == "manifest_rows":
        manifest["parts"]["games"][0]["rows"] += 1
    elif damage == "manifest_games":
        manifest["n_games"] += 5
    (small / "manifest.json").write_text(json.dumps(manifest))
    problems = api.verify(small)
    assert any(expected in p for p in problems), problems
    from reports.comparison import Entry, build_comparison
    with pytest.raises(UsageError, match="fails verification"):
        build_comparison([Entry("a", small), Entry("b", small)], small.parent / "cmp")


def test_verify_command_exit_codes(small, monkeypatch, capsys):
    from simulator import cli
    monkeypatch.setattr(sys, "argv", ["playtest", "verify", str(small)])
    cli.entry()
    assert "OK" in capsys.readouterr().out
    (small / "games" / "part-00000.parquet").unlink()
    monkeypatch.setattr(sys, "argv", ["playtest", "verify", str(small)])
    with pytest.raises(SystemExit) as e:
        cli.entry()
    assert e.value.code == 1 and "missing" in capsys.readouterr().err


def test_disk_full_is_a_clear_error_and_resumable(tmp_path, monkeypatch):
    config = make_config("gremios", 2, seed=8)
    real = dataset.pq.write_table
    calls = {"n": 0}

    def full_disk(table, where, **kw):
        calls["n"] += 1
        if calls["n"] == 3:  # the second part's seats
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(table, where, **kw)

    monkeypatch.setattr(batch, "GAMES_PER_PART", 400)
    monkeypatch.setattr(dataset.pq, "write_table", full_disk)
    out = tmp_path / "run"
    with pytest.raises(UsageError, match="No space left on device.*--resume"):
        batch.run(config, 1000, out, progress=False)
    assert not (out / "manifest.json").exists()
    monkeypatch.setattr(dataset.pq, "write_table", real)
    batch.resume(out, progress=False)
    reference = batch.run(config, 1000, tmp_path / "ref", progress=False)
    assert _parts_bytes(out) == _parts_bytes(reference)


def _interrupted_run(tmp_path, monkeypatch, config):
    """A 1,000-game run whose second part failed to write (400 games a part)."""
    real = dataset.pq.write_table
    calls = {"n": 0}

    def failing(table, where, **kw):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(table, where, **kw)

    monkeypatch.setattr(batch, "GAMES_PER_PART", 400)
    monkeypatch.setattr(dataset.pq, "write_table", failing)
    out = tmp_path / "run"
    with pytest.raises(UsageError):
        batch.run(config, 1000, out, progress=False)
    monkeypatch.setattr(dataset.pq, "write_table", real)
    return out


def test_a_commit_that_leaves_the_engine_as_it_was_keeps_a_run_resumable(tmp_path, monkeypatch):
    config = make_config("gremios", 2, seed=8)
    out = _interrupted_run(tmp_path, monkeypatch, config)
    monkeypatch.setattr(batch, "git_commit", lambda: "0" * 40)  # a documentation commit since
    batch.resume(out, progress=False)
    reference = batch.run(config, 1000, tmp_path / "ref", progress=False)
    assert _parts_bytes(out) == _parts_bytes(reference)
    assert json.loads((out / "manifest.json").read_text())["git_commit"] == "0" * 40


def test_a_changed_engine_refuses_to_resume_a_run(tmp_path, monkeypatch):
    config = make_config("gremios", 2, seed=8)
    out = _interrupted_run(tmp_path, monkeypatch, config)
    monkeypatch.setattr(batch, "engine_hash", lambda game: "changed")
    with pytest.raises(UsageError, match="another version of playtest \\(engine_hash differs\\)"):
        batch.resume(out, progress=False)


def test_the_engine_hash_covers_the_rules_and_players_but_not_the_documentation(tmp_path):
    for folder in ("simulator", "strategies", "docs"):
        shutil.copytree(batch.PACKAGE_ROOT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    before = batch.engine_hash("gremios", tmp_path)
    assert before == batch.engine_hash("gremios")
    assert batch.engine_hash("grimoire", tmp_path) != before
    for name, changes in (("docs/guide.md", False), ("simulator/games/gremios/README.md", False),
                          ("simulator/games/grimoire/rules.toml", False),
                          ("simulator/games/gremios/rules.toml", True),
                          ("simulator/games/gremios/spec.py", True), ("strategies/gremios.py", True),
                          ("simulator/core/config.py", True)):
        path = tmp_path / name
        text = path.read_bytes()
        path.write_bytes(text + b"\n")
        assert (batch.engine_hash.__wrapped__("gremios", tmp_path) != before) == changes, name
        path.write_bytes(text)


def test_read_only_output_folder_is_a_clear_error(tmp_path, monkeypatch):
    def read_only(path, data):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(dataset, "atomic_write_bytes", read_only)
    with pytest.raises(UsageError, match="Read-only file system"):
        api.run("gremios", games=10, out=tmp_path / "ro", progress=False)


def test_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    from simulator.core import backends
    monkeypatch.setattr(backends, "CONNECT_TIMEOUT_S", 2)  # the same path as 15 s, sooner
    started = time.time()
    with pytest.raises(UsageError, match="cannot connect"):
        api.run("gremios", games=10, out=tmp_path / "x", backend="dask",
                scheduler="tcp://127.0.0.1:9", progress=False)
    assert time.time() - started < 30
    assert not (tmp_path / "x").exists()
