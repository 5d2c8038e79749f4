"""tree-sitter node helpers every dialect shares: text, callee paths, body shapes."""

from __future__ import annotations

import hashlib
from typing import Any

Node = Any


def text(node: Node | None) -> str:
    """The node's source, whitespace collapsed to single spaces ("" for None)."""
    if node is None:
        return ""
    return " ".join(node.text.decode("utf-8", "replace").split())


def line(node: Node) -> int:
    """The 1-based line the node starts on."""
    return int(node.start_point[0]) + 1


def shape(node: Node | None) -> str:
    """A hash of the body's tokens (comments left out): equal for a body moved or renamed
    unchanged, different for any edit of its code."""
    if node is None:
        return ""
    digest = hashlib.sha1()
    stack = [node]
    while stack:
        current = stack.pop()
        if "comment" in current.type:
            continue
        if current.child_count == 0:
            digest.update(current.text + b"\0")
            continue
        stack.extend(reversed(current.children))
    return digest.hexdigest()[:16]


def has_descendant(node: Node, types: frozenset[str]) -> bool:
    """Whether any node under `node` (itself included) is of one of `types`."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in types:
            return True
        stack.extend(current.named_children)
    return False


def unquote(node: Node) -> str:
    """A string literal's content without its quotes (the text itself for anything else)."""
    raw = node.text.decode("utf-8", "replace")
    for quote in ('"""', "'''", '"', "'", "`"):
        if len(raw) >= 2 * len(quote) and raw.startswith(quote) and raw.endswith(quote):
            return raw[len(quote):-len(quote)]
    return raw
