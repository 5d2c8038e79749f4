"""JavaScript and TypeScript: Jest, Vitest, Mocha, Jasmine, node:test, AVA.

Tests are calls of `it`/`test`/`specify` (and `xit`, `fit`…) whose first argument names
them; `describe`/`context`/`suite` calls are groups that qualify the names inside them
(`suite > case`). Modifiers mark them: `.skip`, `x…` (skip), `.only`, `f…` (only), `.todo`,
`.failing`/`.fails` (xfail), `.skipIf` (skip); `.each(table)` runs once per row of a
literal table, a `for…of`/`.forEach` over a literal array once per item.
Assertions: an `expect(…)` chain (counted once; `expect(x)` with no matcher asserts
nothing), `assert(…)`/`assert.*(…)`, `….should…`, and AVA's/tap's `t.is(…)`-style calls
(`t.pass()` asserts nothing; nor does one under `if (false)`). `this.skip()` /
`ctx.skip()` in a body skip.
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcorrex.integrity.cases import Mode, Operand
from gitcorrex.integrity.nodes import Node, has_descendant, text, unquote
from gitcorrex.integrity.tally import Found, Judged

TESTS = {"it": None, "test": None, "specify": None, "xit": "skip", "xtest": "skip",
         "xspecify": "skip", "fit": "only"}
GROUPS = {"describe": None, "context": None, "suite": None, "xdescribe": "skip",
          "xcontext": "skip", "xsuite": "skip", "fdescribe": "only"}
MODIFIERS = {"skip": "skip", "only": "only", "todo": "todo", "failing": "xfail",
             "fails": "xfail", "skipIf": "skip"}
SAME = {"toBe", "toEqual", "toStrictEqual", "equal", "equals", "eql", "strictEqual",
        "deepEqual", "deepStrictEqual", "is", "same", "deepEquals", "toMatchObject"}
TRUTHY = {"toBeTruthy", "ok", "true", "truthy", "assert", "toBeTrue"}
FALSY = {"toBeFalsy", "false", "falsy", "notOk", "toBeFalse"}
NOT_NULL = {"toBeDefined", "exist", "toBeTruthy"}
TAP = {"is", "not", "deepEqual", "notDeepEqual", "true", "false", "truthy", "falsy",
       "throws", "throwsAsync", "notThrows", "regex", "snapshot", "fail", "equal", "same",
       "ok", "notOk", "match", "like", "assert", "pass", "strictSame", "rejects"}
CALLS = frozenset({"call_expression", "new_expression", "await_expression"})
FUNCTIONS = ("arrow_function", "function_expression", "function", "generator_function")


class JsDialect:
    """The rules above, for `tally.file_cases`."""

    def cases(self, root: Node) -> Iterator[Found]:
        yield from _cases(root, "")

    def functions(self, root: Node) -> Iterator[tuple[str, Node]]:
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type in ("function_declaration", "generator_function_declaration",
                             "method_definition"):
                yield text(node.child_by_field_name("name")), node.child_by_field_name("body")
            elif node.type == "variable_declarator":
                value = node.child_by_field_name("value")
                if value is not None and value.type in FUNCTIONS:
                    yield text(node.child_by_field_name("name")), \
                        value.child_by_field_name("body")
            stack.extend(node.named_children)

    def judge(self, node: Node) -> Judged | None:
        if node.type == "if_statement" and _never(node.child_by_field_name("condition")):
            return Judged(claim=text(node), mode=Mode.ALWAYS, descend=False)
        if node.type == "for_in_statement":
            times = _length(node.child_by_field_name("right"))
            return Judged(repeat=times) if times > 1 else None
        if node.type != "call_expression":
            return None
        function = node.child_by_field_name("function")
        if function is not None and function.type == "member_expression" and \
                text(function.child_by_field_name("property")) in ("forEach", "map"):
            times = _length(function.child_by_field_name("object"))
            if times > 1:
                return Judged(repeat=times)
        path = _callee_path(node.child_by_field_name("function"))
        if _is_expect_chain(node):
            return _expect(node)
        if path[:1] == ("assert",) or "should" in path:
            return _assert_call(node, path)
        if len(path) == 2 and path[0] == "t" and path[1] in TAP:
            mode = Mode.ALWAYS if path[1] == "pass" else _mode(path[1])
            return Judged(claim=text(node), mode=mode, operands=tuple(_arguments(node)),
                          descend=False)
        if len(path) == 2 and path[1] == "skip" and path[0] in ("this", "ctx", "context", "t"):
            return Judged(marker="skip")
        if len(path) == 1:
            return Judged(call=path[0])
        return None


def _cases(node: Node, prefix: str) -> Iterator[Found]:
    for child in node.named_children:
        found = _case_call(child) if child.type == "call_expression" else None
        if found is None:
            yield from _cases(child, prefix)
            continue
        base, markers, name, body, repeat = found
        qualified = f"{prefix}{name}"
        if base in GROUPS:
            yield Found(qualified, child, None, group=True, markers=markers)
            if body is not None:
                yield from _cases(body, f"{qualified} > ")
        else:
            yield Found(qualified, child, body, markers=markers, repeat=repeat)


def _case_call(call: Node) -> tuple[str, frozenset[str], str, Node | None, int] | None:
    """(base name, markers, test name, body, cases) when `call` declares a test or group."""
    function = call.child_by_field_name("function")
    repeat = 1
    if function is not None and function.type == "call_expression":  # it.each(table)(…)
        table = function.child_by_field_name("arguments")
        rows = table.named_children if table is not None else []
        repeat = _length(rows[0]) if len(rows) == 1 else 1
        function = function.child_by_field_name("function")
    path = _callee_path(function)
    if not path or (path[0] not in TESTS and path[0] not in GROUPS):
        return None
    markers = {m for m in (TESTS.get(path[0]) or GROUPS.get(path[0]),) if m}
    markers |= {MODIFIERS[p] for p in path[1:] if p in MODIFIERS}
    arguments = call.child_by_field_name("arguments")
    listed = arguments.named_children if arguments is not None else []
    if not listed:
        return None
    first = listed[0]
    name = unquote(first) if first.type in ("string", "template_string") else text(first)
    body = next((a for a in reversed(listed) if a.type in FUNCTIONS), None)
    return path[0], frozenset(markers), " ".join(name.split()), \
        body.child_by_field_name("body") if body is not None else None, repeat


def _length(node: Node) -> int:
    """The items of a literal array (1 for anything else: a template table, a name)."""
    if node.type != "array":
        return 1
    return max(1, sum(1 for child in node.named_children if child.type != "comment"))


def _callee_path(function: Node | None) -> tuple[str, ...]:
    """`it.skip` → ("it", "skip"); `a.b.c` → ("a", "b", "c"); anything else → ()."""
    parts: list[str] = []
    while function is not None and function.type == "member_expression":
        parts.append(text(function.child_by_field_name("property")))
        function = function.child_by_field_name("object")
    if function is None or function.type not in ("identifier", "this"):
        return ()
    parts.append(text(function))
    return tuple(reversed(parts))


def _chain_root(node: Node) -> Node | None:
    """The innermost call of a member chain (`expect(a)` of `expect(a).not.toBe(b)`)."""
    function = node.child_by_field_name("function")
    while function is not None and function.type == "member_expression":
        function = function.child_by_field_name("object")
        if function is not None and function.type == "call_expression":
            return function
    return None


def _is_expect_chain(node: Node) -> bool:
    if _callee_path(node.child_by_field_name("function"))[:1] == ("expect",):
        return True
    current: Node | None = node
    while current is not None:
        root = _chain_root(current)
        if root is None:
            return False
        if _callee_path(root.child_by_field_name("function"))[:1] == ("expect",):
            return True
        current = root
    return False


def _expect(node: Node) -> Judged:
    """`expect(x).toBe(y)`: one assertion; `expect(x)` alone asserts nothing."""
    claim = text(node)
    path = _callee_path(node.child_by_field_name("function"))
    if path[:1] == ("expect",):
        if len(path) > 1:  # expect.assertions(n), expect.hasAssertions()
            return Judged(claim=claim, descend=False)
        return Judged(claim=claim, mode=Mode.ALWAYS, descend=False)
    function = node.child_by_field_name("function")
    matcher = text(function.child_by_field_name("property")) if function is not None else ""
    negated = ".not." in text(function)
    root = node
    while (inner := _chain_root(root)) is not None:
        root = inner
    subject = _arguments(root)[:1]
    if negated or not subject:
        return Judged(claim=claim, descend=False)
    expected = _arguments(node)[:1]
    return Judged(claim=claim, mode=_mode(matcher), operands=(*subject, *expected),
                  descend=False)


def _assert_call(node: Node, path: tuple[str, ...]) -> Judged:
    name = path[-1] if len(path) > 1 else "assert"
    return Judged(claim=text(node), mode=_mode(name), operands=tuple(_arguments(node)),
                  descend=False)


def _never(condition: Node | None) -> bool:
    """`if (false)`, `if (0)`, `if (x !== x)` (one pure expression): a body that never
    runs, so an expectation moved under it asserts nothing."""
    while condition is not None and condition.type == "parenthesized_expression" and \
            condition.named_children:
        condition = condition.named_children[0]
    if condition is None:
        return False
    if condition.type == "binary_expression" and len(condition.named_children) == 2:
        left, right = (operand(c) for c in condition.named_children)
        verb = text(condition.child_by_field_name("operator"))
        return verb in ("!==", "!=", "<", ">") and left.pure and left.text == right.text
    return operand(condition).truth is False


def _mode(name: str) -> Mode | None:
    for names, mode in ((SAME, Mode.SAME), (TRUTHY, Mode.TRUTHY), (FALSY, Mode.FALSY),
                        (NOT_NULL, Mode.NOT_NULL)):
        if name in names:
            return mode
    return None


def _arguments(call: Node) -> list[Operand]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [operand(a) for a in arguments.named_children if a.type != "comment"]


def operand(node: Node) -> Operand:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    source = text(node)
    return Operand(source, _truth(node, source), node.type in ("null", "undefined"),
                   not has_descendant(node, CALLS))


def _truth(node: Node, source: str) -> bool | None:
    if node.type in ("true", "false", "null", "undefined", "number"):
        return source not in ("false", "null", "undefined", "0", "0n", "-0")
    if node.type == "string":
        return source not in ('""', "''")
    if node.type in ("array", "object", "regex"):
        return True
    return None
