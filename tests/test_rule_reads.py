"""What each rule's `check` reads of the Context is what it declares (RULE.reads): a change's
base takes the head's findings of a rule whose declared parts are the head's own objects there
(checks._ran.Ran), so a part read but not declared would give the base findings made from
something the change may have touched. Recorded as the real engine runs every rule's examples
and the example repositories (tests/helpers/reads.py)."""

from __future__ import annotations

import datetime
import types

from drafterlint.checks.base import REGISTRY, RULES, TODAY, Example, Part, Rule, all_rules
from drafterlint.findings import Severity
from tests.helpers import FIXTURES, run_engine, write_files
from tests.helpers.reads import ReadRecorder, undeclared


def _example_repositories() -> dict[str, str]:
    """The example repositories' Markdown and YAML files, as run_engine takes them."""
    files = {}
    for repo, folder in (("rules", "rules"), ("registry", "endpoints")):
        root = FIXTURES / "example" / folder
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in (".md", ".yaml", ".yml"):
                files[f"{repo}:{path.relative_to(root).as_posix()}"] = path.read_text(encoding="utf-8")
    return files


def test_every_rule_reads_only_what_it_declares(tmp_path, monkeypatch):
    rules = list(all_rules())
    recorder = ReadRecorder()
    recorder.install(monkeypatch, rules)
    runs = [(dict(ex.files), dict(ex.config), TODAY in mod.RULE.needs) for mod in rules for ex in mod.EXAMPLES]
    runs.append((_example_repositories(), {}, True))
    for i, (files, config, dated) in enumerate(runs):
        run_engine(files, tmp_path / f"run{i}", config, **({"today": datetime.date(2026, 12, 2)} if dated else {}))
    assert undeclared(recorder, rules) == []
    # each declaration was held to what its rule did: every declaring rule ran
    declared = [m.RULE.code for m in rules if m.RULE.reads is not None]
    assert "DL701" in declared
    assert [code for code in declared if not recorder.calls.get(code)] == []


def _planted(reads, check) -> types.ModuleType:
    mod = types.ModuleType("drafterlint.checks.planted")
    mod.RULE = Rule("DL999", "planted", Severity.ERROR, "a rule planted by the test", frozenset({RULES, REGISTRY}),
                    reads=reads)
    mod.EXAMPLES = (Example("none", {}),)
    mod.check = check
    return mod


def test_a_rule_that_reads_what_it_does_not_declare_is_caught(tmp_path, monkeypatch):
    from drafterlint.config import Config
    from drafterlint.engine import build_context, run

    def reads_the_facts(ctx):
        return [] if ctx.loaded_registry.policies and ctx.facts.spec_lead is None else []

    def reads_what_dl702_reads(ctx):
        return [] if ctx.unreadable_met() else []

    told = {}
    for name, mod in (("caught", _planted(frozenset({Part.REGISTRY}), reads_the_facts)),
                      ("everything", _planted(frozenset({Part.REGISTRY}), reads_what_dl702_reads)),
                      ("honest", _planted(frozenset({Part.REGISTRY, Part.FACTS}), reads_the_facts))):
        recorder = ReadRecorder()
        with monkeypatch.context() as patch:
            recorder.install(patch, [mod])
            rules, registry = write_files(_example_repositories(), tmp_path / name)
            run(build_context(Config(), rules, registry), [mod])
        assert recorder.calls == {"DL999": 1}
        told[name] = undeclared(recorder, [mod])
    assert told == {"caught": ["DL999 reads facts and declares registry"],
                    "everything": ["DL999 reads registry_repo, rules, unreadable_met and declares registry"],
                    "honest": []}
