"""Text that can disguise itself is shown, not obeyed: a bidi control (U+202E shows `gnp.exe`
where the text says `exe.png`) or a zero-width character quoted from a document is printed as
`\\u202e` in every format a person reads (text, annotations, SARIF and rdjson message text,
Markdown), by the one escape for printed lines (safeio.visible). JSON keeps the characters, as
data: escaped as JSON escapes them, so that it decodes to what the document holds."""

from __future__ import annotations

import json
import re

import pytest

from drafterlint.safeio import DISGUISING, safe_line, visible
from tests.helpers import FIXTURES

ANCHOR = "\u202egnp.exe\u200b\u2066x\ufeff"
RAW = re.compile("[" + "".join(chr(c) for c in DISGUISING) + "]")


@pytest.fixture
def rules(tmp_path):
    import shutil

    rules = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text(encoding="utf-8") + f"\n[bidi](#{ANCHOR})\n", encoding="utf-8")
    return rules


@pytest.mark.parametrize("fmt", ["text", "github", "sarif", "markdown", "json", "rdjson"])
def test_no_format_prints_a_disguising_character(cli, rules, fmt):
    code, out, err = cli("check", "--format", fmt, "--no-cache", "-v", cwd=rules)
    assert code == 1, err
    assert RAW.search(out + err) is None
    if fmt == "json":
        messages = [f["message"] for f in json.loads(out)["findings"]]
        assert any(ANCHOR in m for m in messages)  # the data itself is kept
    elif fmt in ("sarif", "rdjson"):
        doc = json.loads(out)
        texts = ([r["message"]["text"] for r in doc["runs"][0]["results"]] if fmt == "sarif"
                 else [d["message"] for d in doc["diagnostics"]])
        assert any("\\u202egnp.exe\\u200b\\u2066x\\ufeff" in t for t in texts)
    else:
        assert "\\u202egnp.exe\\u200b\\u2066x\\ufeff" in out


def test_every_disguising_character_has_its_escape():
    for c in DISGUISING:
        assert visible(f"a{chr(c)}b") == f"a\\u{c:04x}b"
        assert safe_line(chr(c)) == f"\\u{c:04x}"
    # the ones the issue names, each in the set
    named = [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C, 0x200B, 0x200C, 0x200D,
             0x2060, 0xFEFF]
    assert sorted(named) == sorted(DISGUISING)
    # letters and the emoji a report writes stay as they are
    assert visible("Ünï ⚠️ ❌") == "Ünï ⚠️ ❌"


def test_a_surrogate_is_found_where_it_is_and_nowhere_else_without_a_call_a_character():
    """safeio.has_surrogate tells whether a text holds U+D800-U+DFFF (the bytes of a name that is
    not UTF-8), which encodable then shows as \\xNN, for every printed line; it asks the codec
    rather than testing each character in Python: on a long line of quote marks and section
    signs it makes no Python call at all."""
    import gc
    import sys

    from drafterlint.safeio import encodable, has_surrogate

    for code in (0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDCE9, 0xDFFF, 0xE000, 0x10000, 0x7F, 0xA7):
        for text in (chr(code), f"§ “{chr(code)}”", f"caf{chr(code)}.md"):
            assert has_surrogate(text) == any(0xD800 <= ord(c) <= 0xDFFF for c in text), hex(code)
    assert encodable("caf\udce9.md") == "caf\\xe9.md" and encodable("§ 2.9 “x”") == "§ 2.9 “x”"
    line = "§ 2.9.4 “Speculative Decoding” – " * 300
    calls = []
    # (no collection meanwhile: one would run other tests' finalizers, calls of no function here)
    collecting = gc.isenabled()
    gc.disable()
    sys.setprofile(lambda frame, event, arg: calls.append(event) if event == "call" else None)
    try:
        found = has_surrogate(line), encodable(line)
    finally:
        sys.setprofile(None)
        if collecting:
            gc.enable()
    assert found == (False, line)
    assert len(calls) <= 3, len(calls)  # has_surrogate (twice: once through encodable); no generator
