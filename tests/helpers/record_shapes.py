"""Writes drafterlint/_record_shapes.py, the package's constructors' templates shipped compiled
(drafterlint.records): `python -m tests.helpers.record_shapes` after a record's shape changes."""

from __future__ import annotations

from pathlib import Path

from drafterlint import records, safeio
from tests.helpers.package import package_records

SHAPES_FILE = Path(__file__).resolve().parents[2] / "src" / "drafterlint" / "_record_shapes.py"


def package_shapes() -> set[tuple]:
    """The shapes of the constructors of the package's records."""
    return {records.shape_of(cls) for cls in package_records()
            if cls.__record_params__.init and "__init__" in vars(cls)}  # type: ignore[attr-defined]


if __name__ == "__main__":
    safeio.write_file(SHAPES_FILE, records.shapes_module(package_shapes()), within=SHAPES_FILE.parent,
                      what="the shapes module")
