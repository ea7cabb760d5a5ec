"""playtest ladder: verdicts along rungs of stronger players, resumable, beside real games."""

import json
import shlex

import polars as pl
import pytest

from reports.ladder import DRIFTS, FLIPS, SETTLED, UNTOLD, _summary_lines, classify, closeness
from reports.verdicts import FAIR, STRONG, TOO_FEW, WEAK
from simulator import api
from simulator.core import batch
from simulator.core.config import TUNED_FORMAT
from simulator.core.game import get_game

NAMES = ["random", "heuristics", "tuned", "lookahead-8", "lookahead-32"]


def cell(value, half, verdict, fair=0.5):
    return {"value": value, "low": value - half, "high": value + half, "verdict": verdict,
            "reference": fair}


@pytest.mark.parametrize("cells, kind", [
    # the same side within chance from the expert rung (2) up; below it does not count
    ([cell(0.3, 0.02, WEAK), cell(0.5, 0.02, FAIR), cell(0.60, 0.02, STRONG),
      cell(0.61, 0.03, STRONG), cell(0.59, 0.03, STRONG)], SETTLED),
    ([None, cell(0.5, 0.02, FAIR), cell(0.51, 0.02, FAIR), cell(0.49, 0.04, FAIR), None], SETTLED),
    # too strong under one rung, too weak under another
    ([None, None, cell(0.60, 0.02, STRONG), cell(0.50, 0.05, FAIR), cell(0.40, 0.02, WEAK)], FLIPS),
    # the verdict is lost on a later rung whose interval excludes the expert rung's estimate
    ([None, None, cell(0.60, 0.02, STRONG), cell(0.53, 0.05, FAIR), None], DRIFTS),
    # ... or still holds it: too few games on that rung to tell
    ([None, None, cell(0.60, 0.02, STRONG), cell(0.56, 0.08, FAIR), None], UNTOLD),
    # the same side, but the estimate moves beyond chance
    ([None, None, cell(0.60, 0.01, STRONG), cell(0.70, 0.01, STRONG), cell(0.72, 0.01, STRONG)],
     DRIFTS),
    # a number without a side (the balance index) drifts or holds, never flips
    ([None, None, cell(0.20, 0.02, ""), cell(0.30, 0.02, ""), None], DRIFTS),
    ([None, None, cell(0.20, 0.02, ""), cell(0.21, 0.02, ""), None], SETTLED),
    # fewer than two rungs from the expert rung up to judge by
    ([cell(0.3, 0.02, WEAK), cell(0.5, 0.02, FAIR), cell(0.6, 0.02, STRONG), None, None], UNTOLD),
    ([None, None, cell(0.6, 0.02, STRONG), cell(0.6, 0.5, TOO_FEW), None], UNTOLD),
])
def test_settled_drift_and_flip(cells, kind):
    assert classify(cells, 2, NAMES)["class"] == kind


def test_a_flip_and_a_drift_say_where():
    flip = classify([None, None, cell(0.6, 0.02, STRONG), None, cell(0.4, 0.02, WEAK)], 2, NAMES)
    assert flip["why"] == "too strong under tuned, too weak under lookahead-32"
    drift = classify([None, None, cell(0.6, 0.01, STRONG), cell(0.7, 0.01, STRONG), None], 2, NAMES)
    assert drift["why"] == "moves beyond chance from tuned to lookahead-8"
    settled = classify([None, None, cell(0.6, 0.01, STRONG), cell(0.62, 0.05, STRONG), None], 2,
                       NAMES)
    assert settled["why"] == "the same from tuned up, within chance (widest interval ±5.0 points)"


def test_closeness_measures_each_rung_against_the_strongest_and_the_mix():
    names = ["random", "heuristics", "expert", "lookahead-32"]
    top = [0.62, 0.40, 0.55, 0.45]
    rows = [{"cells": [None, cell(t + 0.15 * (-1) ** k, 0.02, FAIR), cell(t + 0.01, 0.02, FAIR),
                       cell(t, 0.02, FAIR)]} for k, t in enumerate(top)]
    rows.append({"cells": [None, cell(0.5, 0.02, FAIR), None, cell(0.5, 0.02, FAIR)]})
    rows.append({"cells": [None, cell(0.5, 0.02, FAIR), cell(0.5, 0.2, TOO_FEW),
                           cell(0.5, 0.02, FAIR)]})
    near = closeness(rows, names, 0.95)
    assert near["reference"] == "lookahead-32" and set(near["rungs"]) == {"heuristics", "expert"}
    mix, expert = near["rungs"]["heuristics"], near["rungs"]["expert"]
    assert mix["roles"] == 6 and expert["roles"] == 5  # only the roles both rungs estimated
    assert mix["distance"] == pytest.approx(0.1)  # four roles 15 points off, two on the mark
    assert expert["distance"] == pytest.approx(0.008)
    assert mix["low"] < mix["distance"] < mix["high"] and "nearer_than_heuristics" not in mix
    gain = expert["nearer_than_heuristics"]
    assert gain["difference"] == pytest.approx(0.112) and gain["roles"] == 5  # roles of all three
    assert 0 < gain["low"] < gain["high"]
    # a table where every role wins half its games, on the mix's six roles: 12, 10, 5, 5, 0, 0
    fair = near["fair_share"]
    assert fair["roles"] == 6 and fair["distance"] == pytest.approx(0.32 / 6)
    assert fair["low"] < fair["distance"] < fair["high"]


@pytest.mark.parametrize("rows, side", [
    ("role", "every role won its fair share, on the 6 roles the heuristics estimated too,"),
    ("first_seat", "the first seat had no edge"),
])
def test_the_summary_sets_the_distances_beside_a_table_that_takes_no_side(rows, side):
    near = {"reference": "lookahead-32", "rows": rows,
            "rungs": {"heuristics": {"distance": 0.056, "low": 0.033, "high": 0.082, "roles": 6}},
            "fair_share": {"distance": 0.063, "low": 0.041, "high": 0.087, "roles": 6}}
    lines = _summary_lines({"families": {}, "expert_rung": "expert", "confidence": 0.95,
                            "closeness": near})
    assert lines[-1] == (f"A table where {side} would be 6.3 (4.1-8.7) from lookahead-32's: a "
                         "rung no nearer takes sides no better than taking none.")


# A small two-player Gremios ladder: few games, a search of 1 and 2 rollouts 2 turns deep.
SMALL = ["-p", "2", "-n", "400", "--search-games", "40", "--match-games", "150", "--rollouts",
         "1,2", "--rollout-turns", "2", "-q"]


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    spec = get_game("gremios")
    weights = dict(zip(spec.strategies.weight_names,
                       spec.strategies.default_weights[spec.strategies.index("balanced")].tolist()))
    weights["income"] = 8.0
    path = tmp_path_factory.mktemp("tuned") / "balanced-8.json"
    path.write_text(json.dumps({"format": TUNED_FORMAT, "game": "gremios", "strategy": "balanced",
                                "weights": weights}))
    return path


@pytest.fixture(scope="module")
def whole(tmp_path_factory, tuned):
    from click.testing import CliRunner

    from simulator.cli import main
    out = tmp_path_factory.mktemp("ladder") / "whole"
    result = CliRunner().invoke(main, ["ladder", "gremios", *SMALL, "--tuned", str(tuned),
                                       "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out, result.output


def test_the_ladder_plays_each_rung_as_a_run_and_reports_each_verdict_along_it(whole):
    out, printed = whole
    result = json.loads((out / "report" / "ladder.json").read_text())
    names = [r["name"] for r in result["rungs"]]
    assert names == ["random", "heuristics", "tuned", "expert", "lookahead-1", "lookahead-2"]
    assert result["expert_rung"] == "expert"
    for rung, games in zip(result["rungs"], [400, 400, 400, 400, 40, 40]):
        assert api.load(out / rung["folder"]).manifest["n_games"] == rung["games"] == games
    assert api.load(out / "runs" / "lookahead-2").manifest["strategies"] == ["lookahead"]
    bases = {r["name"]: r["role_basis"] for r in result["rungs"]}
    assert bases["heuristics"] == "strategy-adjusted"
    assert bases["random"] == bases["lookahead-2"] == "one strategy: its own table"
    # the match seats every player of every rung; random is the weakest rung by far
    match = api.load(out / "runs" / "match").manifest["strategies"]
    assert "random/random" in match and "heuristics/greedy" in match and len(match) == 10
    assert "expert/expert" in match
    strength = {r["rung"]: r for r in result["strength"]["rungs"]}
    assert strength["heuristics"]["strength"] == 0.0
    assert strength["random"]["high"] < 0
    families = result["families"]
    assert set(families) == {"role", "strategy", "first_seat", "balance"}
    assert len(families["role"]) == 12
    for rows in families.values():
        for row in rows:
            assert len(row["cells"]) == 6
            assert row["class"]["class"] in (SETTLED, DRIFTS, FLIPS, UNTOLD)
    # the heuristic mix's strategies are played by one rung only: no line to judge
    assert {r["class"]["class"] for r in families["strategy"]} == {UNTOLD}
    page = (out / "report" / "ladder.html").read_text()
    assert page.count("data:image/png;base64,") == 4 and "strategy-adjusted" in page
    assert "Settled from the expert rung up:" in printed
    # 40 games of the top rung leave no role with an estimate: no distance to report
    assert result["closeness"] == {"reference": "lookahead-2", "rungs": {}, "rows": "role"}
    assert "mean absolute difference" not in printed
    assert printed.strip().endswith("ladder.html")


def _files(folder, pattern):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob(pattern))}


def test_an_interrupted_ladder_resumes_to_the_same_bytes(whole, tuned, tmp_path, playtest,
                                                          monkeypatch):
    real, calls = batch._play, []

    def play(*args, **kwargs):  # Ctrl-C as the fifth run (the first search rung) starts
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(batch, "_play", play)
    code, _, err = playtest("ladder", "gremios", *SMALL, "--tuned", tuned, "--out", tmp_path / "x")
    assert code == 130 and "go on with playtest ladder gremios" in err
    assert not (tmp_path / "x" / "report").exists()
    assert (tmp_path / "x" / "runs" / "lookahead-1" / "run.json").is_file()
    monkeypatch.setattr(batch, "_play", real)
    words = shlex.split(err.split("go on with ", 1)[1])
    code, _, told = playtest("report", tmp_path / "x")  # the folder says what it holds
    assert code == 2 and "it is an unfinished ladder: go on with playtest ladder gremios" in told
    code, _, err = playtest(*words[1:])
    assert code == 0, err
    code, _, told = playtest("report", tmp_path / "x")
    assert code == 2 and f"its page is {tmp_path / 'x' / 'report' / 'ladder.html'}" in told
    done = whole[0]
    assert _files(tmp_path / "x" / "runs", "*.parquet") == _files(done / "runs", "*.parquet")
    assert _files(tmp_path / "x" / "report", "*.*") == _files(done / "report", "*.*")


@pytest.fixture(scope="module")
def real_games(tmp_path_factory):
    """Games the tool played with the heuristic mix (another seed), written as real games."""
    folder = tmp_path_factory.mktemp("real")
    run = api.run("gremios", players=2, games=600, seed=99, out=folder / "run", progress=False)
    seats = api.load(run).seats.select(pl.col("game_id").alias("game"), "seat", "role", "score",
                                       "winner")
    seats.write_csv(folder / "real.csv")
    seats.write_parquet(folder / "real.parquet")
    return folder


def test_real_games_are_put_beside_the_rungs(whole, tuned, real_games, playtest, tmp_path):
    import shutil
    out = tmp_path / "l"
    shutil.copytree(whole[0], out)
    code, printed, err = playtest("ladder", "gremios", *SMALL, "--tuned", tuned, "--out", out,
                                  "--resume", "--real", real_games / "real.csv")
    assert code == 0, err
    # the runs are kept: only the report is drawn again, now with the real games
    assert _files(out / "runs", "*.parquet") == _files(whole[0] / "runs", "*.parquet")
    result = json.loads((out / "report" / "ladder.json").read_text())
    real = result["real"]
    assert real["games"] == 600 and real["file"] == "real.csv"
    agreement = real["agreement"]
    assert agreement["heuristics"]["consistent"] and agreement["heuristics"]["rows"] >= 1
    a = agreement["heuristics"]
    assert 0 <= a["low"] < a["high"] < agreement["random"]["distance"]
    assert not agreement["random"]["consistent"]
    assert "Few real games give wide intervals" in printed
    for row in result["families"]["role"]:
        assert "real" in row
    assert "Real games" in (out / "report" / "ladder.html").read_text()
    code, _, err = playtest("ladder", "gremios", *SMALL, "--tuned", tuned, "--out", out,
                            "--resume", "--real", real_games / "real.parquet")
    assert code == 0, err
    again = json.loads((out / "report" / "ladder.json").read_text())["real"]
    assert again["agreement"] == agreement


def _one_line_error(playtest, *args, says: str):
    code, out, err = playtest(*args)
    assert code == 2 and out == "", err
    assert err.startswith("playtest: error: ") and err.count("\n") == 1 and says in err, err


def test_bad_input_is_one_line_and_writes_nothing(tmp_path, playtest, real_games):
    out = tmp_path / "new"
    small = ["-p", "2", "-n", "40", "--out", out, "-q"]
    _one_line_error(playtest, "ladder", "nogame", *small, says="nogame")
    _one_line_error(playtest, "ladder", "gremios", *small, "--rollouts", "8", says="two budgets")
    _one_line_error(playtest, "ladder", "gremios", *small, "--rollouts", "8,x", says="--rollouts")
    _one_line_error(playtest, "ladder", "gremios", "-p", "2", "--resume",
                    says="give the --out folder")
    _one_line_error(playtest, "ladder", "gremios", *small, "--real", tmp_path / "none.csv",
                    says="no such file")
    seats = pl.read_csv(real_games / "real.csv")
    cases = {
        "garbage.parquet": (b"not parquet at all", "cannot be read as parquet"),
        "columns.csv": (seats.rename({"seat": "player"}), "no column seat"),
        "winner.csv": (seats.with_columns(pl.lit("maybe").alias("winner")), "winner true/false"),
        "seats.csv": (seats.filter(pl.col("seat") == 0), "does not have seats 0 to 1"),
        "role.csv": (seats.with_columns(pl.lit("wizard").alias("role")), "role 'wizard'"),
        "nowinner.csv": (seats.with_columns(pl.lit(False).alias("winner")), "has no winner"),
        "empty.csv": (seats.head(0), "holds no games"),
        "notes.txt": (b"game,seat\n", "give a .csv or .parquet file"),
    }
    for name, (content, says) in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            content.write_csv(path)
        _one_line_error(playtest, "ladder", "gremios", *small, "--real", path, says=says)
    assert not out.exists()


def test_a_rung_of_one_strategy_has_the_balance_index_of_experiments(whole):
    from reports import metrics
    from reports.compare import balance_index as experiments_index
    from reports.ladder import balance_index
    for rung in ("random", "lookahead-2"):
        path = whole[0] / "runs" / rung
        run = metrics.open_run(path)
        seats = metrics.with_player_count(run.seats, run.games, run.player_counts)
        theirs = experiments_index(path)
        ours = balance_index(seats, run.n_games, 2, 0.95)
        assert ours == pytest.approx((theirs["index"], theirs["low"], theirs["high"]))


@pytest.mark.parametrize("game", ["grimoire", "gemmis", "gnomeland", "elgrande"])
def test_every_game_climbs_the_ladder_to_its_learnt_expert(game, tmp_path):
    out = api.ladder(game, tmp_path / game, players=2, games=100, search_games=4, match_games=40,
                     rollouts=[1, 2], rollout_turns=1, seed=3, progress=False)
    result = json.loads((out / "report" / "ladder.json").read_text())
    assert [r["name"] for r in result["rungs"]] == ["random", "heuristics", "expert",
                                                    "lookahead-1", "lookahead-2"]
    assert result["expert_rung"] == "expert"
    expert = next(r for r in result["rungs"] if r["name"] == "expert")
    assert api.load(out / expert["folder"]).manifest["strategies"] == ["expert"]
    for rows in result["families"].values():
        for row in rows:
            assert len(row["cells"]) == 5
    assert (out / "report" / "ladder.html").exists()
