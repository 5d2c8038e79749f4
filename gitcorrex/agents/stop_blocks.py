"""The Stop gate's block cap: how often one conversation was kept working on one tree.

A Stop gate that can never be satisfied (a check the agent cannot fix, a flaky suite) would
keep an agent busy forever, one user prompt after another; hosts cap their own loops
(`stop_hook_active`, Cursor's `loop_limit`), and so does this gate. Blocks are counted per
(the agent's conversation id, state key) in `<git common dir>/correx/stop-blocks.json`
(written atomically; never in the work tree, never committed; the newest `KEEP` pairs are
kept). Once a pair has been blocked `correx.stopBlockCap` times (git config; default 3; 0
turns the cap off) the next Stop on it is let through with a notice for the person that the
cap was reached and the tree is NOT verified. Nothing is recorded in the ledger about that
release: no event describes it, and the tree's missing pass (or its open test weakening)
stays exactly as visible to `report`, `check` and the settlement as before. A change of
tree starts a new count. The cap is git configuration an agent's shell cannot change
(`correx.*` is refused before it runs: agents/config_calls.py).
"""

from __future__ import annotations

import json

from gitcorrex.agents.request import HookRequest, Verdict
from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, config_value, read_local_state, write_local_state

STOP_BLOCKS = "stop-blocks.json"
CAP_CONFIG = "correx.stopBlockCap"
DEFAULT_CAP = 3
KEEP = 256
MAX_CONVERSATION = 200


def capped_block(repo: Repository, request: HookRequest, state_key: str,
                 block: Verdict) -> Verdict:
    """`block` counted against the cap, or past the cap an allow with the notice."""
    cap = block_cap(repo)
    key = f"{(request.conversation or '')[:MAX_CONVERSATION]} {state_key}"
    counts = _read_counts(repo)
    done = counts.pop(key, 0)
    if cap and done >= cap:
        counts[key] = done
        return Verdict(False, notice=_released(done, state_key, block.reason))
    counts[key] = done + 1
    _write_counts(repo, counts)
    suffix = f"  (Stop block {done + 1} of {cap} on this state)\n" if cap else ""
    return Verdict(True, block.reason + suffix)


def block_cap(repo: Repository) -> int:
    """`correx.stopBlockCap`, else 3; a value that is not a whole number ≥ 0 is exit 2."""
    text = config_value(repo, CAP_CONFIG)
    if text is None or text == "":
        return DEFAULT_CAP
    if not text.strip().isdigit():
        raise ConfigError(f"git config {CAP_CONFIG} is {text!r}, not a whole number",
                          hint=f"`git config {CAP_CONFIG} 3` (0 turns the cap off)")
    return int(text)


def _released(done: int, state_key: str, reason: str, lines: int = 8) -> str:
    wrong = [f"  | {line}" for line in reason.strip().splitlines()[:lines]]
    return "\n".join([
        f"git correx: the Stop gate kept this conversation working {done} time(s) on state "
        f"{state_key[:12]}, the cap ({CAP_CONFIG}, default {DEFAULT_CAP}); it lets the turn "
        "end, but the tree is NOT verified. What was still wrong:", *wrong,
        "  (this release is not recorded in the ledger; `git correx report` and `check` "
        "still see the tree as unverified)"]) + "\n"


def _read_counts(repo: Repository) -> dict[str, int]:
    """The counts, oldest first; a missing or unreadable file counts nothing."""
    text = read_local_state(repo, STOP_BLOCKS)
    try:
        blocks = json.loads(text)["blocks"] if text else {}
    except (ValueError, KeyError, TypeError):
        return {}
    if not isinstance(blocks, dict):
        return {}
    return {str(key): value for key, value in blocks.items()
            if isinstance(value, int) and not isinstance(value, bool)}


def _write_counts(repo: Repository, counts: dict[str, int]) -> None:
    kept = dict(list(counts.items())[-KEEP:])
    write_local_state(repo, STOP_BLOCKS,
                      json.dumps({"v": 1, "blocks": kept}, ensure_ascii=True) + "\n")
