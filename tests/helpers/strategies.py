"""Hypothesis strategies more than one test module draws from."""

from __future__ import annotations

from hypothesis import strategies as st

# Pieces that exercise the parser's corners: block markers, inline markup, line ends, unicode.
_PIECES = [
    "# ", "## 2.9 ", "### ", "#", "\n", "\r\n", "\r", "\n\n", "  ", "    ", "\t",
    "- ", "* ", "1. ", "2) ", "> ", ">", "> [!NOTE]\n", "```\n", "~~~", "`", "``",
    "[", "]", "(", ")", "![", "](#a)", "](b.md#c)", "[x]: /u\n", "[x]", "<", ">",
    "<a id=\"q\">", "</a>", "<https://e.com>", "https://e.com/x", "www.e.org",
    "<!--", "-->", "<!-- drafterlint-disable DL201 -->", "|", "| a | b |\n|---|---|\n",
    "---", "===", "\\", "\\[", "*", "**", "_", "__", "~~", "&amp;", "&#", "§2.9",
    "a", "word", "é", "日本", "\u200b", "\ufeff", "😀", " ",
]

markdown = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.text(max_size=6)),
    max_size=60,
).map("".join)
