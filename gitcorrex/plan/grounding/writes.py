"""Declared writes: canonical, inside the step's stage policy, never the profile itself.

A write is a repo-relative path (one leading `/` allowed, as in the profile). An unsafe
path (`..`, `.git`, absolute, backslashes), a path inside a submodule, the operator-owned
`.correx.toml`, a stage the profile does not define, or a path the stage's `writes` do not
allow is rejected before lock. A pattern (`/src/gen/**`) is accepted only when one of the
stage's directory patterns provably covers it; otherwise the architect must name paths.
As in the manifest check, a stage with no `writes` is unrestricted.
"""

from __future__ import annotations

from gitcorrex.model.grounding import Check, GroundingFinding, Route, Status
from gitcorrex.model.plan import PlanStep
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.plan.grounding.inputs import GroundingInput, finding
from gitcorrex.plan.grounding.tree_view import GLOB_CHARS, PathRef, parse_path_ref
from gitcorrex.profiles.load import PROFILE_NAME


def check_writes(given: GroundingInput) -> list[GroundingFinding]:
    return [_check_write(given, step, parse_path_ref(text))
            for step in given.plan.steps for text in step.writes]


def _check_write(given: GroundingInput, step: PlanStep, ref: PathRef) -> GroundingFinding:
    if ref.problem is not None:
        return _found(step, ref, Status.UNKNOWN, Route.REJECT, f"unsafe path: {ref.problem}")
    status = Status.PRESENT if given.view.exists(ref.path) else Status.ABSENT
    if ref.path == PROFILE_NAME:
        return _found(step, ref, status, Route.REJECT,
                      f"{PROFILE_NAME} is operator-owned: a plan never writes it")
    link = given.view.submodule_holding(ref.path)
    if link is not None:
        return _found(step, ref, Status.UNKNOWN, Route.REJECT, f"inside submodule {link}")
    policy = given.profile.stages.get(step.stage)
    if policy is None:
        return _found(step, ref, Status.UNKNOWN, Route.REJECT,
                      f"stage {step.stage!r} is not in the profile: no write policy applies")
    manifest = Manifest(tuple(policy.writes), f"stage {step.stage!r}")
    if ref.is_pattern or ref.directory:
        if manifest.unrestricted or _covered(ref.path, manifest.patterns):
            return _found(step, ref, Status.UNKNOWN, Route.PASS,
                          f"a pattern, covered by a directory pattern of {manifest.source}")
        return _found(step, ref, Status.UNKNOWN, Route.RETURN_TO_ARCHITECT,
                      f"a pattern that {manifest.source} does not provably cover: declare "
                      "the paths the step writes")
    if manifest.allows(ref.path):
        return _found(step, ref, status, Route.PASS)
    return _found(step, ref, status, Route.REJECT,
                  f"outside the writes of {manifest.source} [{', '.join(manifest.patterns)}]: "
                  "write inside the policy, or use a stage that allows it")


def _found(step: PlanStep, ref: PathRef, status: Status, route: Route,
           detail: str | None = None) -> GroundingFinding:
    return finding(Check.WRITE, step.id, ref.text, status, route, detail=detail,
                   paths=[ref.path] if status == Status.PRESENT else [])


def _covered(pattern: str, policy: tuple[str, ...]) -> bool:
    """Whether a directory pattern of the policy (`/X/**`, `X/`) holds everything the
    write pattern can name. Any negation in the policy makes this unprovable."""
    if any(p.startswith("!") for p in policy):
        return False
    cut = min((pattern.find(c) for c in GLOB_CHARS if c in pattern), default=len(pattern))
    directory = pattern[:cut].rpartition("/")[0] if cut < len(pattern) else pattern
    if not directory:
        return False
    for allowed in policy:
        base = allowed.lstrip("/")
        base = base[:-3] if base.endswith("/**") else base[:-1] if base.endswith("/") else ""
        if base and GLOB_CHARS.isdisjoint(base) and (
                directory == base or directory.startswith(base + "/")):
            return True
    return False

