"""A finding never follows from another file's failure to load: a file that cannot be read is
DL702's, and the checks that would read it say nothing about what it holds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from drafterlint.config import Config
from drafterlint.engine import build_context, run

FIX = Path(__file__).resolve().parents[1] / "rules_fixtures" / "crossval"
POLICY = "registry/src/inference_endpoint/validation/policies/2026-11-C0"
FILES = sorted(p.relative_to(FIX).as_posix() for p in FIX.rglob("*") if p.suffix in (".md", ".yaml"))


def findings(root: Path) -> set[tuple[str, str, str]]:
    ctx = build_context(Config(), root / "rules", root / "registry")
    return {(f.code, f.location.path, f.message) for f in run(ctx).findings}


def test_every_file_of_the_fixture_is_covered():
    assert f"{POLICY}/catalog.yaml" in FILES and f"{POLICY}/point_checks.yaml" in FILES
    assert "registry/examples/10_Agentic_Inference/README.md" in FILES
    assert "rules/endpoints_rules.md" in FILES


@pytest.mark.parametrize("rel", FILES)
def test_an_unreadable_file_adds_only_its_dl702(tmp_path, rel):
    root = tmp_path / "c"
    shutil.copytree(FIX, root)
    before = findings(root)
    target = root / rel
    # A YAML syntax error, or a byte that is not UTF-8 in Markdown: either way, unreadable.
    target.write_bytes(target.read_bytes() + (b"\nkey: [\n" if rel.endswith(".yaml") else b"\n\xe9\n"))
    added = findings(root) - before
    path = rel.split("/", 1)[1]
    assert [(code, p) for code, p, _ in added] == [("DL702", path)], sorted(added)


def test_a_catalog_syntax_error_adds_no_list_drift(tmp_path):
    # The case that was reported: five list-drift findings on top of the DL702.
    root = tmp_path / "c"
    shutil.copytree(FIX, root)
    with open(root / POLICY / "catalog.yaml", "a", encoding="utf-8") as fh:
        fh.write("catalogs: [\n")
    got = findings(root)
    assert {code for code, _, _ in got} == {"DL702"}, sorted(got)
