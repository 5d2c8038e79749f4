"""Git's own answer to "where is the repository?", as plain strings.

`repository.discover` asks it and builds a Repository; `state_start.py` asks the same
question before `pathlib` (~3 ms) has loaded, so the answer is parsed here, in one place.
"""

from __future__ import annotations

from gitcorrex.git.process import decode_path

DISCOVERY_ARGS = ("rev-parse", "--path-format=absolute", "--absolute-git-dir", "--git-common-dir",
                  "--is-bare-repository", "--show-object-format", "--show-toplevel")


def discovered_dirs(out: bytes) -> tuple[str, str, str | None, str]:
    """Git dir, common dir, work tree (None: bare) and object format from git's answer to
    `DISCOVERY_ARGS`."""
    lines = decode_path(out).split("\n")
    git_dir, common_dir, is_bare, object_format = lines[0], lines[1], lines[2], lines[3]
    top = lines[4] if len(lines) > 4 and lines[4] else None
    return git_dir, common_dir, None if is_bare == "true" else top, object_format
