"""Hostile and broken inputs for `drafterlint`, and a runner that stops a run that hangs or blows up.

Large inputs are generated at test time (never stored). `run_cli` runs the real command line in
a subprocess and measures its wall time and peak memory (`os.wait4`). A test asserts what the
tool did, never how fast: the runner only kills a run (its whole process group) that is still
going after GUARD_SECONDS or whose memory passes GUARD_MB, which no working run comes near even
on a loaded machine. The budgets a case must meet on an idle machine (BUDGET_SECONDS,
BUDGET_MB, or the case's own) are measured and reported by `bench/hostile.py`, which runs these
tests with DRAFTERLINT_HOSTILE_RECORD set: each run is then appended there as one JSON line.
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

GUARD_SECONDS = 60.0  # a hang, not a slow machine
GUARD_MB = 1024  # a blow-up
BUDGET_SECONDS = 5.0  # per case, on an idle machine: reported by bench/hostile.py
BUDGET_MB = 300
POLL = 0.01

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
    killed: str | None = None  # why the guard stopped it

    @property
    def json(self) -> dict:
        return json.loads(self.stdout)

    def findings(self, code: str | None = None) -> list[dict]:
        return [f for f in self.json["findings"] if code is None or f["code"] == code]


def _rss_mb(pid: int) -> float:
    """Resident memory of one process, from /proc (0 where there is none)."""
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def run_cli(args: list[str], cwd: Path, env: dict | None = None, stdin: bytes | None = None,
            budget: tuple[float, float] = (BUDGET_SECONDS, BUDGET_MB)) -> Run:
    """`budget`: (seconds, MB) this case must meet on an idle machine, for bench/hostile.py."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env.setdefault("DRAFTERLINT_CACHE", str(cwd / ".cache-drafterlint"))
    # git must never reach the network or a prompt from a test
    full_env.update(GIT_TERMINAL_PROMPT="0", GIT_ALLOW_PROTOCOL="file")
    out_path, err_path = cwd / ".stdout", cwd / ".stderr"
    killed = None
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
            if time.perf_counter() - start > GUARD_SECONDS:
                killed = f"still running after {GUARD_SECONDS:.0f} s"
            elif _rss_mb(proc.pid) > GUARD_MB:
                killed = f"over {GUARD_MB} MB"
            if killed:
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(POLL)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    run = Run(
        code=proc.returncode,
        stdout=out_path.read_text(encoding="utf-8", errors="replace"),
        stderr=err_path.read_text(encoding="utf-8", errors="replace"),
        seconds=seconds,
        peak_mb=usage.ru_maxrss / 1024,  # KiB on Linux
        killed=killed,
    )
    _record(args, run, budget)
    return run


def _record(args: list[str], run: Run, budget: tuple[float, float]) -> None:
    target = os.environ.get("DRAFTERLINT_HOSTILE_RECORD")
    if not target:
        return
    case = os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0]
    line = {"case": case, "args": args[:1], "seconds": run.seconds, "peak_mb": run.peak_mb,
            "budget_seconds": budget[0], "budget_mb": budget[1], "code": run.code, "killed": run.killed}
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")


def assert_sane(run: Run, codes: tuple[int, ...] = (0, 1, 2)) -> None:
    """No hang or blow-up, no traceback, an expected exit code, at most one error line."""
    assert run.killed is None, f"killed: {run.killed}"
    assert run.peak_mb < GUARD_MB, f"peak {run.peak_mb:.0f} MB"
    assert "Traceback" not in run.stderr + run.stdout, run.stderr[-2000:]
    assert run.code in codes, (run.code, run.stderr[-500:], run.stdout[-500:])
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
