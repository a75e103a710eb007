"""The tracking-issue client against a real HTTP server on loopback."""

from __future__ import annotations

import pytest

from drafterlint.githubapi import MARKER, GitHubClient, GitHubError, fit_body, scrub, sync_issue


def client(api, **kw):
    slept: list[float] = []
    c = GitHubClient(api.url, "o/r", api.TOKEN, sleep=slept.append, **kw)
    return c, slept


def test_finds_the_marked_issue_on_a_later_page(fake_api):
    target = fake_api.add_issue("ours", f"{MARKER}\nreport")
    for i in range(5):  # newer issues come first: ours is on the last page (2 per page)
        fake_api.add_issue(f"other {i}", "no marker")
    fake_api.add_issue("a pull request", MARKER, pull_request=True)
    c, _ = client(fake_api)
    found = c.find_open(fake_api.writer).own
    assert found is not None and found["number"] == target
    pages = [p for m, p in fake_api.log if m == "GET"]
    assert len(pages) == 4  # 7 open items, 2 per page, followed by Link rel="next"


def test_closed_issues_are_not_found(fake_api):
    fake_api.add_issue("old", MARKER, state="closed")
    c, _ = client(fake_api)
    assert c.find_open(fake_api.writer).own is None


def test_create_then_update_then_close(fake_api):
    c, _ = client(fake_api)
    first = sync_issue(c, title="t1", body="findings", clean=False, close_comment="clean")
    assert first.action == "created"
    second = sync_issue(c, title="t2", body="more findings", clean=False, close_comment="clean")
    assert second.action == "updated" and second.number == first.number
    assert len(fake_api.issues) == 1
    issue = fake_api.issues[first.number]
    assert issue["title"] == "t2" and MARKER in issue["body"] and "more findings" in issue["body"]
    third = sync_issue(c, title="t3", body="", clean=True, close_comment="all clean")
    assert third.action == "closed"
    assert fake_api.issues[first.number]["state"] == "closed"
    assert fake_api.comments == [(first.number, "all clean")]
    assert sync_issue(c, title="t4", body="", clean=True, close_comment="x").action == "none"


def test_a_500_then_success_is_retried(fake_api):
    fake_api.fail.append(("GET", "/repos/o/r/issues", 500, {}))
    c, slept = client(fake_api, backoff=0.25)
    assert c.find_open(fake_api.writer).own is None
    assert slept == [0.25]


def test_a_429_waits_for_retry_after(fake_api):
    fake_api.fail.append(("POST", "/repos/o/r/issues", 429, {"Retry-After": "7"}))
    c, slept = client(fake_api)
    made = c.create("t", MARKER)
    assert made["number"] == 1 and slept == [7.0]


def test_retry_after_beyond_the_cap_is_not_waited_but_reported(fake_api):
    fake_api.fail.append(("GET", "/repos/o/r/issues", 429, {"Retry-After": "86400"}))
    c, slept = client(fake_api, max_retry_after=30)
    with pytest.raises(GitHubError) as err:
        c.find_open(fake_api.writer)
    assert slept == [] and "asked to wait 86400 s" in str(err.value)


def test_persistent_failure_raises_without_the_token(fake_api):
    fake_api.always = 503
    c, slept = client(fake_api, retries=2)
    with pytest.raises(GitHubError) as err:
        c.find_open(fake_api.writer)
    assert "503" in str(err.value) and fake_api.TOKEN not in str(err.value)
    assert len(slept) == 2


def test_the_token_is_sent_only_as_a_header_and_never_shown(fake_api):
    c, _ = client(fake_api)
    c.find_open(fake_api.writer)
    assert fake_api.auth_seen == [f"Bearer {fake_api.TOKEN}"]
    assert fake_api.TOKEN not in repr(c)
    bad = GitHubClient(fake_api.url, "o/r", "wrong-token", sleep=lambda s: None)
    with pytest.raises(GitHubError) as err:
        bad.find_open(fake_api.writer)
    assert "401" in str(err.value) and "wrong-token" not in str(err.value)


def test_unreachable_server_error_is_scrubbed():
    token = "tok_secret_value"
    c = GitHubClient("http://127.0.0.1:9", "o/r", token, sleep=lambda s: None, retries=1, timeout=2)
    with pytest.raises(GitHubError) as err:
        c.find_open("someone")
    assert token not in str(err.value)


def test_scrub_and_body_limits():
    assert scrub("Authorization: Bearer abc", "abc") == "Authorization: Bearer ***"
    body = fit_body("x\n" * 50_000)
    assert body.startswith(MARKER) and len(body) <= 65_000 and "longer than an issue allows" in body


@pytest.mark.parametrize("bad", ["o", "o/r/x", "../x", "-o/r", "o/r?x=1", ""])
def test_bad_repository_names_are_refused(bad):
    from drafterlint.findings import InputError

    with pytest.raises(InputError):
        GitHubClient("https://api.github.com", bad, None)
