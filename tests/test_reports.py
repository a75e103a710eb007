"""The github, sarif and markdown reports: escaping, limits, ordering, paths, schema validity."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from drafterlint.commands import changed_since
from drafterlint.docs import rule_infos
from drafterlint.engine import Result
from drafterlint.findings import REPORT_MARKER, Finding, Location, Severity, Skipped
from drafterlint.report import ReportMeta, render
from drafterlint.report import github_report as gh

SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-2.1.0.schema.json"


def finding(line=1, sev=Severity.ERROR, code="DL201", name="broken-fragment", path="rules.md",
            repo="rules", message="no heading `#x`", suggestion=None, related=(), column=1):
    return Finding(code, name, sev, Location(repo, path, line, column), message, suggestion,
                   tuple(related))


def meta(tmp_path=None, **roots) -> ReportMeta:
    return ReportMeta(version="9.9.9", roots={k: str(v) for k, v in roots.items()}, rules=tuple(rule_infos()),
                      base_ref=None, local_roots={k: Path(v) for k, v in roots.items()})


@pytest.fixture(autouse=True)
def _no_ambient_github(monkeypatch, tmp_path):
    for var in ("GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE", "GITHUB_OUTPUT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)


# -- github: escaping ------------------------------------------------------------------------


def test_escape_data_as_actions_toolkit():
    assert gh.escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"


def test_escape_property_also_escapes_colon_and_comma():
    assert gh.escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"


def test_annotation_escapes_path_title_and_message(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    (ws / "rules").mkdir(parents=True)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(ws))
    f = finding(line=3, column=7, path="dir:x/a,b%.md",
                message="50% of links\nbroken: `#a,b`")
    text = gh.render(Result([f]), meta(rules=ws / "rules"))
    first = text.splitlines()[0]
    assert first == (
        "::error file=rules/dir%3Ax/a%2Cb%25.md,line=3,col=7,title=DL201 broken-fragment"
        "::50%25 of links%0Abroken: `#a,b`"
    )


def test_levels_map_to_commands(tmp_path):
    fs = [finding(1, Severity.ERROR), finding(2, Severity.WARNING, "DL104", "toc-incomplete"),
          finding(3, Severity.INFO, "DL206", "unverifiable-link", suggestion="did you mean `#y`?")]
    lines = gh.render(Result(fs), meta(rules=tmp_path)).splitlines()
    assert lines[0].startswith("::error file=rules.md,line=1,col=1,")
    assert lines[1].startswith("::warning file=rules.md,line=2,")
    assert lines[2].startswith("::notice file=rules.md,line=3,")
    assert lines[2].endswith("::no heading `#x` (did you mean `#y`?)")
    assert lines[-1] == "drafterlint: 1 error(s), 1 warning(s), 1 info"


# -- github: paths relative to the workspace -------------------------------------------------


def test_paths_relative_to_github_workspace(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    (ws / "endpoints").mkdir(parents=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    monkeypatch.setenv("GITHUB_WORKSPACE", str(ws))
    fs = [finding(1, path="endpoints_rules.md"),
          finding(2, repo="registry", path="src/p/catalog.yaml", code="DL701", name="schema")]
    m = meta(rules=ws, registry=ws / "endpoints")
    text = gh.render(Result(fs), m)
    assert "::error file=endpoints_rules.md,line=1," in text
    assert "::error file=endpoints/src/p/catalog.yaml,line=2," in text
    # A repository outside the workspace keeps its repository-relative path.
    m = meta(rules=ws, registry=outside)
    assert "::error file=src/p/catalog.yaml,line=2," in gh.render(Result(fs), m)


# -- github: limits and order ----------------------------------------------------------------


def _commands(text):
    out = {"error": [], "warning": [], "notice": []}
    for line in text.splitlines():
        if line.startswith("::"):
            out[line[2:].split(" ", 1)[0].split("::", 1)[0]].append(line)
    return out


def test_at_most_ten_per_kind_and_each_kind_that_overflows_says_how_many_more(tmp_path):
    # GitHub shows 10 error, 10 warning and 10 notice annotations per step (actions/toolkit,
    # docs/problem-matchers.md): a kind with more than ten keeps its tenth place for the line
    # that says how many more there are.
    fs = ([finding(i, Severity.ERROR) for i in range(1, 16)]
          + [finding(100 + i, Severity.WARNING, "DL104", "toc-incomplete") for i in range(3)]
          + [finding(200 + i, Severity.INFO, "DL206", "unverifiable-link") for i in range(12)])
    text = gh.render(Result(sorted(fs, key=Finding.sort_key)), meta(rules=tmp_path))
    cmds = _commands(text)
    assert {kind: len(lines) for kind, lines in cmds.items()} == {"error": 10, "warning": 3, "notice": 10}
    assert [c for c in text.splitlines() if c.startswith("::")][0].startswith("::error")
    assert "6 more finding(s) were not annotated" in cmds["error"][-1]
    assert "title=drafterlint%3A more findings" in cmds["error"][-1]
    assert "3 more finding(s) were not annotated" in cmds["notice"][-1]
    assert not any("not annotated" in c for c in cmds["warning"])
    # The first nine errors by position were annotated.
    assert [c.split("line=")[1].split(",")[0] for c in cmds["error"][:-1]] == [str(i) for i in range(1, 10)]


def test_new_findings_first_and_pre_existing_ones_never_crowd_them_out(tmp_path):
    from dataclasses import replace

    old = [replace(finding(i, Severity.ERROR), baseline=True) for i in range(1, 30)]
    new_errors = [finding(100 + i, Severity.ERROR) for i in range(4)]
    new_infos = [finding(200 + i, Severity.INFO, "DL206", "unverifiable-link") for i in range(3)]
    fs = sorted([*old, *new_errors, *new_infos], key=Finding.sort_key)
    cmds = _commands(gh.render(Result(fs), meta(rules=tmp_path)))
    for kind, lines in cmds.items():
        assert len(lines) <= 10, kind  # the documented cap per kind and step
    assert [c.split("line=")[1].split(",")[0] for c in cmds["error"]] == ["100", "101", "102", "103"]
    # The new infos come before the pre-existing errors (notices), and one line counts the rest.
    assert [c.split("line=")[1].split(",")[0] for c in cmds["notice"][:3]] == ["200", "201", "202"]
    assert len(cmds["notice"]) == 10
    assert "23 more finding(s) (23 pre-existing) were not annotated" in cmds["notice"][-1]


def test_no_overflow_notice_when_everything_fits(tmp_path):
    fs = [finding(i, Severity.INFO, "DL206", "unverifiable-link") for i in range(10)]
    cmds = _commands(gh.render(Result(fs), meta(rules=tmp_path)))
    assert len(cmds["notice"]) == 10
    assert not any("not annotated" in c for c in cmds["notice"])


def _git(cwd, *args):
    return subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", *args],
        cwd=cwd, check=True, capture_output=True, text=True,
    ).stdout.strip()


def test_findings_on_changed_lines_are_annotated_first(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "rules.md").write_text("".join(f"line {i}\n" for i in range(1, 31)))
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    base = _git(repo, "rev-parse", "HEAD")
    text = (repo / "rules.md").read_text().replace("line 25\n", "line 25 changed\n")
    (repo / "rules.md").write_text(text)
    _git(repo, "commit", "-qam", "change")
    fs = [finding(i) for i in range(1, 31)]
    m = meta(rules=repo)

    def based_on(ref):  # what the command hands the report: the changed lines, read from git
        based = replace(m, base_ref=ref, changed=changed_since(m.local_roots, ref))
        return _commands(gh.render(Result(fs), based))["error"]

    errors = based_on(base)
    assert "line=25," in errors[0]
    assert len(errors) == 10
    # Without the base ref, line 25 is not among the first ten.
    assert not any("line=25," in e for e in based_on(None))
    # A base that is not in the history (or not a valid ref) is ignored, not an error.
    assert "line=1," in based_on("0" * 40)[0]
    assert "line=1," in based_on("--output=/tmp/x")[0]


# -- github: job summary ---------------------------------------------------------------------


def test_step_summary_has_the_complete_table(tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    summary.write_text("# earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    fs = [finding(i, message=f"broken | pipe <b>{i}</b>") for i in range(1, 26)]
    result = Result(fs, [Skipped("DL301,DL302", "no reference repository")])
    text = gh.render(result, meta(rules=tmp_path))
    assert "see the job summary" in text
    body = summary.read_text()
    assert body.startswith("# earlier step\n")
    assert "25 errors" in body
    rows = [ln for ln in body.splitlines() if ln.startswith("| ") and "`DL201`" in ln and "rules.md:" in ln]
    assert len(rows) == 25
    assert "broken \\| pipe &lt;b&gt;1&lt;/b&gt;" in body
    assert "no reference repository" in body
    # Rendering the same result again (e.g. --report github=FILE as well) appends nothing more.
    gh.render(result, meta(rules=tmp_path))
    assert summary.read_text() == body


def test_step_summary_stays_under_one_mebibyte(tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    fs = [finding(i, message="x" * 300 + " ünïcödé") for i in range(1, 6001)]
    gh.render(Result(fs), meta(rules=tmp_path))
    data = summary.read_bytes()
    assert len(data) < 1024 * 1024
    text = data.decode("utf-8")
    assert "more of 6000 findings are not shown" in text


# -- markdown --------------------------------------------------------------------------------


def test_markdown_report_verdict_counts_table_and_links(tmp_path):
    fs = [finding(3, suggestion="did you mean `#a`?"),
          finding(4, Severity.WARNING, "DL104", "toc-incomplete", path="other.md"),
          finding(5, Severity.INFO, "DL206", "unverifiable-link", repo="registry", path="README.md")]
    m = replace(meta(rules=tmp_path / "r", registry=tmp_path / "g"),
                github={"rules": ("mlcommons/endpoints_policies", "abc123")})
    md = render(Result(fs), "markdown", m)
    assert md.startswith(REPORT_MARKER + "\n# drafterlint report\n")
    assert "❌ **1 error** — the check fails" in md
    assert "1 error, 1 warning, 1 info" in md
    assert "| `DL104` | toc-incomplete | warning | 1 |" in md
    assert ("[`rules: rules.md:3:1`](https://github.com/mlcommons/endpoints_policies/blob/abc123/"
            "rules.md#L3)") in md
    assert "`registry: README.md:5:1`" in md
    assert "did you mean `#a`?" in md


def test_markdown_report_clean():
    md = render(Result(), "markdown", meta())
    assert "✅ no errors or warnings" in md
    assert "| # |" not in md


# -- sarif -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_validator():
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _errors(validator, doc):
    return [f"{e.json_path}: {e.message}" for e in validator.iter_errors(doc)]


def test_sarif_is_valid_and_carries_rules_locations_fingerprints(tmp_path, sarif_validator):
    rel = Location("rules", "companion.md", 9, 2)
    fs = [finding(3, column=5, suggestion="did you mean `#a`?", related=[rel]),
          finding(4, Severity.WARNING, "DL104", "toc-incomplete", path="dir with space/x.md"),
          finding(5, Severity.INFO, "DL206", "unverifiable-link", repo="registry", path="README.md")]
    m = meta(rules=tmp_path / "rules", registry=tmp_path / "registry")
    doc = json.loads(render(Result(fs, [Skipped("DL301", "no reference repository")]), "sarif", m))
    assert _errors(sarif_validator, doc) == []
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "drafterlint" and driver["version"] == "9.9.9"
    assert driver["informationUri"].startswith("https://")
    ids = [r["id"] for r in driver["rules"]]
    assert ids == sorted(ids) and "DL201" in ids
    dl201 = driver["rules"][ids.index("DL201")]
    assert dl201["name"] == "broken-fragment"
    assert "### Passes:" in dl201["help"]["text"] and "### Fails:" in dl201["help"]["text"]  # its examples
    assert not dl201["fullDescription"]["text"].startswith("DL201")
    results = run["results"]
    for r in results:
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
    first = results[0]
    assert first["level"] == "error"
    assert first["message"]["text"] == "no heading `#x` (did you mean `#a`?)"
    loc = first["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "rules.md", "uriBaseId": "RULES"}
    assert loc["region"] == {"startLine": 3, "startColumn": 5}
    assert first["partialFingerprints"] == {"drafterlint/v1": fs[0].fingerprint}
    assert first["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 9
    assert results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "dir%20with%20space/x.md"
    assert results[2]["level"] == "note"
    assert results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "REGISTRY"
    bases = run["originalUriBaseIds"]
    assert bases["RULES"]["uri"] == (tmp_path / "rules").resolve().as_uri() + "/"
    assert "skipped DL301" in run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_from_the_cli_on_a_real_fixture_is_valid(tmp_path, cli, sarif_validator):
    repo = tmp_path / "rules"
    repo.mkdir()
    (repo / "endpoints_rules.md").write_text(
        "# Rules\n\n## 2.9 Model Equivalence Rules\n\nSee [gone](#nowhere).\n", encoding="utf-8")
    code, out, err = cli("check", "--rules-repo", repo, "--format", "sarif")
    assert code == 1, err
    doc = json.loads(out)
    assert _errors(sarif_validator, doc) == []
    codes = {r["ruleId"] for r in doc["runs"][0]["results"]}
    assert "DL201" in codes


# -- one direction of data -------------------------------------------------------------------


def test_reports_take_findings_and_metadata_only():
    # A report formats: it neither runs the checks' code nor asks git (the command fills
    # ReportMeta.rules and ReportMeta.changed before any report is rendered).
    import ast

    import drafterlint.report as report_pkg

    for path in Path(report_pkg.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        for forbidden in ("drafterlint.checks", "drafterlint.gitops", "drafterlint.engine", "subprocess", "git"):
            assert not any(m == forbidden or m.startswith(forbidden + ".") for m in imported), (path.name, forbidden)


def test_a_result_with_nothing_to_make_encodable_is_printed_as_it_is(monkeypatch):
    """`printable` reads every finding (its fields, its related locations) and copies only what
    holds a name that is not valid UTF-8: a finding whose related locations are plain is kept,
    not copied (dataclasses.replace, about 40 us each), and each class's fields are looked up once."""
    import dataclasses

    from drafterlint import report

    plain = Result([finding(line=n, related=[Location("rules", "other.md", n, 1)]) for n in range(1, 41)],
                   [Skipped(("DL801",), "needs a date")])
    bad = Location("rules", "caf\udce9.md", 3, 1)  # a name that is not UTF-8 (a surrogate escape)
    mixed = Result([*plain.findings[:5], finding(line=99, related=[bad])], [])
    made, looked_up = [], []
    replace_, fields_ = dataclasses.replace, dataclasses.fields
    monkeypatch.setattr(dataclasses, "replace", lambda obj, **kw: made.append(obj) or replace_(obj, **kw))
    monkeypatch.setattr(dataclasses, "fields", lambda obj: looked_up.append(obj) or fields_(obj))
    monkeypatch.setattr(report, "_INIT_FIELDS", {})
    assert report.printable(plain) is plain and made == []
    assert sorted(c.__name__ for c in looked_up) == ["Finding", "Location", "Skipped"]  # once each
    # the finding whose related location has that name alone is copied
    shown = report.printable(mixed)
    assert shown.findings[:5] == mixed.findings[:5] and all(a is b for a, b in zip(shown.findings, mixed.findings[:5]))
    assert shown.findings[5].related[0].path == "caf\\xe9.md" and len(made) == 3  # the location, its finding, the result
