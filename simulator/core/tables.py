"""One game's state: a one-element numpy record array of the game's own dtype.

``table_factory(STATE)`` gives a game its ``new_table()`` and ``copy_of(s)``: compiled, a plain
record array (the kernels read ``table[0].field``); interpreted (``NUMBA_DISABLE_JIT=1``, or
tests building a state by hand) a recarray, so fields read as attributes there too.

Keep the array, not just ``table[0]``, in hand for as long as the state is read: numba frees an
array after its last use even while a record taken from it is still in use. ``f(table[0])`` is
such a last use (the array may be freed before ``f`` runs): pass the table and take the record
inside. ``tests/test_tables.py`` checks every compiled module for it.
"""

import numpy as np
from numba.extending import overload


def table_factory(dtype: np.dtype):
    """A game's ``(new_table, copy_of)`` for its state's dtype."""
    def new_table():
        """An all-zero game state (``table[0]`` is the state)."""
        return np.zeros(1, dtype=dtype).view(np.recarray)

    def copy_of(s):
        """A table holding a copy of the state ``s`` (keep the table in hand while reading it)."""
        table = np.empty(1, dtype=dtype).view(np.recarray)
        table[0] = s
        return table

    @overload(new_table, jit_options={"cache": True})
    def _compiled():
        return lambda: np.zeros(1, dtype=dtype)

    @overload(copy_of, jit_options={"cache": True})
    def _compiled_copy(s):
        def impl(s):
            table = np.empty(1, dtype=dtype)  # not zeroed: every byte is copied next
            table[0] = s
            return table
        return impl

    return new_table, copy_of
