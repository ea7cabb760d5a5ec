"""A game's seat and game columns, declared once by name.

``columns("score", "rank", ...)`` numbers the names in order: a kernel writes
``row[SEAT.score] = ...`` by name, never by a position kept in step with a list, and the
dataset's column names are the declaration's ``_fields``. numba reads a global namedtuple as
constants, so the names cost nothing in compiled code.
"""

from collections import namedtuple


def columns(*names: str):
    """The columns ``names`` in order: a namedtuple whose field ``name`` holds its index."""
    return namedtuple("Columns", names)(*range(len(names)))
