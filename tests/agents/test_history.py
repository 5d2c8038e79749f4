"""`git correx agents history`: each completion claim in Claude Code's and Codex's own
transcripts (written here as those agents write them, into the test's HOME), judged
against the ledger: verified, stale or never ran, per agent, with the false-done rate."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from tests.conftest import run_correx, write

UNSET = ("CLAUDE_CONFIG_DIR", "CODEX_HOME")


def stamp(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


def claude_line(kind: str, at: datetime, root: Path, content: Any) -> dict[str, Any]:
    """One line of a Claude Code transcript (~/.claude/projects/<escaped cwd>/<id>.jsonl)."""
    line: dict[str, Any] = {"parentUuid": None, "isSidechain": False, "userType": "external",
                            "cwd": str(root), "sessionId": "5f1c0d2e-claude", "version": "2.1.50",
                            "gitBranch": "main", "type": kind, "uuid": f"u-{at.timestamp()}",
                            "timestamp": stamp(at)}
    if kind == "user":
        line["message"] = {"role": "user", "content": content}
    else:
        line["message"] = {"id": "msg_01", "type": "message", "role": "assistant",
                           "model": "claude-sonnet-4-5", "content": content,
                           "stop_reason": "end_turn",
                           "usage": {"input_tokens": 10, "output_tokens": 5}}
        line["requestId"] = "req_01"
    return line


def text(said: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": said}]


def write_tool(root: Path) -> list[dict[str, Any]]:
    return [{"type": "tool_use", "id": "toolu_01", "name": "Write",
             "input": {"file_path": str(root / "src" / "app.py"), "content": "VALUE = 9\n"}}]


def save_claude(home: Path, root: Path, lines: list[dict[str, Any]], name: str) -> None:
    folder = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(root.resolve()))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))


def codex_line(kind: str, at: datetime, payload: dict[str, Any]) -> dict[str, Any]:
    """One line of a Codex rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl)."""
    return {"timestamp": stamp(at), "type": kind, "payload": payload}


def save_codex(home: Path, started: datetime, lines: list[dict[str, Any]]) -> None:
    folder = home / ".codex" / "sessions" / f"{started:%Y/%m/%d}"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"rollout-{started:%Y-%m-%dT%H-%M-%S}-0199a1b2-c3d4.jsonl"
    (folder / name).write_text("".join(json.dumps(x) + "\n" for x in lines))


def codex_session(root: Path, start: datetime, patch: bool, said: str) -> list[dict[str, Any]]:
    lines = [codex_line("session_meta", start, {
                 "id": "0199a1b2-c3d4", "timestamp": stamp(start), "cwd": str(root),
                 "originator": "codex_cli_rs", "cli_version": "0.65.0", "instructions": None,
                 "source": "cli", "git": {}}),
             codex_line("turn_context", start, {"cwd": str(root), "approval_policy": "never",
                                                "model": "gpt-5-codex"}),
             codex_line("event_msg", start, {"type": "user_message", "message": "add it",
                                             "kind": "plain"})]
    if patch:
        lines.append(codex_line("response_item", start + timedelta(seconds=20), {
            "type": "custom_tool_call", "status": "completed", "call_id": "call_1",
            "name": "apply_patch", "input": "*** Begin Patch\n*** End Patch\n"}))
    lines += [codex_line("response_item", start + timedelta(seconds=30), {
                  "type": "message", "role": "assistant",
                  "content": [{"type": "output_text", "text": said}]}),
              codex_line("event_msg", start + timedelta(seconds=31), {
                  "type": "task_complete", "turn_id": "turn-1", "last_agent_message": said})]
    return lines


def history(root: Path, *args: str) -> dict[str, Any]:
    result = run_correx(root, "agents", "history", "--json", *args, unset=UNSET)
    assert result.code == 0, result
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def scenario(project: Path) -> tuple[Path, datetime]:
    """Claude: a claim on a verified tree, then one after an edit with no new run, and a
    question (no claim); Codex: a claim after a patch with no run at all; and a
    conversation in another directory. Returns HOME and the time of the verify."""
    home = Path.home()
    start = datetime.now(timezone.utc) - timedelta(hours=1)
    write(project, "src/app.py", "VALUE = 2\n")
    assert run_correx(project, "verify", "--stage", "implement", "--quiet").code == 0
    ran = datetime.now(timezone.utc)
    minute = timedelta(minutes=1)
    save_claude(home, project, [
        claude_line("user", start, project, "make VALUE 2"),
        claude_line("assistant", start + minute, project, write_tool(project)),
        claude_line("user", start + 2 * minute, project,
                    [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "ok"}]),
        claude_line("assistant", ran + minute, project, text("Done: VALUE is 2, tests pass.")),
        claude_line("user", ran + 2 * minute, project, "now make it 9"),
        claude_line("assistant", ran + 3 * minute, project, write_tool(project)),
        claude_line("assistant", ran + 4 * minute, project, text("Fixed, it is 9 now.")),
        claude_line("user", ran + 5 * minute, project, "and the docs?"),
        claude_line("assistant", ran + 6 * minute, project, text("Which format do you want?")),
    ], "5f1c0d2e-claude")
    save_claude(home, project.parent / "elsewhere", [
        claude_line("user", start, project.parent / "elsewhere", "hi"),
        claude_line("assistant", ran + minute, project.parent / "elsewhere", text("Done."))],
        "other")
    save_codex(home, ran + 10 * minute, codex_session(project, ran + 10 * minute, True,
                                                       "Implemented the feature."))
    save_codex(home, ran + 20 * minute, codex_session(project.parent / "elsewhere",
                                                       ran + 20 * minute, True, "Done."))
    return home, ran


def test_each_claim_is_judged_and_counted_per_agent(project: Path) -> None:
    scenario(project)
    document = history(project)
    outcomes = [(c["agent"], c["outcome"], c["message"]) for c in document["claims"]]
    assert outcomes == [
        ("claude-code", "verified", "Done: VALUE is 2, tests pass."),
        ("claude-code", "stale", "Fixed, it is 9 now."),
        ("codex", "never ran", "Implemented the feature.")]
    claude, codex = document["agents"]
    assert (claude["agent"], claude["claims"], claude["false_done"]) == ("claude-code", 2, 1)
    assert (codex["claims"], codex["never_ran"], codex["false_done_rate"]) == (1, 1, 1.0)
    total = document["total"]
    assert (total["claims"], total["verified"], total["stale"], total["never_ran"]) == \
        (3, 1, 1, 1)


def test_agent_and_since_narrow_the_claims(project: Path) -> None:
    _, ran = scenario(project)
    only = history(project, "--agent", "codex")
    assert [c["agent"] for c in only["claims"]] == ["codex"]
    later = history(project, "--since", stamp(ran + timedelta(minutes=2)))
    assert [c["outcome"] for c in later["claims"]] == ["stale", "never ran"]


def test_the_text_report_names_the_false_done_rate(project: Path) -> None:
    scenario(project)
    result = run_correx(project, "agents", "history", unset=UNSET)
    assert result.code == 0, result
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["agent", "claims", "verified", "stale", "never", "ran",
                                "false-done"]
    assert lines[3].split()[:5] == ["total", "3", "1", "1", "1"] and "67% (2 of 3)" in lines[3]


def test_transcript_directories_can_be_given(project: Path, tmp_path: Path) -> None:
    scenario(project)
    elsewhere = tmp_path / "moved"
    (Path.home() / ".codex").rename(elsewhere)
    assert [c["agent"] for c in history(project)["claims"]] == ["claude-code"] * 2
    moved = history(project, "--codex-dir", str(elsewhere / "sessions"))
    assert [c["agent"] for c in moved["claims"]][-1] == "codex"
    env = run_correx(project, "agents", "history", "--json", "--agent", "codex",
                     env={"CODEX_HOME": str(elsewhere)})
    assert len(json.loads(env.stdout)["claims"]) == 1


def test_a_bad_since_is_a_usage_error(project: Path) -> None:
    result = run_correx(project, "agents", "history", "--since", "last week", unset=UNSET)
    assert result.code == 2 and "--since 'last week'" in result.stderr, result


def test_malformed_transcript_lines_are_skipped(project: Path) -> None:
    home, _ = scenario(project)
    folder = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-",
                                                    str(project.resolve()))
    with (folder / "5f1c0d2e-claude.jsonl").open("a") as handle:
        handle.write("not json\n[1]\n{\"type\": \"assistant\", \"timestamp\": 5}\n")
    assert len(history(project)["claims"]) == 3
