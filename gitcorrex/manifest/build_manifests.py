"""Which files a detected build manifest names: the build fails without them.

"Named" is deliberately narrow, so only a path the build certainly needs becomes a
precondition signal. Only manifests at the top level of the state tree are read, and only
these keys (each a literal relative path; globs, absolute paths and `..` never count):

- `pyproject.toml`: `project.readme` (a string or `{file = …}`), `project.license.file`,
  `project.license-files` (entries without glob characters), `tool.poetry.readme`;
- `package.json`: `main`, `module`, `types`, `typings`, `bin` (a string or each value);
- `Cargo.toml`: `package.readme`, `package.license-file`, `package.build`, `lib.path`,
  each `[[bin]]`'s `path`;
- `Makefile` / `makefile` / `GNUmakefile`: the prerequisites of explicit rules
  (`target: prereq …`) that are not themselves targets and hold no make syntax
  (`$`, `%`, wildcards); order-only prerequisites (after `|`), recipe lines, assignments,
  pattern rules and `.PHONY`-style special targets are skipped.

A manifest that does not parse names nothing (the build's own error will say why), nor does
one nested too deep for the reader to follow (RecursionError).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any

from gitcorrex.git import Repository, read_blob_at

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_MAKE_RULE = re.compile(r"^([^\t#=:][^#=:]*?)\s*::?(?!=)\s*([^=;#]*?)\s*(?:;.*)?(?:#.*)?$")
_NOT_LITERAL = frozenset("$%*?[]|\\")


def named_paths(repo: Repository, tree: str) -> dict[str, str]:
    """Path → the manifest that names it, for every detected top-level manifest."""
    found: dict[str, str] = {}
    for manifest, reader in READERS.items():
        raw = read_blob_at(repo, tree, manifest)
        if raw is None:
            continue
        for path in reader(raw):
            clean = literal_path(path)
            if clean is not None:
                found.setdefault(clean, manifest)
    return found


def literal_path(text: object) -> str | None:
    """A plain relative path (leading `./` dropped), or None."""
    if not isinstance(text, str):
        return None
    while text.startswith("./"):
        text = text[2:]
    parts = text.split("/")
    if not text or text.startswith("/") or not _NOT_LITERAL.isdisjoint(text) or \
            any(part in ("", ".", "..") for part in parts):
        return None
    return text


def pyproject_paths(raw: bytes) -> list[object]:
    data = _toml(raw)
    project = _table(data, "project")
    poetry = _table(_table(data, "tool"), "poetry")
    found = [_file_of(project.get("readme")), _table(project, "license").get("file"),
             *_list(project.get("license-files"))]
    readme = poetry.get("readme")
    return found + (_list(readme) if isinstance(readme, list) else [readme])


def package_json_paths(raw: bytes) -> list[object]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return []
    if not isinstance(data, dict):
        return []
    found = [data.get(key) for key in ("main", "module", "types", "typings")]
    binaries = data.get("bin")
    return found + (list(binaries.values()) if isinstance(binaries, dict) else [binaries])


def cargo_paths(raw: bytes) -> list[object]:
    data = _toml(raw)
    package = _table(data, "package")
    found = [package.get(key) for key in ("readme", "license-file", "build")]
    found.append(_table(data, "lib").get("path"))
    return found + [b.get("path") for b in _list(data.get("bin")) if isinstance(b, dict)]


def makefile_paths(raw: bytes) -> list[object]:
    rules: list[tuple[list[str], list[str]]] = []
    for line in raw.decode("utf-8", "replace").splitlines():
        match = _MAKE_RULE.match(line)
        if match is not None and not line.startswith("\t"):
            normal = match.group(2).split("|", 1)[0]  # order-only ones are made, not read
            rules.append((match.group(1).split(), normal.split()))
    targets = {target for names, _ in rules for target in names}
    return [prereq for names, prereqs in rules
            if not any(n.startswith(".") or "%" in n for n in names)
            for prereq in prereqs if prereq not in targets]


def _toml(raw: bytes) -> dict[str, Any]:
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return {}


def _table(data: object, key: str) -> dict[str, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _file_of(value: object) -> object:
    return value.get("file") if isinstance(value, dict) else value


READERS: dict[str, Callable[[bytes], list[object]]] = {
    "pyproject.toml": pyproject_paths, "package.json": package_json_paths,
    "Cargo.toml": cargo_paths, **{name: makefile_paths for name in MAKEFILES}}
