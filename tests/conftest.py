"""Shared fixtures: small real runs, made once per test session."""

import pytest

from simulator import api


@pytest.fixture(scope="session")
def small_run(tmp_path_factory):
    """2,000 four-player Gremios games with the default mix."""
    out = tmp_path_factory.mktemp("runs") / "small"
    return api.run("gremios", players=4, games=2000, seed=7, out=out, progress=False)
