"""Findings grouped by cause: a rename that broke many links is one group in the text output
(the places folded, each file once) and in the Markdown outputs, while each annotation stays on
its own line and carries the group's wording; the JSON keeps every finding as it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import committed, git

RULES = """\
# Rules

## 1. Basics

See [§2.1](#21-rotation), [rotation](#21-rotation) and [§2.1](#21-rotation).
Also [a gone one](#9-gone).

## 2. Seeds

### 2.1 Rotation
"""

COMPANION = """\
# Submission

See [Rules §2.1](endpoints_rules.md#21-rotation).
"""



@pytest.fixture
def renamed(tmp_path) -> Path:
    root = committed(tmp_path / "rules", {"endpoints_rules.md": RULES, "endpoints_submission_rules.md": COMPANION,
                                          ".drafterlint.yaml": "select: [DL2]\n"})
    git(root, "checkout", "-qb", "rename")
    text = RULES.replace("### 2.1 Rotation", "### 2.1 Seed Rotation").replace("Also [a gone one](#9-gone).",
                                                                          "Also [a gone one](#9-gone), [new](#8-gone).")
    (root / "endpoints_rules.md").write_text(text, encoding="utf-8")
    git(root, "commit", "-qam", "rename")
    return root


CAUSE = ("§2.1 Rotation (`#21-rotation` in endpoints_rules.md) was renamed to §2.1 Seed Rotation "
         "(`#21-seed-rotation`)")


def test_text_output_is_one_group_with_its_places_folded(cli, renamed):
    code, out, err = cli("check", "--base-ref", "main", "--no-cache", cwd=renamed)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{CAUSE}: 4 links point to the old anchor; to repoint them all, run `drafterlint fix --base-ref main`"
    assert lines[1] == "  endpoints_rules.md:5:5, 5:27, 5:56 (DL201)"
    assert lines[2] == "  endpoints_submission_rules.md:3:5 (DL203)"
    # a finding of its own cause stays one line, as before
    assert lines[3].startswith("endpoints_rules.md:6:29: DL201 broken-fragment: no heading or anchor `#8-gone`")
    code, out, err = cli("check", "--base-ref", "main", "--no-cache", "-v", cwd=renamed)
    assert out.splitlines()[1].startswith("  endpoints_rules.md:5:5: DL201 broken-fragment: `#21-rotation` was §2.1")


def test_annotations_stay_one_per_line_in_the_groups_words(cli, renamed, tmp_path, monkeypatch):
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    code, out, err = cli("check", "--base-ref", "main", "--no-cache", "--format", "github", cwd=renamed)
    grouped = [ln for ln in out.splitlines() if ln.startswith("::error ") and CAUSE in ln]
    assert len(grouped) == 4
    assert all("this link and 3 others point to the old anchor; to repoint them all, run `drafterlint fix --base-ref " in ln
               for ln in grouped)
    code, out, err = cli("check", "--base-ref", "main", "--no-cache", "--format", "json", cwd=renamed)
    findings = json.loads(out)["findings"]
    new = [f for f in findings if not f["baseline"]]
    assert len(new) == 5 and all(f["suggestion"] is None or "matched by" not in f["suggestion"] for f in new)
    assert sum("this change renamed it to §2.1 Seed Rotation" in f["message"] for f in new) == 4


def test_the_markdown_outputs_show_the_group_once_with_its_places_folded(cli, renamed, tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    cli("check", "--base-ref", "main", "--no-cache", "--format", "github", cwd=renamed)
    code, report, err = cli("check", "--base-ref", "main", "--no-cache", "--format", "markdown", cwd=renamed)
    for text in (summary.read_text(encoding="utf-8"), report):
        assert text.count("One change broke 4 links (`DL201`, `DL203`)") == 1
        assert "4 links point to the old anchor; to repoint them all, run `drafterlint fix --base-ref " in text
        folded = text.split("<summary>The 4 links</summary>", 1)[1].split("</details>", 1)[0]
        assert folded.count("\n| ") == 5  # its header and one row a place
        # the table of findings keeps only what no shared cause explains
        table = text.split("# Findings", 1)[1]
        assert "`#8-gone`" in table and "renamed it to" not in table
    import cmarkgfm
    from cmarkgfm.cmark import Options

    html = cmarkgfm.github_flavored_markdown_to_html(report, options=Options.CMARK_OPT_UNSAFE)
    # the group folded, and the pre-existing finding (the base's own broken link) folded apart
    assert html.count("<details>") == 2 and html.count("<summary>The 4 links</summary>") == 1
