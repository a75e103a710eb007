"""The Markdown list's entries as a reader of the rendered README sees them (checks/_mdlist.py)."""

from __future__ import annotations

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
