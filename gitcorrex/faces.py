"""A package's face: names it exports, each imported from its module on first use.

`git/` and `ledger/` are each reached through one face (`__init__.py` lists the names and
the modules that hold them). Importing a face must cost nothing — a hook that asks git one
question should not load every engine — so a name is looked up when first used (PEP 562
`__getattr__`) and kept in the package's namespace from then on.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def face_name(package: str, face: Mapping[str, str], namespace: dict[str, Any],
              name: str) -> object:
    """`package`'s face name `name`, imported from the module `face` names and kept in the
    package's `namespace`; AttributeError for a name the face does not list."""
    where = face.get(name)
    if where is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    __import__(where)  # not importlib.import_module: `importlib` costs ~0.5 ms to load
    value = getattr(sys.modules[where], name)
    namespace[name] = value
    return value
