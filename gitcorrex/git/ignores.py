"""Which ignore patterns git already applies, and the repository's own exclude file.

`init` proposes ignore lines for an ecosystem's build droppings (`__pycache__/`,
`target/` …): a command that writes an un-ignored file changes the state key, so the
verification can never pass. Git decides what is ignored (`.gitignore` at any depth,
`info/exclude`, `core.excludesFile`), so we ask git, with a probe path per pattern.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gitcorrex.errors import GitCommandError
from gitcorrex.git.process import decode_path, encode_path, run_git
from gitcorrex.git.repository import Repository

_PROBE = "correx-probe"


def unignored_patterns(repo: Repository, patterns: Sequence[str]) -> list[str]:
    """The patterns whose files git would still add (a directory pattern is probed inside)."""
    probes = {_probe(pattern): pattern for pattern in patterns}
    if not probes:
        return []
    stdin = b"\0".join(encode_path(probe) for probe in probes) + b"\0"
    result = run_git(["check-ignore", "--no-index", "-z", "--stdin"], cwd=repo.root,
                     stdin=stdin, check=False)
    if result.returncode not in (0, 1):
        raise GitCommandError(["git", "check-ignore"], result.returncode,
                              decode_path(result.stderr))
    ignored = {decode_path(raw) for raw in result.stdout.split(b"\0") if raw}
    return [pattern for probe, pattern in probes.items() if probe not in ignored]


def is_tracked(repo: Repository, path: str) -> bool:
    """Whether the index holds `path` (a tracked file is never ignored, whatever the
    patterns say)."""
    listed = run_git(["ls-files", "-z", "--", ":(literal)" + path], cwd=repo.root).stdout
    return bool(listed)


def exclude_file(repo: Repository) -> Path:
    """`info/exclude` of the repository: ignored like .gitignore, never committed."""
    args = ["rev-parse", "--path-format=absolute", "--git-path", "info/exclude"]
    return Path(decode_path(run_git(args, cwd=repo.root).stdout).rstrip("\n"))


def append_excludes(repo: Repository, lines: Sequence[str], *, why: str) -> Path:
    """Append `lines` (after a `# why` comment) to the exclude file; returns its path."""
    path = exclude_file(repo)
    path.parent.mkdir(parents=True, exist_ok=True)
    before = path.read_bytes() if path.exists() else b""
    text = ("" if not before or before.endswith(b"\n") else "\n") + f"# {why}\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text + "".join(f"{line}\n" for line in lines))
    return path


def _probe(pattern: str) -> str:
    return pattern.strip("/") + "/" + _PROBE if pattern.endswith("/") else pattern.lstrip("/")
