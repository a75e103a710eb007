"""Print the lowest mistune version pyproject.toml allows (its `mistune>=X` lower bound).

The range is declared once, in pyproject.toml; .ci/run and the CI workflow read it from here
instead of repeating the number.
"""

import re
import sys
from pathlib import Path

text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
spec = re.search(r'"mistune\s*([^"]*)"', text)
low = re.search(r">=\s*([0-9][0-9A-Za-z.]*)", spec.group(1)) if spec else None
if low is None:
    sys.exit("pyproject.toml declares no `mistune>=X` lower bound")
print(low.group(1))
