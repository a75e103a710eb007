"""The patterns of block starts (HTML blocks, setext underlines, list markers, task boxes)
that the block parser's modules share."""

from __future__ import annotations

import re

from mistune.helpers import BLOCK_TAGS, PRE_TAGS
from mistune.list_parser import LIST_PATTERN

from drafterlint import lazyre

# The lines that start an HTML block, as cmark-gfm decides (CommonMark's seven kinds).  mistune
# starts one at `<div` whatever follows, counts `<meta` among the block tags, knows no `/>` in
# a tag of type 7, and ends no list item or quote at a type 7 line.
# Types 1 to 6: `<pre`/`<script`/... and the block tag names, each ending the way cmark-gfm
# requires; comments, `<?`, declarations, CDATA.
_HTML_1_TO_6 = (
    r"(?i:<(?:" + "|".join(PRE_TAGS) + r")(?=[ \t\v\f>]|$))"
    r"|(?i:</?(?:" + "|".join(t for t in BLOCK_TAGS if t != "meta") + r")(?=[ \t\v\f]|/?>|$))"
    r"|<!--|<\?|<![A-Z]|<!\[CDATA\["
)
# Type 7: one complete open or closing tag, alone on its line.
_ATTRIBUTE = r"""[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t\n"'=<>`]+|'[^'\n]*'|"[^"\n]*"))?"""
_HTML_7 = (
    r"(?:<[A-Za-z][A-Za-z0-9-]*(?:" + _ATTRIBUTE + r")*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"
)
HTML_1_TO_6_RE = lazyre.compile(r" {0,3}(?:" + _HTML_1_TO_6 + ")", re.M)
HTML_7_RE = lazyre.compile(r" {0,3}" + _HTML_7, re.M)
# mistune's rule for the HTML blocks that end a list item's or a quote's lazy lines
BLOCK_HTML = r"^ {0,3}(?:" + _HTML_1_TO_6 + "|" + _HTML_7 + ")"


# An ATX heading's closing sequence (cmark-gfm): `#`s after a space or tab, or alone.
ATX_CLOSING_RE = lazyre.compile(r"(?:^|[ \t]+)#+[ \t]*$")
# A footnote's label (cmark-gfm): `^` then no blank and no `]`.
FOOTNOTE_LABEL_RE = lazyre.compile(r"\^[^\]\s]+")
# A setext underline, as mistune's rule matches it.
SETEXT_LINE_RE = lazyre.compile(r" {0,3}(?:=+|-+)[ \t]*(?:\n|$)")

# A list item's marker at the start of its line, as mistune's list rule matches it.
LIST_MARKER_RE = lazyre.compile(r"[ \t]*(?:[*+-]|\d{1,9}[.)])")
# cmark-gfm's task-list line (its scanner reads the whole line: the item's marker comes first),
# and the checkbox at the start of the item's content with the blanks after it
TASK_LINE_RE = lazyre.compile(r"[ \t\v\f]*(?:[-+*]|[0-9]+[^\n])[ \t\v\f]+\[[ xX]\][ \t\v\f]")
TASK_BOX_RE = lazyre.compile(r"[ \t]*\[[ xX]\][ \t]+")
# The whole marker line, in the groups of mistune's list rule (any indentation: a nested item).
LIST_LINE_RE = lazyre.compile(LIST_PATTERN.replace(" {0,3}", " *", 1).replace("^", "", 1))
