"""The audit as a task-force lead reads it: the verdict in the log, the decisions on the first
screen, housekeeping folded, the backdated head marked in the timeline."""

from __future__ import annotations

import re
import shutil

from tests.helpers import FIXTURES, git_commit_all

POLICY = "src/inference_endpoint/validation/policies/2026-12-C0"
TODAY = "2026-12-02"
BACKDATED = "orgz/Zephyr-Draft"
HONEST = "orgz/Zephyr-Eagle"

CATALOG = f"""version: 2026-12-C0
revision: 1
catalogs:
  models:
    zephyr-7b:
      accuracy: {{ kind: agentic, datasets: [toolcalls], inline_minimum_percent: 40.0 }}
  approved_spec_decode_heads:
    - model: zephyr-7b
      repository: {BACKDATED}
      revision: 7777777777777777777777777777777777777777
      approved_cohort: 2026-09-C0
      method: eagle
    - model: zephyr-7b
      repository: {HONEST}
      revision: 8888888888888888888888888888888888888888
      approved_cohort: 2026-10-C1
      method: eagle3
  approved_checkpoints:
    zephyr-7b:
      - repository: orgz/Zephyr-7B
        revision: 9999999999999999999999999999999999999999
"""
POINT_CHECKS = """version: 2026-12-C0
revision: 1
scope: point
checks:
  approved-spec-decode-head:
    kind: spec_decode_head
    operation: membership
    catalog: catalogs.approved_spec_decode_heads
  spec-decode-head-approval-lead-time:
    kind: spec_decode_head
    operation: approval_age
    catalog: catalogs.approved_spec_decode_heads
    minimum_cohorts: 2
"""


def extra_backdated(n: int) -> str:
    return "".join(
        f"    - model: zephyr-7b\n      repository: orgz/Zephyr-Extra{i}\n      revision: {str(i) * 40}\n"
        "      approved_cohort: 2026-09-C0\n      method: medusa\n"
        for i in range(1, n + 1)
    )


def repositories(tmp_path, extra: int = 0):
    """The rules (the example's, for its §2.9.4 lead time) and a registry of our own whose
    policy was first committed on 2026-10-15 (published in 2026-10-C1): the head that claims
    2026-09-C0 is backdated, the one that claims 2026-10-C1 is not."""
    rules = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    git_commit_all(rules, "2026-08-01", "rules")
    registry = tmp_path / "registry"
    registry.mkdir()
    (registry / "README.md").write_text("reference repository\n")
    git_commit_all(registry, "2026-07-01", "start")
    (registry / POLICY).mkdir(parents=True)
    catalog = CATALOG.replace("  approved_checkpoints:", extra_backdated(extra) + "  approved_checkpoints:")
    (registry / POLICY / "catalog.yaml").write_text(catalog)
    (registry / POLICY / "point_checks.yaml").write_text(POINT_CHECKS)
    sha = git_commit_all(registry, "2026-10-15", "the 2026-12-C0 policy")
    return rules, registry, sha


def run_audit(cli, tmp_path, *extra, heads: int = 0):
    rules, registry, sha = repositories(tmp_path, heads)
    report = tmp_path / "audit.md"
    code, out, err = cli("audit", "--rules-repo", rules, f"--registry-repo={registry}", "--today", TODAY,
                         "--output", report, "--json", tmp_path / "audit.json",
                         "--cache-dir", tmp_path / "cache", *extra)
    return code, out, err, report.read_text(), sha


def test_stdout_has_the_verdict_and_where_the_reports_are(cli, tmp_path):
    code, out, _, _, _ = run_audit(cli, tmp_path)
    assert code == 1
    lines = out.splitlines()
    assert re.fullmatch(rf"drafterlint audit {TODAY}: \d+ errors?, \d+ warnings?, \d+ info; "
                        r"\d+ needs? a decision \(DL403\)", lines[0]), lines[0]
    assert lines[1:] == [f"  report: {tmp_path / 'audit.md'}", f"  JSON: {tmp_path / 'audit.json'}"]


def test_the_backdated_head_is_on_the_first_screen_under_needs_a_decision(cli, tmp_path):
    _, _, _, text, sha = run_audit(cli, tmp_path)
    first_screen = "\n".join(text.splitlines()[:25])
    decisions = first_screen.split("## Needs a decision", 1)[1]
    item = next(ln for ln in decisions.splitlines() if ln.startswith("1. "))
    assert "**DL403 backdated-approval**" in item and BACKDATED in item
    assert f"/blob/{sha}/{POLICY}/catalog.yaml#L" in item
    assert "**To do:** correct approved_cohort" in item
    assert HONEST not in decisions.split("##", 1)[0]
    # The link errors of the rules example are housekeeping: after the decisions, folded.
    house = text.index("## Housekeeping")
    assert text.index("## Needs a decision") < house < text.index("## Counts by rule")
    folded = text[house:text.index("</details>", house)]
    assert "<details>" in folded and "`DL201`" in folded and "DL403" not in folded


def test_the_backdated_head_is_marked_crit_in_the_timeline_with_the_reason(cli, tmp_path):
    _, _, _, text, _ = run_audit(cli, tmp_path)
    chart = re.search(r"### zephyr-7b\n\n```mermaid\n(.*?)```\n(.*?)\n\n\|", text, re.S)
    assert chart, text
    gantt, legend = chart.group(1), chart.group(2).strip()
    sections = dict(re.findall(r"section (\S+) \w+\n    approved [^:]+:((?:[a-z]+, )*)h\d+a", gantt))
    # `crit` alone: with `done` Mermaid draws it grey with a red outline, not red
    assert sections == {BACKDATED: "crit, ", HONEST: ""}
    assert re.search(r"eligible \S+ :crit, milestone, h\d+e", gantt)
    assert '"critBkgColor":"#cf222e"' in gantt  # filled red whatever the theme
    assert legend.startswith("Filled red in the chart (an error against the head):")
    assert f"- `{BACKDATED}@777777777777`: DL403 backdated-approval:" in legend
    assert HONEST not in legend


def test_findings_table_is_sorted_by_severity_then_rule(cli, tmp_path):
    _, _, _, text, _ = run_audit(cli, tmp_path)
    table = text[text.index("## Findings"):]
    rows = re.findall(r"^\| \d+ \| \S+ (error|warning|info) \| `(DL\d+)`", table, re.M)
    order = {"error": 0, "warning": 1, "info": 2}
    keys = [(order[sev], code) for sev, code in rows]
    assert len(rows) > 3 and keys == sorted(keys)


def test_nothing_to_decide_says_so(cli, tmp_path):
    code, out, _, text, _ = run_audit(cli, tmp_path, "--select", "DL2")
    assert "nothing needs a decision" in out.splitlines()[0]
    assert "## Needs a decision\n\nNothing needs a decision" in text


def test_many_decisions_of_one_rule_fold_past_three(cli, tmp_path):
    _, out, _, text, _ = run_audit(cli, tmp_path, heads=4)
    assert "5 need a decision (DL403)" in out
    section = text.split("## Needs a decision", 1)[1].split("\n## ", 1)[0]
    visible, _, folded = section.partition("<details>")
    assert len(re.findall(r"^\d+\. \*\*DL403", visible, re.M)) == 3
    assert "<summary>2 more DL403 backdated-approval</summary>" in folded
    assert re.findall(r"^(\d+)\. ", folded, re.M) == ["4", "5"]
