"""Test integrity: the tests of a state compared with the tests of its baseline.

A suite whose assertions were removed still passes, so a pass says nothing about a change
that weakened its own tests. This package parses the test files a change touched (with the
tree-sitter grammars `symbols/languages.py` loads: Python, JavaScript/TypeScript, Go, Rust,
Java, Kotlin), on both sides, and names each weakening: a test removed or renamed away, fewer
assertions, an assertion that is always true, a skip/xfail/only/ignore marker added; and,
outside the tests, a check neutralised (`|| true`, `continue-on-error`) or a profile command
changed. `scan.py` reads both trees through the git face (never the work tree); `record.py`
records what it finds and the acceptances people record; `gate.py` is the one question the
Stop hook, the settlement and `check` ask: which findings of this tree are not accepted?
"""
