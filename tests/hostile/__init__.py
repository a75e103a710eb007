"""Hostile and broken inputs for `drafterlint`, and a runner that bounds what a run may cost.

Large inputs are generated at test time (never stored). `run_cli` runs the real command line in
a subprocess and measures its wall time and peak memory (`os.wait4`), killing it at a deadline.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

TIME_LIMIT = 5.0  # seconds, per case (generous: the point is "bounded", not a benchmark)
MEMORY_LIMIT_MB = 300
KILL_AFTER = 30.0  # a run still going then is killed (and fails the time bound)

SPEC = """\
# Rules

## 2. Models

### 2.9 Model Equivalence Rules

#### 2.9.4 Speculative Decoding

See [models](#2-models).
"""


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float

    @property
    def json(self) -> dict:
        return json.loads(self.stdout)

    def findings(self, code: str | None = None) -> list[dict]:
        return [f for f in self.json["findings"] if code is None or f["code"] == code]


def run_cli(args: list[str], cwd: Path, env: dict | None = None, stdin: bytes | None = None) -> Run:
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env.setdefault("DRAFTERLINT_CACHE", str(cwd / ".cache-drafterlint"))
    # git must never reach the network or a prompt from a test
    full_env.update(GIT_TERMINAL_PROMPT="0", GIT_ALLOW_PROTOCOL="file")
    out_path, err_path = cwd / ".stdout", cwd / ".stderr"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "drafterlint", *args],
            cwd=cwd,
            env=full_env,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > KILL_AFTER:
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Run(
        code=proc.returncode,
        stdout=out_path.read_text(encoding="utf-8", errors="replace"),
        stderr=err_path.read_text(encoding="utf-8", errors="replace"),
        seconds=seconds,
        peak_mb=usage.ru_maxrss / 1024,  # KiB on Linux
    )


def assert_sane(run: Run, codes: tuple[int, ...] = (0, 1, 2)) -> None:
    """No traceback, an expected exit code, bounded time and memory, at most one error line."""
    assert "Traceback" not in run.stderr + run.stdout, run.stderr[-2000:]
    assert run.code in codes, (run.code, run.stderr[-500:], run.stdout[-500:])
    assert run.seconds < TIME_LIMIT, f"took {run.seconds:.1f}s"
    assert run.peak_mb < MEMORY_LIMIT_MB, f"peak {run.peak_mb:.0f} MB"
    if run.code == 2:
        lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1, run.stderr
        assert lines[0].startswith("drafterlint"), lines[0]


def rules_repo(base: Path, main: bytes | str, *, extra: dict[str, bytes | str] | None = None) -> Path:
    """A rules repository whose main document is `main` (bytes are written as they are)."""
    root = base / "rules"
    root.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)  # a complete checkout: a missing file is really missing
    files = {"endpoints_rules.md": main, "endpoints_submission_rules.md": "# Submission\n"}
    files.update(extra or {})
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return root


def check(base: Path, *extra_args: str, select: str = "DL1,DL2,DL7") -> Run:
    args = ["check", "--rules-repo", str(base / "rules"), "--format", "json", "--select", select]
    return run_cli([*args, *extra_args], base)
