"""What the compiled code depends on, and that each function compiles once per argument type.

A game's compiled code is cached in a folder named after the sources its kernel imports
(``simulator/core/jitcache.py``): editing one game keeps the other games' code; editing a core module
recompiles every game; editing replay words or a game's description recompiles nothing.
"""

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from simulator.core import jitcache
from simulator.core.game import GAME_NAMES
from simulator.core.jit import argument_types, compiled, respecialised

UNITS = ("core",) + GAME_NAMES


def project_copy(tmp_path):
    """A copy of the engine's packages (what a checkout of the project holds)."""
    copy = tmp_path / "project"
    for package in ("simulator", "strategies"):
        shutil.copytree(jitcache.ROOT / package, copy / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def run_in(copy, code: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def unit_hashes(copy) -> dict:
    return json.loads(run_in(copy, f"""
        import json
        from simulator.core import jitcache
        print(json.dumps({{u: jitcache.unit_hash(u) for u in {UNITS!r}}}))"""))


def append_comment(path):
    path.write_text(path.read_text() + "\n# an edit\n")


@pytest.mark.parametrize("edited, changed", [
    ("simulator/games/grimoire/turn.py", {"grimoire"}),
    ("strategies/elgrande.py", {"elgrande"}),
    ("simulator/games/gemmis/search.py", {"gemmis"}),
    ("simulator/core/rng.py", set(UNITS)),
    ("simulator/core/trace.py", set(UNITS)),
    ("simulator/games/gremios/story.py", set()),   # replay words
    ("simulator/games/gnomeland/spec.py", set()),  # the game's description
    ("simulator/cli.py", set()),
    ("simulator/core/dataset.py", set()),
])
def test_an_edit_changes_the_compiled_code_of_what_imports_it_and_nothing_else(tmp_path, edited,
                                                                               changed):
    copy = project_copy(tmp_path)
    before = unit_hashes(copy)
    append_comment(copy / edited)
    after = unit_hashes(copy)
    assert {u for u in UNITS if before[u] != after[u]} == changed


def test_the_compiled_sources_are_the_kernels_and_what_they_import_and_no_words():
    names = {str(p.relative_to(jitcache.ROOT)) for p in jitcache.compiled_sources(GAME_NAMES)}
    assert {"simulator/games/gremios/codes.py", "simulator/core/rng.py", "simulator/core/jit.py",
            "strategies/gremios.py", "simulator/games/elgrande/expansion.py"} <= names
    assert not names & {"simulator/cli.py", "simulator/api.py", "simulator/core/config.py",
                        "simulator/core/dataset.py", "simulator/core/jitcache.py"}
    # Leaving story.py and spec.py out is safe only while no compiled module imports them.
    assert not {n for n in names if n.endswith(("/story.py", "/spec.py"))}


def test_every_module_with_compiled_code_counts_in_its_unit():
    sources = set(jitcache.compiled_sources(GAME_NAMES))
    for path in [*jitcache.ROOT.joinpath("simulator").rglob("*.py"),
                 *jitcache.ROOT.joinpath("strategies").glob("*.py")]:
        if jitcache.defines_compiled_code(path):
            assert path in sources, path
            assert jitcache.unit_of(path) is not None, path


GAME_LOADED = """
    import json
    from numba.core import event
    compiles = []
    class Count(event.Listener):
        def on_start(self, ev):
            compiles.append(ev.data["dispatcher"].py_func.__qualname__)
        def on_end(self, ev):
            pass
    event.register("numba:compile", Count())
    from simulator.core.backends import play_part
    from simulator.core.config import make_config
    play_part(make_config("gremios", 4, seed=3), 0, 2, 2)
    print(json.dumps(compiles))
"""


def test_editing_one_game_leaves_another_games_compiled_code_in_use(tmp_path):
    copy = project_copy(tmp_path)
    run_in(copy, GAME_LOADED)  # compiled here if this machine had not yet
    append_comment(copy / "simulator" / "games" / "grimoire" / "turn.py")
    append_comment(copy / "strategies" / "grimoire.py")
    assert json.loads(run_in(copy, GAME_LOADED)) == []


def test_a_constant_argument_compiles_no_function_again(tmp_path, monkeypatch):
    module = tmp_path / "constants_module.py"
    module.write_text(textwrap.dedent("""
        from simulator.core.jit import compiled
        K = 5

        @compiled
        def add(x, y):
            return x + y

        @compiled
        def caller(a):
            return add(3, 1) + add(4, 2) + add(K, a) + add(a, True) + add(a, 1.5)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import constants_module
    assert constants_module.caller(1) == (3 + 1) + (4 + 2) + (5 + 1) + (1 + 1) + (1 + 1.5)
    assert len(constants_module.add.signatures) == 3  # (int, int), (int, bool), (int, float)
    assert respecialised({"add": constants_module.add}) == {}


def test_the_check_finds_a_function_compiled_for_each_literal():
    from numba import njit

    @njit
    def add(x, y=0):
        return x + y

    @njit
    def caller(a):
        return add(3) + add(4) + add(a) + add(a, 0)

    caller(1)
    assert len({argument_types(s) for s in add.signatures}) == 1
    assert respecialised({"add": add}) == {"add": 4}


def test_no_compiled_function_takes_a_default_argument_unless_compiled_into_its_callers():
    """numba types an omitted argument by its default: each pattern of omitted arguments would
    be another compile of the function."""
    found = []
    for path in jitcache.compiled_sources(GAME_NAMES):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and (node.args.defaults or node.args.kw_defaults):
                decorators = [ast.unparse(d) for d in node.decorator_list]
                if any(d.startswith("compiled") for d in decorators) and \
                        "compiled(inline='always')" not in decorators:
                    found.append(f"{path.relative_to(jitcache.ROOT)}:{node.lineno} {node.name}")
    assert not found, found


def test_a_first_run_says_it_is_compiling_and_a_later_one_does_not(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(jitcache, "unit_folder", lambda unit: tmp_path)
    with jitcache.first_compile_notice("gremios", "gremios", 43):
        pass
    assert capsys.readouterr().err == \
        "playtest: compiling gremios (first run on this machine, about 43 s)\n"
    with jitcache.first_compile_notice("gremios", "gremios", 43):
        pass
    assert capsys.readouterr().err == ""


def test_every_game_says_how_long_its_first_compile_takes():
    import importlib
    for name in GAME_NAMES:
        heuristic, searching = importlib.import_module(f"simulator.games.{name}.spec").FIRST_COMPILE_S
        assert heuristic > 0 and searching > 0, name
