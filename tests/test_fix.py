"""`drafterlint fix`: what it rewrites, what it leaves to a human, and how it touches files."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from pathlib import Path

import pytest

from drafterlint.fix.edits import Edit, Refused, apply_edits, write_fixed

RULES = """\
# Rules

## Table of Contents

1. [Basics](#1-basics)
2. [Seeds](#2-seeds)
   - [2.1 Rotation](#21-rotation)
   - [2.3 Withdrawal](#23-withdrawal)
3. [Custom Hardware](#3-custom-hardware)
   - [3.1 Open Question: Custom SKU Classes](#31-open-question-custom-sku-classes)
4. [Appendices](#4-appendices)

## 1. Basics

See [§2.3](#23-withdrawal) for withdrawals and
[§2.3 Withdrawal](#23-withdrawal) again, then [the rule](#31-open-question-custom-sku-classes).
The [old window](#24-pareto-updates) and [rotation](#seed-rotation) are gone.
Section [§1](#23-withdrawal) names the wrong section. [Elsewhere](#21-rotation) is fine.
[§2.1](#22-withdrawal) disagrees with its target. A [reference][wd] link.

[wd]: #23-withdrawal

## 2. Seeds

### 2.1 Rotation

### 2.2 Withdrawal

### 2.4 Sunset Rules

## 3. Custom Hardware

### 3.1 Custom SKU Classes \\[SKU\\]

## 4. Appendices

### 4.1 Checklist

### 4.2 Glossary `terms`
"""

COMPANION = """\
# Submission

## 1. Basics

See [Rules §2.3](endpoints_rules.md#23-withdrawal).
"""


def _repo(tmp_path: Path, rules: str = RULES, companion: str = COMPANION, newline: str = "\n",
          bom: bool = False) -> Path:
    root = tmp_path / "rules"
    root.mkdir()
    data = rules.replace("\n", newline).encode()
    (root / "endpoints_rules.md").write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    (root / "endpoints_submission_rules.md").write_text(companion)
    return root


def _findings(cli, root: Path) -> list[dict]:
    code, out, err = cli("check", "--rules-repo", root, "--format", "json", "--no-cache", "--fail-on", "info")
    assert code in (0, 1), err
    return json.loads(out)["findings"]


def _codes_at(findings, path="endpoints_rules.md") -> set[tuple[str, int]]:
    return {(f["code"], f["line"]) for f in findings if f["path"] == path}


EXPECTED = RULES.replace(
    "   - [2.3 Withdrawal](#23-withdrawal)", "   - [2.2 Withdrawal](#22-withdrawal)"
).replace(
    "(#31-open-question-custom-sku-classes)", "(#31-custom-sku-classes-sku)"
).replace(
    "See [§2.3](#23-withdrawal)", "See [§2.2](#22-withdrawal)"
).replace(
    "[§2.3 Withdrawal](#23-withdrawal)", "[§2.2 Withdrawal](#22-withdrawal)"
).replace(
    "   - [2.2 Withdrawal](#22-withdrawal)\n",
    "   - [2.2 Withdrawal](#22-withdrawal)\n   - [2.4 Sunset Rules](#24-sunset-rules)\n",
).replace(
    "4. [Appendices](#4-appendices)\n",
    "4. [Appendices](#4-appendices)\n   - [4.1 Checklist](#41-checklist)\n"
    "   - [4.2 Glossary `terms`](#42-glossary-terms)\n",
)


def test_fixes_renumbered_reworded_and_missing_toc_entries(cli, tmp_path):
    root = _repo(tmp_path)
    code, out, err = cli("fix", "--rules-repo", root)
    text = (root / "endpoints_rules.md").read_text()
    assert text == EXPECTED, out
    # The companion's link into the renumbered section is repointed too (DL203), its text kept
    # apart from the number.
    assert (root / "endpoints_submission_rules.md").read_text() == COMPANION.replace(
        "[Rules §2.3](endpoints_rules.md#23-withdrawal)", "[Rules §2.2](endpoints_rules.md#22-withdrawal)")
    assert code == 1  # some findings are left for a human
    assert out.startswith("fixed 9 (DL104 ×3, DL201 ×5, DL203 ×1)\n"), out
    assert "same title, renumbered to §2.2" in out
    assert "same number, title now “Custom SKU Classes [SKU]”" in out


def test_what_is_left_for_a_human_and_why(cli, tmp_path):
    root = _repo(tmp_path)
    code, out, err = cli("fix", "--rules-repo", root, cwd=root)
    left = out.split("needing a human:\n", 1)[1]
    lines = {line.split(": ", 1)[0].strip(): line for line in left.splitlines()}
    assert "no heading has that title, and §2.4 is now “Sunset Rules”, another section" in lines["endpoints_rules.md:20:5"]
    assert "carries no section number" in lines["endpoints_rules.md:20:42"]
    # `[§1](#23-withdrawal)`: repointing it would leave its text naming the wrong section.
    assert "would leave or add a finding: DL205" in lines["endpoints_rules.md:21:9"]
    # DL205 is never rewritten: either side could be wrong.
    assert "DL205" in lines["endpoints_rules.md:22:1"] and "either could be the wrong one" in lines["endpoints_rules.md:22:1"]
    assert "plain [text](target)" in lines["endpoints_rules.md:22:53"]
    text = (root / "endpoints_rules.md").read_text()
    for untouched in ("[§2.1](#22-withdrawal)", "[old window](#24-pareto-updates)", "[§1](#23-withdrawal)",
                      "[wd]: #23-withdrawal", "[rotation](#seed-rotation)"):
        assert untouched in text


def test_the_rules_declarations_decide_what_is_fixed_and_what_is_left(cli, tmp_path, monkeypatch):
    """Each rule's FIX is the one source: changed in-process, `fix`, its --select check and the
    rule's page all follow it, with nothing else to edit."""
    from drafterlint import docs
    from drafterlint.checks._fixes import NOT_FIXED, Availability, Fix
    from drafterlint.checks.base import rule_by_code

    cross_doc, mismatch = rule_by_code("DL203"), rule_by_code("DL205")
    monkeypatch.setattr(cross_doc, "FIX", Fix.for_a_human("a test declared it so"))
    monkeypatch.setattr(mismatch, "FIX", NOT_FIXED)
    root = _repo(tmp_path)
    code, out, err = cli("fix", "--rules-repo", root, cwd=root)
    assert out.startswith("fixed 8 (DL104 ×3, DL201 ×5)\n"), out
    assert "endpoints_submission_rules.md:5:5: DL203 " in out and out.count("a test declared it so") == 1
    assert "endpoints_rules.md:22:1: DL205" not in out and "either could be the wrong one" not in out
    assert "| Fixed by `drafterlint fix` | no: a test declared it so (listed as needing a human) |" in docs.rule_page(cross_doc)
    assert "| Fixed by `drafterlint fix` | no |" in docs.rule_page(mismatch)
    code, out, err = cli("fix", "--select", "DL205", "--rules-repo", root)
    assert code == 2 and "(fixable: DL104, DL201, DL204)" in err
    with pytest.raises(TypeError):
        Fix(Availability.SOMETIMES)


def test_after_fix_check_no_longer_reports_the_fixed_findings(cli, tmp_path):
    root = _repo(tmp_path)
    before = _findings(cli, root)
    cli("fix", "--rules-repo", root)
    after = _findings(cli, root)
    fixed_lines = {8, 10, 15, 16}
    assert {("DL201", n) for n in fixed_lines} <= _codes_at(before)
    assert not {("DL201", n) for n in fixed_lines} & _codes_at(after)
    assert not any(f["code"] == "DL104" for f in after)
    assert any(f["code"] == "DL104" for f in before)
    assert not any(f["code"] == "DL203" for f in after)
    # Nothing new: every finding after is one that was there before (lines moved by 2 inserted).
    key = lambda f: (f["code"], f["path"], f["message"])  # noqa: E731
    assert {key(f) for f in after} <= {key(f) for f in before}


def test_second_run_changes_nothing(cli, tmp_path):
    root = _repo(tmp_path)
    cli("fix", "--rules-repo", root)
    first = {p.name: p.read_bytes() for p in root.iterdir()}
    code, out, err = cli("fix", "--rules-repo", root)
    assert out.startswith("fixed 0\n")
    assert {p.name: p.read_bytes() for p in root.iterdir()} == first


def test_crlf_and_bom_kept_byte_for_byte(cli, tmp_path):
    root = _repo(tmp_path, newline="\r\n", bom=True)
    cli("fix", "--rules-repo", root)
    data = (root / "endpoints_rules.md").read_bytes()
    assert data == b"\xef\xbb\xbf" + EXPECTED.replace("\n", "\r\n").encode()


def test_no_trailing_newline_and_mixed_endings_kept(cli, tmp_path):
    rules = RULES.rstrip("\n")
    root = _repo(tmp_path, rules=rules)
    raw = (root / "endpoints_rules.md").read_bytes().replace(b"## 1. Basics\n", b"## 1. Basics\r\n")
    (root / "endpoints_rules.md").write_bytes(raw)
    cli("fix", "--rules-repo", root)
    data = (root / "endpoints_rules.md").read_bytes()
    assert not data.endswith(b"\n")
    assert b"## 1. Basics\r\n" in data and data.count(b"\r\n") == 1
    assert data == EXPECTED.rstrip("\n").replace("## 1. Basics\n", "## 1. Basics\r\n").encode()


def test_diff_writes_nothing_and_applies_with_git(cli, tmp_path):
    root = _repo(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in root.glob("*.md")}
    code, out, err = cli("fix", "--diff", "--rules-repo", root, cwd=root)
    assert code == 1  # there is something to fix
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in root.glob("*.md")} == before
    assert out.startswith("--- a/endpoints_rules.md\n+++ b/endpoints_rules.md\n")
    assert "+   - [4.1 Checklist](#41-checklist)\n" in out
    assert err.startswith("would fix 9 ")
    # The diff is the fix: git applies it and the result is what `fix` writes.
    subprocess.run(["git", "-C", str(root), "apply", "-"], input=out.encode(), check=True)
    assert (root / "endpoints_rules.md").read_text() == EXPECTED


def test_select_fixes_only_those_rules(cli, tmp_path):
    root = _repo(tmp_path)
    code, out, err = cli("fix", "--select", "DL104", "--rules-repo", root)
    assert out.startswith("fixed 3 (DL104 ×3)\n")
    text = (root / "endpoints_rules.md").read_text()
    assert "(#23-withdrawal)" in text and "[4.1 Checklist](#41-checklist)" in text
    code, out, err = cli("fix", "--select", "DL3", "--rules-repo", root)
    assert code == 2 and "none of these rules has fixes" in err


def test_check_fix_fixes_then_reports_what_is_left(cli, tmp_path):
    root = _repo(tmp_path)
    code, out, err = cli("check", "--fix", "--rules-repo", root, "--format", "json", "--no-cache")
    assert err.startswith("fixed 9 ")
    findings = json.loads(out)["findings"]
    assert not any(f["code"] in ("DL104", "DL203") for f in findings)
    assert ("DL201", 20) in _codes_at(findings)  # left, three lines down


def test_file_mode_kept_and_symlink_inside_kept(cli, tmp_path):
    root = _repo(tmp_path)
    real = root / "docs" / "rules.md"
    real.parent.mkdir()
    (root / "endpoints_rules.md").rename(real)
    (root / "endpoints_rules.md").symlink_to(Path("docs") / "rules.md")
    os.chmod(real, 0o640)
    cli("fix", "--rules-repo", root)
    assert (root / "endpoints_rules.md").is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert real.read_text() == EXPECTED
    assert not [p for p in real.parent.iterdir() if p.name != "rules.md"]  # no temporary left


def test_document_outside_the_repository_is_never_written(cli, tmp_path):
    root = _repo(tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_bytes((root / "endpoints_rules.md").read_bytes())
    (root / "endpoints_rules.md").unlink()
    (root / "endpoints_rules.md").symlink_to(outside)
    cli("fix", "--rules-repo", root)
    assert outside.read_text() == RULES
    # And the applier itself refuses, whoever calls it.
    with pytest.raises(Refused, match="outside the repository"):
        write_fixed(root, "endpoints_rules.md", outside.read_bytes(), b"changed")
    assert outside.read_text() == RULES


def test_unparseable_file_is_not_touched(cli, tmp_path):
    root = _repo(tmp_path)
    bad = RULES.encode().replace(b"Basics\n\nSee", b"Basics\n\n\xff See")
    (root / "endpoints_rules.md").write_bytes(bad)
    code, out, err = cli("fix", "--rules-repo", root)
    assert (root / "endpoints_rules.md").read_bytes() == bad
    assert "endpoints_rules.md" not in out.split("needing a human", 1)[0].split("\n", 1)[1]


def test_applier_checks_old_text_and_overlaps():
    raw = b"one\r\ntwo words\r\n"
    assert apply_edits(raw, [Edit(2, 5, "words", "bytes"), Edit(3, 1, "", "three\n")]) == \
        b"one\r\ntwo bytes\r\nthree\r\n"
    with pytest.raises(Refused, match="no longer reads"):
        apply_edits(raw, [Edit(2, 1, "six", "ten")])
    with pytest.raises(Refused, match="same text"):
        apply_edits(raw, [Edit(2, 1, "two", "2"), Edit(2, 2, "wo", "x")])
    with pytest.raises(Refused, match="same text"):
        apply_edits(raw, [Edit(2, 1, "two", "2"), Edit(2, 1, "", "x")])
    # Two insertions at one place keep their order.
    assert apply_edits(raw, [Edit(1, 1, "", "a\n"), Edit(1, 1, "", "b\n")]) == b"a\r\nb\r\n" + raw


def test_write_refuses_a_file_changed_since_read(tmp_path):
    (tmp_path / "d.md").write_bytes(b"now\n")
    with pytest.raises(Refused, match="changed while"):
        write_fixed(tmp_path, "d.md", b"before\n", b"after\n")
    assert (tmp_path / "d.md").read_bytes() == b"now\n"


AMBIGUOUS = """\
# Rules

## 1. Basics

See [§2.3](#23-withdrawal) and [§6.1](#61-seed-rotation-window).

## 2. Seeds

### 2.2 Withdrawal

## 5. Results

### 5.1 Withdrawal

## 6. Other

### 6.1 Seed Rotation Policy

### 6.2 Seed Rotation Window
"""


def test_ambiguous_targets_are_left(cli, tmp_path):
    root = _repo(tmp_path, rules=AMBIGUOUS)
    code, out, err = cli("fix", "--rules-repo", root)
    assert (root / "endpoints_rules.md").read_text() == AMBIGUOUS
    assert "2 headings have that title (§2.2, §5.1)" in out
    assert "§6.2 has that title but §6.1 has its number" in out


WIDE = """\
# Rules

## Contents

9. [Nine](#9-nine)
10. [Ten](#10-ten)
    - [10.1 First](#101-first)
    - [10.2 Second](#102-second)

## 9. Nine

## 10. Ten

### 10.1 First

### 10.2 Second

## 11. Eleven

### 11.1 Checks
"""


def test_toc_entries_follow_the_tables_numbering_and_nesting(cli, tmp_path):
    root = _repo(tmp_path, rules=WIDE, companion="# Submission\n")
    code, out, err = cli("fix", "--rules-repo", root)
    assert code == 0, out
    # The new section gets the next list number (its own), its subsection nests under it as
    # the others nest under theirs: indented to the parent entry's text.
    assert (root / "endpoints_rules.md").read_text() == WIDE.replace(
        "    - [10.2 Second](#102-second)\n",
        "    - [10.2 Second](#102-second)\n11. [Eleven](#11-eleven)\n    - [11.1 Checks](#111-checks)\n")


def test_toc_with_mixed_styles_is_left(cli, tmp_path):
    mixed = WIDE.replace("    - [10.2 Second]", "    * [10.2 Second]")
    root = _repo(tmp_path, rules=mixed)
    code, out, err = cli("fix", "--rules-repo", root)
    assert (root / "endpoints_rules.md").read_text().count("11.1") == 1  # only the heading
    assert "use different list markers" in out


CHAPTERS = """\
# Rules

## 1. Basics

See [§3.1](#31-scope), [§8.10](#810-limits) and [§2.5](#25-status).

## 2. Seeds

### 2.2 Rotation

## 8. Results

### 8.9 Limits

## 9. Other

### 9.1 Scope
"""


def test_same_title_is_trusted_only_within_the_chapter(cli, tmp_path):
    root = _repo(tmp_path, rules=CHAPTERS, companion="# Submission\n")
    code, out, err = cli("fix", "--rules-repo", root)
    text = (root / "endpoints_rules.md").read_text()
    # §8.10 Limits became §8.9 Limits: same chapter, one digit fewer.
    assert "[§8.9](#89-limits)" in text
    # A deleted §3.1 Scope is not the §9.1 Scope of another chapter.
    assert "[§3.1](#31-scope)" in text
    assert "§9.1 has that title, but in another chapter" in out
    assert "[§2.5](#25-status)" in text


def test_cross_repository_link_and_suppression(cli, tmp_path):
    url = "https://github.com/mlcommons/endpoints/blob/main/docs/guide.md"
    rules = (f"# Rules\n\n## 1. Basics\n\nSee [guide §2.3]({url}#23-withdrawal).\n\n"
             "<!-- drafterlint-disable DL201 -->\nKept: [§2.2](#22-gone).\n<!-- drafterlint-enable DL201 -->\n\n"
             "## 2. Gone\n")
    root = _repo(tmp_path, rules=rules, companion="# Submission\n")
    registry = tmp_path / "endpoints"
    (registry / "docs").mkdir(parents=True)
    (registry / "docs" / "guide.md").write_text("# Guide\n\n## 2.2 Withdrawal\n")
    (registry / "src/inference_endpoint/validation/policies").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(registry)], check=True)  # a checkout: files are complete
    code, out, err = cli("fix", "--rules-repo", root, "--registry-repo", registry)
    text = (root / "endpoints_rules.md").read_text()
    assert f"[guide §2.2]({url}#22-withdrawal)" in text, out
    assert out.startswith("fixed 1 (DL204 ×1)")
    # A silenced finding is not a finding: not fixed, not listed.
    assert "[§2.2](#22-gone)" in text and "22-gone" not in out


# -- with the base version of the documents (real git repositories) ---------------------------

SPEC = """\
# Rules

## Table of Contents

1. [Basics](#1-basics)
2. [Models](#2-models)
   - [2.1 Equivalence](#21-equivalence)

## 1. Basics

See [§2.1.4](#214-speculative-decoding) and [the drafting rules](#214-speculative-decoding).
Also [§2.1.5](#215-scope) and [pareto](#216-pareto-window).

## 2. Models

### 2.1 Equivalence

#### 2.1.4 Speculative Decoding

#### 2.1.5 Scope

#### 2.1.6 Pareto Window
"""


def _git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.invalid",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-C", str(root), *args], check=True, env=env,
                          capture_output=True, text=True).stdout


def _history(tmp_path: Path, before: str, after: str) -> Path:
    root = _repo(tmp_path, rules=before, companion="# Submission\n")
    _git(root, "init", "-q", "--initial-branch=main")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "rules")
    (root / "endpoints_rules.md").write_text(after)
    _git(root, "commit", "-qam", "rename")
    return root


def test_base_ref_maps_a_renamed_heading_the_document_alone_cannot(cli, tmp_path):
    after = SPEC.replace("#### 2.1.4 Speculative Decoding", "#### 2.1.4 Draft Models")
    root = _history(tmp_path, SPEC, after)
    # Without the base: a new title under the same number shares no word with the old one.
    code, out, err = cli("fix", "--diff", "--rules-repo", root, cwd=root)
    assert "would fix 0" in err and "§2.1.4 is now “Draft Models”, another section" in err
    code, out, err = cli("fix", "--base-ref", "HEAD~1", "--rules-repo", root, cwd=root)
    assert out.startswith("fixed 2 (DL201 ×2)"), out
    assert "at the base it was §2.1.4 Speculative Decoding; renamed in place to §2.1.4 Draft Models" in out
    assert (root / "endpoints_rules.md").read_text() == after.replace("(#214-speculative-decoding)", "(#214-draft-models)")
    # The diff touches only those links, and the check is clean of link findings afterwards.
    diff = _git(root, "diff", "-U0")
    assert [ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")] == [
        "-See [§2.1.4](#214-speculative-decoding) and [the drafting rules](#214-speculative-decoding).",
        "+See [§2.1.4](#214-draft-models) and [the drafting rules](#214-draft-models).",
    ]
    assert not [f for f in _findings(cli, root) if f["code"].startswith("DL2")]
    code, out, err = cli("fix", "--base-ref", "HEAD~1", "--rules-repo", root, cwd=root)
    assert out.startswith("fixed 0")


def test_base_ref_moved_deleted_and_already_broken(cli, tmp_path):
    before = SPEC.replace("Also [§2.1.5](#215-scope)", "Also [§2.1.5](#215-scope), [old](#99-gone),")
    # §2.1.5 Scope moves to the end of the document as §3.1 Scope; §2.1.6 is deleted.
    after = before.replace("#### 2.1.5 Scope\n\n", "").replace("#### 2.1.6 Pareto Window\n", "") + "\n## 3. Rest\n\n#### 3.1 Scope\n"
    root = _history(tmp_path, before, after)
    code, out, err = cli("fix", "--base-ref", "HEAD~1", "--rules-repo", root, cwd=root)
    text = (root / "endpoints_rules.md").read_text()
    # Moved: found again by its level and title (the document alone would refuse another chapter).
    assert "[§3.1](#31-scope)" in text
    assert "at the base it was §2.1.5 Scope; now §3.1 Scope (same heading, moved)" in out
    assert "at the base it was §2.1.6 Pareto Window, which this change deleted" in out
    # Broken before the change: not this change's business.
    assert re.search(r"\n\d+ findings the merge base of HEAD~1 already has were not touched", out)
    assert "[old](#99-gone)" in text and "99-gone" not in out


def test_base_ref_that_is_not_a_commit_is_a_usage_error(cli, tmp_path):
    root = _history(tmp_path, SPEC, SPEC + "\n")
    code, out, err = cli("fix", "--base-ref", "no-such-branch", "--rules-repo", root, cwd=root)
    assert code == 2 and "no-such-branch" in err and "Traceback" not in err


def test_base_ref_section_moved_to_the_front(cli, tmp_path):
    before = ("# Rules\n\n## 1. Basics\n\nSee [§2.3](#23-gamma).\n\n## 2. Parts\n\n"
              "### 2.1 Alpha\n\n### 2.2 Beta\n\n### 2.3 Gamma\n")
    after = ("# Rules\n\n## 1. Basics\n\nSee [§2.3](#23-gamma).\n\n## 2. Parts\n\n"
             "### 2.1 Gamma\n\n### 2.2 Alpha\n\n### 2.3 Beta\n")
    root = _history(tmp_path, before, after)
    code, out, err = cli("fix", "--base-ref", "HEAD~1", "--rules-repo", root, cwd=root)
    assert "at the base it was §2.3 Gamma; moved, now §2.1 Gamma" in out, out
    assert "See [§2.1](#21-gamma)." in (root / "endpoints_rules.md").read_text()


def test_a_repository_in_drafterlints_cache_is_not_fixed(cli, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("DRAFTERLINT_CACHE", str(cache))
    copy = cache / "repos" / "mlcommons__endpoints_policies" / "checkout"
    copy.mkdir(parents=True)
    (copy / "endpoints_rules.md").write_text(RULES)
    (copy / "endpoints_submission_rules.md").write_text(COMPANION)
    code, out, err = cli("fix", "--rules-repo", copy)
    assert (copy / "endpoints_rules.md").read_text() == RULES
    assert out.startswith("fixed 0\n") and "drafterlint's cached copy" in out
