"""Attributes that change the bytes git stores are honoured only when the tree declares them.

A clean filter named outside the tree (`.git/info/attributes`, `core.attributesFile`, the
system file, `git -c`) can map an edited file back to HEAD's bytes, and `text`, `eol`,
`ident` or `working-tree-encoding` can store other bytes than the commands read: the key
would name a tree the commands never ran on. Such a rule is refused (exit 3) naming where it
comes from and a path it applies to. What the tree's own `.gitattributes` declare — LFS,
line endings — keeps working, and so do rules outside it that change no bytes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.errors import UnavailableError
from gitcorrex.git.repository import discover
from gitcorrex.git.state import StateProbe, compute_state
from gitcorrex.git.state_attributes import byte_rule
from tests.conftest import CliResult, git, write
from tests.git.state_helpers import blob, reference_key

Correx = Callable[..., CliResult]
PROFILE = '[commands]\ntest = "python3 -c \'raise SystemExit(1)\'"\n'
RESTORE = "git show HEAD:.correx.toml"


@pytest.fixture(params=["cold", "warm"])
def project(request: pytest.FixtureRequest, make_repo: Callable[..., Path]) -> Path:
    """A committed profile, edited in the work tree; "warm" keys it twice first."""
    top = make_repo(files={".correx.toml": PROFILE, "README.md": "hello\n"})
    git(top, "config", "filter.restore.clean", RESTORE)
    if request.param == "warm":
        key_of(top)
        key_of(top)
    write(top, ".correx.toml", PROFILE.replace("SystemExit(1)", "SystemExit(0)"))
    return top


def key_of(top: Path) -> str:
    return compute_state(discover(top)).state_key


def head_tree(top: Path) -> str:
    return git(top, "rev-parse", "HEAD^{tree}").strip()


def assert_refused(top: Path, correx: Correx, *names: str) -> None:
    """The key is refused (exit 3, nothing on stdout), the message naming `names`."""
    with pytest.raises(UnavailableError):
        key_of(top)
    result = correx(top, "state")
    assert result.code == 3, result
    assert result.stdout == ""
    for name in names:
        assert name in result.stderr, result


def test_info_attributes_clean_filter_is_refused(project: Path, correx: Correx) -> None:
    write(project, ".git/info/attributes", ".correx.toml filter=restore\n")
    assert reference_key(project) == head_tree(project)  # git's own answer is blinded
    assert_refused(project, correx, "info/attributes", "line 1", ".correx.toml", "filter")


def test_core_attributes_file_clean_filter_is_refused(project: Path, correx: Correx,
                                                      tmp_path: Path) -> None:
    rules = write(tmp_path, "my-attributes", "# mine\n*.toml filter=restore\n")
    git(project, "config", "core.attributesFile", str(rules))
    assert reference_key(project) == head_tree(project)
    assert_refused(project, correx, str(rules), "line 2", ".correx.toml")


def test_default_user_attributes_file_clean_filter_is_refused(project: Path,
                                                              correx: Correx) -> None:
    home_rules = Path(os.environ["XDG_CONFIG_HOME"]) / "git" / "attributes"
    write(home_rules.parent, "attributes", "*.toml filter=restore\n")
    assert reference_key(project) == head_tree(project)
    assert_refused(project, correx, str(home_rules), ".correx.toml")


def test_attributes_file_given_by_git_c_is_refused(project: Path, correx: Correx,
                                                   tmp_path: Path) -> None:
    rules = write(tmp_path, "transient", "*.toml filter=restore\n")
    env = {"GIT_CONFIG_PARAMETERS": f"'core.attributesfile={rules}'"}
    result = correx(project, "state", env=env)
    assert result.code == 3, result
    assert str(rules) in result.stderr and ".correx.toml" in result.stderr


@pytest.mark.parametrize("rule", [
    "*.toml text", "*.toml text=auto", "*.toml eol=lf", "*.toml crlf", "*.toml ident",
    "*.toml working-tree-encoding=UTF-16", "[attr]evil filter=restore\n*.toml evil",
    '"*.toml" filter=restore',
])
def test_info_attributes_that_change_bytes_are_refused(project: Path, rule: str) -> None:
    write(project, ".git/info/attributes", rule + "\n")
    with pytest.raises(UnavailableError, match="info/attributes"):
        key_of(project)


def test_a_macro_defined_outside_the_tree_is_refused_even_if_unused(project: Path) -> None:
    write(project, ".git/info/attributes", "[attr]evil filter=restore\n")
    with pytest.raises(UnavailableError, match=r"\[attr\]evil"):
        key_of(project)


def test_a_macro_the_tree_defines_set_from_outside_is_refused(project: Path) -> None:
    write(project, ".gitattributes", "[attr]evil filter=restore\n")
    write(project, ".git/info/attributes", ".correx.toml evil\n")
    with pytest.raises(UnavailableError, match="evil"):
        key_of(project)


def test_a_rule_written_between_two_measurements_is_refused(project: Path) -> None:
    with StateProbe(discover(project)) as probe:
        probe.measure()
        write(project, ".git/info/attributes", ".correx.toml filter=restore\n")
        with pytest.raises(UnavailableError, match="info/attributes"):
            probe.measure()


@pytest.mark.parametrize("rule", [
    "*.toml -text", "*.toml binary", "*.toml -filter !eol", "*.toml diff=toml",
    "*.png linguist-generated", "# *.toml filter=restore", "",
])
def test_info_attributes_that_change_no_bytes_are_accepted(project: Path, rule: str) -> None:
    write(project, ".git/info/attributes", rule + "\n")
    assert key_of(project) == reference_key(project)


def test_core_autocrlf_is_refused(project: Path, correx: Correx) -> None:
    git(project, "config", "core.autocrlf", "input")
    write(project, ".correx.toml", PROFILE.replace("\n", "\r\n"))
    assert reference_key(project) == head_tree(project)
    assert_refused(project, correx, "core.autocrlf", "text=auto")


def test_core_autocrlf_false_is_accepted(project: Path) -> None:
    git(project, "config", "core.autocrlf", "false")
    assert key_of(project) == reference_key(project)


@pytest.mark.parametrize("env, config", [
    ({"GIT_ATTR_SOURCE": "HEAD"}, None), ({}, ("attr.tree", "HEAD")),
])
def test_attributes_read_from_another_tree_are_refused(
        project: Path, env: dict[str, str], config: tuple[str, str] | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    if config:
        git(project, "config", *config)
    with pytest.raises(UnavailableError, match=r"GIT_ATTR_SOURCE|attr\.tree"):
        key_of(project)


def test_a_filter_the_tree_declares_keeps_working(project: Path) -> None:
    git(project, "config", "filter.upper.clean", "tr a-z A-Z")
    write(project, ".gitattributes", "*.up filter=upper\n*.txt text eol=crlf\n")
    write(project, "shout.up", "hello\n")
    write(project, "win.txt", b"one\r\ntwo\r\n")
    key = key_of(project)
    assert key == reference_key(project)
    assert blob(project, key, "shout.up") == b"HELLO\n"
    assert blob(project, key, "win.txt") == b"one\ntwo\n"


def test_a_committed_lfs_style_filter_keeps_working(make_repo: Callable[..., Path]) -> None:
    top = make_repo(files={".gitattributes": "*.bin filter=pointer -text\n", "a.bin": "big\n"})
    git(top, "config", "filter.pointer.clean", "sed s/^/pointer:/")
    git(top, "config", "filter.pointer.smudge", "sed s/^pointer://")
    write(top, "a.bin", "bigger\n")
    key = key_of(top)
    assert key == reference_key(top)
    assert blob(top, key, "a.bin") == b"pointer:bigger\n"


def test_system_attributes_file_is_named_when_it_changes_bytes(tmp_path: Path) -> None:
    rules = write(tmp_path, "gitattributes", "*.toml ident\n")
    rule = byte_rule(rules)
    assert rule is not None and rule.line == 1 and rule.attribute == "ident"


@pytest.mark.parametrize("line, expected", [
    ("*.c filter=x", "filter"), ("*.c -text ident", "ident"), ("*.c !text", None),
    ("[attr]m -text -diff", None), ("[attr]m eol=lf", "eol"), ('"a b" text', "text"),
    ("*.c   diff=c\tmerge=union", None), ("  # comment filter=x", None),
])
def test_byte_rule_reads_lines_as_git_does(tmp_path: Path, line: str,
                                           expected: str | None) -> None:
    rule = byte_rule(write(tmp_path, "attributes", line + "\n"))
    assert (rule.attribute if rule else None) == expected
