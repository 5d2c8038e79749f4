"""Blobs → their cases, in the language each path names. Pure and deterministic.

The files of one side of a change are parsed first and tallied together: a test may call a
helper another of those files defines (`tally.py`). Binary blobs and blobs over
`MAX_BLOB_BYTES` are not parsed (they hold no test a person wrote). The parsers are
`symbols/`'s grammars, loaded once per process.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from gitcorrex.integrity.cases import FileCases
from gitcorrex.integrity.nodes import Node
from gitcorrex.integrity.suite_paths import is_collected
from gitcorrex.integrity.tally import Dialect, file_cases
from gitcorrex.symbols.extract import BINARY_PROBE, MAX_BLOB_BYTES
from gitcorrex.symbols.languages import grammar

FAMILY = {"typescript": "javascript", "tsx": "javascript"}


@cache
def _parser(language: str) -> Any:
    import tree_sitter

    return tree_sitter.Parser(grammar(language))


@cache
def dialect(language: str) -> Dialect:
    """The rules for `language` (JavaScript's serve TypeScript and TSX too)."""
    if language == "python":
        from gitcorrex.integrity.python_tests import PythonDialect

        return PythonDialect()
    if language in ("javascript", "typescript", "tsx"):
        from gitcorrex.integrity.js_tests import JsDialect

        return JsDialect()
    if language == "go":
        from gitcorrex.integrity.go_tests import GoDialect

        return GoDialect()
    if language == "rust":
        from gitcorrex.integrity.rust_tests import RustDialect

        return RustDialect()
    from gitcorrex.integrity.jvm_tests import JvmDialect

    return JvmDialect(language)


def read_side(files: Mapping[str, tuple[str, bytes]]) -> dict[str, FileCases]:
    """The cases of each file of one side (path → (language, bytes)); each file's tests may
    call helpers the others define (same language family)."""
    roots: dict[str, tuple[str, Node | None]] = {
        path: (language, _parse(language, data)) for path, (language, data) in files.items()}
    shared: dict[str, dict[str, Node]] = {}
    for language, root in roots.values():
        if root is not None:
            table = shared.setdefault(FAMILY.get(language, language), {})
            for name, body in dialect(language).functions(root):
                table.setdefault(name, body)
    return {path: FileCases(path, complete=False) if root is None else
            file_cases(path, root, dialect(language), shared[FAMILY.get(language, language)],
                       collected=is_collected(path))
            for path, (language, root) in roots.items()}


def read_cases(path: str, language: str, data: bytes) -> FileCases:
    """The cases of one blob alone."""
    return read_side({path: (language, data)})[path]


def _parse(language: str, data: bytes) -> Node | None:
    if len(data) > MAX_BLOB_BYTES or b"\0" in data[:BINARY_PROBE]:
        return None
    return _parser(language).parse(data).root_node
