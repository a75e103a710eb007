"""Small documents and registries more than one test module uses."""

from __future__ import annotations

from pathlib import Path

# -- a catalog with one head (REV_A) and one checkpoint (REV_B): the extra list and cache tests --

REV_A = "a1" * 20
REV_B = "b2" * 20
CATALOG = f"""version: 2026-11-C0
revision: 1
catalogs:
  approved_spec_decode_heads:
    - model: m1
      repository: orga/m1-eagle
      revision: "{REV_A}"
      approved_cohort: 2026-09-C1
      method: eagle
  approved_checkpoints:
    m1:
      - repository: orga/m1
        revision: "{REV_B}"
"""


# -- a rules document with a broken and a good link, and its companion: --base-ref, baseline, renames --

COMPANION = "# Submission rules\n\n## 1. Scope\n\nNothing here.\n"


def rules_text(*, pad: int = 0, second_broken: bool = False, typo: bool = False, title: str = "Updates") -> str:
    """A rules document with one broken link (`#gone`), one good one (`#12-updates`), and `pad`
    unrelated lines above both."""
    word = "Intoduction" if typo else "Introduction"
    lines = [f"# 1. {word}", "", *[f"Line {i} of filler." for i in range(pad)], "",
             "## 1.1 Links", "", "See [the old part](#gone).", "",
             f"See [updates](#{'12-updatez' if second_broken else '12-updates'}).", "",
             f"## 1.2 {title}", "", "Text.", ""]
    return "\n".join(lines)


def typo_pull_request(tmp_path) -> Path:
    """A rules repository (git) whose last commit made a typo in the main document, which holds
    one broken link from the start; the companion is the same in both commits."""
    from tests.helpers import git_commit_all

    root = tmp_path / "rules"
    root.mkdir()
    (root / "endpoints_rules.md").write_text(rules_text(), encoding="utf-8")
    (root / "endpoints_submission_rules.md").write_text(COMPANION, encoding="utf-8")
    git_commit_all(root, "2026-01-01", "base")
    (root / "endpoints_rules.md").write_text(rules_text(typo=True), encoding="utf-8")
    git_commit_all(root, "2026-01-02", "change")
    return root
