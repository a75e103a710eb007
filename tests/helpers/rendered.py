"""Markdown rendered as GitHub renders it (cmark-gfm), and what the page holds that is not text:
the elements, the comments, and the words GitHub would link or notify from outside code."""

from __future__ import annotations

import html as htmllib
import re
from html.parser import HTMLParser

import cmarkgfm

RENDER = cmarkgfm.cmark.Options.CMARK_OPT_UNSAFE  # raw HTML shown, as GitHub keeps it before sanitizing
DISGUISING = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff]")
# What GitHub links or notifies from in prose: a mention, an issue reference, a URL.
LIVE = re.compile(r"@[A-Za-z0-9]|#[0-9]|\bGH-[0-9]|https?://|www\.", re.I)


class Elements(HTMLParser):
    """What a rendered page holds that is not text: each element with its attribute names and,
    for a link or an image, the host it points at."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: set[tuple] = set()
        self.comments = 0

    def handle_starttag(self, tag, attrs):
        hosts = tuple(sorted(re.sub(r"^[a-z]+://([^/]*).*", r"\1", v or "") for k, v in attrs if k in ("href", "src")))
        self.found.add((tag, tuple(sorted(k for k, _ in attrs)), hosts))

    def handle_comment(self, data):
        self.comments += 1


def rendered(markdown: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=RENDER)


def elements(markdown: str) -> tuple[set[tuple], int]:
    parser = Elements()
    parser.feed(rendered(markdown))
    return parser.found, parser.comments


def prose(page: str) -> str:
    """The rendered text outside code spans and blocks, where GitHub links and notifies."""
    page = re.sub(r"<pre>.*?</pre>|<code>.*?</code>", " ", page, flags=re.S)
    return htmllib.unescape(re.sub(r"<[^>]*>", " ", page))
