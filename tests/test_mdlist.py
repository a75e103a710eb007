"""The Markdown list's entries as a reader of the rendered README sees them (checks/_mdlist.py)."""

from __future__ import annotations

from typing import Any

from drafterlint.checks._mdlist import parse_list
from drafterlint.markdown.parse import parse_document

README = """# Drafters

## Approved drafters

### Model One

Approved checkpoints:

- `org/one` at `abc1234` <!-- was `9999999` -->
- `org/two` <!-- `deadbee` was withdrawn -->
  - `org/three` at `1234567`
- [org/four](https://huggingface.co/org/four/tree/7654321), see
  ```
  `fedcba9` in a code block
  ```
"""


def entries(text: str) -> list[tuple]:
    doc = parse_document(text, "README.md")
    listed = parse_list(doc, "registry", "Approved drafters", [], {"checkpoint": ["checkpoints"]})
    return [(e.repository, e.revision, e.conflict, e.location.line)
            for m in listed.models for e in m.entries]


def test_an_entry_is_read_from_its_own_rendered_text():
    # Not from a comment in it, nor from the nested item or code block under it.
    assert entries(README) == [
        ("org/one", "abc1234", None, 9),
        ("org/two", None, None, 10),
        ("org/four", "7654321", None, 12),
        ("org/three", "1234567", None, 11),
    ]


def test_a_revision_that_contradicts_the_link_is_a_conflict():
    text = README.replace("see\n", "`abcdef0`\n")
    assert entries(text)[2] == ("org/four", "7654321", "abcdef0", 12)


# DL301 reads every list and table of every checked document on every run.
ENUMERATED = """# Rules

- `orga/one` and [two](https://huggingface.co/orgb/two)
- plain words, no repository
- org/three, then a path a/b/c and a URL https://example.com/x/y
- nothing here either

| model | where |
|---|---|
| one | orga/four |
| two | none |
"""


class _CountingPattern:
    def __init__(self, pattern: Any) -> None:
        self.pattern, self.texts = pattern, []

    def finditer(self, text: str) -> Any:
        self.texts.append(text)
        return self.pattern.finditer(text)


def test_dl301_tries_the_repository_pattern_only_on_text_holding_a_slash(monkeypatch):
    from drafterlint.checks import duplicated_list
    from drafterlint.checks._mdlist import REPO_WORD

    doc = parse_document(ENUMERATED, "rules.md")
    counting = _CountingPattern(REPO_WORD)
    monkeypatch.setattr(duplicated_list, "REPO_WORD", counting)
    found = duplicated_list._enumerations(doc)
    texts = [i.text for lst in doc.lists for i in lst.items] + [
        c.text for t in doc.tables for row in (t.header, *t.rows) for c in row]
    assert counting.texts == [t for t in texts if "/" in t] and len(counting.texts) == 3 < len(texts)
    # what every text gives, slash or not, is what was found
    everywhere = [m.group("repo").lower() for t in texts for m in REPO_WORD.finditer(t)]
    assert [named for _, _, named, _ in found] == [("orga/one", "org/three", "orgb/two")]
    assert set(everywhere) - {"a/b"} == {"orga/one", "org/three", "orga/four"}
