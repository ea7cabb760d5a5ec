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

MANIFEST = "manifest.json"
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
    os.replace(tmp, path)


def seat_table(first_game: int, n_players: int, columns: dict[str, np.ndarray]) -> pa.Table:
    """The seats part: core columns first (game_id, seat, ..., win_share), then the game's own."""
    n_rows = len(columns["score"])
    game_id = first_game + np.arange(n_rows, dtype=np.int64) // n_players
    seat = np.tile(np.arange(n_players, dtype=np.int8), n_rows // n_players)
    winner = columns["winner"].astype(bool)
    winners_per_game = winner.reshape(-1, n_players).sum(axis=1)
    win_share = winner / np.repeat(winners_per_game, n_players)
    data = {"game_id": game_id, "seat": seat}
    for name in ("strategy", "role", "score", "rank"):
        data[name] = columns[name]
    data["winner"] = winner
    data["win_share"] = win_share
    for name, values in columns.items():
        if name not in data:
            data[name] = values
    return pa.table(data)


def game_table(first_game: int, n_players: int, columns: dict[str, np.ndarray]) -> pa.Table:
    n_rows = len(columns["turns"])
    data = {
        "game_id": first_game + np.arange(n_rows, dtype=np.int64),
        "n_players": np.full(n_rows, n_players, dtype=np.int8),
        "first_seat": columns.pop("first_seat"),
        "turns": columns.pop("turns"),
        "truncated": columns.pop("truncated").astype(bool),
    }
    data.update(columns)
    return pa.table(data)


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
        raise UsageError(f"{path}: no {MANIFEST}, so not a complete run dataset "
                         "(an unfinished or interrupted run, or not a run folder)")
    try:
        return json.loads(manifest_path.read_text())
    except json.JSONDecodeError as e:
        raise UsageError(f"{manifest_path}: not valid JSON ({e.msg})") from None


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
