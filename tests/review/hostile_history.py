"""A history of hostile facts for `git correx report`, and the Markdown report of it that
tests/review/snapshots/report_hostile.md holds.

Shared by the snapshot test, which only compares, and by the script that regenerates the
snapshot by hand (tests/review/snapshots/regenerate.py): a test never rewrites what it checks.
"""

from __future__ import annotations

from pathlib import Path

from gitcorrex.git import write_blob
from tests.conftest import git, in_process, run_correx, write
from tests.ledger_facts import assessment_draft, raw_draft, record, verification_draft

SNAPSHOT = Path(__file__).parent / "snapshots" / "report_hostile.md"
HOSTILE_FILE = "docs/<img src=x onerror=alert(1)>.md"
PIPE_FILE = "a|b*c_[x](http://evil.test)`.md"
BIDI_FILE = "src/\u202eevil\u2066.txt"
HOSTILE_SUBJECT = ("fix: </details><script>alert(1)</script> @admin "
                   "[click](javascript:alert(1)) | \u202egnp.exe")
HOSTILE_TAIL = ("collected 3 items\n</pre></details><h1>pwned</h1>\n"
                "\x1b[31mFAILED\x1b[0m tests/test_x.py::test_\u202eevil ```\n\n# not a heading\n")


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD^{tree}").strip()


def build_history(repo: Path) -> str:
    """Three commits: verified and in a session; failing with hostile facts; unverified."""
    base = git(repo, "rev-parse", "HEAD").strip()
    handle = in_process(repo)
    write(repo, "src/app.py", "print('ok')\n")
    first = commit_all(repo, "add the app")
    record(repo, verification_draft(handle, first, "pass", session="run-42"), seconds=1)
    write(repo, HOSTILE_FILE, "x\n")
    write(repo, PIPE_FILE, "x\n")
    write(repo, BIDI_FILE, "x\n")
    second = commit_all(repo, HOSTILE_SUBJECT)
    plan = write_blob(handle, b'{"plan": "demo"}\n')
    grounding = raw_draft("plan_grounding_evaluated", (second, plan), {
        "plan": plan, "plan_id": "plan_*1*", "verdict": "return_to_architect",
        "findings": [{"check": "path", "step": "s1", "subject": HOSTILE_FILE,
                      "status": "absent", "route": "return_to_architect", "paths": [],
                      "candidates": [], "detail": None}],
        "profile": plan, "index": None, "extractors": {}}, state_key=second)
    brief = write_blob(handle, b'{"requirements": []}\n')
    gate = raw_draft("brief_grounding_checked", (second,), {
        "artifacts": {"brief": brief}, "references_omitted": 0, "missing": 1, "passed": False,
        "references": [{"path": PIPE_FILE, "artifact": "brief", "where": "requirements[0]",
                        "status": "absent"}]}, state_key=second, anchors={brief: "blob"})
    record(repo, verification_draft(handle, second, "fail", tail=HOSTILE_TAIL),
           assessment_draft(second, [HOSTILE_FILE, PIPE_FILE, BIDI_FILE]), grounding, gate,
           seconds=2)
    write(repo, "late.txt", "late\n")
    commit_all(repo, "unverified tail commit")
    return base


def hostile_report(repo: Path) -> str:
    """`report BASE..HEAD --format markdown` over `build_history` in `repo` (a repository
    with one commit), the base commit spelled BASE: what the snapshot holds."""
    base = build_history(repo)
    result = run_correx(repo, "report", f"{base}..HEAD", "--format", "markdown")
    if result.code != 0:
        raise AssertionError(str(result))
    return result.stdout.replace(base, "BASE")
