"""Referenced symbols against the symbol index of the state tree, in every language."""

from __future__ import annotations

import pytest

from tests.plan.grounding.conftest import Ground, only, step

DEFINED = [
    ("Client.send", "src/client.py"),
    ("RETRY_LIMIT", "src/client.py"),
    ("connect", "src/client.py"),
    ("App.render", "web/app.js"),
    ("boot", "web/app.js"),
    ("Options", "web/types.ts"),
    ("Api.call", "web/types.ts"),
    ("Server.Serve", "cmd/server/main.go"),
    ("Engine.run", "crates/core/src/lib.rs"),
    ("Engine::run", "crates/core/src/lib.rs"),
    ("Driver.drive", "crates/core/src/lib.rs"),
    ("Ledger.append", "app/src/main/java/com/acme/Ledger.java"),
    ("Ledger#append", "app/src/main/java/com/acme/Ledger.java"),
    ("Audit.record", "app/src/main/kotlin/com/acme/Audit.kt"),
]


@pytest.mark.parametrize(("symbol", "path"), DEFINED)
def test_defined_symbol_is_present_with_its_defining_path(ground: Ground, symbol: str,
                                                          path: str) -> None:
    found = only(ground(step(symbols=[symbol])), "symbol", symbol)
    assert (found.status.value, found.route.value, found.paths) == ("present", "pass", [path])


def test_all_languages_resolve_in_one_plan(ground: Ground) -> None:
    outcome = ground(step(symbols=[symbol for symbol, _ in DEFINED]))
    assert {f.status.value for f in outcome.fields.findings if f.check.value == "symbol"} == {
        "present"}


def test_module_qualified_symbol_is_present(ground: Ground) -> None:
    outcome = ground(step(symbols=["client.Client.send", "com.acme.Ledger.append",
                                   "billing.invoice.Invoice"]))
    assert only(outcome, "symbol", "client.Client.send").paths == ["src/client.py"]
    assert only(outcome, "symbol", "com.acme.Ledger.append").status.value == "present"
    assert only(outcome, "symbol", "billing.invoice.Invoice").status.value == "present"


def test_path_qualified_symbol_is_checked_in_that_file_only(ground: Ground) -> None:
    outcome = ground(step(symbols=["src/client.py:Client.close",
                                   "src/util/client.py:Client.close"]))
    assert only(outcome, "symbol", "src/client.py:Client.close").status.value == "present"
    assert only(outcome, "symbol", "src/util/client.py:Client.close").status.value == "absent"


def test_misspelt_symbol_is_absent_with_similar_candidates(ground: Ground) -> None:
    outcome = ground(step(symbols=["Client.sned"]))
    found = only(outcome, "symbol", "Client.sned")
    assert (found.status.value, found.route.value) == ("absent", "return_to_architect")
    assert found.candidates[0] == "src/client.py:Client.send"
    assert outcome.fields.verdict.value == "return_to_architect"


def test_name_defined_by_several_classes_is_ambiguous(ground: Ground) -> None:
    found = only(ground(step(symbols=["send"])), "symbol", "send")
    assert (found.status.value, found.route.value) == ("ambiguous", "return_to_architect")
    assert found.candidates == ["src/client.py:Client.send", "web/app.js:App.send"]


def test_symbol_only_a_language_without_grammar_mentions_is_unknown(ground: Ground) -> None:
    outcome = ground(step(symbols=["encode_frame"]))
    found = only(outcome, "symbol", "encode_frame")
    assert (found.status.value, found.route.value) == ("unknown", "clarification_required")
    assert found.candidates == ["native/codec.c"]
    assert outcome.fields.verdict.value == "clarification_required"


def test_symbol_hidden_by_a_syntax_error_is_unknown(ground: Ground) -> None:
    found = only(ground(step(symbols=["legacy_hook"])), "symbol", "legacy_hook")
    assert found.status.value == "unknown"
    assert found.candidates == ["src/broken.py"]


def test_symbol_in_a_file_without_grammar_is_unknown(ground: Ground) -> None:
    found = only(ground(step(symbols=["native/codec.c:encode_frame"])), "symbol",
                 "native/codec.c:encode_frame")
    assert (found.status.value, found.route.value) == ("unknown", "clarification_required")


def test_submodule_content_is_not_indexed(ground: Ground) -> None:
    found = only(ground(step(symbols=["vendored"])), "symbol", "vendored")
    assert found.status.value == "absent"


def test_symbol_index_is_not_built_without_symbol_references(ground: Ground) -> None:
    outcome = ground(step(references=["src/client.py"]))
    assert outcome.stats is None
    assert outcome.fields.index is None
