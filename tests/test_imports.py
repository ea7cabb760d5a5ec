"""The house's arrows: no module imports one that imports it back (late imports inside functions
count too), a game's players import none of its rules, and the core imports nothing above it.

Read from the sources (every ``import`` anywhere in a file), so nothing is imported here."""

import ast
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from simulator.core.game import GAME_NAMES

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("simulator", "strategies", "reports")


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports (``from a import b`` counts ``a.b`` when it is a
    module, else ``a``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            found.update(f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                         for a in node.names)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports."""
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a circle."""
    names = sorted(graph)
    index = {name: i for i, name in enumerate(names)}
    edges = [(index[a], index[b]) for a in names for b in graph[a]]
    rows, cols = zip(*edges) if edges else ((), ())
    matrix = csr_matrix((np.ones(len(edges)), (rows, cols)), shape=(len(names), len(names)))
    _, label = connected_components(matrix, directed=True, connection="strong")
    groups = {}
    for name, group in zip(names, label):
        groups.setdefault(group, []).append(name)
    return [g for g in groups.values() if len(g) > 1]


def test_no_module_imports_one_that_imports_it_back():
    found = circles(import_graph())
    assert not found, found


def test_the_check_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_players_import_none_of_their_games_rules():
    """A strategy module values what the rules offer: it reads the table (``board``) and the
    game's codes, never the rules that change it (turn, effects, expansion, search...)."""
    graph = import_graph()
    for game in GAME_NAMES:
        allowed = {f"simulator.games.{game}.board", f"simulator.games.{game}.codes"}
        rules = {m for m in graph[f"strategies.{game}"]
                 if m.startswith(f"simulator.games.{game}") and m not in allowed}
        assert not rules, (game, sorted(rules))


def test_the_core_imports_nothing_above_it():
    graph = import_graph()
    for module in graph:
        if module.startswith("simulator.core"):
            above = {m for m in graph[module] if not m.startswith("simulator.core")}
            assert not above, (module, sorted(above))


def test_the_check_sees_a_late_import_inside_a_function(tmp_path):
    path = tmp_path / "late.py"
    path.write_text("def f():\n    from simulator.games.gremios import turn\n    return turn\n")
    modules = {"late": path, "simulator.games.gremios.turn": Path("turn.py")}
    assert imports_of("late", path, modules) == {"simulator.games.gremios.turn"}
