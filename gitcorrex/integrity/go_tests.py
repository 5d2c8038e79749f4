"""Go: what `go test` collects, what fails a test, what skips it.

Tests are top-level `func TestX(t *testing.T)` (and `FuzzX`) whose name continues with no
lower-case letter (`Testfoo` is not collected). Assertions: `X.Error`/`Errorf`/`Fatal`/
`Fatalf`/`Fail`/`FailNow`, testify's `assert.*`/`require.*`, and a call that hands the
test's `t` to a helper named like a check (`checkX(t, …)`, `assertY(t, …)`) defined in
another file. An error call under an `if` whose condition can never hold (`false`,
`x != x`) asserts nothing. `X.Skip`/`Skipf`/`SkipNow` skip. A table-driven loop (`for …
range` over a composite literal, in place or bound in the test) runs its assertions once
per row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gitcorrex.integrity.cases import Mode, Operand
from gitcorrex.integrity.nodes import Node, has_descendant, text
from gitcorrex.integrity.tally import Found, Judged

TEST_NAME = re.compile(r"^(Test|Fuzz)([^a-z].*)?$")
FAILS = {"Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow"}
SKIPS = {"Skip", "Skipf", "SkipNow"}
TESTIFY = {"assert", "require"}
SAME = {"Equal", "EqualValues", "Exactly", "ElementsMatch"}
HELPER_PREFIXES = ("assert", "check", "verify", "expect", "require", "must", "test")
CALLS = frozenset({"call_expression"})


class GoDialect:
    """The rules above, for `tally.file_cases`."""

    def cases(self, root: Node) -> Iterator[Found]:
        for node in root.named_children:
            if node.type == "function_declaration":
                name = text(node.child_by_field_name("name"))
                if TEST_NAME.match(name):
                    yield Found(name, node, node.child_by_field_name("body"))

    def functions(self, root: Node) -> Iterator[tuple[str, Node]]:
        for node in root.named_children:
            if node.type in ("function_declaration", "method_declaration"):
                yield text(node.child_by_field_name("name")), node.child_by_field_name("body")

    def judge(self, node: Node) -> Judged | None:
        if node.type == "for_statement":
            times = _table_rows(node)
            return Judged(repeat=times) if times > 1 else None
        if node.type == "if_statement" and _never(node.child_by_field_name("condition")):
            body = node.child_by_field_name("consequence")
            if body is not None and has_descendant(body, CALLS):
                return Judged(claim=text(node), mode=Mode.ALWAYS, descend=False)
        if node.type != "call_expression":
            return None
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        listed = arguments.named_children if arguments is not None else []
        if function is not None and function.type == "selector_expression":
            owner = text(function.child_by_field_name("operand"))
            field = text(function.child_by_field_name("field"))
            if field in SKIPS:
                return Judged(marker="skip", descend=False)
            if field in FAILS:
                return Judged(claim=text(node), descend=False)
            if owner in TESTIFY:
                return Judged(claim=text(node), mode=_mode(field),
                              operands=tuple(operand(a) for a in listed[1:]), descend=False)
            return None
        name = text(function)
        if function is not None and function.type == "identifier":
            if any(text(a) == "t" for a in listed) and \
                    name.lower().startswith(HELPER_PREFIXES):
                return Judged(claim=text(node), call=name, fallback=True)
            return Judged(call=name)
        return None


def _table_rows(loop: Node) -> int:
    """Rows of the table a `for … range` loop runs over: a composite literal, in place or
    bound earlier in the same function (`tests := []struct{…}{…}`); 1 when unknown."""
    clause = next((c for c in loop.named_children if c.type == "range_clause"), None)
    ranged = clause.child_by_field_name("right") if clause is not None else None
    if ranged is not None and ranged.type == "identifier":
        ranged = _bound_literal(loop, text(ranged))
    if ranged is None or ranged.type != "composite_literal":
        return 1
    body = ranged.child_by_field_name("body")
    return max(1, sum(1 for c in body.named_children if c.type in ("literal_element",
                                                                    "keyed_element"))) \
        if body is not None else 1


def _bound_literal(loop: Node, name: str) -> Node | None:
    """The composite literal `name` is declared with in the function holding `loop`."""
    function = loop.parent
    while function is not None and function.type not in ("function_declaration",
                                                          "func_literal"):
        function = function.parent
    stack = [function] if function is not None else []
    while stack:
        node = stack.pop()
        if node.type in ("short_var_declaration", "var_spec", "assignment_statement"):
            left = node.child_by_field_name("left") or node.child_by_field_name("name")
            right = node.child_by_field_name("right") or node.child_by_field_name("value")
            if text(left) == name and right is not None and right.named_children:
                return right.named_children[0]
        stack.extend(node.named_children)
    return None


def _never(condition: Node | None) -> bool:
    """`false`, or `x != x` / `x < x` of one pure expression: a branch that never runs."""
    if condition is None:
        return False
    if condition.type == "false":
        return True
    if condition.type == "binary_expression" and len(condition.named_children) == 2:
        operator = text(condition.child_by_field_name("operator"))
        left, right = condition.named_children
        return operator in ("!=", "<", ">") and text(left) == text(right) and \
            not has_descendant(condition, CALLS)
    return False


def _mode(field: str) -> Mode | None:
    if field == "True":
        return Mode.TRUTHY
    if field == "False":
        return Mode.FALSY
    if field in SAME:
        return Mode.SAME
    if field == "NotNil":
        return Mode.NOT_NULL
    if field == "Nil":
        return Mode.NULL
    return None


def operand(node: Node) -> Operand:
    source = text(node)
    truth: bool | None = None
    if node.type in ("true", "false", "nil", "int_literal", "float_literal"):
        truth = source not in ("false", "nil", "0")
    elif node.type in ("interpreted_string_literal", "raw_string_literal"):
        truth = source not in ('""', "``")
    return Operand(source, truth, node.type == "nil", not has_descendant(node, CALLS))
