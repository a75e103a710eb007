"""drafterlint.lazyre: a pattern written like re.compile's, compiled on its first use, whose
methods then answer as the compiled pattern's."""

from __future__ import annotations

import re

import pytest

from drafterlint import lazyre

TEXT = "a1 b22\nc333 d4444"


@pytest.mark.parametrize(("source", "flags", "text"), [
    (r"(\w)(\d+)", 0, TEXT),
    (r"^\w", re.M, TEXT),
    (rb"(\w)(\d+)", 0, TEXT.encode()),
])
def test_every_method_answers_as_the_compiled_patterns(source, flags, text):
    compiled = re.compile(source, flags)
    cases = [("match", (text,)), ("match", (text, 3)), ("fullmatch", (text[:2],)), ("search", (text, 1, 9)),
             ("findall", (text,)), ("split", (text,)), ("split", (text, 1)), ("sub", (text[:1], text)),
             ("subn", (text[:1], text, 1))]
    for name, args in cases:
        fresh = lazyre.compile(source, flags)  # each method may be the first use
        got, want = getattr(fresh, name)(*args), getattr(compiled, name)(*args)
        if isinstance(want, re.Match):
            assert got is not None and (got.span(), got.groups()) == (want.span(), want.groups()), name
        else:
            assert got == want, name
    lazy = lazyre.compile(source, flags)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.pattern == source


def test_it_compiles_once_on_the_first_use(monkeypatch):
    made: list[str] = []
    compile_ = re.compile
    monkeypatch.setattr(re, "compile", lambda p, f=0: made.append(p) or compile_(p, f))
    lazy = lazyre.compile(r"x+")
    assert made == []  # made, not compiled
    assert lazy.search("axxb").span() == (1, 3)
    assert lazy.match("xy") and not lazy.fullmatch("xy") and lazy.sub("-", "axxbx") == "a-b-"
    assert made == [r"x+"]


def test_a_name_re_pattern_does_not_have_is_no_attribute():
    lazy = lazyre.compile(r"x")
    with pytest.raises(AttributeError):
        lazy.nonesuch  # noqa: B018
    assert lazy.search("x")  # and the pattern still works
