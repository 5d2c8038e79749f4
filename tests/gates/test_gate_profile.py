"""The stage policy's gate keys: defaults, and errors that name the key path and the fix."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.gates.findings import parse_findings
from gitcorrex.model.profile import StagePolicy
from gitcorrex.profiles.load import parse_profile
from tests.gates.conftest import Correx


def load_stage(body: str) -> StagePolicy:
    return parse_profile(f"version = 1\n[stages.s]\n{body}\n".encode(),
                         source=".correx.toml").stages["s"]


def test_defaults_run_no_gate() -> None:
    stage = load_stage("")
    assert (stage.produces, stage.ground_references, stage.brief_echo,
            stage.brief_echo_threshold, stage.static_analysis,
            stage.precondition_threshold) == ([], False, False, 0.34, [], 3)


def test_all_gate_keys_load() -> None:
    stage = load_stage('produces = ["brief"]\nground_references = true\nbrief_echo = true\n'
                       'brief_echo_threshold = 1\nstatic_analysis = ["lint", "mypy src"]\n'
                       "precondition_threshold = 5\n")
    assert stage.brief_echo_threshold == 1.0
    assert stage.static_analysis == ["lint", "mypy src"]


@pytest.mark.parametrize(("body", "message"), [
    ("produces = \"brief\"", "stages.s.produces: expected a list"),
    ("produces = [\"a b\"]", "stages.s.produces[0]: \"a b\" is not a valid name"),
    ("produces = [\"brief\", \"brief\"]", "stages.s.produces: artifact \"brief\" is listed twice"),
    ("ground_references = \"yes\"", "stages.s.ground_references: expected a boolean"),
    ("brief_echo = 1", "stages.s.brief_echo: expected a boolean"),
    ("brief_echo_threshold = 1.5", "stages.s.brief_echo_threshold: 1.5 is not a fraction"),
    ("brief_echo_threshold = -0.1", "stages.s.brief_echo_threshold: -0.1 is not a fraction"),
    ("brief_echo_threshold = true", "stages.s.brief_echo_threshold: true is not a fraction"),
    ("brief_echo_threshold = \"0.3\"", "stages.s.brief_echo_threshold: \"0.3\" is not a"),
    ("static_analysis = \"lint\"", "stages.s.static_analysis: expected a list"),
    ("static_analysis = [\"\"]", "stages.s.static_analysis[0]: the command line is empty"),
    ("static_analysis = [\"ok\", \"a 'b\"]", "stages.s.static_analysis[1]: \"a 'b\" cannot be"),
    ("precondition_threshold = 0", "stages.s.precondition_threshold: 0 is too small"),
    ("precondition_threshold = 2.5", "stages.s.precondition_threshold: expected an integer"),
    ("static_analyses = []", 'stages.s.static_analyses: unknown key "static_analyses"'),
])
def test_bad_gate_keys_name_the_key_path(body: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_stage(body)
    assert caught.value.message.startswith(f".correx.toml: {message}"), caught.value.message
    assert caught.value.hint


def test_manifest_lint_reports_a_bad_gate_key(make_repo: Callable[..., Path],
                                              correx: Correx) -> None:
    root = make_repo(files={".correx.toml": 'version = 1\n[stages.s]\nwrites = ["/src/**"]\n'
                                            "brief_echo_threshold = 2\n", "src/a.py": "x\n"})
    result = correx(root, "manifest", "lint", "--json")
    assert result.code == 1, result
    [finding] = json.loads(result.stdout)["findings"]
    assert finding["code"] == "profile_invalid"
    assert "stages.s.brief_echo_threshold: 2 is not a fraction" in finding["message"]


def test_findings_are_parsed_from_common_output() -> None:
    output = ("src/a.py:3:7: F401 unused\nsrc/b.py:10: error: bad type  [x]\n"
              "Found 2 errors.\nC:\\x.c is not parsed\n  src/c.py:1:1: indented\n"
              "lib/x.kt:5:2: warning: y\r\n")
    found, omitted = parse_findings(output)
    assert [(f.path, f.line, f.column, f.message) for f in found] == [
        ("src/a.py", 3, 7, "F401 unused"), ("src/b.py", 10, None, "error: bad type  [x]"),
        ("lib/x.kt", 5, 2, "warning: y")]
    assert omitted == 0
    many, more = parse_findings("a.py:1:1: x\n" * 250)
    assert (len(many), more) == (200, 50)
