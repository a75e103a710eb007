"""The patch `drafterlint fix --diff` prints, and the Action's `fix-patch` file, apply with git.

Real repositories in tmp dirs, a real `drafterlint fix --diff` and a real run of
action/entry.py, then a real `git apply` of what they wrote: the document the patch makes is the
one `drafterlint fix` writes in place. Git splits a file into lines at "\\n" only; a document
holding U+2028, U+2029, \\x0b, \\x0c, \\x1c-\\x1e or \\x85 (which str.splitlines also splits
at) or CRLF line ends must give a patch that says so byte for byte.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import git

# A renumbered heading's broken link, which fix repairs (DL201), after lines holding every
# character str.splitlines takes for a line break and git does not.
ODD = "A\u2028line b\x0cc \x85d\x0be\x1cf\x1dg\x1eh\u2029i"
DOCUMENT = f"# Rules\n\n## 3.1 Scope\n\n{ODD}\n\nOld: [§3.1](#30-scope).\n\nEnd.\n"
PLAIN = DOCUMENT.replace(ODD, "Plain text.")
CONFIG = "select: [DL2]\n"


def _repository(root: Path, text: str, *, newline: str = "\n") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "endpoints_rules.md").write_bytes(text.replace("\n", newline).encode("utf-8"))
    (root / ".drafterlint.yaml").write_text(CONFIG, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "-c", "core.autocrlf=false", "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def _drafterlint(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cwd.parent / f"{cwd.name}-cache")}
    return subprocess.run([sys.executable, "-m", "drafterlint", *args, "--rules-repo", "."],
                          cwd=cwd, env=env, capture_output=True, timeout=300)


def _fixed_in_place(tmp_path: Path, text: str, newline: str) -> bytes:
    """The document as `drafterlint fix` writes it in place."""
    repo = _repository(tmp_path / "in-place", text, newline=newline)
    proc = _drafterlint(repo, "fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fixed = (repo / "endpoints_rules.md").read_bytes()
    assert b"#31-scope" in fixed and b"#30-scope" not in fixed
    return fixed


def _applied(repo: Path, patch: Path) -> bytes:
    """The document after a real `git apply` of `patch` (checked first)."""
    git(repo, "apply", "--check", str(patch))
    git(repo, "apply", str(patch))
    return (repo / "endpoints_rules.md").read_bytes()


@pytest.mark.parametrize(("text", "newline"), [(DOCUMENT, "\n"), (DOCUMENT, "\r\n")], ids=["lf", "crlf"])
def test_fix_diff_applies_and_makes_what_fix_writes(tmp_path, text, newline):
    fixed = _fixed_in_place(tmp_path, text, newline)
    repo = _repository(tmp_path / "diff", text, newline=newline)
    proc = _drafterlint(repo, "fix", "--diff")
    assert proc.returncode == 1, proc.stderr
    patch = tmp_path / "fix.patch"
    patch.write_bytes(proc.stdout)
    assert b"No newline" not in proc.stdout  # every line of the document ends with one
    assert _applied(repo, patch) == fixed


def test_the_hidden_patch_file_holds_the_printed_patch_byte_for_byte(tmp_path):
    repo = _repository(tmp_path / "repo", DOCUMENT, newline="\r\n")
    patch = tmp_path / "out" / "fix.patch"
    patch.parent.mkdir()
    proc = _drafterlint(repo, "fix", "--diff", f"--patch={patch}")
    assert proc.returncode == 1, proc.stderr
    assert patch.read_bytes() == proc.stdout and b"\r\n" in proc.stdout
    # nothing to repair: no file
    git(repo, "apply", str(patch))
    git(repo, "commit", "-qam", "fixed")
    patch.unlink()
    proc = _drafterlint(repo, "fix", "--diff", f"--patch={patch}")
    assert proc.returncode == 0 and proc.stdout == b"" and not patch.exists()


def test_finding_lines_are_gits_lines(tmp_path):
    """A finding's line is the one `grep -n` (and git, and GitHub) gives it, after lines that
    str.splitlines would have split further."""
    repo = _repository(tmp_path / "repo", DOCUMENT)
    proc = _drafterlint(repo, "check")
    line = next(n for n, ln in enumerate(DOCUMENT.split("\n"), 1) if "#30-scope" in ln)
    grep = subprocess.run(["grep", "-n", "#30-scope", "endpoints_rules.md"], cwd=repo, capture_output=True, text=True)
    assert grep.stdout.startswith(f"{line}:")
    assert re.search(rf"^endpoints_rules\.md:{line}:\d+: DL201 ", proc.stdout.decode(), re.M), proc.stdout


@pytest.mark.parametrize(("text", "newline"), [(PLAIN, "\r\n"), (DOCUMENT, "\n")], ids=["crlf", "odd-breaks"])
def test_the_actions_fix_patch_applies_and_makes_what_fix_writes(runner, tmp_path, text, newline):
    fixed = _fixed_in_place(tmp_path, text, newline)
    ws = runner.workspace
    shutil.rmtree(ws)
    _repository(ws, text, newline=newline)
    proc = runner({"rules-repo": "."}, extra_env={"GITHUB_EVENT_NAME": "push"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    said = dict(line.split("=", 1) for line in runner.output.read_text().splitlines() if "=" in line)
    patch = Path(said["fix-patch"])
    assert git(ws, "status", "--porcelain") == ""  # the Action left the workspace as it was
    assert _applied(ws, patch) == fixed
