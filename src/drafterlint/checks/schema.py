"""DL701 schema — a registry file does not have the shape its readers expect.

Each policy file is validated against its JSON Schema (``schemas/catalog.schema.json`` for
``catalog.yaml``, ``schemas/policy_checks.schema.json`` for the four check files,
``schemas/approved_drafters.schema.json`` for extra lists in the ``drafters`` shape). Unknown
keys in the heads, the checkpoints and ``catalogs`` are errors — a misspelled key is silently
ignored by the validator, so the list it was meant to hold is empty — and a near miss gets a
did-you-mean. Each finding points at the offending key or value.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING

from drafterlint.checks._conforms import conforms
from drafterlint.checks.base import REGISTRY, Context, Example, Part, Rule
from drafterlint.findings import Finding, Location, Severity, did_you_mean, quoted

if TYPE_CHECKING:  # jsonschema is imported on first use: a pre-commit hook pays for every import
    from jsonschema import Draft202012Validator

    from drafterlint.registry.yamlload import YamlDoc

RULE = Rule(
    code="DL701",
    name="schema",
    severity=Severity.ERROR,
    summary="a registry file violates its JSON Schema",
    needs=frozenset({REGISTRY}),
    reads=frozenset({Part.REGISTRY, Part.REGISTRY_REPO}),
)

_CAT = "registry:src/inference_endpoint/validation/policies/2026-10-C1/catalog.yaml"
EXAMPLES = (
    Example(
        "a well-formed catalog",
        {_CAT: "version: 2026-10-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads: []\n"
               "  approved_checkpoints: {}\n"},
    ),
    Example(
        "the heads key misspelled",
        {_CAT: "version: 2026-10-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_head: []\n"
               "  approved_checkpoints: {}\n"},
        expect=((_CAT, 4, 3),),
    ),
)

_SCHEMA_FOR = {
    "catalog.yaml": "catalog.schema.json",
    "curve_checks.yaml": "policy_checks.schema.json",
    "point_checks.yaml": "policy_checks.schema.json",
    "submission_checks.yaml": "policy_checks.schema.json",
    "system_checks.yaml": "policy_checks.schema.json",
}
_SCHEMA_FOR_FORMAT = {"drafters": "approved_drafters.schema.json"}


@cache
def _schema(name: str) -> dict:
    from drafterlint.schemafiles import load

    return load(name)


@cache
def _validator(name: str) -> "Draft202012Validator":
    import jsonschema

    return jsonschema.Draft202012Validator(_schema(name))


def _where(path: Iterable[str | int]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


def _allowed(schema: dict) -> list[str]:
    return list(schema.get("properties") or {})


def validate_doc(doc: "YamlDoc", schema_name: str) -> Iterator[Finding]:
    """DL701 findings for one YamlDoc against one schema."""
    value = doc.value
    for prob in doc.problems:
        yield RULE.at(
            Location(doc.repo, doc.path, *prob.position),
            prob.message,
            key=f"key-type:{'/'.join(map(str, prob.path))}",
        )
    if value is None:
        yield RULE.at(doc.location(()), "the file is empty", key="empty")
        return
    if conforms(_schema(schema_name), value):
        return  # what jsonschema would say, without importing it (see _conforms)
    errors = sorted(
        _validator(schema_name).iter_errors(value),
        key=lambda e: [str(p) for p in e.absolute_path],
    )
    suggested: set[tuple] = set()  # (object path, key) a misspelled key stands for
    unknown_findings = []
    rest = []
    for err in errors:
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = _allowed(err.schema)
            base = tuple(err.absolute_path)
            for key in err.instance:
                if key in allowed:
                    continue
                close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
                suggestion = did_you_mean(close[0] if close else None)
                if close:
                    suggested.add((base, close[0]))
                known = f" (expected one of: {', '.join(allowed)})" if len(allowed) <= 12 else ""
                unknown_findings.append(
                    RULE.at(
                        doc.location(base + (key,)),
                        f"unknown key {quoted(key)} in {_where(base)}"
                        + (f"; did you mean {quoted(close[0])}?" if close else known),
                        suggestion=suggestion,
                        key=f"unknown:{'/'.join(map(str, base + (key,)))}",
                    )
                )
        else:
            rest.append(err)
    yield from unknown_findings
    for err in rest:
        base = tuple(err.absolute_path)
        if err.validator == "required" and isinstance(err.instance, dict):
            missing = [k for k in err.validator_value if k not in err.instance]
            missing = [k for k in missing if (base, k) not in suggested]
            if not missing:
                continue
            yield RULE.at(
                doc.location(base),
                f"{_where(base)} lacks {', '.join(quoted(m) for m in missing)}",
                key=f"required:{'/'.join(map(str, base))}:{','.join(missing)}",
            )
            continue
        message = err.message
        if err.validator == "pattern" and isinstance(err.instance, str):
            described = (err.schema or {}).get("description")
            message = f"{quoted(err.instance)} does not match {err.validator_value!r}" + (
                f" ({described})" if described else ""
            )
        elif err.validator == "type" and base and base[-1] == "revision" and isinstance(
            err.instance, (int, float)
        ):
            message = f"{err.message}: YAML read this revision as a number; quote it"
        elif err.validator == "oneOf":
            message = (
                "an entry is identified either by model_id and weight_checksum, or by "
                "target_checksum and configuration"
            )
        yield RULE.at(
            doc.location(base, value=True),
            f"{_where(base)}: {message}",
            key=f"{err.validator}:{'/'.join(map(str, base))}",
        )


def check(ctx: Context) -> Iterator[Finding]:
    reg = ctx.loaded_registry
    for policy in reg.policies.values():
        for name, doc in policy.docs.items():
            schema_name = _SCHEMA_FOR.get(name)
            if schema_name:
                yield from _judged(ctx, doc, schema_name)
    for extra in reg.extra_lists:
        schema_name = _SCHEMA_FOR_FORMAT.get(extra.format)
        if extra.doc is not None and schema_name:
            yield from _judged(ctx, extra.doc, schema_name)


def _judged(ctx: Context, doc: "YamlDoc", schema_name: str) -> list[Finding]:
    """The file's findings, from the cache when it and the schema are unchanged: a run where
    only Markdown changed imports no jsonschema (a seventh of a cold run). The document's
    representation holds everything the findings are made of (where it is, what it holds,
    the positions and the problems of reading it)."""
    return ctx.remembered(RULE.code, f"{schema_name}\0{doc!r}", lambda: validate_doc(doc, schema_name))
