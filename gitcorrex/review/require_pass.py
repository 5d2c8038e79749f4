"""`check --require-pass`: the range's head must already have a recorded pass on its tree.

For CI that trusts verifications recorded elsewhere (a developer's clone, an agent's run)
instead of running the commands again: the ledger is fetched, and only a `pass` on
exactly the head's tree, run under the profile the gate trusts (BASE's:
`trusted_profile.py`), counts; fail, unavailable, none and a pass under another profile
all fail the check.

Anyone who can push the ledger ref can append a well-formed pass line (event ids are
content hashes anyone can recompute). With signatures required (`--require-signed`,
`git config correx.requireSigned true`) an event counts only when the ledger commit that
added its line carries a signature git verifies as good by a key it trusts (`%G?` = G:
`gpg.ssh.allowedSignersFile`, or a trusted OpenPGP key); the newest such verification is
the tree's status. Unsigned or untrusted lines are ignored, so a forged line can neither
pass nor block the gate (docs/security-model.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.git import Repository, tree_of
from gitcorrex.ledger.signers import Signer, event_signers
from gitcorrex.ledger.subjects import read_subjects
from gitcorrex.model.event_order import time_order
from gitcorrex.model.note_lines import LedgerEntry, typed_events
from gitcorrex.model.observed_pass import is_observed_pass, is_under
from gitcorrex.model.verification import VerificationFields
from gitcorrex.review.tree_status import TreeStatus, tree_status, verifications
from gitcorrex.review.trusted_profile import TrustedProfile, trusted_profile


@dataclass(frozen=True)
class RequiredPass:
    """The head tree's status as the gate counts it, under the `trust`ed profile. With
    `signed`, `signer` vouches for the counted event (or is the newest refused pass's), and
    `refused` says why none counted."""

    status: TreeStatus
    trust: TrustedProfile
    signed: bool = False
    signer: Signer | None = None
    refused: str | None = None

    @property
    def ok(self) -> bool:
        return self.status.result == "pass"

    def as_dict(self) -> dict[str, object]:
        document: dict[str, object] = dict(self.status.as_dict())
        document["trusted_profile"] = self.trust.as_dict()
        if self.signed:
            document["signature"] = None if self.signer is None else self.signer.as_dict()
            document["refused"] = self.refused
        return document

    def describe(self) -> str:
        """One line for the CI log, naming the tree and, when it fails, why (and, when the
        gate was told to trust another profile than BASE's, that it was)."""
        status = self.status
        line = f"head tree {status.tree[:12]}: {status.mark} {status.result}"
        if self.trust.chosen is not None:
            line += f" (profile trusted from {self.trust.source}: --profile-from)"
        if self.ok and self.signer is not None:
            return line + f" (signed: {self.signer.describe()})"
        if self.ok:
            return line
        if self.refused:
            return line + f" (a signed pass is required: {self.refused})"
        required = "a signed pass" if self.signed else "a recorded pass"
        line += f" ({required} is required)"
        if self.trust.changed or self.trust.blob is None:
            line += f"; {self.trust.describe()}"
        return line


def required_pass(repo: Repository, *, base: str, base_rev: str, commit: str, signed: bool,
                  profile_from: str | None = None) -> RequiredPass:
    """The status the gate counts for `commit`'s tree under the profile of `base` (given
    as `base_rev`), or of `profile_from` when the gate was told so; only signed events
    when `signed`."""
    trust = trusted_profile(repo, base=base, base_rev=base_rev, head=commit,
                            profile_from=profile_from)
    tree = tree_of(repo, commit)
    found = read_subjects(repo, [tree])
    entries = found.on(tree)
    status = tree_status(tree, entries, trust.blob)
    if not signed:
        return RequiredPass(status, trust)
    mine = [entry for entry in sorted(verifications(entries), key=time_order, reverse=True)
            if _decides(entry, trust.blob)]
    signers = event_signers(repo, found.tip, tree, [entry.id for entry in mine])
    for entry in mine:
        if signers[entry.id].state == "verified":
            return RequiredPass(tree_status(tree, [entry], trust.blob), trust, True,
                                signers[entry.id])
    if not mine:  # nothing ran the trusted profile: say what there is
        return RequiredPass(status, trust, True)
    return _refused(tree, mine, signers, trust)


def _decides(entry: LedgerEntry, profile: str | None) -> bool:
    """A verification that ran `profile`, or one whose fields do not fit (tree_status)."""
    [typed] = typed_events([entry], (VerificationFields,))
    return not isinstance(typed.payload, VerificationFields) or is_under(typed.payload, profile)


def _refused(tree: str, mine: list[LedgerEntry], signers: dict[str, Signer],
             trust: TrustedProfile) -> RequiredPass:
    """No verification is signed: name the newest pass and what is wrong with it."""
    newest_pass = next((e for e in mine if is_observed_pass(e, trust.blob)), None)
    if newest_pass is None:
        return RequiredPass(TreeStatus(tree, "none"), trust, True)
    signer = signers[newest_pass.id]
    if signer.commit is None:  # e.g. a shallow ledger: no commit below the cut vouches
        refused = (f"the pass {newest_pass.id[:12]} cannot be traced to the ledger commit "
                   "that added it (part of the ledger's history is missing: fetch all of it)")
        return RequiredPass(TreeStatus(tree, "none"), trust, True, signer, refused)
    why = signer.why()
    refused = (f"the pass {newest_pass.id[:12]} was added by ledger commit "
               f"{signer.commit[:12]}, which {why}")
    return RequiredPass(TreeStatus(tree, "none"), trust, True, signer, refused)
