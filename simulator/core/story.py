"""A game's replay events described by a table: for each log code, its sentence and its fields.

A kernel logs rows (code, a, b, c, d, e, f) (``trace.record``). A game's ``story.py`` declares,
for every code of its ``codes.LOG_KINDS``, how the row reads: an ``Event``, a sentence template
and the fields of its JSON event, each field taken from a slot (or several) and converted where
it is a name or a list, or a ``Choose`` among events where the sentence and its fields differ
with a value of the row. ``tell`` reads a log with the table.

A value is taken from a row as a spec says (``taken``): a slot's name (``"b"``) gives its
number, a tuple of names (``("c", "d")``) the list of their numbers, a table of names and a
slot (``(MODE_NAMES, "a")``) the name the slot's number picks, a function followed by names
(``(gem_name, "c")``) the function of them, and ``fixed(value)`` a value the code always has.
A row holds the slots ``a`` to ``f`` and any names its game's story adds (a running state, the
rules' numbers), so a sentence that needs logic keeps it in a small named function of a spec,
not in a branch per code.
"""

from simulator.core import trace

LOG_FULL = {"kind": "log_full", "text": "(the log is full: the rest of the game is not shown)"}


def taken(spec, row: dict):
    """The value ``spec`` names in ``row``: a slot's number, a list of them, a name picked by
    one, or a function's value of them (see the module's docstring)."""
    if isinstance(spec, str):
        return row[spec]
    head, *names = spec
    if callable(head):
        return head(*(row[name] for name in names))
    if isinstance(head, str):
        return [row[name] for name in spec]
    return head[row[names[0]]]


def fixed(value):
    """A spec of ``taken`` giving ``value`` whatever the row: a field a code always has alike."""
    return (lambda: value,)


def numbered(index: int) -> int:
    """The number players read for a 0-based index (turn 1, token 1, stack 1)."""
    return index + 1


def missing(value: int) -> bool:
    """Whether a slot says "none": a row logs no card, player or place as -1."""
    return value < 0


def first(count: int, *values) -> list:
    """The first ``count`` values: a row holds one slot a player, for the most players."""
    return list(values[:count])


def each_player(values) -> str:
    """Values by player, as "P0=3 P1=5"."""
    return " ".join(f"P{p}={v}" for p, v in enumerate(values))


class Event:
    """How one log code reads. ``text`` is a template over the row's names (its slots, and
    what its story adds), the fields and the ``words`` (values for the sentence only, each a
    spec of ``taken`` over the row and the fields); ``fields`` are the event's fields in their
    order, each a spec of ``taken`` over the row."""

    def __init__(self, text: str, fields: dict | None = None, words: dict | None = None):
        self.text = text
        self.fields = fields or {}
        self.words = words or {}

    def told(self, row: dict) -> tuple[str, dict]:
        """The row's sentence and fields."""
        fields = {name: taken(spec, row) for name, spec in self.fields.items()}
        named = {**fields, **row}  # a field named like a slot ("a") leaves the slot's name
        words = {name: taken(spec, named) for name, spec in self.words.items()}
        return self.text.format_map({**named, **words}), fields


class Choose:
    """One of several events by a value of the row (``by``, a spec of ``taken``): ``cases``
    maps a value to its event, ``otherwise`` is the event of any other value."""

    def __init__(self, by, cases: dict, otherwise: Event | None = None):
        self.by = by
        self.cases = cases
        self.otherwise = otherwise

    def told(self, row: dict) -> tuple[str, dict]:
        value = taken(self.by, row)
        if value in self.cases:
            return self.cases[value].told(row)
        if self.otherwise is None:
            raise ValueError(f"no event for {value!r}")
        return self.otherwise.told(row)


def row_of(entry) -> tuple[int, dict]:
    """A log entry's code and its slots by name, ``a`` to ``f``."""
    code, *slots = (int(x) for x in entry)
    return code, dict(zip("abcdef", slots))


def describe(table: dict, code: int, row: dict) -> tuple[str, dict]:
    """The sentence and fields of a log row by the game's ``table`` (code -> ``Event`` or
    ``Choose``)."""
    if code not in table:
        raise ValueError(f"unknown log code {code}")
    return table[code].told(row)


def tell(log, table: dict, kinds, running=None) -> list[dict]:
    """A game's log as events in order, each a dict with ``kind`` (``kinds[code]``), ``text``
    and its fields as ``table`` describes them; a full log ends with a ``log_full`` event.
    ``running(code, row)``, where given, adds to each row the names of a state the story
    follows from row to row (the values before the row)."""
    events = []
    for entry in trace.entries(log):
        code, row = row_of(entry)
        if running is not None:
            row.update(running(code, row))
        text, fields = describe(table, code, row)
        events.append({"kind": kinds[code], "text": text, **fields})
    if trace.is_full(log):
        events.append(dict(LOG_FULL))
    return events
