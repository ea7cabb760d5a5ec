"""The benchmark runs and writes its JSON (a smoke test: timings belong in docs, not asserts)."""

import json
import sys

from simulator import cli


def test_bench_quick_writes_every_figure(tmp_path, monkeypatch, capsys):
    out = tmp_path / "bench.json"
    monkeypatch.setattr(sys, "argv", ["playtest", "bench", "gremios", "--quick", "--out", str(out)])
    cli.entry()
    report = json.loads(out.read_text())
    (result,) = report["results"]
    for key in ("engine_games_per_s_1_thread", "thread_scaling", "run_end_to_end_s",
                "run_peak_memory_mib", "first_call_empty_cache_s", "first_game_warm_cache_s",
                "interpreted_games_per_s", "compiled_vs_interpreted"):
        assert {"median", "min", "max", "runs"} <= set(result[key]), key
        assert result[key]["median"] > 0
    assert "compiled_vs_interpreted" in capsys.readouterr().out
