"""Build prerequisites: what must exist before a step's checks can run at all.

Three sources, per step: the plan's own `prerequisites`; the `requires` of every profile
command its checks run (setup included); and the manifest the command's tool cannot work
without (`cargo test` → Cargo.toml, `go test` → go.mod, `npm test` → package.json,
`mvn` → pom.xml, `gradle` → build.gradle(.kts), `pip install -e .` → pyproject.toml or
setup.py...; a command that points its tool at
another directory is left to its `requires`). Missing from the tree: passes when the step
or a step it depends on writes it (an explicit bootstrap), returns to the architect when
only a step it does not depend on writes it, and otherwise needs clarification: nothing
is synthesized.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from functools import partial

from gitcorrex.model.grounding import Check, GroundingFinding, Route, Status
from gitcorrex.model.plan import PlanStep
from gitcorrex.plan.grounding.inputs import GroundingInput, finding
from gitcorrex.plan.grounding.references import provided_by
from gitcorrex.plan.grounding.tree_view import parse_path_ref

GRADLE = ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts")
TOOL_MANIFESTS: dict[str, tuple[tuple[str, ...], frozenset[str] | None]] = {
    # tool → (any one of these files, the subcommands that need it; None = every use)
    "cargo": (("Cargo.toml",), frozenset({"build", "b", "test", "t", "check", "c", "run",
                                          "r", "clippy", "bench", "doc", "fetch"})),
    "go": (("go.mod",), frozenset({"build", "test", "vet", "run", "install", "list",
                                   "generate"})),
    "npm": (("package.json",), frozenset({"test", "t", "tst", "run", "run-script", "ci",
                                          "install", "i", "start", "exec"})),
    "pnpm": (("package.json",), frozenset({"test", "t", "run", "install", "i", "exec"})),
    "yarn": (("package.json",), None),
    "mvn": (("pom.xml",), None),
    "mvnw": (("pom.xml",), None),
    "gradle": (GRADLE, None),
    "gradlew": (GRADLE, None),
    "poetry": (("pyproject.toml",), None),
    "hatch": (("pyproject.toml",), None),
    "pdm": (("pyproject.toml",), None),
    "tox": (("tox.ini", "pyproject.toml", "setup.cfg"), None),
    "make": (("Makefile", "makefile", "GNUmakefile"), None),
}
PYTHON_PROJECT = ("pyproject.toml", "setup.py", "setup.cfg")
ELSEWHERE_FLAGS = ("-C", "--prefix", "--manifest-path", "-f", "--file", "-p", "--project",
                   "--dir", "--cwd", "--directory", "-b", "--build-file", "--project-dir")


@dataclass(frozen=True)
class Need:
    """Any one of `paths` must exist; `why` names who needs it."""

    paths: tuple[str, ...]
    why: str


def check_prerequisites(given: GroundingInput) -> list[GroundingFinding]:
    return [_check_need(given, step, need) for step in given.plan.steps
            for need in step_needs(given, step)]


def step_needs(given: GroundingInput, step: PlanStep) -> list[Need]:
    """The step's prerequisites, each once, in a stable order."""
    needs: dict[tuple[str, ...], list[str]] = {}
    for text in step.prerequisites:
        needs.setdefault((text,), []).append("the plan")
    for check in step.checks:
        for name in given.commands_of(check) or []:
            spec = given.profile.commands[name]
            for path in spec.requires:
                needs.setdefault((path,), []).append(f"command {name!r} (requires)")
            implied = tool_manifest(spec.run)
            if implied:
                needs.setdefault(implied, []).append(f"command {name!r} ({spec.run})")
    return [Need(paths, ", ".join(dict.fromkeys(why))) for paths, why in needs.items()]


def tool_manifest(run: str) -> tuple[str, ...] | None:
    """The manifest `run`'s tool needs in the top level; None when none or not knowable."""
    try:
        argv = shlex.split(run)
    except ValueError:
        return None
    if len(argv) >= 3 and argv[0].rsplit("/", 1)[-1].startswith("python") and argv[1] == "-m":
        argv = argv[2:]
    if not argv or any(arg.split("=", 1)[0] in ELSEWHERE_FLAGS for arg in argv[1:]):
        return None
    tool = argv[0].rsplit("/", 1)[-1]
    if tool in ("pip", "pip3") and argv[1:2] == ["install"] and _installs_here(argv[2:]):
        return PYTHON_PROJECT
    known = TOOL_MANIFESTS.get(tool)
    if known is None:
        return None
    manifests, subcommands = known
    if subcommands is not None and (len(argv) < 2 or argv[1] not in subcommands):
        return None
    return manifests


def _installs_here(args: list[str]) -> bool:
    """`pip install .`, `pip install -e .`, `--editable=.`: the project in the top level."""
    return any(arg in (".", "./", "-e.", "--editable=.") or arg.startswith((".[", "-e.["))
               for arg in args)


def _check_need(given: GroundingInput, step: PlanStep, need: Need) -> GroundingFinding:
    subject = " | ".join(need.paths)
    found = partial(finding, Check.PREREQUISITE, step.id, subject)
    refs = [parse_path_ref(path) for path in need.paths]
    present = [r.path for r in refs if r.problem is None and given.view.exists(r.path)]
    if present:
        return found(Status.PRESENT, Route.PASS, paths=present, detail=f"for {need.why}")
    for ref in refs:
        provided = provided_by(given, step, ref.path) if ref.problem is None else None
        if provided is not None:
            return found(Status.ABSENT, provided[0], detail=f"for {need.why}; {provided[1]}")
    candidates = [c for r in refs if r.problem is None
                  for c in given.view.by_lower_basename.get(r.path.rsplit("/", 1)[-1].lower(),
                                                            [])]
    return found(Status.ABSENT, Route.CLARIFICATION_REQUIRED, candidates=candidates,
                 detail=f"for {need.why}: missing, and no step this one depends on writes "
                        "it: add a bootstrap step, or clarify")
