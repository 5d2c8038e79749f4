"""Issue 27's proof, one language at a time, through the real entry with Claude Code's real
Stop payload (`last_assistant_message` and all): a weakened test blocks Stop naming its
file and test; accepting the weakening lets the turn end; a refactor that keeps every
assertion is never flagged. Python, JavaScript, TypeScript, Go, Rust and Java."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.agents.conftest import claude, hook, json_answer
from tests.conftest import run_correx, write


class Case(NamedTuple):
    path: str
    original: str
    weakened: str
    named: str  # what the block must say: "<path>:<line> <test>: <weakening>"
    refactored: str


PY = "def test_total():\n    assert total([1, 2]) == 3\n    assert total([]) == 0\n"
JS = 'test("sums", () => {\n  expect(total([1, 2])).toBe(3);\n});\n'
TS = ('describe("cart", () => {\n  it("sums", () => {\n    const cart: number[] = [1, 2];\n'
      '    expect(total(cart)).toBe(3);\n  });\n});\n')
GO = ('package cart\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n'
      '\tif Total([]int{1, 2}) != 3 {\n\t\tt.Fatal("want 3")\n\t}\n}\n')
RUST = ('pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n'
        '    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n'
        '    }\n}\n')
JAVA = ('class CartTest {\n    @Test\n    void total() {\n'
        '        assertEquals(3, new Cart(1, 2).total());\n    }\n}\n')

CASES = {
    "python": Case("tests/test_cart.py", PY, PY.replace("    assert total([]) == 0\n", ""),
                   "tests/test_cart.py:1 test_total: assertions removed (2 → 1",
                   PY.replace("[1, 2]", "[2, 1]").replace("def test_total():",
                                                          "def test_total():  # both ways")),
    "javascript": Case("test/cart.test.js", JS, JS.replace('test("sums"', 'test.skip("sums"'),
                       "test/cart.test.js:1 sums: skip marker added",
                       JS.replace("expect(total([1, 2])).toBe(3);",
                                  "const sum = total([1, 2]);\n  expect(sum).toBe(3);")),
    "typescript": Case("src/cart.spec.ts", TS, TS.replace('it("sums"', 'it.only("sums"'),
                       "src/cart.spec.ts:2 cart > sums: skip marker added (marked only)",
                       TS.replace("const cart: number[] = [1, 2];",
                                  "const items: number[] = [1, 2];").replace(
                           "total(cart)", "total(items)")),
    "go": Case("cart/cart_test.go", GO, GO.replace('\t\tt.Fatal("want 3")\n', ""),
               "cart/cart_test.go:5 TestTotal: assertions removed (1 → 0",
               GO.replace("if Total([]int{1, 2}) != 3 {",
                          "got := Total([]int{1, 2})\n\tif got != 3 {")),
    "rust": Case("src/lib.rs", RUST,
                 RUST.replace("    #[test]\n", "    #[test]\n    #[ignore]\n"),
                 "src/lib.rs:9 tests::adds: skip marker added (marked ignore)",
                 RUST.replace("assert_eq!(add(1, 2), 3);",
                              "let sum = add(1, 2);\n        assert_eq!(sum, 3);")),
    "java": Case("src/test/java/CartTest.java", JAVA,
                 JAVA.replace("assertEquals(3, new Cart(1, 2).total())", "assertTrue(true)"),
                 "src/test/java/CartTest.java:2 CartTest.total: assertion made trivially true",
                 JAVA.replace("assertEquals(3, new Cart(1, 2).total());",
                              "Cart cart = new Cart(1, 2);\n"
                              "        assertEquals(3, cart.total());")),
}


def claude_stop(root: Path, message: str) -> bytes:
    """Claude Code's Stop payload as 2.1.47+ sends it."""
    document = json.loads(claude("Stop", root))
    document["last_assistant_message"] = message
    return json.dumps(document).encode()


@pytest.fixture(params=sorted(CASES))
def case(request: pytest.FixtureRequest, make_repo: Callable[..., Path]) -> tuple[Path, Case]:
    chosen = CASES[request.param]
    return make_repo(files={"README.md": "hi\n", chosen.path: chosen.original}), chosen


def test_a_weakened_test_blocks_then_an_acceptance_lets_the_turn_end(
        case: tuple[Path, Case]) -> None:
    root, chosen = case
    write(root, chosen.path, chosen.weakened)
    answer = json_answer(hook(root, "claude-code", claude_stop(root, "All tests pass.")))
    assert answer["decision"] == "block"
    assert chosen.named in answer["reason"], answer["reason"]
    accepted = run_correx(root, "accept-tests", "--reason", "the operator agrees")
    assert accepted.code == 0, accepted
    result = hook(root, "claude-code", claude_stop(root, "All tests pass."))
    assert (result.code, result.stdout) == (0, ""), result


def test_a_refactor_that_keeps_its_assertions_ends_the_turn(case: tuple[Path, Case]) -> None:
    root, chosen = case
    write(root, chosen.path, chosen.refactored)
    result = hook(root, "claude-code", claude_stop(root, "Refactored; done."))
    assert (result.code, result.stdout) == (0, ""), result
