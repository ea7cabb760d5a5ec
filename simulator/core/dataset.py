"""The run dataset on disk: ``seats/`` and ``games/`` Parquet parts and ``manifest.json``.

Every file is written under a temporary name and renamed once complete, and the manifest is
written last: a folder without a manifest is an unfinished run, never mistaken for a result.
Parts hold a fixed number of games whatever the compute chunk size, so the same run gives the
same bytes however it was split.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from simulator.core.errors import UsageError
from simulator.core.folders import MANIFEST, what_it_is
from simulator.core.unfolding import UNFOLDING_COLUMNS

PROVENANCE_KEY = b"playtest"
CORE_SEAT_COLUMNS = ("game_id", "seat", "strategy", "role", "score", "rank", "winner", "win_share")
CORE_GAME_COLUMNS = ("game_id", "n_players", "first_seat", "turns", "truncated")


def part_name(index: int) -> str:
    return f"part-{index:05d}.parquet"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_table(table: pa.Table, path: Path, provenance: dict) -> None:
    """Write one Parquet part (zstd) with the run's provenance in its metadata, atomically."""
    metadata = dict(table.schema.metadata or {})
    metadata[PROVENANCE_KEY] = json.dumps(provenance, sort_keys=True).encode()
    table = table.replace_schema_metadata(metadata)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, compression="zstd")
    with open(tmp, "rb+") as f:  # on disk before the rename makes it look complete
        os.fsync(f.fileno())
    os.replace(tmp, path)


def names_column(names, ids: np.ndarray) -> pa.Array:
    """A string column naming each id (``names[id]``; null where the id is -1)."""
    lookup = pa.array(list(names) + [None], type=pa.string())
    return lookup.take(pa.array(np.where(ids < 0, len(names), ids)))


def roleless_seat_columns(rows: np.ndarray, names, config, flags=()) -> dict:
    """A game's seat columns from its kernel rows (columns ``names``) for a game without roles:
    strategy, role (none), score, rank, winner first, then the game's own as 16-bit counts
    (``flags`` as booleans)."""
    c = {name: rows[:, i] for i, name in enumerate(names)}
    out = {
        "strategy": names_column(config.strategies, c.pop("strategy_index")),
        "role": np.full(len(rows), None, dtype=object),
        "score": c.pop("score"),
        "rank": c.pop("rank").astype(np.int8),
        "winner": c.pop("winner"),
    }
    for name in flags:
        c[name] = c[name].astype(bool)
    for name, values in c.items():  # small counts: 16 bits keep the parts and memory small
        if values.dtype == np.int64:
            c[name] = values.astype(np.int16)
    out.update(c)
    return out


def seat_table(first_game: int, n_players: int, columns: dict[str, np.ndarray]) -> pa.Table:
    """The seats part: core columns first (game_id, seat, ..., win_share), then the game's own."""
    n_rows = len(columns["score"])
    game_id = first_game + np.arange(n_rows, dtype=np.int64) // n_players
    seat = np.tile(np.arange(n_players, dtype=np.int8), n_rows // n_players)
    winner = columns["winner"].astype(bool)
    winners_per_game = winner.reshape(-1, n_players).sum(axis=1)
    win_share = winner / np.repeat(winners_per_game, n_players)
    data = {"game_id": game_id, "seat": seat}
    data["strategy"] = columns["strategy"]
    data["role"] = pa.array(columns["role"], type=pa.string())  # all null in a game without roles
    for name in ("score", "rank"):
        data[name] = columns[name]
    data["winner"] = winner
    data["win_share"] = win_share
    for name, values in columns.items():
        if name not in data:
            data[name] = values
    return pa.table(data)


def game_table(first_game: int, n_players: int, columns: dict[str, np.ndarray],
               seats: dict[str, np.ndarray]) -> pa.Table:
    """The games part: core columns first, then the game's own, then how the game unfolded
    (``simulator/core/unfolding.py``), completed from the ``seats`` columns (score, winner)."""
    n_rows = len(columns["turns"])
    data = {
        "game_id": first_game + np.arange(n_rows, dtype=np.int64),
        "n_players": np.full(n_rows, n_players, dtype=np.int8),
        "first_seat": columns.pop("first_seat"),
        "turns": columns.pop("turns"),
        "truncated": columns.pop("truncated").astype(bool),
    }
    unfolding = {name: columns.pop(name) for name in UNFOLDING_COLUMNS}
    data.update(columns)
    data.update(unfolding_columns(unfolding, seats, n_players))
    return pa.table(data)


def unfolding_columns(kernel: dict[str, np.ndarray], seats: dict[str, np.ndarray],
                      n_players: int) -> dict:
    """The kernel's unfolding columns with, beside each leader, whether that seat won (null when
    nobody led), and the final margin: the best score less the best score of a seat that did
    not win (0 when every seat won)."""
    winner = seats["winner"].astype(bool).reshape(-1, n_players)
    score = seats["score"].astype(np.int64).reshape(-1, n_players)
    games = np.arange(len(winner))
    out = {"lead_changes": kernel["lead_changes"]}
    for at in ("third", "two_thirds"):
        leader = kernel[f"leader_at_{at}"]
        led = leader >= 0
        won = winner[games, np.where(led, leader, 0)]
        out[f"leader_at_{at}"] = leader.astype(np.int8)
        out[f"leader_at_{at}_won"] = pa.array(won, mask=~led, type=pa.bool_())
    losers = np.where(winner, np.iinfo(np.int64).min, score).max(axis=1)
    out["final_margin"] = np.where(winner.all(axis=1), 0, score.max(axis=1) - losers)
    out["decisions"] = kernel["decisions"]
    return out


@dataclass
class Dataset:
    """A loaded run: ``seats`` and ``games`` as polars frames (lazy if asked), and the manifest."""

    path: Path
    manifest: dict
    seats: pl.DataFrame | pl.LazyFrame
    games: pl.DataFrame | pl.LazyFrame


def read_manifest(path: Path) -> dict:
    path = Path(path)
    if not path.is_dir():
        raise UsageError(f"{path}: not a folder; give the folder of a run (it holds {MANIFEST})")
    manifest_path = path / MANIFEST
    if not manifest_path.is_file():
        raise UsageError(f"{path}: no {MANIFEST}, so not a complete run dataset; {what_it_is(path)}")
    try:
        return json.loads(manifest_path.read_text())
    except json.JSONDecodeError as e:
        raise UsageError(f"{manifest_path}: not valid JSON ({e.msg})") from None


def verify(path: str | Path) -> list[str]:
    """Every problem found in a run folder (an empty list when the dataset is sound).

    Checks that the manifest names each part exactly once and every part is there, that row
    counts match the manifest, that game ids run 0..n-1 with no gap or repeat (and seats
    0..players-1 within each game), that every part has the same columns and types, and that
    each file still has the SHA-256 recorded in the manifest. Parts are read one at a time.
    """
    path = Path(path)
    manifest = read_manifest(path)
    problems = []
    n_games, n_players = manifest.get("n_games"), manifest.get("n_players")
    for table in ("seats", "games"):
        entries = manifest.get("parts", {}).get(table, [])
        files = [e["file"] for e in entries]
        if len(set(files)) != len(files):
            problems.append(f"{table}: a part is listed twice in the manifest")
        on_disk = sorted(p.name for p in (path / table).glob("*.parquet")) if (path / table).is_dir() else []
        extra = sorted(set(on_disk) - set(files))
        if extra:
            problems.append(f"{table}: {len(extra)} part(s) not in the manifest, e.g. {extra[0]}")
        schemas, expected_first = [], 0
        for e in entries:
            file = path / table / e["file"]
            if not file.is_file():
                problems.append(f"{table}/{e['file']}: missing")
                continue
            if sha256(file) != e.get("sha256"):
                problems.append(f"{table}/{e['file']}: checksum differs from the manifest (changed or damaged)")
                continue
            if e["first_game"] != expected_first:
                problems.append(f"{table}/{e['file']}: starts at game {e['first_game']}, expected {expected_first}")
            expected_first = e["first_game"] + e["games"]
            meta = pq.read_metadata(file)
            if meta.num_rows != e["rows"]:
                problems.append(f"{table}/{e['file']}: {meta.num_rows} rows, the manifest says {e['rows']}")
                continue
            schemas.append(meta.schema.to_arrow_schema().remove_metadata())
            problem = _check_ids(file, table, e["first_game"], e["games"], n_players)
            if problem:
                problems.append(f"{table}/{e['file']}: {problem}")
        if schemas and any(not s.equals(schemas[0]) for s in schemas):
            problems.append(f"{table}: the parts do not all have the same columns and types")
        core = CORE_SEAT_COLUMNS if table == "seats" else CORE_GAME_COLUMNS
        if schemas and schemas[0].names[:len(core)] != list(core):
            problems.append(f"{table}: the core columns are not {', '.join(core)}")
        rows = sum(e["rows"] for e in entries)
        expected_rows = n_games * (n_players if table == "seats" else 1)
        if rows != expected_rows:
            problems.append(f"{table}: {rows} rows in the manifest's parts, expected {expected_rows}")
    return problems


def _check_ids(file: Path, table: str, first: int, games: int, n_players: int) -> str:
    """A part must hold games ``first .. first + games - 1`` in order, each with seats 0..n-1
    (one part at a time, so verifying stays within a part's memory)."""
    game_ids = np.arange(first, first + games, dtype=np.int64)
    if table == "games":
        ids = pq.read_table(file, columns=["game_id"]).column("game_id").to_numpy()
        return "" if np.array_equal(ids, game_ids) else "game ids are not its games, each once, in order"
    data = pq.read_table(file, columns=["game_id", "seat"])
    ok = np.array_equal(data.column("game_id").to_numpy(), np.repeat(game_ids, n_players)) and \
        np.array_equal(data.column("seat").to_numpy(), np.tile(np.arange(n_players), games))
    return "" if ok else "not exactly one row per seat for each of its games, in order"


def require_verified(path: str | Path) -> None:
    """Refuse a dataset that fails ``verify``, naming its first problem."""
    problems = verify(path)
    if problems:
        more = f" (and {len(problems) - 1} more; see playtest verify)" if len(problems) > 1 else ""
        raise UsageError(f"{path}: the dataset fails verification: {problems[0]}{more}")


def load(path: str | Path, lazy: bool = False) -> Dataset:
    """Load a run folder's tables as polars frames (``lazy=True`` to scan without reading)."""
    path = Path(path)
    manifest = read_manifest(path)
    frames = []
    for table in ("seats", "games"):
        files = [path / table / f["file"] for f in manifest["parts"][table]]
        missing = [str(f) for f in files if not f.is_file()]
        if missing:
            raise UsageError(f"{path}: {len(missing)} part(s) named in the manifest are missing, "
                             f"e.g. {missing[0]}")
        scan = pl.scan_parquet(files, glob=False) if files else pl.LazyFrame()
        frames.append(scan if lazy else scan.collect())
    return Dataset(path, manifest, frames[0], frames[1])
