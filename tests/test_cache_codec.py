"""The cache stores parsed documents as JSON and decodes only into the findings' classes and the
dataclasses of the Markdown model (read from drafterlint.markdown.model, no list kept by hand): a
class the decoder did not know would make every document uncacheable, and the document cache
would turn itself off without a word."""

from __future__ import annotations

import dataclasses
import json

from drafterlint import cache_codec
from drafterlint.markdown import model
from drafterlint.markdown.parse import parse_document

# Every construct the model has a class for: headings, links, a list, a table, a quote,
# paragraphs (prose) and a suppression comment.
RICH = """\
# 1. Rules

<!-- drafterlint-disable DL201 -->

## 1.1 Links <a id="here"></a>

See [the part](#11-links) and <https://example.com/x>.

- one [item](other.md#part)
  - nested
1. numbered

| Check | Where |
|---|---|
| **lead** | [§1](#1-rules) |

> quoted [link](#here)
"""


def test_every_class_of_the_markdown_model_can_be_cached():
    defined = {name: value for name, value in vars(model).items()
               if dataclasses.is_dataclass(value) and value.__module__ == model.__name__}
    assert {"Document", "Heading", "Link", "Span"} <= defined.keys()  # the scan sees the model
    for name, cls in defined.items():
        assert cache_codec._class(name) is cls, name


def test_a_cache_entry_cannot_name_a_class_outside_the_model():
    for name in ("Path", "Popen", "Config", "dataclass", "Any", "field"):
        assert cache_codec._class(name) is None, name


def test_a_parsed_document_survives_the_cache_unchanged():
    doc = parse_document(RICH, "endpoints_rules.md")
    assert doc.headings and doc.links and doc.suppressions  # the sample exercises the model
    assert cache_codec.decode(json.dumps(cache_codec.encode(doc))) == doc
