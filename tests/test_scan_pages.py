"""sensitivity.html and balance.html: self-contained pages carrying what their Markdown says,
opened in headless Chromium with the network shut off."""

import json
import re

import pytest

from simulator.balance import BalanceOptions, balance
from simulator.sensitivity import SensitivityOptions, sensitivity
from tests.chromium import chromium, loaded_images, needs_chromium, png_size

# max_turns = 10 cuts every two-player game off (a truncation warning); the victory target
# moves the game; the two-player guild count is the one number the balance search cannot use.
SCANNED = ["max_turns", "victory_points_to_win", "tax_rounding"]


@pytest.fixture(scope="module")
def scan_dir(tmp_path_factory):
    o = SensitivityOptions("gremios", players=2, games=200, metric="turns", params=SCANNED,
                           steps=0, near=1)
    return sensitivity(o, tmp_path_factory.mktemp("scan") / "s", progress=False)


@pytest.fixture(scope="module")
def balance_dir(tmp_path_factory):
    o = BalanceOptions("gremios", goal="roles", players=4, games=240, budget=4, candidates=3,
                       proposals=2, verify_games=300, expert_games=300, search_games=0,
                       params=["tax_threshold", "tax_rounding", "inn_income"])
    return balance(o, tmp_path_factory.mktemp("balance") / "b", progress=False)


def _text(dom: str) -> str:
    """The words a reader sees: tags dropped, entities as characters, spaces collapsed."""
    import html
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", dom)).split())


def _screenshot_is_not_blank(page, tmp_path):
    import numpy as np
    from matplotlib.image import imread
    shot = tmp_path / "shot.png"
    chromium(page, tmp_path, "--window-size=1200,1600", f"--screenshot={shot}")
    pixels = imread(shot)[..., :3]
    # a blank page is one colour; a page of text, tables and a chart is many, and mostly light
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 50
    assert 0.5 < pixels.mean() < 0.99


def test_the_sensitivity_page_shows_verdicts_intervals_warnings_and_the_tornado(scan_dir, tmp_path):
    result = json.loads((scan_dir / "sensitivity.json").read_text())
    page = (scan_dir / "sensitivity.html").read_text()
    assert "<script" not in page and "src=\"http" not in page  # self-contained, nothing to fetch
    needs_chromium()
    dom, images = loaded_images(scan_dir / "sensitivity.html", tmp_path)
    assert [i[0] for i in images] == ["tornado"]
    assert images[0][1] == "true" and tuple(map(int, images[0][2:])) == png_size(scan_dir / "tornado.png")
    shown = _text(dom)
    md = (scan_dir / "sensitivity.md").read_text()
    for heading in ("Parameters ranked by their largest effect", "Warning: games cut off at the turn limit",
                    "No detectable effect", "Every value tried"):
        assert f"## {heading}" in md and heading in shown
    assert "max_turns = 10: 100.0% of games truncated" in shown
    # every point's interval (at the level of the corrected verdicts), as the Markdown gives it
    for r in result["points"]:
        interval = f"{r['low']:+.2f} turns to {r['high']:+.2f} turns"
        assert interval in shown and interval in md
    # the ranking's rows: printed value, value tried, effect, interval, verdict
    for rank, e in enumerate(result["ranking"], 1):
        big = e["largest"]
        verdict = ("detected" if e["detected"] else
                   "no effect (identical games)" if e["identical"] else "no detectable effect")
        row = (f"{rank} {e['parameter']} {e['printed']} {big['value']} {big['delta']:+.2f} turns "
               f"{big['low']:+.2f} turns to {big['high']:+.2f} turns {verdict}")
        assert row in shown
    assert any(e["detected"] for e in result["ranking"])
    _screenshot_is_not_blank(scan_dir / "sensitivity.html", tmp_path)


def test_the_balance_page_shows_each_proposal_with_its_status(balance_dir, tmp_path):
    result = json.loads((balance_dir / "balance.json").read_text())
    needs_chromium()
    dom, images = loaded_images(balance_dir / "balance.html", tmp_path)
    assert images == []
    shown = _text(dom)
    for heading in ("Proposals (verified on fresh seeds)", "What it cannot change"):
        assert heading in shown
    assert result["proposals"], "the search found nothing to verify: the test shows no status"
    for p in result["proposals"]:
        status = "confirmed" if p["confirmed"] else "not confirmed on fresh seeds"
        d = p["difference"]
        row = (f"{100 * d['delta']:+.1f} ({100 * d['low']:+.1f} to {100 * d['high']:+.1f}) "
               f"{status}")
        assert row in shown and row in (balance_dir / "balance.md").read_text().replace(" | ", " ")
        assert f"playtest experiment {p['experiment']}" in shown
    _screenshot_is_not_blank(balance_dir / "balance.html", tmp_path)
