"""One blob's bytes → the sorted names it defines. Pure and deterministic.

`complete` is False when tree-sitter met a syntax error (an `ERROR` or missing node): the
names found outside the error are real, but a definition inside it may be missing, so the
blob cannot prove a symbol absent. Binary blobs (a NUL byte near the start, git's own
heuristic) and blobs over `MAX_BLOB_BYTES` (generated or minified code) are not parsed
at all and are not complete either.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from gitcorrex.symbols.languages import grammar
from gitcorrex.symbols.rules import DEFINE, MEMBERS_ONLY, RULES, SCOPE, WALK

MAX_BLOB_BYTES = 1024 * 1024
BINARY_PROBE = 8000


@dataclass(frozen=True)
class BlobSymbols:
    """What one blob defines; `complete` says whether it can also prove an absence."""

    names: tuple[str, ...]
    complete: bool


UNPARSED = BlobSymbols((), False)


@cache
def _parser(language: str) -> Any:
    import tree_sitter

    return tree_sitter.Parser(grammar(language))


def extract_symbols(language: str, data: bytes) -> BlobSymbols:
    """The definitions in `data` parsed as `language`, sorted and unique."""
    if len(data) > MAX_BLOB_BYTES or b"\0" in data[:BINARY_PROBE]:
        return UNPARSED
    root = _parser(language).parse(data).root_node
    names: set[str] = set()
    _walk(root, RULES[language], names)
    return BlobSymbols(tuple(sorted(names)), not root.has_error)


def _walk(root: Any, rules: dict[str, Any], names: set[str]) -> None:
    """Depth-first over declarations only; an explicit stack keeps deep nesting safe."""
    stack: list[tuple[Any, str]] = [(root, "")]
    while stack:
        node, prefix = stack.pop()
        for child in node.named_children:
            rule = rules.get(child.type)
            if rule is None:
                continue
            if rule.kind == WALK:
                stack.append((child, prefix))
            elif rule.kind == DEFINE:
                names.update(prefix + name for name in rule.names(child))
            elif rule.kind == SCOPE:
                _enter_scope(child, rule, prefix, names, stack)


def _enter_scope(node: Any, rule: Any, prefix: str, names: set[str],
                 stack: list[tuple[Any, str]]) -> None:
    own = next(iter(rule.names(node)), None)
    if own is None:
        return
    if node.type not in MEMBERS_ONLY:
        names.add(prefix + own)
    body = rule.body(node)
    if body is not None:
        stack.append((body, f"{prefix}{own}."))
