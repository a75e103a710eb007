"""Model-hub revision look-ups against a real HTTP server on loopback."""

from __future__ import annotations

from drafterlint.hub import EXISTS, MISSING, UNKNOWN, HubClient

REV = "1" * 40


def hub(api, tmp_path, **kw):
    slept: list[float] = []
    kw.setdefault("cache_dir", tmp_path / "cache")
    return HubClient(api.url, sleep=slept.append, **kw), slept


def test_exists_and_missing(fake_api, tmp_path):
    fake_api.hub["orga/m1@" + REV] = 200
    h, _ = hub(fake_api, tmp_path)
    assert h.revision("orga/m1", REV).state == EXISTS
    assert h.revision("orga/m1", "2" * 40).state == MISSING


def test_answers_are_cached_for_a_day(fake_api, tmp_path):
    fake_api.hub["orga/m1@" + REV] = 200
    now = [1_000_000.0]
    h, _ = hub(fake_api, tmp_path, clock=lambda: now[0])
    assert h.revision("orga/m1", REV).state == EXISTS
    h2, _ = hub(fake_api, tmp_path, clock=lambda: now[0] + 3600)
    assert h2.revision("orga/m1", REV).state == EXISTS and h2.requests_made == 0
    h3, _ = hub(fake_api, tmp_path, clock=lambda: now[0] + 25 * 3600)
    assert h3.revision("orga/m1", REV).state == EXISTS and h3.requests_made == 1


def test_5xx_then_success_and_429_retry_after(fake_api, tmp_path):
    fake_api.hub["orga/m1@" + REV] = 200
    fake_api.fail += [("GET", "/api/models/", 500, {}), ("GET", "/api/models/", 429, {"Retry-After": "3"})]
    h, slept = hub(fake_api, tmp_path, backoff=0.5)
    assert h.revision("orga/m1", REV).state == EXISTS
    assert slept == [0.5, 3.0]


def test_failures_are_unknown_never_missing(fake_api, tmp_path):
    fake_api.always = 503
    h, slept = hub(fake_api, tmp_path, retries=2)
    a = h.revision("orga/m1", REV)
    assert a.state == UNKNOWN and "503" in a.detail and len(slept) == 2
    fake_api.always = 401  # gated / private: cannot tell
    assert hub(fake_api, tmp_path)[0].revision("orga/m1", REV).state == UNKNOWN
    # unknown answers are not cached
    fake_api.always = None
    fake_api.hub["orga/m1@" + REV] = 200
    assert hub(fake_api, tmp_path)[0].revision("orga/m1", REV).state == EXISTS


def test_unreachable_hub_is_asked_once(tmp_path):
    h = HubClient("http://127.0.0.1:9", cache_dir=tmp_path, sleep=lambda s: None, retries=1, timeout=2)
    first = h.revision("orga/m1", REV)
    second = h.revision("orga/m2", REV)
    assert first.state == second.state == UNKNOWN
    assert "could not reach" in first.detail
    assert h.requests_made == 2  # one attempt and one retry, then no more


def test_strange_ids_are_not_sent(fake_api, tmp_path):
    h, _ = hub(fake_api, tmp_path)
    for repo, rev in (("../etc", REV), ("a/b/c", REV), ("orga/m1", "x?y"), (None, REV)):
        assert h.revision(repo, rev).state == UNKNOWN
    assert fake_api.log == []
