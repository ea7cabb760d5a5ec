"""Output folders that an interrupted command goes on with (``--resume``).

A command that plays for long (a scan, a balance search, a tournament) first writes what it was
asked into its folder; ``--resume`` then goes on only with the same options, keeping what was
played (each configuration is an ordinary run dataset, finished with ``batch.resume`` when it
was cut off). A folder is never silently reused: without ``--resume`` one that holds such work
is refused with a pointer to ``--resume``.
"""

from __future__ import annotations

import json
from pathlib import Path

from simulator.core.batch import make_empty_dir
from simulator.core.dataset import atomic_write_bytes
from simulator.core.errors import UsageError


def start(out: Path, marker: str, options: dict, resume: bool, what: str) -> dict:
    """The state kept in ``out/marker`` (``{"options": ...}`` and whatever the command keeps
    there): a new one in a new or empty folder, or, with ``resume``, the one there, which must
    have been started with the same ``options``."""
    path = out / marker
    options = json.loads(json.dumps(options))  # as stored: tuples become lists
    if resume:
        if not path.is_file():
            raise UsageError(f"--resume {out}: holds no {what} to go on with (no {marker})")
        state = json.loads(path.read_text())
        started = state["options"]
        for key in options:
            if started.get(key) != options[key]:
                raise UsageError(f"--resume {out}: the {what} was started with {key} = "
                                 f"{started.get(key)!r}, not {options[key]!r}; give the same "
                                 "options, or use a new folder")
        return state
    if path.is_file():
        raise UsageError(f"--out {out}: holds a {what} already; add --resume to go on with it, "
                         "or choose a new folder")
    if out.is_dir() and any(out.iterdir()):
        raise UsageError(f"--out {out}: folder is not empty and holds no {what}; choose a new folder")
    make_empty_dir(out)
    state = {"options": options}
    save(out, marker, state)
    return state


def save(out: Path, marker: str, state: dict) -> None:
    atomic_write_bytes(out / marker, (json.dumps(state, indent=2, default=float) + "\n").encode())
