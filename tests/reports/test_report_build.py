"""The report built from small real runs: every chart and section, numbers that agree with the
dataset, provenance, generic behaviour without roles or declared columns, clear errors, and an
atomic write."""

import base64
import html
import json
import re
import shutil
import struct

import polars as pl
import pytest

from reports import build, charts, stats
from reports.build import build_report
from simulator import api
from simulator.core.errors import UsageError

EXPECTED_CHARTS = {"seat_effect", "strategy_strength", "role_strength", "role_matrix",
                   "role_choice", "score_by_role", "score_by_strategy", "winning_score",
                   "points_by_role", "points_by_strategy", "coins_by_role", "coins_by_strategy",
                   "game_length", "leader_wins"}
SECTIONS = ["Findings", "Seat effect", "Strategy strength", "Role strength", "Role against role",
            "Which roles are picked when dealt?", "Expected score", "What score wins?",
            "Where points come from", "Game length", "How games unfold", "Provenance", "How to read this report"]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def summary_of(report):
    return json.loads((report / "summary.json").read_text())


# --- the report of a real run -------------------------------------------------------------

def test_report_has_every_file_and_chart(report_dir):
    for name in ("report.html", "report.md", "summary.json"):
        assert (report_dir / name).is_file()
    pngs = {p.stem for p in (report_dir / "charts").glob("*.png")}
    assert pngs == EXPECTED_CHARTS
    for p in (report_dir / "charts").glob("*.png"):
        width, height = png_size(p.read_bytes())
        assert width >= 600 and height >= 250, p.name
    s = summary_of(report_dir)
    assert set(s["charts"]) == EXPECTED_CHARTS
    assert all((report_dir / rel).is_file() for rel in s["charts"].values())


def test_markdown_and_html_carry_every_section_and_the_same_findings(report_dir):
    md = (report_dir / "report.md").read_text()
    page = (report_dir / "report.html").read_text()
    headings = re.findall(r"^#+ (.+)$", md, flags=re.M)
    for section in SECTIONS:
        assert any(h.startswith(section) for h in headings), section
        assert re.search(rf"<h[23][^>]*>{re.escape(section)}", page), section
    findings = summary_of(report_dir)["findings"]
    assert len(findings) >= 3
    for item in findings:
        assert f"- {item}" in md
        assert f"<li>{item}</li>" in html.unescape(page)
    for key, rel in summary_of(report_dir)["charts"].items():
        assert f"]({rel})" in md, key


def test_html_is_self_contained_with_every_chart_embedded(report_dir):
    page = (report_dir / "report.html").read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), "network reference"
    assert "<link" not in page and "<script" not in page
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)"[^>]*data-chart="([^"]+)"', page)
    assert {key for _, key in images} == EXPECTED_CHARTS and len(images) == len(EXPECTED_CHARTS)
    charts_dir = report_dir / "charts"
    for data, key in images:
        assert base64.b64decode(data) == (charts_dir / f"{key}.png").read_bytes(), key


def test_numbers_agree_with_the_dataset(report_dir, small_run):
    data = api.load(small_run)
    seats, games = data.seats, data.games
    s = summary_of(report_dir)
    assert s["report"]["n_games"] == games.height == data.manifest["n_games"]
    expected = seats.group_by("seat").agg(pl.col("win_share").sum().alias("wins"), pl.len().alias("n"))
    for row in s["seat_effect"]:
        e = expected.filter(pl.col("seat") == row["seat"]).row(0, named=True)
        assert (row["n"], row["wins"]) == (e["n"], pytest.approx(e["wins"]))
        assert row["win_rate"] == pytest.approx(e["wins"] / e["n"])
        assert row["fair"] == pytest.approx(0.25)
        assert (row["low"], row["high"]) == pytest.approx(stats.wilson_interval(e["wins"], e["n"]))
        assert row["low"] < row["win_rate"] < row["high"]
    role_rates = seats.group_by("role").agg(pl.col("win_share").mean().alias("rate"),
                                            pl.col("score").mean().alias("mean"))
    reported = {r["role"]: r for r in s["roles"]["win_rates"]}
    assert set(reported) == set(role_rates["role"])
    for r in role_rates.iter_rows(named=True):
        assert reported[r["role"]]["win_rate"] == pytest.approx(r["rate"])
    by_role = {r["role"]: r for r in s["scores"]["by_role"]}
    for r in role_rates.iter_rows(named=True):
        assert by_role[r["role"]]["mean"] == pytest.approx(r["mean"])
    winning = seats.filter("winner").group_by("game_id").agg(pl.col("score").max())
    assert s["scores"]["winning_score"]["mean"] == pytest.approx(winning["score"].mean())
    assert sum(b["count"] for b in s["scores"]["winning_score"]["histogram"]) == games.height
    assert s["game_length"]["truncated"] == games["truncated"].sum()
    assert s["game_length"]["mean"] == pytest.approx(games["turns"].mean())
    # roles chosen when dealt: counted straight from the two columns
    rnc = data.manifest["columns"]["role_not_chosen"]
    for r in s["roles"]["choice"]:
        chose = seats.filter(pl.col(rnc).is_not_null())
        dealt = chose.filter((pl.col("role") == r["role"]) | (pl.col(rnc) == r["role"])).height
        kept = chose.filter(pl.col("role") == r["role"]).height
        assert (r["dealt"], r["chosen"]) == (dealt, kept)
    # where points come from: the declared sources add up to the mean score
    for r in s["sources"]["point_sources"]["by_strategy"]:
        total = sum(r[c] for c in data.manifest["columns"]["point_sources"])
        assert total + r["other"] == pytest.approx(r["score"])


def test_how_games_unfold_agrees_with_the_dataset(report_dir, small_run):
    unfolding = summary_of(report_dir)["unfolding"]
    games = api.load(small_run).games
    for at in ("third", "two_thirds"):
        won = games[f"leader_at_{at}_won"].drop_nulls()
        assert unfolding[f"leader_at_{at}"]["games_led"] == len(won)
        assert unfolding[f"leader_at_{at}"]["win_rate"] == pytest.approx(won.mean())
        low, high = unfolding[f"leader_at_{at}"]["low"], unfolding[f"leader_at_{at}"]["high"]
        assert low < won.mean() < high
    assert unfolding["lead_changes"]["mean"] == pytest.approx(games["lead_changes"].mean())
    per_turn = (games["decisions"] / games["turns"]).mean()
    assert unfolding["decisions_per_turn"]["mean"] == pytest.approx(per_turn)
    assert unfolding["fair"] == pytest.approx(0.25)
    text = (report_dir / "report.md").read_text()
    assert "Leading, in this game: A player leads after a turn when their victory points" in text


def test_findings_name_the_largest_imbalance(report_dir):
    s = summary_of(report_dir)
    # the default mix holds several strategies: a role's verdict rests on its adjusted rate
    assert s["roles"]["verdict_rate"] == "strategy-adjusted"
    roles = [{**r, "win_rate": r["adjusted_rate"], "low": r["adjusted_low"],
              "high": r["adjusted_high"], "significant": r["adjusted_significant"]}
             for r in s["roles"]["win_rates"]]
    rows = [r for r in roles + s["seat_effect"] + s["strategies"]["win_rates"] if r["significant"]]
    assert rows, "a 2,000-game Gremios run has clear imbalances"
    top = max(rows, key=lambda r: abs(r["win_rate"] - r["fair"]))
    rate = f"{100 * top['win_rate']:.1f}% ± {100 * (top['high'] - top['low']) / 2:.1f}%"
    assert rate in s["findings"][0] and "against a fair 25.0%" in s["findings"][0]
    # the seat that departs most from its fair share is named among the findings
    seat = max(s["seat_effect"], key=lambda r: abs(r["win_rate"] - r["fair"]))
    assert seat["significant"], "2,000 four-player games show the seat effect"
    name = f"{['1st', '2nd', '3rd', '4th'][seat['seat']]} player (seat {seat['seat']})"
    assert any(name in f for f in s["findings"])


def test_same_colour_for_a_role_in_every_chart(report_dir):
    s = summary_of(report_dir)
    roles = sorted(r["role"] for r in s["roles"]["win_rates"])
    assert s["colours"]["roles"] == charts.Palette(roles).as_dict()
    assert len(set(s["colours"]["roles"].values())) == len(roles)
    assert charts.Palette(list(reversed(roles))).as_dict() == charts.Palette(roles).as_dict()


def test_provenance_lists_overrides_assumptions_and_run_facts(three_player_run, tmp_path):
    report = build_report(three_player_run, tmp_path / "r")
    s = summary_of(report)
    prov = s["provenance"]
    manifest = json.loads((three_player_run / "manifest.json").read_text())
    for key in ("game", "mode", "n_players", "strategies", "rules_version", "seed", "n_games",
                "created", "package_version"):
        assert prov[key] == manifest[key], key
    assert [p["name"] for p in prov["overrides"]] == ["victory_points_to_win"]
    assumptions = [p["name"] for p in manifest["parameters"] if p["assumption"]]
    assert [p["name"] for p in prov["assumptions"]] == assumptions
    md = (report / "report.md").read_text()
    assert "| victory_points_to_win | 12 | 10 |" in md
    for name in assumptions:
        assert name in md
    for key in manifest["notes"]:
        assert key.replace("_", " ") in md


def test_small_run_says_too_few_games_and_skips_fixed_roles(three_player_run, tmp_path):
    report = build_report(three_player_run, tmp_path / "r")
    s = summary_of(report)
    assert all(r["fair"] == pytest.approx(1 / 3) for r in s["seat_effect"])
    sparse = [c for c in s["roles"]["matrix"] if c["n"] < stats.MIN_SAMPLE]
    assert sparse and all(c["win_rate"] is None and not c["enough"] for c in sparse)
    md = (report / "report.md").read_text()
    assert charts.TOO_FEW in md or "'–' = too few games" in md
    # the pirate was given to seat 0 (no choice): only the two seats that chose count as deals
    seats = api.load(three_player_run).seats
    chose = seats.filter(pl.col("role_not_chosen").is_not_null())
    assert chose.height == 2 * 150 and seats.filter(pl.col("role") == "pirate").height >= 150
    choice = {r["role"]: r for r in s["roles"]["choice"]}
    assert sum(r["dealt"] for r in choice.values()) == 2 * chose.height
    assert sum(r["chosen"] for r in choice.values()) == chose.height
    for role, r in choice.items():
        assert r["dealt"] == chose.filter((pl.col("role") == role)
                                          | (pl.col("role_not_chosen") == role)).height
    assert choice.get("pirate", {"chosen": 0})["chosen"] == chose.filter(
        pl.col("role") == "pirate").height


def test_lower_confidence_gives_narrower_intervals(small_run, tmp_path, report_dir):
    narrow = summary_of(build_report(small_run, tmp_path / "r80", confidence=0.8))
    wide = summary_of(report_dir)
    assert narrow["report"]["confidence"] == 0.8
    for a, b in zip(narrow["seat_effect"], wide["seat_effect"]):
        assert a["win_rate"] == pytest.approx(b["win_rate"])
        assert a["high"] - a["low"] < b["high"] - b["low"]


# --- generic: other shapes of dataset -----------------------------------------------------

def test_a_game_without_roles_or_declared_columns(small_run, tmp_path, rewrite_run):
    run = rewrite_run(small_run, tmp_path / "plain",
                      seats_fn=lambda df: df.with_columns(pl.lit(None, pl.String).alias("role")),
                      manifest_fn=lambda m: {k: v for k, v in m.items() if k not in ("columns", "notes")})
    report = build_report(run, tmp_path / "r")
    s = summary_of(report)
    assert s["roles"] is None and s["sources"] == {}
    assert {p.stem for p in (report / "charts").glob("*.png")} == {
        "seat_effect", "strategy_strength", "score_by_strategy", "winning_score", "game_length",
        "leader_wins"}  # the core's columns, in every game
    md = (report / "report.md").read_text()
    assert "has no roles" in md and "declares no point sources" in md
    assert "How games unfold" in md and "Leading, in this game" not in md  # no rule notes


def test_seats_holding_two_roles(tmp_path, rewrite_run):
    # a two-role mode ("pirate+trader"): made from a two-player run by joining both dealt cards
    base = api.run("gremios", players=2, games=400, seed=2, out=tmp_path / "two", progress=False)
    run = rewrite_run(base, tmp_path / "duel", seats_fn=lambda df: df.with_columns(
        (pl.col("role") + "+" + pl.col("role_not_chosen")).alias("role"),
        pl.lit(None, pl.String).alias("role_not_chosen")))
    report = build_report(run, tmp_path / "r")
    s = summary_of(report)
    seats = api.load(run).seats
    held = seats.select(pl.col("role").str.split("+")).explode("role")["role"].value_counts()
    reported = {r["role"]: r["n"] for r in s["roles"]["win_rates"]}
    assert reported == dict(held.iter_rows())
    assert s["roles"]["roles_per_seat_combined"] is True
    assert s["roles"]["choice"] is None
    assert "No role choices are recorded" in (report / "report.md").read_text()
    assert "role_choice" not in s["charts"]


# --- errors and atomic writing ------------------------------------------------------------

def one_line_error(path, **kwargs):
    with pytest.raises(UsageError) as e:
        build_report(path, **kwargs)
    message = str(e.value)
    assert "\n" not in message
    return message


def test_not_a_run_folder(tmp_path):
    assert "not a folder" in one_line_error(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    assert "no manifest.json" in one_line_error(tmp_path / "empty")


def test_missing_part(small_run, tmp_path, copy_run):
    run = copy_run(small_run, tmp_path / "run")
    next((run / "games").glob("*.parquet")).unlink()
    assert "missing" in one_line_error(run)
    assert not (run / "report").exists()


def test_truncated_part(small_run, tmp_path, copy_run):
    run = copy_run(small_run, tmp_path / "run")
    part = next((run / "seats").glob("*.parquet"))
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    assert "truncated or corrupt" in one_line_error(run)
    assert not (run / "report").exists()


def test_empty_dataset(small_run, tmp_path, rewrite_run):
    def empty(m):
        m["parts"] = {"seats": [], "games": []}
        m["n_games"] = 0
        return m
    run = rewrite_run(small_run, tmp_path / "run", manifest_fn=empty)
    assert "no games" in one_line_error(run)


def test_parts_that_disagree_with_the_manifest(small_run, tmp_path, rewrite_run):
    run = rewrite_run(small_run, tmp_path / "run",
                      seats_fn=lambda df: df.filter(pl.col("game_id") % 2 == 0))
    assert "incomplete" in one_line_error(run)


def test_bad_confidence(small_run, tmp_path):
    assert "--confidence" in one_line_error(small_run, out=tmp_path / "r", confidence=1.0)
    assert not (tmp_path / "r").exists()


def test_refuses_to_overwrite_a_folder_that_is_not_a_report(small_run, tmp_path):
    (tmp_path / "precious").mkdir()
    (tmp_path / "precious" / "notes.txt").write_text("keep me")
    assert "not a playtest report" in one_line_error(small_run, out=tmp_path / "precious")
    assert (tmp_path / "precious" / "notes.txt").read_text() == "keep me"
    assert "replace the run" in one_line_error(small_run, out=small_run)


def test_a_failed_build_leaves_the_earlier_report_and_no_temporary_folder(small_run, report_dir,
                                                                          tmp_path, monkeypatch):
    out = shutil.copytree(report_dir, tmp_path / "r")
    before = (out / "summary.json").read_text()

    def broken(*args, **kwargs):  # the second chart: the first is already written
        raise RuntimeError("disk full")
    monkeypatch.setattr(charts, "strategy_chart", broken)
    with pytest.raises(RuntimeError):
        build_report(small_run, out)
    assert (out / "summary.json").read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]
    (tmp_path / "fresh").mkdir()
    with pytest.raises(RuntimeError):
        build_report(small_run, tmp_path / "fresh" / "r")
    assert list((tmp_path / "fresh").iterdir()) == []


def test_rebuilding_replaces_the_earlier_report(small_run, report_dir, tmp_path):
    out = shutil.copytree(report_dir, tmp_path / "r")
    assert summary_of(out)["report"]["confidence"] == 0.95
    (out / "stale.txt").write_text("from before")
    build_report(small_run, out, confidence=0.9)
    assert not (out / "stale.txt").exists()
    assert summary_of(out)["report"]["confidence"] == 0.9
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


def test_default_destination_is_inside_the_run(report_dir):
    """The shared report was built with no destination given (conftest.py)."""
    assert report_dir.name == "report" and (report_dir.parent / "manifest.json").is_file()
    assert (report_dir / "report.html").is_file()


def test_table_blocks_refuse_ragged_rows():
    with pytest.raises(ValueError):
        build.Table(["a", "b"], [["1", "2"], ["3"]])
