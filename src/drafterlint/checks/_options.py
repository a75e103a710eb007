"""A rule's options: declared once in the rule's module, next to RULE, as ``OPTIONS``.

A declaration holds the option's name, its JSON Schema (without the description), its default
and its description. It is the one source of each of these: the ``rule_options`` part of
schemas/config.schema.json is generated from the declarations (``python -m drafterlint.docs``)
and never read back for a default; the option tables of ``drafterlint explain`` and docs/rules/
are made from them; and every read (``OPTION.read(config)``) merges what the configuration sets
over the declared default, at the time the rule runs (so loading a configuration, as a warm run
does, imports no rule).

A shared module (``_facts``, ``_toc``, …) cannot import a rule module (the rule imports it), and
does not name a rule code. When it reads an option it holds an `OptionSlot`, a typed handle that
one rule's declaration fills (``Option(..., fills=SLOT)``); the slot finds that declaration
through the rule registry. tests/test_option_declarations.py holds that every slot is filled
exactly once and that the schema, the defaults and the declarations agree.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.config import Config

T = TypeVar("T")


@dataclass(frozen=True, eq=False, repr=False)
class OptionSlot(Generic[T]):
    """An option a shared module reads, declared (schema, default, description) by one rule."""

    name: str  # the option's name, for the message when no rule fills the slot

    def declaration(self) -> "Option[T]":
        found = [o for o in declared() if o.fills is self]
        if len(found) != 1:
            raise LookupError(f"option slot `{self.name}` is filled by {len(found)} rule options, not one")
        return found[0]

    def read(self, config: "Config") -> T:
        return self.declaration().read(config)

    @property
    def path(self) -> str:
        return self.declaration().path


@dataclass(frozen=True, eq=False, repr=False)
class Option(Generic[T]):
    """One option of one rule (``rule_options.RULE.NAME`` in .drafterlint.yaml)."""

    rule: str  # the code of the rule that declares it
    name: str
    schema: Mapping[str, Any]  # JSON Schema of the value, without its description
    default: T
    description: str
    fills: "OptionSlot[T] | None" = None

    def read(self, config: "Config") -> T:
        """The configured value: the file's, merged over the declared default (a mapping key by
        key, as the configuration's own sections are merged over theirs)."""
        from drafterlint.config import deep_merge

        value = config.options(self.rule).get(self.name)
        if value is None:
            return copy.deepcopy(self.default)  # a rule may not change the declaration it read
        if isinstance(value, dict) and isinstance(self.default, dict):
            return cast(T, deep_merge(self.default, value))
        return cast(T, value)

    @property
    def path(self) -> str:
        return f"rule_options.{self.rule}.{self.name}"

    def schema_entry(self) -> dict[str, Any]:
        return {"description": self.description, **self.schema, "default": self.default}


def declared() -> list[Option[Any]]:
    """Every rule's options, in code order and, within a rule, as its OPTIONS lists them."""
    from drafterlint.checks import modules

    return [o for m in modules() for o in getattr(m, "OPTIONS", ())]


def read_all(rule: str, config: "Config") -> dict[str, Any]:
    """Every option of the rule with code `rule`, as `config` sets it over the declared defaults."""
    return {o.name: o.read(config) for o in declared() if o.rule == rule}


def rule_options_schema() -> dict[str, Any]:
    """The `properties` of the configuration schema's `rule_options`: one object per rule."""
    out: dict[str, Any] = {}
    for option in declared():
        rule = out.setdefault(option.rule, {"type": "object", "additionalProperties": False, "properties": {}})
        rule["properties"][option.name] = option.schema_entry()
    return out
