"""report.html in headless Chromium, with the network shut off: every chart image loads."""

from tests.chromium import loaded_images, needs_chromium, png_size


def test_every_image_loads_in_headless_chromium(report_dir, tmp_path):
    needs_chromium()
    _, rows = loaded_images(report_dir / "report.html", tmp_path)
    charts = {p.stem: p for p in (report_dir / "charts").glob("*.png")}
    assert sorted(r[0] for r in rows) == sorted(charts)
    for key, complete, width, height in rows:
        assert complete == "true" and (int(width), int(height)) == png_size(charts[key]), key
