"""Experiment files mutated at random (Hypothesis): every file the tool refuses is refused in one
line with exit code 2 and nothing written, never with a traceback."""

import json
import os
import math
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import cli
from simulator.core.errors import UsageError
from simulator.experiment import load_experiment

EXAMPLES = sorted((Path(__file__).parents[2] / "experiments").glob("*.toml"))


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"


def toml_text(data: dict, prefix: tuple = ()) -> str:
    """``data`` as TOML: a table's plain values, then its sub-tables under their headers."""
    plain = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    text = ""
    if prefix:
        text += "[" + ".".join(json.dumps(k) for k in prefix) + "]\n"
    text += "".join(line + "\n" for line in plain)
    for k, v in data.items():
        if isinstance(v, dict):
            text += "\n" + toml_text(v, prefix + (k,))
    return text


def paths(data, prefix=()):
    """Every key path of the parsed file, tables and values."""
    for k, v in data.items():
        yield prefix + (k,)
        if isinstance(v, dict):
            yield from paths(v, prefix + (k,))


VALUES = st.one_of(
    st.integers(-10**12, 10**12), st.integers(-3, 40), st.floats(allow_nan=True),
    st.text(max_size=12), st.booleans(), st.lists(st.integers(-3, 40), max_size=4),
    st.lists(st.text(max_size=6), max_size=3), st.just({}), st.just({"colour": 1}))


@st.composite
def mutated(draw):
    path = draw(st.sampled_from(EXAMPLES))
    data = tomllib.loads(path.read_text())
    key = draw(st.sampled_from(list(paths(data))))
    *parent_keys, last = key
    parent = data
    for k in parent_keys:
        parent = parent[k]
    how = draw(st.sampled_from(["replace", "delete", "add"]))
    if how == "replace":
        parent[last] = draw(VALUES)
    elif how == "delete":
        del parent[last]
    else:
        (parent[last] if isinstance(parent[last], dict) else parent)["unknown_key"] = draw(VALUES)
    return path.name, toml_text(data)


@settings(max_examples=int(os.environ.get("MUTATIONS", 150)), deadline=None, derandomize=not os.environ.get("MUTATIONS"),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=mutated())
def test_a_mutated_experiment_file_is_read_or_refused_in_one_line(case, tmp_path_factory, monkeypatch,
                                                                capsys):
    name, text = case
    folder = tmp_path_factory.mktemp("mutated")
    file = folder / name
    file.write_text(text)
    try:
        load_experiment(file, games=10)
    except UsageError as e:
        assert "\n" not in str(e).strip(), str(e)
    else:
        return  # a file the tool accepts would be run; that is the other tests' business
    out = folder / "out"
    monkeypatch.setattr("sys.argv", ["playtest", "experiment", str(file), "--games", "10",
                                     "--out", str(out)])
    with pytest.raises(SystemExit) as exit_:
        cli.entry()
    err = capsys.readouterr().err
    assert exit_.value.code == 2, err
    assert err.count("\n") == 1 and err.startswith("playtest: error: "), err
    assert not out.exists()
