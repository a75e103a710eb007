"""Rename-aware messages with --base-ref, and the old-anchor -> heading-now mapping `fix` uses."""

from __future__ import annotations

import json

from drafterlint.markdown.parse import parse_document
from drafterlint.renames import heading_now
from tests.helpers import git_commit_all
from tests.helpers.samples import COMPANION

BEFORE = """# 1. Top

See [a](#81-pareto-updates), [b](#81-pareto-updates), [c](#82-withdrawal), [d](#gone).

## 8.1 Pareto Updates

Text.

## 8.2 Withdrawal

Text.

## Appendix

Text.
"""


def doc(text: str):
    return parse_document(text, "d.md")


def test_mapping_by_number_and_place_by_title_and_by_closest_title():
    before = doc(BEFORE)
    r = heading_now(before, doc(BEFORE.replace("8.1 Pareto Updates", "8.1 Corrections")), "81-pareto-updates")
    assert (r.new.slug, r.how, r.verb) == ("81-corrections", "same number and place", "renamed")
    r = heading_now(before, doc(BEFORE.replace("## 8.2 Withdrawal", "## 8.3 Withdrawal")), "82-withdrawal")
    assert (r.new.slug, r.how, r.verb) == ("83-withdrawal", "same title", "renumbered")
    r = heading_now(before, doc(BEFORE.replace("## Appendix", "## Appendices")), "appendix")
    assert (r.new.slug, r.how) == ("appendices", "same place")
    # Still resolving, or never resolving: nothing to say.
    assert heading_now(before, doc(BEFORE), "81-pareto-updates") is None
    assert heading_now(before, doc(BEFORE), "gone") is None


def test_mapping_refuses_to_guess_when_the_heading_is_gone():
    removed = BEFORE.replace("## 8.2 Withdrawal\n\nText.\n\n", "")
    assert heading_now(doc(BEFORE), doc(removed), "82-withdrawal") is None


def test_check_base_ref_says_what_each_link_was_renamed_to(cli, tmp_path):
    root = tmp_path / "rules"
    root.mkdir()
    (root / "endpoints_submission_rules.md").write_text(COMPANION, encoding="utf-8")
    (root / "endpoints_rules.md").write_text(BEFORE, encoding="utf-8")
    git_commit_all(root, "2026-01-01", "base")
    (root / "endpoints_rules.md").write_text(BEFORE.replace("8.1 Pareto Updates", "8.1 Corrections"), encoding="utf-8")
    git_commit_all(root, "2026-01-02", "rename")
    code, out, _ = cli("check", "--no-cache", "--select", "DL201", "--base-ref", "HEAD~1", "--format", "json", cwd=root)
    assert code == 1
    new = [f for f in json.loads(out)["findings"] if not f["baseline"]]
    assert [f["message"] for f in new] == [
        "`#81-pareto-updates` was §8.1 Pareto Updates; this change renamed it to §8.1 Corrections "
        "(`#81-corrections`); run `drafterlint fix --base-ref HEAD~1`"] * 2
    old = [f for f in json.loads(out)["findings"] if f["baseline"]]
    assert len(old) == 1 and "#gone" in old[0]["message"]
