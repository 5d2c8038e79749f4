"""One judge for every agent: which check a normalised hook request needs.

Before a file tool: `assess`'s rules on the paths it names. Before a shell command: its text,
for a decision reserved to people (shell_calls.py: no repository, no ledger, text only).
After a shell command (or a file edit reported after the fact): the workspace check. When
the agent wants to stop: the stop check. Everything else — other tools, events we do not
know — is allowed: the git hook and the CI range check remain the backstop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.agents.request import ALLOW, Action, Event, HookOptions, HookRequest, Verdict

if TYPE_CHECKING:
    from datetime import datetime


def judge(request: HookRequest, options: HookOptions, *, default_cwd: Path,
          clock: Callable[[], datetime]) -> Verdict:
    """The verdict on one hook call; raises on anything that prevents judging it."""
    if request.event == Event.PRE_TOOL and request.action == Action.SHELL:
        from gitcorrex.agents.shell_calls import judge_shell_call

        return judge_shell_call(request.command or "")
    if request.event == Event.PRE_TOOL and request.action in (Action.WRITE, Action.READ):
        from gitcorrex.agents.file_calls import judge_file_call

        return judge_file_call(request, options, default_cwd=default_cwd, clock=clock)
    if request.event == Event.POST_TOOL and request.action == Action.WRITE:
        from gitcorrex.agents.file_calls import judge_file_call

        return judge_file_call(request, options, default_cwd=default_cwd, clock=clock)
    if request.event == Event.POST_TOOL and request.action == Action.SHELL:
        from gitcorrex.agents.workspace_check import check_workspace

        return check_workspace(request, options, default_cwd=default_cwd, clock=clock)
    if request.event == Event.STOP:
        from gitcorrex.agents.stop_check import check_stop

        return check_stop(request, options, default_cwd=default_cwd, clock=clock)
    return ALLOW
