"""The seam to mistune's internals: every private mistune name the parser uses, in one place.

mistune's public API gives tokens, not positions, and finalizes emphasis its own way; the
parser reaches past it here and nowhere else (tests/test_markdown_mistune.py holds that), so a
new mistune release breaks at most this module and the names below say what to look at.  The
weekly workflow `.github/workflows/mistune-latest.yml` runs the parser's tests on the newest
mistune release, so the pin in pyproject.toml can be widened on purpose.

Each name is mistune's own object under a public name (no wrapper, so the parser runs exactly
as it did when it imported them directly).
"""

from __future__ import annotations

from typing import Any

from mistune._inline import emphasis as _emphasis
from mistune._inline import links as _links
from mistune.block_parser import _BLOCK_QUOTE_LINE, BlockParser, _parse_block_quote_line, _parse_html_to_newline
from mistune.list_parser import _compile_continue_width, _has_continuation_indent, _strip_continuation_indent

# -- block_parser ------------------------------------------------------------------------------

# A `>` line as mistune's quote rule reads it: a lazy line's judge must agree with it exactly.
BLOCK_QUOTE_LINE = _BLOCK_QUOTE_LINE
# A `>` line's content as mistune's quote rule takes it (its marker and one blank gone, a leading
# tab expanded), for the quote lines after lazy ones that mistune's rule would not reach.
parse_block_quote_line = _parse_block_quote_line
# An HTML block from the cursor to the next blank line, made as mistune's HTML rule makes it, for
# the parser's own HTML block rules (types 6 and 7 where mistune would not start one).
parse_html_to_newline = _parse_html_to_newline

# -- list_parser -------------------------------------------------------------------------------

# The indentation an item's continuation lines need, computed as mistune's list rule does, so
# that the lazy lines the parser marks are the ones mistune took.
compile_continue_width = _compile_continue_width
# Whether a line is indented enough to continue an item (mistune's test, also for footnotes).
has_continuation_indent = _has_continuation_indent
# A continuation line with the item's indentation removed, as mistune strips it.
strip_continuation_indent = _strip_continuation_indent

# -- _inline.links -----------------------------------------------------------------------------

# Whether `[…]` at a bracket names a defined reference: a `[^…]` footnote label is one only
# when no link reads it (mistune's own lookup, its normalization of the label included).
parse_reference = _links._parse_reference

# -- _inline.emphasis: mistune's emphasis finalization, reused with cmark-gfm's flanking --------

# One delimiter run (`*`, `_`, `~`) as mistune's delimiter algorithm keeps it.
Delimiter = _emphasis._Delimiter
# Adjacent text tokens joined first (apart where emphasis is off), as mistune does before runs.
coalesce_emphasis_text = _emphasis._coalesce_emphasis_text
# Whether any text token holds a `*` or `_` (no emphasis work otherwise).
contains_emphasis_marker = _emphasis._contains_emphasis_marker
# A token without mistune's bookkeeping keys, as finalization leaves it.
clean_emphasis_token = _emphasis._clean_emphasis_token
# mistune's fast resolution of simple, well-nested delimiters (False: use the full algorithm).
process_dense_emphasis = _emphasis._process_dense_emphasis
# The steps of mistune's full delimiter algorithm (CommonMark's "process emphasis"), for the
# parser's own loop over them, which also meets cmark-gfm's `~` closers: where the parts each
# delimiter stands at are now, the nearest opener a closer may take, how many characters they
# use, what the emphasis holds, and the match made.
DelimiterIndex = _emphasis._DelimiterIndex
find_emphasis_opener = _emphasis._find_emphasis_opener
get_emphasis_use_length = _emphasis._get_emphasis_use_length
get_emphasis_children = _emphasis._get_emphasis_children
apply_emphasis_match = _emphasis._apply_emphasis_match
# Adjacent text tokens merged after emphasis is resolved.
merge_text_tokens = _emphasis._merge_text_tokens


class HookedBlockParser(BlockParser):
    """mistune's `BlockParser` with its private fast path for indented lines open as the public
    hook `indent_code_fast`: mistune's `parse` calls `_parse_indent_code_fast` before any rule,
    and it takes a line of four blanks after a paragraph for text, which the parser must stop."""

    def indent_code_fast(self, state: Any) -> Any:
        return BlockParser._parse_indent_code_fast(self, state)

    def _parse_indent_code_fast(self, state: Any) -> Any:
        return self.indent_code_fast(state)
