"""Python tests as pytest and unittest see them: what weakens one and what does not."""

from __future__ import annotations

from tests.integrity.conftest import rules, weakenings

PATH = "tests/test_calc.py"
BASE = '''\
import pytest

from calc import add, div


def test_add():
    assert add(1, 2) == 3
    assert add(-1, 1) == 0


def test_div_by_zero():
    with pytest.raises(ZeroDivisionError):
        div(1, 0)


class TestCalc:
    def test_neg(self):
        assert add(-1, -1) == -2
'''


def changed(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new)


def test_an_unchanged_file_has_no_finding() -> None:
    assert weakenings({PATH: BASE}, {PATH: BASE}) == []


def test_assertions_replaced_by_pass_empty_the_test() -> None:
    new = changed("    assert add(1, 2) == 3\n    assert add(-1, 1) == 0\n", "    pass\n")
    [found] = weakenings({PATH: BASE}, {PATH: new})
    assert (found.test, found.rule.value) == ("test_add", "assertions_removed")
    assert "2 → 0, no assertion left" in found.detail and "add(1, 2) == 3" in found.detail


def test_one_assertion_removed_is_named() -> None:
    new = changed("    assert add(-1, 1) == 0\n", "")
    [found] = weakenings({PATH: BASE}, {PATH: new})
    assert found.rule.value == "assertions_removed" and "2 → 1" in found.detail
    assert "add(-1, 1) == 0" in found.detail


def test_a_rewritten_assertion_is_not_a_weakening() -> None:
    new = changed("assert add(-1, 1) == 0", "assert add(1, -1) == 0")
    assert weakenings({PATH: BASE}, {PATH: new}) == []


def test_assertions_moved_into_a_helper_the_test_calls_are_still_counted() -> None:
    new = changed('''def test_add():
    assert add(1, 2) == 3
    assert add(-1, 1) == 0
''', '''def check_sum(a, b, total):
    assert add(a, b) == total


def test_add():
    check_sum(1, 2, 3)
    check_sum(-1, 1, 0)
''')
    assert weakenings({PATH: BASE}, {PATH: new}) == []


def test_a_helper_module_the_change_adds_is_followed() -> None:
    helper = "def expect_sum(a, b, total):\n    assert add(a, b) == total\n"
    new = changed('''    assert add(1, 2) == 3
    assert add(-1, 1) == 0
''', '''    expect_sum(1, 2, 3)
    expect_sum(-1, 1, 0)
''')
    found = weakenings({PATH: BASE}, {PATH: new, "tests/helpers.py": helper})
    assert found == []


def test_parametrizing_keeps_the_count_of_assertions_run() -> None:
    new = changed('''def test_add():
    assert add(1, 2) == 3
    assert add(-1, 1) == 0
''', '''@pytest.mark.parametrize("a, b, total", [(1, 2, 3), (-1, 1, 0)])
def test_add(a, b, total):
    assert add(a, b) == total
''')
    assert weakenings({PATH: BASE}, {PATH: new}) == []


def test_trivially_true_assertions_are_named() -> None:
    for trivial in ("assert True", "assert 1 == 1", "assert x == x", "assert not None",
                    "assert add(1, 2) == 3 or True", "assert 'yes'"):
        new = changed("    assert add(-1, 1) == 0\n", f"    x = 1\n    {trivial}\n")
        found = rules(weakenings({PATH: BASE}, {PATH: new}))
        assert found == [("test_add", "assertion_trivial"),
                         ("test_add", "assertions_removed")], trivial


def test_comparing_two_calls_is_not_trivial() -> None:
    new = changed("    assert add(-1, 1) == 0\n", "    assert add(2, 2) == add(2, 2)\n")
    assert weakenings({PATH: BASE}, {PATH: new}) == []


def test_unittest_self_asserts_count_and_trivial_ones_are_named() -> None:
    base = "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n" \
           "        self.assertEqual(f(), 3)\n"
    new = base.replace("self.assertEqual(f(), 3)", "self.assertTrue(True)")
    assert rules(weakenings({PATH: base}, {PATH: new})) == [
        ("T::test_a", "assertion_trivial"), ("T::test_a", "assertions_removed")]


def test_skip_and_xfail_markers_added_are_named() -> None:
    for marker, named in (("@pytest.mark.skip", "skip"), ("@pytest.mark.xfail", "xfail"),
                          ("@pytest.mark.skipif(True, reason='x')", "skip")):
        new = changed("def test_add():", f"{marker}\ndef test_add():")
        [found] = weakenings({PATH: BASE}, {PATH: new})
        assert (found.test, found.rule.value) == ("test_add", "skip_added")
        assert named in found.detail


def test_a_skip_in_the_body_is_a_marker_too() -> None:
    new = changed("    def test_neg(self):\n", "    def test_neg(self):\n"
                  "        pytest.skip('later')\n")
    assert rules(weakenings({PATH: BASE}, {PATH: new})) == [("TestCalc::test_neg",
                                                             "skip_added")]


def test_a_class_or_module_marked_skip_is_named() -> None:
    new = changed("class TestCalc:", "@pytest.mark.skip\nclass TestCalc:")
    assert rules(weakenings({PATH: BASE}, {PATH: new})) == [("TestCalc", "skip_added")]
    new = changed("from calc import add, div\n",
                  "from calc import add, div\n\npytestmark = pytest.mark.skip\n")
    assert rules(weakenings({PATH: BASE}, {PATH: new})) == [("(module)", "skip_added")]


def test_a_deleted_test_is_removed() -> None:
    new = changed('''def test_div_by_zero():
    with pytest.raises(ZeroDivisionError):
        div(1, 0)
''', "")
    [found] = weakenings({PATH: BASE}, {PATH: new})
    assert (found.test, found.rule.value, found.line) == ("test_div_by_zero", "test_removed",
                                                          11)


def test_a_deleted_file_removes_each_test() -> None:
    assert rules(weakenings({PATH: BASE}, {})) == [
        ("test_add", "test_removed"), ("test_div_by_zero", "test_removed"),
        ("TestCalc::test_neg", "test_removed")]


def test_a_test_moved_to_another_file_is_not_removed() -> None:
    moved = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n" \
            "    assert add(-1, 1) == 0\n"
    new = changed(moved.split("\n\n\n")[1], "")
    assert weakenings({PATH: BASE}, {PATH: new, "tests/test_add.py": moved}) == []


def test_a_test_moved_out_of_its_class_is_not_removed() -> None:
    new = changed("class TestCalc:\n    def test_neg(self):\n        assert",
                  "def test_neg():\n    assert")
    assert weakenings({PATH: BASE}, {PATH: new}) == []


def test_a_test_renamed_with_its_body_is_not_removed() -> None:
    new = changed("def test_add():", "def test_add_sums_two_numbers():")
    assert weakenings({PATH: BASE}, {PATH: new}) == []


def test_a_test_renamed_to_a_name_pytest_does_not_collect_is_renamed_away() -> None:
    new = changed("def test_add():", "def check_add():")
    [found] = weakenings({PATH: BASE}, {PATH: new})
    assert (found.test, found.rule.value) == ("test_add", "test_renamed_away")
    assert "check_add" in found.detail


def test_raise_assertion_error_counts_and_pytest_warns_none_does_not() -> None:
    base = "def test_a():\n    if f() != 3:\n        raise AssertionError('no')\n"
    assert rules(weakenings({PATH: base}, {PATH: "def test_a():\n    f()\n"})) == [
        ("test_a", "assertions_removed")]
    base = "def test_b():\n    with pytest.warns(None):\n        f()\n    assert f()\n"
    assert weakenings({PATH: base}, {PATH: base.replace("pytest.warns(None)", "g()")}) == []


def test_a_message_check_folded_into_match_keeps_the_count() -> None:
    base = "def test_a():\n    with pytest.raises(ValueError) as caught:\n        f()\n" \
           "    assert 'absolute' in str(caught.value)\n"
    new = "def test_a():\n    with pytest.raises(ValueError, match='absolute'):\n        f()\n"
    assert weakenings({PATH: base}, {PATH: new}) == []
    assert rules(weakenings({PATH: base}, {PATH: new.replace(", match='absolute'", "")})) == [
        ("test_a", "assertions_removed")]



def test_an_assertion_moved_under_a_condition_that_never_holds_is_trivial() -> None:
    for guard in ("if False:", "if 0:", "if x != x:"):
        new = changed("    assert add(-1, 1) == 0\n", f"    x = 1\n    {guard}\n"
                      "        assert add(-1, 1) == 0\n")
        assert rules(weakenings({PATH: BASE}, {PATH: new})) == [
            ("test_add", "assertion_trivial"), ("test_add", "assertions_removed")], guard


def test_a_test_renamed_and_rewritten_is_followed_by_its_like_name() -> None:
    old = '''def test_session(client):
    assert client.get("/").status == 200
'''
    stronger = '''def test_session_accessed(client):
    rv = client.get("/")
    assert rv.status == 200
    assert "cookie" in rv.vary
'''
    assert weakenings({PATH: old}, {PATH: stronger}) == []
    weaker = '''def test_session_accessed(client):
    client.get("/")
'''
    assert rules(weakenings({PATH: old}, {PATH: weaker})) == [
        ("test_session_accessed", "assertions_removed")]
    unrelated = '''def test_tojson_filter(client):
    assert client.get("/j").status == 200
'''
    assert rules(weakenings({PATH: old}, {PATH: unrelated})) == [("test_session", "test_removed")]


def test_a_test_split_in_two_keeps_its_assertions_across_both() -> None:
    old = "def test_options(client):\n    assert client.options().status == 405\n" \
          "    assert client.get().status == 200\n"
    split = "def test_options_disabled(client):\n    assert client.options().status == 405\n" \
            "\n\ndef test_options_get(client):\n    assert client.get().status == 200\n"
    assert weakenings({PATH: old}, {PATH: split}) == []
    halved = split.replace("    assert client.get().status == 200\n", "    client.get()\n")
    assert rules(weakenings({PATH: old}, {PATH: halved})) == [
        ("test_options_disabled + test_options_get", "assertions_removed")]


def test_a_test_moved_into_a_file_pytest_does_not_collect_is_renamed_away() -> None:
    moved = "def test_add():\n    assert add(1, 2) == 3\n    assert add(-1, 1) == 0\n"
    new = changed(moved, "")
    [found] = weakenings({PATH: BASE}, {PATH: new, "tests/helpers.py": moved})
    assert (found.test, found.rule.value) == ("test_add", "test_renamed_away")
    assert "in tests/helpers.py" in found.detail
