"""Workflow-command injection: text from the documents (a heading, link text, a YAML value, a file
name) that spells a workflow command must come out inert in the `github` annotations, in the
plain log lines of every format, in the job summary and in GITHUB_OUTPUT.

The Actions runner reads `::name props::data` at the start of any line of the step's output
(stdout and stderr), so the failure is a line starting `::` that drafterlint did not mean to
write. Each payload is planted in the example repositories and run through the CLI and through
the action's entry script with a fake runner (tests/test_action.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURES

# Each payload names a different command, so a leak says which place let it through.
HEADING = "Limits %0A::error::from-heading ::stop-commands::heading-token"
SETEXT = "Setext\n::add-mask::from-setext"
LINK = "gone %0A::error::from-link\n::add-mask::from-link-text"
YAML_VALUE = "northwind/Borealis-12B\n::add-mask::from-yaml %0A::error::from-yaml-pct\n::stop-commands::yaml-token"
FILE_NAME = "notes\n::add-mask::from-file-name\n::stop-commands::file-token.md"
SUMMARY_HTML = "Notes </summary></details><details open> @octocat"
CATALOG = "endpoints/src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"

# What drafterlint means to write: an annotation whose properties are escaped (no `:` or `,`
# inside a value, no raw line break anywhere), and the stop/resume pair of the entry script.
ANNOTATION = re.compile(r"::(error|warning|notice)( (?:file|line|col|endLine|endColumn|title)=[^:,\r\n]*"
                        r"(?:,(?:file|line|col|endLine|endColumn|title)=[^:,\r\n]*)*)?::[^\r\n]*")


def hostile_repositories(where: Path) -> Path:
    """The example repositories with every payload planted; returns the workspace."""
    shutil.copytree(FIXTURES / "example", where)
    rules = where / "rules" / "endpoints_rules.md"
    text = rules.read_text(encoding="utf-8")
    planted = (
        f"## 1. Basics\n\n### 1.5 {HEADING}\n\n### 1.6 {SUMMARY_HTML}\n\n{SETEXT}\n---------\n\n"
        f"See [{LINK}](#missing-frag) and [{SUMMARY_HTML}](#nope).\n\n"
        "[figure](figures/x%0A::error::from-link-target.png)\n"
    )
    rules.write_text(text.replace("## 1. Basics\n", planted, 1), encoding="utf-8")
    (where / "rules" / FILE_NAME).write_text("# Notes\n\n[bad](#nowhere)\n", encoding="utf-8")
    catalog = where / CATALOG
    text = catalog.read_text(encoding="utf-8")
    quoted = YAML_VALUE.replace("\n", "\\n")
    old = "repository: northwind/Borealis-12B\n      revision: f6"
    assert old in text
    catalog.write_text(text.replace(old, f'repository: "{quoted}"\n      revision: f6', 1), encoding="utf-8")
    return where


# What the runner's TrimStart() drops before looking for `::` (Unicode white space), and the
# invisible format characters some runtimes counted as white space.
_BLANKS = "".join(chr(c) for c in range(0x110000) if chr(c).isspace()) + "\u180e\u200b\u200c\u200d\u2060\ufeff"


def unintended_commands(log: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Every line the runner would read as a command that is not a well-formed annotation (or
    one of `allowed`): `::` after any leading white space, or the legacy `##[` anywhere."""
    bad = []
    for line in re.split(r"\r\n|\r|\n", log):
        stripped = line.strip(_BLANKS)
        if ANNOTATION.fullmatch(stripped) or stripped in allowed:
            continue  # a command drafterlint means (its data escaped; `##[` in it is data)
        if stripped.startswith("::") or "##[" in line:
            bad.append(line)
    return bad


def run_cli(workspace: Path, fmt: str, summary: Path | None = None):
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    return subprocess.run(
        [sys.executable, "-m", "drafterlint", "check", "--rules-repo", "rules", "--registry-repo", "endpoints",
         f"--format={fmt}", "--no-cache"],
        cwd=workspace, env=env, capture_output=True, text=True, timeout=120,
    )


@pytest.fixture
def hostile(tmp_path):
    return hostile_repositories(tmp_path / "ws")


def test_payloads_reach_the_findings(hostile):
    """The fixture is hostile: each payload is quoted by some finding (else the test below
    would pass for nothing)."""
    import json

    proc = run_cli(hostile, "json")
    doc = json.loads(proc.stdout)
    text = json.dumps(doc["findings"], ensure_ascii=False)
    for needle in ("from-heading", "from-yaml", "from-yaml-pct", "from-file-name", "from-link-target", "@octocat"):
        assert needle in text, needle
    assert any("\n" in f["path"] for f in doc["findings"])


def test_github_annotations_are_escaped(hostile, tmp_path):
    summary = tmp_path / "summary.md"
    proc = run_cli(hostile, "github", summary)
    assert proc.returncode == 1, proc.stderr
    log = proc.stdout + proc.stderr
    assert unintended_commands(log) == []
    annotations = [ln for ln in log.splitlines() if ln.startswith("::")]
    assert any("from-yaml" in ln for ln in annotations)
    # The escaped payloads are still there for a person to read, on one line each.
    assert any("%0A::add-mask::from-yaml" in ln for ln in annotations)
    assert any("%250A::error::from-heading" in ln for ln in annotations)


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_no_line_of_any_log_starts_a_command(hostile, fmt):
    """A file name or YAML value with a newline stays on its line (shown as \\n) in every
    plain line, here with every finding listed (-v is not needed: the finding lines are the
    ones quoting the payloads)."""
    proc = run_cli(hostile, fmt)
    assert proc.returncode == 1, proc.stderr
    assert unintended_commands(proc.stdout + proc.stderr) == []
    if fmt == "text":
        assert "notes\\n::add-mask::from-file-name" in proc.stdout


def test_summary_quotes_payloads_as_inert_text(hostile, tmp_path):
    summary = tmp_path / "summary.md"
    run_cli(hostile, "github", summary)
    text = summary.read_text(encoding="utf-8")
    table = [ln for ln in text.splitlines() if ln.startswith("|")]
    # Every row of the findings table is one whole line with the table's six columns.
    rows = [ln for ln in table if re.match(r"\| \d+ \|", ln)]
    assert rows and all(len(re.split(r"(?<!\\)\|", ln)) == 8 for ln in rows), rows
    # Nothing from the documents opens a line of its own or closes the report's HTML.
    assert not any(ln.lstrip().startswith("::") for ln in text.splitlines())
    assert "</summary></details>" not in text and "<details open>" not in text
    assert "&lt;/summary&gt;" in text or "from-heading" in text
    # The mention is shown, in a code span, where GitHub notifies nobody.
    import cmarkgfm

    rendered = cmarkgfm.github_flavored_markdown_to_html(text)
    assert "@octocat" in rendered and "@octocat" not in re.sub(r"<code>.*?</code>", "", rendered)
    assert "from-file-name" in text  # quoted, not dropped


def test_entry_script_keeps_payloads_inert(hostile, runner):
    ws = runner.workspace
    shutil.rmtree(ws)
    shutil.copytree(hostile, ws)
    # A json-file path holding a line break, an output line and the delimiter's prefix.
    json_file = "out/x\nerrors=999\nghadelimiter_\n::add-mask::from-input.json"
    for fmt in ("github", "text", "markdown"):
        runner.output.write_text("")
        runner.summary.write_text("")
        proc = runner({"rules-repo": "rules", "registry-repo": "endpoints", "format": fmt, "json-file": json_file})
        assert proc.returncode == 1, proc.stdout + proc.stderr
        log = proc.stdout + proc.stderr
        stops = re.findall(r"^::stop-commands::(\w+)$", log, re.M)
        allowed = tuple(f"::stop-commands::{t}" for t in stops) + tuple(f"::{t}::" for t in stops)
        if fmt == "github":
            assert stops == []  # the annotations must reach the runner
            bad = unintended_commands(log)
        else:
            # Everything between the pair is the report, which the runner does not read.
            assert len(stops) == 1 and log.count(f"::{stops[0]}::") == 1
            outside = log.split(f"::stop-commands::{stops[0]}")[0] + log.split(f"::{stops[0]}::")[1]
            bad = unintended_commands(outside, allowed)
        assert bad == [], (fmt, bad)
        out = parse_output_file(runner.output.read_text())
        assert set(out) == {"errors", "warnings", "infos", "json-file", "sarif-file", "markdown-file", "fix-patch"}, out
        assert out["json-file"] == str(ws / json_file)
        assert out["errors"].isdigit() and out["errors"] != "999"
        summary = runner.summary.read_text(encoding="utf-8")
        assert not any(ln.lstrip().startswith("::") for ln in summary.splitlines()), fmt


def parse_output_file(text: str) -> dict[str, str]:
    """GITHUB_OUTPUT read as the runner reads it: `key=value`, or `key<<DELIM` ... `DELIM`."""
    values: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        eq, heredoc = line.find("="), line.find("<<")
        if eq >= 0 and (heredoc < 0 or eq < heredoc):
            values[line[:eq]] = line[eq + 1:]
            continue
        assert heredoc > 0, f"not an output line: {line!r}"
        key, delim = line[:heredoc], line[heredoc + 2:]
        body = []
        while lines[i] != delim:
            body.append(lines[i])
            i += 1
        i += 1
        values[key] = "\n".join(body)
    return values



def test_output_parser_reads_heredocs():
    """The reader of GITHUB_OUTPUT above ends a value only at its own delimiter."""
    assert parse_output_file("a=1\nb<<D\nx\nc=2\nD\n") == {"a": "1", "b": "x\nc=2"}


def test_bad_input_message_stays_on_one_line(hostile):
    """A refused path holding a line break is quoted on the error's line (stderr is read for
    commands too)."""
    proc = subprocess.run(
        [sys.executable, "-m", "drafterlint", "check", "--rules-repo", "rules\n::add-mask::from-argument",
         "--format=github"],
        cwd=hostile, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert "rules\\n::add-mask::from-argument" in proc.stderr
    assert unintended_commands(proc.stdout + proc.stderr) == []


# More payloads for the test of every command: a file name that starts a line with `::`, the
# legacy `##[` form (read anywhere in a line), a command behind a no-break space, and document
# lines a diff would quote as context lines.
LEADING_NAME = "::error title=x::from-leading-name.md"
LEGACY_NAME = "see ##[error]from-legacy.md"
FIXABLE = ("# Notes\n\n## 8.2 Withdrawal\n\nSee [§8.3](#83-withdrawal) ##[error]from-legacy.\n\n"
           " ::warning::from-context-line\n\u00a0::error::from-nbsp-line\n")


def every_command(cli, ws: Path, tmp: Path) -> list[tuple[tuple[str, ...], str]]:
    """Run every command drafterlint has on the workspace (in-process, the real CLI), each
    one's whole output: stdout and stderr."""
    from tests.helpers import git_commit_all

    repos = ("--rules-repo", "rules", "--registry-repo", "endpoints")
    runs: list[tuple[str, ...]] = [("rules",), ("explain", "DL201")]
    for fmt in ("text", "json", "sarif", "markdown", "github"):
        runs.append(("check", *repos, f"--format={fmt}", "--no-cache"))
    runs += [
        ("check", *repos, "-v", "--show-info", "--statistics"),
        ("check", *repos, "-v"),  # the cache this time: its log line
        ("check", *repos, "--base-ref", "HEAD~1", "--format=github"),
        ("check", *repos, "--base-ref", "HEAD~1", "-v"),
        ("fix", *repos, "--diff"),
        ("fix", *repos, "--diff", "--base-ref", "HEAD~1"),
        ("baseline", *repos, "--output", str(tmp / "baseline.json")),
        ("audit", *repos, "--today", "2026-12-02", "--cache-dir", str(tmp / "cache")),
        ("audit", *repos, "--today", "2026-12-02", "--cache-dir", str(tmp / "cache"),
         "--output", str(tmp / "audit.md"), "--json", str(tmp / "audit.json")),
        ("sync", "registry", "--url", str(ws / "endpoints"), "--cache-dir", str(tmp / "sync\n::error::from-sync")),
        ("check", "--rules-repo", "rules\n::error::from-argument"),
        ("fix", *repos),  # last: it writes
        ("fix", *repos),
    ]
    git_commit_all(ws / "rules", "2026-08-01", "base")
    (ws / "rules" / LEADING_NAME).write_text("# Leading\n\n[bad](#nowhere)\n", encoding="utf-8")
    (ws / "rules" / LEGACY_NAME).write_text("# Legacy\n\n[bad](#nowhere)\n", encoding="utf-8")
    (ws / "rules" / "fixable.md").write_text(FIXABLE, encoding="utf-8")
    git_commit_all(ws / "rules", "2026-08-02", "payloads")
    out = []
    for argv in runs:
        _, stdout, stderr = cli(*argv, cwd=ws)
        out.append((argv, stdout + stderr))
    return out


def test_no_line_of_any_command_is_a_workflow_command(cli, hostile, tmp_path, monkeypatch):
    """Every emitted line of every command (stdout and stderr) on the injection fixtures: none is
    read by the runner as a command, except the github format's escaped annotations."""
    for name in [k for k in os.environ if k.startswith("GITHUB_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("DRAFTERLINT_ALLOW_LOCAL_SYNC", "1")
    done = every_command(cli, hostile, tmp_path)
    everything = ""
    for argv, log in done:
        assert "Traceback" not in log, (argv, log)
        assert unintended_commands(log) == [], argv
        everything += log
    # The payloads came through (escaped), so the test is not passing on nothing.
    for needle in ("from-leading-name", "from-legacy", "from-file-name", "from-heading", "from-argument"):
        assert needle in everything, needle
    diff = next(log for argv, log in done if argv[0] == "fix" and "--diff" in argv)
    assert "the diff of rules/fixable.md is not shown" in diff  # its context lines are commands
    assert "from-context-line" not in diff
    assert "(#82-withdrawal)" in (hostile / "rules" / "fixable.md").read_text(encoding="utf-8")
