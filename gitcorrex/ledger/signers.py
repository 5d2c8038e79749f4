"""Who vouches for a recorded fact: the verified signer of the ledger commit that added it
(a pass for `check --require-signed`, an operator decision for signed decisions:
ledger/decisions.py).

The signer comes from git's verification of that commit (the ssh principal from
`gpg.ssh.allowedSignersFile`, or the OpenPGP key's user id), never from the committer
field, which anyone can set to any name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from gitcorrex.git import (
    CommitSignature,
    Repository,
    has_signature_header,
    introducing_commit,
    verify_commit_signatures,
)

_WHY = {  # what a state means, after "the ledger commit that added it"
    "unsigned": "is unsigned",
    "unverifiable": "is signed, but git cannot check the signature (no allowed signers "
                    "file or key for it)",
    "untrusted": "is signed by a key git does not trust (not in the allowed signers, "
                 "correx.trustedSigners or gpg.ssh.allowedSignersFile, nor a trusted "
                 "OpenPGP key)",
    "bad": "carries a bad signature",
    "expired": "is signed with an expired signature",
    "expired-key": "is signed with an expired key",
    "revoked": "is signed with a revoked key",
}
K = TypeVar("K")
_STATES = {"G": "verified", "U": "untrusted", "B": "bad", "X": "expired", "Y": "expired-key",
           "R": "revoked", "E": "unverifiable", "N": "unsigned"}


@dataclass(frozen=True)
class Signer:
    """`state` is verified, untrusted, bad, expired, revoked, unverifiable or unsigned;
    `signer`/`key` are set only when git verified the signature (verified or untrusted)."""

    commit: str | None
    state: str
    signer: str | None
    key: str | None

    def describe(self) -> str:
        if self.signer is not None:
            return f"{self.state} signer {self.signer} key {self.key}"
        return self.state

    def why(self) -> str:
        """What is wrong with the commit, after "ledger commit X, which …"."""
        return _WHY.get(self.state, "cannot be verified")

    def as_dict(self) -> dict[str, str | None]:
        return {"ledger_commit": self.commit, "state": self.state, "signer": self.signer,
                "key": self.key}


def signers_of(repo: Repository, tip: str | None, wanted: Mapping[str, str]) -> dict[str, Signer]:
    """tree → the signer of the ledger commit that recorded event `wanted[tree]` on it."""
    if tip is None:
        return {}
    return commit_signers(repo, {tree: introducing_commit(repo, tip, tree, _needle(event))
                                 for tree, event in wanted.items()})


def event_signers(repo: Repository, tip: str | None, subject: str,
                  events: Sequence[str]) -> dict[str, Signer]:
    """event id → the signer of the ledger commit that added that event to `subject`'s note."""
    return commit_signers(repo, adding_commits(repo, tip, subject, events))


def adding_commits(repo: Repository, tip: str | None, subject: str,
                   events: Sequence[str]) -> dict[str, str | None]:
    """event id → the ledger commit that added it to `subject`'s note (None: it cannot be
    traced, e.g. a shallow ledger); {} without a tip."""
    if tip is None:
        return {}
    return {event: introducing_commit(repo, tip, subject, _needle(event)) for event in events}


def commit_signers(repo: Repository, commits: Mapping[K, str | None]) -> dict[K, Signer]:
    """key → git's verdict on the signature of `commits[key]`, all checked in one process."""
    checks = verify_commit_signatures(repo, sorted({c for c in commits.values() if c}))
    return {key: _signer(repo, commit, checks.get(commit or ""))
            for key, commit in commits.items()}


def _needle(event: str) -> bytes:
    return f'"id":"{event}"'.encode()


def _signer(repo: Repository, commit: str | None, check: CommitSignature | None) -> Signer:
    if commit is None or check is None:
        return Signer(commit, "unverifiable", None, None)
    state = _STATES.get(check.status, "unverifiable")
    if state == "unsigned" and has_signature_header(repo, commit):
        state = "unverifiable"  # signed, but git has no key or allowed signers to check it
    if state in ("verified", "untrusted") and check.signer:
        return Signer(commit, state, check.signer, check.key or None)
    return Signer(commit, state, None, None)
