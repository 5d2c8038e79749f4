"""An agent's file tool call (write or read of named paths), judged by `assess`'s rules.

A short path proves most allows without loading the ledger; everything else goes to
manifest/assess.py (through session/assess_entry.py), which decides, records BLOCKs as
`tool_call_assessed` (with the agent call attached) and reports precondition signals. A
write in a step that another runtime actor started is denied, naming both.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.agents.hook_call import agent_call, call_base, correx_session
from gitcorrex.agents.proven_allow import AllowReads, proven_allowed
from gitcorrex.agents.request import ALLOW, HookOptions, HookRequest, Verdict
from gitcorrex.git import discover
from gitcorrex.model.conclusion import Conclusion

if TYPE_CHECKING:
    from datetime import datetime


def judge_file_call(request: HookRequest, options: HookOptions, *, default_cwd: Path,
                    clock: Callable[[], datetime]) -> Verdict:
    """ALLOW, or a block naming each refused path with its rule and fix."""
    base = call_base(request, default=default_cwd)
    reads = None if options.record_all else AllowReads(str(base))  # begun side by side
    try:
        repo = discover(base, asked=None if reads is None else reads.discovery())
        allowed, read = proven_allowed(repo, request, options, str(base), reads)
    finally:
        if reads is not None:
            reads.close()
    if allowed:
        return ALLOW
    from gitcorrex.agents.reasons import block_reason
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.manifest.assess import AssessRequest
    from gitcorrex.session.assess_entry import assess_in_session
    from gitcorrex.session.runtime_actor import ForeignActorError

    if request.action is None:
        raise ValueError(f"{request.tool}: not a file call (judge_file_call takes writes and "
                         "reads only)")
    state = correx_session(repo, options, read=read)
    assessed = AssessRequest(request.action, request.paths, base, options.stage,
                             state.session if state is not None else None,
                             options.record_all, agent=agent_call(request))
    try:
        outcome = assess_in_session(repo, assessed, clock=clock, state=state,
                                    provenance=lambda: current_provenance(repo))
    except ForeignActorError as refused:  # another runtime started the step
        from gitcorrex.agents.reasons import foreign_actor_reason

        return Verdict(True, foreign_actor_reason(request, refused))
    if outcome.conclusion is not Conclusion.OK:  # what `assess` exits 1 on
        return Verdict(True, block_reason(request, outcome))
    return ALLOW
