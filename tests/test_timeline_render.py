"""The audit's cohort timeline as Mermaid draws it: rendered by @mermaid-js/mermaid-cli in a
headless Chromium (bench/render_timeline.py), where both are installed (skipped elsewhere).

    npm install @mermaid-js/mermaid-cli; apt-get install chromium
    MMDC=node_modules/.bin/mmdc pytest tests/test_timeline_render.py
"""

from __future__ import annotations

import importlib.util
import re

import pytest

from tests.helpers import ROOT, example_git_repos

LONG = "Qwen/Qwen3.6-35B-A3B-Speculator"  # a real-world length of head name


def _renderer():
    spec = importlib.util.spec_from_file_location("render_timeline", ROOT / "bench" / "render_timeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


render_timeline = _renderer()
MMDC, CHROMIUM = render_timeline.find_mmdc(), render_timeline.find_chromium()
pytestmark = pytest.mark.skipif(
    MMDC is None or CHROMIUM is None,
    reason=f"rendering needs mmdc ({MMDC or 'not found: npm install @mermaid-js/mermaid-cli, or set MMDC'}) "
           f"and Chromium ({CHROMIUM or 'not found: apt-get install chromium, or set PUPPETEER_EXECUTABLE_PATH'})")


def test_heads_with_an_error_are_filled_red_and_labels_stay_left_of_the_bars(cli, tmp_path):
    # an honest head with a long name beside the backdated ones
    rules, registry = example_git_repos(tmp_path, catalog=lambda text: text.replace(
        "  approved_spec_decode_heads:\n", "  approved_spec_decode_heads:\n    - model: atlas-30b\n"
        f"      repository: {LONG}\n      revision: {'c' * 40}\n      approved_cohort: 2026-10-C0\n      method: eagle3\n"))
    out = tmp_path / "audit.md"
    cli("audit", "--rules-repo", rules, "--registry-repo", registry, "--today", "2026-12-02",
        "--output", out, "--cache-dir", tmp_path / "cache", "--select", "DL4")
    chart = next(c for c in render_timeline.charts(out.read_text()) if LONG in c)
    svg_path = render_timeline.render(chart, tmp_path / "atlas.svg", mmdc=MMDC, chromium=CHROMIUM)
    svg = svg_path.read_text()

    # The crit class is filled red (not only outlined), and a backdated head is drawn with it.
    assert re.search(r"\.crit0[^{]*\{[^}]*fill:\s*#cf222e", svg), "crit is not filled red"
    bars = re.findall(r"<rect [^>]*class=\"task[^\"]*\"[^>]*>", svg)
    crit = [b for b in bars if re.search(r'class="task[^"]* crit\d', b)]
    plain = [b for b in bars if not re.search(r"crit|done|active|milestone", b)]
    assert crit and plain, bars
    # Every bar starts right of the longest section label (Mermaid sizes no label for us: the
    # chart's left margin is set from the label's length).
    xs = [float(re.search(r' x="([\d.]+)"', b).group(1)) for b in bars]
    labels = re.findall(r'<tspan[^>]* x="10">([^<]*)</tspan>', svg)  # the section titles, at the left
    label = max(labels, key=len)
    assert LONG in label
    assert min(xs) >= 7 * len(label), (min(xs), label)
