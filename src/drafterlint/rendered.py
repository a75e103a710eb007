"""Which files github.com renders as Markdown, and which README it shows for a folder.

GitHub renders a file through github/markup by the language github-linguist gives it: the
languages "Markdown", "RMarkdown" and "Literate CoffeeScript" are rendered as Markdown. Their
extensions, from linguist's languages.yml, in any case (`README.MD` is rendered): `.scd` is
left out, linguist gives it to SuperCollider or Markdown by its content, and so is the file name
`contents.lr` (a Lektor page).
"""

from __future__ import annotations

from collections.abc import Iterable

MARKDOWN_SUFFIXES = (
    ".md", ".markdown", ".mdown", ".mdwn", ".mkd", ".mkdn", ".mkdown", ".ronn", ".livemd", ".workbook",
    ".rmd", ".qmd", ".litcoffee",
)

# The other markups GitHub renders (github/markup): a README in one of them is "formatted", shown
# before a plain-text one.
_OTHER_MARKUP_SUFFIXES = (
    ".rst", ".rest", ".adoc", ".asciidoc", ".asc", ".org", ".textile", ".rdoc", ".creole",
    ".mediawiki", ".wiki", ".pod", ".pod6", ".rd",
)

# Where GitHub looks for the repository's own README, the first that holds one winning
# (docs.github.com, "About the repository README file": .github, then the root, then docs).
ROOT_README_FOLDERS = (".github", "", "docs")


def is_markdown(path: str) -> bool:
    """Whether github.com renders the file at `path` as Markdown."""
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def readme_of(names: Iterable[str]) -> str | None:
    """Of the file names of one folder, the README GitHub shows there: a file named `README`
    with any extension, in any case; a formatted one (a markup GitHub renders) before a plain
    one, then alphabetically, as GitHub chooses among several (github/markup#360)."""
    candidates = [n for n in names if n.lower() == "readme" or n.lower().startswith("readme.")]
    if not candidates:
        return None
    return min(candidates, key=lambda n: (not n.lower().endswith(MARKDOWN_SUFFIXES + _OTHER_MARKUP_SUFFIXES),
                                          n.lower(), n))
