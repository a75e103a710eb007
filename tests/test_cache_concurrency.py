"""Six pairs of `drafterlint check` started together on one cache directory (pre-commit in
several repositories at once, editors linting on save): each prints what a `--no-cache` run
prints, none shows a traceback, and every entry left in the directory verifies."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from drafterlint import cache, cache_codec
from tests.helpers import FIXTURES

# Twelve processes on one cache directory already outnumber the cores of any runner several times
# over: more of them lengthen the run, not the overlap between writers of the same entry.
PAIRS = 6
HANG_GUARD = 600  # seconds, for all of them together: only catches a hang


def _two_inputs(tmp_path: Path) -> list[list[str]]:
    """The example repositories, and a copy whose rules have one more broken link."""
    first = FIXTURES / "example"
    second = tmp_path / "second"
    shutil.copytree(first, second)
    rules = second / "rules" / "endpoints_rules.md"
    rules.write_text(rules.read_text() + "\nSee [the missing part](#nowhere-at-all).\n")
    return [["--rules-repo", str(root / "rules"), "--registry-repo", str(root / "endpoints")]
            for root in (first, second)]


def _start(args: list[str], env: dict, cwd: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "drafterlint", "check", *args, *extra], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
def test_six_pairs_at_once_print_what_an_uncached_run_prints(tmp_path):
    shared = tmp_path / "shared-cache"
    env = {**os.environ, "DRAFTERLINT_CACHE": str(shared)}
    inputs = _two_inputs(tmp_path)
    expected = []
    for args in inputs:
        out, err = _start(args, env, tmp_path, "--no-cache").communicate(timeout=HANG_GUARD)
        expected.append(out)
    assert expected[0] != expected[1]  # the two inputs make different entries
    procs = [(i, _start(inputs[i], env, tmp_path)) for _ in range(PAIRS) for i in (0, 1)]
    for i, proc in procs:
        out, err = proc.communicate(timeout=HANG_GUARD)
        assert "Traceback" not in err, err
        assert out == expected[i]
        assert proc.returncode == 1  # the example's errors, every time
    entries = [p for p in (shared / "check-cache").iterdir() if p.is_file()]
    assert entries and not [p for p in entries if p.name.startswith(".tmp-")]  # no write left half done
    for entry in entries:
        head, _, body = entry.read_text(encoding="utf-8").partition("\n")
        assert head == "sha256:" + cache_codec.digest(body.encode("utf-8")), entry.name
        assert _reads_back(body), entry.name


# How the cache reads its entries back: a run's result and a YAML pack (rows), a document kept
# whole (columns), a document's sections (a pack of columns).
_READERS = (cache_codec.decode, cache.document_from_text, cache.unpack_text)


def _reads_back(body: str) -> bool:
    """Whether one of the cache's readers takes `body` (each refuses what is not its own)."""
    for read in _READERS:
        try:
            read(body)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            continue
        return True
    return False
