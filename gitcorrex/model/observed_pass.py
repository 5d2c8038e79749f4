"""What a pass is: the one definition every reader that decides "is this tree verified" asks
(`log`, `report`, `check --require-pass`, `verify --reuse` and verify's baseline, the agent
Stop gate, a plan lock's baseline, a session's baseline).

An observation records the blob id of the `.correx.toml` its commands came from
(`profile`). The commands are part of the claim, so a pass counts only under the profile
the reader trusts for that tree: the tree's own `.correx.toml` blob (log, report, --reuse,
the Stop gate, a lock), the profile the session was locked under (a session's baseline),
or the base's profile (`check BASE..HEAD --require-pass`: the side a pull request cannot
change). A pass under another profile says that another profile's commands passed: it is
shown as what it is, never counted. Nothing trusted (a tree without a `.correx.toml`)
means no pass counts: `verify` never runs without a profile in the state it verifies.

The whole payload must fit `VerificationFields`: a line whose fields do not fit is never a
pass, even if it carries `"result": "pass"`.
"""

from __future__ import annotations

from gitcorrex.model.note_lines import LedgerEntry, typed_events
from gitcorrex.model.record import EventPayload
from gitcorrex.model.verification import Result, VerificationFields


def is_under(payload: VerificationFields, profile: str | None) -> bool:
    """Whether the observation ran the trusted profile (whatever its result)."""
    return profile is not None and payload.profile == profile


def is_pass_under(payload: EventPayload | None, profile: str | None) -> bool:
    """True only for a verification that fits its class, passed, and ran `profile`."""
    match payload:
        case VerificationFields(result=Result.PASS) if is_under(payload, profile):
            return True
    return False


def is_observed_pass(entry: LedgerEntry, profile: str | None) -> bool:
    """`is_pass_under` of a ledger entry (read into its class only when it is a
    verification)."""
    if entry.kind != VerificationFields.KIND:
        return False
    [typed] = typed_events([entry], (VerificationFields,))
    return is_pass_under(typed.payload, profile)
