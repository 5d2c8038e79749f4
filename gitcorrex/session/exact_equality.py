"""Exact value comparison for claims: what `Object.is` decides, over JSON values.

Python's `==` says `0 == -0.0`, `1 == True` and `1 == 1.0`, and `nan != nan`; a blocker
admitted (or refused) on such an equality would be decided on a different fact. Here types
must match exactly, `-0.0` differs from `0.0`, and NaN is the same value as NaN — exactly
JavaScript's `Object.is`, which the claim protocol specifies for both conflict detection
and the final comparison.
"""

from __future__ import annotations

import json
import math
from typing import Any


def exactly_equal(left: Any, right: Any) -> bool:
    """Same type and same value, recursively; floats by sign too; NaN equals NaN."""
    if type(left) is not type(right):
        return False
    if isinstance(left, float):
        if math.isnan(left) or math.isnan(right):
            return math.isnan(left) and math.isnan(right)
        return left == right and math.copysign(1.0, left) == math.copysign(1.0, right)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(exactly_equal, left, right))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(exactly_equal(left[k], right[k])
                                                   for k in left)
    return bool(left == right)


def load_exact_json(text: str) -> Any:
    """JSON with `-0` kept as the float -0.0 (plain `json` would read it as the int 0)."""
    return json.loads(text, parse_int=lambda digits: -0.0 if digits == "-0" else int(digits))
