"""Print one version's section of CHANGELOG.md: python .ci/changelog.py X.Y.Z

The release workflow makes the GitHub release's notes from it, so a tag whose version has no
dated section (still under "Unreleased", or never written) fails before anything is published.
Standard library only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

CHANGELOG = Path(__file__).resolve().parent.parent / "CHANGELOG.md"


def section(text: str, version: str) -> str:
    """The body under `## [version] - YYYY-MM-DD`, up to the next `## ` heading or link list."""
    head = re.compile(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}[ \t]*$", re.M)
    found = head.search(text)
    if found is None:
        raise LookupError(f"CHANGELOG.md has no dated section `## [{version}] - YYYY-MM-DD`")
    rest = text[found.end():]
    end = re.search(r"^(## |\[[^\]]+\]: )", rest, re.M)
    body = (rest[: end.start()] if end else rest).strip()
    if not body:
        raise LookupError(f"CHANGELOG.md's section for {version} is empty")
    return body + "\n"


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    try:
        sys.stdout.write(section(CHANGELOG.read_text(encoding="utf-8"), sys.argv[1]))
    except LookupError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
