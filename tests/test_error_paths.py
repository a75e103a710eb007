"""The messages a user meets on the error paths, each exact: what went wrong, where, what to do."""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def rules(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "endpoints_rules.md").write_text("# Rules\n")
    return root


def usage_error(capsys, *argv) -> str:
    """What argparse-level errors print; they end the program (SystemExit 2) as argparse does."""
    from drafterlint.cli import main

    with pytest.raises(SystemExit) as exit_:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == ""
    return err


def test_a_flag_typo_gets_the_commands_usage_and_a_did_you_mean(capsys, rules):
    err = usage_error(capsys, "check", "--rules-rpo", rules)
    lines = err.splitlines()
    assert lines[0].startswith("usage: drafterlint check ")
    assert lines[-1] == "drafterlint check: error: unrecognized argument: --rules-rpo (did you mean --rules-repo?)"


def test_several_typos_each_get_their_own_suggestion(capsys, rules):
    err = usage_error(capsys, "check", "--rules-repo", rules, "--no-cahce", "--formt=json")
    assert err.splitlines()[-1] == ("drafterlint check: error: unrecognized arguments: --no-cahce "
                                    "(did you mean --no-cache?), --formt=json (did you mean --format?)")


def test_a_typo_before_the_command_is_told_by_the_top_level(capsys):
    err = usage_error(capsys, "--verison")
    assert err.splitlines()[-1] == "drafterlint: error: unrecognized argument: --verison (did you mean --version?)"


def test_a_code_typo_in_the_configuration_gets_the_did_you_mean(cli, rules):
    (rules / ".drafterlint.yaml").write_text("fail_on: error\nignore: [DL1O4]\n")
    code, out, err = cli("check", "--rules-repo", rules, cwd=rules)
    assert code == 2 and out == ""
    assert err.strip() == (f"drafterlint: {rules / '.drafterlint.yaml'}:2: ignore: no rule code or prefix "
                           "`DL1O4`; did you mean `DL104`? (`drafterlint rules` lists them)")


def test_a_code_of_the_wrong_type_is_still_the_schemas_message(cli, rules):
    (rules / ".drafterlint.yaml").write_text("ignore: [104]\n")
    code, _, err = cli("check", "--rules-repo", rules, cwd=rules)
    assert code == 2 and "invalid configuration" in err and "104" in err


def test_a_missing_extra_list_is_a_usage_error_not_a_finding(cli, rules, tmp_path):
    code, out, err = cli("check", "--rules-repo", rules, "--extra-list", "cli=nope.yaml", cwd=tmp_path)
    assert code == 2 and out == ""
    assert err.strip() == f"drafterlint: --extra-list cli=nope.yaml: no such file ({tmp_path / 'nope.yaml'})"


def test_an_extra_list_that_is_a_folder_is_a_usage_error(cli, rules, tmp_path):
    (tmp_path / "lists").mkdir()
    code, _, err = cli("check", "--rules-repo", rules, "--extra-list", "lists", cwd=tmp_path)
    assert code == 2
    assert err.strip() == f"drafterlint: --extra-list lists: is a directory, not a file ({tmp_path / 'lists'})"


@pytest.mark.parametrize("as_url", [False, True])
def test_sync_from_a_local_path_names_the_variable_that_allows_it(cli, rules, monkeypatch, as_url):
    monkeypatch.delenv("DRAFTERLINT_ALLOW_LOCAL_SYNC", raising=False)
    url = f"file://{rules}" if as_url else str(rules)
    code, _, err = cli("sync", "rules", "--url", url)
    assert code == 2
    assert err.strip() == (f"drafterlint: repository URL {url!r} is a local path: sync fetches https URLs only; set "
                           "DRAFTERLINT_ALLOW_LOCAL_SYNC=1 to sync from a local repository or file:// URL")


@pytest.mark.parametrize("bom", [b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"], ids=["le", "be"])
def test_utf32_is_called_utf32(cli, rules, bom):
    (rules / "endpoints_rules.md").write_bytes(bom + "# R\n".encode("utf-32-le" if bom[0] else "utf-32-be"))
    code, out, _ = cli("check", "--rules-repo", rules, "--select", "DL7")
    assert code == 1
    assert "/endpoints_rules.md:1:1: DL702 unreadable: file is UTF-32; save it as UTF-8\n" in out


def test_utf16_is_still_utf16(cli, rules):
    (rules / "endpoints_rules.md").write_bytes(b"\xff\xfe" + "# R\n".encode("utf-16-le"))
    code, out, _ = cli("check", "--rules-repo", rules, "--select", "DL7")
    assert "DL702 unreadable: file is UTF-16; save it as UTF-8" in out


@pytest.fixture
def lock(monkeypatch):
    """Make folders unreadable: by their mode, or (root lists any folder) by refusing to list them
    as such a mode would. The modes are restored at the end of the test."""
    import drafterlint.sources as sources

    locked: list[str] = []
    real = os.scandir

    def scandir(path):
        if str(path) in locked:
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    if os.geteuid() == 0:
        monkeypatch.setattr(sources.os, "scandir", scandir)

    def _lock(folder):
        locked.append(str(folder))
        if os.geteuid() != 0:
            os.chmod(folder, 0)

    yield _lock
    for folder in locked:
        os.chmod(folder, 0o755)


def test_a_link_into_an_unreadable_folder_is_not_called_missing(cli, rules, lock):
    (rules / "locked").mkdir()
    (rules / "locked" / "x.md").write_text("# X\n")
    (rules / "endpoints_rules.md").write_text("# Rules\n\nSee [x](locked/x.md).\n")
    lock(rules / "locked")
    code, out, _ = cli("check", "--rules-repo", rules, "--select", "DL2,DL7", "--no-cache")
    assert code == 1
    assert ("/locked:1:1: DL702 unreadable: folder cannot be read (Permission denied); links into "
            "it are not checked\n") in out
    assert "DL202" not in out


def test_a_link_into_an_unreadable_folder_of_the_other_repository(cli, rules, lock, tmp_path):
    registry = tmp_path / "reg"
    (registry / "locked").mkdir(parents=True)
    (registry / "locked" / "x.md").write_text("# X\n")
    (registry / "src/inference_endpoint/validation/policies").mkdir(parents=True)
    (rules / "endpoints_rules.md").write_text(
        "# Rules\n\nSee [x](https://github.com/mlcommons/endpoints/blob/main/locked/x.md).\n")
    lock(registry / "locked")
    code, out, _ = cli("check", "--rules-repo", rules, "--registry-repo", registry,
                       "--select", "DL2,DL7", "--no-cache", "-v")
    assert ("/locked:1:1: DL702 unreadable: folder cannot be read (Permission denied); links into "
            "it are not checked\n") in out
    assert "DL204" not in out and "DL206" not in out


def test_a_link_past_the_name_limit_says_so(cli, rules):
    name = "n" * 300 + ".md"
    (rules / "endpoints_rules.md").write_text(f"# Rules\n\nSee [x]({name}).\n")
    code, out, _ = cli("check", "--rules-repo", rules, "--select", "DL202", "--no-cache")
    assert code == 1
    limit = os.pathconf(rules, "PC_NAME_MAX")
    assert (f"DL202 broken-file-link: `{name}` cannot name a file: a name in it is 303 bytes long, past "
            f"the file system's limit of {limit} (NAME_MAX); shorten the link") in out


def test_a_link_past_the_path_limit_says_so(cli, rules):
    path = "/".join(["d" * 200] * 25) + "/x.md"
    (rules / "endpoints_rules.md").write_text(f"# Rules\n\nSee [x]({path}).\n")
    code, out, _ = cli("check", "--rules-repo", rules, "--select", "DL202", "--no-cache")
    assert code == 1
    size = len(os.fsencode(rules / path))
    limit = os.pathconf(rules, "PC_PATH_MAX")
    assert (f"`{path}` cannot name a file: joined to the repository folder it is {size} bytes long, "
            f"past the file system's limit of {limit} (PATH_MAX); shorten the link") in out


def test_a_command_or_choice_typo_gets_a_did_you_mean(capsys):
    err = usage_error(capsys, "chek")
    assert err.splitlines()[-1] == (
        "drafterlint: error: argument COMMAND: invalid choice: 'chek' (choose from 'check', 'fix', "
        "'baseline', 'rules', 'explain', 'sync', 'audit'); did you mean check?")
    err = usage_error(capsys, "check", "--format", "jsn")
    assert err.splitlines()[-1].endswith("; did you mean json?")
    assert err.splitlines()[-1].startswith("drafterlint check: error: argument --format: invalid choice: 'jsn'")
