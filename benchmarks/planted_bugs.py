"""The table of planted bugs (planted_bugs.toml) read into records, and where each one lands.

A planted bug replaces one exact snippet of the package, found exactly once in its file,
by a mutated snippet: a small, believable mistake in a piece of logic the tests must
guard. `tests/test_planted_bugs.py` checks on every run that each snippet is still there,
so a refactor that moves the code must move the table with it; `mutants.py` plants each
one in a copy of the tree and runs the tests that must catch it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the package depends on tomli below 3.11
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
TABLE = Path(__file__).with_suffix(".toml")


@dataclass(frozen=True)
class PlantedBug:
    """One bug: `original` (in `file`, relative to the repository) becomes `mutated`;
    each of `tests` (pytest node ids) must fail while it is planted."""

    id: str
    file: str
    original: str
    mutated: str
    description: str
    tests: tuple[str, ...]

    def occurrences(self, root: Path = ROOT) -> int:
        """How often `original` occurs in the file under `root` (0 when the file is gone)."""
        path = root / self.file
        return path.read_text(encoding="utf-8").count(self.original) if path.is_file() else 0

    def planted_text(self, root: Path) -> str:
        """The file's text with the bug planted (ValueError unless `original` is there once)."""
        text = (root / self.file).read_text(encoding="utf-8")
        if text.count(self.original) != 1:
            raise ValueError(f"{self.id}: the original snippet is not in {self.file} exactly "
                             "once (stale: update benchmarks/planted_bugs.toml)")
        return text.replace(self.original, self.mutated)


def load_planted(table: Path = TABLE) -> list[PlantedBug]:
    """Every bug of the table, in its order."""
    with table.open("rb") as handle:
        rows = tomllib.load(handle)["bug"]
    return [PlantedBug(id=row["id"], file=row["file"], original=row["original"],
                       mutated=row["mutated"], description=row["description"],
                       tests=tuple(row["tests"])) for row in rows]
