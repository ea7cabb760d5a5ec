"""``playtest new-game NAME``: a small playable game to make into one's own.

The templates in ``newgame_templates/`` are a dice race for 2-4 players in the shape every game
has (rule data with a table, the rules in rulebook order, invariants, the replay's event table,
the kernel's columns, the spec; two heuristic players and random; its tests), written with the
game's name put in: ``game/`` becomes ``simulator/games/NAME/``, ``strategies.py``
``strategies/NAME.py`` and ``tests/`` ``tests/NAME/``. The name joins ``GAME_NAMES``
(``simulator/core/game.py``), so the game runs, reports, replays and passes its tests and the
contract tests at once. docs/new-game.md walks from there to a real game.
"""

from __future__ import annotations

import ast
import keyword
import re
import textwrap
from pathlib import Path

from simulator.core.errors import UsageError

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = Path(__file__).with_name("newgame_templates")
SUFFIX = ".tmpl"  # not .py: the templates are no modules of the project
GAME_NAMES_LINE = re.compile(r"^GAME_NAMES = \(([^)]*)\)", re.MULTILINE)
LINE_LENGTH = 100


def title_of(name: str) -> str:
    """The game's title until its designer writes one: ``dice_race`` -> ``Dice Race``."""
    return name.replace("_", " ").title()


def targets(name: str, root: Path = ROOT) -> dict[Path, Path]:
    """Each template and the file it becomes."""
    where = {"game": root / "simulator" / "games" / name, "tests": root / "tests" / name}
    out = {TEMPLATES / f"strategies.py{SUFFIX}": root / "strategies" / f"{name}.py"}
    for folder, target in where.items():
        for template in sorted((TEMPLATES / folder).glob(f"*{SUFFIX}")):
            out[template] = target / template.name.removesuffix(SUFFIX)
    return out


def game_names(game_py: Path) -> tuple[str, ...]:
    return ast.literal_eval(f"({GAME_NAMES_LINE.search(game_py.read_text()).group(1)})")


def check_name(name: str, root: Path = ROOT) -> None:
    """Raise ``UsageError`` (one line) unless ``name`` can be a new game: a lower-case Python
    identifier that names no game, module or folder the game's files would take."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise UsageError(f"new-game {name!r}: not a game's name; a name is a lower-case Python "
                         "identifier: a letter, then letters, digits or underscores (dice_race)")
    if name in game_names(root / "simulator" / "core" / "game.py"):
        raise UsageError(f"new-game {name}: already a game (see 'playtest games')")
    for folder in (root / "simulator" / "games", root / "strategies", root / "tests"):
        for taken in (folder / name, folder / f"{name}.py"):
            if taken.exists():
                raise UsageError(f"new-game {name}: {taken.relative_to(root)} already exists; "
                                 "choose another name")


def with_game_name(game_py: Path, name: str) -> str:
    """``simulator/core/game.py``'s text with ``name`` added at the end of ``GAME_NAMES``."""
    text = game_py.read_text()
    names = ", ".join(f'"{n}"' for n in (*game_names(game_py), name))
    line = f"GAME_NAMES = ({names})"
    if len(line) > LINE_LENGTH:
        line = "GAME_NAMES = (\n" + textwrap.indent(textwrap.fill(names + ",", LINE_LENGTH - 4),
                                                    "    ") + "\n)"
    return GAME_NAMES_LINE.sub(lambda _: line, text, count=1)


def new_game(name: str, root: Path = ROOT) -> list[Path]:
    """Write game ``name`` from the templates into the project at ``root`` and add it to
    ``GAME_NAMES``; the files written, relative to ``root``. Nothing is written for a name
    ``check_name`` refuses."""
    check_name(name, root)
    game_py = root / "simulator" / "core" / "game.py"
    registered = with_game_name(game_py, name)
    written = []
    for template, target in targets(name, root).items():
        text = template.read_text().replace("{{name}}", name).replace("{{title}}", title_of(name))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        written.append(target.relative_to(root))
    game_py.write_text(registered)
    written.append(game_py.relative_to(root))
    return written


def next_steps(name: str) -> str:
    """What ``playtest new-game`` prints once the game is written."""
    return textwrap.dedent(f"""\
        Wrote simulator/games/{name}/, strategies/{name}.py and tests/{name}/, and added {name} to
        GAME_NAMES (simulator/core/game.py): a dice race for 2-4 players, playable now.
        Next:
          playtest run {name} -n 1000 --seed 1 --out runs/{name}   # the first run compiles it
          playtest report runs/{name}
          playtest replay {name} --seed 1 -p 3
          python -m pytest tests/{name}            # its own tests
          python -m pytest tests -k {name}         # the game-wide tests, for {name}
        Then make it your game, step by step: docs/new-game.md""")
