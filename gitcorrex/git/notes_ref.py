"""The ledger's ref: its name (`git config correx.ref`), the merge strategy git must use
for it, and what to say when writers keep it from moving. No libgit2: both storage engines
(`notes_libgit2.py` and `notes_plumbing.py`) use these."""

from __future__ import annotations

from gitcorrex.errors import ConfigError, LedgerContentionError
from gitcorrex.git.config import set_config_if_unset
from gitcorrex.git.repository import Repository


def ensure_merge_strategy(repo: Repository, ref: str) -> None:
    """Set notes.<name>.mergeStrategy=cat_sort_uniq when unset: the one lossless merge.

    Another process may hold the config lock right now; it is setting the same value, and
    the next append checks again, so a locked config is not an error.
    """
    key = f"notes.{ref.removeprefix('refs/notes/')}.mergeStrategy"
    set_config_if_unset(repo, key, "cat_sort_uniq")


def invalid_ref_error(value: str) -> ConfigError:
    """What a `correx.ref` git cannot use is told (both writers say it the same way)."""
    return ConfigError(f"git config correx.ref: {value!r} is not a valid ref name",
                       hint="set it to a name like `correx` or `refs/notes/correx`")


def contention_error(repo: Repository, ref: str, attempts: int) -> LedgerContentionError:
    """Name a left-over lock file; never remove it ourselves (its owner may be alive)."""
    locks = [repo.common_dir / f"{ref}.lock", repo.common_dir / "packed-refs.lock"]
    held = next((path for path in locks if path.exists()), None)
    if held is None:
        return LedgerContentionError(
            f"could not update {ref} after {attempts} attempts: other writers kept moving "
            "it; nothing was recorded",
            hint="retry; if it persists, find the looping writer",
        )
    return LedgerContentionError(
        f"could not update {ref} after {attempts} attempts: lock file {held} exists; "
        "nothing was recorded",
        hint=f"if no git or git correx process is running, delete {held} and retry",
    )
