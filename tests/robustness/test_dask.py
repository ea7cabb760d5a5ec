"""The Dask backend against a real scheduler and two worker processes started from the command
line on 127.0.0.1: the same bytes as the local backend, and a worker lost mid-run or mid-scan
costs nothing."""

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator import api
from simulator.core import batch

pytest.importorskip("distributed")
DASK = str(Path(sys.executable).with_name("dask"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_worker(address, tmp_path, name):
    log = open(tmp_path / f"{name}.log", "w")
    return subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--nworkers", "1",
                             "--name", name, "--no-dashboard", "--host", "127.0.0.1",
                             "--local-directory", str(tmp_path / name)],
                            stdout=log, stderr=subprocess.STDOUT)


@pytest.fixture()
def cluster(tmp_path):
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    log = open(tmp_path / "scheduler.log", "w")
    scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], stdout=log, stderr=subprocess.STDOUT)
    workers = [_start_worker(address, tmp_path, f"w{i}") for i in range(2)]
    from distributed import Client
    deadline = time.time() + 120
    with Client(address, timeout=60) as client:
        while len(client.scheduler_info()["workers"]) < 2:
            assert time.time() < deadline, (tmp_path / "scheduler.log").read_text()
            time.sleep(0.2)
    yield address, workers, tmp_path
    # The cluster is thrown away with the test: killed, not asked to close (a worker told to close
    # while its scheduler closes waits seconds to reconnect).
    for p in workers + [scheduler]:
        p.kill()
        p.wait()


def _parts_bytes(path):
    return {str(p.relative_to(path)): p.read_bytes()
            for table in ("seats", "games") for p in sorted((path / table).glob("*.parquet"))}


def test_dask_cluster_gives_the_local_bytes_and_survives_a_lost_worker(cluster, monkeypatch):
    address, workers, tmp_path = cluster
    monkeypatch.setattr(batch, "GAMES_PER_PART", 3000)
    games = 10 * 3000
    local = api.run("gremios", games=games, seed=31, out=tmp_path / "local", progress=False)
    on_dask = api.run("gremios", games=games, seed=31, out=tmp_path / "dask", progress=False,
                      backend="dask", scheduler=address)
    assert _parts_bytes(on_dask) == _parts_bytes(local)
    assert api.load(on_dask).manifest["backend"] == "dask"

    # A worker dies while parts are in flight: its tasks are retried on the other one.
    from distributed import Client
    import threading

    def kill_when_busy():
        with Client(address, timeout=30) as client:
            deadline = time.time() + 120
            while time.time() < deadline:
                if any(client.processing().values()):
                    break
                time.sleep(0.05)
        workers[0].send_signal(signal.SIGKILL)

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    survived = api.run("gremios", games=games, seed=31, out=tmp_path / "survived", progress=False,
                       backend="dask", scheduler=address)
    killer.join()
    assert workers[0].poll() is not None  # it really died
    assert _parts_bytes(survived) == _parts_bytes(local)
    assert api.verify(survived) == []


def test_a_sensitivity_scan_loses_a_worker_and_finds_the_same(cluster, tmp_path, monkeypatch):
    """A worker killed while the scan's parts are in flight: its parts are played again on the
    other worker, and every point and every run's bytes are those of the scan played locally."""
    import json
    import threading

    from simulator.sensitivity import SensitivityOptions, sensitivity
    address, workers, _ = cluster
    monkeypatch.setattr(batch, "GAMES_PER_PART", 500)
    o = SensitivityOptions("gremios", players=4, games=3000, metric="turns",
                           params=["victory_points_to_win"], steps=0, near=1)
    local = sensitivity(o, tmp_path / "local", progress=False)
    killed_at = []

    def kill_when_busy():
        from distributed import Client
        with Client(address, timeout=30) as client:
            deadline = time.time() + 120
            while time.time() < deadline and not any(client.processing().values()):
                time.sleep(0.05)
        workers[0].send_signal(signal.SIGKILL)
        killed_at.append(time.time())

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    remote = sensitivity(o, tmp_path / "dask", backend="dask", scheduler=address, progress=False)
    finished_at = time.time()
    killer.join()
    assert workers[0].poll() is not None and killed_at[0] < finished_at  # died mid-scan
    points = [json.loads((p / "sensitivity.json").read_text())["points"] for p in (local, remote)]
    assert points[0] == points[1]
    for folder in (local / "runs").iterdir():
        assert _parts_bytes(folder) == _parts_bytes(remote / "runs" / folder.name)


def test_a_balance_search_loses_a_worker_and_proposes_the_same(cluster, tmp_path, monkeypatch):
    """A worker killed while the search's games are in flight: the screen, the search, the
    proposals and their verification (under the expert too) are those of the search played
    locally."""
    import json
    import threading

    from simulator.balance import BalanceOptions, balance
    address, workers, _ = cluster
    o = BalanceOptions("gremios", goal="roles", players=4, games=240, budget=4, candidates=3,
                       proposals=2, verify_games=300, expert_games=300, search_games=0,
                       params=["tax_threshold", "tax_rounding", "inn_income"])
    local = balance(o, tmp_path / "local", progress=False)
    killed_at = []

    def kill_when_busy():
        from distributed import Client
        with Client(address, timeout=30) as client:
            deadline = time.time() + 120
            while time.time() < deadline and not any(client.processing().values()):
                time.sleep(0.01)
        workers[0].send_signal(signal.SIGKILL)
        killed_at.append(time.time())

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    remote = balance(o, tmp_path / "dask", progress=False, backend="dask", scheduler=address)
    finished_at = time.time()
    killer.join()
    assert workers[0].poll() is not None and killed_at[0] < finished_at  # died mid-search
    found = [json.loads((p / "balance.json").read_text()) for p in (local, remote)]
    for result in found:
        result.pop("created")
    assert found[0] == found[1] and found[0]["proposals"]
    runs = sorted(p.parent for p in (local / "verify").rglob("run.json"))
    assert {r.parent.name for r in runs} == {"verify", "expert"}  # the screening set's, the expert's
    for run in runs:
        assert _parts_bytes(run) == _parts_bytes(remote / run.relative_to(local))
