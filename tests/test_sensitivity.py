"""playtest sensitivity and balance on small budgets, and the paired statistics under them."""

import json
import tomllib

import numpy as np
import polars as pl
import pytest

from simulator import api

from simulator import scan
from simulator.balance import BalanceOptions, balance
from simulator.core.dataset import verify
from simulator.core.errors import UsageError
from simulator.core.game import GAME_NAMES, get_game
from simulator.experiment import load_experiment
from simulator.sensitivity import SensitivityOptions, sensitivity

# A two-player-only number and two that matter at four players.
TWO_PLAYER_ONLY = "guilds_at_start_two_players"
SCANNED = [TWO_PLAYER_ONLY, "victory_points_to_win", "end_rule"]


@pytest.fixture(scope="module")
def turns_scan(tmp_path_factory):
    out = tmp_path_factory.mktemp("scan") / "s"
    o = SensitivityOptions("gremios", players=4, games=200, metric="turns", params=SCANNED, steps=1)
    return o, sensitivity(o, out, progress=False)


def test_a_scan_ranks_what_matters_and_finds_no_effect_where_there_is_none(turns_scan):
    o, out = turns_scan
    result = json.loads((out / "sensitivity.json").read_text())
    ranking = {e["parameter"]: e for e in result["ranking"]}
    # The two-player number is never read at four players: every game is the same, effect 0.
    quiet = ranking[TWO_PLAYER_ONLY]
    assert quiet["identical"] and not quiet["detected"] and quiet["largest"]["delta"] == 0.0
    # The victory target changes the game's length, and the scan sees it.
    target = ranking["victory_points_to_win"]
    assert target["detected"]
    points = {r["value"]: r for r in result["points"] if r["parameter"] == "victory_points_to_win"}
    printed = get_game("gremios").rules().params["victory_points_to_win"].default
    # first the designer's question, one and two steps either side of the printed value; then
    # both ends of [3, 40] and the midpoint, 21.5 rounded
    assert [r["value"] for r in result["points"] if r["parameter"] == "victory_points_to_win"] == [
        printed - 1, printed + 1, printed - 2, printed + 2, 3, 22, 40]
    assert points[3]["delta"] < 0 < points[40]["delta"]
    # the intervals are drawn at the level of the corrected verdicts: they agree point by point
    tested = [r for r in result["points"] if r["playable"] and not r["identical"]]
    assert tested and all(r["detected"] == (not r["low"] <= 0 <= r["high"]) for r in tested)
    assert len({r["level"] for r in tested}) == 1 and tested[0]["level"] >= o.confidence
    assert result["ranking"][0]["parameter"] == "victory_points_to_win"
    md = (out / "sensitivity.md").read_text()
    assert "## No detectable effect" in md
    assert (f"{TWO_PLAYER_ONLY} (identical games: the rule never came up)"
            in md.split("## No detectable effect")[1])
    assert quiet["came_up"] == 0 and target["came_up"] is None  # the target is read every game
    assert (out / "tornado.png").stat().st_size > 10_000
    # Every configuration is an ordinary, sound run dataset.
    for folder in (out / "runs").iterdir():
        assert verify(folder) == []


def test_a_scan_goes_on_where_it_stopped_and_refuses_other_options(turns_scan):
    o, out = turns_scan
    before = json.loads((out / "sensitivity.json").read_text())["points"]
    with pytest.raises(UsageError, match="holds a sensitivity scan already; add --resume"):
        sensitivity(o, out, progress=False)
    again = sensitivity(o, out, resume=True, progress=False)  # every run is reused
    assert json.loads((again / "sensitivity.json").read_text())["points"] == before
    with pytest.raises(UsageError, match="started with games = 200, not 300"):
        sensitivity(SensitivityOptions("gremios", players=4, games=300, metric="turns",
                                       params=SCANNED, steps=1), out, resume=True, progress=False)


def test_morris_screen_ranks_a_parameter_that_acts_above_one_that_cannot(tmp_path):
    o = SensitivityOptions("gremios", players=4, games=60, metric="turns",
                           params=[TWO_PLAYER_ONLY, "victory_points_to_win"], steps=0,
                           method="morris", trajectories=3, levels=4)
    result = json.loads((sensitivity(o, tmp_path / "m", progress=False) / "sensitivity.json").read_text())
    mu = {r["parameter"]: r["mu_star"] for r in result["morris"]["table"]}
    assert mu[TWO_PLAYER_ONLY] == 0.0 and mu["victory_points_to_win"] > 0.0
    assert result["morris"]["runs"] == 3 * (2 + 1)


@pytest.mark.parametrize("option, value, message", [
    ("metric", "fun", "--metric fun: unknown"),
    ("metric", "role:jester", "unknown role 'jester'"),
    ("params", ["no_such_*"], "unknown parameter 'no_such_\\*'"),
    ("games", 5, "--games 5: must be at least 30"),
    ("method", "sobol", "--method sobol: unknown"),
])
def test_bad_scan_options_are_one_line_errors(tmp_path, option, value, message):
    o = SensitivityOptions("gremios", **{option: value})
    with pytest.raises(UsageError, match=message):
        sensitivity(o, tmp_path / "x", progress=False)
    assert not (tmp_path / "x").exists()


def _sums(wins, seats):
    return np.asarray(wins, float)[:, None], np.asarray(seats, float)[:, None]


def test_paired_difference_is_exactly_zero_for_the_same_games_and_covers_a_known_shift():
    metric = scan.Metric("turns", "", "", "game length", "game length", "turns", 1.0)
    rng = np.random.default_rng(1)
    base = rng.normal(40, 6, 3000)
    same = scan.paired_difference(metric, _sums(base, np.ones(3000)), _sums(base, np.ones(3000)), 4, 0.95)
    assert same == {"delta": 0.0, "low": 0.0, "high": 0.0, "p": 1.0, "identical": True}
    # The variant is the baseline plus 0.5 turns plus a little noise of its own: pairing keeps
    # the interval far narrower than the games' own spread (sd 6).
    variant = base + 0.5 + rng.normal(0, 0.5, 3000)
    d = scan.paired_difference(metric, _sums(base, np.ones(3000)), _sums(variant, np.ones(3000)), 4, 0.95)
    assert d["low"] < 0.5 < d["high"] and d["high"] - d["low"] < 0.1 and d["p"] < 0.01


def test_points_with_identical_games_do_not_dilute_the_multiple_testing():
    from simulator.sensitivity import _decide
    real = {"playable": True, "identical": False, "p": 0.004}
    rows = [real] + [{"playable": True, "identical": True, "p": 1.0} for _ in range(200)] + [
        {"playable": False}]
    _decide(rows, 0.95)
    assert real["detected"] and real["p_adjusted"] == 0.004
    assert not any(r["detected"] for r in rows[1:-1]) and "detected" not in rows[-1]


def test_the_spread_and_the_first_players_edge_from_per_game_sums():
    game = get_game("gremios")
    seats = pl.DataFrame({"game_id": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
                          "strategy": ["a", "b", "b", "a"], "role": [None] * 4,
                          "win_share": [1.0, 0.0, 0.5, 0.5]})
    games = pl.DataFrame({"game_id": [0, 1], "first_seat": [1, 0], "turns": [10, 12],
                          "truncated": [False, False]})
    spread = scan.spread_metric("strategy")
    groups = spread.groups(seats)
    value, _ = scan.measure(spread, {"seats": seats, "games": games}, groups, 2)
    assert groups == ["a", "b"] and value == pytest.approx(0.75 - 0.25)
    first = scan.parse_metric("first_seat", game)
    value, _ = scan.measure(first, {"seats": seats, "games": games}, first.groups(seats), 2)
    # game 0: seat 1 started and lost; game 1: seat 0 started and shared: 0.25 won, fair 0.5
    assert value == pytest.approx(0.25 - 0.5)


@pytest.fixture(scope="module")
def small_balance(tmp_path_factory):
    out = tmp_path_factory.mktemp("balance") / "b"
    o = BalanceOptions("gremios", goal="roles", players=4, games=240, budget=4, candidates=3,
                       proposals=2, verify_games=300, expert_games=300, search_games=8,
                       params=["tax_threshold", "tax_rounding", "inn_income", TWO_PLAYER_ONLY])
    return o, balance(o, out, progress=False)


def test_balance_screens_searches_verifies_and_writes_experiments(small_balance):
    o, out = small_balance
    result = json.loads((out / "balance.json").read_text())
    assert result["trials"] == {"complete": result["trials"]["complete"], "total": 4}
    assert TWO_PLAYER_ONLY in result["cannot_change"]["no_effect_on_goal"]
    assert TWO_PLAYER_ONLY not in result["searched"]
    assert "never an ability itself" in result["cannot_change"]["abilities"]
    assert result["proposals"]
    for p in result["proposals"]:
        assert p["verify_seed"] != o.seed and p["verify_games"] == 300
        assert p["confirmed"] == (p["difference"]["high"] < 0)
        assert 1 <= len(p["settings"]) <= o.max_changes
        path = out / p["experiment"]
        tomllib.loads(path.read_text())
        experiment = load_experiment(path)
        assert experiment.game == "gremios" and experiment.seed == p["verify_seed"]
        assert [c.changes.get("settings") for c in experiment.configurations if c.kind == "variant"] \
            == [p["settings"]]
        # the proposal's status goes with it into the experiment file it writes
        status = "confirmed: the whole interval" if p["confirmed"] else "not confirmed on fresh seeds"
        assert status in experiment.description and status in path.read_text().splitlines()[0]
        assert experiment.title.endswith(", confirmed" if p["confirmed"] else ", not confirmed")
        # and its verdict under stronger play: the expert's and the search player's tables
        assert set(p["stronger"]) == {"expert", "lookahead"}
        assert [v["games"] for v in p["stronger"].values()] == [300, 8]
        for v in p["stronger"].values():
            d = v["difference"]
            assert v["verdict"] == ("confirmed" if d["high"] < 0 else "reversed" if d["low"] > 0
                                    else "not shown")
        assert p["survives_stronger_play"] == (
            p["stronger"]["expert"]["verdict"] == "confirmed" and
            p["stronger"]["lookahead"]["verdict"] != "reversed")
        assert "Under stronger play: expert" in path.read_text().splitlines()[0]
        run = api.load(out / "verify" / "lookahead" / "baseline")
        assert run.manifest["strategies"] == ["lookahead"] and run.manifest["n_games"] == 8
    md = (out / "balance.md").read_text()
    assert "## What it cannot change" in md and "## Proposals (verified on fresh seeds)" in md


def test_balance_resumes_its_study_and_refuses_to_overwrite(small_balance):
    o, out = small_balance
    with pytest.raises(UsageError, match="add --resume"):
        balance(o, out, progress=False)
    again = balance(o, out, resume=True, progress=False)  # the budget is spent: nothing new
    assert json.loads((again / "balance.json").read_text())["trials"]["total"] == 4


def test_balance_without_roles_or_with_everything_kept_says_so(tmp_path):
    with pytest.raises(UsageError, match="gemmis has no roles"):
        balance(BalanceOptions("gemmis", goal="roles"), tmp_path / "g", progress=False)
    names = list(get_game("gremios").rules().params)
    with pytest.raises(UsageError, match="nothing left to change"):
        balance(BalanceOptions("gremios", keep=names), tmp_path / "k", progress=False)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_sensitivity_and_balance_work_for_every_game(name, tmp_path):
    """Both commands on a tiny budget for each game (seats: every game has a turn order)."""
    params = list(get_game(name).rules().params)[:3]
    o = SensitivityOptions(name, games=40, metric="first_seat", params=params, steps=0, near=0)
    result = json.loads((sensitivity(o, tmp_path / "s", progress=False) / "sensitivity.json").read_text())
    assert {e["parameter"] for e in result["ranking"]} == set(params)
    b = BalanceOptions(name, goal="seats", games=120, budget=2, candidates=2, proposals=1,
                       verify_games=60, expert_games=0, search_games=0, params=params)
    result = json.loads((balance(b, tmp_path / "b", progress=False) / "balance.json").read_text())
    assert result["goal"] == "seats" and len(result["baseline"]["rates"]) == result["players"]


def test_games_cut_off_at_the_turn_limit_are_a_warning_not_a_quiet_null(tmp_path):
    """max_turns = 10 truncates every Gremios game: the scan says so beside its verdict."""
    o = SensitivityOptions("gremios", players=2, games=200, params=["max_turns"], steps=0)
    out = sensitivity(o, tmp_path / "s", progress=False)
    result = json.loads((out / "sensitivity.json").read_text())
    low = next(r for r in result["points"] if r["value"] == 10)
    assert low["truncated"] == 1.0 and result["baseline_truncated"] < 0.01
    md = (out / "sensitivity.md").read_text()
    assert "## Warning: games cut off at the turn limit" in md
    assert "max_turns = 10: 100.0% of games truncated" in md
