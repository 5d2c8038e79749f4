"""The text of a starter `.correx.toml`, every entry explained where the operator reads it."""

from __future__ import annotations

import json

from gitcorrex.profiles.detect import Detection

HEADER = """\
# git correx profile: the only commands git correx will ever run, and which of them must
# pass before a workspace state counts as known-good.
# {origin}
version = 1

# [commands] name = "program and arguments". The line is split into arguments like a
# shell would split it (shlex), but it is NEVER run by a shell: no pipes, `&&`, globs or
# $VARS. Put anything fancier in a script and name the script here.
# Table form: name = {{ run = "...", timeout = "10m", requires = ["path/in/repo"] }}
#   timeout   kill the command after this long (seconds, or "90s", "10m", "1h30m")
#   requires  paths that must exist first; if one is missing the result is
#             "unavailable" (exit 3), never "fail"
# Build outputs (such as __pycache__/, target/, node_modules/) MUST be gitignored: a
# command that changes the workspace (and so its state key) can never count as a pass.{outputs}
[commands]
"""

BODY = """
# [expectations] name = ["command", ...]: all must pass, in order.
# Table form adds a setup command that runs first, only for this expectation:
#   full = {{ commands = ["build", "test"], setup = "setup" }}
# An empty list runs nothing and records no build claim (e.g. docs-only changes);
# the name "none" is built in and means the same.
[expectations]
{expectations}docs = []

[defaults]
{default}timeout = "30m"        # per-command timeout unless the command sets its own
output_cap = "8MiB"    # full output is kept as a git blob up to this size

# [stages.NAME] the policy for one orchestrator stage:
#   build_expectation  verified after the stage writes (else defaults.expectation)
#   writes             gitignore-style globs the stage may write; "/" anchors at the root
#   max_attempts       tries the stage gets before it fails (at least 1)
[stages.implement]
{stage}writes = ["/**"]
max_attempts = 3

[stages.docs]
build_expectation = "docs"
writes = ["/docs/**", "/*.md"]
max_attempts = 3
"""


def render_profile(detection: Detection | None) -> str:
    """A profile that loads as-is; with nothing detected, its commands are commented out."""
    if detection is None:
        return _generic()
    commands = {"build": detection.build, "test": detection.test}
    names = [name for name, run in commands.items() if run]
    lines = [f"{name} = {_quote(run)}" for name, run in commands.items() if run]
    if detection.setup:
        lines.append(f"# setup = {_quote(detection.setup)}"
                     "   # e.g. full = { commands = [...], setup = \"setup\" }")
    origin = f"Detected: {detection.ecosystem} ({detection.evidence}); edit freely."
    outputs = f"\n# For this project, ignore: {' '.join(detection.outputs)}" \
        if detection.outputs else ""
    head = HEADER.format(origin=origin, outputs=outputs)
    body = BODY.format(expectations=f"test = {_quote(names)}\n",
                       default='expectation = "test"   # when neither --expect nor a stage '
                               "names one\n",
                       stage='build_expectation = "test"\n')
    return head + "\n".join(lines) + "\n" + body


def _generic() -> str:
    origin = "No build system was recognised: fill in [commands], then uncomment the rest."
    head = HEADER.format(origin=origin, outputs="")
    commands = '# build = "make"\n# test = "make test"\n'
    body = BODY.format(expectations='# test = ["build", "test"]\n',
                       default='# expectation = "test"   # when neither --expect nor a '
                               "stage names one\n",
                       stage='# build_expectation = "test"\n')
    return head + commands + body


def _quote(value: object) -> str:
    """A TOML string or array of strings (JSON's escapes are valid TOML basic strings)."""
    return json.dumps(value, ensure_ascii=False)
