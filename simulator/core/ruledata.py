"""Rule data: every tweakable number of a game, with its range and its source.

A game's ``rules.toml`` lists its parameters as ``[params.NAME]`` tables with ``value``, either
``range = [min, max]`` (integers) or ``choices = [...]`` (named options, stored as their index),
and ``source``: the rulebook section the value comes from, or ``assumption: why`` where the
rulebook is silent. Loading turns the values into a one-element numpy record whose fields are named
after the parameters, so a kernel reads ``rules.inn_cost``: the numbers are arguments, never
globals that numba would freeze at compile time, and a parameter the kernel reads but the file
lacks is a compile error rather than a silent default. ``[notes]`` holds the assumptions that
are not numbers (a modelling choice and its reason).

Card data is written as tables, a line of numbers a card: ``[tables.NAME]`` lists its ``rows``
(the cards, by the index the kernels know them by) and ``columns`` (the names of a card's
numbers), and ``[tables.NAME.numbers]`` each row's line. The table is the int64 array
``rules.NAME`` of its ``shape`` (rows are its leading axes flattened, columns its trailing ones),
or, with ``fields = { a = shape, b = shape }``, several arrays over the same rows, each taking its
share of the columns in order. Each number is a parameter of its own, named ``{row}_{column}``
(or by the table's ``name``, e.g. ``"spell_{row}"``), so a designer changes a number on a card as
any other: ``--set shop_cost_coin=4``, or in an experiment file. A row repeated in ``rows`` fills
each of its places from the same numbers; ``"-"`` is a number the card does not have (0 in the
array, no parameter), and a row ``"-"`` an index no card holds. A table's ``range`` and
``source`` hold for each of its numbers unless ``ranges`` or ``[tables.NAME.sources]`` give one
for its row, its column or the number itself (the most specific wins).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simulator.core.errors import UsageError


@dataclass(frozen=True)
class Param:
    name: str
    default: int | str
    source: str
    description: str = ""
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def is_assumption(self) -> bool:
        """Whether the value (or part of it) is assumed where the rulebook is silent: its source
        says "assumption", first or after the rulebook passage it reads."""
        return re.search(r"\bassumption\b", self.source, re.IGNORECASE) is not None

    @property
    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(self.choices)
        return f"an integer from {self.low} to {self.high}"

    def encode(self, value) -> int:
        """The integer the kernels see for ``value``."""
        if self.choices:
            return self.choices.index(value)
        return int(value)

    def parse(self, text: str):
        """A value given on the command line or in an experiment file, checked against the range."""
        if self.choices:
            if str(text) not in self.choices:
                raise UsageError(f"--set {self.name}={text}: not allowed; {self.name} must be {self.allowed}")
            return str(text)
        try:
            value = int(str(text), 10)
        except ValueError:
            raise UsageError(f"--set {self.name}={text}: not an integer; {self.name} must be {self.allowed}") from None
        if not self.low <= value <= self.high:
            raise UsageError(f"--set {self.name}={text}: out of range; {self.name} must be {self.allowed}")
        return value


NO_NUMBER = "-"  # a table's number a card does not have


@dataclass(frozen=True)
class Table:
    """A card table of ``rules.toml``: the array ``rules.<name>`` of ``shape``, its numbers in
    order (C order), each the parameter of that name or None (0: the card has no such number)."""

    name: str
    shape: tuple[int, ...]
    cells: tuple[str | None, ...]

    def array(self, encoded: Callable[[str], int]) -> np.ndarray:
        """The array with the values in force (``encoded(name)``: a parameter's)."""
        values = [encoded(cell) if cell is not None else 0 for cell in self.cells]
        return np.array(values, dtype=np.int64).reshape(self.shape)


@dataclass(frozen=True)
class RuleSet:
    """A game's rule data with any overrides applied."""

    game: str
    rules_version: str
    params: dict[str, Param]
    notes: dict[str, str] = field(default_factory=dict)
    overrides: dict[str, int | str] = field(default_factory=dict)
    # the card tables of rules.toml, carried in the record beside the parameters
    card_tables: tuple[Table, ...] = ()

    def value(self, name: str):
        return self.overrides.get(name, self.params[name].default)

    def encoded(self, name: str) -> int:
        """The integer the kernels see for parameter ``name``."""
        return self.params[name].encode(self.value(name))

    def with_overrides(self, settings: dict[str, object]) -> "RuleSet":
        """A copy with ``settings`` (name -> value or text) checked and applied."""
        merged = dict(self.overrides)
        for name, raw in settings.items():
            param = self.params.get(name)
            if param is None:
                raise UsageError(unknown_name("parameter", name, self.params, f"of {self.game}"))
            merged[name] = param.parse(raw)
        return dataclasses.replace(self, overrides=merged)

    def as_record(self) -> np.ndarray:
        """The values in force as a one-element int64 record array, one field per parameter,
        then one per card table.

        A recarray, so ``rules[0].inn_cost`` also reads as an attribute when run interpreted.
        """
        tables = {table.name: table.array(self.encoded) for table in self.card_tables}
        fields = [(name, np.int64) for name in self.params]
        fields += [(name, np.int64, table.shape) for name, table in tables.items()]
        record = np.zeros(1, dtype=fields).view(np.recarray)
        for name in self.params:
            record[0][name] = self.encoded(name)
        for name, table in tables.items():
            record[0][name] = table
        return record

    def describe(self) -> list[dict]:
        """Every parameter with its value in force, marked where overridden (for manifests, reports)."""
        return [
            {
                "name": n,
                "value": self.value(n),
                "default": p.default,
                "overridden": n in self.overrides and self.overrides[n] != p.default,
                "allowed": p.allowed,
                "source": p.source,
                "assumption": p.is_assumption,
            }
            for n, p in self.params.items()
        ]


def parse_settings(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """``["key=value", ...]`` from ``--set`` into a dict, rejecting malformed items."""
    settings = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(f"--set {item}: expected KEY=VALUE, for example --set victory_points_to_win=12")
        settings[key.strip()] = value.strip()
    return settings


def unknown_name(kind: str, name: str, allowed, where: str = "") -> str:
    """The one-line message for a name that is not one of ``allowed``."""
    allowed = list(allowed)
    close = difflib.get_close_matches(str(name), [str(a) for a in allowed], n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    shown = ", ".join(allowed) if len(allowed) <= 15 else ", ".join(allowed[:15]) + ", ..."
    where = f" {where}" if where else ""
    return f"unknown {kind} '{name}'{where}{hint}; allowed: {shown}"


def load_rules(path: Path, game: str) -> RuleSet:
    """Read a game's ``rules.toml``, checking every default against its own range (read once
    a process while the file is unchanged: scans build thousands of configurations)."""
    path = Path(path)
    return _load_rules(path, game, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _load_rules(path: Path, game: str, mtime_ns: int) -> RuleSet:
    with open(path, "rb") as f:
        data = tomllib.load(f)
    params = {}
    for name, entry in data["params"].items():
        if "choices" in entry:
            param = Param(name, entry["value"], entry["source"], entry.get("description", ""),
                          choices=tuple(entry["choices"]))
            if param.default not in param.choices:
                raise RuntimeError(f"{path}: {name} default {param.default!r} is not among its choices")
        else:
            low, high = entry["range"]
            param = Param(name, int(entry["value"]), entry["source"], entry.get("description", ""),
                          low=int(low), high=int(high))
            if not low <= param.default <= high:
                raise RuntimeError(f"{path}: {name} default {param.default} is outside its range")
        params[name] = param
    tables = tuple(table for name, entry in data.get("tables", {}).items()
                   for table in _card_tables(path, name, entry, params))
    return RuleSet(game, str(data["rules_version"]), params, dict(data.get("notes", {})),
                   card_tables=tables)


def _card_tables(path: Path, name: str, entry: dict, params: dict[str, Param]) -> list[Table]:
    """``[tables.NAME]`` as its arrays, its numbers added to ``params`` (see the module's text)."""
    rows, columns = entry["rows"], entry["columns"]
    numbers, sources, ranges = entry["numbers"], entry.get("sources", {}), entry.get("ranges", {})
    fields = entry["fields"] if "fields" in entry else {name: entry["shape"]}
    where = f"{path}: table {name}"
    widths = [int(np.prod(shape)) // len(rows) for shape in fields.values()]
    if [w * len(rows) for w in widths] != [int(np.prod(s)) for s in fields.values()] \
            or sum(widths) != len(columns):
        raise RuntimeError(f"{where}: {len(rows)} rows of {len(columns)} numbers do not fill "
                           + ", ".join(f"{f} {list(s)}" for f, s in fields.items()))
    cards = set(rows) - {NO_NUMBER}
    if set(numbers) != cards:
        raise RuntimeError(f"{where}: rows {sorted(cards ^ set(numbers))} are not both listed "
                           f"and numbered")
    made = {}  # parameter -> the row it is a number of (a repeated row makes it again)
    grid = []  # the parameter of each number, row by row (None: "-")
    for row in rows:
        line = numbers.get(row, [NO_NUMBER] * len(columns))
        if len(line) != len(columns):
            raise RuntimeError(f"{where}: row {row} has {len(line)} numbers, not {len(columns)}")
        grid.append([])
        for column, value in zip(columns, line):
            if value == NO_NUMBER:
                grid[-1].append(None)
                continue
            cell = entry.get("name", "{row}_{column}").format(row=row, column=column)
            if not isinstance(value, int):
                raise RuntimeError(f"{where}: {cell} is {value!r}, neither a number nor {NO_NUMBER!r}")
            if cell in params and made.get(cell) != row:
                raise RuntimeError(f"{where}: {cell} is already a parameter")
            low, high = _most_specific(ranges, cell, column, row, entry["range"])
            if not low <= int(value) <= high:
                raise RuntimeError(f"{where}: {cell} default {value} is outside its range")
            source = _most_specific(sources, cell, column, row, entry["source"])
            params[cell] = Param(cell, int(value), source, entry.get("description", ""),
                                 low=int(low), high=int(high))
            made[cell] = row
            grid[-1].append(cell)
    for kind, given in (("sources", sources), ("ranges", ranges)):
        unused = set(given) - cards - set(columns) - set(made)
        if unused:
            raise RuntimeError(f"{where}: {kind} for {sorted(unused)}, which it does not hold")
    starts = np.cumsum([0] + widths)
    return [Table(array, tuple(shape), tuple(c for line in grid for c in line[start:start + width]))
            for (array, shape), start, width in zip(fields.items(), starts, widths)]


def _most_specific(given: dict, cell: str, column: str, row: str, default):
    """A table's entry for one number: the number's own, else its column's, else its row's."""
    return given.get(cell, given.get(column, given.get(row, default)))
