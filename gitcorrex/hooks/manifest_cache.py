"""The manifest in force at a trusted base, with validation remembered per profile blob.

`manifest_at` validates the whole profile with pydantic (and reads it through libgit2):
about 150 ms of imports that every commit would pay, for a file that rarely changes. A
profile blob is immutable, so once `manifest_at` has accepted blob X for stage S, the
answer for (X, S) never changes: we keep it under the git directory
(`correx/manifests/<blob>.<stage>.json`) and build the identical `Manifest` from it. An
invalid profile is never cached, so its error is reported on every run; a cache file that
does not parse or names another blob, stage or git correx version is ignored.

The cache is as trustworthy as the hooks directory next to it: whoever can write there can
also delete the hook. The range check in CI reads the profile afresh and is the real gate.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from contextlib import suppress
from pathlib import Path

from gitcorrex import __version__
from gitcorrex.git import ObjectInfo, Repository
from gitcorrex.model.manifest_rules import pathspec_version
from gitcorrex.model.write_manifest import Manifest

CACHE_DIR = ("correx", "manifests")
CACHE_FORMAT = 2  # 2: with pathspec's compilation of the patterns (model/manifest_rules.py)
_SAFE_STAGE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def base_manifest(repo: Repository, *, base_tree: str | None, profile: ObjectInfo | None,
                  base_label: str, stage: str) -> Manifest:
    """The `writes` of `stage` in the profile `profile` found in `base_tree`.

    Same result and same errors as `manifest_at` (which it calls on a cache miss).
    """
    path = _cache_path(repo, profile, stage)
    cached = _read_cache(path, profile, stage) if path else None
    if cached is not None:
        return cached
    from gitcorrex.manifest.trusted import manifest_at

    manifest = manifest_at(repo, base_tree=base_tree, base_label=base_label, stage=stage)
    if path is not None and profile is not None:
        _write_cache(path, profile.oid, stage, manifest)
    return manifest


def compiled_manifest(repo: Repository, patterns: tuple[str, ...], source: str) -> Manifest:
    """`Manifest(patterns, source)`, with pathspec's compilation of the patterns remembered
    under the git directory (`correx/manifests/rules-<crc32>.json`, the patterns kept in it
    and compared): a session step's manifest, which an agent's every call in the step asks
    for, is then decided without importing pathspec."""
    text = json.dumps(list(patterns))
    path = repo.common_dir.joinpath(*CACHE_DIR, f"rules-{zlib.crc32(text.encode()):08x}.json")
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        data = None
    if isinstance(data, dict) and data.get("writes") == list(patterns):
        cached = _from_record(data, {"format": CACHE_FORMAT, "correx": __version__,
                                     "pathspec": pathspec_version()}, source)
        if cached is not None:
            return cached
    manifest = Manifest(patterns, source)
    _store(path, {"format": CACHE_FORMAT, "correx": __version__, "pathspec": pathspec_version(),
                  "writes": list(patterns), "rules": [list(rule) for rule in manifest.rules]})
    return manifest


def _cache_path(repo: Repository, profile: ObjectInfo | None, stage: str) -> Path | None:
    """Only a blob profile and a stage name that is safe as a file name are cached."""
    if profile is None or profile.kind != "blob" or not _SAFE_STAGE.match(stage):
        return None
    return repo.common_dir.joinpath(*CACHE_DIR, f"{profile.oid}.{stage}.json")


def _read_cache(path: Path, profile: ObjectInfo | None, stage: str) -> Manifest | None:
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    expected = {"format": CACHE_FORMAT, "correx": __version__, "pathspec": pathspec_version(),
                "profile": profile.oid if profile else None, "stage": stage}
    source = data.get("source") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(source, str):
        return None
    return _from_record(data, expected, source)


def _from_record(data: dict[str, object], expected: dict[str, object],
                 source: str) -> Manifest | None:
    """The manifest a cache record holds, or None for one of another version or unusable."""
    if any(data.get(k) != v for k, v in expected.items()):
        return None
    writes, rules = data.get("writes"), data.get("rules")
    if not isinstance(writes, list) or not all(
            isinstance(pattern, str) for pattern in writes):
        return None
    if not isinstance(rules, list) or not all(
            isinstance(rule, list) and len(rule) == 3 and isinstance(rule[0], str)
            and type(rule[1]) is int and type(rule[2]) is bool for rule in rules):
        return None
    try:
        return Manifest(tuple(writes), source, tuple((s, f, i) for s, f, i in rules))
    except re.error:
        return None


def _write_cache(path: Path, blob: str, stage: str, manifest: Manifest) -> None:
    """Best effort: a read-only git directory only means no cache (atomic rename)."""
    _store(path, {"format": CACHE_FORMAT, "correx": __version__, "pathspec": pathspec_version(),
                  "profile": blob, "stage": stage, "source": manifest.source,
                  "writes": list(manifest.patterns),
                  "rules": [list(rule) for rule in manifest.rules]})


def _store(path: Path, record: dict[str, object]) -> None:
    """Best effort: a read-only git directory only means no cache (atomic rename)."""
    import tempfile  # only a cache miss writes (~10 ms of imports the hot path skips)

    with suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".manifest-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(record, handle, sort_keys=True)
            os.replace(temp, path)
        finally:
            with suppress(FileNotFoundError):
                os.unlink(temp)
