"""Every output quoted in README.md and docs/ is produced here from the project's fixtures, so it
cannot go stale. A quoted output is a fenced block right after a `<!-- sample: NAME -->` comment;
each of its lines must be a line of what scenario NAME prints, in the same order (a sample may
quote a few lines of a longer output). Commit ids are compared as `<sha>`. A fenced block that
looks like drafterlint's output but carries no such comment fails too."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, ROOT, FakeAPI, git, git_commit_all

EXAMPLE = FIXTURES / "example"
SAMPLE = re.compile(r"<!-- sample: ([\w-]+) -->\n(```|~~~)[^\n]*\n(.*?)\n\2", re.S)
FENCE = re.compile(r"^(```|~~~)([^\n]*)\n(.*?)\n\1", re.S | re.M)
LOOKS_LIKE_OUTPUT = re.compile(r"^\S+:\d+:\d+: DL\d{3} |^drafterlint[: ]|\berror\(s\)|pre-existing finding|"
                               r"^to fail only on|links point to the old anchor", re.M)
SHA = re.compile(r"\b[0-9a-f]{7,40}\b")
WHEN = "2026-11-01"  # every commit's date: the same commit every time


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def samples() -> list[tuple[str, str, str]]:
    return [(p.relative_to(ROOT).as_posix(), m.group(1), m.group(3))
            for p in pages() for m in SAMPLE.finditer(p.read_text(encoding="utf-8"))]


def _committed_rules(tmp_path: Path, monkeypatch) -> Path:
    """The example's rules repository, committed (the same commit every time), with PATH holding
    git and no drafterlint: the hook's hints are those of a contributor with the hook only."""
    rules = tmp_path / "rules"
    shutil.copytree(EXAMPLE / "rules", rules)
    shutil.copytree(EXAMPLE / "endpoints", tmp_path / "endpoints")
    (rules / ".drafterlint.yaml").write_text("registry:\n  path: ../endpoints\n")
    git_commit_all(rules, WHEN, "rules")
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "git").symlink_to(shutil.which("git"))
    monkeypatch.setenv("PATH", str(bare))
    return rules


def example(cli, tmp_path, monkeypatch, api) -> str:
    shutil.copytree(EXAMPLE, tmp_path / "example")
    return cli("check", "--registry-repo", "../endpoints", "--no-cache", cwd=tmp_path / "example" / "rules")[1]


def hook_clean(cli, tmp_path, monkeypatch, api) -> str:
    """A commit that breaks nothing: a sentence added and staged."""
    rules = _committed_rules(tmp_path, monkeypatch)
    with (rules / "endpoints_submission_rules.md").open("a", encoding="utf-8") as fh:
        fh.write("\nOne more sentence.\n")
    git(rules, "add", "-A")
    return cli("check", "--hook", "--no-cache", cwd=rules)[1]


def hook_rename(cli, tmp_path, monkeypatch, api) -> str:
    rules = _committed_rules(tmp_path, monkeypatch)
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace("#### 2.9.4 Speculative Decoding",
                                                           "#### 2.9.4 Draft Models"), encoding="utf-8")
    return cli("check", "--hook", "--no-cache", cwd=rules)[1]


def registry_unreadable(cli, tmp_path, monkeypatch, api) -> str:
    """The reference repository's hook, when the change leaves catalog.yaml unreadable."""
    registry = tmp_path / "endpoints"
    shutil.copytree(EXAMPLE / "endpoints", registry)
    shutil.copytree(EXAMPLE / "rules", tmp_path / "rules")
    (registry / ".drafterlint.yaml").write_text("rules:\n  path: ../rules\n")
    git_commit_all(registry, WHEN, "registry")
    catalog = next(registry.rglob("catalog.yaml"))
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("revision: 1\n", "revision: 1: 2\n"),
                       encoding="utf-8")
    return cli("check", "--hook", "--no-cache", cwd=registry)[1]


def weakened(cli, tmp_path, monkeypatch, api) -> str:
    """A change that ignores the link rules, checked against its base (DL901)."""
    rules = _committed_rules(tmp_path, monkeypatch)
    (rules / ".drafterlint.yaml").write_text("registry:\n  path: ../endpoints\nignore: [DL2]\n")
    git(rules, "checkout", "-q", "-b", "change")
    git_commit_all(rules, WHEN, "ignore the links")
    return cli("check", "--base-ref", "main", "--no-cache", cwd=rules)[1]


def weakened_workflow(cli, tmp_path, monkeypatch, api) -> str:
    """A change that lets the workflow's drafterlint step fail and its job pass (DL901)."""
    rules = _committed_rules(tmp_path, monkeypatch)
    workflow = rules / ".github/workflows/drafterlint.yml"
    workflow.parent.mkdir(parents=True)
    step = "      - uses: mlcommons/drafterlint@v0\n        with:\n          rules-repo: .\n"
    workflow.write_text("on: pull_request\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n" + step)
    git_commit_all(rules, WHEN, "the workflow")
    git(rules, "checkout", "-q", "-b", "change")
    workflow.write_text(workflow.read_text().replace(step, step + "        continue-on-error: true\n"))
    git_commit_all(rules, WHEN, "let it fail")
    return cli("check", "--base-ref", "main", "--no-cache", cwd=rules)[1]


def audit(cli, tmp_path, monkeypatch, api) -> str:
    shutil.copytree(EXAMPLE, tmp_path / "example")
    code, out, err = cli("audit", "--rules-repo", "rules", "--registry-repo", "endpoints", "--today", "2026-12-02",
                         "--output", "audit.md", "--json", "audit.json", cwd=tmp_path / "example")
    return err + out


def audit_refused_token(cli, tmp_path, monkeypatch, api) -> str:
    shutil.copytree(EXAMPLE, tmp_path / "example")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_not_the_right_token_at_all")
    code, out, err = cli("audit", "--rules-repo", "rules", "--registry-repo", "endpoints", "--today", "2026-12-02",
                         "--output", "audit.md", "--open-issue", "o/r", "--github-api-url", api.url,
                         cwd=tmp_path / "example")
    return (err + out).replace(api.url, "https://api.github.com")  # the loopback server stands in for it


SCENARIOS = {"example": example, "hook-clean": hook_clean, "hook-rename": hook_rename, "audit": audit,
             "audit-refused-token": audit_refused_token, "registry-unreadable": registry_unreadable,
             "weakened": weakened, "weakened-workflow": weakened_workflow}


def _lines(text: str) -> list[str]:
    return [SHA.sub("<sha>", line) for line in text.splitlines()]


@pytest.mark.parametrize("page, name, quoted", samples(), ids=[f"{p}:{n}" for p, n, _ in samples()])
def test_a_quoted_output_is_what_its_scenario_prints(cli, tmp_path, monkeypatch, fake_api, page, name, quoted):
    assert FakeAPI.TOKEN  # the loopback API answers 401 to any other token
    printed = _lines(SCENARIOS[name](cli, tmp_path, monkeypatch, fake_api))
    at = 0
    for line in _lines(quoted):
        assert line in printed[at:], f"{page}: `{name}` no longer prints (in this order):\n{line}\n\nit prints:\n" + \
            "\n".join(printed)
        at = printed.index(line, at) + 1


def test_every_quoted_output_is_a_sample():
    marked = {(p, q) for p, _, q in samples()}
    unmarked = []
    for p in pages():
        for m in FENCE.finditer(p.read_text(encoding="utf-8")):
            lang, body = m.group(2).strip(), m.group(3)
            quoted = lang in ("", "text", "console") and LOOKS_LIKE_OUTPUT.search(body)
            if quoted and (p.relative_to(ROOT).as_posix(), body) not in marked:
                unmarked.append(f"{p.relative_to(ROOT)}: {body.splitlines()[0][:80]}")
    assert not unmarked, "outputs quoted without a `<!-- sample: NAME -->` line before them:\n" + "\n".join(unmarked)
    assert len(marked) >= 8
