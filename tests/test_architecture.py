"""The import direction of STYLE.md, enforced: cli → use-cases → ledger → model, git.

If this fails, the architecture drifted; move the code, do not widen the allow-lists.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gitcorrex"
USE_CASES = ("agents", "api", "mcp_server", "verify", "manifest", "plan", "session", "gates",
             "review", "demo", "profiles", "hooks", "sync", "attest")
# hooks/interpreter.py: doctor must run the interpreter a hook pins to prove it imports us.
SUBPROCESS_ALLOWED = {"git/process.py", "verify/runner.py", "demo/script.py",
                      "hooks/interpreter.py"}


def imports_of(path: Path) -> set[str]:
    """Every module name a file imports, at any depth (lazy imports included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def modules() -> list[tuple[str, set[str]]]:
    return [(str(path.relative_to(PACKAGE)), imports_of(path))
            for path in sorted(PACKAGE.rglob("*.py"))]


def test_only_git_package_imports_pygit2() -> None:
    offenders = [rel for rel, names in modules()
                 if any(n.split(".")[0] == "pygit2" for n in names) and not rel.startswith("git/")]
    assert offenders == []


def test_only_cli_imports_click() -> None:
    offenders = [rel for rel, names in modules()
                 if any(n.split(".")[0] == "click" for n in names) and not rel.startswith("cli/")]
    assert offenders == []


def test_nothing_below_cli_imports_cli() -> None:
    offenders = [rel for rel, names in modules() if not rel.startswith("cli/")
                 and rel != "__main__.py" and any(n.startswith("gitcorrex.cli") for n in names)]
    assert offenders == []


def test_model_imports_only_model_and_errors() -> None:
    offenders = [(rel, n) for rel, names in modules() if rel.startswith("model/")
                 for n in names if n.startswith("gitcorrex")
                 and not n.startswith(("gitcorrex.model", "gitcorrex.errors"))]
    assert offenders == []


def test_git_and_ledger_do_not_import_use_cases() -> None:
    lower = [(rel, names) for rel, names in modules()
             if rel.startswith(("git/", "replay/", "ledger/"))]
    offenders = [(rel, n) for rel, names in lower for n in names
                 if any(n.startswith(f"gitcorrex.{case}") for case in USE_CASES)]
    assert offenders == []


def test_capabilities_do_not_import_session() -> None:
    """Orchestration reads downward: session/ calls verify, gates, manifest and plan; none of
    them reaches up into session/ (not even inside a function)."""
    capabilities = ("verify/", "gates/", "manifest/", "plan/")
    offenders = [(rel, n) for rel, names in modules() if rel.startswith(capabilities)
                 for n in names if n == "gitcorrex.session" or n.startswith("gitcorrex.session.")]
    assert offenders == []


def test_processes_start_only_where_allowed() -> None:
    offenders = [rel for rel, names in modules()
                 if "subprocess" in names and rel not in SUBPROCESS_ALLOWED]
    assert offenders == []


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]' brings it)")
    root = PACKAGE.parent
    proc = subprocess.run([ruff, "check", "gitcorrex", "tests", "benchmarks"], cwd=root,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean() -> None:
    mypy = shutil.which("mypy")
    if mypy is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]' brings it)")
    proc = subprocess.run([mypy], cwd=PACKAGE.parent, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_only_the_mcp_server_imports_the_mcp_sdk() -> None:
    """`mcp` is an optional extra: nothing else may need it to import."""
    offenders = [rel for rel, names in modules()
                 if any(n.split(".")[0] == "mcp" for n in names)
                 and not rel.startswith("mcp_server/") and rel != "cli/mcp_cmd.py"]
    assert offenders == []


def test_only_entry_points_import_the_api_and_the_agents() -> None:
    """api/ and agents/ sit beside cli/ (entries), never below a use case."""
    entries = ("cli/", "api/", "agents/", "mcp_server/")
    offenders = [(rel, n) for rel, names in modules() if not rel.startswith(entries)
                 for n in names if n.startswith(("gitcorrex.api", "gitcorrex.agents",
                                                 "gitcorrex.mcp_server"))]
    assert offenders == []
