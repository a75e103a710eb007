"""Network faults in `drafterlint audit`: each against a loopback server written for the test.

The audit runs as a real process (`python -m drafterlint audit`) so that a hang is caught by the
subprocess timeout (a guard of tens of seconds, not a bound) and every output can be searched
for the token: stdout, stderr, the Markdown report and the JSON."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from drafterlint import retrying
from drafterlint.githubapi import MAX_PAGES, GitHubClient, GitHubError
from drafterlint.hub import FOUND, UNKNOWN, HubClient
from tests.helpers import FIXTURES
from tests.helpers import send_json as answer

TOKEN = "ghp_netfault0123456789secret"
HUB_TOKEN = "hf_netfault0123456789secret"
HANG_GUARD = 120  # seconds: only catches a hang
MAX_ANSWER_BYTES = getattr(retrying, "MAX_ANSWER_BYTES", 64 * 2**20)


class Server:
    """A loopback HTTP server answering every request with `behave(handler, server)`.

    `seen`: (method, path, Authorization header) of every request; `sent`: the most body bytes
    written for one request."""

    def __init__(self, behave, host="127.0.0.1"):
        self.behave = behave
        self.seen: list[tuple[str, str, str | None]] = []
        self.sent = 0
        self.closing = threading.Event()  # set when the test is done with the server
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def end_headers(self):
                # every answer ends its connection: say so, or the client's retry may reuse a
                # connection this side is closing (a RemoteDisconnected instead of the answer)
                self.send_header("Connection", "close")
                super().end_headers()

            def _any(self):
                n = int(self.headers.get("Content-Length") or 0)
                if n:
                    self.rfile.read(n)
                server.seen.append((self.command, self.path, self.headers.get("Authorization")))
                try:
                    server.behave(self, server)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client hung up: what a cut-off looks like from here
                self.close_connection = True

            do_GET = do_POST = do_PATCH = _any

        self.httpd = ThreadingHTTPServer((host, 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://{host}:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()




@contextmanager
def silent_listener():
    """Accepts connections (the kernel's backlog) and never answers a byte."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        sock.close()


def run_audit(tmp_path, api_url: str, hub_url: str | None = None, *extra: str):
    """The audit of the example repositories with the tracking issue (and the hub) at the given
    servers. Returns (exit code, every output joined, the JSON document).

    Every server here fails the tracking issue somehow: the run fails with exit 4 (its own
    code, whatever the findings), and the reports are written all the same."""
    out, js = tmp_path / "audit.md", tmp_path / "audit.json"
    argv = [sys.executable, "-m", "drafterlint", "audit",
            "--rules-repo", str(FIXTURES / "example" / "rules"),
            "--registry-repo", str(FIXTURES / "example" / "endpoints"),
            "--today", "2026-12-02", "--output", str(out), "--json", str(js),
            "--cache-dir", str(tmp_path / "cache"), "--open-issue", "o/r", "--github-api-url", api_url,
            *extra]
    if hub_url:
        argv += ["--online", "--hub-api-url", hub_url]
    env = {**os.environ, "GITHUB_TOKEN": TOKEN, "HF_TOKEN": HUB_TOKEN, "DRAFTERLINT_CACHE": str(tmp_path / "dcache")}
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=HANG_GUARD, cwd=tmp_path)
    report = out.read_text() if out.exists() else ""
    raw = js.read_text() if js.exists() else ""
    everything = "\n".join([proc.stdout, proc.stderr, report, raw])
    assert TOKEN not in everything and HUB_TOKEN not in everything
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 4, proc.stderr  # the tracking issue was not updated
    assert "the tracking issue in o/r was not updated" in proc.stderr
    return proc.returncode, everything, json.loads(raw)


def notes(data) -> str:
    return "\n".join(data["audit"]["not_checked"])


# -- (1) a server that accepts and never answers ------------------------------------------------


def test_silent_servers_end_within_the_timeout_and_are_reported(tmp_path):
    with silent_listener() as url:
        _, _, data = run_audit(tmp_path, url, url, "--http-timeout", "0.5")
    said = notes(data)
    assert "tracking issue in o/r" in said and "Timeout" in said
    assert "could not reach the model hub" in said


# -- (2) redirects: the token never reaches another server --------------------------------------


def _redirect_to(target_url):
    def behave(h, _):
        answer(h, 307, b"", {"Location": target_url + h.path})
    return behave


def _catcher(h, _):
    answer(h, 200, b"[]")


@pytest.mark.parametrize("other_host", ["127.0.0.1", "127.0.0.2"], ids=["same-host-other-port", "other-host"])
def test_a_redirect_never_carries_the_token_to_another_server(tmp_path, other_host):
    try:
        catcher = Server(_catcher, host=other_host)
    except OSError:
        pytest.skip(f"{other_host} cannot be bound here")
    with catcher, Server(_redirect_to(catcher.url)) as first:
        run_audit(tmp_path, first.url, first.url)
        assert first.seen  # the API and the hub were asked, with the token for the API
        assert any(auth and TOKEN in auth for _, _, auth in first.seen)
        assert any(auth and HUB_TOKEN in auth for _, _, auth in first.seen)
        assert all(auth is None or (TOKEN not in auth and HUB_TOKEN not in auth) for _, _, auth in catcher.seen)
        # the model hub client with a token of its own: the same
        HubClient(first.url, token=TOKEN, sleep=lambda s: None).revision("orga/m1", "1" * 40)
        assert all(auth is None or TOKEN not in auth for _, _, auth in catcher.seen)


# -- (3) endless pagination ---------------------------------------------------------------------


def test_a_next_link_to_itself_is_read_once_and_reported(tmp_path):
    def behave(h, server):
        answer(h, 200, b"[]", {"Link": f'<{server.url}{h.path}>; rel="next"'})

    with Server(behave) as api:
        _, _, data = run_audit(tmp_path, api.url)
        gets = [p for m, p, _ in api.seen if m == "GET" and p != "/user"]  # who the token is, asked first
    assert len(gets) == 1  # its "next" is the page just read: not asked again
    assert "next page" in notes(data)
    assert not [m for m, _, _ in api.seen if m in ("POST", "PATCH")]  # no duplicate issue made


def test_endless_fresh_pages_are_bounded_and_reported(tmp_path):
    def behave(h, server):
        n = int(h.path.rsplit("page=", 1)[1]) if "page=" in h.path else 1
        answer(h, 200, b"[]", {"Link": f'<{server.url}/repos/o/r/issues?page={n + 1}>; rel="next"'})

    with Server(behave) as api:
        _, _, data = run_audit(tmp_path, api.url)
        gets = [p for m, p, _ in api.seen if m == "GET" and p != "/user"]
    assert len(gets) == MAX_PAGES
    assert f"more than {MAX_PAGES} pages" in notes(data)
    assert not [m for m, _, _ in api.seen if m in ("POST", "PATCH")]


# -- (4) Retry-After far beyond the cap ----------------------------------------------------------


@pytest.mark.parametrize("status", [429, 503])
def test_a_retry_after_of_days_is_not_waited_for(tmp_path, status):
    def behave(h, _):
        answer(h, status, b'{"message": "slow down"}', {"Retry-After": "999999"})

    with Server(behave) as api:
        _, _, data = run_audit(tmp_path, api.url, api.url)
        to_api = [p for _, p, _ in api.seen if p.startswith("/repos/") or p == "/user"]
        to_hub = [p for _, p, _ in api.seen if not (p.startswith("/repos/") or p == "/user")]
    said = notes(data)
    assert "999999" in said and "model hub" in said and "tracking issue in o/r" in said
    assert len(to_api) == len(to_hub) == 1  # no retry after "wait 11 days", and the hub is given up


def test_the_client_caps_the_wait_it_accepts(tmp_path):
    slept: list[float] = []

    def behave(h, _):
        answer(h, 429, b"{}", {"Retry-After": "45"})

    with Server(behave) as api:
        c = GitHubClient(api.url, "o/r", TOKEN, sleep=slept.append, retries=2)
        with pytest.raises(GitHubError) as err:
            c.find_open("someone")
    assert slept == [45.0, 45.0] and "429" in str(err.value) and TOKEN not in str(err.value)


# -- (5) answers larger than the limit -----------------------------------------------------------


def _endless(chunked: bool):
    block = b" " * 65536

    def behave(h, server):
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        if chunked:
            h.send_header("Transfer-Encoding", "chunked")
        else:
            h.send_header("Content-Length", str(100 * MAX_ANSWER_BYTES))
        h.end_headers()
        h.wfile.write(b"1\r\n[\r\n" if chunked else b"[")
        sent = 0
        while sent < 5 * MAX_ANSWER_BYTES:  # a client that reads it all is caught here
            h.wfile.write(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)
            sent += len(block)
            server.sent = max(server.sent, sent)  # the most one request was sent
    return behave


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
def test_a_huge_answer_is_cut_off(tmp_path, chunked):
    with Server(_endless(chunked)) as api:
        _, _, data = run_audit(tmp_path, api.url, api.url)
        sent = api.sent
    said = notes(data)
    assert "larger than" in said and "tracking issue in o/r" in said and "model hub" in said
    assert sent < 4 * MAX_ANSWER_BYTES  # not read to the end


def test_a_lying_small_content_length_is_still_cut(tmp_path):
    """Content-Length is only a hint: the reading stops at the limit whatever it says."""
    with Server(_endless(chunked=True)) as api:
        c = HubClient(api.url, sleep=lambda s: None)
        a = c.json_file("orga/m1", "1" * 40, "config.json")
    assert a.state == UNKNOWN and "larger than" in a.detail


# -- (5b) answers that trickle in ----------------------------------------------------------------


def _trickle(body: bytes, every: float):
    """Headers at once, then the body a byte at a time, one each `every` seconds: each byte
    well within the client's per-read timeout, the whole as slow as `every` makes it."""

    def behave(h, server):
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.flush()
        for i in range(len(body)):
            if server.closing.wait(every):
                return
            h.wfile.write(body[i : i + 1])
            h.wfile.flush()
    return behave


def test_an_answer_that_trickles_in_is_cut_at_its_deadline(tmp_path):
    # 0.5 s per read, so 2.5 s for a whole answer; this one would take 60 s for each of the
    # audit's requests.
    with Server(_trickle(b"[" + b" " * 598 + b"]", every=0.1)) as api:
        _, _, data = run_audit(tmp_path, api.url, api.url, "--http-timeout", "0.5")
        hub_asked = sum(1 for _, path, _ in api.seen if not (path.startswith("/repos/") or path == "/user"))
    said = notes(data)
    assert "tracking issue in o/r" in said and "not complete within 2.5 s" in said
    assert "the model hub is too slow" in said
    assert hub_asked == 1  # a hub too slow once is not asked again for every checkpoint


def test_the_deadline_does_not_cut_an_answer_that_keeps_within_it():
    body = b'{"model_type": "' + b"m" * 40 + b'"}'
    with Server(_trickle(body, every=0.01)) as api:  # about 0.6 s in all, 2.5 s allowed
        c = HubClient(api.url, timeout=0.5, sleep=lambda s: None)
        a = c.json_file("orga/m1", "1" * 40, "config.json")
    assert a.state == FOUND and a.data == {"model_type": "m" * 40}


# -- (6) invalid JSON ----------------------------------------------------------------------------


def test_invalid_json_is_reported_without_a_traceback(tmp_path):
    def behave(h, _):
        if h.command == "GET":  # the list is fine (no issue yet): the audit creates one
            return answer(h, 200, b"[]")
        return answer(h, 201, b"{not json")

    with Server(behave) as api:
        _, said, _ = run_audit(tmp_path, api.url)  # the update comes after the reports: in the log
        posted = [m for m, _, _ in api.seen if m == "POST"]
    assert posted and "not JSON" in said


def test_an_invalid_issue_list_is_reported(tmp_path):
    with Server(lambda h, _: answer(h, 200, b"<html>")) as api:
        _, _, data = run_audit(tmp_path, api.url, api.url)
    assert "not JSON" in notes(data)
