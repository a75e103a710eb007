"""One fingerprint per finding: unique within a run, unchanged when unrelated lines move."""

from __future__ import annotations

import collections

from drafterlint.findings import Finding, Location, Severity


def _doc(links_at_top: int = 0, *, count: int = 23) -> str:
    """A document with `count` links to one missing anchor, spread over two sections, and
    `links_at_top` unrelated lines inserted above them."""
    lines = ["# 1. Intro", ""]
    lines += [f"Filler paragraph {i}." for i in range(links_at_top)]
    lines += ["", "## 1.1 First", ""]
    for i in range(count):
        if i == count // 2:
            lines += ["", "## 1.2 Second", ""]
        lines.append(f"See [the old part](#81-gone) and item {i}.")
    return "\n".join(lines) + "\n"


def _broken(result) -> list[Finding]:
    return [f for f in result.findings if f.code == "DL201"]


def test_23_links_to_one_missing_anchor_have_23_fingerprints(engine):
    found = _broken(engine({"rules:doc.md": _doc()}))
    assert len(found) == 23
    assert len({f.fingerprint for f in found}) == 23


def test_moving_the_links_ten_lines_down_changes_no_fingerprint(tmp_path):
    from tests.helpers import run_engine

    before = _broken(run_engine({"rules:doc.md": _doc(0)}, tmp_path / "a"))
    after = _broken(run_engine({"rules:doc.md": _doc(10)}, tmp_path / "b"))
    assert [f.location.line + 10 for f in before] == [f.location.line for f in after]
    assert [f.fingerprint for f in before] == [f.fingerprint for f in after]


def test_a_new_link_in_one_section_leaves_the_other_sections_fingerprints(tmp_path):
    from tests.helpers import run_engine

    base = _broken(run_engine({"rules:doc.md": _doc()}, tmp_path / "a"))
    # One more broken link at the top of §1.1: the links of §1.2 keep theirs.
    text = _doc().replace("## 1.1 First\n\n", "## 1.1 First\n\nAlso [x](#81-gone).\n\n")
    changed = _broken(run_engine({"rules:doc.md": text}, tmp_path / "b"))
    second = lambda fs: [f.fingerprint for f in fs if f.context == "Second"]  # noqa: E731
    assert second(base) and second(base) == second(changed)
    assert len({f.fingerprint for f in changed} - {f.fingerprint for f in base}) == 1


def test_fingerprints_unique_with_many_repeated_defects(engine):
    files = {
        "rules:doc.md": _doc() + "\n".join(
            ["", "## 1.3 Third", "", *[f"[a](missing.md) [b](#nope) [c](other.md#x) {i}" for i in range(15)]]
        ) + "\n",
        "rules:other.md": "# Other\n",
        "rules:sub/again.md": _doc(count=7),
    }
    result = engine(files)
    counts = collections.Counter(f.fingerprint for f in result.findings)
    assert len(result.findings) > 60
    assert [fp for fp, n in counts.items() if n > 1] == []


def test_fingerprint_names_neither_line_nor_message():
    def finding(line: int, message: str) -> Finding:
        return Finding("DL201", "broken-fragment", Severity.ERROR, Location("rules", "a.md", line, 3),
                       message, key="#gone", context="Intro", ordinal=2)

    assert finding(5, "at line 5").fingerprint == finding(95, "at line 95").fingerprint
    assert finding(5, "m").fingerprint != Finding(
        "DL201", "broken-fragment", Severity.ERROR, Location("rules", "a.md", 5, 3), "m",
        key="#gone", context="Intro", ordinal=3).fingerprint


def test_any_file_name_has_a_fingerprint():
    # A name decoded with surrogateescape from a non-UTF-8 file system, and a lone surrogate.
    names = ["r\udce9gles.md", "r\xe9gles.md", "\ud800.md"]
    prints = {
        Finding("DL201", "broken-fragment", Severity.ERROR, Location("rules", n), "m", key="k").fingerprint
        for n in names
    }
    assert len(prints) == 3


def test_stale_markers_in_one_section_are_told_apart(engine):
    import datetime

    text = "# 1. A\n\n`[TENTATIVE — Subject to change after 2020-01-01]`\n\n" \
           "`[TENTATIVE — Subject to change after 2020-01-01]`\n"
    result = engine({"rules:doc.md": text}, today=datetime.date(2026, 1, 1))
    stale = [f for f in result.findings if f.code == "DL801"]
    assert len(stale) == 2 and len({f.fingerprint for f in stale}) == 2
