"""Python: what pytest and unittest collect, what they count as an assertion, what skips.

Tests are `test*` functions at module level and `test*` methods of `Test*` classes or of
classes deriving from a `TestCase` (nested classes too); a class and the module are groups
(`pytestmark` and class decorators mark them). Assertions: the `assert` statement, any
call whose name starts with `assert` (`self.assertEqual`, `mock.assert_called_once_with`,
`np.testing.assert_allclose`), `raise AssertionError`, `pytest.raises`/`warns`/
`deprecated_call`, `pytest.fail`, `self.fail` (`pytest.warns(None)` asserts nothing; a
`match=` counts as a second assertion, on the message).
Markers: `skip`/`skipif`/`skipIf`/`skipUnless` (skip), `xfail`/`expectedFailure` (xfail)
as decorators, `pytest.skip()`/`self.skipTest()`/
`pytest.importorskip()`/`raise SkipTest` in a body. A parametrized test runs its
assertions once per literal case, and a `for` loop over a literal sequence once per item;
under `if False:` (or `if x != x:`) they never run.
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcorrex.integrity.cases import Mode, Operand
from gitcorrex.integrity.nodes import Node, has_descendant, text
from gitcorrex.integrity.tally import Found, Judged

MODULE = "(module)"
SKIPS = {"skip": "skip", "skipif": "skip", "skipIf": "skip", "skipUnless": "skip",
         "xfail": "xfail", "expectedFailure": "xfail"}
BODY_SKIPS = {("pytest", "skip"): "skip", ("pytest", "xfail"): "xfail",
              ("pytest", "importorskip"): "skip", ("self", "skipTest"): "skip"}
RAISES = {("pytest", "raises"), ("pytest", "warns"), ("pytest", "deprecated_call"),
          ("pytest", "fail"), ("self", "fail")}
TRUTHY = {"assertTrue", "assert_", "failUnless"}
FALSY = {"assertFalse", "failIf"}
SAME = {"assertEqual", "assertEquals", "assertIs", "assertAlmostEqual", "assertCountEqual",
        "assertListEqual", "assertDictEqual", "assertSetEqual", "assertTupleEqual",
        "assertSequenceEqual", "assertMultiLineEqual", "assertGreaterEqual", "assertLessEqual"}
NOT_NULL = {"assertIsNotNone"}
NULL = {"assertIsNone"}
CALLS = frozenset({"call"})
FALSY_LITERALS = {"False", "None", "0", "0.0", '""', "''", "()", "[]", "{}"}


class PythonDialect:
    """The rules above, for `tally.file_cases`."""

    def cases(self, root: Node) -> Iterator[Found]:
        markers = frozenset(m for child in root.named_children for m in _pytestmark(child))
        yield Found(MODULE, root, None, group=True, markers=markers)
        yield from _in_block(root, prefix="", in_test_class=False)

    def functions(self, root: Node) -> Iterator[tuple[str, Node]]:
        """Module-level functions and methods: a function nested in another (a view a
        test registers) is not what a test calls by name."""
        stack = [root]
        while stack:
            node = stack.pop()
            definition, _ = _undecorated(node)
            if definition is not None and definition.type == "function_definition":
                name = text(definition.child_by_field_name("name"))
                yield name, definition.child_by_field_name("body")
            elif definition is not None and definition.type == "class_definition":
                stack.extend(definition.child_by_field_name("body").named_children)
            elif node.type in ("module", "if_statement", "block", "else_clause",
                               "try_statement", "except_clause"):
                stack.extend(node.named_children)

    def judge(self, node: Node) -> Judged | None:
        if node.type == "if_statement" and _never(node.child_by_field_name("condition")):
            return Judged(claim=text(node), mode=Mode.ALWAYS, descend=False)
        if node.type == "assert_statement":
            return _assert_statement(node)
        if node.type == "call":
            return _call(node)
        if node.type == "for_statement":
            times = literal_length(node.child_by_field_name("right"))
            return Judged(repeat=times) if times > 1 else None
        if node.type == "raise_statement" and "SkipTest" in text(node):
            return Judged(marker="skip")
        if node.type == "raise_statement" and text(node).startswith("raise AssertionError"):
            return Judged(claim=text(node), descend=False)
        return None


def _in_block(block: Node, *, prefix: str, in_test_class: bool) -> Iterator[Found]:
    """The tests and test classes directly in a module or class body (decorators seen)."""
    for child in block.named_children:
        definition, decorators = _undecorated(child)
        markers = frozenset(m for d in decorators for m in _decorator_markers(d))
        name = text(definition.child_by_field_name("name")) if definition else ""
        if definition is None or not name:
            continue
        repeat = _cases_of(decorators)
        if definition.type == "class_definition" and _is_test_class(definition, name):
            qualified = f"{prefix}{name}"
            yield Found(qualified, definition, None, group=True, markers=markers)
            body = definition.child_by_field_name("body")
            if body is not None:
                yield from _in_block(body, prefix=f"{qualified}::", in_test_class=True)
        elif definition.type == "function_definition" and name.startswith("test") and (
                in_test_class or not prefix):
            yield Found(f"{prefix}{name}", definition, definition.child_by_field_name("body"),
                        markers=markers, repeat=repeat)


def _undecorated(node: Node) -> tuple[Node | None, list[Node]]:
    if node.type == "decorated_definition":
        decorators = [c for c in node.named_children if c.type == "decorator"]
        return node.child_by_field_name("definition"), decorators
    if node.type in ("function_definition", "class_definition"):
        return node, []
    return None, []


def _cases_of(decorators: list[Node]) -> int:
    """How many cases the `@pytest.mark.parametrize` decorators make (their literal
    argvalues multiplied; a computed list counts as one)."""
    count = 1
    for decorator in decorators:
        call = decorator.named_children[0] if decorator.named_children else None
        if call is None or call.type != "call" or _path(call)[-1:] != ("parametrize",):
            continue
        arguments = call.child_by_field_name("arguments")
        listed = arguments.named_children if arguments is not None else []
        values = [a for a in listed if a.type != "keyword_argument"][1:2] or [
            a.child_by_field_name("value") for a in listed if a.type == "keyword_argument"
            and text(a.child_by_field_name("name")) == "argvalues"]
        count *= literal_length(values[0]) if values else 1
    return count


def literal_length(node: Node | None) -> int:
    """The number of items of a literal list, tuple or set (1 for anything else)."""
    if node is None or node.type not in ("list", "tuple", "set"):
        return 1
    return max(1, sum(1 for child in node.named_children if child.type != "comment"))


def _is_test_class(node: Node, name: str) -> bool:
    bases = text(node.child_by_field_name("superclasses"))
    return name.startswith("Test") or "TestCase" in bases


def _decorator_markers(decorator: Node) -> Iterator[str]:
    """Every skip/xfail name in the decorator (`marks=pytest.mark.xfail` inside a
    parametrize counts: a case of the test no longer runs)."""
    stack = [decorator]
    while stack:
        node = stack.pop()
        if node.type == "identifier" and text(node) in SKIPS:
            yield SKIPS[text(node)]
        stack.extend(node.named_children)


def _pytestmark(node: Node) -> Iterator[str]:
    """`pytestmark = pytest.mark.skip(...)` (or a list of marks) at module level."""
    if node.type != "expression_statement" or not node.named_children:
        return
    assignment = node.named_children[0]
    if assignment.type == "assignment" and text(assignment.child_by_field_name("left")) == \
            "pytestmark":
        yield from _decorator_markers(assignment.child_by_field_name("right"))
    elif assignment.type == "call" and _path(assignment) == ("pytest", "importorskip"):
        yield "skip"


def _path(call: Node) -> tuple[str, ...]:
    """`self.assertEqual` → ("self", "assertEqual"); anything not a dotted name → ()."""
    function = call.child_by_field_name("function")
    parts: list[str] = []
    while function is not None and function.type == "attribute":
        parts.append(text(function.child_by_field_name("attribute")))
        function = function.child_by_field_name("object")
    if function is None or function.type != "identifier":  # `make().get`: no name to follow
        return ("()", *reversed(parts)) if parts else ()
    parts.append(text(function))
    return tuple(reversed(parts))


def _call(node: Node) -> Judged | None:
    path = _path(node)
    if not path:
        return None
    last = path[-1]
    tail = path[-2:]
    if tail in BODY_SKIPS:
        return Judged(marker=BODY_SKIPS[tail], descend=False)
    if tail == ("pytest", "warns") and text(node.child_by_field_name("arguments")) == "(None)":
        return Judged(claim=text(node), mode=Mode.ALWAYS, descend=False)  # records, asserts nothing
    if last.lstrip("_").startswith("assert") or tail in RAISES:
        own = len(path) == 1 or (len(path) == 2 and path[0] in ("self", "cls"))
        return Judged(claim=text(node), mode=_mode(last), operands=tuple(_arguments(node)),
                      call=last if own else None, fallback=own, descend=tail in RAISES,
                      weight=2 if tail in RAISES and _keyword(node, "match") else 1)
    if len(path) == 1 or (len(path) == 2 and path[0] in ("self", "cls")):
        return Judged(call=last)
    return None


def _keyword(call: Node, name: str) -> bool:
    """Whether the call passes keyword argument `name` (`match=` checks the message too)."""
    arguments = call.child_by_field_name("arguments")
    return arguments is not None and any(
        a.type == "keyword_argument" and text(a.child_by_field_name("name")) == name
        for a in arguments.named_children)


def _mode(name: str) -> Mode | None:
    for names, mode in ((TRUTHY, Mode.TRUTHY), (FALSY, Mode.FALSY), (SAME, Mode.SAME),
                        (NOT_NULL, Mode.NOT_NULL), (NULL, Mode.NULL)):
        if name in names:
            return mode
    return None


def _arguments(call: Node) -> list[Operand]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [operand(a) for a in arguments.named_children if a.type != "keyword_argument"]


def _assert_statement(node: Node) -> Judged:
    """`assert x`, `assert a == b`, `assert not x`, `assert x or True`."""
    claim = text(node)
    if not node.named_children:
        return Judged(claim=claim, descend=False)
    test = _unwrap(node.named_children[0])
    if test.type == "comparison_operator" and len(test.named_children) == 2:
        operators = [text(c) for c in test.children if not c.is_named]
        if operators and operators[0] in ("==", "is", ">=", "<="):
            left, right = test.named_children
            return Judged(claim=claim, mode=Mode.SAME, operands=(operand(left), operand(right)),
                          descend=False)
    if test.type == "not_operator":
        inner = test.child_by_field_name("argument")
        return Judged(claim=claim, mode=Mode.FALSY, operands=(operand(inner),), descend=False)
    if test.type == "boolean_operator" and "or" in [c.type for c in test.children]:
        sides = [operand(c) for c in test.named_children]
        truthy = any(side.truth is True for side in sides)
        return Judged(claim=claim, mode=Mode.TRUTHY,
                      operands=(Operand("True", True) if truthy else sides[0],), descend=False)
    return Judged(claim=claim, mode=Mode.TRUTHY, operands=(operand(test),), descend=False)


def _never(condition: Node | None) -> bool:
    """`if False:`, `if 0:`, `if x != x:` (one pure expression): a body that never runs,
    so an assertion moved under it asserts nothing."""
    if condition is None:
        return False
    condition = _unwrap(condition)
    if condition.type == "comparison_operator" and len(condition.named_children) == 2:
        operators = [text(c) for c in condition.children if not c.is_named]
        left, right = (operand(c) for c in condition.named_children)
        return operators[:1] in (["!="], ["is not"], ["<"], [">"]) and left.pure and \
            left.text == right.text
    return operand(condition).truth is False


def _unwrap(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def operand(node: Node | None) -> Operand:
    """The operand's text, its truth when it is a literal, purity (no call in it)."""
    if node is None:
        return Operand("", pure=False)
    node = _unwrap(node)
    source = text(node)
    return Operand(source, _truth(node, source), source == "None",
                   not has_descendant(node, CALLS))


def _truth(node: Node, source: str) -> bool | None:
    if node.type in ("true", "false", "none", "integer", "float"):
        return source not in FALSY_LITERALS
    if node.type == "string" and not has_descendant(node, frozenset({"interpolation"})):
        return not _empty_string(source)
    if node.type in ("list", "tuple", "dictionary", "set"):
        return bool(node.named_children)
    return None


def _empty_string(source: str) -> bool:
    body = source.lstrip("rbuRBUfF")
    return body in ('""', "''", '""""""', "''''''")
