"""`git correx attest --format in-toto`: Statement v1 with the test-result predicate,
checked field by field against the in-toto specifications and verified by digest."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import CliResult, git, in_process, write
from tests.ledger_facts import note_line, verification_draft

STATEMENT = "https://in-toto.io/Statement/v1"
TEST_RESULT = "https://in-toto.io/attestation/test-result/v0.1"
# in-toto attestation spec, v1/resource_descriptor.md and v1/digest_set.md
DESCRIPTOR_FIELDS = {"name", "uri", "digest", "content", "downloadLocation", "mediaType",
                     "annotations"}
HEX_DIGESTS = {"sha256", "sha224", "sha384", "sha512", "sha512_224", "sha512_256",
               "sha3_224", "sha3_256", "sha3_384", "sha3_512", "shake128", "shake256",
               "blake2b", "blake2s", "ripemd160", "sm3", "gost", "sha1", "md5",
               "gitBlob", "gitCommit", "gitTag", "gitTree", "dirHash"}
KIND = "workspace_verification_observed"
PREDICATE_FIELDS = {"result", "configuration", "url", "passedTests", "warnedTests",
                    "failedTests"}


def check_descriptor(descriptor: Any) -> None:
    assert isinstance(descriptor, dict) and set(descriptor) <= DESCRIPTOR_FIELDS
    assert {"uri", "digest", "content"} & set(descriptor), "needs uri, digest or content"
    for algorithm, value in descriptor.get("digest", {}).items():
        assert algorithm in HEX_DIGESTS
        assert re.fullmatch(r"[0-9a-f]+", value), value
    assert isinstance(descriptor.get("name", ""), str)
    assert isinstance(descriptor.get("annotations", {}), dict)


def check_statement(statement: Any) -> None:
    """Statement v1: exactly _type, subject (≥1 descriptor with a digest), predicateType,
    predicate; then the test-result v0.1 predicate's fields and types."""
    assert set(statement) == {"_type", "subject", "predicateType", "predicate"}
    assert statement["_type"] == STATEMENT
    assert isinstance(statement["subject"], list) and statement["subject"]
    for subject in statement["subject"]:
        check_descriptor(subject)
        assert subject["digest"]
    assert statement["predicateType"] == TEST_RESULT
    predicate = statement["predicate"]
    assert set(predicate) <= PREDICATE_FIELDS and "result" in predicate
    assert predicate["result"] in ("PASSED", "WARNED", "FAILED")
    assert isinstance(predicate["configuration"], list)
    for descriptor in predicate["configuration"]:
        check_descriptor(descriptor)
    for key in ("passedTests", "warnedTests", "failedTests"):
        assert all(isinstance(name, str) for name in predicate.get(key, []))


def profiled_repo(make_repo: Callable[..., Path]) -> Path:
    ok = shlex.join(["python3", "-c", "print('ok')"])
    bad = shlex.join(["python3", "-c", "import sys; sys.exit(3)"])
    profile = (f'version = 1\n[commands]\nunit = {json.dumps(ok)}\nlint = {json.dumps(bad)}\n'
               '[expectations]\nunit = ["unit"]\nboth = ["unit", "lint"]\n'
               '[defaults]\nexpectation = "unit"\n')
    return make_repo(files={".correx.toml": profile, ".gitignore": "__pycache__/\n"})


def test_each_observation_is_a_valid_statement_verifiable_by_digest(
    make_repo: Callable[..., Path], correx: Callable[..., CliResult]
) -> None:
    repo = profiled_repo(make_repo)
    assert correx(repo, "verify", "--quiet").code == 0
    assert correx(repo, "verify", "--quiet", "--expect", "both").code == 1
    result = correx(repo, "attest", "HEAD", "--format", "in-toto")
    assert result.code == 0, result
    statements = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(statements) == 2
    for statement in statements:
        check_statement(statement)
        assert statement["subject"][0]["digest"]["gitTree"] == \
            git(repo, "rev-parse", "HEAD^{tree}").strip()
        config = statement["predicate"]["configuration"][0]
        assert config["digest"]["gitBlob"] == git(repo, "hash-object", ".correx.toml").strip()
    passed, failed = (s["predicate"] for s in statements)
    assert (passed["result"], passed["passedTests"], passed["failedTests"]) == \
        ("PASSED", ["unit"], [])
    assert (failed["result"], failed["passedTests"], failed["failedTests"]) == \
        ("FAILED", ["unit"], ["lint"])


def test_attest_of_an_unverified_tree_exits_1(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    result = correx(repo, "attest")
    assert result.code == 1, result
    assert result.stdout == "" and "nothing to attest" in result.stderr


def test_attest_of_an_unknown_revision_exits_2(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    write(repo, "x", "x")
    assert correx(repo, "attest", "nope").code == 2


def test_an_observation_whose_fields_do_not_fit_is_never_attested_as_passing(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    fields = verification_draft(in_process(repo), tree).payload.line_fields()
    note_line(repo, tree, KIND, {**fields, "commands": 7}, state_key=tree)  # says pass
    result = correx(repo, "attest", "HEAD")
    assert result.code == 0, result
    (statement,) = [json.loads(line) for line in result.stdout.splitlines()]
    check_statement(statement)
    predicate = statement["predicate"]
    assert (predicate["result"], predicate["passedTests"], predicate["configuration"]) == \
        ("FAILED", [], [])
    assert predicate["failedTests"] == [
        f"{KIND} ⚠ fields do not fit (commands: Input should be a valid list)"]
