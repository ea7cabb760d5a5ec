"""Shared fixtures: small real runs, made once per test session, and the command line."""

import sys

import pytest

from simulator import api, cli


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
