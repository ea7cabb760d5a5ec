"""Output folders that an interrupted command goes on with (``--resume``).

A command that plays for long (an experiment, a scan, a balance search, a tournament) first
writes what it was asked into its folder; ``--resume`` then goes on only with the same options,
keeping what was played (each configuration is an ordinary run dataset, finished with
``batch.resume`` when it was cut off). A folder is never silently reused: without ``--resume`` one that holds such work
is refused with a pointer to ``--resume``.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

from simulator.core.batch import make_empty_dir
from simulator.core.dataset import atomic_write_bytes
from simulator.core.errors import UsageError

SHOWN = 60  # an option's value longer than this, or of several lines, is named, not shown


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
        if "options" not in state:  # an experiment's, from before it kept its options here
            raise UsageError(f"--resume {out}: {marker} was written by an earlier playtest; "
                             "start again in a new folder")
        started = state["options"]
        for key in options:
            if started.get(key) != options[key]:
                was, now = repr(started.get(key)), repr(options[key])
                too_long = max(len(was), len(now)) > SHOWN or "\\n" in was + now  # a file's text
                told = f"another {key}" if too_long else f"{key} = {was}, not {now}"
                raise UsageError(f"--resume {out}: the {what} was started with {told}; give the "
                                 "same options, or use a new folder")
        return state
    if path.is_file():
        raise UsageError(f"--out {out}: holds {_a(what)} already; add --resume to go on with it, "
                         "or choose a new folder")
    if out.is_dir() and any(out.iterdir()):
        raise UsageError(f"--out {out}: folder is not empty and holds no {what}; choose a new folder")
    make_empty_dir(out)
    state = {"options": options}
    save(out, marker, state)
    return state


def _a(what: str) -> str:
    return ("an " if what[0] in "aeiou" else "a ") + what


def save(out: Path, marker: str, state: dict) -> None:
    atomic_write_bytes(out / marker, (json.dumps(state, indent=2, default=float) + "\n").encode())


def beside_file(out: Path, options: dict, resume: bool, what: str) -> tuple[Path, dict | None]:
    """For a command whose result is the one file ``out`` (``tune``, ``distill``): the path of
    the state kept beside it (``out.state``, pickled: it may hold an optimiser), and that state
    with ``resume`` (it must have been started with the same ``options``), else None once
    ``out`` is known to be new and its folder made."""
    state_path = out.with_name(out.name + ".state")
    if state_path.exists() and not resume:
        raise UsageError(f"--out {out}: an interrupted {what} is kept in {state_path}; add "
                         "--resume to go on with it, or remove it")
    if resume:
        if not state_path.exists():
            raise UsageError(f"--resume: no {what} state {state_path} to go on with")
        state = pickle.loads(state_path.read_bytes())
        if state["options"] != options:
            raise UsageError(f"--resume: {state_path} was made with other options; give the same ones")
        return state_path, state
    if out.exists():
        raise UsageError(f"--out {out}: exists; choose a new file")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot create the folder ({e.strerror})") from None
    return state_path, None
