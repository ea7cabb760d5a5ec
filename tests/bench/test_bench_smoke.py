"""The benchmark runs and writes its JSON (a smoke test: timings belong in docs, not asserts)."""

import json
import sys

import pytest

from simulator import cli
from simulator.bench import against_yardstick, empty_cache_start, table


def test_bench_quick_writes_every_figure(tmp_path, monkeypatch, capsys):
    out = tmp_path / "bench.json"
    monkeypatch.setattr(sys, "argv", ["playtest", "bench", "gremios", "--quick", "--out", str(out)])
    cli.entry()
    report = json.loads(out.read_text())
    (result,) = report["results"]
    for key in ("engine_games_per_s_1_thread", "thread_scaling", "run_end_to_end_s",
                "run_peak_memory_mib", "first_game_warm_cache_s",
                "interpreted_games_per_s", "compiled_vs_interpreted"):
        assert {"median", "min", "max", "runs"} <= set(result[key]), key
        assert result[key]["median"] > 0
    # --quick leaves out the one figure that is a whole compile, and says so in the settings
    assert "first_call_empty_cache_s" not in result
    assert report["settings"]["empty_cache_start"] is False
    assert "compiled_vs_interpreted" in capsys.readouterr().out


@pytest.mark.slow
def test_the_empty_cache_start_compiles_and_plays_a_game():
    assert empty_cache_start("gremios", 4) > 0


def test_each_game_is_set_against_gremios_in_the_same_run():
    fig = lambda m: {"median": m, "min": m, "max": m, "runs": 1}  # noqa: E731
    results = [{"game": "elgrande", "players": 5, "engine_games_per_s_1_thread": fig(50.0),
                "run_end_to_end_s": fig(300.0)},
               {"game": "gremios", "players": 4, "engine_games_per_s_1_thread": fig(1000.0),
                "run_end_to_end_s": fig(30.0)}]
    against_yardstick(results)
    assert results[0]["ratio_to_gremios"] == {"engine_games_per_s_1_thread": 0.05,
                                              "run_end_to_end_s": 10.0}
    assert "ratio_to_gremios" not in results[1]
    assert "engine_games_per_s_1_thread / gremios" in table(results)
