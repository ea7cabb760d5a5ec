"""A page opened in headless Chromium with the network shut off: its DOM after load, and a
screenshot (the report, sensitivity and balance pages are checked this way)."""

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# Appended to a copy of a page (the page itself stays script-free): one line per image,
# "chart complete width height", once every image has loaded or failed.
IMAGE_CHECK = """<script>
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


def chromium(page: Path, tmp_path: Path, *args: str) -> str:
    """Run headless Chromium on ``page`` with ``args`` (e.g. --dump-dom); its stdout."""
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
               "--host-resolver-rules=MAP * ~NOTFOUND",       # no network at all
               "--virtual-time-budget=10000", *args, page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def loaded_images(page: Path, tmp_path: Path) -> tuple[str, list[list[str]]]:
    """(the DOM after load, [chart, complete, width, height] of each image) of ``page``."""
    text = page.read_text()
    assert text.count("</body>") == 1
    probe = tmp_path / "probe.html"
    probe.write_text(text.replace("</body>", IMAGE_CHECK + "</body>"))
    dom = chromium(probe, tmp_path, "--dump-dom")
    found = re.search(r'<pre id="img-check">(.*?)</pre>', dom, flags=re.S)
    assert found, "the page's load handler did not run"
    return dom, [line.split() for line in found.group(1).strip().splitlines()]


def png_size(path: Path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])
