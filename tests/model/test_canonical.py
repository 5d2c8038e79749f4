"""Canonical JSON: stable bytes, and always valid JSON even for non-UTF-8 paths."""

from __future__ import annotations

import json

from gitcorrex.model.canonical import canonical_json, content_id


def test_same_value_same_bytes_whatever_the_key_order() -> None:
    assert canonical_json({"b": 1, "a": [2, "x"]}) == canonical_json({"a": [2, "x"], "b": 1})
    assert canonical_json({"a": "é"}) == '{"a":"\\u00e9"}'


def test_undecodable_path_bytes_are_spelled_as_text_and_stay_valid_json() -> None:
    raw = b"dir/bad\xffname".decode("utf-8", "surrogateescape")
    text = canonical_json({"paths": [raw], raw: 1})
    assert json.loads(text) == {"paths": ["dir/bad\\xffname"], "dir/bad\\xffname": 1}


def test_characters_outside_the_bmp_and_literal_backslashes_are_untouched() -> None:
    value = {"emoji": "\U0001f600", "high": "\U00010080", "literal": "a\\udcff"}
    assert json.loads(canonical_json(value)) == value


def test_content_id_ignores_the_id_field() -> None:
    assert content_id({"a": 1, "id": "x"}) == content_id({"a": 1})
