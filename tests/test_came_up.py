"""How often each rule came up: every game declares the parameters it counts, counts each where
its value can make a difference, and a run's manifest carries the counts."""

import importlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

from simulator.core import batch
from simulator.core.backends import play_part
from simulator.core.config import make_config
from simulator.core.game import GAME_NAMES, get_game

GAMES_DIR = Path(__file__).resolve().parents[1] / "simulator" / "games"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_counted_rule_is_a_parameter_counted_somewhere(name):
    game = get_game(name)
    counted = game.rules_that_come_up
    assert len(set(counted)) == len(counted)
    assert set(counted) <= set(game.rules().params), set(counted) - set(game.rules().params)
    codes = importlib.import_module(f"simulator.games.{name}.codes")
    index_names = {value: key for key, value in vars(codes).items()
                   if key.startswith("UP_") and isinstance(value, int)}
    assert sorted(index_names) == list(range(len(counted)))  # one constant per counted rule
    # every constant reaches a came_up call (directly, or as the rule argument of a helper)
    sources = "\n".join(p.read_text() for p in (GAMES_DIR / name).glob("*.py") if p.name != "codes.py")
    for value, constant in index_names.items():
        assert re.search(rf"\b{constant}\b", sources), \
            f"{name}: {constant} ({counted[value]}) is never counted"


def test_a_part_counts_the_same_in_any_chunks():
    config = make_config("gremios", 4, seed=11)
    *_, whole = play_part(config, 0, 300, 300)
    *_, chunked = play_part(config, 0, 300, 7)
    assert np.array_equal(whole, chunked)
    counted = dict(zip(config.game.rules_that_come_up, whole))
    assert counted["peasant_free_cultivations"] > 0
    assert counted["stowaway_threshold_two_players"] == 0  # four players: the 3-4 player threshold
    assert counted["stowaway_threshold"] > 0


def test_the_manifest_sums_the_parts_counts(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "GAMES_PER_PART", 120)
    config = make_config("gremios", 2, seed=5)
    out = batch.run(config, 300, tmp_path / "run", threads=1, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    *_, direct = play_part(config, 0, 300, 300)
    assert manifest["rules_came_up"] == dict(zip(config.game.rules_that_come_up, map(int, direct)))
    assert manifest["rules_came_up"]["stowaway_threshold_two_players"] > 0
