"""The cache stores parsed documents as JSON and decodes only into the findings' classes and the
dataclasses of the Markdown model (read from drafterlint.markdown.model, no list kept by hand): a
class the decoder did not know would make every document uncacheable, and the document cache
would turn itself off without a word."""

from __future__ import annotations

import dataclasses
import json

import pytest

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


def test_a_list_of_one_class_is_one_tag_and_rows_of_its_fields():
    links = [model.Link("a", "#a", 3, 1, "inline", model.Span(3, 2, 3, 3)), model.Link("b", "#b", 4, 1, "inline")]
    encoded = cache_codec.encode(links)
    assert encoded["L"] == "Link" and len(encoded["v"]) == 2  # (not a tag each)
    assert cache_codec.decode(json.dumps(encoded)) == links
    pieces = (model.Piece(0, 1, 5, 1, "text"), model.Piece(1, 2, 6, 1, "code"))
    assert cache_codec.encode(pieces)["T"] == "Piece"
    assert cache_codec.decode(json.dumps(cache_codec.encode(pieces))) == pieces  # a tuple stays one
    shifted = cache_codec.decode_shifted(json.dumps(cache_codec.encode(links)), 10)
    assert [(x.line, x.text_span) for x in shifted] == [(13, model.Span(13, 2, 13, 3)), (14, None)]
    mixed = [model.Span(1, 1, 1, 2), model.Piece(0, 1, 1, 1, "text"), "text", 3]  # as they are
    assert cache_codec.decode(json.dumps(cache_codec.encode(mixed))) == mixed
    assert cache_codec.decode(json.dumps(cache_codec.encode([(), []]))) == [(), []]


def test_rows_naming_a_class_outside_the_model_are_refused():
    for tag in ("L", "T"):
        with pytest.raises(KeyError):
            cache_codec.decode(json.dumps({tag: "Path", "v": [["/etc/passwd"]]}))
        with pytest.raises(KeyError):
            cache_codec.decode_shifted(json.dumps({tag: "Popen", "v": [["x"]]}), 2)


def test_objects_made_from_rows_are_the_models_own():
    text = json.dumps(cache_codec.encode([model.Piece(0, 4, 2, 1, "text"), model.Piece(4, 9, 2, 5, "code")]))
    for pieces in (cache_codec.decode(text), cache_codec.decode_shifted(text, 0), cache_codec.decode_shifted(text, 3)):
        first = pieces[0]
        assert type(first) is model.Piece and hash(first) == hash(model.Piece(*dataclasses.astuple(first)))
        with pytest.raises(dataclasses.FrozenInstanceError):
            first.line = 7  # type: ignore[misc]
    for row in ([0, 4, 2, 1], [0, 4, 2, 1, "text", "more"]):  # a field missing, one too many
        with pytest.raises((TypeError, ValueError)):
            cache_codec.decode(json.dumps({"L": "Piece", "v": [row]}))
        with pytest.raises((TypeError, ValueError)):
            cache_codec.decode(json.dumps({"c": "Piece", "v": row}))
