"""Differential test: a document parsed section by section (drafterlint.markdown.sections) is the
document parse_document makes of it whole, model for model: parsed into an empty store, again
from the store alone, and with its sections moved down by lines put before them. On the
generated documents of test_gfm_differential (joined by lines that may or may not be cuts: after
an HTML block, a fence or a list, a heading line is not always a heading), on the minimal
disagreements found before, and on every Markdown fixture of the project. The default run draws
a fixed, derandomized set; the slow set (`pytest -m slow`) 2000 more.

And what sectioning is for, counted in parses (never in seconds): an edit re-parses the section
it is in and no other; a definition another section uses re-parses that section too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drafterlint.markdown.parse import parse_document
from drafterlint.markdown.sections import WORTH_SECTIONING, MemoryStore, parse_sectioned
from drafterlint.markdown.table_rule import MAX_TABLE_CELLS
from tests.helpers.gfm_documents import documents
from tests.helpers.gfm_regressions import REGRESSIONS

ROOT = Path(__file__).resolve().parents[1]

# Lines between the generated pieces: candidates the parser may or may not make cuts (level 1,
# 2 and 3 ATX headings, indented, empty, holding a pipe, a tag, a comment's end or a definition),
# and lines that look alike and are none (level 4, no space, indented code, in a container).
_JOINS = [
    "# Title", "## Section", "  ## Indented", "   # Three", "#", "##", "## a | b", "# end -->",
    "## <div>", "#\tTab", "## [r]: /x", "# [l](#section)", "## `code`", "## Section", "### Sub",
    "#NoSpace", "    # code", "> # quoted", "- # item", "## ?>", "# ]]>", "## </script>",
    "### Sub", "   ### Indented", "###", "### a | b", "###\tTab", "### <div>", "### -->",
    "### [r]: /x", "#### Four", "###NoSpace", "    ### code", "> ### quoted", "1. ### item",
    "### Sub ###", "### ]]>",
]

sectioned_documents = st.lists(st.tuples(documents, st.sampled_from(_JOINS)), min_size=1, max_size=5).map(
    lambda parts: "\n".join(f"{doc}\n{join}" for doc, join in parts)
)


def assert_sectioned_is_whole(text: str, *, limited: tuple[int, ...] = ()) -> None:
    """Sectioned is whole: into an empty store, from the store (nothing parsed again but the
    sections starting at `limited`, which a bound cut short and are not kept), and moved down."""
    shown = repr(text if len(text) < 2000 else text[:2000] + "…")
    whole = parse_document(text, "doc.md")
    moved = "moved down\n\n" + text
    moved_whole = parse_document(moved, "doc.md")
    for store in (MemoryStore(), MemoryStore(persists=True)):  # the run's own objects, JSON
        assert parse_sectioned(text, "doc.md", store)[0] == whole, shown
        parsed: list[int] = []
        doc, kept = parse_sectioned(text, "doc.md", store, parsed=parsed)
        assert doc == whole, shown
        if kept:
            assert parsed == list(limited), shown  # the others from the store
        # every section after the first moved down: reused with its lines shifted
        assert parse_sectioned(moved, "doc.md", store)[0] == moved_whole, shown


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sectioned_documents)
def test_generated_documents_parse_sectioned_as_whole(text):
    assert_sectioned_is_whole(text)


@pytest.mark.slow  # 2000 documents
@settings(max_examples=2000, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sectioned_documents)
def test_more_generated_documents_parse_sectioned_as_whole(text):
    assert_sectioned_is_whole(text)


@pytest.mark.parametrize("text", REGRESSIONS)
def test_regressions_parse_sectioned_as_whole(text):
    assert_sectioned_is_whole(text)
    assert_sectioned_is_whole(f"# Before\n{text}\n## After\n{text}\n# End\n")
    assert_sectioned_is_whole(f"### Before\n{text}\n### After\n{text}\n## End\n")


def _fixtures() -> list[Path]:
    return sorted(p for d in ("rules_fixtures", "tests/data") for p in (ROOT / d).rglob("*.md"))


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: str(p.relative_to(ROOT)))
def test_fixtures_parse_sectioned_as_whole(path):
    assert_sectioned_is_whole(path.read_text(encoding="utf-8"))


def test_a_table_over_the_cell_budget_in_one_section():
    rows = MAX_TABLE_CELLS // 2 + 1
    big = "| a | b |\n|---|---|\n" + "| x | [y](#one) |\n" * rows
    text = f"# One\n\ntext\n\n## Two\n\n{big}\n## Three\n\n| c | d |\n|---|---|\n| e | f |\n"
    assert parse_document(text, "doc.md").limits  # (what this test is about)
    assert_sectioned_is_whole(text, limited=(5,))


# -- what an edit costs, in parses -------------------------------------------------------------


def _document(sections: int) -> str:
    parts = ["Preamble with a [link](#section-3).\n"]
    for n in range(1, sections + 1):
        parts.append(f"## Section {n}\n\nText of section {n}, see [the definition][d{n}].\n\n"
                     f"- an item\n- another\n\n[d{n}]: https://example.com/{n}\n")
    return "\n".join(parts)


def _section_lines(text: str) -> dict[str, int]:
    return {line: n for n, line in enumerate(text.split("\n"), 1) if line.startswith("## ")}


def test_an_edit_re_parses_only_its_section():
    text = _document(6)
    store = MemoryStore()
    parsed: list[int] = []
    assert parse_sectioned(text, "doc.md", store, parsed=parsed)[1]
    assert len(parsed) == 7  # the preamble and six sections, each once

    edited = text.replace("Text of section 4,", "Text of section 4, now longer,\nover two lines,")
    parsed = []
    doc, _ = parse_sectioned(edited, "doc.md", store, parsed=parsed)
    assert parsed == [_section_lines(edited)["## Section 4"]]
    assert doc == parse_document(edited, "doc.md")  # the sections after it moved down a line

    appended = edited + "\nA last paragraph.\n"
    parsed = []
    assert parse_sectioned(appended, "doc.md", store, parsed=parsed)[0] == parse_document(appended, "doc.md")
    assert parsed == [_section_lines(appended)["## Section 6"]]


def test_an_edit_re_parses_only_its_level_3_section():
    text = "# Title\n\n" + _document(3).replace("## Section 2\n", "## Section 2\n\n### Part a\n\nA.\n\n### Part b\n")
    store = MemoryStore()
    parsed: list[int] = []
    assert parse_sectioned(text, "doc.md", store, parsed=parsed)[1]
    assert len(parsed) == 6  # the title with the preamble, three sections, two parts of section 2

    edited = text.replace("A.\n", "A, edited.\n")
    parsed = []
    assert parse_sectioned(edited, "doc.md", store, parsed=parsed)[0] == parse_document(edited, "doc.md")
    assert parsed == [edited.split("\n").index("### Part a") + 1]


def test_a_definition_re_parses_the_sections_that_use_it():
    text = _document(4)
    store = MemoryStore()
    parse_sectioned(text, "doc.md", store)
    # section 2 now defines d4 first: section 4's link resolves to it (the first definition wins)
    edited = text.replace("[d2]: https://example.com/2\n", "[d2]: https://example.com/2\n[d4]: /elsewhere\n")
    parsed: list[int] = []
    doc, _ = parse_sectioned(edited, "doc.md", store, parsed=parsed)
    lines = _section_lines(edited)
    assert parsed == [lines["## Section 2"], lines["## Section 4"]]
    assert doc == parse_document(edited, "doc.md")
    assert [link.target for link in doc.links if link.kind == "reference"][-1] == "/elsewhere"


def test_a_fence_left_open_runs_into_the_next_heading():
    # the line scanner's mistake: the heading after an open fence is code, no cut
    text = "# One\n\n```\ncode\n## Not a heading\n```\n\n## Two\n\n<div>\n## Inside the HTML block\n\n## Three\n"
    store = MemoryStore()
    doc, kept = parse_sectioned(text, "doc.md", store)
    assert kept
    assert [h.text for h in doc.headings] == ["One", "Two", "Three"]
    assert doc == parse_document(text, "doc.md")
    parsed: list[int] = []
    edited = text.replace("code\n", "code, edited\n")
    assert parse_sectioned(edited, "doc.md", store, parsed=parsed)[0] == parse_document(edited, "doc.md")
    assert parsed == [1, 1]  # up to the heading in the fence (no cut), then up to "## Two"


def _large_rules(tmp_path: Path) -> tuple[Path, str]:
    """A rules repository whose rules document (41 sections) is over the sectioning size."""
    rules = tmp_path / "rules"
    rules.mkdir()
    padding = "A long paragraph of rules text that keeps the document over the sectioning size. " * 10
    doc = _document(40).replace("\n\n- an item", f"\n\n{padding}\n\n- an item") + "\nSee [nowhere](#nowhere).\n"
    assert len(doc.encode()) >= WORTH_SECTIONING
    (rules / "endpoints_rules.md").write_text(doc, encoding="utf-8")
    return rules, doc


def test_check_keeps_a_document_in_one_entry_rewritten_after_an_edit(cli, tmp_path):
    import os

    from drafterlint.cache import unpack_text
    from drafterlint.cache_store import Store

    rules, doc = _large_rules(tmp_path)
    check = ["check", "--rules-repo", rules, "--select", "DL1,DL2", "--format", "json", "--exit-zero"]
    entries = Path(os.environ["DRAFTERLINT_CACHE"]) / "check-cache"

    def pack() -> tuple[str, dict[str, dict]]:
        """The document's one entry of sections: its name and its sections' entries by name (not
        the entry keeping it whole, a JSON array: see the test after this one)."""
        (name,) = [p.name for p in entries.glob("doc-*.json")
                   if "endpoints_rules.md" in (text := p.read_text()) and text.partition("\n")[2].startswith("{")]
        return name, Store(entries).load(name, unpack_text)[1]

    first = cli(*check)
    name, before = pack()
    assert len(before) == 41  # the preamble and forty sections
    written = (entries / name).stat().st_ino  # (a write replaces the file: another inode)
    cli(*check, "--select", "DL1")  # another run (the run's cache misses), the document unchanged
    assert (entries / name).stat().st_ino == written  # nothing parsed again: nothing written
    (rules / "endpoints_rules.md").write_text(doc.replace("Text of section 17,", "Text of section 17, edited,"),
                                              encoding="utf-8")
    after = cli(*check)
    assert after == cli(*check, "--no-cache")
    assert "#nowhere" in first[1] and first[1] == after[1]
    again, now = pack()
    assert again == name  # the same entry, rewritten
    (edited,) = set(now) - set(before)
    assert "Text of section 17, edited," in now[edited]["part"]
    # the others written back as they were read; the section's old version kept after them
    assert {n: e for n, e in now.items() if n != edited} == before
    assert list(now)[-1] in before and "Text of section 17," in now[list(now)[-1]]["part"]


def test_a_pack_is_read_back_as_written_and_a_damaged_one_is_not_used(tmp_path):
    from drafterlint.cache import pack_text, unpack_text
    from drafterlint.cache_store import Store

    entries = {"a": {"at": 1, "part": '["x\\u00e9",[]]'}, "b": {"at": 9, "uses": [["l", None]], "part": "[]"}}
    text = pack_text("docs/rules.md", entries)
    assert unpack_text(text) == ("docs/rules.md", entries)
    store = Store(tmp_path)
    name = "doc-" + "0" * 64 + ".json"
    assert store.save_text(name, text)
    assert store.load(name, unpack_text) == ("docs/rules.md", entries)
    assert not store.save_text(name, text.replace("x", "é"))  # (the store keeps ASCII only)
    cut = text[:-1]  # a model shorter than its line says: the digest is right, the pack is not
    assert store.save_text(name, cut)
    assert store.load(name, unpack_text) is None
    assert not (tmp_path / name).exists()
    # what only the run that made an entry keeps (its model's objects) is never written
    with pytest.raises(ValueError):
        unpack_text(pack_text("docs/rules.md", {"a": {"at": 1, "_part": [1, "x"], "part": "[]"}}))


def test_a_pack_holding_what_only_a_run_keeps_is_not_used(cli, tmp_path):
    # `_part` in an entry is the run's own model, read as it is: written into a pack by anyone
    # (a cache CI restores), it made a run with the document edited fail with a traceback.
    import json
    import os

    from drafterlint.cache_store import Store

    rules, doc = _large_rules(tmp_path)
    check = ["check", "--rules-repo", rules, "--select", "DL1,DL2", "--format", "json", "--exit-zero"]
    entries = Path(os.environ["DRAFTERLINT_CACHE"]) / "check-cache"
    cli(*check)
    (name,) = [p.name for p in entries.glob("doc-*.json")
               if "endpoints_rules.md" in (text := p.read_text()) and text.partition("\n")[2].startswith("{")]
    line, _, parts = (entries / name).read_text().partition("\n")[2].partition("\n")
    value = json.loads(line)
    for _, entry, _ in value["entries"]:
        entry["_part"] = [entry["at"], "not a part"]
    assert Store(entries).save_text(name, json.dumps(value) + "\n" + parts)  # (its digest right)
    (rules / "endpoints_rules.md").write_text(doc + "\nEdited.\n", encoding="utf-8")
    assert cli(*check) == cli(*check, "--no-cache")


def test_a_large_document_seen_unchanged_is_kept_whole_and_read_without_its_sections(cli, tmp_path, monkeypatch):
    # Every section of it from the store: the document is as seen before, and likely read again
    # so (the companion of a rules document being edited): kept whole too, and the next run
    # reads it in one piece, without finding its sections, their entries or assembling them.
    import os

    from drafterlint.markdown import sections

    rules, doc = _large_rules(tmp_path)
    check = ["check", "--rules-repo", rules, "--format", "json", "--exit-zero"]
    entries = Path(os.environ["DRAFTERLINT_CACHE"]) / "check-cache"
    real = sections.parse_sectioned
    parsed: list[list[int]] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        kwargs["parsed"] = kwargs.get("parsed", [])
        parsed.append(kwargs["parsed"])
        return real(*args, **kwargs)

    monkeypatch.setattr(sections, "parse_sectioned", counted)
    whole = cli(*check, "--no-cache")
    assert cli(*check) == whole and len(parsed) == 1 and len(parsed[0]) == 41  # sectioned, every one parsed
    kept = len(list(entries.glob("doc-*.json")))
    assert cli(*check, "--select", "DL1") == cli(*check, "--no-cache", "--select", "DL1")
    assert len(parsed) == 2 and parsed[1] == []  # every section from the store
    assert len(list(entries.glob("doc-*.json"))) == kept + 1  # and the document kept whole
    for select in ("DL2", "DL1,DL2"):  # the run's cache misses: the document read whole
        assert cli(*check, "--select", select) == cli(*check, "--no-cache", "--select", select)
    assert len(parsed) == 2
    (rules / "endpoints_rules.md").write_text(doc.replace("Text of section 17,", "Text of section 17, edited,"),
                                              encoding="utf-8")
    assert cli(*check) == cli(*check, "--no-cache")
    assert len(parsed) == 3 and len(parsed[2]) == 1  # another document: its sections, one parsed again


# -- what naming the sections costs, counted ----------------------------------------------------


class _CountingHash:
    """hashlib's sha256 as sections.py uses it, counting the bytes it is fed."""

    def __init__(self, fed: list[int], made: Any) -> None:
        self.fed, self.made = fed, made

    def update(self, data: bytes) -> None:
        self.fed[0] += len(data)
        self.made.update(data)

    def digest(self) -> bytes:
        return self.made.digest()

    def hexdigest(self) -> str:
        return self.made.hexdigest()


def _hashed_bytes(monkeypatch, text: str, store: MemoryStore) -> int:
    import hashlib

    from drafterlint.markdown import sections

    fed = [0]

    def sha256(data: bytes = b"") -> _CountingHash:
        fed[0] += len(data)
        return _CountingHash(fed, hashlib.sha256(data))

    monkeypatch.setattr(sections, "_sha256", sha256)
    assert parse_sectioned(text, "doc.md", store)[1]
    monkeypatch.undo()
    return fed[0]


@pytest.mark.parametrize("stored", [False, True], ids=["empty store", "every section stored"])
def test_naming_the_sections_is_linear_in_the_headings(monkeypatch, stored):
    # Each section looked up every end a probe may try, up to the document's end, and named
    # each by hashing all it held: 10,000 headings took 16 s instead of 0.7 s.
    def fed(headings: int) -> int:
        text = "".join(f"\n## Same\n\nText {n}.\n" for n in range(headings))
        store = MemoryStore()
        if stored:
            parse_sectioned(text, "doc.md", store)
        return _hashed_bytes(monkeypatch, text, store)

    small, large = fed(250), fed(1000)
    assert large <= 4.4 * small, (small, large)


def test_a_section_reaching_past_its_first_candidate_is_read_from_the_store():
    # A fence holding six lines that look like headings: the probe tries the 1st, 2nd, 4th and
    # 8th candidate (the last of them "## Last"), and a later run finds that section by the
    # reach kept beside its first candidate's name.
    fence = "```sh\n" + "".join(f"# step {n}\necho {n}\n" for n in range(6)) + "```\n"
    text = "# Setup\n\n" + fence + "\n## After\n\nText.\n\n## Last\n\nMore.\n"
    store = MemoryStore(persists=True)
    parsed: list[int] = []
    assert parse_sectioned(text, "doc.md", store, parsed=parsed)[1]
    assert parsed[:4] == [1, 1, 1, 1]  # (tried up to three lines in the fence, then "## Last")
    parsed = []
    edited = text.replace("More.", "More, edited.")
    assert parse_sectioned(edited, "doc.md", store, parsed=parsed)[0] == parse_document(edited, "doc.md")
    assert parsed == [edited.split("\n").index("## Last") + 1]


def test_sections_that_start_alike_and_end_apart_are_both_read_from_the_store():
    # Both start "# word" with an HTML block after it; the first block runs to a later line than
    # the second: one marker keeps both reaches (the slow set drew this document).
    text = '# word\n<h2 id="raw">Raw</h2>\n## Section\n# word\n\n# Title\n# word\n<h2 id="raw">Raw</h2>\n## Section\n\n# Title'
    for store in (MemoryStore(), MemoryStore(persists=True)):
        parse_sectioned(text, "doc.md", store)
        parsed: list[int] = []
        assert parse_sectioned(text, "doc.md", store, parsed=parsed)[0] == parse_document(text, "doc.md")
        assert parsed == []
