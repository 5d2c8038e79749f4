"""The profile's bounds at their edges: depth, size, the reader's own recursion, the BOM."""

from __future__ import annotations

import sys

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.profiles.limits import MAX_DEPTH, PROFILE_MAX_BYTES
from gitcorrex.profiles.load import parse_profile, parse_toml

VALID = b'version = 1\n[commands]\ntest = "true"\n'


def arrays(depth: int) -> bytes:
    return b"x = " + b"[" * depth + b"]" * depth + b"\n"


def refusal(raw: bytes, source: str = ".correx.toml") -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_profile(raw, source=source)
    return caught.value


def test_a_document_nested_max_depth_deep_is_read_and_one_deeper_is_refused() -> None:
    assert parse_toml(arrays(MAX_DEPTH), "f.toml")["x"] is not None
    error = refusal(arrays(MAX_DEPTH + 1), "f.toml")
    assert error.message == f"f.toml: x: nested more than {MAX_DEPTH} levels deep"
    assert error.hint is not None and "flatten" in error.hint


def test_deep_tables_name_the_first_keys_of_the_path() -> None:
    raw = b"[" + b".".join([b"a"] * 40) + b"]\nb = 1\n"
    assert refusal(raw).message == \
        f".correx.toml: a.a.a.a.a.a…: nested more than {MAX_DEPTH} levels deep"


def stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def recurse_then(depth: int, parse: bytes) -> ConfigError:
    """parse_toml called with most of the stack already used, as a deep caller would."""
    if depth:
        return recurse_then(depth - 1, parse)
    with pytest.raises(ConfigError) as caught:
        parse_toml(parse, "deep.toml")
    return caught.value


def test_the_reader_s_own_recursion_error_names_the_key_and_line() -> None:
    raw = b"[commands.test]\nrun = 'true'\nx = { y = " + arrays(400)[4:-1] + b" }\n"
    shallow = recurse_then(0, raw)  # the reader copes; the depth limit refuses it
    assert shallow.message == f"deep.toml: commands.test.x.y: nested more than {MAX_DEPTH} " \
                              "levels deep"
    deep = recurse_then(sys.getrecursionlimit() - stack_depth() - 100, raw)  # the reader
    # runs out of stack first (it needs two frames a level), as below a deep caller
    assert deep.message.startswith("deep.toml: commands.test.x.y (line 3, column ")
    assert deep.message.endswith(f"): nested more than {MAX_DEPTH} levels deep")


def test_a_profile_at_the_size_limit_is_read_and_one_byte_more_is_refused() -> None:
    padded = VALID + b"#" * (PROFILE_MAX_BYTES - len(VALID) - 1) + b"\n"
    assert len(padded) == PROFILE_MAX_BYTES
    assert parse_profile(padded, source=".correx.toml").commands["test"].run == "true"
    error = refusal(padded + b"\n")
    assert error.message == (f".correx.toml: {PROFILE_MAX_BYTES + 1:,} bytes, over the 256 KiB "
                             f"a profile may hold (its longest line, line 4, holds "
                             f"{PROFILE_MAX_BYTES - len(VALID) - 1:,})")


def test_a_byte_order_mark_is_named_with_the_fix() -> None:
    error = refusal(b"\xef\xbb\xbf" + VALID)
    assert error.message == (".correx.toml: starts with a UTF-8 byte order mark (BOM), which "
                             "the TOML reader refuses")
    assert error.hint is not None and "without a BOM" in error.hint


def test_a_bom_elsewhere_is_plain_text_to_toml() -> None:
    assert parse_profile(VALID + b'# \xef\xbb\xbf\n', source=".correx.toml").version == 1
