#!/usr/bin/env python3
"""Render the Mermaid charts of an audit report to pictures, to look at them as GitHub shows them.

GitHub draws a report's ```mermaid blocks with Mermaid; this does the same with
@mermaid-js/mermaid-cli (`mmdc`) in a headless Chromium, one picture per chart:

    python bench/render_timeline.py audit.md --out /tmp/charts [--format png|svg]

Needs `mmdc` (`npm install @mermaid-js/mermaid-cli`; give its path with --mmdc or $MMDC, else
it is looked up on PATH) and a Chromium (Debian's `chromium` package; $PUPPETEER_EXECUTABLE_PATH,
else /usr/bin/chromium). Chromium runs with --no-sandbox (a root container has no user
namespace for its sandbox), through a puppeteer configuration file written next to the charts.
Prints the path of each picture. tests/test_timeline_render.py renders through `render` below.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

_BLOCK = re.compile(r"^```mermaid\n(.*?)^```", re.M | re.S)
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def charts(markdown: str) -> list[str]:
    """The text of each ```mermaid block, in order."""
    return [m.group(1) for m in _BLOCK.finditer(markdown)]


def find_mmdc(given: str | None = None) -> str | None:
    for candidate in (given, os.environ.get("MMDC")):
        if candidate and Path(candidate).is_file():
            return candidate
    return shutil.which("mmdc")


def find_chromium() -> str | None:
    given = os.environ.get("PUPPETEER_EXECUTABLE_PATH")
    if given and Path(given).is_file():
        return given
    return next((c for c in CHROMIUM_CANDIDATES if Path(c).is_file()), None)


def render(chart: str, out: Path, *, mmdc: str, chromium: str, timeout: float = 120) -> Path:
    """Render one chart to `out` (.png or .svg, by its suffix); returns `out`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    source = out.with_suffix(".mmd")
    source.write_text(chart, encoding="utf-8")
    config = out.parent / "puppeteer.json"
    config.write_text(json.dumps({"executablePath": chromium,
                                  "args": ["--no-sandbox", "--disable-setuid-sandbox", "--disable-gpu"]}))
    env = {**os.environ, "PUPPETEER_EXECUTABLE_PATH": chromium, "PUPPETEER_SKIP_DOWNLOAD": "1"}
    cmd = [mmdc, "-i", str(source), "-o", str(out), "-p", str(config), "-b", "white", "-w", "1200"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode != 0 or not out.is_file():
        raise RuntimeError(f"mmdc failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("report", type=Path, help="a Markdown audit report (audit.md)")
    p.add_argument("--out", type=Path, required=True, help="folder for the pictures")
    p.add_argument("--format", choices=("png", "svg"), default="png")
    p.add_argument("--mmdc", help="path of mmdc (default: $MMDC, else PATH)")
    args = p.parse_args(argv)
    mmdc, chromium = find_mmdc(args.mmdc), find_chromium()
    if mmdc is None or chromium is None:
        print(f"render_timeline: needs mmdc ({mmdc or 'not found'}) and Chromium ({chromium or 'not found'})",
              file=sys.stderr)
        return 2
    found = charts(args.report.read_text(encoding="utf-8"))
    if not found:
        print(f"render_timeline: no mermaid chart in {args.report}", file=sys.stderr)
        return 1
    for i, chart in enumerate(found, 1):
        print(render(chart, args.out / f"chart-{i}.{args.format}", mmdc=mmdc, chromium=chromium))
    return 0


if __name__ == "__main__":
    sys.exit(main())
