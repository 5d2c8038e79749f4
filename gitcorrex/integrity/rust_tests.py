"""Rust: `#[test]` functions (and `#[tokio::test]`-style attributes ending in `test`),
named by their module path (`tests::it_works`). Assertions: the `assert*!`,
`debug_assert*!` and `prop_assert*!` macros, and `#[should_panic]`. `#[ignore]` marks a
test ignored.
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcorrex.integrity.cases import Mode, Operand
from gitcorrex.integrity.nodes import Node, text
from gitcorrex.integrity.tally import Found, Judged

TEST_ATTRIBUTES = {"test", "rstest", "test_case", "quickcheck", "proptest"}
LITERALS = {"boolean_literal", "integer_literal", "float_literal", "string_literal",
            "char_literal", "raw_string_literal"}


class RustDialect:
    """The rules above, for `tally.file_cases`."""

    def cases(self, root: Node) -> Iterator[Found]:
        yield from _in_items(root, "")

    def functions(self, root: Node) -> Iterator[tuple[str, Node]]:
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type == "function_item":
                yield text(node.child_by_field_name("name")), node.child_by_field_name("body")
            stack.extend(node.named_children)

    def judge(self, node: Node) -> Judged | None:
        if node.type == "macro_invocation":
            name = text(node.child_by_field_name("macro")).rsplit("::", 1)[-1]
            if name.startswith(("assert", "debug_assert", "prop_assert")):
                return _assertion(node, name)
            return None
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            if function is not None and function.type in ("identifier", "scoped_identifier"):
                return Judged(call=text(function).rsplit("::", 1)[-1])
        return None


def _in_items(container: Node, prefix: str) -> Iterator[Found]:
    attributes: list[str] = []
    for child in container.named_children:
        if child.type == "attribute_item":
            attributes.append(text(child).removeprefix("#[").removesuffix("]").strip())
            continue
        if child.type == "mod_item":
            body = child.child_by_field_name("body")
            if body is not None:
                name = text(child.child_by_field_name("name"))
                yield from _in_items(body, f"{prefix}{name}::")
        elif child.type == "function_item" and any(_is_test(a) for a in attributes):
            markers = frozenset("ignore" for a in attributes if a.split("(")[0] == "ignore")
            claims = tuple(f"#[{a}]" for a in attributes if a.startswith("should_panic"))
            name = f"{prefix}{text(child.child_by_field_name('name'))}"
            yield Found(name, child, child.child_by_field_name("body"), markers=markers,
                        claims=claims)
        if child.type != "line_comment" and child.type != "block_comment":
            attributes = []


def _is_test(attribute: str) -> bool:
    path = attribute.split("(")[0].strip()
    return path.rsplit("::", 1)[-1] in TEST_ATTRIBUTES


def _assertion(node: Node, name: str) -> Judged:
    operands = _operands(node)
    mode: Mode | None = None
    if name in ("assert", "debug_assert", "prop_assert"):
        mode = Mode.TRUTHY
    elif name.endswith("_eq"):
        mode = Mode.SAME
    return Judged(claim=text(node), mode=mode, operands=tuple(operands), descend=False)


def _operands(node: Node) -> list[Operand]:
    """The macro's comma-separated arguments (a token tree has no expressions to read)."""
    tree = next((c for c in node.named_children if c.type == "token_tree"), None)
    if tree is None:
        return []
    groups: list[list[Node]] = [[]]
    for child in tree.children[1:-1]:  # inside the brackets
        if child.type == ",":
            groups.append([])
        else:
            groups[-1].append(child)
    return [_operand(group) for group in groups if group]


def _operand(tokens: list[Node]) -> Operand:
    source = " ".join(text(t) for t in tokens)
    truth: bool | None = None
    if len(tokens) == 1 and tokens[0].type in LITERALS:
        truth = source not in ("false", "0", '""')
    pure = not any(t.type == "token_tree" for t in tokens)
    return Operand(source, truth, False, pure)
