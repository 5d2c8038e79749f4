"""The fingerprint's records: one digest for "same environment", and the differences named
component by component (never a variable's value)."""

from __future__ import annotations

from typing import Any

from gitcorrex.model.environment import EnvironmentPrint, differences
from gitcorrex.model.environment_key import environment_digest, fingerprint_digest


def fingerprint(**changes: Any) -> EnvironmentPrint:
    values: dict[str, Any] = {
        "programs": [{"name": "python3", "path": "/venv/bin/python3", "sha256": "a" * 64,
                      "version": None}],
        "venvs": [{"path": "/venv", "packages": "b" * 64, "count": 41}],
        "lockfiles": [{"path": "uv.lock", "digest": "c" * 40, "source": "tree"}],
        "platform": {"os": "linux", "machine": "x86_64", "libc": "glibc 2.36"},
        "variables": [{"name": "PYTHONHASHSEED", "value": "d" * 64}],
        "salt": None,
    }
    values.update(changes)
    return EnvironmentPrint.model_validate({"digest": fingerprint_digest(values), **values})


def test_equal_components_have_equal_digests_and_no_differences() -> None:
    assert fingerprint().digest == fingerprint().digest
    assert differences(fingerprint(), fingerprint()) == []


def test_each_component_is_named_when_it_differs() -> None:
    here = fingerprint(
        programs=[{"name": "python3", "path": "/usr/bin/python3", "sha256": "a" * 64,
                   "version": None}],
        venvs=[{"path": "/venv", "packages": "e" * 64, "count": 42}],
        lockfiles=[], platform={"os": "linux", "machine": "aarch64", "libc": "glibc 2.36"},
        variables=[], salt="2026-12")
    assert differences(fingerprint(), here) == [
        "python3: /venv/bin/python3 → /usr/bin/python3",
        f"packages in /venv: 41 distribution(s) ({'b' * 12}) → 42 distribution(s) "
        f"({'e' * 12})",
        f"lockfile uv.lock: {'c' * 12} → absent",
        "machine: x86_64 → aarch64",
        "variable PYTHONHASHSEED: set (hash dddddddd) → unset",
        "salt: None → 2026-12",
    ]


def test_environment_digest_reads_events_payloads_and_lines() -> None:
    from gitcorrex.model.verification import VerificationFields

    print_ = fingerprint()
    line = {"environment": print_.model_dump(mode="json")}
    assert environment_digest(line) == print_.digest
    assert environment_digest({"result": "pass"}) is None  # recorded before fingerprints
    fields = VerificationFields.model_validate({
        "expectation": "t", "result": "pass", "reason": None, "missing_path": None,
        "commands": [], "writes": [], "state_after": None, "head_tree": None,
        "changed_paths": [], "changed_paths_omitted": 0, "profile": "f" * 40,
        "isolated": False, "reused_from": None, "environment": line["environment"]})
    assert environment_digest(fields) == print_.digest
