"""`git correx check BASE..HEAD` on real ranges: every kind of change a commit can make."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git, write
from tests.manifest.range_repos import commit

Correx = Callable[..., CliResult]


def check_json(correx: Correx, root: Path, *args: str) -> tuple[int, dict]:
    result = correx(root, "check", "main..HEAD", "--stage", "impl", "--json", *args)
    assert result.code in (0, 1), result
    return result.code, json.loads(result.stdout)


def violations(document: dict) -> list[tuple[str, str, str]]:
    """(subject, path, change) of every commit violation, in range order."""
    return [
        (c["subject"], v["path"], v["change"]) for c in document["commits"] for v in c["violations"]
    ]


def test_clean_range_passes(gate_repo: Path, correx: Correx) -> None:
    commit(gate_repo, "feature work", {"src/app.py": "print(2)\n", "src/new.py": "x\n"})
    commit(gate_repo, "more work", {"src/deep/er.py": "y\n"})
    result = correx(gate_repo, "check", "main..HEAD", "--stage", "impl")
    assert result.code == 0, result
    assert result.stdout.strip().endswith(
        "ok: 2 commits and the net diff stay within the manifest of stage 'impl' at main "
        f"({git(gate_repo, 'rev-parse', 'main').strip()[:12]})"
    )


def test_commit_out_of_scope_is_a_violation(gate_repo: Path, correx: Correx) -> None:
    commit(gate_repo, "fine", {"src/app.py": "print(2)\n"})
    sha = commit(gate_repo, "sneaky edit", {"protected/keep.txt": "changed\n"})
    result = correx(gate_repo, "check", "main..HEAD", "--stage", "impl")
    assert result.code == 1, result
    lines = result.stdout.splitlines()
    assert lines[0] == f"{sha[:12]} sneaky edit"
    assert lines[1].startswith(
        "  PATH_OUTSIDE_MANIFEST protected/keep.txt: modified outside the manifest of stage "
        "'impl' [/src/**]"
    )
    assert lines[-1] == "1 violation in 1 commit, 1 in the net diff"


def test_no_verify_commit_is_caught(gate_repo: Path, correx: Correx) -> None:
    hook = write(gate_repo, ".git/hooks/pre-commit", "#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    commit(gate_repo, "bypassed the hook", {"protected/keep.txt": "changed\n"}, "--no-verify")
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [("bypassed the hook", "protected/keep.txt", "modified")]


def test_cherry_pick_is_caught(gate_repo: Path, correx: Correx) -> None:
    git(gate_repo, "checkout", "-q", "-b", "elsewhere", "main")
    picked = commit(gate_repo, "made elsewhere", {"protected/new.txt": "x\n"})
    git(gate_repo, "checkout", "-q", "feature")
    git(gate_repo, "cherry-pick", picked)
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [("made elsewhere", "protected/new.txt", "added")]


def test_rename_out_of_scope_reports_both_sides(gate_repo: Path, correx: Correx) -> None:
    (gate_repo / "elsewhere").mkdir()
    git(gate_repo, "mv", "protected/keep.txt", "elsewhere/kept.txt")
    git(gate_repo, "commit", "-q", "-m", "move it")
    _, document = check_json(correx, gate_repo)
    assert sorted(violations(document)) == [
        ("move it", "elsewhere/kept.txt", "renamed_to"),
        ("move it", "protected/keep.txt", "renamed_from"),
    ]


def test_rename_into_scope_still_reports_the_source(gate_repo: Path, correx: Correx) -> None:
    git(gate_repo, "mv", "protected/keep.txt", "src/keep.txt")
    git(gate_repo, "commit", "-q", "-m", "pull it in")
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [("pull it in", "protected/keep.txt", "renamed_from")]


def test_deletion_out_of_scope(gate_repo: Path, correx: Correx) -> None:
    git(gate_repo, "rm", "-q", "protected/keep.txt")
    git(gate_repo, "commit", "-q", "-m", "drop it")
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [("drop it", "protected/keep.txt", "deleted")]


def test_mode_change_out_of_scope(gate_repo: Path, correx: Correx) -> None:
    git(gate_repo, "update-index", "--chmod=+x", "protected/keep.txt")
    git(gate_repo, "commit", "-q", "-m", "make it executable")
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [("make it executable", "protected/keep.txt", "mode_changed")]


def test_file_to_symlink_is_a_type_change(gate_repo: Path, correx: Correx) -> None:
    (gate_repo / "protected/keep.txt").unlink()
    os.symlink("../src/app.py", gate_repo / "protected/keep.txt")
    commit(gate_repo, "link it")
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [("link it", "protected/keep.txt", "type_changed")]


def test_symlink_inside_scope_pointing_outside_is_its_own_path(
    gate_repo: Path, correx: Correx
) -> None:
    os.symlink("../protected/keep.txt", gate_repo / "src/link")
    commit(gate_repo, "a link in scope")
    code, document = check_json(correx, gate_repo)
    assert code == 0, document


def test_gitlink_change_hidden_by_ignore_all_is_caught(gate_repo: Path, correx: Correx) -> None:
    first = git(gate_repo, "rev-parse", "HEAD").strip()
    write(
        gate_repo,
        ".gitmodules",
        '[submodule "lib"]\n\tpath = src/lib\n\turl = ./lib\n\tignore = all\n',
    )
    git(gate_repo, "update-index", "--add", "--cacheinfo", f"160000,{first},src/lib")
    git(gate_repo, "add", ".gitmodules")
    git(gate_repo, "commit", "-q", "-m", "add submodule")
    git(gate_repo, "update-index", "--cacheinfo", f"160000,{'1' * 40},src/lib")
    git(gate_repo, "commit", "-q", "-m", "bump submodule")
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [
        ("add submodule", ".gitmodules", "added"),
        ("add submodule", "src/lib", "added"),
        ("bump submodule", "src/lib", "modified"),
    ]


def test_non_utf8_and_newline_names_are_escaped(gate_repo: Path, correx: Correx) -> None:
    (gate_repo / "protected").joinpath(os.fsdecode(b"caf\xe9.txt")).write_text("x\n")
    (gate_repo / "protected" / "two\nlines.txt").write_text("y\n")
    commit(gate_repo, "odd names")
    result = correx(gate_repo, "check", "main..HEAD", "--stage", "impl")
    assert result.code == 1, result
    assert " protected/caf\\xe9.txt: added outside" in result.stdout
    assert " protected/two\\nlines.txt: added outside" in result.stdout
    _, document = check_json(correx, gate_repo)
    hexes = {v["path_hex"] for c in document["commits"] for v in c["violations"]}
    assert hexes == {b"protected/caf\xe9.txt".hex(), b"protected/two\nlines.txt".hex()}


def test_merge_is_judged_against_its_first_parent_and_the_net_diff(
    gate_repo: Path, correx: Correx
) -> None:
    git(gate_repo, "checkout", "-q", "-b", "side")
    commit(gate_repo, "side work", {"protected/side.txt": "x\n"})
    git(gate_repo, "checkout", "-q", "feature")
    commit(gate_repo, "feature work", {"src/app.py": "print(2)\n"})
    git(gate_repo, "merge", "-q", "--no-ff", "--no-commit", "side")
    write(gate_repo, "protected/evil.txt", "slipped into the merge\n")
    git(gate_repo, "add", "-A")
    git(gate_repo, "commit", "-q", "-m", "merge side")
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [
        ("side work", "protected/side.txt", "added"),
        ("merge side", "protected/evil.txt", "added"),
    ]
    net = [(v["path"], v["change"]) for v in document["net"]["violations"]]
    assert net == [("protected/evil.txt", "added"), ("protected/side.txt", "added")]


def test_merging_the_base_in_does_not_blame_the_base(gate_repo: Path, correx: Correx) -> None:
    commit(gate_repo, "feature work", {"src/app.py": "print(2)\n"})
    git(gate_repo, "checkout", "-q", "main")
    commit(gate_repo, "trusted change on main", {"protected/keep.txt": "main moved\n"})
    git(gate_repo, "checkout", "-q", "feature")
    git(gate_repo, "merge", "-q", "--no-ff", "-m", "merge main in", "main")
    code, document = check_json(correx, gate_repo)
    assert code == 0, document
    assert [c["subject"] for c in document["commits"]] == ["feature work", "merge main in"]


def test_manifest_widening_commit_is_judged_by_the_base(gate_repo: Path, correx: Correx) -> None:
    profile = (gate_repo / ".correx.toml").read_text().replace('"/src/**"', '"/**"')
    commit(gate_repo, "widen my scope", {".correx.toml": profile})
    commit(gate_repo, "use the new scope", {"protected/keep.txt": "changed\n"})
    _, document = check_json(correx, gate_repo)
    assert violations(document) == [
        ("widen my scope", ".correx.toml", "modified"),
        ("use the new scope", "protected/keep.txt", "modified"),
    ]
    assert document["manifest"]["patterns"] == ["/src/**"]


def test_json_document_shape(gate_repo: Path, correx: Correx) -> None:
    sha = commit(gate_repo, "sneaky edit", {"protected/keep.txt": "changed\n"})
    code, document = check_json(correx, gate_repo)
    assert code == 1
    assert document["base"] == git(gate_repo, "rev-parse", "main").strip()
    assert document["head"] == sha
    assert document["ok"] is False
    assert document["manifest"]["stage"] == "impl"
    assert document["manifest"]["source"] == "stage 'impl'"
    assert document["commits"][0]["sha"] == sha
    assert document["commits"][0]["violations"][0]["rule"] == "PATH_OUTSIDE_MANIFEST"
    assert document["commits"][0]["violations"][0]["patterns"] == ["/src/**"]
    assert document["net"]["merge_bases"] == [document["base"]]


def test_stage_comes_from_git_config(gate_repo: Path, correx: Correx) -> None:
    commit(gate_repo, "sneaky edit", {"protected/keep.txt": "changed\n"})
    assert correx(gate_repo, "check", "main..HEAD").code == 0
    git(gate_repo, "config", "correx.stage", "impl")
    assert correx(gate_repo, "check", "main..HEAD").code == 1


def test_unknown_stage_at_the_base_is_a_configuration_error(
    gate_repo: Path, correx: Correx
) -> None:
    result = correx(gate_repo, "check", "main..HEAD", "--stage", "nope")
    assert result.code == 2, result
    assert "no stage 'nope'" in result.stderr


def test_record_writes_assessments_readable_by_replay(gate_repo: Path, correx: Correx) -> None:
    commit(gate_repo, "fine", {"src/app.py": "print(2)\n"})
    bad = commit(
        gate_repo,
        "sneaky edit",
        {"protected/keep.txt": "changed\n", os.fsdecode(b"protected/caf\xe9"): "x\n"},
    )
    result = correx(gate_repo, "check", "main..HEAD", "--stage", "impl", "--record")
    assert result.code == 1, result
    assert "recorded 1 assessment(s)" in result.stderr
    replayed = correx(gate_repo, "replay", "--json")
    assert replayed.code == 0, replayed
    events = json.loads(replayed.stdout)["events"]
    assert [e["kind"] for e in events] == ["tool_call_assessed"]
    event = events[0]
    assert event["origin"] == "check"
    assert event["verdict"] == "BLOCK"
    assert event["rule"] == "PATH_OUTSIDE_MANIFEST"
    assert event["commit"] == bad
    assert event["stage"] == "impl"
    assert event["subjects"] == [git(gate_repo, "rev-parse", f"{bad}^{{tree}}").strip()]
    assert {p["path"] for p in event["paths"]} == {"protected/caf\\xe9", "protected/keep.txt"}


def test_without_record_check_writes_nothing(gate_repo: Path, correx: Correx) -> None:
    commit(gate_repo, "sneaky edit", {"protected/keep.txt": "changed\n"})
    assert correx(gate_repo, "check", "main..HEAD", "--stage", "impl").code == 1
    refs = git(gate_repo, "for-each-ref", "refs/notes/")
    assert refs == ""
