"""Paths git hands us are bytes: names that are not UTF-8 must not break a recording."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult
from tests.verify.conftest import py, write_profile

Correx = Callable[..., CliResult]


def test_non_utf8_and_newline_names_are_recorded_escaped(project: Path, correx: Correx) -> None:
    write_profile(project, {"ok": py("pass")}, {"ok": ["ok"]}, default="ok")
    with open(os.path.join(os.fsencode(project), b"bad\xffname"), "wb") as handle:
        handle.write(b"x")
    (project / "new\nline").write_text("y")
    result = correx(project, "verify", "--json", "--quiet")
    assert result.code == 0, result
    fields = json.loads(result.stdout)["event"]
    assert set(fields["changed_paths"]) >= {"bad\\xffname", "new\nline"}
    replayed = correx(project, "replay", "--json")
    assert replayed.code == 0 and replayed.stderr == "", replayed
    assert "bad\\\\xffname" in replayed.stdout
