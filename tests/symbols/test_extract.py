"""The pure extractor: blob bytes → sorted definition names, per language."""

from __future__ import annotations

import pytest

from gitcorrex.symbols.extract import MAX_BLOB_BYTES, extract_symbols
from gitcorrex.symbols.languages import extractor_version, language_of

CASES = {
    "python": (
        b"X = 1\nT: int = 3\n@dec\nclass C(Base):\n    Y = 2\n    @property\n"
        b"    def p(self): pass\n    async def q(self): pass\n    class Inner:\n"
        b"        def deep(self): pass\ndef f():\n    def local(): pass\n"
        b"if TYPE_CHECKING:\n    def typed(): pass\n",
        ("C", "C.Inner", "C.Inner.deep", "C.Y", "C.p", "C.q", "T", "X", "f", "typed")),
    "javascript": (
        b"export const LIMIT = 3, B = 2;\nexport default class Client extends Base {\n"
        b"  #priv() {}\n  send(p) { function inner() {} }\n}\nfunction* gen() {}\n"
        b"const { a } = obj;\n",
        ("B", "Client", "Client.#priv", "Client.send", "LIMIT", "gen")),
    "typescript": (
        b"export interface Api { call(x: number): void; prop: string }\n"
        b"export type Alias = string;\nexport enum Color { Red }\n"
        b"export abstract class Base { abstract run(): void; }\n"
        b"namespace NS { export function inner() {} }\n",
        ("Alias", "Api", "Api.call", "Api.prop", "Base", "Base.run", "Color", "NS",
         "NS.inner")),
    "go": (
        b"package p\nconst (\n  B, C = 2, 3\n)\ntype S struct { x int }\n"
        b"type I interface { M() }\nfunc F() {}\nfunc (s *S) Meth() {}\n"
        b"func (g *Gen[T]) GM() {}\n",
        ("B", "C", "F", "Gen.GM", "I", "I.M", "S", "S.Meth")),
    "rust": (
        b"pub const L: u32 = 1;\npub struct Client { x: u32 }\n"
        b"pub trait Send { fn send(&self); }\nimpl Client { pub fn new() -> Self { todo!() } }\n"
        b"impl<T> Send for Wrapper<T> { fn send(&self) {} }\nmod inner { pub fn f() {} }\n"
        b"macro_rules! mac { () => {} }\n",
        ("Client", "Client.new", "L", "Send", "Send.send", "Wrapper.send", "inner",
         "inner.f", "mac")),
    "java": (
        b"class Client {\n  public static final int LIMIT = 3;\n  private int x;\n"
        b"  public Client() {}\n  int send(String p) { return 1; }\n"
        b"  static class Inner { void deep() {} }\n}\ninterface Api { void call(); }\n"
        b"enum Color { RED; void paint() {} }\nrecord Point(int x) { int sum() { return x; } }\n",
        ("Api", "Api.call", "Client", "Client.Inner", "Client.Inner.deep", "Client.LIMIT",
         "Client.send", "Color", "Color.paint", "Point", "Point.sum")),
    "kotlin": (
        b"const val LIMIT = 3\nclass Client(val x: Int) {\n    fun send(p: String): Int = 1\n"
        b"    companion object {\n        fun make() = 1\n    }\n}\n"
        b"object Registry {\n    fun get() = 1\n}\nfun top() {}\ntypealias T = Int\n",
        ("Client", "Client.make", "Client.send", "LIMIT", "Registry", "Registry.get", "T",
         "top")),
}


@pytest.mark.parametrize("language", sorted(CASES))
def test_definitions_per_language(language: str) -> None:
    source, expected = CASES[language]
    found = extract_symbols(language, source)
    assert found.names == expected
    assert found.complete


def test_names_are_sorted_unique_and_deterministic() -> None:
    source = b"def b(): pass\ndef a(): pass\ndef b(): pass\n"
    assert extract_symbols("python", source).names == ("a", "b")
    assert extract_symbols("python", source) == extract_symbols("python", source)


def test_names_inside_a_syntax_error_are_not_reported() -> None:
    found = extract_symbols("python", b"def fine(): pass\ndef hidden(x:\n    return x\n")
    assert found.names == ("fine",)
    assert not found.complete


def test_a_recovered_definition_is_kept_but_the_blob_is_incomplete() -> None:
    found = extract_symbols("python", b"def fine(): pass\ndef repaired(:\n    return 1\n")
    assert found.names == ("fine", "repaired")
    assert not found.complete


def test_binary_and_oversized_blobs_are_not_parsed() -> None:
    assert extract_symbols("python", b"def f(): pass\n\0\0") == extract_symbols(
        "python", b"\0" + b"def g(): pass\n")
    assert not extract_symbols("python", b"\0def f(): pass\n").complete
    big = b"x = 1\n" * (MAX_BLOB_BYTES // 6 + 1)
    assert extract_symbols("python", big).names == ()


@pytest.mark.parametrize(("path", "language"), [
    ("a/b.py", "python"), ("x.PYI", "python"), ("w/app.jsx", "javascript"),
    ("t.tsx", "tsx"), ("t.mts", "typescript"), ("m.go", "go"), ("l.rs", "rust"),
    ("A.java", "java"), ("build.gradle.kts", "kotlin"), ("codec.c", None),
    ("README", None), (".py", None)])
def test_language_by_extension(path: str, language: str | None) -> None:
    assert language_of(path) == language


def test_extractor_version_names_language_rules_and_grammar() -> None:
    version = extractor_version("python")
    assert version.startswith("python-1-") and len(version) == len("python-1-") + 12
    assert extractor_version("python") != extractor_version("typescript")
