"""JavaScript and TypeScript tests (Jest, Vitest, Mocha, node:test)."""

from __future__ import annotations

from tests.integrity.conftest import rules, weakenings

PATH = "src/__tests__/cart.test.ts"
BASE = '''\
import { describe, it, expect } from "vitest";
import { Cart } from "../cart";

describe("Cart", () => {
  it("adds items", () => {
    const cart = new Cart();
    cart.add("apple", 2);
    expect(cart.count()).toBe(2);
    expect(cart.total()).toEqual(3.5);
  });

  describe("discounts", () => {
    test("applies a code", () => {
      expect(new Cart().discount("HALF")).toBe(0.5);
    });
  });
});
'''


def changed(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new)


def test_expectations_removed_are_named_under_the_describe_path() -> None:
    new = changed("    expect(cart.total()).toEqual(3.5);\n", "")
    [found] = weakenings({PATH: BASE}, {PATH: new})
    assert (found.test, found.rule.value) == ("Cart > adds items", "assertions_removed")
    assert "expect(cart.total()).toEqual(3.5)" in found.detail


def test_skip_only_todo_and_x_prefixes_are_markers() -> None:
    for old, new, test, marker in (
            ('it("adds items"', 'it.skip("adds items"', "Cart > adds items", "skip"),
            ('it("adds items"', 'xit("adds items"', "Cart > adds items", "skip"),
            ('describe("discounts"', 'describe.skip("discounts"', "Cart > discounts", "skip"),
            ('test("applies', 'test.todo("applies', "Cart > discounts > applies a code",
             "todo")):
        [found] = weakenings({PATH: BASE}, {PATH: changed(old, new)})
        assert (found.test, found.rule.value) == (test, "skip_added"), old
        assert marker in found.detail


def test_only_on_a_new_test_turns_the_others_off() -> None:
    new = changed("});\n", '});\nit.only("focus", () => { expect(1 + 1).toBe(2); });\n', )
    assert ("focus", "skip_added") in rules(weakenings({PATH: BASE}, {PATH: new}))


def test_trivial_expectations_are_named() -> None:
    for trivial in ("expect(true).toBe(true)", "expect(cart).toBe(cart)",
                    "expect(1).toBeTruthy()", "expect(cart.total())", "assert.ok(true)"):
        new = changed("expect(cart.total()).toEqual(3.5)", trivial)
        assert rules(weakenings({PATH: BASE}, {PATH: new})) == [
            ("Cart > adds items", "assertion_trivial"),
            ("Cart > adds items", "assertions_removed")], trivial


def test_a_helper_and_a_table_keep_the_count() -> None:
    helper = changed('''    expect(cart.count()).toBe(2);
    expect(cart.total()).toEqual(3.5);
''', '''    expectTotals(cart, 2, 3.5);
''') + '''
function expectTotals(cart, count, total) {
  expect(cart.count()).toBe(count);
  expect(cart.total()).toEqual(total);
}
'''
    assert weakenings({PATH: BASE}, {PATH: helper}) == []
    table = changed('''  it("adds items", () => {
    const cart = new Cart();
    cart.add("apple", 2);
    expect(cart.count()).toBe(2);
    expect(cart.total()).toEqual(3.5);
  });''', '''  it.each([[2, 3.5], [1, 1.75]])("adds items", (n, total) => {
    const cart = new Cart();
    cart.add("apple", n);
    expect(cart.total()).toEqual(total);
  });''')
    assert weakenings({PATH: BASE}, {PATH: table}) == []


def test_a_removed_case_is_removed() -> None:
    new = changed('''  describe("discounts", () => {
    test("applies a code", () => {
      expect(new Cart().discount("HALF")).toBe(0.5);
    });
  });
''', "")
    assert rules(weakenings({PATH: BASE}, {PATH: new})) == [
        ("Cart > discounts > applies a code", "test_removed")]


def test_plain_javascript_and_mocha_this_skip() -> None:
    base = 'describe("a", function () {\n  it("b", function () {\n    assert.equal(f(), 1);\n' \
           '  });\n});\n'
    new = base.replace("assert.equal", "this.skip();\n    assert.equal")
    assert rules(weakenings({"test/a.spec.js": base}, {"test/a.spec.js": new})) == [
        ("a > b", "skip_added")]


def test_an_expectation_under_if_false_asserts_nothing() -> None:
    new = changed("    expect(cart.total()).toEqual(3.5);\n",
                  "    if (false) { expect(cart.total()).toEqual(3.5); }\n")
    assert rules(weakenings({PATH: BASE}, {PATH: new})) == [
        ("Cart > adds items", "assertion_trivial"), ("Cart > adds items", "assertions_removed")]
