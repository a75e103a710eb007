"""The documentation generated from the code (drafterlint.docs) is the committed one, and the
docs' own links are checked by drafterlint (.drafterlint-docs.yaml, run by .ci/run)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from drafterlint import docs
from drafterlint.cli import docs_main

ROOT = Path(__file__).resolve().parents[1]
DOCS_CONFIG = ROOT / ".drafterlint-docs.yaml"

pytestmark = pytest.mark.skipif(not (ROOT / "docs").is_dir(), reason="needs the project's checkout")


def test_the_committed_pages_are_what_the_generator_makes(capsys):
    code = docs_main(["--check", "--root", str(ROOT)])
    assert code == 0, capsys.readouterr().out


def _project_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "action.yml", copy / "action.yml")
    return copy


def test_a_stale_or_orphaned_page_is_named_then_rewritten(tmp_path, capsys):
    project = _project_copy(tmp_path)
    page = project / "docs/rules/DL201.md"
    page.write_text(page.read_text().replace("Default severity | error", "Default severity | info"))
    (project / "docs/rules/DL999.md").write_text("# DL999 a rule that no longer exists\n")
    maintainers = project / "docs/maintainers.md"
    maintainers.write_text(maintainers.read_text().replace("| `fail-on` | `error` |", "| `fail-on` | `warning` |")
                           + "\nA hand-written line after the table.\n")
    capsys.readouterr()

    assert docs_main(["--check", "--root", str(project)]) == 1
    out = capsys.readouterr().out
    for stale in ("docs/rules/DL201.md", "docs/rules/DL999.md", "docs/maintainers.md"):
        assert f"{stale}: out of date" in out
    assert "Default severity | info" in page.read_text()  # --check writes nothing

    assert docs_main(["--root", str(project)]) == 0
    assert docs_main(["--check", "--root", str(project)]) == 0
    assert page.read_text() == (ROOT / "docs/rules/DL201.md").read_text()
    assert not (project / "docs/rules/DL999.md").exists()
    assert maintainers.read_text().endswith("\nA hand-written line after the table.\n")


def test_python_m_drafterlint_docs_runs_the_generator(tmp_path):
    """The documented command (docs/development.md, .ci/run) reaches the generator through
    docs/__main__.py, which reads its flags in drafterlint.cli."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "drafterlint.docs", "--check", "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert done.stderr.strip() == f"drafterlint.docs: {tmp_path} is not a drafterlint checkout (no action.yml)"


def test_not_a_checkout_is_a_one_line_error(tmp_path, capsys):
    assert docs_main(["--check", "--root", str(tmp_path)]) == 2
    assert "no action.yml" in capsys.readouterr().err


def test_every_rule_has_a_page_and_explain_prints_it(cli):
    code, listing, _ = cli("rules")
    assert code == 0
    codes = [line.split()[0] for line in listing.splitlines() if line.startswith("DL")]
    assert len(codes) >= 30
    for rule_code in codes:
        page = (ROOT / "docs/rules" / f"{rule_code}.md").read_text(encoding="utf-8")
        code, shown, _ = cli("explain", rule_code)
        assert code == 0
        # One renderer: the page is explain's text plus the line that says it is generated.
        title, _, rest = shown.partition("\n\n")
        assert page == f"{title}\n\n{docs._GENERATED}\n\n{rest}"
        assert f"[{rule_code}]({rule_code}.md)" in (ROOT / "docs/rules/README.md").read_text()


def test_a_page_shows_severity_needs_fix_options_and_the_tested_examples():
    from drafterlint.checks.base import rule_by_code

    page = docs.rule_page(rule_by_code("DL104"))
    assert "| Default severity | warning |" in page
    assert "| Needs | the rules repository |" in page
    assert "| Fixed by `drafterlint fix` | yes" in page
    assert "| `toc_titles` | list of strings | `[\"Table of Contents\", \"Contents\"]` |" in page
    assert "### Passes:" in page and "### Fails:" in page and "Reported at `rules:" in page
    assert "| Fixed by `drafterlint fix` | no: " in docs.rule_page(rule_by_code("DL205"))


def test_an_example_with_backticks_or_bytes_that_are_not_utf8_is_shown_as_written():
    assert docs._fenced("a ``` b", "markdown") == ["````markdown", "a ``` b", "````"]
    assert docs._fenced("Caf\udce9", "text")[1] == "Caf\\xe9"


def test_every_configuration_key_is_described():
    """The configuration reference has no empty description cell."""
    from drafterlint.config import config_schema

    missing = []

    def walk(schema, where):
        for name, sub in (schema.get("properties") or {}).items():
            sub = docs._resolved(sub)
            # rule_options.CODE only groups a rule's options; the rule's page describes it.
            if not sub.get("description") and where != "rule_options.":
                missing.append(f"{where}{name}")
            for inner in (sub, sub.get("items"), sub.get("additionalProperties")):
                if isinstance(inner, dict):
                    walk(docs._resolved(inner), f"{where}{name}.")

    walk(config_schema(), "")
    assert missing == []


def test_the_docs_links_are_checked_by_drafterlint(cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = cli("check", "--config", str(DOCS_CONFIG), "--no-cache")
    assert code == 0, out + err


def test_a_broken_anchor_in_the_docs_fails_that_check(cli, tmp_path, monkeypatch):
    shutil.copy(DOCS_CONFIG, tmp_path / DOCS_CONFIG.name)
    (tmp_path / "README.md").write_text("# Project\n\nSee [the page](docs/page.md#usage).\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/page.md").write_text("# Page\n\n## Using it\n\nBack to [the top](#page).\n")
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli("check", "--config", str(tmp_path / DOCS_CONFIG.name), "--no-cache")
    assert code == 1
    assert "README.md:3:5: DL203 broken-cross-doc-fragment" in out


def test_the_readme_is_short_and_each_user_is_one_link_away():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    for page in ("docs/maintainers.md", "docs/contributors.md", "docs/leads.md", "docs/rules/README.md"):
        assert f"]({page})" in readme
