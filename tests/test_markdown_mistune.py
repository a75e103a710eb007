"""The parser extends mistune through subclasses only: no function of mistune is replaced for
the whole process, so another user of mistune in the same process (a plugin, a test runner, a
documentation build) parses exactly as mistune does."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import mistune

import drafterlint
from drafterlint.markdown.parse import parse_document

# The project's code is known by its package, never by a folder name: a contributor's clone is
# usually called `drafterlint`, and mistune itself then lives under drafterlint/.venv/.
_PACKAGE = Path(drafterlint.__file__).resolve().parent


def _ours(value) -> bool:
    """Whether a module attribute is a function of this project (defined in one of its modules)."""
    if str(getattr(value, "__module__", None) or "").partition(".")[0] == "drafterlint":
        return True
    code = getattr(value, "__code__", None)
    return code is not None and Path(code.co_filename).resolve().is_relative_to(_PACKAGE)


def _mistune_modules():
    yield mistune
    for info in pkgutil.walk_packages(mistune.__path__, "mistune."):
        try:
            yield importlib.import_module(info.name)
        except ImportError:  # optional extras of mistune (e.g. a highlighter)
            continue


def test_no_mistune_function_is_replaced():
    parse_document("- [a](#b)\n\n  > q\n\n*x* _y_\n\n    code\n", "x.md")  # every hook used
    foreign = []
    for module in _mistune_modules():
        for name, value in vars(module).items():
            if _ours(value):
                foreign.append(f"{module.__name__}.{name}")
    assert foreign == []


def test_plain_mistune_in_the_same_process_is_unaffected():
    src = "- a\n- b\n\n  c\n\n> q\n\n*em* and __strong__\n"
    before = mistune.create_markdown(renderer="ast")(src)
    parse_document(src, "x.md")
    assert mistune.create_markdown(renderer="ast")(src) == before
