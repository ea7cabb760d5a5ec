"""What every game's learnt expert holds, written once for the games' tests/GAME/test_expert.py:
it plays the weights it ships with, and no other player holds them but those that read them."""

import json

import numpy as np

from simulator.core.config import make_config
from simulator.core.expert import SHIPPED, expert_weight_names


def assert_plays_the_weights_it_ships_with(game: str, players, readers=(),
                                           readers_file: str | None = None) -> None:
    """``readers``: the other strategies that value options by an expert's weights (El
    Grande's quick players): they hold the same ones, or those of ``readers_file``."""
    shipped = json.loads((SHIPPED / f"{game}.json").read_text())
    assert shipped["game"] == game and shipped["strategy"] == "expert"
    values = slice(players.W_FIRST_VALUE, players.W_FIRST_VALUE + players.N_FEATURES)
    names = expert_weight_names(players.FEATURE_NAMES)
    assert players.WEIGHT_NAMES[values] == names
    row = players.DEFAULT_WEIGHTS[players.EXPERT]
    assert list(row[values]) == [shipped["weights"][n] for n in names]
    assert np.any(row[values] != 0)
    held = row[values]
    if readers_file is not None:
        held = [json.loads((SHIPPED / f"{readers_file}.json").read_text())["weights"][n]
                for n in names]
    for reader in readers:
        assert list(players.DEFAULT_WEIGHTS[reader][values]) == list(held)
    others = np.delete(players.DEFAULT_WEIGHTS, [players.EXPERT, *readers], axis=0)
    assert not others[:, values].any()
    # an expert calibrated at each table plays there the weights its calibration recorded
    by_players = shipped.get("weights_by_players", {})
    calibrated = shipped.get("distilled", {}).get("calibration", {}).get("tables", {})
    assert sorted(by_players) == sorted(calibrated)
    for count, weights in by_players.items():
        table = [weights[n] for n in players.WEIGHT_NAMES]
        config = make_config(game, int(count), None, ["expert"])
        assert config.weights[0].tolist() == table
        assert [weights[n] for n in names] == [calibrated[count]["weights"][n] for n in names]
        assert table != row.tolist() or int(count) == min(map(int, by_players))
