"""A name with a leading `_` is its module's own: no other module of `src/` imports it
(`from drafterlint.x import _name`) or reads it (`x._name` on an imported module). A name another
module needs is that module's API, public in its owner (or the code moves to where it is used).
Private modules (`checks/_facts.py`, `markdown/_mistune.py`) are shared helpers and may be
imported; what they hold under a `_` name is theirs alone, as in any module. mistune's private
names and its parse state are another matter: tests/test_markdown_mistune.py keeps them in
markdown/_mistune.py, the adapter."""

from __future__ import annotations

import ast
from pathlib import Path

import drafterlint

PACKAGE = Path(drafterlint.__file__).resolve().parent

# The crossings that remain, each with the helper of issue 30 that removes it. This list only
# shrinks: a crossing that is gone must leave it too (the second test says so).
ALLOWED: dict[tuple[str, str], str] = {}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(dotted: str, root: Path) -> bool:
    if dotted.partition(".")[0] != "drafterlint":
        return False
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _absolute(node: ast.ImportFrom, me: str, path: Path) -> str:
    """The module an import names, relative imports resolved against the importing module."""
    if not node.level:
        return node.module or ""
    package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def _dotted(node: ast.expr) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None for anything but names and attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def crossings(path: Path, root: Path = PACKAGE.parent) -> set[str]:
    """The private names of other modules of the package that the module at `path` (under
    `root`, the folder holding the package) imports or reads, as `module.name`."""
    me = _module_name(path, root)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: dict[str, str] = {}  # a local name bound to a module of the package
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(node, me, path)
            if source.partition(".")[0] != "drafterlint":
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if _is_module(full, root):
                    modules[alias.asname or alias.name] = full
                elif _private(alias.name) and source != me:
                    found.add(full)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.partition(".")[0] == "drafterlint":
                    local = alias.asname or alias.name.partition(".")[0]
                    modules[local] = alias.name if alias.asname else "drafterlint"
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        parts = _dotted(node.value)
        if parts is None or parts[0] not in modules:
            continue
        owner = ".".join([modules[parts[0]], *parts[1:]])
        if owner != me and _is_module(owner, root):
            found.add(f"{owner}.{node.attr}")
    return found


def _all_crossings() -> set[tuple[str, str]]:
    return {
        (path.relative_to(PACKAGE).as_posix(), name)
        for path in sorted(PACKAGE.rglob("*.py"))
        for name in crossings(path)
    }


def test_no_private_name_crosses_a_module_boundary():
    new = sorted(_all_crossings() - set(ALLOWED))
    assert new == [], "make the name public in its owning module, or move the code to where it is used"


def test_the_allowed_crossings_still_exist():
    gone = sorted(set(ALLOWED) - _all_crossings())
    assert gone == [], "remove these from ALLOWED: the crossing is gone"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_the_scan_sees_every_way_of_reaching_a_private_name(tmp_path):
    _write(tmp_path, {
        "drafterlint/__init__.py": "",
        "drafterlint/sub/__init__.py": "",
        "drafterlint/sub/_helper.py": "_X = 1\nY = 2\n",
        "drafterlint/sub/owner.py": "_Z = 1\n_W = 2\n_V = 3\n",
        "drafterlint/sub/user.py": (
            "import drafterlint.sub.owner\n"
            "import drafterlint.sub._helper as h\n"
            "from drafterlint.sub import _helper\n"  # a private module: a shared helper
            "from drafterlint.sub.owner import _Z\n"
            "from . import owner as o\n"
            "a = _helper.Y + o._W + h._X + drafterlint.sub.owner._V\n"
            "def f():\n    from .owner import _Z as z\n    return z\n"
        ),
        "drafterlint/sub/clean.py": (
            "import drafterlint.sub.clean as me\n"
            "from drafterlint.sub import _helper, owner\n"
            "_A = 1\nb = me._A + _helper.Y + owner.__name__\n"
        ),
    })
    sub = tmp_path / "drafterlint" / "sub"
    assert crossings(sub / "user.py", tmp_path) == {
        "drafterlint.sub.owner._Z", "drafterlint.sub.owner._W", "drafterlint.sub._helper._X",
        "drafterlint.sub.owner._V",
    }
    assert crossings(sub / "clean.py", tmp_path) == set()
