"""The walk every dialect shares: a file's cases, and what each case's body asserts.

A dialect (one per language) says which nodes are tests or groups and what one node in a
body is: an assertion (with its operands, to tell a trivially true one), a skip marker, or
a call to a name. A call to a function the same file defines is followed (to a depth of
four, never twice on one path), so a refactor that moves a test's assertions into a helper
it calls keeps the test's count: the count is of the assertions the test runs. Functions
of the other files the change touched (in the same language) are followed too, so a helper
module the change adds counts; an unchanged helper module is not read (it counts the same
on both sides). A parametrized test, or a loop over a literal sequence, runs its
assertions once per case: a test rewritten from three spelled-out checks into one check
over three parameters keeps its count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from gitcorrex.integrity.cases import Case, FileCases, Mode, Operand, is_trivially_true
from gitcorrex.integrity.nodes import Node, line, shape

MAX_HELPER_DEPTH = 4
MAX_REPEAT = 1000


@dataclass(frozen=True)
class Found:
    """A test (or group) a dialect found: its qualified name, definition node, body, and
    the markers its declaration carries (decorators, annotations, `it.skip`)."""

    name: str
    node: Node
    body: Node | None
    group: bool = False
    markers: frozenset[str] = frozenset()
    claims: tuple[str, ...] = ()  # assertions its declaration makes (`#[should_panic]`)
    repeat: int = 1  # cases it runs (`@pytest.mark.parametrize`, `it.each(table)`)


@dataclass(frozen=True)
class Judged:
    """What one body node is. `descend` False: its children are not walked (an assertion's
    own operands are not assertions)."""

    claim: str | None = None  # the assertion's text
    mode: Mode | None = None
    operands: tuple[Operand, ...] = ()
    marker: str | None = None
    call: str | None = None  # a name this node calls (followed when the file defines it)
    fallback: bool = False  # the claim counts only when the call is not followed
    repeat: int = 1  # a loop over a literal sequence runs its body this many times
    weight: int = 1  # assertions the claim makes (`pytest.raises(E, match=…)`: two)
    descend: bool = True

    @property
    def trivial(self) -> bool:
        return is_trivially_true(self.mode, list(self.operands))


class Dialect(Protocol):
    """One language's rules."""

    def cases(self, root: Node) -> Iterable[Found]: ...

    def functions(self, root: Node) -> Iterable[tuple[str, Node]]: ...

    def judge(self, node: Node) -> Judged | None: ...


@dataclass
class _Tally:
    assertions: list[str] = field(default_factory=list)
    trivial: list[str] = field(default_factory=list)
    markers: set[str] = field(default_factory=set)


def file_cases(path: str, root: Node, dialect: Dialect,
               shared: Mapping[str, Node] | None = None, *, collected: bool = True
               ) -> FileCases:
    """Every case of the file at `path` (parsed into `root`), with its tally. `shared`:
    functions other files of the change define (a helper module the change added), used
    for a name this file does not define. A file no runner collects (`collected` False)
    holds helpers, and no cases."""
    functions = list(dialect.functions(root))
    helpers = {**(shared or {}), **{name: body for name, body in functions}}
    cases: dict[str, Case] = {}
    for found in dialect.cases(root) if collected else ():
        name = _unique(found.name, cases)
        tally = _Tally(list(found.claims))
        if found.body is not None:
            _walk(found.body, dialect, helpers, tally, ())
        repeat = min(found.repeat, MAX_REPEAT)
        cases[name] = Case(name, line(found.node), found.group,
                           frozenset(found.markers | tally.markers),
                           tuple(tally.assertions) * repeat, tuple(tally.trivial) * repeat,
                           shape(found.body))
    shapes = {shape(body): name for name, body in functions if body is not None}
    return FileCases(path, cases, shapes, not root.has_error)


def _unique(name: str, taken: dict[str, Case]) -> str:
    """`name`, or `name #2`, `#3`… when the file defines it again (JS allows it)."""
    if name not in taken:
        return name
    count = 2
    while f"{name} #{count}" in taken:
        count += 1
    return f"{name} #{count}"


def _walk(body: Node, dialect: Dialect, helpers: dict[str, Node], tally: _Tally,
          path: tuple[str, ...]) -> None:
    stack = [body]
    while stack:
        node = stack.pop()
        judged = dialect.judge(node)
        if judged is not None and judged.repeat > 1:
            inner = _Tally()
            for child in node.named_children:
                _walk(child, dialect, helpers, inner, path)
            times = min(judged.repeat, MAX_REPEAT)
            tally.assertions.extend(inner.assertions * times)
            tally.trivial.extend(inner.trivial * times)
            tally.markers.update(inner.markers)
            continue
        if judged is not None:
            _count(judged, dialect, helpers, tally, path)
            if not judged.descend:
                _helpers_inside(node, dialect, helpers, tally, path)
                continue
        stack.extend(reversed(node.named_children))


def _helpers_inside(claim: Node, dialect: Dialect, helpers: dict[str, Node], tally: _Tally,
                    path: tuple[str, ...]) -> None:
    """Helpers called inside an assertion's operands (`assert render(x) == y`, where
    `render` asserts too) are followed; nothing else inside it counts."""
    stack = list(reversed(claim.named_children))
    while stack:
        node = stack.pop()
        judged = dialect.judge(node)
        if judged is not None and judged.call and judged.claim is None:
            _count(judged, dialect, helpers, tally, path)
        stack.extend(reversed(node.named_children))


def _count(judged: Judged, dialect: Dialect, helpers: dict[str, Node], tally: _Tally,
           path: tuple[str, ...]) -> None:
    name = judged.call
    followed = bool(name) and name in helpers and name not in path and \
        len(path) < MAX_HELPER_DEPTH
    if judged.claim is not None and not (judged.fallback and followed):
        (tally.trivial if judged.trivial else tally.assertions).extend(
            [judged.claim] * judged.weight)
    if judged.marker is not None:
        tally.markers.add(judged.marker)
    if followed and name:
        inner = _Tally()
        _walk(helpers[name], dialect, helpers, inner, (*path, name))
        tally.assertions.extend(f"{name}(): {claim}" for claim in inner.assertions)
        tally.trivial.extend(f"{name}(): {claim}" for claim in inner.trivial)
        tally.markers.update(inner.markers)
