"""The brief reference extractor: only unmistakable workspace-relative file paths."""

from __future__ import annotations

import pytest

from gitcorrex.gates.references import Reference, as_reference, extract_references, references_in

# (text as written in a brief, the reference extracted or None)
TABLE: list[tuple[str, str | None]] = [
    ("src/app.py", "src/app.py"),
    ("tests/test_app.py", "tests/test_app.py"),
    ("docs/guide/intro.md", "docs/guide/intro.md"),
    ("./src/app.py", "src/app.py"),
    ("././src/app.py", "src/app.py"),
    ("src/app.py:12", "src/app.py"),
    ("src/app.py:12:5", "src/app.py"),
    ("src/app.py#L10", "src/app.py"),
    ("src/app.py#L10-L20", "src/app.py"),
    ("src/app.py.", "src/app.py"),
    ("src/app.py,", "src/app.py"),
    ("src/app.py:", "src/app.py"),
    (".github/workflows/ci.yml", ".github/workflows/ci.yml"),
    ("config/.eslintrc.json", "config/.eslintrc.json"),
    ("web/index.d.ts", "web/index.d.ts"),
    ("pkg.v2/mod.go", "pkg.v2/mod.go"),
    ("src/ünïcode.py", "src/ünïcode.py"),
    ("a/b/c/d/e.tar.gz", "a/b/c/d/e.tar.gz"),
    ("node_modules/@types/node/index.d.ts", "node_modules/@types/node/index.d.ts"),
    # not file references
    ("app.py", None),  # bare name: cannot be placed
    ("README.md", None),
    ("os.path", None),  # module
    ("gitcorrex.gates.references", None),  # dotted module name
    ("Client.send", None),  # dotted symbol
    ("src/app", None),  # no extension
    ("src/", None),  # a directory
    ("src/lib/", None),
    ("v1/2.0", None),  # version-like: extension without a letter
    ("1/2.5", None),
    ("http://example.com/a.py", None),
    ("https://github.com/o/r/blob/main/src/app.py", None),
    ("file:///etc/x.py", None),
    ("mailto:a/b.py", None),
    ("www.example.com/page.html", None),
    ("/abs.py", None),
    ("/usr/lib/python3/x.py", None),
    ("~/notes/x.md", None),
    ("C:/Users/x/app.py", None),
    ("C:\\Users\\x\\app.py", None),  # Windows path
    ("src\\app.py", None),
    ("../x.py", None),
    ("src/../x.py", None),
    ("src/./x.py", None),
    ("src//x.py", None),
    ("src/*.py", None),  # glob
    ("src/**/test_?.py", None),
    ("", None),
    ("/", None),
    ("x" * 1100 + "/a.py", None),  # beyond the bound
]


@pytest.mark.parametrize(("text", "expected"), TABLE)
def test_extractor_table(text: str, expected: str | None) -> None:
    assert as_reference(text) == expected


def test_the_table_is_large_enough() -> None:
    assert len(TABLE) >= 40


@pytest.mark.parametrize(("text", "expected"), [
    ("Edit `src/app.py` and `tests/test_app.py`.", ["src/app.py", "tests/test_app.py"]),
    ("```python\nfrom src.app import x  # see src/app.py\n```", ["src/app.py"]),
    ("see [the guide](docs/guide.md) and <docs/api.md>", ["docs/guide.md", "docs/api.md"]),
    ('"src/app.py" and \'src/b.py\'', ["src/app.py", "src/b.py"]),
    ("(src/app.py), [src/b.py]; {src/c.py}", ["src/app.py", "src/b.py", "src/c.py"]),
    ("change src/app.py then src/app.py again", ["src/app.py", "src/app.py"]),
    ("the gitcorrex.gates module and app.py", []),
    ("fix https://x.test/a.py and ../up.py", []),
])
def test_references_in_running_text_and_code_spans(text: str, expected: list[str]) -> None:
    assert references_in(text) == expected


def test_every_string_value_is_searched_with_where_it_was_found() -> None:
    brief = {"summary": "touch src/a.py", "requirements": ["x", "read docs/b.md", "src/a.py"],
             "nested": {"files": ["lib/c.rs"], "n": 3, "flag": True, "none": None},
             "src/key.py": "keys are not values"}
    assert extract_references(brief) == [
        Reference("src/a.py", "summary"), Reference("docs/b.md", "requirements[1]"),
        Reference("lib/c.rs", "nested.files[0]")]


def test_extraction_is_deterministic_and_pure() -> None:
    brief = {"requirements": [f"src/m{i}.py" for i in range(50)]}
    assert extract_references(brief) == extract_references(brief)
    assert [r.path for r in extract_references(brief)] == [f"src/m{i}.py" for i in range(50)]


def test_a_top_level_string_document_is_searched() -> None:
    assert extract_references("see src/a.py") == [Reference("src/a.py", "(top level)")]
