"""The package's own parts, found by walking it (every module imported)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import drafterlint


def package_records() -> list[type]:
    """Every record class drafterlint declares (drafterlint.records), in the order of its name."""
    for info in pkgutil.walk_packages(drafterlint.__path__, "drafterlint."):
        if not info.name.endswith(".__main__"):  # (it runs the command line)
            importlib.import_module(info.name)
    return sorted({cls for name, module in list(sys.modules.items()) if name.startswith("drafterlint")
                   for cls in vars(module).values()
                   if isinstance(cls, type) and hasattr(cls, "__record_params__") and cls.__module__ == name},
                  key=lambda c: f"{c.__module__}.{c.__qualname__}")
