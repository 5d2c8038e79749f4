"""Which tree-sitter nodes define a symbol, per language: data, not code paths.

Only declarations at module level and inside type bodies are walked: functions, classes,
methods (`Class.method`), structs, traits, interfaces, enums, type aliases and top-level
constants. Function bodies are never entered (their locals are not an API), and a node
tree-sitter could not parse (`ERROR`) is skipped, so nothing it might hide is reported.

A rule is one of:
- `scope`: defines a name and holds members, walked with that name as their prefix
  (`impl` blocks and companion objects hold members without defining a name);
- `define`: defines one name (or several, for declarator lists); its body is not walked;
- `walk`: a wrapper (export, decorator, `if TYPE_CHECKING:`) walked in the same scope.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

Node = Any
Namer = Callable[[Node], Iterator[str]]
Bodier = Callable[[Node], Node | None]


@dataclass(frozen=True)
class Rule:
    kind: str  # "scope" | "define" | "walk"
    names: Namer | None = None
    body: Bodier | None = None


def _text(node: Node | None) -> str | None:
    if node is None:
        return None
    name = node.text.decode("utf-8", "replace").strip("`")
    return name or None


def field_name(field: str = "name") -> Namer:
    """The text of the node's `field` child (`name` by default)."""

    def names(node: Node) -> Iterator[str]:
        found = _text(node.child_by_field_name(field))
        if found:
            yield found

    return names


def first_of(*types: str) -> Namer:
    """The text of the first named child of one of `types` (grammars without fields)."""

    def names(node: Node) -> Iterator[str]:
        for child in node.named_children:
            if child.type in types:
                found = _text(child)
                if found:
                    yield found
                return

    return names


def field_body(field: str = "body") -> Bodier:
    return lambda node: node.child_by_field_name(field)


def child_body(*types: str) -> Bodier:
    def body(node: Node) -> Node | None:
        return next((child for child in node.named_children if child.type in types), None)

    return body


def base_type(node: Node | None) -> str | None:
    """`Client` from `*Client`, `Client[T]`, `Wrapper<T>`, `pkg.Client`, `&mut Client`."""
    while node is not None:
        if node.type in ("type_identifier", "identifier", "field_identifier"):
            return _text(node)
        inner = node.child_by_field_name("type") or node.child_by_field_name("name")
        if inner is None and node.named_child_count:
            inner = node.named_children[-1]
        node = inner
    return None


def go_receiver(node: Node) -> Iterator[str]:
    """`Client.Send` for `func (c *Client) Send()`."""
    name = _text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("receiver")
    params = receiver.named_children if receiver is not None else []
    owner = base_type(params[0].child_by_field_name("type")) if params else None
    if name:
        yield f"{owner}.{name}" if owner else name


def rust_impl_owner(node: Node) -> Iterator[str]:
    owner = base_type(node.child_by_field_name("type"))
    if owner:
        yield owner


def declarators(declarator: str, field: str = "name",
                types: tuple[str, ...] = ("identifier",)) -> Namer:
    """Names of `declarator` children whose `field` is a plain identifier."""

    def names(node: Node) -> Iterator[str]:
        for child in node.named_children:
            if child.type == declarator:
                target = child.child_by_field_name(field)
                if target is not None and target.type in types:
                    found = _text(target)
                    if found:
                        yield found

    return names


def all_fields(field: str = "name") -> Namer:
    """Every `field` child: `const A, B = 1, 2` in Go defines both."""

    def names(node: Node) -> Iterator[str]:
        for child in node.children_by_field_name(field):
            found = _text(child) if child.is_named else None  # not the "," between names
            if found:
                yield found

    return names


def python_assignment(node: Node) -> Iterator[str]:
    """`LIMIT = 3` and `LIMIT: int = 3` at module or class level; not `a.b = 1`."""
    for child in node.named_children:
        if child.type == "assignment":
            target = child.child_by_field_name("left")
            if target is not None and target.type == "identifier":
                found = _text(target)
                if found:
                    yield found


def python_type_alias(node: Node) -> Iterator[str]:
    left = node.child_by_field_name("left")
    found = base_type(left)
    if found:
        yield found


def java_constants(node: Node) -> Iterator[str]:
    """`static final` fields only: the constants of a class, not its state."""
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    words = set(modifiers.text.split()) if modifiers is not None else set()
    if {b"static", b"final"} <= words:
        yield from declarators("variable_declarator")(node)


def kotlin_property(node: Node) -> Iterator[str]:
    for child in node.named_children:
        if child.type == "variable_declaration":
            yield from first_of("identifier", "simple_identifier")(child)


SCOPE, DEFINE, WALK = "scope", "define", "walk"
_WALK = Rule(WALK)
_NAME = Rule(DEFINE, field_name())

PYTHON: dict[str, Rule] = {
    "class_definition": Rule(SCOPE, field_name(), field_body()),
    "function_definition": _NAME,
    "decorated_definition": _WALK,
    "expression_statement": Rule(DEFINE, python_assignment),
    "type_alias_statement": Rule(DEFINE, python_type_alias),
    **{kind: _WALK for kind in ("if_statement", "elif_clause", "else_clause", "try_statement",
                                "except_clause", "finally_clause", "with_statement", "block")},
}

JAVASCRIPT: dict[str, Rule] = {
    "class_declaration": Rule(SCOPE, field_name(), field_body()),
    "method_definition": _NAME,
    "function_declaration": _NAME,
    "generator_function_declaration": _NAME,
    "export_statement": _WALK,
    "lexical_declaration": Rule(DEFINE, declarators("variable_declarator")),
    "variable_declaration": Rule(DEFINE, declarators("variable_declarator")),
}

TYPESCRIPT: dict[str, Rule] = {
    **JAVASCRIPT,
    "abstract_class_declaration": Rule(SCOPE, field_name(), field_body()),
    "interface_declaration": Rule(SCOPE, field_name(), field_body()),
    "internal_module": Rule(SCOPE, field_name(), field_body()),
    "module": Rule(SCOPE, field_name(), field_body()),
    "method_signature": _NAME,
    "property_signature": _NAME,
    "abstract_method_signature": _NAME,
    "function_signature": _NAME,
    "type_alias_declaration": _NAME,
    "enum_declaration": _NAME,
    "ambient_declaration": _WALK,
    "expression_statement": _WALK,
}

GO: dict[str, Rule] = {
    "function_declaration": _NAME,
    "method_declaration": Rule(DEFINE, go_receiver),
    "type_declaration": _WALK,
    "type_spec": Rule(SCOPE, field_name(), field_body("type")),
    "type_alias": _NAME,
    "method_elem": _NAME,
    "method_spec": _NAME,
    "const_declaration": _WALK,
    "var_declaration": _WALK,
    "const_spec": Rule(DEFINE, all_fields()),
    "var_spec": Rule(DEFINE, all_fields()),
}

RUST: dict[str, Rule] = {
    **{kind: _NAME for kind in ("function_item", "function_signature_item", "struct_item",
                                "enum_item", "union_item", "type_item", "const_item",
                                "static_item", "macro_definition")},
    "trait_item": Rule(SCOPE, field_name(), field_body()),
    "mod_item": Rule(SCOPE, field_name(), field_body()),
    "impl_item": Rule(SCOPE, rust_impl_owner, field_body()),
}

JAVA: dict[str, Rule] = {
    **{kind: Rule(SCOPE, field_name(), field_body())
       for kind in ("class_declaration", "interface_declaration", "enum_declaration",
                    "record_declaration", "annotation_type_declaration")},
    "enum_body_declarations": _WALK,
    "method_declaration": _NAME,
    "annotation_type_element_declaration": _NAME,
    "field_declaration": Rule(DEFINE, java_constants),
    "constant_declaration": Rule(DEFINE, declarators("variable_declarator")),
}

KOTLIN: dict[str, Rule] = {
    "class_declaration": Rule(SCOPE, field_name(), child_body("class_body", "enum_class_body")),
    "object_declaration": Rule(SCOPE, field_name(), child_body("class_body")),
    "companion_object": _WALK,
    "class_body": _WALK,
    "function_declaration": _NAME,
    "property_declaration": Rule(DEFINE, kotlin_property),
    "type_alias": Rule(DEFINE, field_name("type")),
}

RULES: dict[str, dict[str, Rule]] = {
    "python": PYTHON, "javascript": JAVASCRIPT, "typescript": TYPESCRIPT, "tsx": TYPESCRIPT,
    "go": GO, "rust": RUST, "java": JAVA, "kotlin": KOTLIN,
}

# Scopes that hold members without defining a name of their own.
MEMBERS_ONLY = frozenset({"impl_item"})
