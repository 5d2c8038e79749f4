"""Signed ledger commits (`git config correx.sign true`) and their verification.

Signing goes through `git commit-tree -S`, so it is exactly the user's git signing setup
(`gpg.format` openpgp/ssh/x509, `user.signingKey`, `gpg.program`, agents); the ref still
moves by compare-and-swap in `notes.py`. Verification asks git (`%G?`, `%GS`, `%GK`): the
signer is the principal or key owner git verified, never the commit's committer field.
`git config correx.trustedSigners FILE` names the ssh allowed signers every trust judgement
of git correx checks against (reuse across writers, `--require-signed`, signed decisions), in
place of `gpg.ssh.allowedSignersFile`, which other git commands keep using.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gitcorrex.errors import ConfigError, GitCommandError, UnavailableError
from gitcorrex.git.config import config_flag, config_value
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository

TYPE_CHECKING = False  # the flags are read on every session-state question: no `typing`
if TYPE_CHECKING:
    from gitcorrex.git.identity import LedgerIdentity

SIGN_CONFIG = "correx.sign"
REQUIRE_CONFIG = "correx.requireSigned"
DECISIONS_CONFIG = "correx.requireSignedDecisions"
TRUSTED_SIGNERS_CONFIG = "correx.trustedSigners"


class CommitSignature:
    """git's verdict on one commit: `status` is git's %G? letter (G good, N none...).
    (A plain class: `session status` reaches this module and loads neither `typing` nor
    `dataclasses`.)"""

    __slots__ = ("commit", "key", "signer", "status")

    def __init__(self, commit: str, status: str, signer: str, key: str) -> None:
        self.commit = commit
        self.status = status
        self.signer = signer
        self.key = key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CommitSignature) and (
            self.commit, self.status, self.signer, self.key) == (
            other.commit, other.status, other.signer, other.key)

    def __hash__(self) -> int:
        return hash((self.commit, self.status, self.signer, self.key))

    def __repr__(self) -> str:
        return (f"CommitSignature(commit={self.commit!r}, status={self.status!r}, "
                f"signer={self.signer!r}, key={self.key!r})")


def is_signing_enabled(repo: Repository) -> bool:
    """`git config correx.sign` as a boolean; unset means off, a typo is an error."""
    return config_flag(repo, SIGN_CONFIG)


def is_signature_required(repo: Repository) -> bool:
    """`git config correx.requireSigned`: the CI gate counts only signed passes."""
    return config_flag(repo, REQUIRE_CONFIG)


def are_signed_decisions_required(repo: Repository) -> bool:
    """`git config correx.requireSignedDecisions`: an operator decision counts only from a
    ledger commit signed by a trusted key (ledger/decisions.py)."""
    return config_flag(repo, DECISIONS_CONFIG)


def sign_commit(repo: Repository, commit: str) -> str:
    """The same tree, parents (as the object records them), message and committer as
    `commit`, signed; a new commit id."""
    import pygit2

    from gitcorrex.git.identity import Identity, LedgerIdentity
    from gitcorrex.git.notes_history import recorded_commit

    handle = repo.shared_libgit2()
    obj, recorded = handle.get(commit), recorded_commit(handle, commit)
    if not isinstance(obj, pygit2.Commit) or recorded is None:
        raise UnavailableError(f"cannot read the ledger commit {commit} just written",
                               hint="run `git fsck` to see what the repository lacks")
    return create_signed_commit(
        repo,
        tree=str(obj.tree_id),
        parents=recorded.parents,  # as written: a graft on it would change parent_ids
        message=obj.message,
        identity=LedgerIdentity(author=Identity(obj.author.name, obj.author.email),
                                committer=Identity(obj.committer.name, obj.committer.email)),
    )


def create_signed_commit(
    repo: Repository,
    *,
    tree: str,
    parents: Sequence[str],
    message: str,
    identity: LedgerIdentity,
) -> str:
    """A commit signed with the user's signing key; nothing moves any ref."""
    author, committer = identity.author, identity.committer
    env = {"GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email,
           "GIT_COMMITTER_NAME": committer.name, "GIT_COMMITTER_EMAIL": committer.email}
    args = ["commit-tree", "-S", tree, "-m", message]
    for parent in parents:
        args += ["-p", parent]
    try:
        out = run_git(args, cwd=repo.common_dir, env=env).stdout
    except GitCommandError as exc:
        raise ConfigError(
            f"{SIGN_CONFIG} is true but git could not sign the ledger commit: "
            f"{exc.stderr.strip()}",
            hint="check gpg.format and user.signingKey (`git commit -S` must work), "
            f"or `git config {SIGN_CONFIG} false`",
        ) from exc
    return out.decode("ascii").strip()


def verify_commit_signatures(
    repo: Repository, commits: Sequence[str]
) -> dict[str, CommitSignature]:
    """git's verification of every commit in one process; {} for no commits."""
    if not commits:
        return {}
    fields = "%x1f".join(["%H", "%G?", "%GS", "%GK"])
    args = [*_trusted_signers_option(repo), "log", "--no-walk=unsorted",
            f"--format={fields}%x1e", *commits, "--"]
    out = decode_path(run_git(args, cwd=repo.common_dir).stdout)
    found: dict[str, CommitSignature] = {}
    for record in out.split("\x1e"):
        parts = record.strip("\n").split("\x1f")
        if len(parts) == 4:
            found[parts[0]] = CommitSignature(*parts)
    return found


def _trusted_signers_option(repo: Repository) -> list[str]:
    """`-c gpg.ssh.allowedSignersFile=FILE` for `correx.trustedSigners` (a relative path is
    the work tree's); [] when unset. A file that is not there is exit 2: a trust setting
    that silently trusts no one would read as "nobody signed"."""
    value = config_value(repo, TRUSTED_SIGNERS_CONFIG)
    if value is None:
        return []
    path = Path(value).expanduser()
    if not path.is_absolute():
        path = (repo.work_tree or repo.common_dir) / path
    if not path.is_file():
        raise ConfigError(f"git config {TRUSTED_SIGNERS_CONFIG}: {path} is not a file",
                          hint="name an ssh allowed signers file (`principal key` per line, "
                               f"as gpg.ssh.allowedSignersFile), or `git config --unset "
                               f"{TRUSTED_SIGNERS_CONFIG}`")
    return ["-c", f"gpg.ssh.allowedSignersFile={path}"]


def has_signature_header(repo: Repository, commit: str) -> bool:
    """Whether the commit carries a signature at all (git shows N when it cannot check)."""
    import pygit2

    obj = repo.shared_libgit2().get(commit)
    return isinstance(obj, pygit2.Commit) and obj.gpg_signature[0] is not None
