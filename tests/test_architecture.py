"""The layers of the house, enforced: every import points down.

    entries        __main__ → cli → mcp_server → api, agents
    hooks          the checks git's hooks run (agents reuse them)
    orchestration  session/ (settlement, lock, re-plan)
    capabilities   gates, manifest, plan, review, sync, attest, demo, verify
    services       runner, integrity (capabilities build on them)
    parsing        symbols (the tree-sitter grammars and the symbol index)
    ledger         ledger/ (the one door to the facts) and the pure folds of replay/
    profiles       the profile on disk, stage and expectation selection
    git            git/ (the only door to git), failure.py (the one exit-code mapping)
    records        model/
    foundation     errors.py, clock.py, faces.py, resident_address.py, confinement.py,
                   gitcorrex/__init__.py

Every import counts: at module level, inside a function, under `TYPE_CHECKING`. An import
may only reach a strictly lower layer (or its own package), so packages cannot form a
cycle and capabilities cannot import each other. If this fails, the architecture drifted:
move the shared piece down a layer; do not widen the table.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gitcorrex"
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("foundation", frozenset({"__init__", "errors", "clock", "faces", "resident_address",
                              "confinement"})),
    ("records", frozenset({"model"})),
    ("git", frozenset({"git", "failure"})),
    ("profiles", frozenset({"profiles"})),
    # replay holds pure folds over model records (no I/O): the ledger may fold what it
    # has just written (ledger/session_folds.py), so it sits below the ledger.
    ("replay", frozenset({"replay"})),
    ("ledger", frozenset({"ledger"})),
    # symbols holds the tree-sitter grammars test integrity parses with: one layer lower
    ("parsing", frozenset({"symbols"})),
    ("services", frozenset({"runner", "integrity"})),
    ("capabilities", frozenset({"gates", "manifest", "plan", "review", "sync", "attest",
                                "demo", "verify"})),
    ("orchestration", frozenset({"session"})),
    ("hooks", frozenset({"hooks"})),
    ("adapters", frozenset({"api", "agents"})),
    ("mcp", frozenset({"mcp_server"})),
    ("cli", frozenset({"cli"})),
    ("entry", frozenset({"__main__"})),
)
LAYER_OF = {name: rank for rank, (_, names) in enumerate(LAYERS) for name in names}
# hooks/interpreter.py: doctor must run the interpreter a hook pins to prove it imports us;
# runner/piped.py: doctor --agent runs an agent's installed hook command as the agent does.
SUBPROCESS_ALLOWED = {"git/process.py", "runner/command.py", "runner/piped.py",
                      "demo/script.py", "hooks/interpreter.py",
                      "git/watch_control.py"}  # `watchman get-sockname`, at `watch start`


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


def top_level(rel: str) -> str:
    """The package (or top-level module) a file belongs to: `session/fold.py` → session,
    `errors.py` → errors, `__init__.py` → __init__."""
    first = rel.split("/")[0]
    return first.removesuffix(".py")


def packages_imported(path: Path) -> set[str]:
    """The top-level packages of ours a file imports, wherever the import sits (function
    bodies and `if TYPE_CHECKING:` included). `from gitcorrex import x` names x when x is
    a module or package of ours, else the package root (`__init__`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] if node.module != "gitcorrex" else \
                [f"gitcorrex.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] != "gitcorrex":
                continue
            target = parts[1] if len(parts) > 1 else "__init__"
            exists = (PACKAGE / target).is_dir() or (PACKAGE / f"{target}.py").exists()
            found.add(target if exists else "__init__")
    return found


def package_edges() -> dict[str, dict[str, list[str]]]:
    """package → imported package → the files that import it."""
    edges: dict[str, dict[str, list[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = str(path.relative_to(PACKAGE))
        source = top_level(rel)
        for target in packages_imported(path) - {source}:
            edges.setdefault(source, {}).setdefault(target, []).append(rel)
    return edges


def test_every_package_has_a_declared_layer() -> None:
    """A new package (or top-level module) says where it sits before it imports anything."""
    present = {top_level(str(p.relative_to(PACKAGE))) for p in PACKAGE.rglob("*.py")}
    undeclared, stale = sorted(present - set(LAYER_OF)), sorted(set(LAYER_OF) - present)
    assert not undeclared, f"no layer declared for: {undeclared}"
    assert not stale, f"LAYERS names what no longer exists: {stale}"


def test_imports_point_down_only() -> None:
    """No import reaches its own layer (sideways: a capability importing another) or one
    above it (upward), not even inside a function or under TYPE_CHECKING."""
    offenders = [f"{rel}: {source} ({LAYERS[LAYER_OF[source]][0]}) imports {target} "
                 f"({LAYERS[LAYER_OF[target]][0]})"
                 for source, targets in package_edges().items() if source in LAYER_OF
                 for target, files in targets.items() if target in LAYER_OF
                 and LAYER_OF[target] >= LAYER_OF[source] for rel in sorted(set(files))]
    assert not offenders, "imports that do not point down:\n" + "\n".join(offenders)


def test_no_cycle_between_packages() -> None:
    """Also without the table: following imports from any package never leads back to it."""
    cycles = cyclic({source: set(targets) for source, targets in package_edges().items()})
    assert not cycles, f"packages on an import cycle: {cycles}"


def imported_modules(path: Path) -> set[str]:
    """Our modules a file imports; `from a import b` names a.b when b is a module, else a."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            inner = {f"{node.module}.{alias.name}" for alias in node.names}
            found.update({name for name in inner if source_of(name) is not None}
                         or {node.module})
    return {name for name in found if name.split(".")[0] == "gitcorrex"}


def source_of(module: str) -> Path | None:
    base = PACKAGE.parent.joinpath(*module.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.exists():
            return candidate
    return None


def cyclic(edges: dict[str, set[str]]) -> list[str]:
    """The nodes from which following edges leads back to themselves."""
    def reaches(start: str, goal: str) -> bool:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for name in edges.get(todo.pop(), ()):
                if name == goal:
                    return True
                if name not in seen:
                    seen.add(name)
                    todo.append(name)
        return False

    return sorted(name for name in edges if reaches(name, name))


def test_no_cycle_between_modules() -> None:
    """No two files need each other, counting function-level and TYPE_CHECKING imports: a
    shared type or helper gets its own room below both."""
    edges: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        edges[name] = imported_modules(path) - {name}
    cycles = cyclic(edges)
    assert not cycles, "modules on an import cycle:\n" + "\n".join(cycles)


def test_replay_is_pure() -> None:
    """Every fold lives in replay/ and reads nothing but events: records only, no git."""
    offenders = [(rel, name) for rel, names in modules() if rel.startswith("replay/")
                 for name in names if name.split(".")[0] in ("pygit2", "subprocess", "os")
                 or (name.startswith("gitcorrex.") and
                     not name.startswith(("gitcorrex.model", "gitcorrex.replay")))]
    assert offenders == []


def test_only_git_package_imports_pygit2() -> None:
    offenders = [rel for rel, names in modules()
                 if any(n.split(".")[0] == "pygit2" for n in names) and not rel.startswith("git/")]
    assert offenders == []


def test_only_cli_imports_click() -> None:
    offenders = [rel for rel, names in modules()
                 if any(n.split(".")[0] == "click" for n in names) and not rel.startswith("cli/")]
    assert offenders == []


def test_model_imports_only_model_and_errors() -> None:
    offenders = [(rel, n) for rel, names in modules() if rel.startswith("model/")
                 for n in names if n.startswith("gitcorrex")
                 and not n.startswith(("gitcorrex.model", "gitcorrex.errors"))]
    assert offenders == []


def test_processes_start_only_where_allowed() -> None:
    offenders = [rel for rel, names in modules()
                 if "subprocess" in names and rel not in SUBPROCESS_ALLOWED]
    assert offenders == []


def run_tool(*argv: str) -> subprocess.CompletedProcess[str]:
    """`python -m TOOL` with the interpreter running the tests, never whatever PATH holds:
    both tools are in the `[test]` extra, so one missing fails the test instead of skipping
    it (a skipped lint test is a CI that never lints)."""
    return subprocess.run([sys.executable, "-m", *argv], cwd=PACKAGE.parent,
                          capture_output=True, text=True, check=False)


def test_ruff_is_clean() -> None:
    proc = run_tool("ruff", "check", "gitcorrex", "tests", "benchmarks")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean() -> None:
    proc = run_tool("mypy")
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


TESTS = Path(__file__).resolve().parent
TEST_DATA_DIRS = {"fixtures", "snapshots", "__pycache__"}  # read by tests; no tests inside


def test_test_directories_mirror_the_packages() -> None:
    """tests/<a>/<b>/ holds the tests of gitcorrex/<a>/<b>/: a directory that names no
    package hides where a module's tests live (tests/assess, tests/check did)."""
    stray = [str(rel) for rel in (d.relative_to(TESTS) for d in sorted(TESTS.rglob("*"))
                                  if d.is_dir())
             if not TEST_DATA_DIRS.intersection(rel.parts)
             and not any((PACKAGE / rel).glob("*.py"))]
    assert stray == []


def test_a_package_s_tests_live_in_its_directory() -> None:
    """Top-level test files are cross-cutting (architecture, README, CI recipes, install);
    one named for a package belongs in that package's test directory."""
    misplaced = [path.name for path in sorted(TESTS.glob("test_*.py"))
                 if any((PACKAGE / path.stem.removeprefix("test_")).glob("*.py"))]
    assert misplaced == []


# --- One error boundary, thin commands, no assert (issue 15) ---------------------------------

# the process's boundary and its one mapping; the agent hook's hand-over, which ends the
# process with the exit code of the resident process's child that ran the call, and the
# resident process itself (its own life, and each forked child's after `main` returned)
BOUNDARY = {"cli/boundary.py", "failure.py", "cli/resident_client.py", "cli/resident.py"}
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


EXIT_CODE_OWNERS = {"errors.py", "failure.py", "cli/boundary.py"}  # where a code is a number


def names_exit_codes(node: ast.AST) -> bool:
    """`ExitCode` (the codes) or `CONCLUSION_CODES` (the table from a conclusion to its code)."""
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return name in ("ExitCode", "CONCLUSION_CODES")


def test_only_the_boundary_turns_a_conclusion_into_an_exit_code() -> None:
    """A result says what it concludes (`conclusion`, model/conclusion.py); one table at the
    boundary (cli/boundary.py's CONCLUSION_CODES) makes it a number, as failure.py does for an
    exception. So no result has an `exit_code` property, and nothing else names the codes."""
    defined = [f"{rel}:{node.lineno}" for rel, tree in parsed_modules()
               for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef) and node.name == "exit_code"]
    named = [f"{rel}:{node.lineno}" for rel, tree in parsed_modules()
             if rel not in EXIT_CODE_OWNERS for node in ast.walk(tree) if names_exit_codes(node)]
    assert (defined, named) == ([], [])


def returns_a_number(node: ast.AST) -> bool:
    """`return 1`, `return 0 if ok else 1`: a code where a conclusion belongs."""
    if not isinstance(node, ast.Return) or node.value is None:
        return False
    values = [node.value.body, node.value.orelse] if isinstance(node.value, ast.IfExp) \
        else [node.value]
    return any(isinstance(value, ast.Constant) and type(value.value) is int for value in values)


def test_commands_end_with_a_conclusion_not_a_number() -> None:
    """A command body returns its result's conclusion; the boundary decides the number."""
    offenders = [f"{rel}:{node.lineno}" for rel, tree in parsed_modules()
                 if rel.startswith("cli/") and rel != "cli/boundary.py"
                 for node in ast.walk(tree) if returns_a_number(node)]
    assert offenders == []


# git/owned_files.py: a scratch file's age is the kernel's seconds against its ctime (no
# datetime on the state key's path); it is compared, never recorded.
CLOCK_READERS = {"clock.py", "git/owned_files.py"}
TIME_OF_DAY = {("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"),
               ("date", "today"), ("time", "time"), ("time", "time_ns")}


def reads_the_time_of_day(node: ast.AST) -> bool:
    """`datetime.now`, `datetime.datetime.utcnow`, `date.today`, `time.time` (called or
    passed on)."""
    if not isinstance(node, ast.Attribute):
        return False
    owner = node.value
    name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", None)
    return (name, node.attr) in TIME_OF_DAY


def test_only_the_clock_reads_the_time_of_day() -> None:
    """Every entry stamps what it records with `clock.now_utc` and hands it to the use case
    (`now`, `clock`): one clock, so a test or a replay can give any time. `time.monotonic`
    for durations is not a time of day."""
    offenders = [f"{rel}:{node.lineno}" for rel, tree in parsed_modules()
                 if rel not in CLOCK_READERS for node in ast.walk(tree)
                 if reads_the_time_of_day(node)]
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
    """cli/startup.py answers hook runs and agent hooks; nothing it calls may import it back."""
    graph = {f"gitcorrex.{rel[:-3].replace('/', '.')}".removesuffix(".__init__"):
             module_imports(rel, tree) for rel, tree in parsed_modules() if rel.startswith("cli/")}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for name in graph.get(start, ()):
            if name == goal or (name not in seen and not seen.add(name)
                                and reaches(name, goal, seen)):
                return True
        return False

    assert sorted(name for name in graph if reaches(name, name, set())) == []


CONFIG_WRITERS = {"git/config.py", "git/scratch.py"}  # scratch.py: the demo repo's identity


def config_access(path: Path) -> list[int]:
    """Lines that run `git config` (an argv starting "config") or index libgit2's config."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        argv = isinstance(node, ast.List | ast.Tuple) and node.elts and isinstance(
            node.elts[0], ast.Constant) and node.elts[0].value == "config"
        libgit2 = isinstance(node, ast.Subscript) and isinstance(
            node.value, ast.Attribute) and node.value.attr == "config"
        if argv or libgit2:
            found.append(node.lineno)
    return found


def test_git_config_is_read_one_way() -> None:
    """Only git/config.py reads configuration (the git binary, as git resolves it): libgit2's
    reader misses `git -c` and GIT_CONFIG_COUNT, which git hands to every hook it runs."""
    offenders = [(rel, lines) for rel in sorted(
                     p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py"))
                 if rel not in CONFIG_WRITERS and (lines := config_access(PACKAGE / rel))]
    assert offenders == []


NOTE_READ_MODULES = {"gitcorrex.git.all_notes", "gitcorrex.git.note_reads",
                     "gitcorrex.git.notes_lookup",
                     "gitcorrex.git.notes_libgit2", "gitcorrex.git.notes_plumbing"}
NOTE_READ_FUNCTIONS = {"read_note", "read_notes_for", "iter_all_notes", "note_blobs_at",
                       "note_blob_ids", "commit_notes", "write_notes_commit"}
NOTE_READERS = ("git/", "ledger/")


def note_reads_of(path: Path) -> set[str]:
    """The notes read modules and note-reading functions of `git/notes.py` a file uses."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in NOTE_READ_MODULES)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            inner = {f"{node.module}.{alias.name}" for alias in node.names}
            found.update((inner | {node.module}) & NOTE_READ_MODULES)
            if node.module == "gitcorrex.git.notes":
                found.update(a.name for a in node.names if a.name in NOTE_READ_FUNCTIONS)
        elif isinstance(node, ast.Attribute) and node.attr in NOTE_READ_FUNCTIONS \
                and isinstance(node.value, ast.Name) and node.value.id == "notes":
            found.add(f"notes.{node.attr}")
    return found


def test_only_the_ledger_reads_notes() -> None:
    """Notes are read and written by the ledger (`ledger/`) alone; everything else asks it,
    so a note is parsed, checked and appended one way."""
    offenders = [f"{rel}: {sorted(found)}" for path in sorted(PACKAGE.rglob("*.py"))
                 if not (rel := str(path.relative_to(PACKAGE))).startswith(NOTE_READERS)
                 and (found := note_reads_of(path))]
    assert not offenders, "notes read outside the ledger:\n" + "\n".join(offenders)


def test_outside_git_only_the_face_is_imported() -> None:
    """`gitcorrex.git`'s modules are reached through its face (`git/__init__.py`): an import
    of a module behind it, or of a name the face does not list, is refused."""
    from gitcorrex.git import FACE

    offenders: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = str(path.relative_to(PACKAGE))
        if rel.startswith("git/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                offenders += [f"{rel}: import {a.name}" for a in node.names
                              if a.name.startswith("gitcorrex.git.")]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.startswith("gitcorrex.git."):
                    offenders.append(f"{rel}: from {node.module}")
                elif node.module == "gitcorrex.git":
                    offenders += [f"{rel}: {a.name} is not in the face" for a in node.names
                                  if a.name not in FACE]
    assert offenders == []


COST_WORDS = ("plain", "light", "fast", "slow", "quick", "cheap")
ROLE_WORDS = ("context", "usecase", "utils", "helpers", "misc", "common")


def test_no_module_is_named_for_its_cost_or_its_role() -> None:
    """Files are named for what they hold: a `plain`/`light`/`fast` twin beside a module is
    a second path to keep equal, and `context`/`usecase` name nothing (STYLE.md)."""
    starts = re.compile(rf"(^|_)({'|'.join((*COST_WORDS, *ROLE_WORDS))})")  # not "explain"
    offenders = [str(path.relative_to(PACKAGE)) for path in sorted(PACKAGE.rglob("*.py"))
                 if any(starts.search(part)
                        for part in path.relative_to(PACKAGE).with_suffix("").parts)]
    assert offenders == []


def test_the_ledger_is_one_package() -> None:
    """Nothing beside `ledger/` holds the ledger: no `ledger_*.py` at the top, and no other
    package appends lines or folds a note's bytes itself (`ledger/` is the one door)."""
    beside = sorted(path.name for path in PACKAGE.glob("ledger*") if path.name != "ledger")
    assert beside == []
    writers = [str(path.relative_to(PACKAGE)) for path in sorted(PACKAGE.rglob("*.py"))
               if not str(path.relative_to(PACKAGE)).startswith(("ledger/", "git/", "model/"))
               and any(call in path.read_text() for call in
                       ("event_line(", "commit_notes(", "write_notes_commit("))]
    assert writers == []
