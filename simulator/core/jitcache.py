"""numba's on-disk cache: one folder for each game and one for the core, each named after the
sources its code is compiled from.

numba checks a cached function against its own file only, so an edit to a helper in another
module could leave a caller's stale machine code in use. Each compiled unit therefore keeps its
cache in a folder named after a hash of what its code is compiled from: for a game, the modules
of its folder that define compiled code (its kernel, its search player's verbs) and every project
module they import, directly or not (its rules and players, the core modules they use); for the
core, its compiled modules. Editing one game recompiles that
game alone; editing a core module, every game that imports it; editing words that no compiled
module imports (a game's ``story.py`` and ``spec.py``, the command line, the reports) recompiles
nothing. Inside a folder a function's cache lies under its module's path relative to the project,
so checkouts with the same sources share their compiled code.

``use_unit_caches`` runs before any kernel is defined (``simulator/__init__.py``). The folders
lie under ``NUMBA_CACHE_DIR`` when it is set, else under ``$XDG_CACHE_HOME/playtest``; folders
unused for a week are removed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "simulator" / "games"
CORE = ROOT / "simulator" / "core"
KEEP_OLD_CACHES_DAYS = 7
# numba's settings that change the machine code it writes (the hash covers them too).
CODEGEN_SETTINGS = ("NUMBA_OPT", "NUMBA_LOOP_VECTORIZE", "NUMBA_SLP_VECTORIZE", "NUMBA_CPU_NAME",
                    "NUMBA_CPU_FEATURES", "NUMBA_BOUNDSCHECK", "NUMBA_FASTMATH")


def module_path(name: str) -> Path | None:
    """The project file of module ``name`` (``simulator.core.rng``), or None if not ours."""
    if not name.startswith(("simulator.", "strategies")):
        return None
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


IMPORT = re.compile(r"^(?:from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]*)|import\s+([^\n]*))",
                    re.MULTILINE)


def imported_modules(path: Path) -> set[Path]:
    """The project modules ``path`` imports at its top level (``from a.b import c`` counts
    ``a.b.c`` when that is a module, else ``a.b``). Package ``__init__`` files run on the way
    hold no compiled code and are not counted. (A regular expression, not a parse: this runs
    at every start.)"""
    found = set()
    for source, names, plain in IMPORT.findall(path.read_text()):
        if source:
            listed = [n.split()[0] for n in names.strip("()").replace("\n", " ").split(",")
                      if n.strip() and not n.strip().startswith("#")]
            modules = [f"{source}.{n}" if module_path(f"{source}.{n}") else source for n in listed]
        else:
            modules = [n.split()[0] for n in plain.split(",") if n.strip()]
        for name in modules:
            target = module_path(name)
            if target is not None and target != path:
                found.add(target)
    return found


def import_closure(start: list[Path]) -> list[Path]:
    """``start`` and every project module they import, directly or not, in a stable order."""
    seen, todo = set(), list(start)
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(imported_modules(path))
    return sorted(seen)


COMPILING_DECORATOR = re.compile(r"^\s*@(compiled|overload|intrinsic)\b", re.MULTILINE)


def defines_compiled_code(path: Path) -> bool:
    """Whether a module defines a function numba compiles (``@compiled``, ``@overload``...)."""
    return COMPILING_DECORATOR.search(path.read_text()) is not None


def core_sources() -> list[Path]:
    """The core's compiled modules and what they import."""
    return import_closure([p for p in sorted(CORE.glob("*.py")) if defines_compiled_code(p)])


def game_sources(game: str) -> list[Path]:
    """What a game's compiled code is made from: the modules of its folder that define compiled
    code (its kernel, and its search player's verbs, which no rule imports) and everything they
    import."""
    return import_closure([p for p in sorted((GAMES / game).glob("*.py"))
                           if defines_compiled_code(p)])


def compiled_sources(games) -> list[Path]:
    """Every module the compiled code of ``games`` is made from (the core's among them)."""
    return sorted(set(core_sources()).union(*(game_sources(g) for g in games)))


def unit_of(path: Path) -> str | None:
    """The compiled unit a project file belongs to: its game, "core", or None (not compiled
    by the engine)."""
    path = Path(path).resolve()
    if path.parent == ROOT / "strategies" and path.stem != "__init__":
        return path.stem
    if path.parent.parent == GAMES:
        return path.parent.name
    if path.parent == CORE:
        return "core"
    return None


@functools.cache
def unit_hash(unit: str) -> str:
    """Hash of the sources unit ``unit``'s code is compiled from, and numba's code settings."""
    digest = hashlib.sha256()
    for path in core_sources() if unit == "core" else game_sources(unit):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    for name in CODEGEN_SETTINGS:
        digest.update(f"{name}={os.environ.get(name, '')}\0".encode())
    return digest.hexdigest()[:16]


def source_hash(game: str) -> str:
    """What a run's compiled code is: the game's unit and the core's (recorded in each run)."""
    return f"{unit_hash(game)}-{unit_hash('core')}"


def cache_root() -> Path:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "playtest"


@functools.cache
def unit_folder(unit: str) -> Path:
    """The folder of ``unit``'s compiled code (made, and marked as used now)."""
    folder = cache_root() / f"{unit}-{unit_hash(unit)}"
    folder.mkdir(parents=True, exist_ok=True)
    os.utime(folder)
    return folder


@contextlib.contextmanager
def first_compile_notice(unit: str, what: str, seconds: float | None):
    """Around a call that compiles ``what`` of ``unit`` ("gremios", "gremios's search player")
    on a machine where it has not compiled yet: say so on stderr, with the time it takes on
    the project's machine, and mark it compiled once the call returns."""
    from numba.core import config
    if config.DISABLE_JIT:
        yield
        return
    marker = unit_folder(unit) / f"compiled {what}"
    if not marker.exists():
        about = f", about {seconds:.0f} s" if seconds else ""
        print(f"playtest: compiling {what} (first run on this machine{about})", file=sys.stderr,
              flush=True)
    yield
    if not marker.exists():
        try:
            marker.touch()
        except OSError:
            pass


def remove_unused_caches() -> None:
    cutoff = time.time() - KEEP_OLD_CACHES_DAYS * 86400
    try:
        for old in cache_root().iterdir():
            if old.is_dir() and is_unit_folder(old) and old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass


def is_unit_folder(folder: Path) -> bool:
    """Whether ``folder`` is one of ours (``<unit>-<16 hex digits>``, or the old ``numba-…``)."""
    unit, _, digest = folder.name.rpartition("-")
    return bool(unit) and len(digest) == 16 and all(c in "0123456789abcdef" for c in digest)


def unit_locator():
    """numba's cache locator for the engine's functions (a class; numba imports it by name)."""
    from numba.core.caching import _CacheLocator, _SourceFileBackedLocatorMixin

    class UnitCacheLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
        """A function's cache in its unit's folder, under its module's path in the project."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            relative = Path(py_file).resolve().parent.relative_to(ROOT)
            self._cache_path = str(unit_folder(unit_of(py_file)) / relative)

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            if unit_of(py_file) is None:
                return None  # not the engine's: numba's own places
            try:
                return super().from_function(py_func, py_file)
            except OSError:
                return None  # no writable cache here: numba's own places

    return UnitCacheLocator


UnitCacheLocator = None  # set by use_unit_caches


def use_unit_caches() -> None:
    """Point numba's cache at the unit folders (before any compiled function is defined)."""
    global UnitCacheLocator
    from numba.core import config

    UnitCacheLocator = unit_locator()
    numba_defaults = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator",
                      "IPythonCacheLocator", "ZipCacheLocator")
    config.CACHE_LOCATOR_CLASSES = ",".join((f"{__name__}.UnitCacheLocator",) + numba_defaults)
    remove_unused_caches()
