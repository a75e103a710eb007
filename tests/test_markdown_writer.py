"""Every Markdown output people read quotes what it found as text (report/markdown_writer.py).

The repositories, a fork's pull request and the catalog's values are a stranger's words: in the
Markdown report, the job summary, audit.md (the timeline and its Mermaid chart included) and the
tracking issue's body they must not become a link, an image, HTML, a mention, an issue
reference or a new table cell, and a bidi or zero-width character must be shown, not obeyed.
Each output is rendered with cmark-gfm (GitHub's parser) from a fixture whose headings, links
and catalog values carry those payloads, and compared with the same output from a fixture that
carries plain words in the same places: the hostile one may hold no element, attribute or link
host the plain one does not.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drafterlint.report.markdown_writer import code, html, link, mermaid, message, pieces, text
from tests.helpers import example_git_repos, git_commit_all
from tests.helpers.rendered import DISGUISING, LIVE, elements, prose, rendered

# In a heading, a link's text, a catalog value: a code span's breakout into an image (a tracking
# pixel), a team mention, raw HTML, a cell break, a comment, a bidi override, issue references.
PAYLOAD = ("`x`![i](http://t.example/p.png)`y` @org/team <img src=x> a|b <!-- c \u202egnp.exe "
           "#12 GH-3 o/r#4 \u200bw ![r](r.png) [l](u) *e* ~~s~~ &#x202e;")
# A link's destination has no blank: the same payloads, run together.
TARGET = "x`![i](http://t.example/p.png)`@org/team|<img>#12\u202egnp"
PLAIN = "plain words and some more words in their place"
PLAIN_TARGET = "plain-target"


def planted(base: Path, payload: str, target: str) -> tuple[Path, Path]:
    """The example repositories as git repositories with `payload` in a heading (not in the
    table of contents), a link's text and a bundled head's model, `target` in a link's
    destination, and `payload` as a head's method (so in the timeline and the chart)."""

    def rules_doc(doc: str) -> str:
        return doc + (f"\n### 9.2 {payload}\n\nSee [{payload}](#{target}), [a](#{target}) "
                      f"and [b](x`{target}`y.md).\n")

    def catalog(cat: str) -> str:
        quoted = json.dumps(payload)
        cat = cat.replace("method: eagle\n", f"method: {quoted}\n", 1)
        return cat.replace("model: borealis-12b\n", f"model: {json.dumps('borealis' + payload)}\n", 1)

    return example_git_repos(base, catalog=catalog, rules_doc=rules_doc)


def outputs(cli, fake_api, monkeypatch, base: Path, payload: str, target: str) -> dict[str, str]:
    """Every Markdown output of one fixture, by name."""
    rules, registry = planted(base, payload, target)
    out: dict[str, str] = {}
    report = base / "report.md"
    cli("check", "--rules-repo", rules, "--registry-repo", registry, "--format", "markdown",
        "--output", report, "--no-cache")
    out["markdown report"] = report.read_text(encoding="utf-8")

    summary = base / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    cli("check", "--rules-repo", rules, "--registry-repo", registry, "--format", "github", "--no-cache")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    out["job summary"] = summary.read_text(encoding="utf-8")

    audit = ("audit", "--rules-repo", rules, "--registry-repo", registry, "--today", "2026-12-02",
             "--cache-dir", base / "cache")
    first = base / "first.json"
    cli(*audit, "--output", base / "first.md", "--json", first)
    out["audit.md"] = (base / "first.md").read_text(encoding="utf-8")

    out["reviewdog comments"] = reviewdog_comments(cli, rules, registry)

    # The planted heading and links go: their findings are listed as fixed, quoted from the
    # previous audit's JSON, a file that may come from anywhere.
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text(encoding="utf-8").split("\n### 9.2 ")[0] + "\n", encoding="utf-8")
    git_commit_all(rules, "2026-08-02", "drop the planted heading")
    cli(*audit, "--output", base / "second.md", "--previous", first)
    out["audit.md, fixed since the previous"] = (base / "second.md").read_text(encoding="utf-8")

    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    _, _, err = cli(*audit, "--output", base / "third.md", "--open-issue", "o/r", "--github-api-url", fake_api.url)
    monkeypatch.delenv("GITHUB_TOKEN")
    number = int(re.search(r"tracking issue (?:created|updated): #(\d+)", err).group(1))  # type: ignore[union-attr]
    out["tracking issue body"] = fake_api.issues[number]["body"]
    return out


def reviewdog_comments(cli, rules: Path, registry: Path) -> str:
    """What reviewdog's pull-request reporters post for `--format rdjson`: each diagnostic's
    message after reviewdog's own prefix (its `commentutil.MarkdownComment`), one comment a
    paragraph."""
    _, out, _ = cli("check", "--rules-repo", rules, "--registry-repo", registry, "--format", "rdjson",
                    "--no-cache", cwd=rules)
    comments = []
    for d in json.loads(out)["diagnostics"]:
        code = d["code"]
        comments.append(f"🚫 **[drafterlint]** <[{code['value']}]({code['url']})> "
                        f"<sub>reported by [reviewdog](https://github.com/reviewdog/reviewdog) :dog:</sub><br>"
                        f"{d['message']}")
    assert comments
    return "\n\n".join(comments)


def table_rows_keep_their_cells(markdown: str) -> list[str]:
    """The table rows whose count of cells (split at each `|` no backslash escapes, as GitHub's
    table extension splits, code spans included) differs from their table's header."""
    bad, width = [], None
    for line in markdown.splitlines():
        if not line.startswith("|"):
            width = None
            continue
        cells = len(re.split(r"(?<!\\)\|", line))
        if width is None:
            width = cells
        elif cells != width:
            bad.append(line)
    return bad


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    return {}


@pytest.fixture
def pair(both, cli, fake_api, monkeypatch, tmp_path):
    """(hostile outputs, plain outputs), built once for the module's tests."""
    if not both:
        both["hostile"] = outputs(cli, fake_api, monkeypatch, tmp_path / "hostile", PAYLOAD, TARGET)
        both["plain"] = outputs(cli, fake_api, monkeypatch, tmp_path / "plain", PLAIN, PLAIN_TARGET)
    return both["hostile"], both["plain"]


NAMES = ("markdown report", "job summary", "audit.md", "audit.md, fixed since the previous", "tracking issue body",
         "reviewdog comments")


def test_the_payloads_are_quoted(pair):
    """The fixture is hostile: every output quotes the payloads (else the tests below prove
    nothing), and the plain one quotes its words in the same places."""
    hostile, plain = pair
    for name in NAMES:
        assert "org/team" in hostile[name] and "gnp.exe" in hostile[name], name
        assert "t.example/p.png" in hostile[name], name
        assert "plain words" in plain[name], name
    assert "### Fixed" in hostile["audit.md, fixed since the previous"]
    assert "```mermaid" in hostile["audit.md"]


@pytest.mark.parametrize("name", NAMES)
def test_no_element_the_tool_did_not_write(pair, name):
    hostile, plain = pair
    found, comments = elements(hostile[name])
    expected, expected_comments = elements(plain[name])
    assert found - expected == set(), name
    assert comments == expected_comments  # the report's own marker comments only
    assert not any(tag == "img" for tag, *_ in found)


@pytest.mark.parametrize("name", NAMES)
def test_nothing_quoted_links_or_notifies(pair, name):
    """Outside code, where GitHub would link a mention, an issue reference or a URL, the
    hostile output says nothing the plain one does not."""
    hostile, plain = pair
    live = set(LIVE.findall(prose(rendered(hostile[name]))))
    assert live <= set(LIVE.findall(prose(rendered(plain[name])))), name
    assert "@org/team" in rendered(hostile[name])  # shown, in a code span


@pytest.mark.parametrize("name", NAMES)
def test_every_table_row_keeps_its_cells(pair, name):
    hostile, _ = pair
    assert table_rows_keep_their_cells(hostile[name]) == []
    assert "a|b" in htmllib.unescape(rendered(hostile[name]))  # the `|` shown inside its cell


@pytest.mark.parametrize("name", NAMES)
def test_disguising_characters_are_shown_escaped(pair, name):
    hostile, _ = pair
    assert DISGUISING.search(hostile[name]) is None
    assert "\\u202egnp.exe" in htmllib.unescape(rendered(hostile[name]))


def test_mermaid_labels_are_text(pair):
    """Mermaid reads `:` `;` `#` (its entity codes), quotes and brackets in a label; none is
    left in the chart's titles, sections or task names."""
    hostile, _ = pair
    chart = "".join(c.split("```", 1)[0] for c in hostile["audit.md"].split("```mermaid\n")[1:])
    labels = [m.group(2) for m in re.finditer(r"^ *(title|section) (.*)$", chart, flags=re.M)]
    labels += re.findall(r"^ *(?:approved|eligible|today|publication) (.*?) :", chart, flags=re.M)
    assert any("org/team" in label for label in labels)
    for label in labels:
        assert re.fullmatch(r"[\w ./@()+-]*", label), label


# -- the writer's own promises, on any text -----------------------------------------------

HOSTILE_CHARS = st.lists(st.sampled_from(
    list("`\\|<>&*_[]()!#@~$:/ .-aZ1\n\r\t\"'") + ["\u202e", "\u200b", "\x1b", "http://", "www.", "<!--", "GH-",
                                                 "[a](b)", "![a](b)", "*e*", "~~", "&#x202e;", "<img>", "<b>"]
), max_size=30).map("".join)


def _table(cell: str) -> str:
    return f"| h |\n|---|\n| {cell} |\n"


def _only(page: str, allowed: set[str]) -> set[str]:
    return set(re.findall(r"<([a-z0-9]+)", page)) - allowed


@settings(max_examples=300, deadline=None)
@given(HOSTILE_CHARS)
def test_text_renders_as_itself(quoted):
    """In a paragraph and in a table cell: no element but code and line breaks, and the text
    read back is the text given (line breaks as <br>, controls and disguising characters
    escaped, no blanks at the ends)."""
    from drafterlint.safeio import visible

    want = "".join(visible(p) for p in re.split(r"[ \t]*(?:\r\n|\r|\n)[ \t]*", quoted.strip()))
    for page, allowed in ((rendered("x " + text(quoted)), {"p", "code", "br"}),
                          (rendered(_table(text(quoted))), {"table", "thead", "tbody", "tr", "th", "td", "code", "br"})):
        assert _only(page, allowed) == set(), page
        body = page.split("<td>", 1)[1] if "<td>" in page else page
        read = htmllib.unescape(re.sub(r"<[^>]*>", "", body)).strip()
        if page.startswith("<p>"):
            read = read[1:].strip()  # the "x " before it
        assert read == want.strip(" \t"), page
        assert not LIVE.search(prose(page)), page


@settings(max_examples=300, deadline=None)
@given(HOSTILE_CHARS)
def test_code_is_one_span_of_the_text(quoted):
    from drafterlint.safeio import visible

    for page in (rendered("x " + code(quoted)), rendered(_table(code(quoted, table=True)))):
        spans = re.findall(r"<code>(.*?)</code>", page, flags=re.S)
        if not visible(quoted):
            assert spans == []
            continue
        assert [htmllib.unescape(s) for s in spans] == [visible(quoted)], page
        assert _only(page, {"p", "code", "table", "thead", "tbody", "tr", "th", "td"}) == set()


@settings(max_examples=300, deadline=None)
@given(HOSTILE_CHARS)
def test_message_opens_nothing(quoted):
    for page in (rendered("x " + message(quoted)), rendered(_table(message(quoted, table=True)))):
        assert _only(page, {"p", "code", "br", "table", "thead", "tbody", "tr", "th", "td"}) == set(), page
        assert not LIVE.search(prose(page)), page
        assert page.count("<td>") in (0, 1)


def test_message_keeps_the_rules_code_spans():
    assert message("no anchor `#a` in `x.md`") == "no anchor `#a` in `x.md`"
    assert pieces("a `x` b ``y`z`` c ` d") == [(False, "a "), (True, "x"), (False, " b "), (True, "y`z"),
                                                 (False, " c ` d")]
    # a value fenced as CommonMark says stays one span, its backticks and payloads inside
    assert message("anchor ``#a`![t](https://t.example/q.png)`b`` missing") == \
        "anchor ``#a`![t](https://t.example/q.png)`b`` missing"


def test_code_fences_and_pads():
    assert code("a") == "`a`"
    assert code("a``b") == "```a``b```"
    assert code("`a") == "`` `a ``"
    assert code(" a ") == "`  a  `"
    assert code("a|b", table=True) == "`a\\|b`"
    assert code("\u202e\n") == "`\\u202e\\n`"


def test_live_words_go_into_code_spans_with_their_punctuation_outside():
    assert text("see (x@y), #12.") == "see (`x@y`), `#12`."
    assert text("@org/team") == "`@org/team`"
    assert text("a www.x.example b") == "a `www.x.example` b"


def test_html_and_links():
    assert html("</summary> @o x&y") == "&lt;/summary&gt; <code>@o</code> x&amp;y"
    assert link("`a`", "https://github.com/o/r/blob/m/a b(c).md#L1") == \
        "[`a`](https://github.com/o/r/blob/m/a%20b%28c%29.md#L1)"
    assert link("`a`", "javascript:alert(1)") == "`a`"
    assert mermaid("a#b:c;d\"e\u202ef`g") == "a b c d e f g"


def test_a_suggested_change_quotes_its_finding_as_text():
    """A review comment (fix --review): the finding's message is quoted through the writer, the
    suggestion block holds the line exactly, its fence longer than any backtick run in it."""
    from drafterlint.findings import Finding, Location, Severity
    from drafterlint.report.markdown_writer import message as quoted
    from drafterlint.review import Suggested, comment_body

    finding = Finding("DL201", "broken-fragment", Severity.ERROR, Location("rules", "a.md", 3, 1),
                      f"no heading or anchor `#{TARGET}` {PAYLOAD}")
    line = "see [x](#ok) ```` and ` \u202e"
    body = comment_body(Suggested("a.md", 3, line, (finding,)), quoted)
    page = rendered(body)
    assert _only(page, {"p", "strong", "code", "pre"}) == set(), page
    assert not LIVE.search(prose(page)), page
    assert htmllib.unescape(re.search(r'<pre lang="suggestion"><code>(.*?)</code>', page, re.S).group(1)) == line + "\n"


@pytest.mark.parametrize("name", NAMES[:3])
def test_a_value_with_backticks_is_one_code_span(pair, name):
    """A rule quotes a value with findings.quoted: the link's whole target, backticks and all,
    is one code span in the report, as it is in the document."""
    from drafterlint.safeio import visible

    hostile, _ = pair
    spans = [htmllib.unescape(s) for s in re.findall(r"<code>(.*?)</code>", rendered(hostile[name]), flags=re.S)]
    assert "#" + visible(TARGET) in spans


def test_quoted_fences_what_it_quotes():
    from drafterlint.findings import quoted

    assert quoted("a") == "`a`"
    assert quoted("#a`b") == "``#a`b``"
    assert quoted("`x") == "`` `x ``"
    assert quoted(" a ") == "`  a  `"
    assert quoted(" a") == "` a`"
    for value in ("a", "#a`b", "`x", "x``", " a ", " a", "a ``` b"):
        assert re.findall(r"<code>(.*?)</code>", rendered(quoted(value))) == [htmllib.escape(value, quote=False)]
