"""The hostile inputs of issue 24, at the sizes that used to take minutes or gigabytes, through
the real command line (tests/helpers/hostile.run_cli, which kills a hang or a blow-up). Each ends in its
finding, a DL702 or a one-line refusal. Their time and memory against the budget (5 s, 300 MB on
an idle machine) are measured by `python bench/hostile.py`, which runs this file too; the counts
that keep each path linear are asserted in tests/test_bounds.py."""

from __future__ import annotations

import shutil
import subprocess
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.helpers import LoopbackServer
from tests.helpers.hostile import assert_sane, check, rules_repo, run_cli

ROOT = Path(__file__).resolve().parents[1]
CLEAN_REGISTRY = ROOT / "rules_fixtures" / "registry_cases" / "clean"
EXAMPLE = ROOT / "rules_fixtures" / "example"
POLICY = "src/inference_endpoint/validation/policies/2026-10-C1"
COMPANION_BROKEN = "# Submission\n\n[x](#nowhere-here)\n"


def test_toc_600_stale_entries_against_1000_headings(tmp_path):
    doc = ("# Rules\n\n## Contents\n\n" + "".join(f"- [entry {i} zq](#gone-{i})\n" for i in range(600))
           + "\n" + "".join(f"## {i}. heading {i} qz\n" for i in range(1000)))
    rules_repo(tmp_path, doc)
    run = check(tmp_path, select="DL104")
    assert_sane(run, (0, 1))
    assert len(run.findings("DL104")) > 900


def test_2000_broken_file_links_in_2000_files(tmp_path):
    doc = "# Rules\n\n" + "".join(f"[l{i}](docs/page-{i:05d}-missing.md)\n" for i in range(2000))
    rules_repo(tmp_path, doc, extra={f"docs/page-{i:05d}.txt": "" for i in range(2000)})
    run = check(tmp_path, select="DL202")
    assert_sane(run, (1,))
    found = run.findings("DL202")
    assert len(found) == 2000
    assert "docs/page-01234.txt" in found[1234]["suggestion"]


def test_base_60_integer_of_400k_parts(tmp_path):
    reg = tmp_path / "registry"
    shutil.copytree(CLEAN_REGISTRY, reg)
    catalog = reg / POLICY / "catalog.yaml"
    catalog.write_text(catalog.read_text().replace("revision: 1\n", "revision: " + "1:" * 400_000 + "1\n", 1))
    run = run_cli(["check", "--registry-repo", str(reg), "--format", "json"], tmp_path)
    assert_sane(run, (1,))
    assert "internal error" not in run.stderr
    assert any(f["path"].endswith("catalog.yaml") for f in run.findings("DL701"))


@pytest.mark.parametrize("pattern,name", [
    ("*a" * 20 + "*b.md", "a" * 200 + ".md"),
    ("**/" * 25 + "z.md", "/".join(["aaaaaaaa"] * 30) + "/y.md"),
], ids=["stars", "doublestar"])
def test_document_globs_do_not_backtrack(tmp_path, pattern, name):
    root = rules_repo(tmp_path, "# R\n", extra={name: "# y\n", ".drafterlint.yaml": f"rules:\n  documents: ['{pattern}']\n"})
    run = run_cli(["check", "--format", "json", "--select", "DL2,DL7"], root)
    assert_sane(run, (0, 1))


# Made when a case runs, never at import: the runner's peak memory counts the forked test
# process's too.
BLOCKS = {
    "paragraphs": lambda: "word word word word.\n\n" * 270_000,
    "headings": lambda: "#\n" * 400_000,
    "items": lambda: "".join(f"{i}. a\n" for i in range(1, 100_001)),
    "setext": lambda: "word\n" * 400_000 + "===\n",
    "one-long-block": lambda: "word\n" * 70_000,
}


@pytest.mark.parametrize("kind", list(BLOCKS))
def test_many_small_blocks_are_one_dl702_and_the_rest_is_checked(tmp_path, kind):
    rules_repo(tmp_path, "# Rules\n\n" + BLOCKS[kind](), extra={"endpoints_submission_rules.md": COMPANION_BROKEN})
    run = check(tmp_path, select="DL2,DL7")
    assert_sane(run, (1,))
    [f] = [f for f in run.findings("DL702") if f["path"] == "endpoints_rules.md"]
    assert (f["line"], f["column"]) == (1, 1) and "limit" in f["message"]
    assert [f["path"] for f in run.findings("DL201")] == ["endpoints_submission_rules.md"]


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@e", *args], cwd=root, check=True,
                   capture_output=True)


def test_base_ref_with_a_large_data_file_in_the_base(tmp_path):
    root = rules_repo(tmp_path, "# Rules\n\n## 2. Models\n")
    shutil.rmtree(root / ".git")
    with open(root / "data.bin", "wb") as fh:
        fh.truncate(100 * 1024 * 1024)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    _git(root, "rm", "-q", "--cached", "data.bin")
    (root / "data.bin").unlink()
    _git(root, "commit", "-qm", "drop")
    with open(root / "endpoints_rules.md", "a") as fh:
        fh.write("\n[x](#gone)\n")
    _git(root, "commit", "-qam", "change")
    run = run_cli(["check", "--format", "json", "--select", "DL2,DL7", "--base-ref", "HEAD~2"], root)
    assert_sane(run, (1,))
    assert [f["line"] for f in run.findings("DL201")] == [5]


class _Answers(LoopbackServer):
    """A loopback server: every GET answers `body` (with `headers`), POST and PATCH a small issue."""

    def __init__(self, body: bytes, headers: dict[str, str] | None = None):
        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def _answer(self, data: bytes, extra: dict[str, str]):
                n = int(self.headers.get("Content-Length") or 0)
                if n:
                    self.rfile.read(n)
                self.send_response(200 if self.command == "GET" else 201)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                for k, v in extra.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._answer(body, headers or {})

            def do_POST(self):
                self._answer(b'{"number": 1, "html_url": "https://github.invalid/o/r/issues/1"}', {})

            do_PATCH = do_POST

        super().__init__(H)


def _audit(tmp_path: Path, *extra: str):
    args = ["audit", "--rules-repo", str(EXAMPLE / "rules"), "--registry-repo", str(EXAMPLE / "endpoints"),
            "--today", "2026-12-02", "--output", str(tmp_path / "a.md"), "--json", str(tmp_path / "a.json"),
            "--cache-dir", str(tmp_path / "c"), *extra]
    return run_cli(args, tmp_path, env={"GITHUB_TOKEN": "ghp_" + "x" * 36})


def _empty_objects() -> bytes:
    return b"[" + b"{}," * ((64 * 2**20 - 20) // 3) + b"{}]"  # just under 64 MiB


def test_a_64_mib_issue_list_of_empty_objects(tmp_path):
    with _Answers(_empty_objects()) as srv:
        run = _audit(tmp_path, "--open-issue", "o/r", "--github-api-url", srv.url)
    assert_sane(run, (4,))  # the report is written, the tracking issue is not
    assert "more than 1000000 values" in run.stderr  # the refusal says why
    assert (tmp_path / "a.md").exists()  # the report itself is written


def test_64_mib_hub_files_of_empty_objects(tmp_path):
    with _Answers(b'{"x": ' + _empty_objects() + b"}") as srv:
        run = _audit(tmp_path, "--online", "--hub-api-url", srv.url)
    assert_sane(run)
    assert (tmp_path / "a.md").exists()


def test_a_link_header_of_65000_angle_brackets(tmp_path):
    with _Answers(b"[]", {"Link": "<" * 65_000}) as srv:
        run = _audit(tmp_path, "--open-issue", "o/r", "--github-api-url", srv.url)
    assert_sane(run)
    assert (tmp_path / "a.md").exists()
