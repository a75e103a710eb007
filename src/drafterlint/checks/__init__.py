"""The rules: one module each, found by name so that adding a rule means adding a module."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from drafterlint.findings import RuleInfo

_NOT_RULES = {"base"}
_cache: list[ModuleType] | None = None


def all_rules() -> list[ModuleType]:
    """Every rule module, ordered by code."""
    global _cache
    if _cache is None:
        mods = []
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_") or info.name in _NOT_RULES:
                continue
            mod = importlib.import_module(f"{__name__}.{info.name}")
            if hasattr(mod, "RULE") and hasattr(mod, "check"):
                mods.append(mod)
        _cache = sorted(mods, key=lambda m: m.RULE.code)
    return _cache


def rule_infos() -> list[RuleInfo]:
    """Every rule as report metadata, ordered by code."""
    import inspect

    return [
        RuleInfo(m.RULE.code, m.RULE.name, m.RULE.severity, m.RULE.summary,
                 inspect.cleandoc(m.__doc__ or m.RULE.summary), tuple(sorted(m.RULE.needs)))
        for m in all_rules()
    ]


def rule_by_code(code: str) -> ModuleType | None:
    code = code.strip().upper()
    for mod in all_rules():
        if mod.RULE.code == code or mod.RULE.name == code.lower():
            return mod
    return None
