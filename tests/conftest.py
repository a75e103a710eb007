"""Fixtures the tests share, and the hypothesis profiles. The helpers the tests import are in
tests/helpers/; the markers (`slow`, `network`: left out of the default run) are registered in
pyproject.toml."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from tests.helpers import ACTION_ENTRY, ACTION_INPUTS, FakeAPI, make_handler, run_engine

# Hypothesis fails an example that takes over 200 ms by default: a wall-clock assertion that a
# busy machine trips. No test here asserts time (bench/ measures it). The default run draws the
# same examples every time, in CI or not, and replays no local database of earlier finds: a red
# run is the change's doing, and anyone's run of the same commit gives the same result. New
# examples are drawn by the slow set's twins (tests/helpers/properties.py); what they find is
# kept as explicit examples or in tests/helpers/gfm_regressions.py.
settings.register_profile("drafterlint", deadline=None, derandomize=True, database=None)
settings.load_profile("drafterlint")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Every test gets its own empty cache directory, inherited by the processes it starts: no
    test reads or fills the user's real ~/.cache/drafterlint, and no test sees another's entries
    (so the order tests run in cannot change what they see)."""
    home = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("DRAFTERLINT_CACHE", str(home / "drafterlint"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("DRAFTERLINT_NO_CACHE", raising=False)
    # The default format follows the place (drafterlint.cli.default_format): a test that wants
    # another sets it, so the suite reads the same under GitHub Actions as on a laptop.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("DRAFTERLINT_FORMAT", raising=False)
    monkeypatch.delenv("DRAFTERLINT_ACTION", raising=False)


@pytest.fixture
def engine(tmp_path):
    def _run(files, config_overrides=None, **kw):
        return run_engine(files, tmp_path, config_overrides, **kw)

    return _run


@pytest.fixture
def cli(monkeypatch, capsys):
    """Run the real CLI in-process; returns (exit code, stdout, stderr)."""
    from drafterlint.cli import main

    def _run(*argv, cwd: Path | None = None):
        if cwd is not None:
            monkeypatch.chdir(cwd)
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return _run


@pytest.fixture
def fake_api():
    """A real HTTP server on 127.0.0.1 (a thread) playing GitHub's issues API and the model hub.
    It stops at the end of the test, and on its own after two minutes at the latest."""
    import threading
    from http.server import ThreadingHTTPServer

    api = FakeAPI()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(api))
    server.daemon_threads = True
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    guard = threading.Timer(120, server.shutdown)
    guard.daemon = True
    guard.start()
    try:
        yield api
    finally:
        api.release.set()
        guard.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# -- the GitHub Action's entry script run as a runner runs it (test_action, test_injection) -------


@pytest.fixture
def runner(tmp_path):
    """A fake runner: workspace, temp, output and summary files; returns run(inputs) -> result."""
    ws = tmp_path / "workspace"
    ws.mkdir()
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    output = tmp_path / "github_output"
    summary = tmp_path / "step_summary.md"
    output.write_text("")
    summary.write_text("")

    def run(inputs: dict[str, str], *, extra_env: dict | None = None, what: str = "run"):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("INPUT_", "GITHUB_", "DRAFTERLINT_"))}
        env.update(
            GITHUB_WORKSPACE=str(ws), GITHUB_OUTPUT=str(output), GITHUB_STEP_SUMMARY=str(summary),
            RUNNER_TEMP=str(temp), XDG_CACHE_HOME=str(tmp_path / "xdg"),
            DRAFTERLINT_COMMAND=f"{sys.executable} -m drafterlint",
        )
        for name in ACTION_INPUTS:  # the runner passes every input, empty when not given
            env["INPUT_" + name.replace("-", "_").upper()] = inputs.get(name, "")
        env.setdefault("INPUT_FAIL_ON", "error")
        if not inputs.get("fail-on"):
            env["INPUT_FAIL_ON"] = "error"
        if not inputs.get("format"):
            env["INPUT_FORMAT"] = "github"
        env.update(extra_env or {})
        proc = subprocess.run([sys.executable, str(ACTION_ENTRY), what], cwd=ws, env=env,
                              capture_output=True, text=True, timeout=300)
        return proc

    run.workspace, run.output, run.summary, run.temp = ws, output, summary, temp
    return run
