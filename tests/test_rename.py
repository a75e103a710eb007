"""Renaming any numbered heading makes every link to its old anchor a finding, each at its line."""

from __future__ import annotations

import shutil

import pytest

from drafterlint.markdown.parse import parse_document
from tests.helpers import FIXTURES

DOC = FIXTURES / "example" / "rules" / "endpoints_rules.md"
_HEADINGS = [h for h in parse_document(DOC.read_text(), DOC.name).headings if h.number]


@pytest.mark.parametrize("heading", _HEADINGS, ids=[h.number for h in _HEADINGS])
def test_renamed_heading_breaks_each_link(heading, tmp_path, engine):
    rules = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    lines = DOC.read_text().split("\n")
    lines[heading.line - 1] = lines[heading.line - 1].rstrip() + " Renamed"
    (rules / DOC.name).write_text("\n".join(lines))

    from drafterlint.config import Config
    from drafterlint.engine import build_context, run

    original = parse_document(DOC.read_text(), DOC.name)
    expected = {
        (DOC.name, link.line, link.column)
        for link in original.links
        if link.target.lower() == f"#{heading.slug}"
    }
    companion = parse_document((rules / "endpoints_submission_rules.md").read_text(), "c")
    expected |= {
        ("endpoints_submission_rules.md", link.line, link.column)
        for link in companion.links
        if link.target.lower() == f"endpoints_rules.md#{heading.slug}"
    }
    result = run(build_context(Config(), rules, None))
    got = {
        (f.location.path, f.location.line, f.location.column)
        for f in result.findings
        if f.code in ("DL201", "DL203")
    }
    assert expected <= got
