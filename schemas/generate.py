"""Regenerate the committed event schemas: `python schemas/generate.py`.

tests/model/test_schemas.py fails when a model changed and this was not run.
"""

from __future__ import annotations

import json
from pathlib import Path

from gitcorrex.model.schemas import all_schemas, kind_names_source

HERE = Path(__file__).resolve().parent
KIND_NAMES = HERE.parent / "gitcorrex" / "model" / "kind_names.py"


def render(schema: dict[str, object]) -> str:
    """Stable text: sorted keys, two-space indent, trailing newline."""
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def main() -> None:
    for name, schema in all_schemas().items():
        (HERE / name).write_text(render(schema))
        print(f"wrote schemas/{name}")
    KIND_NAMES.write_text(kind_names_source())
    print(f"wrote {KIND_NAMES.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
