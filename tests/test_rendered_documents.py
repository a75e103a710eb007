"""The documents checked are the files github.com renders as Markdown, whatever the case of their
names and whichever of its extensions they take; a link to a folder lands on the README GitHub
shows there (drafterlint.rendered)."""

from __future__ import annotations

import re

import pytest

from drafterlint.rendered import is_markdown, readme_of
from drafterlint.sources import RepoView
from tests.helpers import git_commit_all, write_files


def test_every_file_github_renders_is_checked_by_default(tmp_path, cli):
    # the repository: three files, three spellings, one broken link each
    root = tmp_path / "rules"
    write_files({
        "rules:README.MD": "# Top\n\nSee [x](#nope).\n",
        "rules:guide.markdown": "# Guide\n\ntext\n\n[y](missing.md)\n",
        "rules:docs/x.md": "# X\n\n[z](#gone)\n",
        "rules:notes.txt": "[not rendered](#nope)\n",
        "rules:endpoints_rules.md": "# Rules\n",  # what --rules-repo must hold to be taken for the rules
    }, tmp_path)
    git_commit_all(root, "2026-12-01")
    code, out, err = cli("check", "--rules-repo", root, "--no-cache", "--select", "DL2")
    assert code == 1, err
    found = re.findall(r"^mlcommons/endpoints_policies/(\S+): (DL2\d\d) ", out, re.M)
    assert found == [("README.MD:3:5", "DL201"), ("docs/x.md:3:1", "DL201"), ("guide.markdown:5:1", "DL202")]


@pytest.mark.parametrize("name", ["a.md", "A.MD", "b.Markdown", "c.mdown", "d.mkdn", "e.mkd", "f.mdwn",
                                  "g.mkdown", "h.ronn", "i.livemd", "j.workbook", "k.Rmd", "l.qmd", "m.litcoffee"])
def test_github_renders_these_as_markdown(name):
    assert is_markdown(name)


@pytest.mark.parametrize("name", ["a.txt", "a.rst", "a.scd", "md", "a.md.orig", "a.yaml", "README"])
def test_github_renders_these_otherwise(name):
    assert not is_markdown(name)


def test_a_pattern_takes_rendered_files_whatever_their_case(tmp_path):
    write_files({f"rules:{name}": "# x\n" for name in (
        "README.MD", "docs/Guide.Md", "docs/notes.markdown", "docs/figure.png", "docs/data.json", "Docs/other.md",
    )}, tmp_path)
    view = RepoView("rules", tmp_path / "rules")
    assert view.expand(["**/*"]) == ["Docs/other.md", "README.MD", "docs/Guide.Md", "docs/notes.markdown"]
    assert view.expand(["docs/*.md"]) == ["Docs/other.md", "docs/Guide.Md"]
    assert view.expand(["**/*.markdown"]) == ["docs/notes.markdown"]
    # a name given explicitly is kept as given, rendered or not
    assert view.expand(["docs/data.json", "docs/*.MD"]) == ["docs/data.json", "Docs/other.md", "docs/Guide.Md"]


def test_the_readme_github_shows_among_several():
    assert readme_of(["a.md", "README.txt", "readme.md"]) == "readme.md"  # formatted first
    assert readme_of(["README.rst", "README.md"]) == "README.md"  # then alphabetically
    assert readme_of(["README", "readme.txt"]) == "README"
    assert readme_of(["READ.ME", "notes.md"]) is None


@pytest.mark.parametrize(("present", "shown"), [
    ((".github/README.md", "README.md", "docs/README.md"), ".github/README.md"),
    (("README.md", "docs/README.md"), "README.md"),
    (("docs/README.md",), "docs/README.md"),
    (("docs/README.md", "Readme.markdown"), "Readme.markdown"),
])
def test_the_repository_readme_is_the_first_of_github_docs_root(tmp_path, present, shown):
    # docs.github.com: a README in .github/, then the root, then docs/
    write_files({f"rules:{rel}": f"# {rel}\n" for rel in present}, tmp_path)
    assert RepoView("rules", tmp_path / "rules").readme("") == shown


def test_a_link_to_a_folder_lands_on_its_readme(engine):
    result = engine({
        "rules:notes.md": "[a](sub/#part) [b](sub/#nothing) [c](other/#x) [d](/#intro) [e](./#nope)\n",
        "rules:sub/Readme.mdown": "# S\n\n## Part\n",
        "rules:sub/README.txt": "plain\n",
        "rules:other/README.rst": "X\n=\n",
        "rules:README.md": "# Not shown\n",
        "rules:.github/README.md": "# Intro\n",
    })
    found = [(f.location.line, f.location.column, f.code, f.message) for f in result.findings if f.code.startswith("DL2")]
    # the fragment of a folder whose README is no Markdown is not checked (reStructuredText's anchors)
    assert [(line, col, code) for line, col, code, _ in found] == [(1, 16, "DL203"), (1, 61, "DL203")]
    assert "sub/Readme.mdown" in found[0][3] and ".github/README.md" in found[1][3]
