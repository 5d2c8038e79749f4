"""What one parsed file holds: its tests (and groups of tests), as plain values.

A `Case` is a test a runner collects (or a group of them: a test class, a `describe`
block, a module), with what the comparison needs: its markers (skip, xfail, only, ignore,
todo), the source text of each assertion it makes (its own and those of the same-file
helpers it calls), the trivially true ones apart, and the shape of its body (a hash that
does not depend on its name), which tells a rename from a removal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


@dataclass(frozen=True)
class Case:
    """One test or group: `name` is qualified (`TestA::test_b`, `suite > case`)."""

    name: str
    line: int
    group: bool
    markers: frozenset[str] = frozenset()
    assertions: tuple[str, ...] = ()
    trivial: tuple[str, ...] = ()
    shape: str = ""


@dataclass(frozen=True)
class FileCases:
    """The cases of one file; `shapes` maps the body shape of every function the file
    defines (tests or not) to its name, so a test renamed to a name no runner collects is
    told from one that was deleted. `complete` is False when the parser met a syntax error."""

    path: str
    cases: dict[str, Case] = field(default_factory=dict)
    shapes: dict[str, str] = field(default_factory=dict)
    complete: bool = True


class Mode(str, Enum):
    """What an assertion claims about its operands, for telling a trivially true one."""

    TRUTHY = "truthy"  # assert x, assertTrue(x), expect(x).toBeTruthy()
    FALSY = "falsy"  # assertFalse(x), expect(x).toBeFalsy()
    SAME = "same"  # x == y, assertEqual(x, y), expect(x).toBe(y), assert_eq!(x, y)
    NOT_NULL = "not_null"  # assertIsNotNone(x), expect(x).toBeDefined()
    NULL = "null"  # assertIsNone(x), assert.Nil(t, x)
    ALWAYS = "always"  # asserts nothing at all: `expect(x)` without a matcher, t.pass()


@dataclass(frozen=True)
class Operand:
    """One operand of an assertion: its text (whitespace collapsed), its truth when it is a
    literal (None when it is not one), whether it is the null literal, and whether it is
    pure (no call: evaluating it twice gives the same value)."""

    text: str
    truth: bool | None = None
    null: bool = False
    pure: bool = True


def is_trivially_true(mode: Mode | None, operands: list[Operand]) -> bool:
    """Whether an assertion of `mode` over `operands` holds whatever the code under test
    does: a truthy literal asserted true, the same pure expression compared with itself, a
    literal asserted not null; `None` (an assertion we cannot read) is never trivial."""
    if mode is Mode.ALWAYS:
        return True
    if mode is None or not operands:
        return False
    first = operands[0]
    if mode is Mode.TRUTHY:
        return first.truth is True
    if mode is Mode.FALSY:
        return first.truth is False
    if mode is Mode.NOT_NULL:
        return first.truth is not None and not first.null
    if mode is Mode.NULL:
        return first.null
    if len(operands) < 2:
        return False
    second = operands[1]
    return first.pure and second.pure and first.text == second.text
