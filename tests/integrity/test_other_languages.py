"""Go, Rust, Java and Kotlin tests: what a test, an assertion and a skip are in each."""

from __future__ import annotations

from tests.integrity.conftest import rules, weakenings

GO = '''\
package cart

import "testing"

func TestTotal(t *testing.T) {
	got := Total([]int{1, 2})
	if got != 3 {
		t.Errorf("Total = %d, want 3", got)
	}
	if Total(nil) != 0 {
		t.Fatal("empty cart")
	}
}

func helperNotATest(n int) int { return n }
'''


def test_go_error_calls_removed_are_named() -> None:
    new = GO.replace('\tif Total(nil) != 0 {\n\t\tt.Fatal("empty cart")\n\t}\n', "")
    [found] = weakenings({"cart_test.go": GO}, {"cart_test.go": new})
    assert (found.test, found.rule.value) == ("TestTotal", "assertions_removed")
    assert 't.Fatal("empty cart")' in found.detail


def test_go_skip_and_a_condition_that_never_holds() -> None:
    skipped = GO.replace("\tgot :=", '\tt.Skip("flaky")\n\tgot :=')
    assert rules(weakenings({"cart_test.go": GO}, {"cart_test.go": skipped})) == [
        ("TestTotal", "skip_added")]
    never = GO.replace("if got != 3 {", "if got != got {")
    assert rules(weakenings({"cart_test.go": GO}, {"cart_test.go": never})) == [
        ("TestTotal", "assertion_trivial"), ("TestTotal", "assertions_removed")]


def test_go_renamed_away_and_table_driven_rewrite() -> None:
    renamed = GO.replace("func TestTotal(", "func testTotal(")
    assert rules(weakenings({"cart_test.go": GO}, {"cart_test.go": renamed})) == [
        ("TestTotal", "test_renamed_away")]
    table = GO.replace('''	got := Total([]int{1, 2})
	if got != 3 {
		t.Errorf("Total = %d, want 3", got)
	}
	if Total(nil) != 0 {
		t.Fatal("empty cart")
	}''', '''	cases := []struct{ in []int; want int }{{[]int{1, 2}, 3}, {nil, 0}}
	for _, c := range cases {
		if got := Total(c.in); got != c.want {
			t.Errorf("Total(%v) = %d, want %d", c.in, got, c.want)
		}
	}''')
    assert weakenings({"cart_test.go": GO}, {"cart_test.go": table}) == []


def test_go_testify_trivial_and_helper_with_t() -> None:
    base = 'package x\nfunc TestA(t *testing.T) {\n\trequire.Equal(t, 3, f())\n}\n'
    trivial = base.replace("require.Equal(t, 3, f())", "assert.True(t, true)")
    assert rules(weakenings({"x_test.go": base}, {"x_test.go": trivial})) == [
        ("TestA", "assertion_trivial"), ("TestA", "assertions_removed")]
    helper = base.replace("require.Equal(t, 3, f())", "checkF(t, 3)")
    assert weakenings({"x_test.go": base}, {"x_test.go": helper}) == []


RUST = '''\
pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
        assert!(add(0, 0) == 0);
    }
}
'''


def test_rust_ignore_trivial_and_removed() -> None:
    ignored = RUST.replace("    #[test]\n", "    #[test]\n    #[ignore]\n")
    assert rules(weakenings({"src/lib.rs": RUST}, {"src/lib.rs": ignored})) == [
        ("tests::adds", "skip_added")]
    trivial = RUST.replace("assert_eq!(add(1, 2), 3)", "assert_eq!(3, 3)")
    assert rules(weakenings({"src/lib.rs": RUST}, {"src/lib.rs": trivial})) == [
        ("tests::adds", "assertion_trivial"), ("tests::adds", "assertions_removed")]
    uncollected = RUST.replace("    #[test]\n", "")
    [found] = weakenings({"src/lib.rs": RUST}, {"src/lib.rs": uncollected})
    assert (found.test, found.rule.value) == ("tests::adds", "test_renamed_away")
    assert "`adds` is still defined" in found.detail
    gone = RUST[:RUST.index("    #[test]")] + "}\n"
    assert rules(weakenings({"src/lib.rs": RUST}, {"src/lib.rs": gone})) == [
        ("tests::adds", "test_removed")]


JAVA = '''\
class CartTest {
    @Test
    void total() {
        assertEquals(3, new Cart(1, 2).total());
        assertThat(new Cart().total()).isZero();
    }
}
'''


def test_java_disabled_and_trivial() -> None:
    path = "src/test/java/CartTest.java"
    disabled = JAVA.replace("    @Test\n", "    @Test\n    @Disabled(\"later\")\n")
    assert rules(weakenings({path: JAVA}, {path: disabled})) == [
        ("CartTest.total", "skip_added")]
    trivial = JAVA.replace("assertEquals(3, new Cart(1, 2).total())", "assertTrue(true)")
    assert rules(weakenings({path: JAVA}, {path: trivial})) == [
        ("CartTest.total", "assertion_trivial"), ("CartTest.total", "assertions_removed")]


def test_kotlin_ignore_and_removed_assertion() -> None:
    path = "src/test/kotlin/CartTest.kt"
    base = "class CartTest {\n    @Test\n    fun total() {\n        assertEquals(3, f())\n" \
           "        f() shouldBe 3\n    }\n}\n"
    assert rules(weakenings({path: base}, {path: base.replace("@Test\n", "@Test @Ignore\n")})) \
        == [("CartTest.total", "skip_added")]
    assert rules(weakenings({path: base}, {path: base.replace("f() shouldBe 3", "")})) == [
        ("CartTest.total", "assertions_removed")]
