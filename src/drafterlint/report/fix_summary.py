"""The Action's job-summary section for `drafterlint fix` (`fix --diff --summary FILE`): what fix
can repair, with the command and the patch folded, and the one line saying what became of the
suggested changes (`--review`, or the Action's own line for a pull request it did not ask for).

Each of those quotes a stranger's text: the base ref's name in the command, an error answer of
the API in the line, the documents' lines in the patch. They are written through the one writer
(report/markdown_writer.py), so that none becomes a link, an image, HTML, a mention or a break out
of the fold or the fence; the Action (action/entry.py, which runs before the tool is installed)
only appends the file.
"""

from __future__ import annotations

from collections.abc import Sequence

from drafterlint.report.markdown_writer import code, code_block, message
from drafterlint.safeio import visible

# A patch longer than this is not shown (the Action's fix-patch output names its file).
SHOWN_PATCH_LIMIT = 64 * 1024


def note(said: str) -> str:
    """One line drafterlint said about the suggested changes, as a quoted paragraph; it stays
    one line, as in the log."""
    return "> " + message(visible(said.removeprefix("drafterlint: ")))


def section(files: int, patch: str, *, base_ref: str | None, notes: Sequence[str], show_patch: bool) -> str:
    """The section's Markdown ("" when there is nothing to say): with `show_patch` and a patch,
    what `files` files fix can repair, the command, the notes and the patch; otherwise the
    notes alone."""
    quoted = [note(n) for n in notes if n]
    if not (show_patch and patch):
        if not quoted:
            return ""
        return "\n".join(["### drafterlint's suggested changes", "", *quoted, ""])
    how = code(f"drafterlint fix --base-ref {base_ref}") if base_ref else "`drafterlint fix`"
    lines = [f"### drafterlint can repair {files} file{'s' if files != 1 else ''}", "",
             f"{how} makes these changes (or `git apply` the patch from the workspace root).", ""]
    lines += [*quoted, ""] if quoted else []
    if len(patch.encode("utf-8", "surrogateescape")) > SHOWN_PATCH_LIMIT:
        lines += ["The patch is too long to show here: the step's `fix-patch` output names its file.", ""]
        return "\n".join(lines)
    # CRLF line ends read as line ends; each other control and each character that disguises
    # text shown as the one escape shows it, where the patch file holds them as they are.
    lines_of = patch.replace("\r\n", "\n").rstrip("\n")
    shown = "\n".join(visible(line) for line in lines_of.split("\n"))
    if shown != lines_of:
        lines += ["Characters that would disguise or control text are shown escaped (`\\u202e`); "
                  "the patch file holds them as they are.", ""]
    lines += ["<details><summary>The patch</summary>", "", code_block(shown, "diff"), "", "</details>", ""]
    return "\n".join(lines)
