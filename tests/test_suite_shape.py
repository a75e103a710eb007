"""The shape of the test suite itself: one import style and no test module importing another, so
that `pytest` and `python -m pytest` collect the same tests from any folder a contributor clones
into, and moving or deleting one test module cannot break another."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.ImportFrom):  # relative: `from . import x`
            out.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


def _local_names() -> set[str]:
    """Top-level names a module under tests/ could be imported by without the `tests.` prefix."""
    return {p.stem for p in TESTS.glob("*.py")} | {p.name for p in TESTS.iterdir() if p.is_dir()}


def test_test_modules_import_shared_code_from_tests_helpers_only():
    local = _local_names() - {"tests"}
    wrong = {}
    for path in sorted(TESTS.glob("test_*.py")):
        bad = [m for m in _imports(path)
               if m.startswith(".") or m.split(".")[0] in local
               or m.startswith(("tests.test_", "tests.conftest"))]
        if bad:
            wrong[path.name] = bad
    assert wrong == {}, "import shared code as `from tests.helpers... import ...` (fixtures: tests/conftest.py)"
