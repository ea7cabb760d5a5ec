"""numba's on-disk cache, kept in a folder named after the engine's source code.

numba keys a cached function on its own file's timestamp, so an edit to a helper in another
module can leave a caller's stale machine code in use. Naming the cache folder after a hash of
the compiled sources (``compiled_sources``) makes any edit of compiled code start from a clean
cache, and lets several checkouts or installed versions share one machine without mixing their
code. This runs before
any kernel is defined; an explicit NUMBA_CACHE_DIR from the user wins.
"""

import functools
import hashlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEEP_OLD_CACHES_DAYS = 7


@functools.cache
def source_hash() -> str:
    """Hash of the compiled sources as loaded by this process (computed once): every game and
    strategy module (kernels, and the constants they compile in, such as log codes) and the core
    modules that use numba. The command line, the API and the reports do not count: editing them
    does not throw the compiled code away."""
    digest = hashlib.sha256()
    for path in compiled_sources():
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_sources() -> list[Path]:
    # A game's spec.py only describes the game to the command line (columns, notes, report
    # hints); no kernel imports it, so editing it keeps the compiled code.
    files = sorted(p for p in (ROOT / "simulator" / "games").rglob("*.py") if p.name != "spec.py") + \
        sorted((ROOT / "strategies").rglob("*.py"))
    for path in sorted((ROOT / "simulator" / "core").rglob("*.py")):
        text = path.read_bytes()
        if b"\nfrom numba" in text or b"\nimport numba" in text:
            files.append(path)
    return files


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "playtest"


def use_fresh_cache() -> None:
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    root = cache_root()
    folder = root / f"numba-{source_hash()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        cutoff = time.time() - KEEP_OLD_CACHES_DAYS * 86400
        for old in root.glob("numba-*"):
            if old != folder and old.stat().st_mtime < cutoff:
                import shutil
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return  # no writable cache: numba falls back to its default place
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:  # imported before us: point its config at the folder too
        sys.modules["numba"].config.CACHE_DIR = str(folder)
