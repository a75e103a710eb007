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
    mixed = [model.Span(1, 1, 1, 2), model.Piece(0, 1, 1, 1, "text"), "text", 3]  # as they are
    assert cache_codec.decode(json.dumps(cache_codec.encode(mixed))) == mixed
    assert cache_codec.decode(json.dumps(cache_codec.encode([(), []]))) == [(), []]


def test_rows_naming_a_class_outside_the_model_are_refused():
    for tag in ("L", "T"):
        with pytest.raises(KeyError):
            cache_codec.decode(json.dumps({tag: "Path", "v": [["/etc/passwd"]]}))
    # a class named inside columns (a link's spans, a list's items)
    columns = json.loads(json.dumps(cache_codec.encode_columns(model.Link, [model.Link("a", "#a", 3, 1, "inline", model.Span(3, 2, 3, 3))])))
    assert columns[5]["c"] == "Span"
    for name in ("Popen", "Path", "Document"):
        columns[5]["c"] = name
        with pytest.raises((KeyError, ValueError)):
            cache_codec.decode_columns(model.Link, columns, 1)


def test_objects_made_from_rows_are_the_models_own():
    text = json.dumps(cache_codec.encode([model.Piece(0, 4, 2, 1, "text"), model.Piece(4, 9, 2, 5, "code")]))
    made = [model.Piece(0, 4, 2, 1, "text"), model.Piece(4, 9, 2, 5, "code")]
    columns = json.loads(json.dumps(cache_codec.encode_columns(model.Piece, made)))
    for pieces in (cache_codec.decode(text), cache_codec.decode_columns(model.Piece, columns, 2),
                   cache_codec.decode_columns(model.Piece, columns, 2, 3)):
        first = pieces[0]
        assert type(first) is model.Piece and hash(first) == hash(model.Piece(*dataclasses.astuple(first)))
        with pytest.raises(dataclasses.FrozenInstanceError):
            first.line = 7  # type: ignore[misc]
    for row in ([0, 4, 2, 1], [0, 4, 2, 1, "text", "more"]):  # a field missing, one too many
        with pytest.raises((TypeError, ValueError)):
            cache_codec.decode(json.dumps({"L": "Piece", "v": [row]}))
        with pytest.raises((TypeError, ValueError)):
            cache_codec.decode(json.dumps({"c": "Piece", "v": row}))


# -- columns (a section's model, a document kept whole) ----------------------------------------


def _columns(cls: type, objects: list) -> list:
    """encode_columns as the cache writes and reads it (through JSON text)."""
    return json.loads(json.dumps(cache_codec.encode_columns(cls, objects)))


def _lists(doc: model.Document) -> dict[type, list]:
    return {model.Heading: doc.headings, model.Link: doc.links, model.ListBlock: doc.lists,
            model.Table: doc.tables, model.Quote: doc.quotes, model.Paragraph: doc.paragraphs,
            model.Prose: doc.prose, model.Suppression: doc.suppressions}


def test_every_list_of_the_model_survives_its_columns_with_its_lines_moved():
    doc = parse_document(RICH, "endpoints_rules.md")
    moved = parse_document("\n\n\n" + RICH, "endpoints_rules.md")  # the same, three lines down
    assert all(_lists(doc).values())  # (the sample has one of each)
    for (cls, objects), again in zip(_lists(doc).items(), _lists(moved).values()):
        assert cache_codec.decode_columns(cls, _columns(cls, objects), len(objects)) == objects
        if cls is not model.Suppression:  # (an open-ended suppression's end is None: never moved)
            assert cache_codec.decode_columns(cls, _columns(cls, objects), len(objects), 3) == again, cls
    with pytest.raises(TypeError):
        cache_codec.encode_columns(model.Link, [model.Span(1, 1, 1, 2)])  # not of the class named
    with pytest.raises(TypeError):
        cache_codec.encode_columns(model.Quote, [model.Quote(None, "x", 1, 1, 1), model.Quote([], "x", 1, 1, 1)])


def test_columns_of_another_shape_are_refused():
    links = [model.Link("a", "#a", 3, 1, "inline", model.Span(3, 2, 3, 3)), model.Link("b", "#b", 4, 1, "inline")]
    good = _columns(model.Link, links)
    assert good[5]["m"] == [1, 0]  # (which links have the span)
    items = _columns(model.ListBlock, parse_document("- a [b](#c)\n- d\n", "x.md").lists)

    def damaged(columns: list, change) -> list:
        copy = json.loads(json.dumps(columns))
        change(copy)
        return copy

    for cls, columns, n in [
        (model.Link, good, 3),  # another count
        (model.Link, good[:-1], 2),  # a field missing
        (model.Link, [*good, [1, 2]], 2),  # one too many
        (model.Link, damaged(good, lambda c: c[2].append(9)), 2),  # a column longer than the others
        (model.Link, damaged(good, lambda c: c[5].update(m=[1, 2])), 2),  # a mask not of 0s and 1s
        (model.Link, damaged(good, lambda c: c[5].update(m=[1])), 2),
        (model.Link, damaged(good, lambda c: c[5].update(c=None)), 2),
        (model.Link, damaged(good, lambda c: c.__setitem__(0, "ab")), 2),
        (model.Link, "links", 2),
        (model.ListBlock, damaged(items, lambda c: c[0]["k"].__setitem__(0, 3)), 1),  # items' lengths off
        (model.ListBlock, damaged(items, lambda c: c[0]["k"].__setitem__(0, -1)), 1),
        (model.ListBlock, damaged(items, lambda c: c[0].update(k="2")), 1),
    ]:
        with pytest.raises((ValueError, TypeError, KeyError)):
            cache_codec.decode_columns(cls, columns, n, 2)
    with pytest.raises(TypeError):  # a line number that is not one, moved
        cache_codec.decode_columns(model.Link, damaged(good, lambda c: c[2].__setitem__(0, "3")), 2, 1)


def test_columns_are_read_with_calls_per_class_not_per_object(monkeypatch):
    # What reading a section's model costs in Python calls does not grow with its objects: the
    # objects are made and their fields set by loops in C.
    def calls(paragraphs: int) -> int:
        text = "".join(f"Text {n} with [a link](#x{n}) and `code`.\n\n- an item *{n}*\n\n| a | b |\n|---|---|\n| {n} | [c](#d) |\n\n"
                       for n in range(paragraphs))
        doc = parse_document(text, "x.md")
        encoded = {cls: _columns(cls, objects) for cls, objects in _lists(doc).items()}
        counted = [0]
        for name in ("decode_columns", "_values"):
            real = getattr(cache_codec, name)

            def counting(*args, real=real):
                counted[0] += 1
                return real(*args)

            monkeypatch.setattr(cache_codec, name, counting)
        for cls, objects in _lists(doc).items():
            assert cache_codec.decode_columns(cls, encoded[cls], len(objects)) == objects
        monkeypatch.undo()
        return counted[0]

    assert calls(5) == calls(200)


def test_a_document_kept_whole_survives_its_columns_and_a_damaged_one_is_refused():
    from drafterlint.cache import document_from_text, document_text

    doc = parse_document(RICH + "\n| x |\n|---|\n" + "| y |\n" * 3, "endpoints_rules.md")
    text = document_text(doc)
    assert document_from_text(text) == doc
    value = json.loads(text)
    for change in (lambda v: v.pop(), lambda v: v.__setitem__(0, 3), lambda v: v[3].__setitem__(0, 99),
                   lambda v: v[-3].append(["a", "b"]), lambda v: v[-2].append("x"), lambda v: v[-1].append([1])):
        damaged = json.loads(json.dumps(value))
        change(damaged)
        with pytest.raises((ValueError, TypeError, KeyError, IndexError)):
            document_from_text(json.dumps(damaged))


TWICE = RICH + "\n- [a](#a) and `b`\n- c\n\n| x | [y](#why) |\n|---|---|\n| [z](#zed) | w |\n"


def _held_twice(doc: model.Document) -> tuple[list, list]:
    """The links and prose `doc` holds again: in its list items and table cells."""
    links = [k for lst in doc.lists for item in lst.items for k in item.links]
    links += [k for t in doc.tables for row in (t.header, *t.rows) for c in row for k in c.links]
    return links, [p for lst in doc.lists for item in lst.items for p in item.prose]


def test_what_a_document_holds_twice_is_written_once_and_shared_as_the_parse_shares_it():
    # A list item's links and prose and a table cell's links are in the document's own lists of
    # links and prose too: written as their places there, made once when read back, and the same
    # objects, as the parse made them (each was made twice, 15 % of the rules document's objects).
    from drafterlint.cache import document_from_text, document_text
    from drafterlint.markdown.sections import MemoryStore, parse_sectioned

    doc = parse_document(TWICE, "x.md")
    links, prose = _held_twice(doc)
    assert len(links) >= 4 and len(prose) >= 4
    text = document_text(doc)
    assert text.count('"#why"') == text.count('"#zed"') == text.count('"other.md#part"') == 1
    store = MemoryStore(persists=True)  # (a section's model through its JSON, as the cache keeps it)
    parse_sectioned(TWICE, "x.md", store)
    for again in (document_from_text(text), parse_sectioned(TWICE, "x.md", store)[0]):
        assert again == doc
        links, prose = _held_twice(again)
        assert {id(k) for k in links} <= {id(k) for k in again.links}
        assert {id(p) for p in prose} <= {id(p) for p in again.prose}


def test_places_in_a_pool_outside_it_are_refused():
    doc = parse_document(TWICE, "x.md")
    pools = cache_codec.pools_of(links=doc.links, prose=doc.prose)
    good = json.loads(json.dumps(cache_codec.encode_columns(model.ListBlock, doc.lists, pools)))
    made = {model.Link: doc.links, model.Prose: doc.prose}
    assert cache_codec.decode_columns(model.ListBlock, good, len(doc.lists), 0, made) == doc.lists
    links = good[0]["v"]["t"][4]  # (the items' links)
    assert links["p"] == "Link" and links["i"]
    for change in (lambda c: c["i"].__setitem__(0, len(doc.links)), lambda c: c["i"].__setitem__(0, -1),
                   lambda c: c["i"].__setitem__(0, "0"), lambda c: c["i"].append(0), lambda c: c.update(p="Span"),
                   lambda c: c.update(p="Finding"), lambda c: c.update(i=None)):
        damaged = json.loads(json.dumps(good))
        change(damaged[0]["v"]["t"][4])
        with pytest.raises((ValueError, TypeError, KeyError)):
            cache_codec.decode_columns(model.ListBlock, damaged, len(doc.lists), 0, made)
    with pytest.raises(ValueError):  # (no pool given)
        cache_codec.decode_columns(model.ListBlock, good, len(doc.lists))
