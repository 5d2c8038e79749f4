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


# --- One error boundary, thin commands, no assert (issue 15) ---------------------------------

BOUNDARY = {"cli/boundary.py", "failure.py"}  # the process's boundary and its one mapping
COMMAND_BODY_LIMIT = 25


def parsed_modules() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(PACKAGE)), ast.parse(path.read_text()))
            for path in sorted(PACKAGE.rglob("*.py"))]


def test_no_assert_statements() -> None:
    """`python -O` strips asserts: a check that guards control flow must be a real check."""
    offenders = [f"{rel}:{node.lineno}" for rel, tree in parsed_modules()
                 for node in ast.walk(tree) if isinstance(node, ast.Assert)]
    assert offenders == []


def is_command_decorator(decorator: ast.expr) -> bool:
    """`@click.command(...)`, `@click.group`, `@plan.command("x")`, `@root.group()`..."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("command", "group")


def body_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the first statement after the docstring (the help text) to the end."""
    body = function.body
    first = body[0]
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        body = body[1:]
    if not body:
        return 0
    return (function.end_lineno or body[-1].lineno) - body[0].lineno + 1


def test_command_bodies_parse_call_one_use_case_and_print() -> None:
    """A click command's body is at most ~25 lines: rules live in the use case it calls."""
    offenders = [(f"{rel}:{node.name}", body_lines(node)) for rel, tree in parsed_modules()
                 if rel.startswith("cli/") for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and any(is_command_decorator(d) for d in node.decorator_list)
                 and body_lines(node) > COMMAND_BODY_LIMIT]
    assert offenders == []


def exits_process(node: ast.AST) -> bool:
    """`sys.exit(...)`, `os._exit(...)`, `exit()`, `ctx.exit(...)`, `raise SystemExit`."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in ("exit", "_exit", "quit")
    if isinstance(node, ast.Raise) and node.exc is not None:
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        name = raised.attr if isinstance(raised, ast.Attribute) else getattr(raised, "id", "")
        return name in ("SystemExit", "Exit")
    return False


def names_an_exit_code(node: ast.AST) -> bool:
    """`ExitCode.X`, `exc.exit_code`, `BLOCK_EXIT`-style constants."""
    if isinstance(node, ast.Attribute):
        return node.attr == "exit_code" or (isinstance(node.value, ast.Name)
                                            and node.value.id == "ExitCode")
    return isinstance(node, ast.Name) and node.id.endswith("_EXIT")


def asks_the_boundary(handler: ast.ExceptHandler) -> bool:
    return any(isinstance(node, ast.Call) and getattr(node.func, "id", "") == "failure_of"
               for node in ast.walk(handler))


def test_only_the_boundary_ends_the_process() -> None:
    offenders = [f"{rel}:{node.lineno}" for rel, tree in parsed_modules()
                 if rel not in BOUNDARY for node in ast.walk(tree) if exits_process(node)]
    assert offenders == []


def test_only_the_boundary_maps_exceptions_to_exit_codes() -> None:
    """An `except` that turns what it caught into an exit code asks the one mapping
    (gitcorrex/failure.py) for it; an adapter may then answer in its agent's protocol."""
    offenders = [f"{rel}:{node.lineno}" for rel, tree in parsed_modules() if rel not in BOUNDARY
                 for node in ast.walk(tree) if isinstance(node, ast.ExceptHandler)
                 and any(names_an_exit_code(inner) for inner in ast.walk(node))
                 and not asks_the_boundary(node)]
    assert offenders == []


def module_imports(rel: str, tree: ast.Module) -> set[str]:
    """The gitcorrex modules `tree` imports (`from a import b` counts as a.b when b is one)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names}
            known = {name for name in submodules if module_path(name).exists()}
            names.update(known or {node.module})
    return {name for name in names if name.startswith("gitcorrex")}


def module_path(name: str) -> Path:
    base = PACKAGE.parent.joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def test_cli_modules_import_each_other_without_cycles() -> None:
    """cli/fast.py serves hook runs and agent hooks; nothing it calls may import it back."""
    graph = {f"gitcorrex.{rel[:-3].replace('/', '.')}".removesuffix(".__init__"):
             module_imports(rel, tree) for rel, tree in parsed_modules() if rel.startswith("cli/")}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for name in graph.get(start, ()):
            if name == goal or (name not in seen and not seen.add(name)
                                and reaches(name, goal, seen)):
                return True
        return False

    assert sorted(name for name in graph if reaches(name, name, set())) == []
