"""docs/reviewing-a-pull-request.md shows what the commands print: the script that built it
(examples/reviewing-a-pull-request.sh) runs again here, and every output block of the page
must equal what it prints now, event times, event ids and writer ids aside. After an
intended change to an output, run the script and paste its outputs into the page."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.test_ci_recipe import shim

PAGE = REPO_ROOT / "docs" / "reviewing-a-pull-request.md"
SCRIPT = REPO_ROOT / "examples" / "reviewing-a-pull-request.sh"
VOLATILE = [  # what differs from run to run: (pattern, what it reads as)
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"), "<time>"),
    (re.compile(r"\b(id|reused) [0-9a-f]{12}\b"), r"\1 <event>"),
    (re.compile(r'"correxFinding/v1": "[0-9a-f]{64}"'), '"correxFinding/v1": "<digest>"'),
    (re.compile(r"^[0-9a-f]{40}\trefs/notes/correx-writers/\S+$", re.M), "<writer ref>"),
    (re.compile(r"^[0-9a-f]{40}\t(refs/notes/correx)$", re.M), r"<oid>\t\1"),
]


def normalized(text: str) -> str:
    for pattern, shown in VOLATILE:
        text = pattern.sub(shown, text)
    return text.strip("\n")


def page_outputs() -> list[str]:
    """What each command of the page's console blocks printed, in order."""
    outputs = []
    for block in re.findall(r"```console\n(.*?)```", PAGE.read_text(), re.S):
        for chunk in re.split(r"^\$ .*\n", block, flags=re.M)[1:]:
            outputs.append(normalized(chunk))
    return outputs


def script_outputs(work: Path) -> list[str]:
    shim(work / "bin")
    env = {**os.environ, "PATH": f"{work / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(SCRIPT), str(work / "walk")], env=env,
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    printed = done.stdout.split("=== outputs ===\n", 1)[1]
    return [normalized(chunk) for chunk in re.split(r"^\$ .*\n", printed, flags=re.M)[1:]]


@pytest.mark.slow
def test_the_walkthrough_shows_what_the_commands_print(tmp_path: Path) -> None:
    printed = script_outputs(tmp_path)
    shown = page_outputs()
    assert len(shown) == len(printed)
    for on_page, now in zip(shown, printed, strict=True):
        if "<writer ref>" in now:  # writer refs sort by their random ids
            on_page, now = sorted(on_page.splitlines()), sorted(now.splitlines())
        assert on_page == now
