"""No import cycle in drafterlint, and the registry layer below the checks.

The graph is read from the source with `ast`, not from what Python happens to import: an import
inside a function or under `if TYPE_CHECKING:` is an edge too, because a reader following the
module's names goes round a cycle all the same (and a type-only cycle becomes a runtime one the
day an annotation is needed at run time). `from package import name`, where `name` is a
submodule, is an edge to that submodule, not to the package; relative imports are resolved."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import drafterlint

PACKAGE = Path(drafterlint.__file__).parent


def _module_paths(root: Path, package: str) -> dict[str, Path]:
    """Every module under `root` (the folder of `package`) by its dotted name."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join((package, *parts))] = path
    return out


def _imported(module: str, path: Path) -> Iterator[tuple[str, str | None]]:
    """(dotted name, imported name or None) for every import statement anywhere in the module:
    `import a.b` gives ("a.b", None), `from a import b` ("a", "b"), relative forms resolved."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                # The package the module lives in (the module itself when it is an __init__),
                # then one package up per extra dot.
                anchor = module.split(".")
                if path.name != "__init__.py":
                    anchor.pop()
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            yield from ((base, alias.name) for alias in node.names)


def _resolve(name: str, imported: str | None, modules: Mapping[str, Path]) -> str | None:
    """The module an import reaches: the submodule when `imported` is one, else the deepest
    module of the package that `name` names (None outside the package)."""
    if imported is not None and f"{name}.{imported}" in modules:
        return f"{name}.{imported}"
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of the same package it imports."""
    modules = _module_paths(root, package)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        reached = (_resolve(name, imported, modules) for name, imported in _imported(module, path))
        graph[module] = {target for target in reached if target and target != module}
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def _describe(components: list[list[str]], graph: Mapping[str, set[str]]) -> str:
    lines = []
    for component in components:
        members = set(component)
        lines.append(f"cycle of {len(component)} modules:")
        lines.extend(f"  {m} -> {', '.join(sorted(graph[m] & members))}" for m in component)
    return "\n".join(lines)


def test_drafterlint_has_no_import_cycle():
    graph = import_graph(PACKAGE, "drafterlint")
    found = cycles(graph)
    assert not found, "\n" + _describe(found, graph)


def test_the_registry_layer_does_not_import_the_checks():
    graph = import_graph(PACKAGE, "drafterlint")
    crossing = {
        module: sorted(t for t in targets if t == "drafterlint.checks" or t.startswith("drafterlint.checks."))
        for module, targets in graph.items()
        if module == "drafterlint.registry" or module.startswith("drafterlint.registry.")
    }
    assert {m: t for m, t in crossing.items() if t} == {}


def _write(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_a_cycle_through_function_level_type_checking_and_relative_imports_is_found(tmp_path):
    pkg = _write(tmp_path, {
        "__init__.py": "",
        "a.py": "def f():\n    from pkg.sub import b\n",
        "sub/__init__.py": "",
        "sub/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..c import C\n",
        "c.py": "from . import a\nimport os\n",
        "d.py": "import pkg.a\n",
    })
    graph = import_graph(pkg, "pkg")
    assert graph == {
        "pkg": set(),
        "pkg.a": {"pkg.sub.b"},
        "pkg.sub": set(),
        "pkg.sub.b": {"pkg.c"},
        "pkg.c": {"pkg.a"},
        "pkg.d": {"pkg.a"},
    }
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def test_importing_a_name_is_an_edge_to_its_module_and_an_acyclic_package_passes(tmp_path):
    pkg = _write(tmp_path, {
        "__init__.py": "from pkg.low import VALUE\n",
        "low.py": "VALUE = 1\n",
        "high.py": "from pkg import low\nfrom pkg.low import VALUE\nfrom . import VALUE as V\n",
    })
    graph = import_graph(pkg, "pkg")
    assert graph == {"pkg": {"pkg.low"}, "pkg.low": set(), "pkg.high": {"pkg", "pkg.low"}}
    assert cycles(graph) == []
