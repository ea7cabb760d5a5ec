"""report.html in headless Chromium, with the network shut off: every chart image loads."""

import os
import re
import shutil
import struct
import subprocess

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

CHECK = """<script>
window.addEventListener("load", function () {
  var rows = [];
  document.querySelectorAll("img").forEach(function (img) {
    rows.push([img.getAttribute("data-chart"), img.complete, img.naturalWidth, img.naturalHeight].join(" "));
  });
  var out = document.createElement("pre");
  out.id = "img-check";
  out.textContent = rows.join("\\n");
  document.body.appendChild(out);
});
</script>"""


def needs_chromium():
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing under CI (.ci/run installs Debian's chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium); CI runs this test")


def test_every_image_loads_in_headless_chromium(report_dir, tmp_path):
    needs_chromium()
    page = (report_dir / "report.html").read_text()
    assert page.count("</body>") == 1
    probe = tmp_path / "probe.html"            # a copy: the report itself stays script-free
    probe.write_text(page.replace("</body>", CHECK + "</body>"))
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
               "--host-resolver-rules=MAP * ~NOTFOUND",       # no network at all
               "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="img-check">(.*?)</pre>', done.stdout, flags=re.S)
    assert found, "the page's load handler did not run"
    rows = [line.split() for line in found.group(1).strip().splitlines()]
    charts = {p.stem: p for p in (report_dir / "charts").glob("*.png")}
    assert sorted(r[0] for r in rows) == sorted(charts)
    for key, complete, width, height in rows:
        expected = struct.unpack(">II", charts[key].read_bytes()[16:24])
        assert complete == "true" and (int(width), int(height)) == expected, key
