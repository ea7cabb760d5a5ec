"""The benchmark runs and writes its JSON (a smoke test: timings belong in docs, not asserts)."""

import json
import sys

import pytest

from simulator import bench, cli
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


def test_the_determinism_bench_finds_the_same_bytes_on_one_thread_and_two(tmp_path, monkeypatch,
                                                                          capsys):
    out = tmp_path / "determinism.json"
    monkeypatch.setattr(sys, "argv", ["playtest", "bench", "--determinism", "gremios",
                                      "--run-games", "900", "--search-games", "2", "-o", str(out)])
    cli.entry()
    (result,) = json.loads(out.read_text())["results"]
    assert [(run["mix"], run["games"], run["identical"]) for run in result["runs"]] == [
        ("default mix", 900, True), ("search player", 2, True)]
    assert "NO" not in capsys.readouterr().out


def test_the_determinism_bench_fails_when_the_bytes_differ(tmp_path, monkeypatch, capsys):
    digests = iter(str(i) for i in range(4))
    monkeypatch.setattr(bench, "_dataset_digest", lambda path: next(digests))
    monkeypatch.setattr(sys, "argv", ["playtest", "bench", "--determinism", "gremios",
                                      "--run-games", "30", "--search-games", "0",
                                      "-o", str(tmp_path / "d.json")])
    with pytest.raises(SystemExit) as exit_:
        cli.entry()
    assert exit_.value.code == 1
    assert capsys.readouterr().out.splitlines()[1].endswith("NO")


def test_the_expert_bench_times_the_expert_the_mix_and_gremios_at_each_table(tmp_path,
                                                                             monkeypatch, capsys):
    out = tmp_path / "experts.json"
    monkeypatch.setattr(sys, "argv", ["playtest", "bench", "--experts", "gremios", "--quick",
                                      "-o", str(out)])
    cli.entry()
    (result,) = json.loads(out.read_text())["results"]
    assert result["expert"] == "expert"
    assert [t["players"] for t in result["tables"]] == [2, 4]
    for t in result["tables"]:
        for key in ("expert_over_mix", "expert_in_gremios_games", "mix_in_gremios_games"):
            assert t[key]["runs"] == 1 and t[key]["median"] > 0
        assert min(t["games"].values()) >= 20
    assert "expert / mix" in capsys.readouterr().out
