"""`git correx mcp` without the `mcp` package: exit 3, naming where git correx runs and the
install the README recommends (pipx / uv), not a bare `pip install`."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.conftest import run_correx


def test_without_the_extra_mcp_names_the_interpreter_and_the_pipx_install(
        repo: Path, tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "mcp"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('mcp is not installed here')\n")
    result = run_correx(repo, "mcp", env={"PYTHONPATH": str(shadow.parent)})
    assert result.code == 3, result
    assert f"missing where git correx runs ({sys.executable})" in result.stderr
    assert "pipx install --force 'git-correx[mcp]'" in result.stderr
    assert "uv tool install --force 'git-correx[mcp]'" in result.stderr
    assert "your project's Python cannot import gitcorrex" in result.stderr
