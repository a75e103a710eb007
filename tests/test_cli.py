"""The command line as users meet it: exit codes, reports, configuration, bad input."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.helpers import FIXTURES

EXAMPLE = FIXTURES / "example"


@pytest.fixture
def repos(tmp_path):
    rules = tmp_path / "rules"
    registry = tmp_path / "endpoints"
    shutil.copytree(EXAMPLE / "rules", rules)
    shutil.copytree(EXAMPLE / "endpoints", registry)
    return rules, registry


def test_example_text_report_positions(cli, repos):
    rules, _ = repos
    code, out, err = cli("check", "--rules-repo", rules, cwd=rules)
    assert code == 1, err
    lines = out.splitlines()
    assert "endpoints_rules.md:16:6: DL201 broken-fragment: no heading or anchor `#23-model-equivalence` in endpoints_rules.md (did you mean `#29-model-equivalence-rules-closed-division`?)" in lines
    assert any(l.startswith("endpoints_rules.md:81:14: DL203 ") and "#46-seed-rotation" in l for l in lines)
    assert any(l.startswith("endpoints_rules.md:100:1: DL202 ") for l in lines)
    assert any(l.startswith("endpoints_rules.md:48:20: DL205 ") for l in lines)
    assert any(l.startswith("DL204: links into mlcommons/endpoints not checked") or "; DL204: links into" in l for l in lines)


def test_json_contract(cli, repos):
    rules, registry = repos
    code, out, _ = cli("check", "--rules-repo", rules, "--registry-repo", registry, "--format", "json", "--select", "DL2")
    doc = json.loads(out)
    assert doc["tool"] == "drafterlint" and isinstance(doc["version"], str)
    assert set(doc["summary"]) == {"error", "warning", "info"}
    assert doc["findings"], doc
    for f in doc["findings"]:
        assert {"code", "name", "severity", "repo", "path", "line", "column", "message", "suggestion"} <= set(f)
        assert f["repo"] in ("rules", "registry")
        assert f["code"].startswith("DL2")
    # The planted cross-repository defect: the reference-style link in §3.2's table, reported
    # where the link is used (not at its definition), with the heading the README does have.
    dl204 = [(f["path"], f["line"], f["column"], f["suggestion"]) for f in doc["findings"] if f["code"] == "DL204"]
    assert dl204 == [("endpoints_rules.md", 98, 28,
                      "did you mean `examples/10_Agentic_Inference/README.md#borealis-12b`?")]
    assert code == 1


def test_exit_zero_and_fail_on(cli, repos):
    rules, _ = repos
    assert cli("check", "--rules-repo", rules, "--exit-zero")[0] == 0
    # Only the info finding selected: passes at the default threshold, fails at info.
    assert cli("check", "--rules-repo", rules, "--select", "DL206")[0] == 0
    assert cli("check", "--rules-repo", rules, "--select", "DL206", "--fail-on", "info")[0] == 1


def test_ignore_and_output_file(cli, repos, tmp_path):
    rules, _ = repos
    out_file = tmp_path / "report.json"
    code, out, _ = cli("check", "--rules-repo", rules, "--ignore", "DL2,DL1", "--format", "json", "--output", out_file)
    assert out == ""
    assert json.loads(out_file.read_text())["findings"] == []
    assert code == 0


def test_clean_after_fixing(cli, repos):
    rules, _ = repos
    doc = rules / "endpoints_rules.md"
    text = doc.read_text()
    text = (text.replace("#23-model-equivalence", "#22-open-division")
                .replace("(#293-model-weights)", "(#294-speculative-decoding)")
                .replace("#45-seed-rotation", "#46-seed-rotation")
                .replace("figures/cycle.png", "figures/cycle.svg"))
    doc.write_text(text)
    code, out, err = cli("check", "--rules-repo", rules, "--ignore", "DL206")
    assert code == 0, out + err


def test_suppression_comments(cli, repos):
    rules, _ = repos
    doc = rules / "endpoints_rules.md"
    text = doc.read_text().replace(
        "![Review cycle](figures/cycle.png)",
        "<!-- drafterlint-disable DL202 -->\n![Review cycle](figures/cycle.png)\n<!-- drafterlint-enable DL202 -->",
    )
    doc.write_text(text)
    _, out, _ = cli("check", "--rules-repo", rules)
    assert " DL202 " not in out
    assert " DL201 " in out


def test_config_discovered_upward_and_validated(cli, repos, tmp_path):
    rules, _ = repos
    (tmp_path / ".drafterlint.yaml").write_text("ignore: [DL201]\n")
    sub = rules / "figures"
    code, out, _ = cli("check", "--rules-repo", rules, cwd=sub)
    assert " DL201 " not in out and " DL203 " in out
    (tmp_path / ".drafterlint.yaml").write_text("rules:\n  documents: [a.md]\n  bogus: 1\n")
    code, out, err = cli("check", "--rules-repo", rules, cwd=sub)
    assert code == 2
    assert ".drafterlint.yaml:3:" in err and "bogus" in err and "Traceback" not in err


def test_select_and_ignore_choose_alike_in_the_configuration_and_on_the_command_line(cli, repos, tmp_path):
    # One match (drafterlint.findings.chosen) for both: a prefix takes a family, case aside.
    rules, _ = repos

    def codes(out: str) -> set[str]:
        return {f["code"] for f in json.loads(out)["findings"]}

    code, by_flags, err = cli("check", "--rules-repo", rules, "--select", "dl2", "--ignore", "DL203",
                              "--format", "json", cwd=rules)
    assert code == 1, err
    (tmp_path / ".drafterlint.yaml").write_text("select: [dl2]\nignore: [DL203]\n")
    code, by_config, err = cli("check", "--rules-repo", rules, "--format", "json", cwd=rules)
    assert code == 1, err
    assert codes(by_flags) == codes(by_config)
    assert "DL201" in codes(by_flags) and not codes(by_flags) - {"DL201", "DL202", "DL204", "DL205", "DL206"}


def test_config_flag_missing_file(cli, repos, tmp_path):
    rules, _ = repos
    code, _, err = cli("check", "--rules-repo", rules, "--config", tmp_path / "nope.yaml")
    assert code == 2 and "nope.yaml" in err


@pytest.mark.parametrize(
    "content,needle",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "NUL"),
        (b"# Rules\n\nCaf\xe9\n", "UTF-8"),
        (b"\xff\xfe#\x00 \x00R\x00", "UTF-16"),
    ],
)
def test_garbage_document_is_dl702_not_traceback(cli, tmp_path, content, needle):
    rules = tmp_path / "r"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_bytes(content)
    code, out, err = cli("check", "--rules-repo", rules, "--select", "DL2,DL7")
    assert code == 1
    assert "endpoints_rules.md:" in out and "DL702" in out and needle in out
    assert "Traceback" not in err


def test_empty_document_is_fine(cli, tmp_path):
    rules = tmp_path / "r"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text("")
    code, out, err = cli("check", "--rules-repo", rules, "--select", "DL2")
    assert code == 0, out + err


def test_document_that_is_a_directory(cli, tmp_path):
    rules = tmp_path / "r"
    (rules / "endpoints_rules.md").mkdir(parents=True)
    code, out, err = cli("check", "--rules-repo", rules, "--select", "DL2,DL7")
    assert code == 1 and "DL702" in out and "Traceback" not in err


def test_missing_repository_is_usage_error(cli, tmp_path):
    code, _, err = cli("check", "--rules-repo", tmp_path / "absent")
    assert code == 2 and "absent" in err and "Traceback" not in err


def test_no_repository_found(cli, tmp_path):
    code, _, err = cli("check", cwd=tmp_path)
    assert code == 2 and "--rules-repo" in err


def test_rules_and_explain(cli):
    code, out, _ = cli("rules")
    assert code == 0 and "DL201" in out and "broken-fragment" in out
    code, out, _ = cli("explain", "DL201")
    assert code == 0 and "### Passes:" in out and "### Fails:" in out and "Examples" in out
    code, out, _ = cli("explain", "broken-fragment")
    assert code == 0 and out.startswith("# DL201 broken-fragment")
    code, _, err = cli("explain", "DL999")
    assert code == 2 and "DL999" in err


def test_working_tree_detection(cli, repos):
    rules, _ = repos
    (rules / ".git").mkdir()
    code, out, _ = cli("check", cwd=rules / "figures")
    assert code == 1 and " DL201 " in out


@pytest.mark.parametrize("argv", [
    ["rules"],
    ["explain", "DL201"],
    ["check", "--rules-repo", EXAMPLE / "rules", "--registry-repo", EXAMPLE / "endpoints", "--no-cache"],
], ids=["rules", "explain", "check"])
def test_a_reader_that_stops_reading_ends_the_run_quietly(argv, tmp_path):
    # `drafterlint rules | head`: the pipe's reading end is closed before the first write, so
    # every write meets a broken pipe, as the lines after head's last one do.
    import os
    import subprocess
    import sys

    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "drafterlint", *map(str, argv)], stdout=write,
                              stderr=subprocess.PIPE, text=True, cwd=tmp_path, timeout=120)
    finally:
        os.close(write)
    assert proc.stderr == ""
    assert proc.returncode == 141  # as git's `git log | head`: the shell's status for SIGPIPE


def test_the_not_given_repository_line_is_said_by_dl204_only_when_it_runs(cli, repos):
    # The rules link into the reference repository; without it DL204 cannot follow them and
    # says so, and a run that does not select DL204 has nothing to say about it.
    rules, _ = repos
    line = "links into mlcommons/endpoints not checked: that repository was not given"
    code, out, err = cli("check", "--rules-repo", rules, "--no-cache", "-v", "--select", "DL204", cwd=rules)
    assert f"skipped DL204: {line}" in out + err
    code, out, err = cli("check", "--rules-repo", rules, "--no-cache", "-v", "--select", "DL201", cwd=rules)
    assert line not in out + err


def test_the_format_follows_the_place_and_an_explicit_flag_wins(cli, repos, monkeypatch, tmp_path):
    rules, _ = repos
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")  # under GitHub Actions: annotations
    code, out, err = cli("check", "--rules-repo", rules, "--select", "DL201", cwd=rules)
    assert code == 1 and out.startswith("::error file=endpoints_rules.md,line=16,col=6,"), out
    monkeypatch.setenv("DRAFTERLINT_FORMAT", "json")  # a default set everywhere, even there
    code, out, err = cli("check", "--rules-repo", rules, "--select", "DL201", cwd=rules)
    assert json.loads(out)["findings"][0]["code"] == "DL201"
    code, out, err = cli("check", "--rules-repo", rules, "--select", "DL201", "--format", "text", cwd=rules)
    assert out.startswith("endpoints_rules.md:16:6: DL201 broken-fragment")
    monkeypatch.setenv("DRAFTERLINT_FORMAT", "jsno")
    code, out, err = cli("check", "--rules-repo", rules, cwd=rules)
    assert code == 2 and out == "" and err.count("\n") == 1 and "DRAFTERLINT_FORMAT: use one of text, json" in err


# What the command line prints before any command runs: help, usage, version and usage errors.
PARSED_ONLY = [
    ["--help"], [], ["--version"], ["chek"], ["--bogus"], ["-h", "check"],
    *([command, "--help"] for command in ("check", "fix", "baseline", "rules", "explain", "sync", "audit")),
    ["check", "--formt", "json"], ["check", "--format", "yaml"], ["check", "--fail-on"], ["fix", "--dif"],
    ["audit", "--http-timeout", "soon"], ["sync"], ["explain"], ["--bogus", "check", "--no-cach"],
]


@pytest.mark.parametrize("argv", PARSED_ONLY, ids=" ".join)
def test_a_parser_filled_on_demand_says_what_the_whole_parser_says(argv, capsys, monkeypatch):
    """A run fills only its command's parser (cli.build_parser(lazy=True)); whatever it prints
    before a command runs is byte for byte what the parser with every command's arguments prints."""
    from drafterlint import cli

    def said(lazy: bool) -> tuple[object, str, str]:
        whole = cli.build_parser
        monkeypatch.setattr(cli, "build_parser", lambda **_: whole(lazy=lazy))
        try:
            status: object = cli.main(argv)
        except SystemExit as e:
            status = e.code
        finally:
            monkeypatch.setattr(cli, "build_parser", whole)
        out = capsys.readouterr()
        return status, out.out, out.err

    assert said(lazy=True) == said(lazy=False)


def test_a_check_adds_the_arguments_of_its_command_alone():
    from drafterlint.cli import build_parser

    parser = build_parser(lazy=True)
    args, extras = parser.parse_known_args(["check", "--no-cache", "--format", "json"])
    assert (args.command, args.no_cache, extras) == ("check", True, [])
    made = {name for name, command in args._commands.items() if hasattr(command, "_actions")}
    assert made == {"check"} and len(args._commands["check"]._actions) > 20  # the others not even made
    whole = {name: len(command._actions) for name, command in build_parser()._actions[-1].choices.items()}
    assert whole["check"] == len(args._commands["check"]._actions) and whole["audit"] > 20
    assert set(whole) == set(args._commands) and whole["rules"] == 1  # --help only


def test_a_check_makes_two_parsers_and_no_help_formatter_of_the_terminal_s_width(monkeypatch):
    """Adding an argument makes a help formatter (argparse checks a metavar tuple with it), and a
    formatter of the terminal's width imports shutil and asks the terminal its size: a check
    makes its own parser and the command line's, and no formatter but of a fixed width."""
    import argparse

    from drafterlint.cli import build_parser

    made: list[str] = []
    widths: list[object] = []
    parser_init, formatter_init = argparse.ArgumentParser.__init__, argparse.HelpFormatter.__init__

    def counted_parser(self, *args, **kwargs):
        made.append(kwargs.get("prog", ""))
        parser_init(self, *args, **kwargs)

    def counted_formatter(self, prog, indent_increment=2, max_help_position=24, width=None):
        widths.append(width)
        formatter_init(self, prog, indent_increment, max_help_position, width)

    monkeypatch.setattr(argparse.ArgumentParser, "__init__", counted_parser)
    monkeypatch.setattr(argparse.HelpFormatter, "__init__", counted_formatter)
    args, _ = build_parser(lazy=True).parse_known_args(["check", "--no-cache"])
    assert args.no_cache and made == ["drafterlint", "drafterlint check"]
    assert widths and None not in widths  # a width of the terminal's is looked up by shutil
    widths.clear()
    help_text = args._commands["check"].format_help()
    assert widths == [None] and help_text.startswith("usage: drafterlint check [-h]")


def test_the_commands_are_named_as_argparse_names_them():
    """build_parser gives the commands' prog, which argparse would work out by formatting the
    usage of a parser with no positional argument before the command."""
    import argparse

    from drafterlint.cli import build_parser

    plain = argparse.ArgumentParser(prog="drafterlint")
    expected = plain.add_subparsers(dest="command").add_parser("check").prog
    assert build_parser()._actions[-1].choices["check"].prog == expected == "drafterlint check"


def test_help_is_as_wide_as_the_terminal(monkeypatch, capsys):
    from drafterlint import cli

    lengths = {}
    for columns in ("40", "200"):
        monkeypatch.setenv("COLUMNS", columns)
        with pytest.raises(SystemExit):
            cli.main(["check", "--help"])
        lines = capsys.readouterr().out.splitlines()
        lengths[columns] = (len(lines), max(len(line) for line in lines))
    assert lengths["40"][0] > 2 * lengths["200"][0] and 100 < lengths["200"][1] <= 198
