"""The weekly audit always writes its report, its tracking issue shows it, and every failure is
loud (issue 25). Each answer here comes from a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import re
import shutil
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from drafterlint import auditstate
from drafterlint.githubapi import MARKER, MAX_BODY
from tests.helpers import EXAMPLE_CATALOG, FIXTURES, example_git_repos, git_commit_all

RULES = FIXTURES / "example" / "rules"
REGISTRY = FIXTURES / "example" / "endpoints"
CAT = EXAMPLE_CATALOG
TODAY = "2026-12-02"
TOKEN = "ghp_always0123456789report"


@contextmanager
def same_answer(status: int, body: bytes, headers: dict | None = None):
    """A server that answers every request alike: the malformed answer under test."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def _any(self):
            n = int(self.headers.get("Content-Length") or 0)
            if n:
                self.rfile.read(n)
            self.send_response(status)
            for k, v in {"Content-Type": "application/json", "Content-Length": str(len(body)),
                         "Connection": "close", **(headers or {})}.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PATCH = _any

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def run(cli, tmp_path, *extra, rules=RULES, registry=REGISTRY):
    out, js = tmp_path / "audit.md", tmp_path / "audit.json"
    code, stdout, stderr = cli("audit", "--rules-repo", rules, "--registry-repo", registry, "--today", TODAY,
                               "--output", out, "--json", js, "--cache-dir", tmp_path / "cache",
                               "--http-timeout", "5", *extra)
    assert "Traceback" not in stderr
    text = out.read_text() if out.exists() else None
    data = json.loads(js.read_text()) if js.exists() else None
    return code, text, data, stdout + stderr


MARK = MARKER.encode()
API_CASES = {
    "issue list nested 100,000 deep": (200, b"[" * 100_000 + b"]" * 100_000, None, "nested too deeply"),
    "issue whose body is a number": (200, b'[{"number": 1, "body": 5}]', None, "'body' is a number"),
    "tracking issue without a number": (200, b'[{"body": "' + MARK + b'"}]', None, "has no 'number'"),
    'tracking issue number "abc"': (200, b'[{"number": "abc", "body": "' + MARK + b'"}]', None,
                                    "'number' is a string"),
    "tracking issue number true": (200, b'[{"number": true, "body": "' + MARK + b'"}]', None,
                                   "'number' is true or false"),
    "tracking issue number 0": (200, b'[{"number": 0, "body": "' + MARK + b'"}]', None, "'number' is 0"),
    "an object where the list belongs": (200, b'{"items": []}', None, "is a JSON object, not a JSON list"),
    "403 rate limit, X-RateLimit-Reset: \u00b9\u00b2": (
        403, b'{"message": "rate"}', {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "\u00b9\u00b2"},
        "X-RateLimit-Reset '\u00b9\u00b2' is not a number of seconds"),
    "429, Retry-After: \u00b2": (429, b"{}", {"Retry-After": "\u00b2"}, "Retry-After '\u00b2' is neither"),
    "403 rate limit, a reset of 5,000 digits": (
        403, b"{}", {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "9" * 5000}, "is not a number of seconds"),
}


@pytest.mark.parametrize("case", list(API_CASES))
def test_a_malformed_issue_api_answer_is_could_not_check_and_exit_4(cli, tmp_path, monkeypatch, case):
    status, body, headers, reason = API_CASES[case]
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    with same_answer(status, body, headers) as url:
        code, text, data, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", url)
    assert code == 4, said
    assert text is not None and data is not None  # both reports, whatever the answer
    assert any("tracking issue in o/r" in n and reason in n for n in data["audit"]["not_checked"]), data["audit"]
    assert reason in text
    assert "the tracking issue in o/r was not updated" in said.splitlines()[-1]
    assert data["findings"]  # the audit itself ran: the offline findings are all there


HUB_CASES = {
    "hub: config.json nested 100,000 deep": (200, b'{"a":' * 100_000 + b"1" + b"}" * 100_000, None,
                                             "config.json is nested too deeply"),
    "hub: 503 with Retry-After: \u00b2": (503, b"{}", {"Retry-After": "\u00b2"}, "Retry-After '\u00b2' is neither"),
    "hub: config.json is a list": (200, b"[1, 2]", None, "config.json is a JSON list, not a JSON object"),
    "hub: config.json is not UTF-8": (200, b'{"a": "\xff"}', None, "config.json is not JSON"),
}


@pytest.mark.parametrize("case", list(HUB_CASES))
def test_a_malformed_hub_answer_is_could_not_check(cli, tmp_path, case):
    status, body, headers, reason = HUB_CASES[case]
    with same_answer(status, body, headers) as url:
        code, text, data, said = run(cli, tmp_path, "--online", "--hub-api-url", url)
    assert code == 1, said  # the example's findings decide: the hub's answer is no failure
    assert text is not None and data is not None
    assert any(reason in n for n in data["audit"]["not_checked"]), data["audit"]["not_checked"]
    assert "internal error" not in said and not data["audit"]["rules_failed"]


# -- failures of the tracking issue: exit 4, whatever --exit-zero says ---------------------------


def test_a_401_fails_the_run_even_with_exit_zero_and_says_what_to_fix(cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_not_the_right_token_at_all")
    code, text, data, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url,
                                 "--exit-zero")
    assert code == 4
    last = said.splitlines()[-1]
    assert "HTTP 401" in last and "to fix: GITHUB_TOKEN was refused" in last
    assert text is not None and data is not None and not fake_api.issues


def test_a_missing_token_fails_the_run(cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    code, text, _, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url, "--exit-zero")
    assert code == 4 and text is not None
    assert "GITHUB_TOKEN is not set" in said.splitlines()[-1] and "issues: write" in said.splitlines()[-1]


def test_a_refused_connection_fails_the_run_and_names_the_url(cli, tmp_path, monkeypatch):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    # the retries of a refused connection wait 1, 2, 4 s: not in a test
    monkeypatch.setattr("drafterlint.retrying.RetryPolicy.backoff_delay", lambda self, attempt: 0.0)
    code, text, _, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", url, "--exit-zero")
    assert code == 4 and text is not None
    last = said.splitlines()[-1]
    # what to do first, then the cause in one clause (not urllib3's pool, retry and socket reprs)
    assert last.startswith("drafterlint: error: the tracking issue in o/r was not updated; to fix: "
                           f"check --github-api-url {url} (and the network) (cause: GET {url}/")
    assert last.endswith(": ConnectionError: Connection refused)") and len(last) < 300, last


def test_a_short_token_is_refused_in_one_line_and_never_used(cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "x")
    code, text, _, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url)
    assert code == 4 and text is not None
    refusals = [ln for ln in said.splitlines() if "too short for a token" in ln]
    assert refusals[0] == "drafterlint: GITHUB_TOKEN is 1 characters long, too short for a token (at least 8): not used"
    assert all(auth is None for auth in fake_api.auth_seen)  # read without it, never sent
    # a one-letter token blanks nothing: "Max retries exceeded" stays whole wherever it shows
    assert "***" not in said + text


@pytest.mark.parametrize("tail", ["\n", "\r", "\r\n", "\t"], ids=["LF", "CR", "CRLF", "TAB"])
def test_a_token_holding_a_control_character_is_refused_at_the_start_and_never_shown(
        cli, tmp_path, fake_api, monkeypatch, tail):
    # A secret saved with the line break it was pasted with: requests would refuse the header
    # and quote it whole (escaped) in its message.
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN + tail)
    code, text, data, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url)
    assert code == 4 and text is not None and data is not None
    refusal = ("drafterlint: GITHUB_TOKEN holds a character no token has (a control character such as a line "
               "break saved with the secret, or one outside ASCII): not used; set it again without")
    assert said.count(refusal) == 1
    assert all(auth is None for auth in fake_api.auth_seen)  # never sent
    everything = said + text + json.dumps(data)
    assert fake_api.TOKEN not in everything and fake_api.TOKEN[:12] not in everything


def test_a_refused_token_is_said_before_anything_is_brought(cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN + "\n")
    code, _, _, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url,
                           rules=tmp_path / "no-such-rules")
    assert code == 3  # the repository could not be brought; the token was judged before
    assert said.splitlines()[0].startswith("drafterlint: GITHUB_TOKEN holds a character no token has")


def test_a_model_hub_token_with_a_line_break_is_refused_in_one_line(cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", fake_api.hub_token + "\n")
    code, text, _, said = run(cli, tmp_path, "--online", "--hub-api-url", fake_api.url)
    assert code == 1 and text is not None
    assert "drafterlint: HF_TOKEN holds a character no token has" in said
    assert all(auth is None for auth in fake_api.hub_auth_seen)
    assert fake_api.hub_token not in said + text


def test_the_audits_tokens_are_masked_in_every_line_and_file_it_writes(cli, tmp_path, fake_api, monkeypatch):
    # The rules text links to a file named like the token: the finding quotes it, in the log, the
    # Markdown, the JSON and the tracking issue. The token is set with a line break at its end
    # (refused, so never sent), and still masked in its raw and its escaped form.
    token = "ghp_quotedbytherules0123456789"
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    (rules / "endpoints_rules.md").write_text((RULES / "endpoints_rules.md").read_text()
                                              + f"\nSee [the notes]({token}.md) and `{token}\\n`.\n")
    monkeypatch.setenv("GITHUB_TOKEN", token + "\n")
    monkeypatch.setenv("HF_TOKEN", fake_api.hub_token)
    sarif = tmp_path / "audit.sarif"
    code, text, data, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url,
                                 "--report", f"sarif={sarif}", "--exit-zero", rules=rules)
    assert code == 4 and text is not None and data is not None
    everything = "\n".join([said, text, json.dumps(data), sarif.read_text()])
    assert token not in everything
    assert "***.md" in text and any("***.md" in f["message"] for f in data["findings"])


def test_a_token_is_sent_only_over_https(cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    code, text, _, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", "http://api.github.invalid")
    assert code == 2 and text is None  # refused before anything was brought or written
    assert said.strip() == ("drafterlint: --github-api-url http://api.github.invalid: a token is sent only over "
                            "https (plain http only to this machine, for a test server); give the https address")
    monkeypatch.setenv("HF_TOKEN", fake_api.hub_token)
    code, _, _, said = run(cli, tmp_path, "--online", "--hub-api-url", "http://hub.invalid")
    assert code == 2 and "--hub-api-url http://hub.invalid: a token is sent only over https" in said


@pytest.mark.parametrize("url, refused", [
    ("https://api.github.com", False), ("https://ghe.example/api/v3", False), ("http://127.0.0.1:8080", False),
    ("http://localhost:1", False), ("http://[::1]:1", False), ("http://127.0.0.2", False),
    ("http://api.github.com", True), ("http://10.0.0.1", True), ("HTTP://example.com", True),
    ("ftp://127.0.0.1", True), ("http://localhost.example.com", True),
])
def test_which_addresses_may_carry_a_token(url, refused):
    from drafterlint.githubapi import token_transport_problem

    assert bool(token_transport_problem(url, "--github-api-url")) is refused


def test_the_message_requests_gives_for_a_token_with_a_line_break_is_masked():
    # requests' own refusal of the header, which quotes it escaped (repr): the form the log held.
    import requests

    from drafterlint.githubapi import scrub

    token = "ghp_headervalue0123456789"
    with pytest.raises(requests.exceptions.InvalidHeader) as refused:
        requests.Request("GET", "http://127.0.0.1:9", headers={"Authorization": f"Bearer {token}\n"}).prepare()
    assert token in str(refused.value)
    assert token not in scrub(str(refused.value), token + "\n")


def test_redaction_replaces_whole_tokens_only():
    from drafterlint.githubapi import scrub

    assert scrub("Max retries exceeded", "x") == "Max retries exceeded"
    assert scrub("Bearer ghp_abcdefgh1234 and ghp_abcdefgh1234.", "ghp_abcdefgh1234") == "Bearer *** and ***."
    assert scrub("url?token=ghp_abcdefgh1234&x=1", "ghp_abcdefgh1234") == "url?token=***&x=1"
    assert scrub("ghp_abcdefgh12345", "ghp_abcdefgh1234") == "ghp_abcdefgh12345"  # another token


# -- a rule that crashes -------------------------------------------------------------------------


def test_a_crashing_rule_still_leaves_both_reports_naming_it(cli, tmp_path, fake_api, monkeypatch):
    """A bug in a rule (stood in for by a check that raises) is named in the report, the other
    rules' findings are all there, and the tracking issue is left as it was."""
    from drafterlint.checks.base import all_rules

    rule = next(r for r in all_rules() if r.RULE.code == "DL201")

    def broken(ctx):
        raise KeyError("a bug")

    monkeypatch.setattr(rule, "check", broken)
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    number = fake_api.add_issue("drafterlint audit: last week", f"{MARKER}\nlast week's report")
    code, text, data, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url,
                                 "--exit-zero")
    assert code == 2
    assert "**A rule failed**" in text and "DL201 broken-fragment: KeyError" in text
    assert data["audit"]["rules_failed"] == ["DL201 broken-fragment: KeyError: 'a bug'"]
    assert not any(f["code"] == "DL201" for f in data["findings"])
    assert {"DL202", "DL205"} <= {f["code"] for f in data["findings"]}  # the others ran
    assert "internal error in rule DL201" in said
    assert fake_api.issues[number]["body"] == f"{MARKER}\nlast week's report"  # untouched
    assert not [m for m, _ in fake_api.log if m in ("POST", "PATCH")]


# -- the tracking issue shows the report ---------------------------------------------------------


def _rev(i: int) -> str:
    return "ab" * 19 + f"{i:02x}"  # 40 hex digits that YAML does not read as a number


def _many_findings(tmp_path, *, heads: int, links: int):
    """The example repositories as git repositories, with `heads` extra backdated heads (DL403:
    decisions) and `links` broken links (DL201: housekeeping)."""
    extra = "".join(f"    - model: atlas-30b\n      repository: quickdraft/Atlas-30B-Extra{i}\n"
                    f"      revision: {_rev(i)}\n      approved_cohort: 2026-09-C1\n      method: eagle\n"
                    for i in range(1, heads + 1))
    notes = "\n## 10. Notes\n\n" + "".join(f"See [note {i}](#missing-note-number-{i}) for the details of case {i}.\n\n"
                                         for i in range(links))
    return example_git_repos(
        tmp_path, rules_doc=lambda text: text + notes,
        catalog=lambda text: text.replace("  approved_spec_decode_heads:\n", "  approved_spec_decode_heads:\n" + extra))


def _hidden_state(body: str) -> str:
    m = re.search(r"<!-- drafterlint-audit-state:2 [A-Za-z0-9+/=]+ -->", body)
    assert m, body[:300]
    return m.group(0)


def test_two_audits_keep_one_issue_whose_body_is_the_report(cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    fake_api.add_issue("someone else's", "not ours")
    rules, registry = _many_findings(tmp_path, heads=12, links=45)
    args = ("--open-issue", "o/r", "--github-api-url", fake_api.url)
    code, text, first, _ = run(cli, tmp_path, *args, rules=rules, registry=registry)
    assert code == 1 and 75 <= len(first["findings"]) <= 95
    # A week later: two heads fixed, three new broken links.
    cat = registry / CAT
    text = cat.read_text()
    for i in (1, 2):
        entry = f"Extra{i}\n      revision: {_rev(i)}\n      approved_cohort: "
        text = text.replace(entry + "2026-09-C1", entry + "2026-10-C0")
    cat.write_text(text)
    git_commit_all(registry, "2026-11-01", "fix two approvals")
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text() + "".join(f"And [new {i}](#new-gone-{i}).\n\n" for i in range(3)))
    git_commit_all(rules, "2026-11-02", "three more links")
    code, text, second, said = run(cli, tmp_path, *args, rules=rules, registry=registry)
    assert code == 1, said

    ours = [i for i in fake_api.issues.values() if MARKER in i["body"]]
    assert len(ours) == 1  # one tracking issue, updated
    issue = ours[0]
    body = issue["body"]
    state = _hidden_state(body)
    assert len(body) <= MAX_BODY and len(state) <= 0.10 * len(body), (len(state), len(body))
    visible = body.replace(state, "").replace(MARKER, "")
    n = sum(1 for f in second["findings"] if f["severity"] == "error" and f["code"].startswith(("DL4", "DL5", "DL6", "DL8")))
    # The title and the verdict line say how many need a decision.
    assert issue["title"].startswith(f"drafterlint audit: {n} need a decision")
    verdict = next(line for line in visible.splitlines() if line.startswith("❌"))
    assert f"**{n} need a decision**" in verdict
    assert visible.index(verdict) < 300  # the first thing under the title
    # "Needs a decision" in full: every DL403, shown or folded.
    section = visible.split("## Needs a decision", 1)[1].split("\n## ", 1)[0]
    assert len(re.findall(r"^\d+\. \*\*DL[4-8]\d\d", section, re.M)) == n
    # What changed, compared with the state the first audit left in the issue.
    assert second["audit"]["changes"]["previous"].startswith("the tracking issue #")
    assert "**3 new**, **2 fixed**" in visible
    assert "### Fixed" in visible and "quickdraft/Atlas-30B-Extra1@" in visible.split("### Fixed", 1)[1]
    # The timeline, red where a head has an error.
    assert "## Cohort timeline" in visible and ":crit, h0a" in visible
    (tmp_path / "issue-body.md").write_text(body)  # to look at, when this fails
    # What did not fit is said, with where the full report is.
    if len(text) > MAX_BODY - auditstate.MAX_CHARS:
        assert "the full report is in the audit's report files (audit.md, audit.json)" in visible
        assert re.search(r"_\d+ more (findings|housekeeping findings) are in the full report\._", visible)


def test_state_round_trip_and_budget():
    from drafterlint.findings import Finding, Location, Severity

    findings = [Finding(code="DL201", name="broken-fragment", severity=Severity.ERROR,
                        location=Location("rules", f"doc{i % 3}.md", i + 1, 1), message=f"no anchor #gone-{i} " * 8,
                        key=f"k{i}")
                for i in range(300)]
    roomy = auditstate.comment(findings, 100_000)
    state, why = auditstate.read(f"{MARKER}\n{roomy}\nmore", MARKER)
    assert why == "" and state is not None and not state.partial
    assert [i["fingerprint"] for i in state.items] == [f.fingerprint for f in findings]
    assert state.items[5]["path"] == "doc2.md" and state.items[5]["line"] == 6
    assert state.items[5]["message"] == findings[5].message[:auditstate.MESSAGE_CHARS - 1] + "…"
    tight = auditstate.comment(findings, 2000)
    assert len(tight) <= 2000
    state, _ = auditstate.read(f"{MARKER}\n{tight}", MARKER)
    assert state is not None and state.partial and state.total == 300
    assert state.items[0]["message"] == ""  # messages go first, then the last findings
    assert [i["fingerprint"] for i in state.items] == [f.fingerprint for f in findings[: len(state.items)]]
    assert auditstate.budget(60_000) == auditstate.MAX_CHARS and auditstate.budget(9_000) == 1000


@pytest.mark.parametrize("body, why", [
    ("no state here", "holds no audit state"),
    ("<!-- drafterlint-audit-state:2 !!!! -->", "holds no audit state"),
    ("<!-- drafterlint-audit-state:2 AAAA -->", "cannot be read"),
    (None, "has no body"),
])
def test_a_damaged_state_is_no_previous_audit_with_the_reason(body, why):
    state, said = auditstate.read(body if body is None else f"{MARKER}\n{body}", MARKER)
    assert state is None and why in said


def test_a_state_that_inflates_beyond_the_bound_is_refused():
    import base64
    import zlib

    bomb = base64.b64encode(zlib.compress(b"[" + b" " * (auditstate.MAX_DECODED + 10) + b"]", 9)).decode()
    state, said = auditstate.read(f"{MARKER}\n<!-- drafterlint-audit-state:2 {bomb} -->", MARKER)
    assert state is None and "larger than" in said


def test_the_first_state_format_is_still_read():
    import base64

    items = [{"fingerprint": "0123456789abcdef", "code": "DL201", "path": "a.md", "line": 3, "message": "m"}]
    blob = base64.b64encode(json.dumps(items).encode()).decode()
    state, _ = auditstate.read(f"{MARKER}\n<!-- drafterlint-audit-state {blob} -->\nthe report", MARKER)
    assert state is not None and state.items == items


# -- the tracking issue is the audit's own ------------------------------------------------------


def _state(rows: list[list], paths=("endpoints_rules.md",)) -> str:
    """A state comment as the audit writes it (format 2), listing `rows`."""
    import base64
    import zlib

    raw = json.dumps({"v": 2, "n": len(rows), "p": list(paths), "f": rows}).encode()
    return f"<!-- drafterlint-audit-state:2 {base64.b64encode(zlib.compress(raw)).decode()} -->"


FORGED = [["0123456789abcdef", "DL999", 0, 1, "fixed by [the patch](https://phish.example/login) ![](https://t.example/p.png)"]]


def _writes(api) -> list[tuple[str, str]]:
    return [(m, p) for m, p in api.log if m in ("POST", "PATCH")]


@pytest.mark.parametrize("forged_by, body", [
    ("mallory", f"Question about the rules {MARKER}\n{_state(FORGED)}"),  # the marker quoted in a stranger's text
    ("mallory", f"{MARKER}\n{_state(FORGED)}\nlast week's report"),  # a stranger's copy of the whole body
    (None, f"> {MARKER}\n{_state(FORGED)}"),  # by the audit's identity, but the marker does not open it
], ids=["quoted", "copied", "not-first"])
def test_an_issue_that_is_not_the_audits_own_is_never_written_nor_read(cli, tmp_path, fake_api, monkeypatch,
                                                                       forged_by, body):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    args = ("--open-issue", "o/r", "--github-api-url", fake_api.url)
    _, _, first, _ = run(cli, tmp_path, *args)
    (own,) = fake_api.issues
    forged = fake_api.add_issue("drafterlint audit: all fixed", body, author=forged_by)  # newer: listed first
    del fake_api.log[:]
    code, text, data, said = run(cli, tmp_path, *args)
    assert code == 1, said
    assert _writes(fake_api) == [("PATCH", f"/repos/o/r/issues/{own}")]
    assert fake_api.issues[forged]["body"] == body  # untouched
    assert data["audit"]["changes"]["previous"] == f"the tracking issue #{own}"
    assert len(data["audit"]["changes"]["still_open"]) == len(first["findings"])
    assert "DL999" not in text + json.dumps(data) and "phish.example" not in text + fake_api.issues[own]["body"]
    assert (f"drafterlint: holding the audit's marker but not its tracking issue (not opened by {fake_api.writer} "
            f"with the marker first), so never written nor read: #{forged}") in said.splitlines()


def test_of_two_issues_of_its_own_the_oldest_is_the_tracking_issue_and_the_run_says_so(
        cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    oldest = fake_api.add_issue("drafterlint audit: earlier", f"{MARKER}\n{_state([])}\nthe first report")
    newer = fake_api.add_issue("drafterlint audit: later", f"{MARKER}\n{_state([])}\na second one")
    for i in range(3):  # more pages: the oldest comes last (2 per page)
        fake_api.add_issue(f"other {i}", "no marker")
    code, _, data, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url)
    assert code == 1, said
    assert _writes(fake_api) == [("PATCH", f"/repos/o/r/issues/{oldest}")]
    assert data["audit"]["changes"]["previous"] == f"the tracking issue #{oldest}"
    assert (f"drafterlint: more than one open issue is the audit's own ({fake_api.writer}): the oldest, #{oldest}, "
            f"is the tracking issue; left as they are: #{newer}") in said.splitlines()


def test_the_actions_token_keeps_the_issue_the_actions_bot_wrote(cli, tmp_path, fake_api, monkeypatch):
    # GET /user is refused to the Actions token (403): it writes as github-actions[bot]. An issue
    # a person opened with the marker first is not the audit's.
    fake_api.login = None
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    ours = fake_api.add_issue("drafterlint audit: last week", f"{MARKER}\n{_state([])}\nreport")
    theirs = fake_api.add_issue("copy", f"{MARKER}\n{_state(FORGED)}\nreport", author="a-maintainer")
    code, _, _, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url)
    assert code == 1, said
    assert fake_api.issues[ours]["user"]["login"] == "github-actions[bot]"
    assert _writes(fake_api) == [("PATCH", f"/repos/o/r/issues/{ours}")]
    assert f"never written nor read: #{theirs}" in said


def test_an_answer_naming_no_user_leaves_the_actions_bot_as_the_only_author_trusted(cli, tmp_path, fake_api,
                                                                                     monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    fake_api.fail.append(("GET", "/user", 200, {}))  # 200 {"message": ...}: no login
    bot = fake_api.add_issue("drafterlint audit: last week", f"{MARKER}\n{_state([])}\nreport",
                             author="github-actions[bot]")
    person = fake_api.add_issue("drafterlint audit: a copy", f"{MARKER}\n{_state(FORGED)}\nreport")
    code, _, _, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url)
    assert code == 1, said
    assert _writes(fake_api) == [("PATCH", f"/repos/o/r/issues/{bot}")]
    assert any(line.startswith("drafterlint: GET /user named no user (") and line.endswith(
        "the tracking issue is the one github-actions[bot] wrote") for line in said.splitlines()), said
    assert f"never written nor read: #{person}" in said


def test_the_state_is_read_only_where_the_audit_writes_it(cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    # The audit's own issue, edited: the state moved below a line of text (as a quote would put it).
    fake_api.add_issue("drafterlint audit: last week", f"{MARKER}\nan edit\n{_state(FORGED)}")
    code, text, data, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url)
    assert code == 1, said
    assert data["audit"]["changes"] is None and "DL999" not in text
    assert any("holds a state only where the audit does not write it" in n for n in data["audit"]["not_checked"])


def test_findings_of_the_state_the_audit_could_not_have_written_are_left_out_in_one_line(
        cli, tmp_path, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    real = ["fedcba9876543210", "DL201", 0, 4, "no anchor #gone"]
    rows = [real, *FORGED, ["not-a-fingerprint", "DL201", 0, 1, "x"], ["0123456789abcdef", "DL201", 0, -1, "x"],
            ["0123456789abcdee", "DL201", 0, 1, "m" * 500]]
    number = fake_api.add_issue("drafterlint audit: last week", f"{MARKER}\n{_state(rows)}\nreport")
    code, text, data, said = run(cli, tmp_path, "--open-issue", "o/r", "--github-api-url", fake_api.url)
    assert code == 1, said
    assert [f["fingerprint"] for f in data["audit"]["changes"]["fixed"]] == ["fedcba9876543210"]
    assert "DL999" not in text and "phish.example" not in text
    assert said.count("left out") == 1
    assert (f"drafterlint: the tracking issue #{number}: 4 of the 5 findings the previous audit's state lists are "
            "none the audit writes (an unknown rule code, a fingerprint not of 16 hex digits, or a path, line or "
            "message past its sizes): left out") in said.splitlines()


# -- the command line ----------------------------------------------------------------------------


def test_every_audit_option_is_described_in_help():
    import argparse

    from drafterlint.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    audit = sub.choices["audit"]
    bare = [a.option_strings for a in audit._actions if a.option_strings and not a.help]
    assert bare == []
    assert "4  the tracking issue" in audit.format_help()


# -- the example weekly workflow fails on exit 4 -------------------------------------------------


def _audit_step_script() -> str:
    import yaml

    from tests.helpers import ROOT

    workflow = yaml.safe_load((ROOT / "examples" / "workflows" / "weekly-audit.yml").read_text())
    steps = workflow["jobs"]["audit"]["steps"]
    return next(s["run"] for s in steps if s.get("id") == "audit")


@pytest.mark.parametrize("token, step_fails", [("ghp_not_the_right_token_at_all", True), (None, False)])
def test_the_example_workflow_step_fails_when_the_issue_is_not_updated(tmp_path, fake_api, token, step_fails):
    """The workflow's own Audit step, run by bash as the runner runs it, with `drafterlint` a
    shim that runs the real audit of the example repositories against the loopback API (the
    workflow's arguments name github.com, which tests never reach; they are kept and parsed)."""
    import os
    import subprocess
    import sys

    from drafterlint.cli import build_parser

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "drafterlint"
    args_seen = tmp_path / "args"
    shim.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$@" > "{args_seen}"\n'
        f'exec "{sys.executable}" -m drafterlint audit --rules-repo "{RULES}" --registry-repo "{REGISTRY}" '
        f'--today {TODAY} --output audit.md --json audit.json --cache-dir "{tmp_path / "cache"}" '
        f'--exit-zero --open-issue o/r --github-api-url "{fake_api.url}"\n')
    shim.chmod(0o755)
    output = tmp_path / "github_output"
    output.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env['PATH']}", GITHUB_OUTPUT=str(output), TODAY="",
               REPOSITORY="o/r", HF_TOKEN="")
    if token:
        env["GITHUB_TOKEN"] = token
    else:  # the right token: the issue is made, and findings alone do not fail the step
        env["GITHUB_TOKEN"] = fake_api.TOKEN
    step = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _audit_step_script()],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    code = int(output.read_text().split("exit-code=")[1])
    build_parser().parse_args(args_seen.read_text().split())  # the workflow's flags exist
    assert (tmp_path / "audit.md").exists()
    if step_fails:
        assert code == 4 and step.returncode == 4, step.stderr
        assert "to fix: GITHUB_TOKEN was refused" in step.stderr
    else:
        assert code == 0 and step.returncode == 0, step.stderr  # --exit-zero: findings are news
        assert len(fake_api.issues) == 1


@pytest.mark.parametrize("content, why", [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"findings": [{"fingerprint": ["a"]}]}', "'fingerprint' is a JSON list, not a string"),
    (b'{"findings": {}}', "'findings' is a JSON object, not a JSON list"),
    (b"\xff\xfe", "not JSON"),
])
def test_a_damaged_previous_report_is_nothing_to_compare_with(cli, tmp_path, content, why):
    previous = tmp_path / "previous.json"
    previous.write_bytes(content)
    code, text, data, said = run(cli, tmp_path, "--previous", previous)
    assert code == 1 and text is not None and data["audit"]["changes"] is None
    assert any(why in n for n in data["audit"]["not_checked"]), data["audit"]["not_checked"]
