"""Every position drafterlint reports is git's: a line ends at "\\n" only.

git, GitHub's diff and blob views and the lines the Actions annotations and a review's comments
are placed at count lines by "\\n". The Markdown parser also ends a line at a bare "\\r" (as
CommonMark does), so without renumbering every finding after one pointed a line too far, and its
column counted from the "\\r". Each test reads a real git repository's own numbering (`git grep
-n`, `git blame`) and compares every output with it. The other characters str.splitlines cuts at
(\\x0b \\x0c \\x1c-\\x1e \\x85 U+2028 U+2029) are text for git and for the parser alike.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.helpers import committed, git, run_engine

# Bare CRs (one alone, one opening a line, two before a CRLF), a CRLF, and each other character
# str.splitlines takes for a line end; the links after them are broken (#12-target), and fix
# repoints them to §1.3.
DOC = (
    "# Rules\n\n## 1. Links\n\n"
    "Plain\rbare CR then [one](#12-target) here.\n"
    "CRLF line [two](#12-target)\r\n"
    "\rstarts with CR [three](#12-target)\n"
    "Splitlines' others \x0b \x0c \x1c \x1d \x1e \x85 \u2028 \u2029 then [four](#12-target)\n"
    "\n### 1.1 More\r\r\n"
    "After two CRs [five](#12-target) and [six](#12-target)\n"
    "\n### 1.3 Target\n\nText.\n"
)
LINKS = ("[one]", "[two]", "[three]", "[four]", "[five]", "[six]")


def git_places(repo: Path, path: str) -> dict[str, tuple[int, int, int]]:
    """Per link text, git's (line, character column, UTF-8 byte column) of its `[`: the line as
    `git grep -n` numbers it and `git blame` shows it, the columns counted in that line."""
    def git_bytes(*args: str) -> bytes:  # not as text: universal newlines would cut at "\r"
        return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True).stdout

    lines = git_bytes("show", f"HEAD:{path}").split(b"\n")
    out = {}
    for link in LINKS:
        [row] = git_bytes("grep", "-n", "-F", f"{link}(", "--", path).rstrip(b"\n").split(b"\n")
        line = int(row.split(b":")[1])
        blamed = git_bytes("blame", "-p", "-L", f"{line},{line}", "--", path).rstrip(b"\n").split(b"\n")[-1]
        assert blamed == b"\t" + lines[line - 1]  # the same line for both
        text = lines[line - 1].decode("utf-8")
        column = text.index(link) + 1
        out[link] = (line, column, len(text[: column - 1].encode("utf-8")) + 1)
    return out


def test_every_format_places_findings_at_gits_lines(tmp_path, cli):
    repo = committed(tmp_path / "rules", {".drafterlint.yaml": "select: [DL2]\n"})
    (repo / "endpoints_rules.md").write_bytes(DOC.encode("utf-8"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the document")
    want = git_places(repo, "endpoints_rules.md")
    assert want["[one]"][0] == 5 and want["[five]"][0] == 11  # the fixture holds what it says

    def run(fmt: str) -> str:
        code, out, err = cli("check", "--no-cache", "--format", fmt, cwd=repo)
        assert code == 1, err
        return out

    found = json.loads(run("json"))["findings"]
    assert sorted((f["line"], f["column"]) for f in found) == sorted((v[0], v[1]) for v in want.values())
    text = re.findall(r"^endpoints_rules\.md:(\d+):(\d+): DL201", run("text"), flags=re.M)
    assert sorted((int(a), int(b)) for a, b in text) == sorted((v[0], v[1]) for v in want.values())
    annotations = re.findall(r"^::error file=endpoints_rules\.md,line=(\d+),col=(\d+),", run("github"), flags=re.M)
    assert sorted((int(a), int(b)) for a, b in annotations) == sorted((v[0], v[1]) for v in want.values())
    sarif = json.loads(run("sarif"))["runs"][0]["results"]
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in sarif]
    assert sorted((r["startLine"], r["startColumn"]) for r in regions) == sorted((v[0], v[1]) for v in want.values())
    # rdjson counts columns in bytes; each suggestion replaces the target's bytes on git's line
    rdjson = json.loads(run("rdjson"))["diagnostics"]
    starts = [d["location"]["range"]["start"] for d in rdjson]
    assert sorted((s["line"], s["column"]) for s in starts) == sorted((v[0], v[2]) for v in want.values())
    raw = (repo / "endpoints_rules.md").read_bytes().split(b"\n")
    for d in rdjson:
        [s] = d["suggestions"]
        line = s["range"]["start"]["line"]
        assert raw[line - 1][s["range"]["start"]["column"] - 1:s["range"]["end"]["column"] - 1] == b"12-target"
        assert s["text"] == "13-target"
    # fix says where it mends at the same places (--diff exits 1: it would change something)
    patch = repo.parent / "fix.patch"
    code, _, err = cli("fix", "--diff", f"--patch={patch}", cwd=repo)
    fixes = re.findall(r"^  endpoints_rules\.md:(\d+):(\d+): DL201", err, flags=re.M)
    assert code == 1 and sorted((int(a), int(b)) for a, b in fixes) == sorted((v[0], v[1]) for v in want.values()), err
    # and its patch applies where git reads the lines, making what fix writes
    git(repo, "apply", str(patch))
    applied = (repo / "endpoints_rules.md").read_bytes()
    git(repo, "checkout", "--", "endpoints_rules.md")
    assert cli("fix", cwd=repo)[0] == 0
    assert (repo / "endpoints_rules.md").read_bytes() == applied == DOC.replace("#12-target", "#13-target").encode()



# A paragraph's lines: each starts with a letter (no block starts there), then words, the
# characters str.splitlines cuts at and bare CRs, and one link; line ends of each kind.
_OTHERS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_words = st.text(alphabet="ab" + _OTHERS + "\r", max_size=6)
_ENDS = ("\n", "\r\n", "\r", "\r\r\n")


@st.composite
def documents(draw) -> str:
    lines = draw(st.lists(st.tuples(_words, _words, st.sampled_from(_ENDS)), min_size=1, max_size=6))
    body = "".join(f"a{before} [l{n}](#gone) {after}b{end}" for n, (before, after, end) in enumerate(lines))
    return "# Rules\n\n## 1. Links\n\n" + body


def counted(text: str, at: int) -> tuple[int, int]:
    """(line, column) of offset `at` counting "\\n" only, independently of drafterlint."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
@example("# Rules\n\n## 1. Links\n\na\r\u2028 [l0](#gone) \x85b\r\r\na [l1](#gone) b\r")
def test_each_finding_is_at_the_line_and_column_a_newline_count_gives(document):
    with tempfile.TemporaryDirectory() as tmp:
        result = run_engine({"rules:endpoints_rules.md": document}, Path(tmp), {"select": ["DL201"]})
    found = sorted((f.location.line, f.location.column) for f in result.findings if f.code == "DL201")
    assert found == sorted(counted(document, m.start()) for m in re.finditer(r"\[l\d+\]", document))


def test_the_lines_a_change_touched_are_read_from_gits_diff_as_git_numbers_them(tmp_path):
    """`git diff -U0` ends a line at "\\n" only, and a hunk holds as many lines as its header
    says: an added line holding U+2028 or \\x0c before text that reads like a hunk header, or an
    added line starting `++ b/` (printed `+++ b/…`), is a line of its hunk."""
    from drafterlint.gitops import changed_lines

    before = "".join(f"line {i}\n" for i in range(1, 21))
    repo = committed(tmp_path / "repo", {"a.md": before, "b.md": before})
    base = git(repo, "rev-parse", "HEAD")
    a = before.replace("line 3\n", "line 3 \u2028@@ -1 +15,2 @@ and \x0c@@ -1 +17 @@\n")
    b = before.replace("line 5\n", "++ b/a.md\n").replace("line 9\n", "line 9 changed\n")
    (repo / "a.md").write_bytes(a.encode("utf-8"))
    (repo / "b.md").write_bytes(b.encode("utf-8"))
    git(repo, "commit", "-qam", "change")
    assert changed_lines(repo, base) == {"a.md": {3}, "b.md": {5, 9}}


def test_yaml_positions_are_gits_lines_and_its_suppression_comments_too(tmp_path):
    """PyYAML ends a line at a bare "\\r", \\x85, U+2028 and U+2029 as well: in a quoted value they
    are text on git's line, and the finding after them (a repeated key) is at git's line and
    column; a suppression comment is read on git's lines too."""
    from drafterlint.checks._examples import POLICIES, catalog_start, head_entry

    path = POLICIES + "2026-10-C1/catalog.yaml"
    text = (catalog_start("2026-10-C1") + head_entry()
            + '      notes: "one\rtwo\x85three\u2028four\u2029five\r\r\nsix"\n'
            + "      revision: 3333333333333333333333333333333333333333\n  approved_checkpoints: {}\n")
    [found] = [f for f in run_engine({f"registry:{path}": text}, tmp_path / "a").findings if f.code == "DL304"]
    at = text.rindex("revision: 3")
    assert (found.location.line, found.location.column) == counted(text, at)
    assert found.related[0].line == counted(text, text.index("revision: 1111"))[0]
    assert f"line {counted(text, text.index('revision: 1111'))[0]}" in found.message
    silenced = text.replace("revision: 3333333333333333333333333333333333333333",
                            "revision: 3333333333333333333333333333333333333333  # drafterlint: disable=DL304")
    assert not [f for f in run_engine({f"registry:{path}": silenced}, tmp_path / "b").findings if f.code == "DL304"]


def _failing_markdown_examples():
    import drafterlint.checks
    from drafterlint.checks.base import TODAY

    for mod in map(importlib.import_module, (f"drafterlint.checks.{n}" for n in drafterlint.checks._RULES)):
        for i, ex in enumerate(mod.EXAMPLES):
            if ex.expect and any(k.endswith(".md") and "\n" in v for k, v in ex.files.items()):
                yield pytest.param(ex, TODAY in mod.RULE.needs, id=f"{mod.RULE.code}-{i}")


@pytest.mark.parametrize("example,dated", list(_failing_markdown_examples()))
def test_every_rules_messages_name_gits_lines(example, dated, tmp_path):
    """Each rule's failing example, with a blank line after each document's first line, written
    "\\n\\n" (two lines for git) and "\\r\\r\\n" (one: the parser reads the same text): every
    finding, its related places and every line its message names ("line N", "path:N") are one
    less in the second, past that first line of the document they are in."""
    import datetime

    kw = {"today": datetime.date(2026, 12, 2)} if dated else {}
    md = [k for k, v in example.files.items() if k.endswith(".md") and "\n" in v]

    def run(blank: str, where: str):
        files = {k: v.replace("\n", blank, 1) if k in md else v for k, v in example.files.items()}
        return run_engine(files, tmp_path / where, dict(example.config), **kw).findings

    paths = {k.partition(":")[2] for k in md}

    def less(loc):
        return replace(loc, line=loc.line - 1) if loc.path in paths and loc.line > 1 else loc

    def said(f):
        message = f.message
        for path in paths:
            message = re.sub(rf"(?<={re.escape(path)}:)(\d+)", lambda m: str(int(m[1]) - 1), message)
        if f.location.path in paths:
            message = re.sub(r"(?<=\bline )(\d+)", lambda m: str(int(m[1]) - 1), message)
        return message

    two, one = run("\n\n", "two"), run("\r\r\n", "one")
    assert len(two) == len(one) and two
    for a, b in zip(two, one):
        assert (b.code, b.location, b.related) == (a.code, less(a.location), tuple(map(less, a.related))), (a, b)
        assert b.message == said(a), (a.message, b.message)


def test_a_table_left_unparsed_is_said_at_gits_line(tmp_path):
    """DL702's message for a table over the cell budget names the table's line: git's, past a
    blank line written "\\r\\r\\n" (one line for git, two for the parser), as its place is."""
    from drafterlint.markdown.blocks import MAX_TABLE_CELLS

    columns = 300
    row = "|" + "a|" * columns + "\n"
    big = row + "|" + "-|" * columns + "\n" + row * (MAX_TABLE_CELLS // columns + 1)
    text = "# Rules\r\r\n## 1. Tables\n\n" + big
    [found] = run_engine({"rules:endpoints_rules.md": text}, tmp_path, {"select": ["DL702"]}).findings
    line = counted(text, text.index("|"))[0]
    assert (found.location.line, found.location.column) == (line, 1)
    assert f"the table at line {line} " in found.message, found.message
