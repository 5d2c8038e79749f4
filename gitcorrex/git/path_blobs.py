"""The blob one path holds in many trees.

Asked by every reader that binds a pass to the profile its tree holds (`log` over a
thousand commits among them): one `git cat-file --batch-check` for all the trees. No
`typing` and no libgit2 here, so the stored-status `log` stays as light as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.git.process import encode_path, run_git
from gitcorrex.git.repository import Repository


def blobs_at(repo: Repository, trees: Sequence[str], path: str) -> dict[str, str | None]:
    """tree → the id of the blob at `path` in it; None where it holds none there (no such
    entry, or a tree or gitlink at that path)."""
    wanted = list(dict.fromkeys(trees))
    if not wanted:
        return {}
    stdin = b"".join(encode_path(f"{tree}:{path}") + b"\n" for tree in wanted)
    out = run_git(["cat-file", "--batch-check=%(objectname) %(objecttype)"],
                  cwd=repo.work_tree or repo.git_dir, stdin=stdin).stdout
    found: dict[str, str | None] = {}
    for tree, line in zip(wanted, out.split(b"\n"), strict=False):
        fields = line.decode("ascii", "replace").split(" ")
        found[tree] = fields[0] if len(fields) == 2 and fields[1] == "blob" else None
    return {tree: found.get(tree) for tree in wanted}
