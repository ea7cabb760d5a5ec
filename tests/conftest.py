"""Shared fixtures: small real runs, made once per test session, and the command line."""

import sys
from pathlib import Path

import pytest

from simulator import api, cli
from simulator.core.game import GAME_NAMES

TESTS = Path(__file__).parent


def pytest_collection_modifyitems(items):
    """Under pytest-xdist (`make test`, ``--dist loadgroup``) a game's own tests share one worker,
    so its kernels compile once rather than on both workers at the same moment; every other file
    keeps its tests on one worker (its module fixtures are made once)."""
    for item in items:
        path = Path(item.path).relative_to(TESTS)
        game = path.parts[0] if len(path.parts) > 1 and path.parts[0] in GAME_NAMES else None
        item.add_marker(pytest.mark.xdist_group(game or path.as_posix()))


@pytest.fixture(scope="session")
def small_run(tmp_path_factory):
    """2,000 four-player Gremios games with the default mix."""
    out = tmp_path_factory.mktemp("runs") / "small"
    return api.run("gremios", players=4, games=2000, seed=7, out=out, progress=False)


@pytest.fixture()
def playtest(monkeypatch, capsys):
    """Run the ``playtest`` command in-process: ``code, out, err = playtest("run", "gremios", ...)``."""
    def invoke(*args):
        monkeypatch.setattr(sys, "argv", ["playtest", *map(str, args)])
        code = 0
        try:
            cli.entry()
        except SystemExit as e:
            code = e.code or 0
        out = capsys.readouterr()
        return code, out.out, out.err
    return invoke
