"""`verify` runs the profile the verified state holds (or REV's, said so with `--profile-from`).

The adversary hides a weakened profile from the state key — `git update-index
--assume-unchanged .correx.toml`, or an ignored profile — so a pass recorded on the key
would claim the tree's commands while `true` ran. Nothing runs and nothing is recorded;
`--isolated` reads the profile from the state tree; `--reuse` cites a pass only under the
profile this run uses; git's own conversions of the file (end of line) are no mismatch.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git, write
from tests.verify.conftest import (
    counting,
    fields_of,
    has_ledger,
    notes_on,
    profile_text,
    py,
    runs_counted,
)

Correx = Callable[..., CliResult]
CHECK = py("import pathlib, sys; sys.exit('BUG' in pathlib.Path('app.py').read_text())")
STRICT = profile_text({"test": CHECK}, {"test": ["test"]}, default="test")
WEAK = profile_text({"test": "true"}, {"test": ["test"]}, default="test")


def strict_project(make_repo: Callable[..., Path], **more: str) -> Path:
    return make_repo(files={"app.py": "VALUE = 1\n", ".correx.toml": STRICT, **more})


def hide_weak_profile(root: Path) -> None:
    """The committed profile marked unchanged, a weak one written over it, and a bug."""
    git(root, "update-index", "--assume-unchanged", ".correx.toml")
    write(root, ".correx.toml", WEAK)
    write(root, "app.py", "BUG\n")


def filtered_project(make_repo: Callable[..., Path], outside: Path) -> Path:
    """A committed bug under the strict profile, and a clean filter (declared by the tree's
    `.gitattributes`, its driver in local config) that stores the strict profile whatever
    the file holds; the file then holds the weak one: the state key names the strict
    profile while `true` would run."""
    strict = outside / "strict.toml"
    strict.write_text(STRICT)
    root = make_repo(files={".gitattributes": ".correx.toml filter=pin\n"}, commit=False)
    git(root, "config", "filter.pin.clean", f"cat {strict}")
    write(root, ".correx.toml", STRICT)
    write(root, "app.py", "BUG\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "a bug under the strict profile")
    write(root, ".correx.toml", WEAK)
    return root


def no_pass_recorded(root: Path) -> bool:
    if not has_ledger(root):
        return True
    return '"result":"pass"' not in git(root, "log", "-p", "refs/notes/correx")


def test_a_profile_hidden_from_the_key_is_never_counted_for_the_tree(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    """Refused (the state holds another profile), or keyed with the profile that ran: either
    way the committed tree, which holds the strict profile, has no pass."""
    root = strict_project(make_repo)
    hide_weak_profile(root)
    result = correx(root, "verify", "--quiet")
    assert result.code in (0, 3), result
    git(root, "commit", "-qam", "the bug, the strict profile still committed")
    assert "✓" not in correx(root, "log", "-n", "1").stdout
    assert correx(root, "check", "HEAD~1..HEAD", "--require-pass").code == 1


def test_a_profile_the_key_stores_otherwise_is_never_run(
        make_repo: Callable[..., Path], outside: Path, correx: Correx) -> None:
    root = filtered_project(make_repo, outside)
    result = correx(root, "verify", "--quiet")
    assert result.code == 3, result
    assert "is not the one in the workspace state" in result.stderr, result
    assert no_pass_recorded(root)


def test_an_ignored_profile_is_refused(make_repo: Callable[..., Path],
                                       correx: Correx) -> None:
    root = make_repo(files={"app.py": "VALUE = 1\n", ".gitignore": ".correx.toml\n"})
    write(root, ".correx.toml", WEAK)
    result = correx(root, "verify", "--quiet")
    assert result.code == 2, result
    assert "holds no .correx.toml" in result.stderr and "git add -f" in result.stderr
    assert not has_ledger(root)


def test_isolated_runs_the_profile_of_the_state_tree(
        make_repo: Callable[..., Path], outside: Path, correx: Correx) -> None:
    root = filtered_project(make_repo, outside)
    result = correx(root, "verify", "--isolated", "--quiet")
    assert result.code == 1, result  # the state's strict check finds the bug
    assert no_pass_recorded(root)


def test_isolated_refuses_a_state_without_a_profile(make_repo: Callable[..., Path],
                                                    correx: Correx) -> None:
    root = make_repo(files={"app.py": "VALUE = 1\n", ".gitignore": ".correx.toml\n"})
    write(root, ".correx.toml", WEAK)
    result = correx(root, "verify", "--isolated", "--quiet")
    assert result.code == 2, result
    assert "the workspace state" in result.stderr and "holds no .correx.toml" in result.stderr
    assert not has_ledger(root)


def test_isolated_records_the_state_trees_profile(make_repo: Callable[..., Path],
                                                  correx: Correx) -> None:
    root = strict_project(make_repo)
    assert correx(root, "verify", "--isolated", "--quiet").code == 0
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    assert fields_of(notes_on(root, tree)[-1]).profile == \
        git(root, "rev-parse", "HEAD:.correx.toml").strip()


def test_a_profile_git_stores_converted_binds_to_the_blob_the_tree_holds(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    """With `eol=crlf` the file on disk has CRLF and the blob LF: the same profile to git."""
    root = strict_project(make_repo, **{".gitattributes": ".correx.toml text eol=crlf\n"})
    (root / ".correx.toml").unlink()
    git(root, "checkout", "--", ".correx.toml")
    assert b"\r\n" in (root / ".correx.toml").read_bytes()
    assert correx(root, "verify", "--quiet").code == 0
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    assert fields_of(notes_on(root, tree)[-1]).profile == \
        git(root, "rev-parse", "HEAD:.correx.toml").strip()
    assert "✓ pass" in correx(root, "log", "-n", "1").stdout


def test_reuse_does_not_cite_a_pass_that_ran_another_profile(
        make_repo: Callable[..., Path], outside: Path, correx: Correx) -> None:
    """A pass of this very tree, with the same command digests, but run with main's profile
    (`--profile-from main`): the tree's own profile never ran here, so nothing is reused."""
    counter = outside / "runs"
    counted = profile_text({"test": counting(counter)}, {"test": ["test"]}, default="test")
    root = make_repo(files={"app.py": "VALUE = 1\n", ".correx.toml": counted})
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, ".correx.toml", counted + "# reworded, same commands\n")
    git(root, "commit", "-qam", "reword the profile")
    assert correx(root, "verify", "--profile-from", "main", "--quiet").code == 0
    result = correx(root, "verify", "--reuse", "--quiet")
    assert result.code == 0, result
    assert "reused" not in result.stdout, result
    assert runs_counted(counter) == 2


def forge_under_another_profile(root: Path, event_fields: dict[str, object], key: str,
                                keys: Path | None = None) -> str:
    """The ledger replaced by one line: `event_fields` (a genuine pass's, same command
    digests) claiming to have run WEAK, added with `git notes` as a foreign writer would;
    with `keys`, in a ledger commit signed by a key the repository trusts."""
    from tests.ledger_facts import note_line
    from tests.trusted_writer import sign_ledger_tip

    git(root, "update-ref", "-d", "refs/notes/correx")
    weak = git(root, "hash-object", "-w", "--stdin", input=WEAK.encode()).strip()
    forged = note_line(root, key, "workspace_verification_observed",
                       {**event_fields, "profile": weak}, state_key=key)
    if keys is not None:
        sign_ledger_tip(root, keys)
    return forged


def test_reuse_does_not_cite_a_forged_pass_under_another_profile(
        make_repo: Callable[..., Path], outside: Path, correx: Correx) -> None:
    counter = outside / "runs"
    counted = profile_text({"test": counting(counter)}, {"test": ["test"]}, default="test")
    root = make_repo(files={"app.py": "VALUE = 1\n", ".correx.toml": counted})
    assert correx(root, "verify", "--quiet").code == 0
    key = git(root, "rev-parse", "HEAD^{tree}").strip()
    genuine = notes_on(root, key)[-1]
    forged = forge_under_another_profile(root, dict(genuine.model_extra or {}), key,
                                         keys=outside)  # trusted: only the profile refuses
    result = correx(root, "verify", "--reuse", "--quiet")
    assert result.code == 0, result
    assert f"reused {forged[:12]}" not in result.stdout, result
    assert runs_counted(counter) == 2
