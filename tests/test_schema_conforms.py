"""DL701 decides a valid registry file without jsonschema (checks/_conforms.py), and every
answer it gives is jsonschema's: on each YAML file of the fixtures, on the `drafters:` shape,
and on values drawn around them (a node replaced, a key dropped or added)."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from typing import Any

import jsonschema
from hypothesis import strategies as st

from drafterlint.checks._conforms import conforms
from drafterlint.registry.yamlload import load_yaml_text
from drafterlint.schemafiles import load
from tests.helpers import FIXTURES
from tests.helpers.properties import fixed_and_explored

_SCHEMA_OF = {
    "catalog.yaml": "catalog.schema.json",
    "curve_checks.yaml": "policy_checks.schema.json",
    "point_checks.yaml": "policy_checks.schema.json",
    "submission_checks.yaml": "policy_checks.schema.json",
    "system_checks.yaml": "policy_checks.schema.json",
}
_DRAFTERS = (
    "drafters:\n"
    "  - {benchmark: m1, approved_cohort: 2026-09-C1, model_id: a/b, weight_checksum: 'git-sha1:ab12'}\n"
    "  - {benchmark: m2, approved_cohort: 2026-10-C1, target_checksum: 'sha256:ff', configuration: {k: 1}}\n"
)


def _fixture_values() -> list[tuple[str, Any]]:
    """(schema name, value) of every policy file in the fixtures that YAML reads, and a list in
    the `drafters:` shape."""
    out = []
    for path in sorted(FIXTURES.rglob("*.yaml")):
        name = _SCHEMA_OF.get(path.name)
        if name is None or "policies" not in path.parts:
            continue
        try:
            value = load_yaml_text(path.read_text(encoding="utf-8"), path.name).value
        except Exception:  # an unreadable file is DL702's: DL701 never sees it
            continue
        out.append((name, value))
    out.append(("approved_drafters.schema.json", load_yaml_text(_DRAFTERS, "x.yaml").value))
    return out


_VALUES = _fixture_values()
_VALIDATORS = {name: jsonschema.Draft202012Validator(load(name)) for name in set(_SCHEMA_OF.values()) | {"approved_drafters.schema.json"}}


def _agrees(name: str, value: Any) -> bool | None:
    said = conforms(load(name), value)
    valid = not any(True for _ in _VALIDATORS[name].iter_errors(value))
    assert said is None or said == valid, (name, json.dumps(value, default=str)[:2000], said, valid)
    return said


def test_every_fixture_is_judged_as_jsonschema_judges_it():
    said = [_agrees(name, value) for name, value in _VALUES]
    # the fast path is taken: the valid fixtures are decided, and so are invalid ones
    assert said.count(True) >= 40 and said.count(False) >= 1, said
    assert {name for name, _ in _VALUES} == set(_VALIDATORS)


# What a drawn value holds: what the schemas test for (their patterns' matches and near misses,
# the numbers on each side of `minimum`, true against `const: true`), and values of every type.
_SCALARS = st.one_of(
    st.sampled_from([
        "2026-10-C1", "2026-10-C", "26-10-C1", "a" * 40, "0123456789abcdef0123456789abcdef01234567",
        "org/name", "org/", "/name", "-org/name", "git-sha1:ab12", "sha256:", "", "x", "eagle",
        "error", "warning", "info", "Error", "true", "1",
    ]),
    st.text(max_size=6),
    st.integers(min_value=-2, max_value=3),
    st.sampled_from([0.0, 1.0, 1.5, float("nan"), float("inf")]),
    st.booleans(),
    st.none(),
)
_VALUE = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4) | st.integers(0, 2), inner, max_size=3)),
    max_leaves=6,
)
_KEYS = st.sampled_from([
    "version", "revision", "catalogs", "enrollment", "diagnostics", "approved_spec_decode_heads",
    "approved_checkpoints", "model", "repository", "approved_cohort", "method", "bundled",
    "models", "severity", "drafters", "benchmark", "model_id", "weight_checksum",
    "target_checksum", "configuration", "checks", "misspelt", 1,
])


def _nodes(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths of every node of `value`, itself included."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_nodes(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_nodes(v, (*path, i)))
    return out


@st.composite
def _mutated(draw: st.DrawFn) -> tuple[str, Any]:
    name, value = draw(st.sampled_from(_VALUES))
    value = copy.deepcopy(value)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_nodes(value)))
        parent = value
        for step in path[:-1]:
            parent = parent[step]
        node = parent[path[-1]] if path else value
        how = draw(st.sampled_from(["replace", "drop", "add"]))
        if how == "replace" or not path and how == "drop":
            new = draw(_VALUE)
            if path:
                parent[path[-1]] = new
            else:
                value = new
        elif how == "drop":
            del parent[path[-1]]
        elif isinstance(node, dict):
            node[draw(_KEYS)] = draw(_VALUE)
        elif isinstance(node, list):
            node.append(draw(_VALUE) if not node or draw(st.booleans()) else copy.deepcopy(node[0]))
    return name, value


def _drawn_values_agree(case: tuple[str, Any]) -> None:
    _agrees(*case)


test_drawn_values_agree, test_drawn_values_agree_explored = fixed_and_explored(_mutated(), examples=300)(
    _drawn_values_agree
)


def test_a_check_of_valid_registry_files_imports_no_jsonschema(tmp_path):
    """A cold check of the example (its registry files valid) finds what it found with
    jsonschema, without importing it; an invalid file is still worded by jsonschema."""
    rules, registry = tmp_path / "rules", tmp_path / "endpoints"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    shutil.copytree(FIXTURES / "example" / "endpoints", registry)
    probe = (
        "import json, sys\n"
        "from drafterlint.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "print(json.dumps('jsonschema' in sys.modules), file=sys.stderr)\n"
    )

    def check() -> tuple[list[str], bool]:
        argv = [sys.executable, "-c", probe, "check", "--no-cache", "--format", "json",
                "--rules-repo", str(rules), "--registry-repo", str(registry)]
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, timeout=120)
        messages = [f["message"] for f in json.loads(proc.stdout)["findings"] if f["code"] == "DL701"]
        return messages, json.loads(proc.stderr.strip().splitlines()[-1])

    assert check() == ([], False)
    catalog = next(registry.rglob("catalog.yaml"))
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("revision: 1\n", "revision: 0\n", 1), encoding="utf-8")
    messages, imported = check()
    assert imported and messages == ["revision: 0 is less than the minimum of 1"]
