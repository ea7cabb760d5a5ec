"""playtest distill: the search's decisions recorded, a choice model fitted, an expert written."""

import json

import numba
import numpy as np
import pytest

from simulator import distill as d
from simulator.core.config import make_config
from simulator.core.expert import (
    EXPERT_WEIGHT_PREFIX, T_CHOSEN, T_CODE, T_DECISION, T_OPTION, T_POLICY_CHOICE, TAPE_COLUMNS,
)
from simulator.core.game import get_game
from strategies import gremios as players

# A small search: 2 rollouts a decision, 2 turns deep.
SMALL_SEARCH = {"lookahead": {"rollouts": 2, "rollout_turns": 2}}
WIDTH = len(TAPE_COLUMNS) + players.N_FEATURES


def synthetic_tape(weights, decisions, seed):
    """Decisions among 2-6 options with random features, the taken one drawn from the
    conditional logit of ``weights``; a last feature that is the same for every option of a
    decision (no model can learn from it). Laid out as distill's tapes: player count first."""
    rng = np.random.default_rng(seed)
    rows = []
    for number in range(decisions):
        k = int(rng.integers(2, 7))
        x = rng.normal(size=(k, len(weights)))
        x = np.column_stack([x, np.full(k, rng.normal())])
        utility = x[:, :len(weights)] @ weights
        p = np.exp(utility - utility.max())
        taken = rng.choice(k, p=p / p.sum())
        for i in range(k):
            row = np.zeros(1 + len(TAPE_COLUMNS) + x.shape[1])
            row[1 + T_DECISION] = number
            row[1 + T_OPTION] = i
            row[1 + T_CHOSEN] = i == taken
            row[1 + T_POLICY_CHOICE] = i == 0
            row[1 + len(TAPE_COLUMNS):] = x[i]
            rows.append(row)
    return np.array(rows)


def test_the_fit_recovers_the_weights_the_choices_were_drawn_from():
    truth = np.array([1.5, -1.0, 0.5])
    values, how = d.fit(synthetic_tape(truth, 3000, seed=7), 4)
    assert how["converged"] and how["features_used"] == 3 and how["decisions"] == 3000
    assert values[:3] == pytest.approx(truth, abs=0.15)
    assert values[3] == 0.0  # never differs within a decision: left at 0


def test_agreement_counts_the_expert_and_the_policy_against_the_search():
    tape = synthetic_tape(np.array([3.0, 0.0, 0.0]), 400, seed=3)
    right = d.agreement(tape, np.array([1.0, 0.0, 0.0, 0.0]), 4)
    wrong = d.agreement(tape, np.array([-1.0, 0.0, 0.0, 0.0]), 4)
    assert right["decisions"] == 400
    assert right["expert"] > 0.6 > wrong["expert"]
    taken_first = sum(tape[(tape[:, 1 + T_DECISION] == n) & (tape[:, 1 + T_OPTION] == 0),
                           1 + T_CHOSEN].sum() for n in range(400))
    assert right["rollout_policy"] == taken_first / 400


@pytest.fixture(scope="module")
def recorded():
    config = make_config("gremios", 2, None, ["lookahead", "balanced"], None, None, 5,
                         SMALL_SEARCH)
    rules = config.rules.as_record()
    plain = config.game.play(rules, config.seed, 0, 30, config.setup)
    with_tape = config.game.play(rules, config.seed, 0, 30, config.setup,
                                 record=(5000, players.N_FEATURES))
    return config, plain, with_tape


def test_recording_changes_no_game_and_writes_each_searched_decision_whole(recorded):
    config, plain, with_tape = recorded
    for a, b in zip(plain[:3], with_tape[:3]):
        assert np.array_equal(a, b)
    tape = with_tape[3]
    assert tape.shape[1] == WIDTH and len(tape) > 100
    numbers = tape[:, T_DECISION]
    assert (np.diff(numbers) >= 0).all()  # a decision's options lie together, in order
    for number in np.unique(numbers):
        rows = tape[numbers == number]
        assert rows[:, T_CHOSEN].sum() == 1 and rows[:, T_POLICY_CHOICE].sum() == 1
        assert len(set(rows[:, T_OPTION])) == len(rows) >= 2
    assert set(tape[:, T_CODE].tolist()) <= {players.DECIDE_ROLE, players.DECIDE_ACTION,
                                             players.DECIDE_EVENT}
    # the search left its policy's choice somewhere, else there would be nothing to learn
    assert (tape[tape[:, T_CHOSEN] == 1, T_POLICY_CHOICE] == 0).any()


def test_the_tape_is_the_same_on_any_thread_count(recorded):
    config, _, with_tape = recorded
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        alone = config.game.play(config.rules.as_record(), config.seed, 0, 30, config.setup,
                                 record=(5000, players.N_FEATURES))[3]
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(alone, with_tape[3])


def test_a_tape_too_short_is_an_error_not_a_cut():
    config = make_config("gremios", 2, None, ["lookahead"], None, None, 5, SMALL_SEARCH)
    with pytest.raises(RuntimeError, match="too short"):
        config.game.play(config.rules.as_record(), config.seed, 0, 2, config.setup,
                         record=(5, players.N_FEATURES))


TINY = ["-p", "2", "-n", "6", "--held-out-games", "4", "--rounds", "2", "--match-games", "100",
        "-q"]


@pytest.fixture(scope="module")
def distilled(tmp_path_factory):
    out = tmp_path_factory.mktemp("distill") / "expert.json"
    path = d.distill(d.DistillOptions("gremios", (2,), None, 6, 4, 2, 100, 0), out, progress=False)
    return json.loads(path.read_text()), path


def test_distill_writes_a_weights_file_that_runs_take_like_a_tuned_one(distilled):
    made, path = distilled
    spec = get_game("gremios")
    assert made["strategy"] == "expert" and list(made["weights"]) == list(spec.strategies.weight_names)
    rounds = made["distilled"]["rounds"]
    assert [r["rollout_policy"] for r in rounds] == ["greedy", "expert"]
    values = [n for n in spec.strategies.weight_names if n.startswith(EXPERT_WEIGHT_PREFIX)]
    for r in rounds:
        assert 0.0 <= r["held_out_agreement"]["expert"] <= 1.0
        assert set(r["against_heuristics"]) == set(spec.strategies.rivals())
        assert list(r["weights"]) == values
    chosen = rounds[made["distilled"]["chosen_round"]]["weights"]
    assert chosen == {n: made["weights"][n] for n in values}
    config = make_config("gremios", 2, None, [f"tuned:{path}", "greedy"])
    assert config.base_strategies[0] == "expert"
    assert config.weights[0].tolist() == list(made["weights"].values())


def test_an_interrupted_distillation_resumes_to_the_same_weights(distilled, tmp_path, playtest,
                                                                 monkeypatch):
    real, calls = d.match, []

    def match(*args, **kwargs):  # Ctrl-C as the second round is judged
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(d, "match", match)
    out = tmp_path / "e.json"
    code, _, _ = playtest("distill", "gremios", *TINY, "--out", out)
    assert code == 130 and not out.exists() and (tmp_path / "e.json.state").exists()
    code, _, err = playtest("distill", "gremios", *TINY, "--out", out)
    assert code == 2 and "--resume" in err
    code, printed, err = playtest("distill", "gremios", *TINY, "--out", out, "--resume")
    assert code == 0, err
    again = json.loads(out.read_text())
    assert again["weights"] == distilled[0]["weights"]
    assert again["distilled"] == distilled[0]["distilled"]
    assert "round 1 (rollouts by expert)" in printed and not (tmp_path / "e.json.state").exists()


def test_the_verdict_distance_leaves_out_what_the_search_rarely_held():
    search = {"governor": [30.0, 50], "pirate": [10.0, 50], "peasant": [1.0, 3]}
    experts = {"governor": [200.0, 400], "pirate": [50.0, 100], "peasant": [9.0, 10]}
    # |0.5 - 0.6| and |0.5 - 0.2| in points; the peasant (3 seats of the search's) left out
    assert d.verdict_distance(experts, search) == pytest.approx(20.0)
    # a role the experts never held counts as never won
    assert d.verdict_distance({"governor": [30.0, 50]}, search) == pytest.approx(10.0)


def test_verdict_counts_are_by_role_or_by_seat():
    import polars as pl
    seats = pl.DataFrame({"seat": [0, 1, 0, 1], "role": ["a", "b", "b", "a"],
                          "win_share": [1.0, 0.0, 0.5, 0.5]})
    assert d.verdict_counts(seats) == {"a": [1.5, 2], "b": [0.5, 2]}
    no_roles = seats.with_columns(pl.lit(None, dtype=pl.Utf8).alias("role"))
    assert d.verdict_counts(no_roles) == {"0": [1.5, 2], "1": [0.5, 2]}


CALIBRATED = ["-p", "2", "-n", "6", "--held-out-games", "4", "--rounds", "1", "--match-games",
              "100", "--calibrate-games", "20", "--calibrate-steps", "3", "-q"]


@pytest.fixture
def small_calibration(monkeypatch):
    """Tables of experts of 300 games, matches of 100, roles compared from 3 seats: a
    calibration in seconds."""
    monkeypatch.setattr(d, "EXPERT_TABLE_GAMES", 300)
    monkeypatch.setattr(d, "MATCH_TABLE_GAMES", 100)
    monkeypatch.setattr(d, "STRENGTH_FLOOR", 0.2)  # a 6-game fit is weak: let a step come nearer
    monkeypatch.setattr(d, "MIN_SEATS", 3)


def test_calibration_moves_the_weights_nearer_the_search_and_resumes(small_calibration, playtest,
                                                                     tmp_path, monkeypatch):
    whole = tmp_path / "whole.json"
    code, _, err = playtest("distill", "gremios", *CALIBRATED, "--out", whole)
    assert code == 0, err
    written = json.loads(whole.read_text())
    made = written["distilled"]
    cal = made["calibration"]
    assert set(cal["tables"]) == {"2"} and cal["steps"] == 3
    table = cal["tables"]["2"]
    assert table["search_games"] == 20
    assert sum(c["seats"] for c in table["search_verdicts"].values()) == 2 * 20  # every seat's role
    floor = cal["strength_floor"]

    def judged(how):  # what the calibration minimises: a point for each point short of the floor
        share = table["share_against"][how]
        return table[f"distance_{how}"] + 100 * max(0.0, floor - share)
    assert judged("calibrated") < judged("fitted")
    assert table["share_against"]["rival"] in get_game("gremios").strategies.rivals()
    fitted = made["rounds"][0]["weights"]
    assert table["weights"] != fitted
    assert {k: v for k, v in written["weights"].items() if k in fitted} == table["weights"]
    assert written["weights_by_players"] == {"2": written["weights"]}
    # what the fit could not tell apart stays at 0
    assert all(table["weights"][k] == 0.0 for k, v in fitted.items() if v == 0.0)
    assert 0 <= table["held_out_agreement"]["calibrated"]["expert"] <= 1
    assert set(cal["against_heuristics"]) == set(get_game("gremios").strategies.rivals())

    real, calls = d.verdict_distance, []

    def distance(*args):  # Ctrl-C in the calibration's second step
        calls.append(1)
        if len(calls) == 20:
            raise KeyboardInterrupt
        return real(*args)
    monkeypatch.setattr(d, "verdict_distance", distance)
    cut = tmp_path / "cut.json"
    code, _, _ = playtest("distill", "gremios", *CALIBRATED, "--out", cut)
    assert code == 130 and not cut.exists()
    monkeypatch.setattr(d, "verdict_distance", real)
    code, printed, err = playtest("distill", "gremios", *CALIBRATED, "--out", cut, "--resume")
    assert code == 0, err
    again = json.loads(cut.read_text())
    assert again["weights"] == json.loads(whole.read_text())["weights"]
    assert again["distilled"] == made
    assert "calibrated at 2 players" in printed


def test_too_few_search_games_to_calibrate_is_a_one_line_error(playtest, tmp_path):
    args = [a if a != "20" else "2" for a in CALIBRATED]
    code, out, err = playtest("distill", "gremios", *args, "--out", tmp_path / "e.json")
    assert code == 2 and err.count("\n") == 1, err
    assert "--calibrate-games 2: no role was held 40 times" in err
    assert list(tmp_path.iterdir()) == []  # neither the file nor a state to resume


@pytest.mark.parametrize("args, says", [
    (["--calibrate-games", "-1"], "--calibrate-games -1: must be 0"),
    (["--calibrate-steps", "0"], "--calibrate-steps 0: must be at least 1"),
    (["--rounds", "0"], "--rounds 0: must be at least 1"),
    (["--games", "0"], "--games 0: must be at least 1"),
    (["-p", "9"], "9"),
    (["-p", "two"], "--players two: not a whole number"),
    (["--resume"], "--resume: give the --out file"),
])
def test_bad_options_are_one_line_errors(args, says, playtest, tmp_path):
    code, out, err = playtest("distill", "gremios", *args, "-q")
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err, err
    code, out, err = playtest("distill", "nogame", "-q")
    assert code == 2 and "nogame" in err


def test_a_file_calibrated_per_table_gives_each_table_its_weights(tmp_path):
    import dataclasses

    from simulator.core.config import TUNED_FORMAT
    from simulator.core.errors import UsageError
    spec = get_game("gremios")
    names = spec.strategies.weight_names
    row = spec.strategies.default_weights[spec.strategies.index("expert")]
    four = row + 1.0
    data = {"format": TUNED_FORMAT, "game": "gremios", "strategy": "expert",
            "weights": dict(zip(names, row.tolist())),
            "weights_by_players": {"4": dict(zip(names, four.tolist()))}}
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data))
    assert make_config("gremios", 4, None, [f"tuned:{path}"]).weights[0].tolist() == four.tolist()
    assert make_config("gremios", 2, None, [f"tuned:{path}"]).weights[0].tolist() == row.tolist()
    # the shipped expert's tables (its file's weights_by_players) serve the strategy's name
    strategies = dataclasses.replace(spec.strategies, expert_by_players={"3": four})
    assert strategies.default_row("expert", 3) is four
    assert strategies.default_row("expert", 4).tolist() == row.tolist()
    assert strategies.default_row("greedy", 3).tolist() == spec.strategies.default_weights[1].tolist()
    del data["weights_by_players"]["4"][names[0]]
    path.write_text(json.dumps(data))
    with pytest.raises(UsageError, match="its weights at 4 players are not the game's"):
        make_config("gremios", 4, None, [f"tuned:{path}"])
