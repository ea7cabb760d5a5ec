"""Comparisons of runs: Holm-corrected verdicts, intervals that agree with them, the pairing
named, and equivalence against the smallest change that matters."""

import json
import math

import pytest

from reports.compare import Change, compare_runs, holm_correct
from reports.comparison import Entry, build_comparison
from simulator import api


@pytest.fixture(scope="module")
def null_runs(tmp_path_factory):
    """Four Gremios runs with identical rules and seeds 3, 4, 5, 6: every difference is noise."""
    root = tmp_path_factory.mktemp("null")
    return [api.run("gremios", games=2000, seed=s, out=root / f"seed{s}", progress=False)
            for s in (3, 4, 5, 6)]


def test_noise_between_seeds_is_not_reported_as_change(null_runs):
    comparisons = [compare_runs(null_runs[0], other) for other in null_runs[1:]]
    rows = [c for changes in comparisons for c in changes if math.isfinite(c.p)]
    uncorrected = sum(c.p <= 0.05 for c in rows)
    detected = sum(c.detected for c in rows)
    # about 5% of the rows pass an uncorrected test by chance; Holm keeps each comparison's
    # chance of any false change at 5%
    assert uncorrected >= 5
    assert detected <= 1
    assert all(c.method == "unpaired" for c in rows)  # different seeds: nothing to pair


def test_an_interval_excludes_zero_exactly_when_its_row_is_a_change(null_runs, tmp_path):
    tweaked = api.run("gremios", games=2000, seed=3, out=tmp_path / "t", progress=False,
                      settings={"archbishop_coins": 4})
    changes = compare_runs(null_runs[0], null_runs[1]) + compare_runs(null_runs[0], tweaked)
    assert any(c.detected for c in changes)
    for c in changes:
        if math.isfinite(c.p):
            assert c.detected == (not c.low <= 0.0 <= c.high), c
            assert c.level >= 0.95


def test_holm_steps_set_each_rows_level():
    def row(p, delta):
        return Change("score", "all", "all", 0.0, delta, delta, math.nan, math.nan, 100, "unpaired",
                      p=p, se=1.0)
    rows = [row(0.001, 4.0), row(0.02, 2.3), row(0.04, 2.05), row(0.5, 0.6)]
    holm_correct(rows, 0.95)
    # steps: 0.001 <= 0.05/4 rejected; 0.02 > 0.05/3 stops: the rest at 1 - 0.05/3
    assert [c.detected for c in rows] == [True, False, False, False]
    assert rows[0].level == pytest.approx(1 - 0.05 / 4)
    assert all(c.level == pytest.approx(1 - 0.05 / 3) for c in rows[1:])
    assert rows[0].p_adjusted == pytest.approx(0.004)
    assert rows[1].p_adjusted == pytest.approx(0.06)


def test_min_effect_turns_a_null_into_a_verdict_of_no_change_that_matters(null_runs):
    wide = [c for c in compare_runs(null_runs[0], null_runs[1], min_effect=10)
            if c.metric == "win_rate" and math.isfinite(c.p)]
    assert wide and all(c.equivalent for c in wide if not c.detected)
    assert wide[0].verdict(True) == "no change larger than 10 pts"
    narrow = compare_runs(null_runs[0], null_runs[1], min_effect=0.1)
    assert not any(c.equivalent for c in narrow if c.metric == "win_rate")  # 2,000 games are too few


def test_a_real_change_is_not_called_equivalent(null_runs, tmp_path):
    tweaked = api.run("gremios", games=2000, seed=3, out=tmp_path / "t", progress=False,
                      settings={"archbishop_coins": 4})
    arch = next(c for c in compare_runs(null_runs[0], tweaked, min_effect=1)
                if c.metric == "win_rate" and c.label == "archbishop")
    assert arch.detected and not arch.equivalent and arch.method == "paired"
    assert arch.verdict(True).startswith("changed by +")


def test_the_report_says_which_comparisons_are_paired(null_runs, tmp_path):
    unpaired = build_comparison([Entry("a", null_runs[0]), Entry("b", null_runs[1])], tmp_path / "u")
    text = (unpaired / "comparison.md").read_text()
    assert "different seeds" in text and "the same seed" not in text
    assert "Holm-corrected" in text
    same = api.run("gremios", games=2000, seed=3, out=tmp_path / "same", progress=False,
                   settings={"vp_inn": 3})
    paired = build_comparison([Entry("a", null_runs[0]), Entry("b", same)], tmp_path / "p",
                              min_effect=2)
    text = (paired / "comparison.md").read_text()
    assert "Every configuration used the same seed" in text
    assert "Smallest change that matters: 2 points" in text
    summary = json.loads((paired / "comparison.json").read_text())
    assert summary["min_effect_points"] == 2 and summary["comparisons"][0]["same_games"] is True
    assert {"p_adjusted", "level", "equivalent"} <= set(summary["comparisons"][0]["changes"][0])


@pytest.mark.parametrize("value", ["0", "-1", "nan"])
def test_a_bad_min_effect_is_refused_in_one_line(null_runs, tmp_path, playtest, value):
    code, _, err = playtest("compare", null_runs[0], null_runs[1], "--min-effect", value,
                            "--out", tmp_path / "c")
    assert code == 2 and f"--min-effect {float(value)}" in err and "positive" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "c").exists()


def test_the_balance_index_has_a_reproducible_bootstrap_interval(null_runs, tmp_path):
    from reports.compare import balance_index
    first = balance_index(null_runs[0])
    assert first["low"] < first["index"] < first["high"]
    assert balance_index(null_runs[0]) == first  # a fixed seed
    # four runs of the same rules: each interval holds the others' index far more often than not
    indices = [balance_index(r) for r in null_runs]
    held = sum(a["low"] <= b["index"] <= a["high"] for a in indices for b in indices if a is not b)
    assert held >= 9
    report = build_comparison([Entry("a", null_runs[0]), Entry("b", null_runs[1])], tmp_path / "c")
    summary = json.loads((report / "comparison.json").read_text())
    assert summary["configurations"][0]["balance"]["low"] == pytest.approx(first["low"])
    assert "bootstrap over games" in (report / "comparison.md").read_text()


def test_a_comparison_warns_of_games_cut_off_at_the_turn_limit(null_runs, tmp_path):
    short = api.run("gremios", games=300, seed=3, out=tmp_path / "short", progress=False,
                    settings={"max_turns": 10})
    report = build_comparison([Entry("printed", null_runs[0]), Entry("short", short)], tmp_path / "c")
    text = (report / "comparison.md").read_text()
    assert "Warning: 100.0% of the games of short hit the turn limit" in text
    assert "of the games of printed" not in text
    summary = json.loads((report / "comparison.json").read_text())
    assert [c["truncated_share"] for c in summary["configurations"]][1] == 1.0


def test_a_tweak_that_changed_no_game_says_so(null_runs, tmp_path):
    """A two-player number changed at four players is never read: the games are the same, and
    the comparison says that, not just "no detectable change"."""
    unread = api.run("gremios", games=2000, seed=3, out=tmp_path / "unread", progress=False,
                     settings={"guilds_at_start_two_players": 2})
    report = build_comparison([Entry("printed", null_runs[0]), Entry("unread", unread),
                               Entry("other seed", null_runs[1])], tmp_path / "c")
    text = (report / "comparison.md").read_text()
    assert "unread (4 players): not one game changed" in text
    assert "guilds_at_start_two_players never came up: in neither run's 2,000 games" in text
    assert "other seed (4 players): not one game changed" not in text
    comparisons = json.loads((report / "comparison.json").read_text())["comparisons"]
    assert [c["identical_games"] for c in comparisons] == [True, False]
    assert comparisons[0]["rules_came_up"] == {"guilds_at_start_two_players": [0, 0]}


def test_a_rule_that_came_up_but_changed_no_game_says_the_players_never_used_it(null_runs, tmp_path):
    """The issue's example: a second free cultivation for the Peasant. The Peasant takes the
    free one in many turns but never a second: the games are the same, and the comparison says
    the rule came up, so the null is the players' choice, not a rule that never fired."""
    printed = api.load(null_runs[0]).manifest["rules_came_up"]["peasant_free_cultivations"]
    more = api.run("gremios", games=2000, seed=3, out=tmp_path / "more", progress=False,
                   settings={"peasant_free_cultivations": 2})
    report = build_comparison([Entry("printed", null_runs[0]), Entry("two free", more)], tmp_path / "c")
    text = (report / "comparison.md").read_text()
    assert printed > 0
    assert (f"two free (4 players): not one game changed: every seat's score and result and every "
            f"game's length are those of printed. peasant_free_cultivations came up {printed:,} "
            f"times in the baseline's games and {printed:,} in the variant's, yet no game played "
            "differently: the players never used the difference") in text


def test_a_tweak_says_how_many_games_it_changed(null_runs, tmp_path):
    """A lower turn limit changes exactly the games that were longer than it (the others never
    reach it and play as before): the comparison counts them, from the rows alone."""
    base = api.load(null_runs[0])
    limit = int(base.games["turns"].quantile(0.9))
    longer = int((base.games["turns"] > limit).sum())
    capped = api.run("gremios", games=2000, seed=3, out=tmp_path / "capped", progress=False,
                     settings={"max_turns": limit})
    report = build_comparison([Entry("printed", null_runs[0]), Entry("capped", capped)],
                              tmp_path / "c")
    (comparison,) = json.loads((report / "comparison.json").read_text())["comparisons"]
    assert 0 < longer < 2000 and comparison["games_changed"] == longer
    text = (report / "comparison.md").read_text()
    assert f"The tweak changed {longer:,} of the 2,000 games ({longer / 2000:.1%})" in text


def test_the_false_change_rate_over_many_identical_comparisons_is_nominal(tmp_path):
    """24 independent comparisons of same-rules runs (disjoint pairs of seeds): Holm keeps each
    one's chance of any false change at 5%, so more than 4 of 24 (binomial tail 0.6%) would
    mean the correction fails."""
    flagged = 0
    for pair in range(24):
        a, b = (api.run("gremios", players=2, games=400, seed=1000 + 2 * pair + k,
                        out=tmp_path / f"{pair}-{k}", progress=False) for k in (0, 1))
        flagged += any(c.detected for c in compare_runs(a, b))
    assert flagged <= 4


def test_a_change_is_shown_with_the_decimals_that_tell_its_ends_apart():
    from reports.comparison import _fmt
    row = Change("win_rate", "role", "peasant", 0.2504, 0.2496, -0.0008, math.nan, math.nan, 900, "paired")
    assert _fmt(row) == "25.04% → 24.96%"
    same = Change("win_rate", "role", "peasant", 0.25, 0.25, 0.0, math.nan, math.nan, 900, "paired")
    assert _fmt(same) == "25.0% → 25.0%"


def _no_constants(name):
    raise ValueError(f"not strict JSON: {name}")


def test_comparison_json_is_strict_json_with_null_for_a_missing_number(tmp_path):
    """20 games are too few for an interval: the missing numbers are null, never NaN."""
    a = api.run("gremios", games=20, seed=1, out=tmp_path / "a", progress=False)
    b = api.run("gremios", games=20, seed=1, out=tmp_path / "b", progress=False,
                settings={"vp_inn": 3})
    report = build_comparison([Entry("a", a), Entry("b", b)], tmp_path / "c")
    summary = json.loads((report / "comparison.json").read_text(), parse_constant=_no_constants)
    few = [c for c in summary["comparisons"][0]["changes"] if c["method"] == "too few"]
    assert few and all(c["low"] is None and c["high"] is None and c["p"] is None for c in few)
    assert all(isinstance(c["delta"], float) for c in few)
