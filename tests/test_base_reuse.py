"""What a `check --base-ref` run does once although the head and the base both need it (issue
39, the pull-request path): the git processes it starts, and the reference repository's YAML
(a file the change left alone is parsed once; a repository not under change is the head's view,
with its registry). Counted, never timed; the findings are those of the same run with every
step done again."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

from drafterlint.registry import load as registry_load
from tests.helpers import EXAMPLE_CATALOG, example_git_repos, git, git_commit_all, paths_passed
from tests.helpers.samples import COMPANION, rules_text, typo_pull_request


def _logged_git(tmp_path: Path, monkeypatch) -> Path:
    """A `git` first on PATH that writes the command it was asked for (its first word after the
    `-c` options) to a log, then runs the real git: the processes a run starts, counted."""
    real = shutil.which("git")
    assert real is not None
    folder = tmp_path / "logged-bin"
    folder.mkdir()
    log = tmp_path / "git.log"
    script = folder / "git"
    script.write_text(
        "#!/bin/sh\n"
        "for word in \"$@\"; do\n"
        "  case \"$skip$word\" in\n"
        "    -c) skip=1 ;;\n"
        "    1*) skip= ;;\n"
        f"    *) echo \"$word\" >> '{log}'; break ;;\n"
        "  esac\n"
        "done\n"
        f"exec '{real}' \"$@\"\n", encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{Path(real).parent}")
    return log


def _in_ci(monkeypatch, tmp_path: Path) -> None:
    """The Action: CI set, no $DRAFTERLINT_CACHE, the runner's own cache folder."""
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("DRAFTERLINT_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "runner-cache"))


def test_a_pull_request_in_ci_asks_git_each_question_once(cli, tmp_path, monkeypatch):
    pull_request = typo_pull_request(tmp_path)
    _in_ci(monkeypatch, tmp_path)
    log = _logged_git(tmp_path, monkeypatch)
    code, out, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", cwd=pull_request)
    assert code == 0, out
    asked = Counter(log.read_text(encoding="utf-8").split())
    # where the base is (the top folder, shallow or not, the ref's commit and the merge base:
    # one rev-parse), the base's listing and its files (one cat-file for all of them), the
    # lines changed; no tree id for a cache of the base's findings no later run reads
    assert asked == Counter(["rev-parse", "ls-tree", "cat-file", "diff"])
    doc = json.loads(out)
    monkeypatch.undo()
    code2, out2, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", "--no-cache", cwd=pull_request)
    assert (code2, json.loads(out2)) == (code, doc)


def test_the_base_is_the_merge_base_git_names(tmp_path):
    """basetree.merge_base asks one rev-parse for what `git merge-base` answers: on a branch, in
    a criss-cross history (two merge bases: git's first), for unrelated histories and a ref that
    is not there (none), in a folder inside another repository (none), and in a shallow clone
    that cannot see where the histories meet (the ref itself)."""
    from drafterlint.basetree import merge_base

    root = tmp_path / "repo"
    git_commit_all(root, "2026-01-01", "root")
    git(root, "checkout", "-q", "-b", "side")
    for branch, when in (("side", "2026-01-02"), ("main", "2026-01-03")):
        git(root, "checkout", "-q", branch)
        (root / f"{branch}.md").write_text(f"{branch}\n", encoding="utf-8")
        git_commit_all(root, when, branch)
    tips = {b: git(root, "rev-parse", b) for b in ("main", "side")}
    git(root, "checkout", "-q", "-b", "cross", tips["main"])
    git(root, "merge", "-q", "--no-edit", tips["side"])
    git(root, "checkout", "-q", "-b", "cross2", tips["side"])
    git(root, "merge", "-q", "--no-edit", tips["main"])
    assert len(git(root, "merge-base", "--all", "cross", "cross2").split()) == 2
    for ref, head in (("main", "side"), ("side", "main"), ("cross", "cross2"), ("cross2", "cross"), ("main", "main")):
        assert merge_base(root, ref, head) == git(root, "merge-base", ref, head), (ref, head)
    git(root, "checkout", "-q", "--orphan", "alone")
    git_commit_all(root, "2026-01-04", "unrelated")
    assert merge_base(root, "main") is None
    assert merge_base(root, "no-such-branch") is None
    (root / "inner").mkdir()
    assert merge_base(root / "inner", "main", "side") is None
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "side", "--no-local", str(root), str(shallow))
    git(shallow, "fetch", "-q", "--depth", "1", "origin", "main:main")
    assert git(shallow, "rev-parse", "--is-shallow-repository") == "true"
    assert merge_base(shallow, "main") == tips["main"] != git(root, "merge-base", "main", "side")


def test_a_yaml_file_is_parsed_once_for_head_and_base_unless_the_change_touched_it(cli, tmp_path, monkeypatch):
    rules, registry = example_git_repos(tmp_path)
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\nA sentence the change adds.\n", encoding="utf-8")
    git_commit_all(rules, "2026-08-02", "a change to the rules")
    _in_ci(monkeypatch, tmp_path)
    parsed = paths_passed(monkeypatch, registry_load, "load_yaml_text")

    def policy_files() -> Counter:
        return Counter(p for p in parsed if p.startswith("src/"))

    argv = ["check", "--format", "json", "--base-ref", "HEAD~1", "--rules-repo", rules, "--registry-repo", registry]
    # The registry is not under change (the working directory is the rules'): the base reads
    # the head's view of it, and the registry loaded for the head.
    code, out, _ = cli(*argv, cwd=rules)
    assert policy_files() and set(policy_files().values()) == {1}, parsed
    # Both under change, one policy file changed: the base's copy of the registry is its own,
    # but only the changed file is parsed again (its two versions).
    catalog = registry / EXAMPLE_CATALOG
    catalog.write_text(catalog.read_text(encoding="utf-8") + "# a comment the change adds\n", encoding="utf-8")
    git_commit_all(registry, "2026-10-06", "a change to the registry")
    parsed.clear()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-runner-cache"))  # (no stored head)
    code_all, out_all, _ = cli(*argv, "--scope", "all", cwd=rules)
    twice = {p for p, n in policy_files().items() if n == 2}
    assert twice == {EXAMPLE_CATALOG} and set(policy_files().values()) == {1, 2}, parsed
    monkeypatch.undo()  # every step done again: no cache, no document or YAML parse shared
    assert cli(*argv, "--no-cache", cwd=rules)[:2] == (code, out)
    assert cli(*argv, "--no-cache", "--scope", "all", cwd=rules)[:2] == (code_all, out_all)


def test_the_bases_are_named_in_the_same_order_in_every_process(tmp_path):
    """With both repositories under change, the reports name both bases: in the repositories'
    order, whatever order the process's string hashing gives a set of their names."""
    import os
    import subprocess
    import sys

    rules, registry = example_git_repos(tmp_path)
    for root, when in ((rules, "2026-10-06"), (registry, "2026-10-07")):
        (root / "README.md").write_text("changed\n", encoding="utf-8")
        git_commit_all(root, when, "a change")
    argv = [sys.executable, "-m", "drafterlint", "check", "--format", "text", "--no-cache", "--base-ref", "HEAD~1",
            "--scope", "all", "--rules-repo", str(rules), "--registry-repo", str(registry)]
    said = set()
    for seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        said.add(subprocess.run(argv, cwd=rules, env=env, capture_output=True, text=True).stdout)
    assert len(said) == 1, said
    assert "merge bases of HEAD~1: " in next(iter(said))


def test_in_ci_a_large_document_is_parsed_in_sections_only_where_a_base_reads_it_again(cli, tmp_path, monkeypatch):
    """Sections pay where the cache outlives the run or where the base re-parses what differs;
    in CI a large document the change left alone is parsed whole (a tenth cheaper, the same
    model), and its base copy is that parse."""
    from drafterlint.markdown import parse, sections

    appendix = "".join(f"\n## 9.{i} Appendix part {i}\n\n" + "A sentence of the appendix. " * 40 + "\n"
                       for i in range(40))
    assert len(appendix) > sections.WORTH_SECTIONING
    root = tmp_path / "rules"
    root.mkdir()
    (root / "endpoints_submission_rules.md").write_text(COMPANION + appendix, encoding="utf-8")
    (root / "endpoints_rules.md").write_text(rules_text() + appendix, encoding="utf-8")
    git_commit_all(root, "2026-01-01", "base")
    (root / "endpoints_rules.md").write_text(rules_text(typo=True) + appendix, encoding="utf-8")
    git_commit_all(root, "2026-01-02", "change")
    _in_ci(monkeypatch, tmp_path)
    whole = paths_passed(monkeypatch, parse, "parse_document")
    in_sections = paths_passed(monkeypatch, sections, "parse_sectioned")
    code, out, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", cwd=root)
    # the changed one in sections, head and base (the base re-parses one section); the other
    # whole, once: the base's copy is the head's
    assert sorted(in_sections) == ["endpoints_rules.md", "endpoints_rules.md"]
    assert whole == ["endpoints_submission_rules.md"]
    whole.clear()
    in_sections.clear()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-runner-cache"))
    plain = cli("check", "--format", "json", cwd=root)[:2]  # no base: both whole
    assert (sorted(whole), in_sections) == (["endpoints_rules.md", "endpoints_submission_rules.md"], [])
    monkeypatch.undo()
    assert cli("check", "--format", "json", "--base-ref", "HEAD~1", "--no-cache", cwd=root)[:2] == (code, out)
    assert cli("check", "--format", "json", "--no-cache", cwd=root)[:2] == plain


def test_the_base_takes_the_heads_findings_of_a_rule_that_reads_nothing_the_change_touched(cli, tmp_path, monkeypatch):
    """A rule whose every declared part (RULE.reads) is the head's own object on the base (the
    registry of a repository not under change) is not run again there: the base takes the
    head's findings (checks._ran.Ran). A rule with a per-document part never is (DL301: a
    list the change adds is new, one it left alone is not). With every rule run again, the
    output is the same."""
    from drafterlint.checks import schema
    from drafterlint.checks._ran import Ran

    rules, registry = example_git_repos(tmp_path, catalog=lambda text: text.replace(  # a key misspelled: DL701
        "  approved_spec_decode_heads:", "  approved_spec_decode_head: []\n  approved_spec_decode_heads:"))
    heads = "\nThe heads:\n\n- quickdraft/Atlas-30B-Eagle\n- fastheads/Atlas-30B-Eagle3\n"
    companion = rules / "endpoints_submission_rules.md"
    companion.write_text(companion.read_text(encoding="utf-8") + heads, encoding="utf-8")
    git_commit_all(rules, "2026-08-02", "a list in the companion")
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text(encoding="utf-8") + heads, encoding="utf-8")
    git_commit_all(rules, "2026-08-03", "the list in the main document too")
    _in_ci(monkeypatch, tmp_path)
    runs: Counter = Counter()
    real = schema.check

    def counted(ctx):
        runs["DL701"] += 1
        return real(ctx)

    monkeypatch.setattr(schema, "check", counted)
    argv = ["check", "--format", "json", "--base-ref", "HEAD~1", "--rules-repo", rules, "--registry-repo", registry]
    code, out, _ = cli(*argv, cwd=rules)
    assert runs == {"DL701": 1}
    marked = {(f["code"], f["path"]): f["baseline"] for f in json.loads(out)["findings"]}
    assert {k: marked.get(k) for k in (("DL701", EXAMPLE_CATALOG), ("DL301", "endpoints_submission_rules.md"),
                                       ("DL301", "endpoints_rules.md"))} == {
        ("DL701", EXAMPLE_CATALOG): True, ("DL301", "endpoints_submission_rules.md"): True,
        ("DL301", "endpoints_rules.md"): False}, out
    # Both repositories under change (the registry's too): what reads the registry is run again.
    (registry / "README.md").write_text("changed\n", encoding="utf-8")
    git_commit_all(registry, "2026-10-06", "a change to the registry")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "runner-cache-2"))
    runs.clear()
    code_all, out_all, _ = cli(*argv, "--scope", "all", cwd=rules)
    assert runs == {"DL701": 2}
    # Every rule run again on the base: the same findings, marked the same.
    monkeypatch.setattr(Ran, "taken", lambda *args: None)
    for extra, expected, cache in (([], (code, out), "3"), (["--scope", "all"], (code_all, out_all), "4")):
        runs.clear()
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"runner-cache-{cache}"))
        assert cli(*argv, *extra, cwd=rules)[:2] == expected
        assert runs == {"DL701": 2}
