"""Derived results cached next to the ledger, keyed by the exact note content they came
from: `<common dir>/correx/folds/<subject>.json`.

A fold of a session's 5,000 events depends on nothing but the blobs of the session's note
(and this program's version), so a record naming those blob ids can stand in for the fold
until the note changes. A record that does not match is ignored; one that cannot be
written is skipped (the cache is an optimisation, never a source of truth).
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from pathlib import Path

from gitcorrex import __version__
from gitcorrex.errors import CorrexError
from gitcorrex.git import owned_files

TYPE_CHECKING = False  # no `typing` at run time: the stored-fold paths never need it (3 ms)
if TYPE_CHECKING:
    from typing import Any

STORE_FORMAT = 1


def _path(common_dir: Path, subject: str) -> Path:
    return common_dir / "correx" / "folds" / f"{subject}.json"


def load_fold(common_dir: Path, subject: str, blobs: list[str]) -> Any | None:
    """The value stored for exactly these blobs by this version; None otherwise."""
    try:
        record = json.loads(_path(common_dir, subject).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != _key(blobs):
        return None
    return record.get("value")


def store_fold(common_dir: Path, subject: str, blobs: list[str], value: Any) -> None:
    """Remember `value` for these blobs (write, then rename: readers never see half)."""
    target = _path(common_dir, subject)
    with suppress(OSError, CorrexError):
        target.parent.mkdir(parents=True, exist_ok=True)
        owned_files.sweep_dead(target.parent, "tmp-")
        temp = owned_files.reserve(target.parent, "tmp-")
        Path(temp).write_text(json.dumps({"key": _key(blobs), "value": value}), "utf-8")
        os.replace(temp, target)


def load_table(common_dir: Path, name: str) -> dict[str, Any]:
    """A stored table (note blob ids → derived value) of this version; {} otherwise."""
    try:
        record = json.loads(_path(common_dir, name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict) or record.get("key") != _key([]):
        return {}
    table = record.get("value")
    return table if isinstance(table, dict) else {}


def store_table(common_dir: Path, name: str, table: dict[str, Any], limit: int) -> None:
    """Keep `table` (its last `limit` entries: the newest were added last)."""
    if len(table) > limit:
        table = dict(list(table.items())[-limit:])
    store_fold(common_dir, name, [], table)


def _key(blobs: list[str]) -> list[Any]:
    return [STORE_FORMAT, __version__, blobs]
