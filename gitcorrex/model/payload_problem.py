"""How a payload that does not fit its kind's class is described: `where: message`.

One wording for every reader (`typed_events`, `payload_or_problem`), so a session's fold,
`show`, `replay`, `log`, the PR report and attestations name the same problem.
"""

from __future__ import annotations

from pydantic import ValidationError


def payload_problem(kind: str, exc: ValidationError) -> str:
    """`where: message` of the first error (the union's `kind` tag left out of `where`)."""
    first = exc.errors()[0]
    loc = [str(part) for part in first["loc"]]
    where = ".".join(loc[1:] if loc[:1] == [kind] else loc) or kind
    return f"{where}: {first['msg']}"[:1024]


def unfit_text(kind: str, problem: str) -> str:
    """How every report shows a line of a known kind whose fields do not fit its class:
    `workspace_verification_observed ⚠ fields do not fit (result: Input should be …)`,
    never a half-read verdict (docs/ledger.md, "A line that does not fit its kind")."""
    return f"{kind} ⚠ fields do not fit ({problem})"


def unfit_reason(kind: str, problem: str) -> str:
    """The same text as a ledger problem's reason (`replay --check-fields`), worded like the
    envelope problems beside it: `<kind> fields do not fit (<where: message>)`."""
    return f"{kind} fields do not fit ({problem})"
