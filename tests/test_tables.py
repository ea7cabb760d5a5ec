"""The rule of ``simulator/core/tables.py``: keep a table's array in hand while its record is read.

numba frees an array right after the array's last use, even while a record taken from it is
still being read. ``f(table[0])`` is such a last use: the array can be freed before ``f`` runs,
and whatever is allocated meanwhile (by ``f``, or by another thread of a parallel run) may be
written where the record still points. El Grande's players did this with their copies of the
table: wrong reads, and rarely a crash, in long multi-threaded scans.
"""

import ast

import numpy as np
from numba import njit

from simulator.core import jitcache
from simulator.core.game import GAME_NAMES

RECORD = np.dtype([("a", np.int64, (100,))])


@njit(cache=True)
def _sum_while_allocating(rec):
    junk = np.full(100, 7, dtype=np.int64)  # the size of the freed array: malloc may reuse it
    t = 0
    for i in range(100):
        t += rec.a[i]
    return t + junk[0] * 0


@njit(cache=True)
def _sum_of_table(table):
    return _sum_while_allocating(table[0])


@njit(cache=True)
def _record_passed():
    table = np.zeros(1, dtype=RECORD)
    table[0].a[:] = 1
    return _sum_while_allocating(table[0])  # the array's last use: freed before the call


@njit(cache=True)
def _table_passed():
    table = np.zeros(1, dtype=RECORD)
    table[0].a[:] = 1
    return _sum_of_table(table)  # held by this frame until the call returns


def test_a_table_passed_whole_is_read_intact():
    assert _table_passed() == 100
    # what the rule guards against (malloc's reuse of the freed block is usual, not promised)
    assert _record_passed() in (100, 700)


TABLE_MAKERS = ("new_table", "copy_of")  # the games' one-element state arrays (tables.py)


def _makes_table(node) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) in TABLE_MAKERS


def _offences(tree: ast.AST):
    """(line, text) of every place a function lets go of a table it made (``TABLE_MAKERS``)
    while its record is still read (views of other arrays hold their array; a record does not): ``NAME[0]`` as a call's argument or a returned value, or ``x = NAME[0]``
    with ``x`` read on a later line than ``NAME``'s last use."""
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        made = {t.id for node in ast.walk(fn) if isinstance(node, ast.Assign)
                and _makes_table(node.value) for t in node.targets if isinstance(t, ast.Name)}

        def record_of(node):
            return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                    and node.value.id in made and isinstance(node.slice, ast.Constant)
                    and node.slice.value == 0)

        last = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Name):
                last[node.id] = max(last.get(node.id, 0), node.lineno)
        for node in ast.walk(fn):
            if isinstance(node, ast.Call):
                for a in node.args:
                    if record_of(a):
                        yield node.lineno, f"{fn.name}: {ast.unparse(a)} passed to a call"
            elif isinstance(node, ast.Return) and node.value is not None:
                values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
                for v in values:
                    if record_of(v):
                        yield node.lineno, f"{fn.name}: {ast.unparse(v)} returned"
            elif isinstance(node, ast.Assign) and record_of(node.value):
                for t in node.targets:
                    if isinstance(t, ast.Name) and last.get(t.id, 0) > last[node.value.value.id]:
                        yield node.lineno, (f"{fn.name}: {t.id} = {ast.unparse(node.value)} read "
                                            f"after {node.value.value.id}'s last use")


def test_no_compiled_code_lets_go_of_a_table_while_its_record_is_read():
    found = []
    for path in jitcache.compiled_sources(GAME_NAMES):
        for line, text in _offences(ast.parse(path.read_text())):
            found.append(f"{path.relative_to(jitcache.ROOT)}:{line}: {text}")
    assert not found, "\n".join(found)


def test_the_check_finds_each_kind_of_offence():
    source = '''
def passed(s):
    table = copy_of(s)
    return value(table[0])

def returned():
    table = new_table()
    return table[0]

def read_after(s):
    table = copy_of(s)
    x = table[0]
    change(x)
    return value(x)

def kept(s):
    table = copy_of(s)
    x = table[0]
    change(x)
    return value_of_table(table)

def argument(table):
    return value(table[0])
'''
    found = [text.split(":")[0] for _, text in _offences(ast.parse(source))]
    assert found == ["passed", "returned", "read_after"]
