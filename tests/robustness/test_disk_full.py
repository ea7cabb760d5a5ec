"""A run that fills a real, size-limited file system (a tmpfs mounted for the test): one clear
error, nothing that looks complete, and ``--resume`` finishes it, once there is room, with the
bytes of an uninterrupted run. (test_robustness.py simulates the same fault where mounting is
not allowed.)"""

import subprocess

import pytest

from simulator.core import batch, dataset
from simulator.core.config import make_config
from simulator.core.errors import UsageError


@pytest.fixture
def small_disk(tmp_path):
    """A 400 KiB tmpfs: room for the run's plan and two of the four parts of a 2,000-game run."""
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(where)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root); test_robustness.py "
                    "simulates the full disk")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_disk_stops_the_run_cleanly_and_resume_finishes_it(small_disk, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setattr(batch, "GAMES_PER_PART", 500)  # four parts of about 150 KiB
    config = make_config("gremios", 4, seed=12)
    out = small_disk / "run"
    with pytest.raises(UsageError) as error:
        batch.run(config, 2000, out, threads=1, progress=False)
    message = str(error.value)
    assert "\n" not in message and "No space left on device" in message
    assert f"playtest run --resume {out}" in message
    assert not (out / "manifest.json").exists()
    for table in ("seats", "games"):  # only whole parts under their own names, nothing half-named
        assert all(p.suffix == ".parquet" for p in (out / table).iterdir())
    assert 1 <= len(list((out / "games").iterdir())) < 4  # the disk filled part-way
    subprocess.run(["mount", "-o", "remount,size=4m", str(small_disk)], check=True)
    batch.resume(out, threads=1, progress=False)
    reference = batch.run(config, 2000, tmp_path / "reference", threads=1, progress=False)
    assert dataset.verify(out) == []
    assert _table_bytes(out) == _table_bytes(reference)


def _table_bytes(path):
    return {str(p.relative_to(path)): p.read_bytes()
            for table in ("seats", "games") for p in sorted((path / table).glob("*.parquet"))}
