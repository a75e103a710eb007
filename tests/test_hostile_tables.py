"""Hostile tables: large tables cost a scan of their text, not seconds or gigabytes.

A table that takes the document over its cell budget (MAX_TABLE_CELLS) is reported as DL702 at
the table's line and left unparsed; the rest of the document is still checked (a broken link
after the table is still found). Smaller tables are parsed and their cells checked as usual.
The documents are generated here; the tests only guard against hangs, what these cases cost is
measured by bench/hostile.py (against BUDGET) and bench/tables.py.
"""

from __future__ import annotations

import pytest

from drafterlint.markdown.blocks import MAX_TABLE_CELLS
from tests.helpers.hostile import SPEC, assert_sane, rules_repo, run_cli

AFTER = "\n## After\n\nSee [gone](#no-such-section).\n"
BUDGET = (2.0, 150.0)  # seconds, MB per case on an idle machine (bench/hostile.py reports it)


def check(base, select: str):
    return run_cli(["check", "--rules-repo", str(base / "rules"), "--format", "json", "--select", select], base,
                   budget=BUDGET)


def table(rows: int, columns: int, cell: str = "a") -> str:
    """A pipe table of `rows` body rows and `columns` columns (1-character cells by default)."""
    line = "|" + "|".join([cell] * columns) + "|\n"
    return line + "|" + "-|" * columns + "\n" + line * rows


def _table_line() -> int:
    return SPEC.count("\n") + 2


@pytest.mark.parametrize(
    "rows, columns",
    [(1000, 2900), (1000, 1000), (30, 30_000), (10_000, 100)],
    ids=["1000x2900", "1000x1000", "30-rows-30000-columns", "10000-rows-100-columns"],
)
def test_a_table_over_the_cell_budget_is_dl702_and_the_rest_is_checked(tmp_path, rows, columns):
    rules_repo(tmp_path, SPEC + "\n" + table(rows, columns) + AFTER)
    run = check(tmp_path, select="DL201,DL702")
    assert_sane(run, (1,))
    [skipped] = run.findings("DL702")
    assert skipped["line"] == _table_line()
    assert f"line {_table_line()}" in skipped["message"] and str(MAX_TABLE_CELLS) in skipped["message"]
    [broken] = run.findings("DL201")
    assert broken["line"] == _table_line() + rows + 5  # the link after the table


def test_a_table_within_the_budget_has_its_cells_checked(tmp_path):
    rows = MAX_TABLE_CELLS // 10 - 2  # ten columns, header and last row included: the budget
    header = "| [x](#nowhere) |" + " b |" * 9 + "\n" + "|" + "-|" * 10 + "\n"
    last = "| c | [y](#gone-too) |" + " d |" * 8 + "\n"
    rules_repo(tmp_path, SPEC + "\n" + header + ("|" + "a|" * 10 + "\n") * rows + last)
    run = check(tmp_path, select="DL201,DL702")
    assert_sane(run, (1,))
    assert run.findings("DL702") == []
    line = _table_line()
    assert [(f["line"], f["column"]) for f in run.findings("DL201")] == [(line, 3), (line + rows + 2, 7)]


def test_the_budget_is_per_document_across_tables(tmp_path):
    small = table(99, 10)  # 1 000 cells each
    count = MAX_TABLE_CELLS // 1000 + 3
    doc = SPEC + "".join(f"\n## Part {n}\n\n" + small for n in range(count)) + AFTER
    rules_repo(tmp_path, doc)
    run = check(tmp_path, select="DL201,DL702")
    assert_sane(run, (1,))
    [skipped] = run.findings("DL702")
    first_over = doc.split("\n").index(f"## Part {MAX_TABLE_CELLS // 1000}") + 3
    assert skipped["line"] == first_over
    assert len(run.findings("DL201")) == 1


def test_a_large_table_inside_a_quote_is_bounded_too(tmp_path):
    quoted = "".join("> " + line + "\n" for line in table(2000, 100).splitlines())
    rules_repo(tmp_path, SPEC + "\n" + quoted + AFTER)
    run = check(tmp_path, select="DL201,DL702")
    assert_sane(run, (1,))
    [skipped] = run.findings("DL702")
    assert skipped["line"] == _table_line()
    assert len(run.findings("DL201")) == 1
