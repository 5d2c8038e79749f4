"""Decisions reserved to people: the commands that record them, the git configuration that
governs them, and the events they are recorded as. One table, read by every layer that keeps
them out of an agent's reach (docs/plan-authority.md, "Operator decisions"):

1. the installed agent hooks deny a shell call that runs one (agents/shell_calls.py reads
   the call's text against this table, and against PROTECTED_SECTIONS for `git config`);
2. the command refuses to run inside a known agent runtime (cli/operator_guard.py matches
   its own arguments with `operator_command`);
3. with `correx.requireSignedDecisions`, an event a command here records counts only from a
   ledger commit signed by a trusted key (ledger/decisions.py reads `DECISION_FIELDS`).

Plain values and no imports: the agent hook reads this on every shell call of a session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class OperatorCommand(NamedTuple):
    """`git correx WORDS` (with `flag`, when only that form decides), recorded as an event of
    kind `records`; `field` names the payload field that holds the decision when the event
    also records other things (a lock's `baseline_unverified`). `records` is None for a
    command whose event this table does not know yet (it then counts in layers 1 and 2)."""

    words: tuple[str, ...]
    records: str | None
    flag: str | None = None
    field: str | None = None

    @property
    def name(self) -> str:
        """How a person types it: `git correx plan lock --baseline-unverified`."""
        return " ".join(("git correx", *self.words, *((self.flag,) if self.flag else ())))

    @property
    def keyword(self) -> str:
        """The word that makes a shell text suspect: the flag's name, else the last word."""
        return (self.flag or self.words[-1]).lstrip("-")


OPERATOR_COMMANDS: tuple[OperatorCommand, ...] = (
    OperatorCommand(("plan", "authorize"), "plan_authorized"),
    OperatorCommand(("plan", "audit"), "plan_risk_audited"),
    OperatorCommand(("plan", "route"), "plan_routed"),
    # every pause `resume` ends was placed by someone else: an operator or the arbiter
    OperatorCommand(("resume",), "session_resumed"),
    OperatorCommand(("session", "clarify"), "precondition_clarified"),
    OperatorCommand(("session", "adopt"), "changes_adopted"),
    OperatorCommand(("step", "review"), "step_reviewed"),
    OperatorCommand(("accept-tests",), "test_integrity_accepted"),
    OperatorCommand(("plan", "lock"), "plan_locked", flag="--baseline-unverified",
                    field="baseline_unverified"),
    # a re-plan adopts a new plan and profile for a running session (docs/sessions.md)
    OperatorCommand(("plan", "lock"), None, flag="--replaces"),
)

# Git configuration sections only people change: git correx's own keys (its gates and the
# signed-decision switch), git's signature trust (which keys count), and includes (a file
# whose keys would enter any of them).
PROTECTED_SECTIONS = frozenset({"correx", "gpg", "include", "includeif"})

# event kind → the payload field that holds the decision (None: the whole event is one)
DECISION_FIELDS: dict[str, str | None] = {
    c.records: c.field for c in OPERATOR_COMMANDS if c.records is not None}


def operator_command(argv: Sequence[str]) -> OperatorCommand | None:
    """The operator command `argv` (the arguments after `git correx`) runs, or None. The
    command's words are its first arguments that are not options (the root group and the
    command groups take no option with a value); a flagged form needs its flag anywhere."""
    words = tuple(arg for arg in argv if not arg.startswith("-"))
    for command in OPERATOR_COMMANDS:
        if words[:len(command.words)] == command.words and \
                (command.flag is None or has_flag(argv, command.flag)):
            return command
    return None


def has_flag(argv: Sequence[str], flag: str) -> bool:
    """`flag` given alone or as `flag=VALUE` (how click also reads an option's value)."""
    return any(arg == flag or arg.startswith(f"{flag}=") for arg in argv)


def is_protected_key(key: str) -> bool:
    """Whether a git configuration key (or section) is one only people change; sections
    are case-insensitive in git (`CORREX.x` is `correx.x`)."""
    return key.split(".", 1)[0].strip().lower() in PROTECTED_SECTIONS
