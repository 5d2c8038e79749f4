"""The only door to git, in the project's words.

Everything outside `git/` reaches git through these names (`from gitcorrex.git import
write_blob`, or `from gitcorrex import git` and `git.ledger_tip(...)`);
tests/test_architecture.py refuses an import of a module behind them. Which engine answers
an operation (libgit2 in-process, or the git binary) is decided behind the name, never by a
caller (`notes.py` says how). The face imports nothing itself (PEP 562: a name is imported
on first use), so a hook that asks one question loads only what that question needs.

`FACE` is the one list: the typed imports below (for readers and mypy) are checked
against it by tests/git/test_face.py.
"""

from __future__ import annotations

from gitcorrex.faces import face_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.git.anchor_policy import TreeWeight as TreeWeight
    from gitcorrex.git.anchor_policy import anchors_states as anchors_states
    from gitcorrex.git.anchor_policy import heavy_trees as heavy_trees
    from gitcorrex.git.anchor_policy import max_changed_paths as max_changed_paths
    from gitcorrex.git.background import in_background as in_background
    from gitcorrex.git.changes import PathChange as PathChange
    from gitcorrex.git.changes import changed_paths as changed_paths
    from gitcorrex.git.changes import parse_raw_diff as parse_raw_diff
    from gitcorrex.git.changes import tree_changes as tree_changes
    from gitcorrex.git.commit_diffs import DiffPair as DiffPair
    from gitcorrex.git.commit_diffs import diff_commit_pairs as diff_commit_pairs
    from gitcorrex.git.commit_log import LoggedCommit as LoggedCommit
    from gitcorrex.git.commit_log import list_commits as list_commits
    from gitcorrex.git.config import begin_read_config as begin_read_config
    from gitcorrex.git.config import config_flag as config_flag
    from gitcorrex.git.config import config_value as config_value
    from gitcorrex.git.config import config_values as config_values
    from gitcorrex.git.config import set_config_value as set_config_value
    from gitcorrex.git.environment_dirs import environment_dirs_added as environment_dirs_added
    from gitcorrex.git.environment_dirs import (
        untracked_environment_dirs as untracked_environment_dirs,
    )
    from gitcorrex.git.fold_store import load_fold as load_fold
    from gitcorrex.git.fold_store import load_table as load_table
    from gitcorrex.git.fold_store import store_fold as store_fold
    from gitcorrex.git.fold_store import store_table as store_table
    from gitcorrex.git.history import RangeCommit as RangeCommit
    from gitcorrex.git.history import merge_bases as merge_bases
    from gitcorrex.git.history import names_object as names_object
    from gitcorrex.git.history import range_commits as range_commits
    from gitcorrex.git.history import resolve_commit as resolve_commit
    from gitcorrex.git.history import shallow_info as shallow_info
    from gitcorrex.git.history import tree_of as tree_of
    from gitcorrex.git.hookdirs import hooks_dir as hooks_dir
    from gitcorrex.git.hookdirs import list_worktrees as list_worktrees
    from gitcorrex.git.identity import ledger_identity as ledger_identity
    from gitcorrex.git.ignores import append_excludes as append_excludes
    from gitcorrex.git.ignores import is_tracked as is_tracked
    from gitcorrex.git.ignores import unignored_patterns as unignored_patterns
    from gitcorrex.git.ledger_pack import note_appended as note_appended
    from gitcorrex.git.ledger_pack import pack_interval as pack_interval
    from gitcorrex.git.libgit2_version import libgit2_version_cached as libgit2_version_cached
    from gitcorrex.git.local_state import local_state_path as local_state_path
    from gitcorrex.git.local_state import open_local_state as open_local_state
    from gitcorrex.git.local_state import read_local_state as read_local_state
    from gitcorrex.git.local_state import write_local_state as write_local_state
    from gitcorrex.git.notes import ensure_merge_strategy as ensure_merge_strategy
    from gitcorrex.git.notes import iter_all_notes as iter_all_notes
    from gitcorrex.git.notes import ledger_ref as ledger_ref
    from gitcorrex.git.notes import ledger_tip as ledger_tip
    from gitcorrex.git.notes import note_blob_ids as note_blob_ids
    from gitcorrex.git.notes import note_blobs_at as note_blobs_at
    from gitcorrex.git.notes import object_types as object_types
    from gitcorrex.git.notes import read_note as read_note
    from gitcorrex.git.notes import read_note_parts as read_note_parts
    from gitcorrex.git.notes import read_notes_for as read_notes_for
    from gitcorrex.git.notes import swap_ref as swap_ref
    from gitcorrex.git.notes import write_blob as write_blob
    from gitcorrex.git.notes import write_notes_commit as write_notes_commit
    from gitcorrex.git.notes_history import introducing_commit as introducing_commit
    from gitcorrex.git.notes_merge import NoteUnion as NoteUnion
    from gitcorrex.git.notes_merge import commit_merge as commit_merge
    from gitcorrex.git.notes_merge import is_ancestor as is_ancestor
    from gitcorrex.git.notes_merge import merge_trees as merge_trees
    from gitcorrex.git.notes_merge import tips_missing_from as tips_missing_from
    from gitcorrex.git.notes_ref import contention_error as contention_error
    from gitcorrex.git.notes_transfer import RefUpdate as RefUpdate
    from gitcorrex.git.notes_transfer import RemoteLedgers as RemoteLedgers
    from gitcorrex.git.notes_transfer import TransientTransportError as TransientTransportError
    from gitcorrex.git.notes_transfer import fetch_ledgers as fetch_ledgers
    from gitcorrex.git.notes_transfer import push_refs as push_refs
    from gitcorrex.git.notes_transfer import tracking_ref as tracking_ref
    from gitcorrex.git.notes_transfer import writers_namespace as writers_namespace
    from gitcorrex.git.objects import ObjectInfo as ObjectInfo
    from gitcorrex.git.objects import begin_lookup_objects as begin_lookup_objects
    from gitcorrex.git.objects import lookup_objects as lookup_objects
    from gitcorrex.git.objects import read_blob as read_blob
    from gitcorrex.git.objects import write_index_tree as write_index_tree
    from gitcorrex.git.path_blobs import blobs_at as blobs_at
    from gitcorrex.git.process import GitResult as GitResult
    from gitcorrex.git.process import encode_path as encode_path
    from gitcorrex.git.process import git_version as git_version
    from gitcorrex.git.push_report import RefStatus as RefStatus
    from gitcorrex.git.remotes import head_branch as head_branch
    from gitcorrex.git.remotes import head_upstream as head_upstream
    from gitcorrex.git.remotes import remote_default_branch as remote_default_branch
    from gitcorrex.git.repository import Repository as Repository
    from gitcorrex.git.repository import begin_discover as begin_discover
    from gitcorrex.git.repository import discover as discover
    from gitcorrex.git.repository import require_ledger_format as require_ledger_format
    from gitcorrex.git.repository import unreadable_object_format as unreadable_object_format
    from gitcorrex.git.scratch import commit_all as commit_all
    from gitcorrex.git.scratch import create_repository as create_repository
    from gitcorrex.git.signing import DECISIONS_CONFIG as DECISIONS_CONFIG
    from gitcorrex.git.signing import SIGN_CONFIG as SIGN_CONFIG
    from gitcorrex.git.signing import CommitSignature as CommitSignature
    from gitcorrex.git.signing import are_signed_decisions_required as are_signed_decisions_required
    from gitcorrex.git.signing import has_signature_header as has_signature_header
    from gitcorrex.git.signing import is_signature_required as is_signature_required
    from gitcorrex.git.signing import is_signing_enabled as is_signing_enabled
    from gitcorrex.git.signing import verify_commit_signatures as verify_commit_signatures
    from gitcorrex.git.spawn import SpawnedGit as SpawnedGit
    from gitcorrex.git.staged_raw import raw_paths as raw_paths
    from gitcorrex.git.staged_raw import staged_raw_diff as staged_raw_diff
    from gitcorrex.git.state import StateProbe as StateProbe
    from gitcorrex.git.state import WorkspaceState as WorkspaceState
    from gitcorrex.git.state import compute_state as compute_state
    from gitcorrex.git.state_start import StateStart as StateStart
    from gitcorrex.git.state_start import begin_state as begin_state
    from gitcorrex.git.state_start import watcher_on_here as watcher_on_here
    from gitcorrex.git.tree_objects import GITLINK_MODE as GITLINK_MODE
    from gitcorrex.git.tree_objects import TreeEntry as TreeEntry
    from gitcorrex.git.tree_objects import flat_tree_entries as flat_tree_entries
    from gitcorrex.git.tree_objects import list_tree as list_tree
    from gitcorrex.git.tree_objects import path_modes as path_modes
    from gitcorrex.git.tree_objects import read_blob_if_present as read_blob_if_present
    from gitcorrex.git.tree_objects import read_blobs as read_blobs
    from gitcorrex.git.tree_objects import read_blobs_at as read_blobs_at
    from gitcorrex.git.tree_objects import write_flat_tree as write_flat_tree
    from gitcorrex.git.trees import head_tree as head_tree
    from gitcorrex.git.trees import read_blob_at as read_blob_at
    from gitcorrex.git.trees import resolve_tree as resolve_tree
    from gitcorrex.git.watch_control import WatchStatus as WatchStatus
    from gitcorrex.git.watch_control import start_watch as start_watch
    from gitcorrex.git.watch_control import stop_watch as stop_watch
    from gitcorrex.git.watch_control import watch_status as watch_status
    from gitcorrex.git.worktree_copy import temporary_worktree as temporary_worktree
    from gitcorrex.git.writer_queue import writers_turn as writers_turn

FACE = {
    "TreeWeight": "anchor_policy",
    "anchors_states": "anchor_policy",
    "heavy_trees": "anchor_policy",
    "max_changed_paths": "anchor_policy",
    "in_background": "background",
    "PathChange": "changes",
    "changed_paths": "changes",
    "parse_raw_diff": "changes",
    "tree_changes": "changes",
    "DiffPair": "commit_diffs",
    "diff_commit_pairs": "commit_diffs",
    "LoggedCommit": "commit_log",
    "list_commits": "commit_log",
    "begin_read_config": "config",
    "config_flag": "config",
    "config_value": "config",
    "config_values": "config",
    "set_config_value": "config",
    "environment_dirs_added": "environment_dirs",
    "untracked_environment_dirs": "environment_dirs",
    "load_fold": "fold_store",
    "load_table": "fold_store",
    "store_fold": "fold_store",
    "store_table": "fold_store",
    "RangeCommit": "history",
    "merge_bases": "history",
    "names_object": "history",
    "range_commits": "history",
    "resolve_commit": "history",
    "shallow_info": "history",
    "tree_of": "history",
    "hooks_dir": "hookdirs",
    "list_worktrees": "hookdirs",
    "ledger_identity": "identity",
    "append_excludes": "ignores",
    "is_tracked": "ignores",
    "unignored_patterns": "ignores",
    "note_appended": "ledger_pack",
    "pack_interval": "ledger_pack",
    "libgit2_version_cached": "libgit2_version",
    "local_state_path": "local_state",
    "open_local_state": "local_state",
    "read_local_state": "local_state",
    "write_local_state": "local_state",
    "ensure_merge_strategy": "notes",
    "iter_all_notes": "notes",
    "ledger_ref": "notes",
    "ledger_tip": "notes",
    "note_blob_ids": "notes",
    "note_blobs_at": "notes",
    "object_types": "notes",
    "read_note": "notes",
    "read_note_parts": "notes",
    "read_notes_for": "notes",
    "swap_ref": "notes",
    "write_blob": "notes",
    "write_notes_commit": "notes",
    "introducing_commit": "notes_history",
    "NoteUnion": "notes_merge",
    "commit_merge": "notes_merge",
    "is_ancestor": "notes_merge",
    "merge_trees": "notes_merge",
    "tips_missing_from": "notes_merge",
    "contention_error": "notes_ref",
    "RefUpdate": "notes_transfer",
    "RemoteLedgers": "notes_transfer",
    "TransientTransportError": "notes_transfer",
    "fetch_ledgers": "notes_transfer",
    "push_refs": "notes_transfer",
    "tracking_ref": "notes_transfer",
    "writers_namespace": "notes_transfer",
    "ObjectInfo": "objects",
    "begin_lookup_objects": "objects",
    "lookup_objects": "objects",
    "read_blob": "objects",
    "write_index_tree": "objects",
    "blobs_at": "path_blobs",
    "encode_path": "process",
    "git_version": "process",
    "RefStatus": "push_report",
    "remote_default_branch": "remotes",
    "head_branch": "remotes",
    "head_upstream": "remotes",
    "Repository": "repository",
    "begin_discover": "repository",
    "discover": "repository",
    "require_ledger_format": "repository",
    "unreadable_object_format": "repository",
    "commit_all": "scratch",
    "create_repository": "scratch",
    "CommitSignature": "signing",
    "DECISIONS_CONFIG": "signing",
    "SIGN_CONFIG": "signing",
    "are_signed_decisions_required": "signing",
    "has_signature_header": "signing",
    "is_signing_enabled": "signing",
    "is_signature_required": "signing",
    "verify_commit_signatures": "signing",
    "raw_paths": "staged_raw",
    "staged_raw_diff": "staged_raw",
    "StateProbe": "state",
    "WorkspaceState": "state",
    "compute_state": "state",
    "GitResult": "process",
    "SpawnedGit": "spawn",
    "StateStart": "state_start",
    "begin_state": "state_start",
    "watcher_on_here": "state_start",
    "temporary_worktree": "worktree_copy",
    "GITLINK_MODE": "tree_objects",
    "TreeEntry": "tree_objects",
    "flat_tree_entries": "tree_objects",
    "list_tree": "tree_objects",
    "path_modes": "tree_objects",
    "read_blob_if_present": "tree_objects",
    "read_blobs": "tree_objects",
    "read_blobs_at": "tree_objects",
    "write_flat_tree": "tree_objects",
    "head_tree": "trees",
    "read_blob_at": "trees",
    "resolve_tree": "trees",
    "WatchStatus": "watch_control",
    "start_watch": "watch_control",
    "stop_watch": "watch_control",
    "watch_status": "watch_control",
    "writers_turn": "writer_queue",
}
__all__ = sorted(FACE)
_MODULES = {name: f"gitcorrex.git.{module}" for name, module in FACE.items()}


def __getattr__(name: str) -> object:
    """A face name, imported from its module on first use (and kept)."""
    return face_name(__name__, _MODULES, globals(), name)
