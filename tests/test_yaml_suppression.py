"""`# drafterlint: disable=CODE` in registry YAML: on the finding's line, or on its own line above."""

from __future__ import annotations

import pytest

from drafterlint.registry.yamlload import suppressed_lines

CAT = "registry:src/inference_endpoint/validation/policies/2026-10-C1/catalog.yaml"
HEAD = (
    "    - model: m9{comment}\n"
    "      repository: orgx/m9-medusa\n"
    "      revision: 3333333333333333333333333333333333333333\n"
    "      approved_cohort: 2026-09-C0\n"
    "      method: medusa\n"
)
TOP = "version: 2026-10-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n"
TAIL = "  approved_checkpoints: {}\n"


def catalog(second_comment: str = "", above: str | None = None) -> str:
    text = TOP + HEAD.format(comment="")
    if above is not None:
        text += above + "\n"
    return text + HEAD.format(comment=second_comment) + TAIL


def dl303(engine, text: str):
    result = engine({CAT: text}, {"select": ["DL303"]})
    return [(f.code, f.location.line) for f in result.findings]


def test_the_duplicate_is_found_without_a_comment(engine):
    assert dl303(engine, catalog()) == [("DL303", 10)]


@pytest.mark.parametrize("text", [
    catalog("  # drafterlint: disable=DL303"),
    catalog("  #drafterlint: disable=DL304,DL303"),
    catalog(above="    # drafterlint: disable=DL303 (listed twice on purpose until the next cohort)"),
    catalog(above="# drafterlint: disable=DL301 DL303"),
])
def test_a_comment_on_the_line_or_above_silences_that_code(engine, text):
    assert dl303(engine, text) == []


@pytest.mark.parametrize("text", [
    catalog("  # drafterlint: disable=DL304"),  # another code
    catalog(above="    # drafterlint: disable=DL30"),  # codes are whole codes, as in Markdown
    catalog(above="    # a comment\n    # drafterlint: disable=DL303\n    # another comment"),  # not directly above
])
def test_a_comment_for_something_else_does_not(engine, text):
    assert [code for code, _ in dl303(engine, text)] == ["DL303"]


def test_a_trailing_comment_silences_only_its_own_line():
    lines = suppressed_lines("a: 1  # drafterlint: disable=DL304\nb: 2\n# drafterlint: disable=DL701\nc: 3\n")
    assert lines == {1: frozenset({"DL304"}), 3: frozenset({"DL701"}), 4: frozenset({"DL701"})}


def test_the_duplicate_key_rule_honours_it_too(engine):
    text = "version: 2026-10-C1\nrevision: 1\n# drafterlint: disable=DL304\nrevision: 1\ncatalogs: {}\n"
    result = engine({CAT: text}, {"select": ["DL304"]})
    assert result.findings == []
    result = engine({CAT: text.replace("# drafterlint: disable=DL304\n", "")}, {"select": ["DL304"]})
    assert [f.code for f in result.findings] == ["DL304"]
