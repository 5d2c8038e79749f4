"""When a persistent state index may be reused, and when it must be rebuilt.

The persistent index (`state_index.py`) is the user's index plus every refresh git made
since. Reusing it gives the definition's answer (`git add -A && git write-tree` on a copy of
the user's index) only while nothing changed that git's refresh does not look at:

- **the user's index** (a commit, checkout, `git add -f` of an ignored file, `rm --cached`):
  tracked-but-ignored files are kept only because the user's index tracks them; compared by
  inode, size and mtime (git rewrites the index through a new file);
- **settings that change how content is hashed or selected**: `core.autocrlf`, `core.eol`,
  `core.filemode`, `core.symlinks`, `core.ignorecase`, filters, attribute and exclude files,
  the object format — git never re-hashes a stat-clean file when they change;
- **ignore and attribute rules inside the tree** (`.gitignore`, `.gitattributes`): a file
  added while untracked stays in the persistent index after a new rule ignores it. These
  are compared between the key the index last gave and the new one (`rules_changed`): a
  tree diff limited to those names, run only when the key moved;
- **a `git gc`** (`pruning_stamp`): git's pruning protects objects the worktrees' indexes
  reference, never ours; a blob only the kept index referenced may be gone;
- **our own format or version**, and the persistent index file itself (a file someone else
  replaced or deleted).

One more record entry saves a `git write-tree` (~10 % of a key on 50,000 files): when
`git add -A` left the index exactly as the last run's write-tree saw it, the key is the
recorded one — provided no object was removed since (`object_store_stamp`): git's own
write-tree would re-check that the tree and every subtree still exist, and rewrite any
that a `git gc` pruned.

Everything is compared for equality against the record written when the index was last
used; any difference means: rebuild from the user's index, as the definition does.
"""

from __future__ import annotations

import os
from pathlib import Path

from gitcorrex import __version__
from gitcorrex.git.config import read_config
from gitcorrex.git.process import run_git
from gitcorrex.git.state_index_claim import file_stamp

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on this path
if TYPE_CHECKING:
    from typing import Any

    from gitcorrex.git.process import GitResult

RECORD_FORMAT = 3  # 2: skip-worktree probes (state_index_bits.py); 3: tracked_ignored
CONTENT_CONFIG = (
    r"^(core\.(autocrlf|eol|safecrlf|filemode|symlinks|ignorecase|precomposeunicode"
    r"|checkroundtripencoding|attributesfile|excludesfile|bigfilethreshold|untrackedcache)"
    r"|filter\..*|extensions\..*|index\..*|attr\..*)$"
)
RULE_FILES = (":(glob)**/.gitignore", ":(glob)**/.gitattributes")


def object_store_stamp(common_dir: Path) -> list[list[int]] | None:
    """The mtimes of the object directories (each fanout, `pack`, `info`): a later equal
    stamp means no object was removed since (pruning a loose object or a pack changes its
    directory). With alternates or an overridden object directory: None (never equal)."""
    if os.environ.get("GIT_OBJECT_DIRECTORY") or os.environ.get(
            "GIT_ALTERNATE_OBJECT_DIRECTORIES"):
        return None
    objects = common_dir / "objects"
    if os.path.exists(objects / "info" / "alternates"):
        return None
    try:
        entries = sorted(os.scandir(objects), key=lambda entry: entry.name)
        return [[len(entries)]] + [[entry.inode(), entry.stat().st_mtime_ns]
                                   for entry in entries if entry.is_dir()]
    except OSError:
        return None


def content_settings(root: Path, asked: GitResult | None = None) -> list[str]:
    """Every configured value that changes what `git add -A` hashes or selects, in git's
    own order (all scopes, includes and `-c` overrides as git resolves them); `asked`:
    git's `config --list` answer in `root`, started already (state_start.py)."""
    return read_config(root, asked=asked).matching(CONTENT_CONFIG)


def rule_file_stamps(common_dir: Path, settings: list[str]) -> dict[str, Any]:
    """Stamps of the ignore and attribute files outside the tree git reads."""
    paths = [common_dir / "info" / "exclude", common_dir / "info" / "attributes",
             user_rules_file(settings, "core.excludesfile", "ignore"),
             user_rules_file(settings, "core.attributesfile", "attributes")]
    return {str(path): file_stamp(path) for path in paths}


def user_rules_file(settings: list[str], key: str, xdg_name: str) -> Path:
    """The user's ignore or attributes file git reads: `key`'s value, else the XDG one."""
    configured = [entry.split("\n", 1)[1] for entry in settings
                  if entry.split("\n", 1)[0] == key and "\n" in entry]
    if configured:
        return Path(os.path.expanduser(configured[-1]))
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    return Path(xdg) / "git" / xdg_name


def trust_fingerprint(root: Path, common_dir: Path) -> dict[str, Any]:
    """What must be equal for a persistent index to be reused (see the module doc)."""
    return fingerprint_of(content_settings(root), common_dir)


def fingerprint_of(settings: list[str], common_dir: Path) -> dict[str, Any]:
    """`trust_fingerprint` from settings already read."""
    return {"format": RECORD_FORMAT, "tool": __version__, "settings": settings,
            "rules": rule_file_stamps(common_dir, settings)}


def rules_changed(root: Path, old_key: str, new_key: str) -> bool:
    """Whether any `.gitignore` or `.gitattributes` differs between two keys; a tree that
    cannot be read (pruned) counts as changed."""
    if old_key == new_key:
        return False
    args = ["diff-tree", "-r", "--name-only", "-z", "--no-renames", old_key, new_key, "--",
            *RULE_FILES]
    result = run_git(args, cwd=root, check=False, env={"GIT_LITERAL_PATHSPECS": "0"})
    return result.returncode != 0 or bool(result.stdout)
