"""The options and arguments of the commands `cli/startup.py` answers before click loads,
as plain data read by `cli/option_parser.py`. Generated from the click commands by
`python -m gitcorrex.cli.option_table_source` (tests/cli/test_option_table.py fails when it is
stale): change the click declaration, never this file.
"""

from __future__ import annotations

TYPE_CHECKING = False  # no `typing` at run time on the start-up path
if TYPE_CHECKING:
    from gitcorrex.cli.option_parser import Grammar

COMMANDS: dict[tuple[str, ...], Grammar] = {
    ("state",): {
        "options": {
            "--json": ("as_json", "flag", True),
            "-h": ("", "click", None),
            "--help": ("", "click", None),
        },
        "arguments": (),
        "defaults": {
            "as_json": False,
        },
        "required": (),
        "multiple": (),
        "choices": {},
        "ints": {},
        "ignore_unknown_options": False,
    },
    ("verify",): {
        "options": {
            "--stage": ("stage", "value", None),
            "--expect": ("expect", "value", None),
            "--session": ("session", "value", None),
            "--reuse": ("reuse", "flag", True),
            "--isolated": ("isolated", "flag", True),
            "--profile-from": ("profile_from", "value", None),
            "--artifact": ("artifacts", "value", None),
            "--quiet": ("quiet", "flag", True),
            "-q": ("quiet", "flag", True),
            "--json": ("as_json", "flag", True),
            "-h": ("", "click", None),
            "--help": ("", "click", None),
        },
        "arguments": (),
        "defaults": {
            "stage": None,
            "expect": None,
            "session": None,
            "reuse": False,
            "isolated": False,
            "profile_from": None,
            "artifacts": (),
            "quiet": False,
            "as_json": False,
        },
        "required": (),
        "multiple": ("artifacts",),
        "choices": {},
        "ints": {},
        "ignore_unknown_options": False,
    },
    ("session", "status"): {
        "options": {
            "--json": ("as_json", "flag", True),
            "-h": ("", "click", None),
            "--help": ("", "click", None),
        },
        "arguments": (("session_id", 1),),
        "defaults": {
            "session_id": None,
            "as_json": False,
        },
        "required": (),
        "multiple": (),
        "choices": {},
        "ints": {},
        "ignore_unknown_options": False,
    },
    ("log",): {
        "options": {
            "-n": ("limit", "value", None),
            "--max-count": ("limit", "value", None),
            "--all": ("show_all", "flag", True),
            "--verify-signatures": ("verify_signatures", "flag", True),
            "--json": ("as_json", "flag", True),
            "-h": ("", "click", None),
            "--help": ("", "click", None),
        },
        "arguments": (("revisions", -1),),
        "defaults": {
            "revisions": (),
            "limit": None,
            "show_all": False,
            "verify_signatures": False,
            "as_json": False,
        },
        "required": (),
        "multiple": ("revisions",),
        "choices": {},
        "ints": {
            "limit": (1, None),
        },
        "ignore_unknown_options": False,
    },
    ("assess",): {
        "options": {
            "--stage": ("stage", "value", None),
            "--session": ("session", "value", None),
            "--record-all": ("record_all", "flag", True),
            "--hook": ("hook", "value", None),
            "--json": ("as_json", "flag", True),
            "-h": ("", "click", None),
            "--help": ("", "click", None),
        },
        "arguments": (("action", 1), ("paths", -1)),
        "defaults": {
            "action": None,
            "paths": (),
            "stage": None,
            "session": None,
            "record_all": False,
            "hook": None,
            "as_json": False,
        },
        "required": (),
        "multiple": ("paths",),
        "choices": {
            "action": ("write", "read"),
            "hook": (
                "claude-code",
                "codex",
                "gemini",
                "cursor",
                "copilot-cli",
            ),
        },
        "ints": {},
        "ignore_unknown_options": False,
    },
    ("hook", "run"): {
        "options": {
            "-h": ("", "click", None),
            "--help": ("", "click", None),
        },
        "arguments": (("name", 1), ("args", -1)),
        "defaults": {
            "name": None,
            "args": (),
        },
        "required": ("name",),
        "multiple": ("args",),
        "choices": {
            "name": ("pre-commit", "pre-merge-commit", "pre-push"),
        },
        "ints": {},
        "ignore_unknown_options": True,
    },
}
