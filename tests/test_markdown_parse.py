"""Positions and structure from parse_document, on small hand-written documents."""

from hypothesis import strategies as st

from drafterlint.markdown.lazy import deep_lazy_lines
from drafterlint.markdown.parse import parse_document
from tests.helpers import run_engine
from tests.helpers.properties import fixed_and_explored


def links(src):
    return [(l.kind, l.text, l.target, l.line, l.column) for l in parse_document(src, "x.md").links]


def test_atx_setext_and_closing_headings():
    src = "# One\n\ntext\n\n  ## Two ##\n\nThree\n=====\n\nFour\n----\n"
    hs = parse_document(src, "x.md").headings
    assert [(h.level, h.text, h.line, h.column) for h in hs] == [
        (1, "One", 1, 1), (2, "Two", 5, 3), (1, "Three", 7, 1), (2, "Four", 10, 1),
    ]


def test_headings_in_fences_do_not_count():
    src = "# A\n\n```md\n# not\n[x](y)\n```\n\n~~~\n## no\n~~~\n\n    # indented code\n\n## B\n"
    doc = parse_document(src, "x.md")
    assert [(h.text, h.line) for h in doc.headings] == [("A", 1), ("B", 14)]
    assert doc.links == []
    assert {3, 4, 5, 6, 8, 9, 10, 12} <= doc.code_lines


def test_unterminated_fence():
    doc = parse_document("# A\n```\n# B\n[x](y)\n", "x.md")
    assert [h.text for h in doc.headings] == ["A"]
    assert doc.links == []


def test_heading_numbers_titles_and_sections():
    src = "# Rules\n## 2. Divisions\n### 2.9.4 Speculative Decoding\ntext\n## C.1 Air-cooled\n## Notes\nend\n"
    hs = parse_document(src, "x.md").headings
    assert [(h.number, h.title) for h in hs] == [
        (None, "Rules"), ("2", "Divisions"), ("2.9.4", "Speculative Decoding"),
        ("C.1", "Air-cooled"), (None, "Notes"),
    ]
    assert [h.end_line for h in hs] == [7, 4, 4, 5, 7]


def test_heading_explicit_anchor():
    doc = parse_document('## Regions <a id="regions"></a>\n\n<a name="other"></a>\n', "x.md")
    h = doc.headings[0]
    assert h.anchors == ("regions",) and h.slug == "regions-"
    assert doc.html_anchors == {"other": 3}
    assert doc.anchors()["regions"] == 1


def test_inline_link_positions():
    src = "Some text [a link](http://x.org) and more.\nSecond line ![img](pic.png \"t\").\n"
    assert links(src) == [
        ("inline", "a link", "http://x.org", 1, 11),
        ("image", "img", "pic.png", 2, 13),
    ]


def test_wrapped_links():
    src = "A paragraph that is hard\nwrapped with [a link whose\ntext wraps](target.md#frag) and [another](\nnext-line.md).\n"
    assert links(src) == [
        ("inline", "a link whose text wraps", "target.md#frag", 2, 14),
        ("inline", "another", "next-line.md", 3, 33),
    ]


def test_reference_links():
    src = "Full [text][Lbl], collapsed [lbl][], shortcut [LBL].\n\n[lbl]: https://e.x/é \"T\"\n"
    assert links(src) == [
        ("reference", "text", "https://e.x/é", 1, 6),
        ("reference", "lbl", "https://e.x/é", 1, 29),
        ("reference", "LBL", "https://e.x/é", 1, 47),
    ]


def test_autolinks_and_html_links():
    src = 'See <https://a.b/c> or https://d.e/f.\nAlso <a href="g.md#h">G</a>.\n'
    assert links(src) == [
        ("autolink", "https://a.b/c", "https://a.b/c", 1, 5),
        ("autolink", "https://d.e/f", "https://d.e/f", 1, 24),
        ("html", "", "g.md#h", 2, 6),
    ]


def test_target_entities_and_escapes_not_percent_decoded():
    assert links("[a](x%20y&amp;z\\_w)\n")[0][2] == "x%20y&z_w"


def test_code_spans_comments_and_escapes_are_not_links():
    src = "Code `[x](y)` and ``[a](b)`` here.\n<!-- [c](d) -->\nEscaped \\[not a link\\](x).\n\n<!--\n[e](f)\n-->\n"
    doc = parse_document(src, "x.md")
    assert doc.links == []
    assert {2, 5, 6, 7} <= doc.code_lines


def test_links_in_quotes_and_alerts():
    src = "> [!CAUTION]\n> Be careful with [this](a.md).\n>   Also [that](b.md)\n\n> plain [q](c.md)\n"
    doc = parse_document(src, "x.md")
    assert [(l.target, l.line, l.column) for l in doc.links] == [
        ("a.md", 2, 19), ("b.md", 3, 10), ("c.md", 5, 9),
    ]
    assert [(q.alert, q.line, q.column, q.end_line) for q in doc.quotes] == [
        ("CAUTION", 1, 1, 3), (None, 5, 1, 5),
    ]
    assert doc.quotes[0].text.startswith("Be careful")


def test_alert_kinds():
    kinds = ["NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"]
    src = "\n".join(f"> [!{k}]\n> body\n" for k in kinds)
    assert [q.alert for q in parse_document(src, "x.md").quotes] == kinds
    assert parse_document("> [!NOTE] inline\n", "x.md").quotes[0].alert is None


def test_lists_three_depths():
    src = "- one [a](a.md)\n  - two\n    - three [b](b.md)\n- four\n\n1. first\n2. second\n"
    doc = parse_document(src, "x.md")
    got = [(b.depth, b.ordered, [(i.text, i.line, i.column) for i in b.items]) for b in doc.lists]
    assert got == [
        (0, False, [("one a", 1, 1), ("four", 4, 1)]),
        (1, False, [("two", 2, 3)]),
        (2, False, [("three b", 3, 5)]),
        (0, True, [("first", 6, 1), ("second", 7, 1)]),
    ]
    assert [(l.line, l.column) for l in doc.lists[0].items[0].links] == [(1, 7)]
    assert [(l.line, l.column) for l in doc.lists[2].items[0].links] == [(3, 13)]


def test_list_inside_quote_and_quote_inside_list():
    src = "> - item [x](x.md)\n>   - sub [y](y.md)\n\n- li\n\n  > quoted [z](z.md)\n"
    doc = parse_document(src, "x.md")
    assert [(l.target, l.line, l.column) for l in doc.links] == [
        ("x.md", 1, 10), ("y.md", 2, 11), ("z.md", 6, 12),
    ]
    assert [(i.line, i.column) for b in doc.lists for i in b.items] == [(1, 3), (2, 5), (4, 1)]


def test_tables():
    src = "Intro\n\n| Rule | Link |\n|---|:--|\n| a \\| b | [r](r.md) |\n|  c  | `x\\|y` |\n"
    doc = parse_document(src, "x.md")
    t = doc.tables[0]
    assert (t.line, t.column) == (3, 1)
    assert [(c.text, c.line, c.column) for c in t.header] == [("Rule", 3, 3), ("Link", 3, 10)]
    assert [(c.text, c.line, c.column) for c in t.rows[0]] == [("a | b", 5, 3), ("r", 5, 12)]
    assert t.rows[0][1].links[0].column == 12
    assert (t.rows[1][0].line, t.rows[1][0].column) == (6, 4)


def test_paragraphs():
    src = "First para\nwrapped.\n\n> quoted para\n\n- item para\n"
    ps = parse_document(src, "x.md").paragraphs
    assert [(p.text, p.line, p.column, p.end_line) for p in ps] == [
        ("First para wrapped.", 1, 1, 2), ("quoted para", 4, 3, 4), ("item para", 6, 3, 6),
    ]


def test_crlf_same_positions_as_lf():
    src = "# T\n\nText [a](b)\n> [!NOTE]\n> [c](d)\n\n- x [e](f)\n  - y\n\n| a | [g](h) |\n|---|---|\n| 1 | 2 |\n"
    lf = parse_document(src, "x.md")
    crlf = parse_document(src.replace("\n", "\r\n"), "x.md")
    cr = parse_document(src.replace("\n", "\r"), "x.md")
    for other in (crlf, cr):
        assert other.text == lf.text
        assert other.links == lf.links
        assert other.headings == lf.headings
        assert other.lists == lf.lists
        assert other.tables == lf.tables
        assert other.quotes == lf.quotes


def test_suppressions():
    src = (
        "a\n<!-- drafterlint-disable DL205 DL201 -->\nb\n<!-- drafterlint-enable DL205 DL201 -->\n"
        "<!-- drafterlint-disable-next-line DL201 -->\nc\n<!-- drafterlint-disable -->\nd\n"
    )
    doc = parse_document(src, "x.md")
    assert sorted(
        (tuple(sorted(s.codes)), s.start_line, s.end_line) for s in doc.suppressions
    ) == [((), 7, None), (("DL201",), 6, 6), (("DL201", "DL205"), 2, 4)]
    assert doc.is_suppressed("DL201", 3) and not doc.is_suppressed("DL201", 5)
    assert doc.is_suppressed("DL201", 6) and doc.is_suppressed("DL999", 8)


def test_suppression_in_code_is_ignored():
    doc = parse_document("```\n<!-- drafterlint-disable -->\n```\n", "x.md")
    assert doc.suppressions == []


def test_deep_nesting_does_not_crash():
    doc = parse_document(">" * 500 + " deep [x](y)\n", "x.md")
    assert doc.text
    nested = "".join("  " * i + "- l\n" for i in range(500))
    assert parse_document(nested, "x.md").lists


def test_unbalanced_input_parses_as_github_does():
    doc = parse_document("[[[ ]( `` ` <a href= ![ ](\n# [x\n> [!NOTE\n| a |\n|-|\n| [ |\n", "x.md")
    # No bracket, tick or tag is ever closed: no link, and each line still has its block.
    assert doc.links == []
    assert [(h.level, h.title, h.line, h.column) for h in doc.headings] == [(1, "[x", 2, 1)]
    assert [(q.line, q.alert) for q in doc.quotes] == [(3, None)]  # `[!NOTE` unclosed: no alert
    # the rows after it are lazy lines of the quote's paragraph, no table (cmark-gfm renders
    # `<blockquote><p>[!NOTE | a | |-| | [ |</p></blockquote>`)
    assert doc.tables == []
    assert [(p.line, p.text) for p in doc.paragraphs] == [(1, "[[[ ]( `` ` <a href= ![ ]("), (3, "[!NOTE | a | |-| | [ |")]


TOKENS = st.sampled_from(
    ["#", "## ", "[", "]", "(", ")", "`", "```", "> ", "- ", "* ", "1. ", "|", "|---|", "\n",
     "\n\n", '<a id="x">', "</a>", "<", ">", "\\", "!", "word", " ", "  ", "42", "2.9",
     "é", "中", "😄", "[t](u)", "[r]: /r\n", "\t", "\r\n", "<!--", "-->", "https://a.b"]
)


def _never_crashes_and_positions_inside(parts):
    text = "".join(parts)
    doc = parse_document(text, "x.md")
    lines = doc.text.split("\n")

    def inside(line, col):
        assert 1 <= line <= len(lines), (line, len(lines))
        assert 1 <= col <= len(lines[line - 1]) + 1, (line, col, lines[line - 1])

    for h in doc.headings:
        inside(h.line, h.column)
    for l in doc.links:
        inside(l.line, l.column)
    for b in doc.lists:
        for i in b.items:
            inside(i.line, i.column)
    for t in doc.tables:
        for c in t.header + tuple(c for r in t.rows for c in r):
            inside(c.line, c.column)


test_never_crashes_and_positions_inside, test_never_crashes_and_positions_inside_explored = fixed_and_explored(
    st.lists(TOKENS, max_size=60), examples=300
)(_never_crashes_and_positions_inside)


def test_list_items_after_a_block_quote_that_ended_the_previous_list():
    # The quote interrupts the first list; the next list's item must not inherit its line.
    doc = parse_document("1. [x](#y)\n> q\n- \n- [z](#w)\n", "x.md")
    assert [(l.target, l.line, l.column) for l in doc.links] == [("#y", 1, 4), ("#w", 4, 3)]
    assert [[(i.line, i.column) for i in lst.items] for lst in doc.lists] == [[(1, 1)], [(3, 1), (4, 1)]]


def test_item_content_on_the_line_after_an_empty_marker():
    doc = parse_document("-\n  [x](#y)\n", "x.md")
    assert [(l.line, l.column) for l in doc.links] == [(2, 3)]


def test_raw_html_blocks_count_from_their_first_line():
    # A `<script>`/`<pre>` block runs to its closing tag; everything from its opening line is
    # raw HTML (not links or headings), and an anchor inside has its own line.
    doc = parse_document('para\n\n<pre>\n[x](#y)\n<a id="k">\n</pre>\n\nend\n', "x.md")
    assert {3, 4, 5, 6} <= doc.code_lines and 1 not in doc.code_lines and 8 not in doc.code_lines
    assert doc.html_anchors == {"k": 5}
    assert doc.links == []


def test_lists_and_quotes_closed_by_lazy_lines_are_each_read_once():
    # Each list below ends at its lazy line (an HTML block holds no lazy line): the first item
    # stops the list's parse, which used to read every later item first (quadratic: minutes).
    n = 3000
    doc = parse_document("- <s>\n[x](#y)\n\n" * n, "x.md")
    assert [(l.line, l.column) for l in doc.links] == [(3 * i + 2, 1) for i in range(n)]
    assert len(doc.lists) == n
    # A quote collects all its lines before they are parsed: past a budget per document the
    # quotes are no longer cut (mistune's reading), and every link is still found once.
    doc = parse_document("> # h\n[x](#y)\n" * n, "x.md")
    assert [(l.line, l.column) for l in doc.links] == [(2 * i + 2, 1) for i in range(n)]
    assert [(h.line, h.level) for h in doc.headings][:2] == [(1, 1), (3, 1)]
    # ... and the document says where that reading starts (DL702), once
    assert [(line, last) for line, last, _ in doc.limits] == [(10, 10)]


def test_a_lazy_line_is_read_and_charged_alike_whatever_text_follows_its_blanks(tmp_path):
    # A quote's lazy lines indented four columns or more are padded (lazy.deep_lazy_lines), and
    # the quote's inner lists are parsed again from the padded text, charged to the document's
    # budget. Each character str.splitlines ends a line at is text to Markdown: a lazy line
    # holding one after its blanks is padded and charged as one holding a letter there. Here
    # 700 padded lines spend the budget on the first list's cut, so the second list is read
    # as mistune reads it (the link in its fenced code); charged less, it was cut, and the
    # link was reported (DL201).
    def document(c: str) -> str:
        return ("# Rules\n\n## 1. Links\n\n> - a\n" + f"    {c}more\n" * 700 + "> - ```\n> x\n\n"
                "> - ```\n> [l](#gone)\n")

    def found(c: str) -> list:
        result = run_engine({"rules:endpoints_rules.md": document(c)}, tmp_path / f"{ord(c):x}", {"select": ["DL201"]})
        return [(f.code, f.location.line, f.message) for f in result.findings]

    others = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
    for c in others:  # (whatever the budget: the line is padded whole)
        padded, moved = deep_lazy_lines(f"a\n    {c}more\nb\n", {2})
        assert (padded.replace(c, "X"), moved) == deep_lazy_lines("a\n    Xmore\nb\n", {2})
    letter = found("X")
    assert [found(c) for c in others] == [letter] * len(others)


def test_a_link_in_an_images_alt_text_is_not_on_the_page():
    # GitHub renders `alt="see §2 here"`: the `[§2](#nope)` inside is no link to check
    assert links("![see [§2](#nope) here](fig.png) [x](#y)\n") == [
        ("image", "see §2 here", "fig.png", 1, 1), ("inline", "x", "#y", 1, 34),
    ]


def test_a_raw_html_heading_has_an_anchor_numbered_with_the_markdown_ones():
    # github.com's anchor filter runs over every h1-h6 of the page, raw HTML ones included
    src = '<h2 align="center">Raw &amp; <b>Title</b></h2>\n\n## Raw & Title\n\n<!-- <h2>no</h2> -->\n'
    hs = parse_document(src, "x.md").headings
    assert [(h.level, h.text, h.slug, h.line) for h in hs] == [
        (2, "Raw & Title", "raw--title", 1), (2, "Raw & Title", "raw--title-1", 3),
    ]


def test_a_tab_after_container_markers_counts_to_the_next_tab_stop():
    # `>`, three spaces, a tab: the heading is indented six columns in the quote, so it is code
    doc = parse_document(">   \t# h\n\n>\t# g [a](#b)\n", "x.md")
    assert [h.text for h in doc.headings] == ["g a"]
    assert [(l.target, l.line, l.column) for l in doc.links] == [("#b", 3, 7)]


def test_short_html_comments_end_where_cmark_gfm_ends_them():
    # `<!-->` and `<!--->` are whole comments: the autolink after them is placed at its own column
    # (a generated document found the scanner searching on to the `-->` after the autolink)
    for src, col in (("# <!--> <https://e.com>-->\n", 9), ("a <!---> <https://e.com>-->\n", 10)):
        doc = parse_document(src, "doc.md")
        assert [(link.line, link.column, link.target) for link in doc.links] == [(1, col, "https://e.com")]


def test_a_spent_budget_for_parsing_again_is_said_where_it_changes_the_reading(tmp_path):
    # Past the document's budget for parsing containers again, a list or quote is left as mistune
    # reads it: here the second list's link stays in its fenced code, where GitHub ends the item
    # at the lazy line and shows the link. That is no silent pass: DL702 names the lazy line
    # (git's line: the blank line written \r\r\n before the padding counts one for git).
    def document(padding: int, blank: str = "\n") -> str:
        return (f"# Rules\n{blank}## 1. Links\n\n> - a\n" + "    more\n" * padding + "> - ```\n> x\n\n"
                "> - ```\n> [l](#gone)\n")

    def found(doc: str, name: str) -> list:
        result = run_engine({"rules:endpoints_rules.md": doc}, tmp_path / name, {"select": ["DL201", "DL702"]})
        return [(f.code, f.location.line, f.message) for f in result.findings]

    spent = found(document(700), "spent")
    assert [(code, line) for code, line, _ in spent] == [("DL702", 710)]
    assert "the lazy line at line 710 ends its list or block quote on GitHub" in spent[0][2]
    assert [(code, line) for code, line, _ in found(document(700, "\r\r\n"), "cr")] == [("DL702", 710)]
    assert "at line 710 " in found(document(700, "\r\r\n"), "cr2")[0][2]
    # within the budget the item is cut where GitHub cuts it, the link is read, and nothing is said
    assert [(code, line) for code, line, _ in found(document(3), "within")] == [("DL201", 13)]
