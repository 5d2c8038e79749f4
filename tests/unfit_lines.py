"""Rewriting one ledger line through `git notes` so its fields no longer fit its kind's
payload class, as a careless or foreign writer could: the line stays canonical (its id is
recomputed), so only the payload is at fault. For tests of what a decider makes of it."""

from __future__ import annotations

import json
from pathlib import Path

from gitcorrex.model.canonical import canonical_json, content_id
from tests.conftest import git


def unfit(root: Path, subject: str, kind: str, nth: int = 0, **fields: object) -> str:
    """Set `fields` on the `nth` line of `kind` in the note on `subject`; its new id."""
    lines = git(root, "notes", "--ref=correx", "show", subject).splitlines()
    index = [i for i, line in enumerate(lines) if json.loads(line)["kind"] == kind][nth]
    body = {**json.loads(lines[index]), **fields}
    body["id"] = content_id(body)
    lines[index] = canonical_json(body)
    note = root.parent / "unfit-note.txt"
    note.write_text("\n".join(lines) + "\n")
    git(root, "notes", "--ref=correx", "add", "-f", "-F", str(note), subject)
    return str(body["id"])
