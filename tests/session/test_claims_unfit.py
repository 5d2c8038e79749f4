"""The verification provider reads observations as `VerificationFields`: one whose line does
not fit is no observation, so a claim resting on it stays unresolved (session/providers.py).
The line is rewritten through `git notes` on both notes it sits on (state tree, session)."""

from __future__ import annotations

import json
from pathlib import Path

from gitcorrex.model.events import session_object_oid
from tests.conftest import write
from tests.console_script import git_correx as correx
from tests.session.conftest import state_key
from tests.unfit_lines import unfit


def test_an_observation_line_that_does_not_fit_resolves_no_claim(locked: tuple[Path, str],
                                                                 tmp_path: Path) -> None:
    root, session = locked
    assert correx(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "BUG\n")
    assert correx(root, "verify", "-q").code == 1
    key = state_key(root)
    for subject in (key, session_object_oid(session)):
        unfit(root, subject, "workspace_verification_observed", changed_paths_omitted="many")
    claim = tmp_path / "claim.json"
    claim.write_text(json.dumps({"class": "observed_fact", "provider": "verification",
                                 "subject": key, "fact": "exit_code", "expected": 1}))
    result = correx(root, "pause", "--claim", str(claim), "--json")
    assert result.code == 1, result
    assert json.loads(result.stdout)["outcome"] == "unresolved"
