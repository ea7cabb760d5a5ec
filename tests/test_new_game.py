"""``playtest new-game NAME`` (simulator/newgame.py): the game it writes runs, reports, replays
and passes its own tests and the game-wide ones at once, and a name it refuses writes nothing.

Played in a copy of the project (its packages and tests), so no sixth game is left here: the
commands run in subprocesses with PYTHONPATH at the copy. The copy's compiled code is cached with
the same sources' (simulator/core/jitcache.py), so only a first run compiles the new game.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simulator import newgame
from simulator.core.errors import UsageError

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("simulator", "strategies", "reports", "tests")
NAME = "dice_race"
# The game-wide tests that play every game of GAME_NAMES.
GAME_WIDE = ("tests/test_contract.py", "tests/test_event_tables.py", "tests/test_came_up.py", "tests/test_unfolding.py",
             "tests/test_determinism.py", "tests/test_parameter_ranges.py",
             "tests/test_rule_tables.py", "tests/test_sensitivity.py")


def project_copy(where: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, where / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    shutil.copy(ROOT / "pyproject.toml", where / "pyproject.toml")
    return where


def run_in(copy: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONWARNINGS="ignore")
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True,
                          text=True, timeout=timeout)


def playtest(copy: Path, *args: str) -> subprocess.CompletedProcess:
    return run_in(copy, "-c", "from simulator.cli import entry; entry()", *args)


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` and its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    copy = project_copy(tmp_path_factory.mktemp("project"))
    return copy, playtest(copy, "new-game", NAME)


def test_it_writes_the_game_registers_it_and_says_what_next(written):
    copy, done = written
    assert done.returncode == 0, done.stderr
    assert f"playtest run {NAME}" in done.stdout and "docs/new-game.md" in done.stdout
    game = copy / "simulator" / "games" / NAME
    for file in ("rules.toml", "board.py", "turn.py", "invariants.py", "codes.py", "story.py",
                 "kernel.py", "spec.py", "README.md"):
        assert (game / file).is_file(), file
    assert (copy / "strategies" / f"{NAME}.py").is_file()
    assert {p.name for p in (copy / "tests" / NAME).iterdir()} >= {
        "conftest.py", "test_scenarios.py", "test_invariants.py", "test_playout.py"}
    written_text = [p.read_text() for p in [*game.iterdir(), *(copy / "tests" / NAME).iterdir(),
                                            copy / "strategies" / f"{NAME}.py"] if p.is_file()]
    assert not any("{{" in text for text in written_text)
    names = run_in(copy, "-c", "from simulator.core.game import GAME_NAMES; print(GAME_NAMES)")
    assert names.stdout.strip().endswith(f"'elgrande', '{NAME}')")


def test_the_game_runs_reports_and_replays(written):
    copy, _ = written
    run = playtest(copy, "run", NAME, "-n", "1000", "--seed", "1", "--out", "runs/r", "-q")
    assert run.returncode == 0, run.stderr
    report = playtest(copy, "report", "runs/r")
    assert report.returncode == 0, report.stderr
    assert (copy / "runs" / "r" / "report" / "report.html").is_file()
    replay = playtest(copy, "replay", NAME, "--seed", "1", "-p", "3", "--format", "jsonl")
    assert replay.returncode == 0, replay.stderr
    events = [json.loads(line) for line in replay.stdout.splitlines()]
    assert [events[0]["kind"], events[-1]["kind"]] == ["seating", "game_end"]
    assert {"roll", "choice", "bank", "target"} <= {e["kind"] for e in events}


def test_its_tests_and_the_game_wide_tests_pass(written):
    copy, _ = written
    own = run_in(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"tests/{NAME}")
    assert own.returncode == 0, own.stdout[-3000:]
    wide = run_in(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", NAME, *GAME_WIDE)
    assert wide.returncode == 0, wide.stdout[-3000:]  # 5: no test of the game was found


@pytest.mark.parametrize("name, why", [
    ("Dice", "not a game's name"), ("1dice", "not a game's name"),
    ("dice-race", "not a game's name"), ("_dice", "not a game's name"),
    ("class", "not a game's name"), ("gremios", "already a game"),
    ("contract", "tests/contract.py already exists"),
])
def test_a_refused_name_writes_nothing(tmp_path, name, why):
    copy = project_copy(tmp_path)
    before = tree(copy)
    with pytest.raises(UsageError, match=why) as refused:
        newgame.new_game(name, copy)
    assert "\n" not in str(refused.value)
    assert tree(copy) == before


def test_the_command_refuses_a_name_with_one_line_and_exit_2(tmp_path):
    copy = project_copy(tmp_path)
    before = tree(copy)
    done = playtest(copy, "new-game", "grimoire")
    assert done.returncode == 2
    assert done.stderr == "playtest: error: new-game grimoire: already a game (see 'playtest " \
                          "games')\n"
    assert tree(copy) == before


def test_a_long_game_names_line_is_wrapped_and_the_rest_kept(tmp_path):
    game_py = tmp_path / "game.py"
    names = ("gremios", "grimoire", "gemmis", "gnomeland", "elgrande", "dice_race", "card_duel")
    game_py.write_text(f"before\nGAME_NAMES = {names!r}\nafter\n".replace("'", '"'))
    text = newgame.with_game_name(game_py, "worker_placement")
    assert text.startswith("before\nGAME_NAMES = (\n") and text.endswith(")\nafter\n")
    assert max(len(line) for line in text.splitlines()) <= newgame.LINE_LENGTH
    game_py.write_text(text)
    assert newgame.game_names(game_py) == (*names, "worker_placement")
