"""Recording realistic ledger facts in-process, with fixed provenance and clock.

For tests whose subject is reading, rendering or sharing the ledger, not `verify` itself:
the events are built through the same payload models `verify` and the gates use.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from pathlib import Path

from benchmarks.raw_events import raw_draft as raw_draft  # one definition, re-exported
from gitcorrex.git import Repository, blobs_at, write_blob
from gitcorrex.ledger import EventDraft, append_events
from gitcorrex.model.assessment import (
    AssessmentFields,
    PathVerdict,
    Rule,
    Verdict,
)
from gitcorrex.model.canonical import format_instant
from gitcorrex.model.event_line import event_line
from gitcorrex.model.events import Actor, Provenance, RecordedEvent, ToolVersions
from gitcorrex.model.verification import (
    CommandRecord,
    OutputEvidence,
    Reason,
    Result,
    StopReason,
    VerificationFields,
)
from tests.conftest import in_process

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
PROFILE = (b'version = 1\n[commands]\ntest = "python -m pytest -q"\n'
           b'[expectations]\ntest = ["test"]\n')


def provenance(email: str = "ada@example.test", runtime: str = "1-00ff00ff") -> Provenance:
    return Provenance(
        actor=Actor(name="Ada Tester", email=email, host="testhost", runtime=runtime),
        tool=ToolVersions(correx="0.1.0", git="2.39.5", libgit2="1.9.7"),
    )


def verification_draft(repo: Repository, tree: str, result: str = "pass", *,
                       tail: str = "", expectation: str = "test", session: str | None = None,
                       command: str = "test", profile: str | None = None) -> EventDraft:
    """A `workspace_verification_observed` draft on `tree`, one command run, under
    `profile` (a blob id): by default the tree's own `.correx.toml`, as `verify` records
    it, else (a tree without one) PROFILE, under which no pass of that tree counts."""
    failing = result != "pass"
    record = CommandRecord(
        name=command, argv=["python", "-m", "pytest", "-q"], digest="0" * 64,
        exit_code=1 if result == "fail" else (None if failing else 0), signal=None,
        stop_reason=StopReason.EXIT if result != "unavailable" else StopReason.TIMEOUT,
        duration_ms=12,
        output=OutputEvidence(size=len(tail.encode()), sha256="0" * 64, tail=tail, blob=None,
                              truncated=False),
    )
    fields = VerificationFields(
        expectation=expectation, result=Result(result),
        reason=Reason.TIMEOUT if result == "unavailable" else None, missing_path=None,
        commands=[record], writes=[], state_after=tree, head_tree=tree, changed_paths=[],
        changed_paths_omitted=0, profile=profile or tree_profile(repo, tree),
        isolated=False, reused_from=None,
    )
    return EventDraft(fields, (tree,), session=session, state_key=tree)


def tree_profile(repo: Repository, tree: str) -> str:
    """The blob of `tree`'s `.correx.toml`; PROFILE's (written) when it holds none."""
    return blobs_at(repo, [tree], ".correx.toml").get(tree) or write_blob(repo, PROFILE)


def assessment_draft(tree: str, paths: list[str], commit: str | None = None) -> EventDraft:
    """A BLOCK `tool_call_assessed` from the range check, naming `paths`."""
    fields = AssessmentFields(
        origin="check", action="write", verdict=Verdict.BLOCK,
        rule=Rule.PATH_OUTSIDE_MANIFEST, manifest_source="BASE", manifest=["/src/**"],
        paths=[PathVerdict(path=p, change="added", rule=Rule.PATH_OUTSIDE_MANIFEST,
                           detail="outside the manifest") for p in paths],
        paths_omitted=0, commit=commit,
    )
    return EventDraft(fields, (tree,), state_key=tree)


def record(path: Path, *drafts: EventDraft, seconds: int = 0,
           who: Provenance | None = None) -> list[RecordedEvent]:
    """Append `drafts` in one notes commit at T0 + seconds."""
    return append_events(in_process(path), list(drafts),
                         now=T0 + timedelta(seconds=seconds), provenance=who or provenance())


def verify_tree(path: Path, tree: str, result: str = "pass", *, seconds: int = 0,
                tail: str = "", session: str | None = None) -> RecordedEvent:
    """Record one verification of `tree` in the repository at `path`."""
    repo = in_process(path)
    draft = verification_draft(repo, tree, result, tail=tail, session=session)
    return record(path, draft, seconds=seconds)[0]


def note_line(path: Path, subject: str, kind: str, fields: Mapping[str, object], *,
              seconds: int = 0, state_key: str | None = None, session: str | None = None,
              step: str | None = None, actor_extra: Mapping[str, object] | None = None) -> str:
    """Add one canonical line of `kind` carrying exactly `fields` to `subject`'s note with
    `git notes` itself (no payload class checks them), as another writer could; its id.
    `session` (and `step`): the session it names, without a `seq` (a foreign writer
    allocates none);
    `actor_extra`: keys a newer writer adds to the envelope's `actor`."""
    from tests.conftest import git

    who = provenance()
    actor = {**dict(who.actor), **(actor_extra or {})}
    envelope = {"v": 1, "kind": kind, "at": format_instant(T0 + timedelta(seconds=seconds)),
                "subjects": [subject], "session": session, "seq": None, "stage": None,
                "step": step, "state_key": state_key, "actor": actor,
                "tool": dict(who.tool)}
    line = event_line(fields, envelope)
    notes = git(path, "notes", "--ref", "correx", "list")
    old = git(path, "notes", "--ref", "correx", "show", subject) if subject in notes else ""
    git(path, "notes", "--ref", "correx", "add", "-f", "-F", "-", subject,
        input=(old + line + "\n").encode("ascii"))
    return str(RecordedEvent.model_validate_json(line).id)
