"""Hostile and broken inputs: each ends in a clear finding (DL702 with a position, or the finding
the defect deserves) or a one-line error with exit 2, without a traceback, without reading
outside the repository and without running anything it was given.

Every case runs the real command line in a subprocess (tests/helpers/hostile.run_cli), which kills a run
that hangs or blows up. Whether each case also meets its budget (5 s and 300 MB on an idle
machine) is measured by `python bench/hostile.py`, not asserted here: a test that fails because
the machine is busy teaches people to ignore it. Large inputs are generated here, into temporary
folders.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.helpers.hostile import SPEC, assert_sane, check, rules_repo, run_cli

ROOT = Path(__file__).resolve().parents[1]
CLEAN_REGISTRY = ROOT / "rules_fixtures" / "registry_cases" / "clean"
POLICY = "src/inference_endpoint/validation/policies/2026-10-C1"


def dl702(run, path: str = "endpoints_rules.md") -> dict:
    found = [f for f in run.findings("DL702") if f["path"] == path]
    assert found, run.stdout[-1000:]
    f = found[0]
    assert f["line"] >= 1 and f["column"] >= 1
    return f


# -- encodings and bytes ---------------------------------------------------------------------


def test_invalid_utf8_is_dl702_at_the_byte(tmp_path):
    rules_repo(tmp_path, b"# Title\n\nok line\nbad \xff byte\n")
    run = check(tmp_path)
    assert_sane(run, (1,))
    f = dl702(run)
    assert (f["line"], f["column"]) == (4, 5)
    assert "UTF-8" in f["message"]


def test_truncated_multibyte_sequence(tmp_path):
    rules_repo(tmp_path, "# Title\n\ncaf\u00e9".encode()[:-1])
    run = check(tmp_path)
    assert_sane(run, (1,))
    assert dl702(run)["line"] == 3


def test_utf16_with_bom_is_dl702(tmp_path):
    rules_repo(tmp_path, b"\xff\xfe" + "# Title\n".encode("utf-16-le"))
    run = check(tmp_path)
    assert_sane(run, (1,))
    assert "UTF-16" in dl702(run)["message"]


def test_utf16_without_bom_is_dl702(tmp_path):
    rules_repo(tmp_path, "# Title\n".encode("utf-16-le"))
    run = check(tmp_path)
    assert_sane(run, (1,))
    dl702(run)


def test_utf8_bom_is_not_a_column(tmp_path):
    rules_repo(tmp_path, b"\xef\xbb\xbf" + SPEC.encode() + b"\n[x](#nowhere)\n")
    run = check(tmp_path)
    assert_sane(run, (1,))
    [f] = list(run.findings("DL201"))
    assert (f["line"], f["column"]) == (SPEC.count("\n") + 2, 1)


@pytest.mark.parametrize("eol", ["\r\n", "\r"], ids=["crlf", "lone-cr"])
def test_crlf_and_lone_cr_positions(tmp_path, eol):
    text = (SPEC + "\nsee [x](#nowhere) here\n").replace("\n", eol)
    rules_repo(tmp_path, text.encode())
    run = check(tmp_path)
    assert_sane(run, (1,))
    [f] = run.findings("DL201")
    # git's lines (tests/test_git_lines.py): a lone CR ends a line for the parser, not for git,
    # so a file of lone CRs is one line, the link at its offset in it
    at = text.index("[x]")
    assert (f["line"], f["column"]) == (text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1)
    assert (f["line"], f["column"]) == ((SPEC.count("\n") + 2, 5) if eol == "\r\n" else (1, at + 1))


def test_nul_bytes_are_dl702_with_line(tmp_path):
    rules_repo(tmp_path, b"# Title\n\ntext\x00more\n")
    run = check(tmp_path)
    assert_sane(run, (1,))
    f = dl702(run)
    assert f["line"] == 3 and "NUL" in f["message"]


def test_binary_garbage(tmp_path):
    rules_repo(tmp_path, bytes(range(256)) * 64)
    run = check(tmp_path)
    assert_sane(run, (1,))
    dl702(run)


def test_empty_document(tmp_path):
    rules_repo(tmp_path, b"")
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (0,))
    assert run.findings() == []


# -- size --------------------------------------------------------------------------------------


def test_50_mb_markdown_is_refused_quickly(tmp_path):
    root = rules_repo(tmp_path, b"")
    block = (SPEC + "\n" + "[a](#2-models) word " * 40 + "\n\n").encode()
    with open(root / "endpoints_rules.md", "wb") as fh:
        for _ in range(50 * 1024 * 1024 // len(block) + 1):
            fh.write(block)
    run = check(tmp_path)
    assert_sane(run, (1,))
    assert "limit" in dl702(run)["message"]


def test_single_5_mb_line(tmp_path):
    rules_repo(tmp_path, SPEC + "\n" + "word [a](#2-models) `x` *y* " * (5 * 1024 * 1024 // 28) + "\n")
    run = check(tmp_path)
    assert_sane(run, (1,))
    # refused with its reason (too much markup to parse in bounded time), not a traceback
    (f,) = [f for f in run.findings("DL702") if f["path"] == "endpoints_rules.md"]
    assert "over the limit" in f["message"]


@pytest.mark.slow  # tens of seconds on a busy machine: a full-size input, run by .ci/run
def test_single_1_mb_line_of_links_parses(tmp_path):
    rules_repo(tmp_path, SPEC + "\n" + "[a](#2-models) " * (1024 * 1024 // 15) + "\n")
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (0,))


def test_10000_headings_with_one_title(tmp_path):
    rules_repo(tmp_path, SPEC + "".join("\n## Same\n" for _ in range(10_000)) + "\n[last](#same-9999)\n[over](#same-10000)\n")
    run = check(tmp_path, select="DL2")
    assert_sane(run, (1,))
    [f] = run.findings("DL201")
    assert "same-10000" in f["message"]


def _links(n: int) -> str:
    return "".join(f"[l{i}](#2-models)\n" if i % 1000 else f"[l{i}](#gone-{i})\n" for i in range(n))


def test_100000_links_are_refused_or_checked(tmp_path):
    rules_repo(tmp_path, SPEC + "\n" + _links(100_000))
    run = check(tmp_path, select="DL201,DL702")
    assert_sane(run, (1,))
    if run.findings("DL702"):  # over the parser's markup budget: refused, quickly, with a reason
        assert "limit" in dl702(run)["message"]
    else:
        assert len(run.findings("DL201")) == 100


@pytest.mark.slow  # tens of seconds on a busy machine: a full-size input, run by .ci/run
def test_50000_links_are_all_checked(tmp_path):
    rules_repo(tmp_path, SPEC + "\n" + _links(50_000))
    run = check(tmp_path, select="DL201,DL702")
    assert_sane(run, (1,))
    assert [f["line"] for f in run.findings("DL201")] == [SPEC.count("\n") + 2 + i for i in range(0, 50_000, 1000)]


# -- structure -----------------------------------------------------------------------------------


FIRST = SPEC.count("\n") + 2  # the first line after SPEC and a blank line


def test_lists_nested_500_deep(tmp_path):
    rules_repo(tmp_path, SPEC + "\n" + "".join("  " * i + f"- [x](#deep-{i})\n" for i in range(500)))
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (1,))
    # every level is parsed: each item's broken link, where its marker's content starts
    assert [(f["line"], f["column"]) for f in run.findings()] == [(FIRST + i, 2 * i + 3) for i in range(500)]


def test_quotes_nested_500_deep(tmp_path):
    rules_repo(tmp_path, SPEC + "\n" + "".join(">" * i + f" [x](#deep-{i})\n" for i in range(1, 501)))
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (1,))
    assert [(f["code"], f["line"], f["column"]) for f in run.findings()] == [
        ("DL201", FIRST + i - 1, i + 2) for i in range(1, 501)]


def test_one_line_nested_500_deep(tmp_path):
    rules_repo(tmp_path, SPEC + "\n" + "> " * 500 + "x\n\n" + "- " * 500 + "y\n\n" + "[" * 500 + "z" + "]" * 500 + "\n")
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (0,))  # no link among the brackets: nothing to report, and no DL702
    assert run.findings() == []


def test_unterminated_code_fence_hides_links(tmp_path):
    rules_repo(tmp_path, SPEC + "\n```\n[x](#inside-fence)\n" + "code\n" * 1000)
    run = check(tmp_path, select="DL2")
    assert_sane(run, (0,))


def test_unbalanced_brackets_backticks_and_comments(tmp_path):
    junk = "[" * 10_000 + "`" * 10_000 + "]" * 7 + "<!--" * 10_000 + "<" * 10_000 + "*_" * 10_000
    rules_repo(tmp_path, SPEC + "\n" + junk + "\n\n[x](#nowhere)\n")
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (1,))
    [f] = run.findings("DL201")
    assert f["line"] == SPEC.count("\n") + 4


def test_unterminated_suppression_comments(tmp_path):
    rules_repo(tmp_path, SPEC + "\n" + "<!-- drafterlint-disable DL201 " * 20_000 + "\n")
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (0,))
    assert run.findings() == []


# -- links that point where they must not -----------------------------------------------------------


def test_links_escaping_the_root(tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("# Secret\n")
    rules_repo(tmp_path, SPEC + "\n[up](../outside.md)\n\n[deep](../../../../../../etc/passwd)\n\n[abs](/etc/passwd)\n")
    run = check(tmp_path, select="DL2")
    assert_sane(run, (1,))
    lines = sorted(f["line"] for f in run.findings("DL202"))
    assert lines[:2] == [SPEC.count("\n") + 2, SPEC.count("\n") + 4]


def test_file_and_javascript_urls_are_never_followed(tmp_path):
    fifo = tmp_path / "trap"
    os.mkfifo(fifo)  # reading it would block: a run that finishes did not open it
    rules_repo(
        tmp_path,
        SPEC + f"\n[f](file://{fifo})\n\n[j](javascript:alert(1))\n\n<a href=\"file:{fifo}\">x</a>\n",
    )
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (1,))
    assert str(fifo) not in run.stderr
    first = SPEC.count("\n") + 2
    assert [(f["code"], f["line"]) for f in run.findings()] == [("DL202", first), ("DL202", first + 2), ("DL202", first + 4)]


def test_symlink_leaving_the_repository_is_not_read(tmp_path):
    fifo = tmp_path / "trap.md"
    os.mkfifo(fifo)  # opening it would block until the deadline
    root = rules_repo(tmp_path, SPEC + "\n[out](link.md#x)\n\n[dir](outdir/a.md)\n")
    os.symlink(fifo, root / "link.md")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "a.md").write_text("# A\n")
    os.symlink(tmp_path / "elsewhere", root / "outdir")
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (1,))
    assert {f["line"] for f in run.findings("DL202")} == {SPEC.count("\n") + 2, SPEC.count("\n") + 4}


def test_symlink_loop(tmp_path):
    root = rules_repo(tmp_path, SPEC + "\n[loop](a/b.md)\n\n[self](self.md)\n")
    os.symlink("b", root / "a")
    os.symlink("a", root / "b")
    os.symlink("self.md", root / "self.md")
    os.symlink(".", root / "dot")
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (1,))
    assert len(run.findings("DL202")) == 2


def test_fifo_inside_the_repository_is_not_opened(tmp_path):
    root = rules_repo(tmp_path, SPEC + "\n[pipe](pipe.md)\n")
    os.mkfifo(root / "pipe.md")  # matched by the "**/*.md" documents glob
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (1,))
    # not a regular file: not read, and a link to it leads nowhere
    assert [(f["code"], f["line"], f["column"]) for f in run.findings()] == [("DL202", SPEC.count("\n") + 2, 1)]


def test_configured_document_that_is_a_directory(tmp_path):
    root = rules_repo(tmp_path, SPEC)
    (root / "folder.md").mkdir()
    (tmp_path / ".drafterlint.yaml").write_text("rules:\n  documents: [endpoints_rules.md, folder.md]\n")
    run = check(tmp_path, "--config", str(tmp_path / ".drafterlint.yaml"), select="DL2,DL7")
    assert_sane(run, (1,))
    assert "directory" in dl702(run, "folder.md")["message"]


def test_missing_rules_directory_is_one_line(tmp_path):
    run = run_cli(["check", "--rules-repo", str(tmp_path / "nope")], tmp_path)
    assert_sane(run, (2,))


# -- configuration -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "rules: [unclosed\n",
        "rules:\n  documents: !!python/object/apply:os.system ['touch PWNED']\n",
        "a: &a [x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" + "".join(
            f"c{i}: &c{i} [*{'b' if i == 0 else f'c{i-1}'}, *{'b' if i == 0 else f'c{i-1}'}, *{'b' if i == 0 else f'c{i-1}'}, *{'b' if i == 0 else f'c{i-1}'}]\n"
            for i in range(12)
        ),
        "\xff\xfe",
        "- just\n- a list\n",
        "rules:\n  unknown_key: 1\n",
    ],
    ids=["invalid-yaml", "python-tag", "alias-bomb", "garbage", "not-a-mapping", "schema"],
)
def test_bad_configuration_is_one_line_exit_2(tmp_path, text):
    rules_repo(tmp_path, SPEC)
    cfg = tmp_path / ".drafterlint.yaml"
    cfg.write_bytes(text.encode("utf-8", "surrogateescape"))
    run = check(tmp_path, "--config", str(cfg))
    assert_sane(run, (2,))
    assert not (tmp_path / "PWNED").exists()


# -- registry YAML -------------------------------------------------------------------------------


def registry_with(tmp_path: Path, catalog: str) -> Path:
    reg = tmp_path / "registry"
    shutil.copytree(CLEAN_REGISTRY, reg)
    (reg / POLICY / "catalog.yaml").write_text(catalog)
    return reg


def check_registry(tmp_path: Path):
    return run_cli(
        ["check", "--registry-repo", str(tmp_path / "registry"), "--format", "json", "--select", "DL3,DL4,DL5,DL7"],
        tmp_path,
    )


def _bomb() -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    prev = "a"
    for i in range(9):
        name = f"l{i}"
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
        prev = name
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "catalog,expected",
    [
        (_bomb(), ("DL702", 7, 10)),
        ("x: " + "[" * 5000 + "]" * 5000 + "\n", ("DL702", 1, 1003)),
        ("x:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 400)), ("DL702", 201, 401)),
        ("catalogs: !!python/object/apply:os.system ['touch PWNED']\n", ("DL702", 1, 11)),
        ("catalogs: !!python/name:os.system\n", ("DL702", 1, 11)),
        ("catalogs: !custom {a: 1}\n", ("DL702", 1, 11)),
        ("? [a, b]\n: 1\n", ("DL702", 1, 3)),
        ("{1: a, 2.5: b, null: c, true: d}\n", ("DL701", 1, 2)),  # `1` is read as an int: a schema matter
        ("catalogs:\n  approved_spec_decode_heads: &x\n    - *x\n", ("DL702", 3, 7)),
        ("catalogs: [\n", ("DL702", 2, 1)),
        ("\t- tab\n", ("DL702", 1, 1)),
    ],
    ids=[
        "alias-bomb", "deep-flow", "deep-block", "python-object", "python-name", "custom-tag",
        "complex-key", "non-string-keys", "recursive-alias", "unterminated", "tab-indent",
    ],
)
def test_hostile_registry_yaml(tmp_path, catalog, expected):
    registry_with(tmp_path, catalog)
    run = check_registry(tmp_path)
    assert_sane(run, (1,))
    code, line, column = expected
    on_catalog = [(f["code"], f["line"], f["column"]) for f in run.findings() if f["path"] == f"{POLICY}/catalog.yaml"]
    assert (code, line, column) in on_catalog, on_catalog
    assert not (tmp_path / "PWNED").exists()
    assert not (Path.cwd() / "PWNED").exists()
    found = [f for f in run.json["findings"] if f["path"].endswith("catalog.yaml")]
    assert found, run.stdout[-800:]  # DL702 unreadable or DL701 schema: never silently accepted


# -- git arguments (drafterlint sync): refused before git runs ---------------------------------------


@pytest.mark.parametrize(
    "opts",
    [
        ["--url", "ext::sh -c touch% PWNED"],
        ["--url", "ext::sh -c 'touch PWNED'"],
        ["--url", "fd::17"],
        ["--url", "--upload-pack=touch PWNED"],
        ["--url=-u"],
        ["--url", "file:///etc"],
        ["--url", "https://github.com/mlcommons/endpoints", "--ref", "main..evil"],
        ["--url", "https://github.com/mlcommons/endpoints", "--ref", "--upload-pack=touch PWNED"],
        ["--url", "https://github.com/mlcommons/endpoints", "--ref=-x"],
        ["--url", "https://github.com/mlcommons/endpoints", "--ref", "a b"],
    ],
    ids=["ext", "ext-quoted", "fd", "option-url", "short-option-url", "file-url", "ref-dotdot",
         "ref-option", "ref-dash", "ref-space"],
)
def test_sync_refuses_hostile_git_arguments(tmp_path, opts):
    run = run_cli(["sync", "registry", "--cache-dir", str(tmp_path / "cache"), *opts], tmp_path)
    assert_sane(run, (2,))
    assert not (tmp_path / "PWNED").exists()
    assert not (tmp_path / "cache" / "repos").exists() or not any((tmp_path / "cache" / "repos").rglob("*.git"))


# -- names the file system returns -------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif", "markdown"])
@pytest.mark.parametrize("cache", ["cache", "no-cache"])
def test_file_name_that_is_not_utf8_is_checked_with_its_name_escaped(tmp_path, fmt, cache):
    root = rules_repo(tmp_path, SPEC)
    bad = os.fsencode(root) + b"/bad\xff\xfename.md"
    with open(bad, "wb") as fh:
        fh.write(b"# Bad\n\n[y](#gone)\n")
    args = ["check", "--rules-repo", str(root), "--select", "DL2,DL7", "--format", fmt]
    if cache == "no-cache":
        args.append("--no-cache")
    for _ in range(2):  # the second run reads what the first one cached
        run = run_cli(args, tmp_path)
        assert_sane(run, (1,))
        out = (tmp_path / ".stdout").read_bytes()
        out.decode("utf-8")  # valid UTF-8, whatever the name
        assert b"\\xfename.md" in out, out[-800:]  # the name, escaped (JSON doubles the backslash)
        if fmt in ("json", "sarif"):
            import json

            json.loads(out)
        if fmt == "json":
            [f] = run.findings("DL201")
            assert (f["path"], f["line"], f["column"]) == ("bad\\xff\\xfename.md", 3, 1)
