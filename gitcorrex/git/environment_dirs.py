"""Environment directories git would add to a state key, found through git.

Two questions, one classifier (`model/environment_dirs.py`): which untracked, un-ignored
directories of the work tree hold an environment (`init` excludes them, `doctor` names
them), and which ones a state tree adds beyond HEAD (`verify` names them). A directory
that holds a tracked (or committed) file is never reported: excluding it would not take
its tracked files out of the key, and the project chose to track them.
"""

from __future__ import annotations

from gitcorrex.git.changes import changed_paths
from gitcorrex.git.objects import lookup_objects
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository
from gitcorrex.model.environment_dirs import EnvironmentDir, environment_dirs_in


def untracked_environment_dirs(repo: Repository) -> list[EnvironmentDir]:
    """The work tree's environment directories holding only untracked, un-ignored files
    (what `git add -A` would add); [] for none."""
    args = ["ls-files", "-z", "--others", "--exclude-standard", "--full-name"]
    out = run_git(args, cwd=repo.root).stdout
    found = environment_dirs_in(decode_path(raw) for raw in out.split(b"\0") if raw)
    found = [found_dir for found_dir in found if "\n" not in found_dir.path]
    if not found:
        return []
    specs = [f":(literal){found_dir.path}/" for found_dir in found]
    tracked = run_git(["ls-files", "-z", "--cached", "--", *specs], cwd=repo.root).stdout
    holders = [decode_path(raw) for raw in tracked.split(b"\0") if raw]
    return [found_dir for found_dir in found
            if not any(path.startswith(found_dir.path + "/") for path in holders)]


def environment_dirs_added(repo: Repository, head_tree: str | None,
                           state_key: str) -> list[EnvironmentDir]:
    """The environment directories `state_key` holds and `head_tree` (None: unborn) does
    not hold at all; [] when the two are the same tree."""
    if head_tree == state_key:
        return []
    found = environment_dirs_in(changed_paths(repo, head_tree, state_key))
    if head_tree is None or not found:
        return found
    in_head = lookup_objects(repo, [f"{head_tree}:{found_dir.path}" for found_dir in found])
    return [found_dir for found_dir, held in zip(found, in_head, strict=True) if held is None]
