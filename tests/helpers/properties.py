"""A property as two tests: the same examples on every default run, new ones in the slow set.

The default run must give the same result every time, so a red run is the change's doing: its
examples are derandomized (tests/conftest.py's profile) and its explicit `@example`s hold every
input a run ever failed on. Exploring new inputs is the slow set's job (`pytest -m slow`): the
twin draws freely and keeps what it finds in `.hypothesis/` to replay it first next time; a find
becomes an `@example` on the property (or a line of tests/helpers/gfm_regressions.py), so the
default run holds it from then on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.database import DirectoryBasedExampleDatabase

_DATABASE = DirectoryBasedExampleDatabase(str(Path(__file__).resolve().parents[2] / ".hypothesis" / "examples"))
_EXPLORED_EXAMPLES = 2000


def fixed_and_explored(*strategies: Any, examples: int) -> Callable[[Callable[..., None]], tuple[Any, Any]]:
    """`test_x, test_x_explored = fixed_and_explored(st, examples=300)(property)`: `examples`
    derandomized examples in the default run, and a slow twin drawing more, freely."""

    def both(prop: Callable[..., None]) -> tuple[Any, Any]:
        base = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        fixed = settings(base, max_examples=examples, derandomize=True, database=None)(given(*strategies)(prop))
        more = max(examples, _EXPLORED_EXAMPLES)
        free = settings(base, max_examples=more, derandomize=False, database=_DATABASE)(given(*strategies)(prop))
        return fixed, pytest.mark.slow(free)

    return both
