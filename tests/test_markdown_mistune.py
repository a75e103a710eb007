"""The parser extends mistune through subclasses only: no function of mistune is replaced for
the whole process, so another user of mistune in the same process (a plugin, a test runner, a
documentation build) parses exactly as mistune does."""

from __future__ import annotations

import ast
import dataclasses
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


# -- the seam: mistune's private names are used in markdown/_mistune.py only --------------------

_SEAM = _PACKAGE / "markdown" / "_mistune.py"


def _private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def _mistune_private_attributes() -> set[str]:
    """The private attribute names of mistune's parser and state classes (a subclass that
    defines or calls one reaches into mistune)."""
    classes = (mistune.BlockParser, mistune.InlineParser, mistune.BlockState, mistune.InlineState,
               mistune.Markdown)
    return {name for cls in classes for name in dir(cls) if _private(name)}


def _seam_violations(path: Path, private_attrs: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases = {"mistune"}  # names bound to a mistune module in this file
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] == "mistune":
            if _private(node.module or "") or any(_private(a.name) for a in node.names):
                found.append(f"line {node.lineno}: from {node.module} import ...")
            aliases.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.partition(".")[0] == "mistune":
                    if _private(a.name):
                        found.append(f"line {node.lineno}: import {a.name}")
                    aliases.add(a.asname or a.name.partition(".")[0])
        elif isinstance(node, ast.FunctionDef) and node.name in private_attrs:
            found.append(f"line {node.lineno}: def {node.name} (overrides mistune's private method)")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            root: ast.AST = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            is_super = (isinstance(root, ast.Call) and isinstance(root.func, ast.Name)
                        and root.func.id == "super")
            if (isinstance(root, ast.Name) and root.id in aliases) or (is_super and node.attr in private_attrs):
                found.append(f"line {node.lineno}: .{node.attr}")
    return found


def test_private_mistune_names_only_in_the_seam_module():
    private_attrs = _mistune_private_attributes()
    assert "_parse_indent_code_fast" in private_attrs  # the scan knows what it looks for
    found = [f"{path.relative_to(_PACKAGE)} {v}"
             for path in sorted(_PACKAGE.rglob("*.py")) if path != _SEAM
             for v in _seam_violations(path, private_attrs)]
    assert found == []


def test_the_seam_scan_finds_each_way_in(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "import mistune\n"
        "import mistune._inline.emphasis\n"
        "from mistune._inline import emphasis as _em\n"
        "from mistune.block_parser import _BLOCK_QUOTE_LINE\n"
        "x = mistune.block_parser._parse_html_to_newline\n"
        "class P(mistune.BlockParser):\n"
        "    def _parse_indent_code_fast(self, state):\n"
        "        return super()._parse_indent_code_fast(state)\n",
        encoding="utf-8",
    )
    found = _seam_violations(source, _mistune_private_attributes())
    assert [v.partition(":")[0] for v in found] == ["line 2", "line 3", "line 4", "line 7", "line 5", "line 8"]
    assert _seam_violations(_SEAM, _mistune_private_attributes()) != []  # the seam itself holds them


# -- the adapter: mistune's parse state is read and written in markdown/_mistune.py only ---------


def _dataclass_fields(cls) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def _mistune_state() -> tuple[set[str], set[str], set[str]]:
    """What mistune keeps of a parse beyond its tokens: the fields of its block and inline
    states, of an open `[` (`Bracket`) and of a delimiter run (`_Delimiter`); the methods of the
    states; and the keys of its own it puts in the env and in tokens (a subscript, `.get` or
    dict key in mistune's parsers: `env["ref_links"]`, a token's `_autolink`).  Read from the
    installed mistune, so a field a release adds is covered too."""
    from mistune._inline.emphasis import _Delimiter
    from mistune._inline.links import Bracket

    fields = set(vars(mistune.BlockState())) | set(vars(mistune.InlineState({})))
    fields |= _dataclass_fields(Bracket) | _dataclass_fields(_Delimiter)
    methods = {name for cls in (mistune.BlockState, mistune.InlineState) for name in vars(cls)
               if not name.startswith("__")}
    keys: set[str] = set()
    for module in _mistune_modules():
        if not module.__name__.startswith(("mistune.block_parser", "mistune.inline_parser", "mistune._inline",
                                           "mistune.list_parser", "mistune.core")):
            continue
        for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Subscript) and _is_env(node.value):
                keys.update(_strings([node.slice]))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_env(node.func.value):
                keys.update(_strings(node.args[:1]))
            elif isinstance(node, ast.Dict):
                keys.update(k for k in _strings(node.keys) if _private(k))
    return fields, methods, keys


def test_only_the_parser_imports_mistune():
    outside = []
    for path in sorted(_PACKAGE.rglob("*.py")):
        if path.is_relative_to(_PACKAGE / "markdown"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            outside += [f"{path.relative_to(_PACKAGE)}:{node.lineno}" for name in names
                        if name.partition(".")[0] == "mistune"]
    assert outside == []


def _is_env(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "env"


def _strings(nodes) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


# Fields of mistune's that the parser's own objects also name (read from those, never from a
# mistune object: the adapter hands out where an open `[`'s text starts as `opener_text_start`).
_ALSO_OURS = {"start": "model.Piece.start, model.Paragraph.start"}


def _state_violations(path: Path, fields: set[str], methods: set[str], keys: set[str]) -> list[str]:
    """Each place in `path` that reads or writes mistune's parse state: an attribute named as a
    field of it (called, it is another object's method: `m.start()`), any use of a method of its
    states, and one of mistune's env or token keys written out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            field = node.attr in fields and node.attr not in _ALSO_OURS and id(node) not in called
            if field or node.attr in methods:
                found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Constant) and node.value in keys:
            found.append(f"line {node.lineno}: {node.value!r}")
    return found


def test_mistune_state_only_in_the_adapter():
    """In the parser (markdown/, the only package that imports mistune) no module but the
    adapter reads or writes mistune's parse state."""
    fields, methods, keys = _mistune_state()
    # the scan knows what it looks for
    assert {"cursor_max", "brackets", "previous_link", "can_open"} <= fields
    assert {"append_paragraph", "find_line_end"} <= methods
    assert {"ref_links", "_autolink"} <= keys
    found = [f"{path.relative_to(_PACKAGE)} {v}"
             for path in sorted((_PACKAGE / "markdown").rglob("*.py")) if path != _SEAM
             for v in _state_violations(path, fields, methods, keys)]
    assert found == [], "read and write mistune's state through a named function of markdown/_mistune.py"


def test_the_state_scan_fails_on_a_planted_use(tmp_path):
    """Each module of the parser, copied with one line that reads mistune's state, fails the
    scan at that line (and the adapter itself reads it)."""
    fields, methods, keys = _mistune_state()
    plants = ["x = state.cursor_max", "state.env['ref_links'] = {}", "st.tokens.append(t)",
              "b = state.brackets[-1].previous_link", "state.append_paragraph()", "t = {'_autolink': 'x'}"]
    modules = sorted(p for p in (_PACKAGE / "markdown").glob("*.py") if p != _SEAM)
    for n, path in enumerate(modules):
        copy = tmp_path / path.name
        text = path.read_text(encoding="utf-8")
        copy.write_text(text + "\n\ndef planted(state, st, t):\n    " + plants[n % len(plants)] + "\n", encoding="utf-8")
        line = text.count("\n") + 4
        assert any(v.startswith(f"line {line}:") for v in _state_violations(copy, fields, methods, keys)), path.name
    assert _state_violations(_SEAM, fields, methods, keys) != []
