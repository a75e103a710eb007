"""The JSON Schemas drafterlint ships (`schemas/`, the package drafterlint.schemas): the
configuration's, and the registry files' for DL701. Read from the package's folder as found
by the import system (an installed package's or a checkout's): importlib.resources would cost a
warm run a tenth of its time for the same bytes."""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path


def load(name: str) -> dict:
    """The schema `name` (`config.schema.json`, ...), parsed."""
    spec = find_spec("drafterlint.schemas")
    assert spec is not None and spec.submodule_search_locations, "drafterlint.schemas is part of the package"
    folder = Path(next(iter(spec.submodule_search_locations)))
    return json.loads((folder / name).read_text(encoding="utf-8"))
