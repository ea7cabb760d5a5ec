"""Fixtures for the report tests: small real runs (made once) and hand-altered copies of them."""

import json
import shutil

import polars as pl

from simulator.core.dataset import sha256
import pytest

from reports.build import build_report
from simulator import api


@pytest.fixture(scope="session")
def report_dir(small_run, tmp_path_factory):
    """The report of the shared 2,000-game four-player run, built once, where a report goes when
    no destination is given: inside (a copy of) the run."""
    return build_report(_copy_run(small_run, tmp_path_factory.mktemp("reports") / "run"))


@pytest.fixture(scope="session")
def three_player_run(tmp_path_factory):
    """150 three-player games, two strategies, the pirate fixed on seat 0, one rule overridden:
    few games per role pair (so 'too few games' must show), a fixed role (no choice made)."""
    out = tmp_path_factory.mktemp("runs") / "three"
    return api.run("gremios", players=3, games=150, seed=5, out=out, progress=False,
                   strategies=["greedy", "balanced"], roles=["pirate", "any", "any"],
                   settings={"victory_points_to_win": 12})


@pytest.fixture
def copy_run():
    return _copy_run


@pytest.fixture
def rewrite_run():
    return _rewrite_run


def _copy_run(src, dst):
    """A copy of a run folder (to damage or alter without touching the shared one)."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("report"))
    return dst


def _rewrite_run(src, dst, seats_fn=None, manifest_fn=None):
    """A copy of a run whose seat parts are passed through ``seats_fn`` (a polars DataFrame
    function) and whose manifest through ``manifest_fn``."""
    _copy_run(src, dst)
    manifest = json.loads((dst / "manifest.json").read_text())
    if seats_fn is not None:
        for part in manifest["parts"]["seats"]:
            path = dst / "seats" / part["file"]
            seats_fn(pl.read_parquet(path)).write_parquet(path)
            part["sha256"] = sha256(path)  # a sound dataset of another shape, not a damaged one
    if manifest_fn is not None:
        manifest = manifest_fn(manifest)
    (dst / "manifest.json").write_text(json.dumps(manifest))
    return dst
