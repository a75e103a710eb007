"""Whether a registry file's value conforms to its JSON Schema, decided without jsonschema.

Importing jsonschema (with referencing, attrs, its format checkers and the meta-schemas it reads
at import) is about a twelfth of a cold check, while the registry files are valid on nearly
every run: DL701 then reports nothing, and all that import bought was "no errors". So DL701
asks `conforms` first and imports jsonschema only when it does not answer True.

`conforms` decides the keywords the registry schemas use (schemas/catalog, policy_checks and
approved_drafters), each exactly as jsonschema's Draft 2020-12 validator reads it; anything
else (another keyword, a `$ref` outside the schema's `$defs`, a value of a type YAML as
`registry.yamlload` reads it never gives, a comparison whose result differs between the
jsonschema versions allowed: a float against `integer`, an `enum` of numbers) is undecided, and
undecided anywhere is undecided for the whole value. tests/test_schema_conforms.py holds that
its every answer is jsonschema's on the fixtures and on drawn values around them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from drafterlint import lazyre

# Keywords that only describe: no effect on validity.
_ANNOTATIONS = frozenset({"$schema", "$comment", "$defs", "title", "description", "default", "examples"})
_LOCAL_DEF = lazyre.compile(r"#/\$defs/([A-Za-z0-9_]+)")


class _Undecided(Exception):
    """A keyword or a value jsonschema might judge otherwise than this module would."""


def conforms(schema: Mapping[str, Any], value: Any) -> bool | None:
    """True when jsonschema's Draft202012Validator(schema) finds no error in `value`, False
    when it finds one, None when this module cannot tell (then ask jsonschema)."""
    try:
        return _valid(schema, value, schema)
    except _Undecided:
        return None


def _valid(schema: Any, x: Any, root: Mapping[str, Any]) -> bool:
    if schema is True or schema is False:
        return schema
    if not isinstance(schema, dict):
        raise _Undecided
    for key, arg in schema.items():
        if key in _ANNOTATIONS or key in ("then", "else"):  # (read by `if`)
            continue
        if key == "$id":
            if schema is not root:  # a nested resource: `$ref`s inside it resolve against it
                raise _Undecided
            continue
        keyword = _KEYWORDS.get(key)
        if keyword is None:
            raise _Undecided
        if not keyword(arg, x, schema, root):
            return False  # invalid whatever the other keywords say
    return True


def _type(names: Any, x: Any, schema: Any, root: Any) -> bool:
    return any(_is(name, x) for name in ([names] if isinstance(names, str) else names))


def _is(name: str, x: Any) -> bool:
    if not isinstance(x, (dict, list, str, bool, int, float)) and x is not None:
        raise _Undecided  # (YAML read by registry.yamlload gives none other)
    if name == "object":
        return isinstance(x, dict)
    if name == "array":
        return isinstance(x, list)
    if name == "string":
        return isinstance(x, str)
    if name == "boolean":
        return isinstance(x, bool)
    if name == "null":
        return x is None
    if name == "number":
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    if name == "integer":
        if isinstance(x, float):
            raise _Undecided  # 1.0 is an integer for some jsonschema versions, not others
        return isinstance(x, int) and not isinstance(x, bool)
    raise _Undecided


def _properties(props: Any, x: Any, schema: Any, root: Any) -> bool:
    if not isinstance(x, dict):
        return True
    return all(_valid(sub, x[name], root) for name, sub in props.items() if name in x)


def _additional(extra: Any, x: Any, schema: Any, root: Any) -> bool:
    if not isinstance(x, dict):
        return True
    if "patternProperties" in schema:
        raise _Undecided
    named = schema.get("properties", {})
    rest = [key for key in x if key not in named]
    if extra is False:
        return not rest
    return all(_valid(extra, x[key], root) for key in rest)


def _required(names: Any, x: Any, schema: Any, root: Any) -> bool:
    return not isinstance(x, dict) or all(name in x for name in names)


def _property_names(names: Any, x: Any, schema: Any, root: Any) -> bool:
    return not isinstance(x, dict) or all(_valid(names, key, root) for key in x)


def _items(items: Any, x: Any, schema: Any, root: Any) -> bool:
    if not isinstance(x, list):
        return True
    if "prefixItems" in schema:
        raise _Undecided
    return all(_valid(items, item, root) for item in x)


def _pattern(pattern: Any, x: Any, schema: Any, root: Any) -> bool:
    return not isinstance(x, str) or re.search(pattern, x) is not None


def _min_length(n: Any, x: Any, schema: Any, root: Any) -> bool:
    return not isinstance(x, str) or len(x) >= n


def _minimum(n: Any, x: Any, schema: Any, root: Any) -> bool:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return True
    return not x < n  # (NaN is no less than anything: valid, as for jsonschema)


def _equal(x: Any, const: Any) -> bool:
    # jsonschema tells True from 1 and a string from anything else
    if isinstance(const, str):
        return isinstance(x, str) and x == const
    if isinstance(const, bool) or const is None:
        return x is const
    raise _Undecided  # (numbers, arrays, objects: none in the registry's schemas)


def _const(const: Any, x: Any, schema: Any, root: Any) -> bool:
    return _equal(x, const)


def _enum(values: Any, x: Any, schema: Any, root: Any) -> bool:
    return any(_equal(x, v) for v in values)  # (a match decides, whatever the values after it)


def _not(sub: Any, x: Any, schema: Any, root: Any) -> bool:
    return not _valid(sub, x, root)


def _one_of(subs: Any, x: Any, schema: Any, root: Any) -> bool:
    return [_valid(sub, x, root) for sub in subs].count(True) == 1


def _if(sub: Any, x: Any, schema: Any, root: Any) -> bool:
    branch = "then" if _valid(sub, x, root) else "else"
    return branch not in schema or _valid(schema[branch], x, root)


def _ref(ref: Any, x: Any, schema: Any, root: Any) -> bool:
    m = _LOCAL_DEF.fullmatch(ref) if isinstance(ref, str) else None
    defs = root.get("$defs")
    if m is None or not isinstance(defs, dict) or m.group(1) not in defs:
        raise _Undecided
    return _valid(defs[m.group(1)], x, root)


_KEYWORDS: dict[str, Callable[[Any, Any, Any, Any], bool]] = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "propertyNames": _property_names,
    "items": _items,
    "pattern": _pattern,
    "minLength": _min_length,
    "minimum": _minimum,
    "const": _const,
    "enum": _enum,
    "not": _not,
    "oneOf": _one_of,
    "if": _if,
    "$ref": _ref,
}
