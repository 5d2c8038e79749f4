"""Whether a ledger entry is a passing verification: the one question several readers
(the baseline of `verify`'s summary, `check --require-pass`) ask of an entry.

The whole payload must fit `VerificationFields` and say `pass`: a line whose fields do not
fit is never a pass, even if it carries `"result": "pass"`.
"""

from __future__ import annotations

from gitcorrex.model.note_lines import LedgerEntry, typed_events
from gitcorrex.model.verification import Result, VerificationFields


def is_observed_pass(entry: LedgerEntry) -> bool:
    """True only for a verification whose fields fit its class and whose result is pass."""
    if entry.kind != VerificationFields.KIND:
        return False
    [typed] = typed_events([entry], (VerificationFields,))
    match typed.payload:
        case VerificationFields(result=Result.PASS):
            return True
    return False
