"""Java and Kotlin: JUnit 3/4/5, TestNG, AssertJ, Hamcrest, Mockito, kotest matchers.

Tests are methods annotated `@Test` (or `@ParameterizedTest`, `@RepeatedTest`,
`@TestFactory`, `@TestTemplate`), and JUnit 3's `test*` methods of a class extending
`TestCase`; classes are groups (`Outer.Inner.method`). `@Disabled…`/`@Ignore` mark them.
Assertions: calls named `assert…`, `fail`, `verify…` (Mockito), an `assertThat(…)` chain
(counted once), `@Test(expected = …)`, and kotest's `x shouldBe y` infix calls.
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcorrex.integrity.cases import Mode, Operand
from gitcorrex.integrity.nodes import Node, has_descendant, text
from gitcorrex.integrity.tally import Found, Judged

TEST_ANNOTATIONS = {"Test", "ParameterizedTest", "RepeatedTest", "TestFactory",
                    "TestTemplate"}
SKIP_ANNOTATIONS = {"Disabled": "skip", "Ignore": "ignore", "DisabledOnOs": "skip",
                    "DisabledIf": "skip", "DisabledIfEnvironmentVariable": "skip",
                    "DisabledIfSystemProperty": "skip", "DisabledOnJre": "skip"}
CLASSES = {"class_declaration", "object_declaration", "enum_declaration",
           "record_declaration"}
CALLS = frozenset({"method_invocation", "call_expression", "object_creation_expression"})
SAME = {"assertEquals", "assertSame", "isEqualTo", "isSameAs", "assertArrayEquals",
        "assertIterableEquals", "assertLinesMatch", "shouldBe"}
TRUTHY = {"assertTrue", "isTrue"}
FALSY = {"assertFalse", "isFalse"}
NOT_NULL = {"assertNotNull", "isNotNull"}
NULL = {"assertNull", "isNull"}


class JvmDialect:
    """The rules above, for Java (`method_invocation`) or Kotlin (`call_expression`)."""

    def __init__(self, language: str) -> None:
        self.kotlin = language == "kotlin"

    def cases(self, root: Node) -> Iterator[Found]:
        yield from _in_body(root, "", junit3=False)

    def functions(self, root: Node) -> Iterator[tuple[str, Node]]:
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type in ("method_declaration", "function_declaration"):
                yield _name(node), _body(node)
            stack.extend(node.named_children)

    def judge(self, node: Node) -> Judged | None:
        if node.type == "infix_expression" and len(node.named_children) == 3:
            verb = text(node.named_children[1])
            if verb.startswith("should"):
                left, _, right = node.named_children
                mode = Mode.SAME if verb in SAME else None
                return Judged(claim=text(node), mode=mode,
                              operands=(operand(left), operand(right)), descend=False)
        if node.type not in ("method_invocation", "call_expression"):
            return None
        name, receiver = self._callee(node)
        chain = _assert_that_root(node, self)
        if name.startswith("assert") or name in ("fail", "verify") or chain is not None:
            return _assertion(node, name, chain, self)
        if receiver in ("", "this"):
            return Judged(call=name)
        return None

    def _callee(self, node: Node) -> tuple[str, str]:
        """(called name, receiver text: "" when there is none)."""
        if not self.kotlin:
            receiver = node.child_by_field_name("object")
            return text(node.child_by_field_name("name")), text(receiver)
        function = node.named_children[0] if node.named_children else None
        if function is None:
            return "", ""
        if function.type == "navigation_expression" and function.named_children:
            return text(function.named_children[-1]).lstrip("."), \
                text(function.named_children[0])
        return text(function), ""

    def arguments(self, node: Node) -> list[Operand]:
        if not self.kotlin:
            listed = node.child_by_field_name("arguments")
            return [operand(a) for a in listed.named_children] if listed else []
        for child in node.named_children:
            if child.type == "value_arguments":
                return [operand(v.named_children[-1]) for v in child.named_children
                        if v.named_children]
            if child.type == "call_suffix":
                return self.arguments(child)
        return []

    def inner_call(self, node: Node) -> Node | None:
        """The call a chained call is made on (`assertThat(a)` of `assertThat(a).isTrue()`)."""
        if not self.kotlin:
            receiver = node.child_by_field_name("object")
            return receiver if receiver is not None and receiver.type == "method_invocation" \
                else None
        function = node.named_children[0] if node.named_children else None
        if function is not None and function.type == "navigation_expression":
            first = function.named_children[0] if function.named_children else None
            return first if first is not None and first.type == "call_expression" else None
        return None


def _assert_that_root(node: Node, dialect: JvmDialect) -> Node | None:
    inner = dialect.inner_call(node)
    while inner is not None:
        if dialect._callee(inner)[0] == "assertThat":
            return inner
        inner = dialect.inner_call(inner)
    return None


def _assertion(node: Node, name: str, chain: Node | None, dialect: JvmDialect) -> Judged:
    if chain is not None:
        subject = dialect.arguments(chain)[-1:]
        expected = dialect.arguments(node)[-1:]
        operands = (*subject, *expected)
    else:
        listed = dialect.arguments(node)
        width = 2 if name in SAME else 1
        operands = tuple(listed[-width:])  # JUnit 4 puts an optional message first
    return Judged(claim=text(node), mode=_mode(name), operands=tuple(operands), descend=False)


def _mode(name: str) -> Mode | None:
    for names, mode in ((SAME, Mode.SAME), (TRUTHY, Mode.TRUTHY), (FALSY, Mode.FALSY),
                        (NOT_NULL, Mode.NOT_NULL), (NULL, Mode.NULL)):
        if name in names:
            return mode
    return None


def _in_body(container: Node, prefix: str, *, junit3: bool) -> Iterator[Found]:
    for child in container.named_children:
        if child.type in CLASSES:
            name = _name(child)
            qualified = f"{prefix}{name}"
            markers = _markers(child)
            yield Found(qualified, child, None, group=True, markers=markers)
            body = next((c for c in child.named_children
                         if c.type in ("class_body", "enum_body", "enum_class_body")), None)
            if body is not None:
                extends = "TestCase" in text(child.child_by_field_name("superclass"))
                yield from _in_body(body, f"{qualified}.", junit3=extends)
        elif child.type in ("method_declaration", "function_declaration"):
            annotations = _annotations(child)
            name = _name(child)
            if annotations & TEST_ANNOTATIONS or (junit3 and name.startswith("test")):
                claims = ("@Test(expected)",) if "expected" in text(_modifiers(child)) else ()
                yield Found(f"{prefix}{name}", child, _body(child), markers=_markers(child),
                            claims=claims)
        elif child.type in ("companion_object", "class_body"):
            yield from _in_body(child, prefix, junit3=junit3)


def _modifiers(node: Node) -> Node | None:
    return next((c for c in node.named_children if c.type == "modifiers"), None)


def _annotations(node: Node) -> set[str]:
    modifiers = _modifiers(node)
    found: set[str] = set()
    for child in modifiers.named_children if modifiers is not None else []:
        if "annotation" in child.type:
            name = text(child).lstrip("@").split("(")[0].strip()
            found.add(name.rsplit(".", 1)[-1])
    return found


def _markers(node: Node) -> frozenset[str]:
    return frozenset(SKIP_ANNOTATIONS[a] for a in _annotations(node) if a in SKIP_ANNOTATIONS)


def _name(node: Node) -> str:
    named = node.child_by_field_name("name")
    if named is None:
        named = next((c for c in node.named_children
                      if c.type in ("identifier", "simple_identifier", "type_identifier")), None)
    return text(named).strip("`")


def _body(node: Node) -> Node | None:
    body = node.child_by_field_name("body")
    if body is None:
        body = next((c for c in node.named_children if c.type == "function_body"), None)
    return body


def operand(node: Node) -> Operand:
    source = text(node)
    truth: bool | None = None
    literal = node.type in ("true", "false", "null_literal", "decimal_integer_literal",
                            "string_literal", "boolean_literal", "integer_literal",
                            "number_literal", "string_literal") or source in ("true", "false",
                                                                             "null")
    if literal:
        truth = source not in ("false", "null", "0", '""')
    return Operand(source, truth, source == "null", not has_descendant(node, CALLS))
