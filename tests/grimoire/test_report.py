"""The generic balance report on Grimoire: no roles, turn order that changes from game to game."""

import json

from simulator import api


def test_report_covers_grimoire(tmp_path, playtest):
    run = api.run("grimoire", players=5, games=2000, seed=2, out=tmp_path / "run", progress=False)
    code, out, err = playtest("report", run)
    assert code == 0, err
    summary = json.loads((run / "report" / "summary.json").read_text())
    assert summary["roles"] is None  # no roles: the section says so instead of a chart
    assert not summary["first_player_is_seat_0"] and summary["turn_order"]
    assert set(summary["charts"]) >= {"seat_effect", "turn_order", "strategy_strength",
                                      "points_by_strategy", "game_length"}
    sources = summary["sources"]["point_sources"]
    assert sources and all(name in json.dumps(sources) for name in
                           api.load(run).manifest["columns"]["point_sources"])
    for chart in (run / "report" / "charts").glob("*.png"):
        assert chart.stat().st_size > 1000
