"""What each command leaves in its output folder, so that any command handed a folder can say
what it holds and how to go on with it (``what_it_is``), and the command line that goes on with
an interrupted one (``resume_command``). The commands name their files from here."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

MANIFEST = "manifest.json"  # a complete run
RUN_PLAN = "run.json"  # a run's options and parts, written first
EXPERIMENT_STARTED = "experiment-started.json"  # what was asked, so --resume goes on with the same
EXPERIMENT_PLAN = "experiment.json"  # a finished experiment
SENSITIVITY_PLAN = "sensitivity-plan.json"
BALANCE_STATE = "balance-plan.json"
TOURNAMENT_STARTED = "tournament-started.json"
CHECK_STATE = "check.json"
LADDER_STARTED = "ladder-started.json"

# The folders of the commands that go on with --resume (simulator/resumable.py): the file each
# writes first, the command, what it is, the page it writes last (so only a finished one has
# it; None: its own file says) and where its runs are.
RESUMABLE = (
    (SENSITIVITY_PLAN, "sensitivity", "sensitivity scan", "sensitivity.html", "runs"),
    (BALANCE_STATE, "balance", "balance search", "balance.html", "verify"),
    (TOURNAMENT_STARTED, "tournament", "tournament", "tournament.md", "run"),
    (CHECK_STATE, "check", "check", None, None),
    (LADDER_STARTED, "ladder", "ladder", "report/ladder.html", "runs"),
)


def resume_command(command: str, argument, options: dict, out: Path) -> str:
    """The command line that goes on with ``command``'s work in ``out``: its argument (the game,
    or the experiment file), the options given (``None`` and empty ones are the defaults, left
    out; settings as --set KEY=VALUE), then --out and --resume."""
    words = ["playtest", command, str(argument)]
    for name, value in options.items():
        if value is None or value == [] or value == {}:
            continue
        if name == "settings":
            words += [w for k, v in value.items() for w in ("--set", f"{k}={v}")]
        else:
            words += [f"--{name.replace('_', '-')}",
                      ",".join(map(str, value)) if isinstance(value, list) else str(value)]
    return shlex.join(words + ["--out", str(out), "--resume"])


def what_it_is(path: Path) -> str:
    """What a folder without a manifest holds, and what to do with it."""
    if (path / RUN_PLAN).is_file():
        return f"it is an unfinished run: finish it with playtest run --resume {path}"
    if (path / EXPERIMENT_STARTED).is_file() and not (path / EXPERIMENT_PLAN).is_file():
        return ("it is an unfinished experiment: go on with playtest experiment FILE --out "
                f"{path} --resume")
    if (path / EXPERIMENT_PLAN).is_file():
        runs = sorted(p.name for p in path.iterdir() if (p / MANIFEST).is_file())
        shown = ", ".join(runs[:4]) + (", ..." if len(runs) > 4 else "")
        return (f"it is an experiment folder: its report is {path / 'comparison'}, its runs are "
                f"the sub-folders ({shown or 'none finished'})")
    for marker, command, what, page, runs_folder in RESUMABLE:
        if (path / marker).is_file():
            return _what_the_command_left(path, marker, command, what, page, runs_folder)
    runs = sorted(p.name for p in path.iterdir() if p.is_dir() and (p / MANIFEST).is_file())
    if runs:
        return f"it holds runs: give one of {', '.join(runs[:4])}{', ...' if len(runs) > 4 else ''}"
    return "not a run folder (a run's folder holds manifest.json, seats/ and games/)"


def _what_the_command_left(path: Path, marker: str, command: str, what: str, page: str | None,
                           runs_folder: str | None) -> str:
    state = json.loads((path / marker).read_text())
    finished = (path / page).is_file() if page else state.get("finished", False)
    if not finished:
        options = state["options"]
        game = options.pop("game")
        return f"it is an unfinished {what}: go on with {resume_command(command, game, options, path)}"
    if runs_folder is None:
        return f"it is a {what} folder: its results are {path / marker}, it holds no runs"
    runs = path / runs_folder
    if (runs / MANIFEST).is_file():
        where = f"its games are the run {runs}"
    else:
        names = sorted(p.name for p in runs.iterdir() if (p / MANIFEST).is_file()) if runs.is_dir() else []
        shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        where = f"its runs are the sub-folders of {runs} ({shown})" if names else "it kept no runs"
    return f"it is a {what} folder: its page is {path / page}, {where}"
