"""playtest strength: the search player's win rate and speed by budget."""

import json

import pytest


@pytest.mark.parametrize("game", ["gremios", "gemmis", "gnomeland", "elgrande"])
def test_strength_command_writes_a_row_per_budget(playtest, tmp_path, game):
    code, out, err = playtest("strength", game, "--against", "random", "-p", "2",
                              "--rollouts", "1,2", "-n", "20", "--out", tmp_path / "s")
    assert code == 0, err
    result = json.loads((tmp_path / "s" / "strength.json").read_text())
    assert [r["rollouts"] for r in result["rows"]] == [1, 2]
    for r in result["rows"]:
        assert r["low"] <= r["win_rate"] <= r["high"] and r["games_per_second"] > 0
        assert r["seats"] == 20  # one seat in each two-player game
    assert (tmp_path / "s" / "strength.png").stat().st_size > 0


def test_strength_refuses_bad_budgets_and_games_without_search(playtest, tmp_path, monkeypatch):
    import dataclasses

    from simulator.games.grimoire import spec
    # every game has a search player now: one without it, for the message
    monkeypatch.setattr(spec, "GAME", dataclasses.replace(
        spec.GAME, strategies=dataclasses.replace(spec.GAME.strategies, search=None)))
    for args, message in ((["gremios", "-a", "random", "--rollouts", "0"], "at least 1"),
                          (["gremios", "-a", "random", "--rollouts", "x"], "whole numbers"),
                          (["gremios", "-a", "lookahead"], "against a heuristic"),
                          (["grimoire", "-a", "greedy"], "no search player")):
        code, _, err = playtest("strength", *args, "--out", tmp_path / "s")
        assert code == 2 and message in err, err
    assert not (tmp_path / "s").exists()
