"""A tree's symbol index as git objects: one flat tree of small JSON blobs.

Layout (format 2), all canonical JSON or sorted lines, so one tree's index is always the
same tree id:

- `meta`: `{"format": 2, "tree": <tree id>, "extractors": {language: version},
  "incomplete": [paths that cannot prove an absence], "blobs": <indexed blob count>}`;
- `leaves`: every distinct lower-cased last name component, one per line, sorted;
- `nXX`: `{name: [paths]}` for the names whose lower-cased form hashes to `XX`;
- `lXX`: `{leaf: [names]}` for the lower-cased last components hashing to `XX`.

(`XX` is the low byte of crc32, in hex.) An exact lookup reads one `n` shard; a suffix or
similar-name lookup reads `leaves` and the `l` shards it needs. A state that changed a
few files shares every other blob with the state before it. Decoding never trusts the
bytes: an entry is checked when it is used, and anything of the wrong shape is reported
as None so the caller rebuilds.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gitcorrex.model.canonical import canonical_json

FORMAT = 2
META = "meta"
LEAVES = "leaves"
NAMES, BY_LEAF = "n", "l"
Definitions = dict[str, list[str]]  # name → sorted paths
Leaves = dict[str, list[str]]  # lower-cased leaf → sorted names


@dataclass(frozen=True)
class IndexMeta:
    tree: str
    extractors: dict[str, str]
    incomplete: tuple[str, ...]
    blobs: int


_SHARDS = {kind: [f"{kind}{n:02x}" for n in range(256)] for kind in (NAMES, BY_LEAF)}


def shard_of(kind: str, key: str) -> str:
    """`nXX` for a name, `lXX` for a leaf: XX from crc32 of the lower-cased key."""
    return _SHARDS[kind][zlib.crc32(key.lower().encode("utf-8", "surrogatepass")) & 0xFF]


def encode_index(definitions: Mapping[str, list[str]], leaves: Mapping[str, list[str]],
                 meta: IndexMeta) -> dict[str, bytes]:
    """Blob name → bytes for the whole index."""
    shards: dict[str, dict[str, list[str]]] = {}
    for name, paths in definitions.items():
        shards.setdefault(shard_of(NAMES, name), {})[name] = paths
    for leaf, names in leaves.items():
        shards.setdefault(shard_of(BY_LEAF, leaf), {})[leaf] = names
    files = {name: canonical_json(shard).encode("ascii") for name, shard in shards.items()}
    files[LEAVES] = "".join(f"{leaf}\n" for leaf in sorted(leaves)).encode(
        "utf-8", "surrogatepass")
    files[META] = canonical_json({
        "format": FORMAT, "tree": meta.tree, "extractors": meta.extractors,
        "incomplete": list(meta.incomplete), "blobs": meta.blobs}).encode("ascii")
    return files


def decode_meta(data: bytes | None) -> IndexMeta | None:
    try:
        value = json.loads(data) if data is not None else None
        if not isinstance(value, dict) or value.get("format") != FORMAT:
            return None
        tree, extractors = value["tree"], value["extractors"]
        incomplete, blobs = value["incomplete"], value["blobs"]
    except (ValueError, TypeError, KeyError):
        return None
    if not (isinstance(tree, str) and isinstance(blobs, int) and _is_str_map(extractors)
            and _is_str_list(incomplete)):
        return None
    return IndexMeta(tree, dict(extractors), tuple(incomplete), blobs)


def decode_shard(data: bytes) -> dict[str, Any] | None:
    """A shard as parsed JSON, its entries unchecked (see `checked_entry`); None when it
    does not parse or is not an object."""
    try:
        value = json.loads(data)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def checked_entry(value: Any) -> list[str] | None:
    """An entry of the right shape (a list of strings), else None.

    A name filed under the wrong leaf is not checked for: names found under a leaf are
    filtered by their text again before use, and paths come only from `n` shards.
    """
    return value if _is_str_list(value) else None


def decode_leaves(data: bytes | None) -> frozenset[str] | None:
    if data is None:
        return None
    try:
        return frozenset(data.decode("utf-8", "surrogatepass").splitlines())
    except UnicodeDecodeError:
        return None


def _is_str_map(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)
