#!/usr/bin/env python3
"""The action's lock, action/requirements.lock: what `action/entry.py install` takes from the
package index, every file by its hash. Read here once (tests/test_action_lock.py uses it too).

    python .ci/action_lock.py   # exit 1 naming each pin this Python's environment does not hold

`.ci/run` installs the lock before the test tools and runs this after them, so that the suite
runs on exactly the versions the action installs; it fails when a test tool moved one of them.
"""

from __future__ import annotations

import importlib.metadata as md
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from packaging.markers import Marker
from packaging.utils import canonicalize_name
from packaging.version import Version

LOCK = Path(__file__).resolve().parent.parent / "action" / "requirements.lock"
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)(?:\s*;\s*(?P<marker>[^\\]+?))?\s*\\?$")
HASH = re.compile(r"^\s+--hash=sha256:[0-9a-f]{64}\s*\\?$")


@dataclass
class Pin:
    name: str
    version: Version
    marker: Marker | None
    hashes: int = 0
    wanted_by: list[str] = field(default_factory=list)  # uv's `# via` lines

    def applies(self) -> bool:
        """Whether this Python installs this pin (a universal lock pins some packages per Python)."""
        return self.marker is None or self.marker.evaluate()


def read_lock(text: str) -> list[Pin]:
    """The lock's pins, with their hashes counted and what asked for each; a line of any other
    form is an error (a pin without `==`, an option, a URL)."""
    pins: list[Pin] = []
    via = False
    for number, line in enumerate(text.splitlines(), 1):
        if found := PIN.match(line):
            marker = Marker(found["marker"]) if found["marker"] else None
            pins.append(Pin(canonicalize_name(found["name"]), Version(found["version"]), marker))
            via = False
        elif HASH.match(line) and pins:
            pins[-1].hashes += 1
        elif (comment := re.match(r"^\s+#\s*(via\b)?\s*(.*)$", line)) and pins:
            via = via or bool(comment[1])
            if via and comment[2]:
                pins[-1].wanted_by.append(comment[2].strip())
        elif line.strip() and not line.startswith("#"):
            raise ValueError(f"line {number}: not a pin, a hash or a comment: {line!r}")
    return pins


def not_held(pins: list[Pin]) -> list[str]:
    """The pins that apply here but are not what this environment has installed."""
    installed = {canonicalize_name(d.metadata["Name"]): Version(d.version) for d in md.distributions()}
    return [f"{p.name}=={p.version} locked, {installed.get(p.name, 'nothing')} installed"
            for p in pins if p.applies() and installed.get(p.name) != p.version]


def main() -> int:
    problems = not_held(read_lock(LOCK.read_text(encoding="utf-8")))
    for problem in problems:
        print(f"{LOCK.name}: {problem}", file=sys.stderr)
    if problems:
        print("the suite would not run on what the action installs: regenerate the lock "
              "(docs/development.md, The action's lock) or keep the test tools off these versions", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
