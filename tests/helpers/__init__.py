"""Helpers the tests share: materialise tiny repositories, run the real engine on them, and a fake
GitHub issues API and model hub (served on loopback by conftest's `fake_api` fixture).

Every test module imports them from here (`from tests.helpers import ...`); fixtures live in
tests/conftest.py. No test module imports another.
"""

from __future__ import annotations

import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "rules_fixtures"
# The GitHub Action's entry script and the inputs the runner passes it (every one, empty when not given).
ACTION_ENTRY = ROOT / "action" / "entry.py"
ACTION_INPUTS = ("rules-repo", "registry-repo", "rules-url", "rules-ref", "registry-url", "registry-ref",
                 "config", "fail-on", "format", "sarif-file", "markdown-file", "json-file", "base-ref", "scope",
                 "only-new", "suggest-fixes", "suggested-changes", "github-token")


def leaves(d: dict, prefix: tuple = ()):
    """(path of keys, value) of every setting in a nested mapping such as config.DEFAULTS."""
    for k, v in d.items():
        if isinstance(v, dict) and v:
            yield from leaves(v, (*prefix, k))
        else:
            yield (*prefix, k), v


def nest(path: tuple, value) -> dict:
    """The mapping that sets `value` at `path` (the inverse of `leaves`)."""
    for k in reversed(path):
        value = {k: value}
    return value


def send_json(h, status: int, body: bytes = b"[]", headers: dict | None = None) -> None:
    """Answer the request a BaseHTTPRequestHandler `h` holds with `body` as JSON."""
    h.send_response(status)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(body)


class LoopbackServer:
    """A threading HTTP server on 127.0.0.1 serving `handler` until the `with` block ends; `url`."""

    def __init__(self, handler):
        from http.server import ThreadingHTTPServer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

def git(cwd, *args: str) -> str:
    """git in `cwd` as a test's own author, on branch main by default; its output, stripped."""
    import subprocess

    return subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid",
                           "-c", "init.defaultBranch=main", *args],
                          cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def committed(root: Path, files: dict[str, str]) -> Path:
    """`root` made a git repository on main holding `files` (path -> UTF-8 text) in one commit."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def write_files(files: dict[str, str], base: Path) -> tuple[Path, Path]:
    """Write {"rules:<path>": text, "registry:<path>": text} under base/rules and base/registry.

    Text is written as UTF-8 with surrogateescape, so a test can plant raw invalid bytes
    (e.g. "\\udce9" becomes the byte 0xE9).
    """
    rules, registry = base / "rules", base / "registry"
    for key, text in files.items():
        repo, _, rel = key.partition(":")
        root = {"rules": rules, "registry": registry}[repo]
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8", "surrogateescape"))
    return rules, registry


def edit_file(path: Path, old: str, new: str) -> None:
    """Replace the first `old` in the file by `new`; `old` must be there (a test that edits
    nothing would pass for the wrong reason)."""
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def paths_passed(monkeypatch, owner, name: str) -> list[str]:
    """The path (second argument) of every call of `owner.name` from now on, each call passed
    through to it: what a run parses, counted."""
    seen: list[str] = []
    real = getattr(owner, name)

    def counted(text, path, *args, **kwargs):
        seen.append(path)
        return real(text, path, *args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return seen


def git_commit_all(root: Path, when: str, message: str = "change") -> str:
    """Commit everything under root (a git repository is made if needed) at date `when`.

    `when` is an ISO date or date-time (UTC when no offset is given); both the author and the
    committer date are set to it. Returns the new commit's sha.
    """
    import os
    import subprocess

    if "T" not in when:
        when = f"{when}T12:00:00+00:00"
    env = dict(os.environ)
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(var, None)
    env.update(
        GIT_AUTHOR_NAME="Test", GIT_AUTHOR_EMAIL="test@example.invalid",
        GIT_COMMITTER_NAME="Test", GIT_COMMITTER_EMAIL="test@example.invalid",
        GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when, GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
    )

    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], check=True, env=env,
                              capture_output=True, text=True).stdout

    root.mkdir(parents=True, exist_ok=True)
    if not (root / ".git").exists():
        git("init", "--quiet", "--initial-branch=main")
    git("add", "--all")
    git("commit", "--quiet", "--allow-empty", "-m", message)
    return git("rev-parse", "HEAD").strip()


EXAMPLE_CATALOG = "src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"


def example_git_repos(base: Path, *, added_on: str = "2026-10-05", catalog=None, rules_doc=None) -> tuple[Path, Path]:
    """The example repositories (rules_fixtures/example) as git repositories under `base`: the
    rules committed on 2026-08-01, the reference repository's policy added by a commit on
    `added_on` (a head approved in an earlier cohort is then backdated, DL403). `catalog` and
    `rules_doc` (text -> text) edit the 2026-11-C0 catalog and endpoints_rules.md first."""
    import shutil

    rules = base / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    if rules_doc is not None:
        doc = rules / "endpoints_rules.md"
        doc.write_text(rules_doc(doc.read_text()))
    git_commit_all(rules, "2026-08-01", "rules")
    registry = base / "registry"
    registry.mkdir()
    (registry / "README.md").write_text("reference repository\n")
    git_commit_all(registry, "2026-07-01", "start")
    shutil.copytree(FIXTURES / "example" / "endpoints", registry, dirs_exist_ok=True)
    if catalog is not None:
        cat = registry / EXAMPLE_CATALOG
        cat.write_text(catalog(cat.read_text()))
    git_commit_all(registry, added_on, "add the policy")
    return rules, registry


def _timed_files(files: dict[str, str]) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Split "<repo>@<date>:<path>" keys (a file's content as committed on that date) from the
    plain "<repo>:<path>" ones (the checked-out state)."""
    plain: dict[str, str] = {}
    timed: dict[str, dict[str, str]] = {}
    for key, text in files.items():
        repo, sep, rel = key.partition(":")
        if "@" in repo:
            name, _, when = repo.partition("@")
            timed.setdefault(when, {})[f"{name}:{rel}"] = text
        else:
            plain[key] = text
    return plain, timed


def _history_from(timed: dict[str, dict[str, str]], files: dict[str, str], base: Path):
    """Replay the dated versions as commits of a real registry repository, then the final state;
    return its history for the engine."""
    from drafterlint.config import Config
    from drafterlint.history import build_history

    registry = base / "registry"
    last = None
    for when in sorted(timed):
        write_files(timed[when], base)
        git_commit_all(registry, when, f"version of {when}")
        last = when
    write_files({k: v for k, v in files.items() if k.startswith("registry:")}, base)
    git_commit_all(registry, last or "2026-01-01", "checked-out state")
    return build_history(registry, Config().registry["policies"])


def _static_hub(text: str, files: dict[str, str]):
    """A "hub:answers" file: one "org/name@revision exists|missing" per line; and the files the
    hub serves, from "hub:org/name@revision/file" keys (JSON text)."""
    import json

    from drafterlint.hub import StaticHub

    answers = {}
    for line in text.splitlines():
        if line.strip():
            ident, state = line.split()
            answers[ident] = state
    return StaticHub(answers, {k: json.loads(v) for k, v in files.items()})


def _base_state(overrides: dict, base_text: str, rules: Path, registry: Path, invoked: dict | None = None):
    """(the BaseState of a change to "rules:.drafterlint.yaml" from `base_text`, the change's
    configuration) for an example of a rule that needs BASE: the files are the same at the base,
    but for the workflow and pre-commit files `invoked` holds ("base:<path>" -> their text)."""
    from drafterlint.checks.base import all_rules
    from drafterlint.checks.context import BaseState
    from drafterlint.config import config_at
    from drafterlint.engine import build_context, run
    from drafterlint.findings import Location

    current = rules / ".drafterlint.yaml"
    now, doc = config_at(current.read_bytes(), current)
    now = now.merged(overrides)
    base = config_at(base_text.encode(), current)[0].merged(overrides)

    def findings(config):
        return tuple(run(build_context(config, rules, registry if registry.exists() else None)).findings)

    from drafterlint.checks._invocations import Changed

    changed = tuple(Changed("rules", path, text, _text_or_none(rules / path))
                    for path, text in sorted((invoked or {}).items()))
    return BaseState(config=base, visible=findings(base), shown=findings(now),
                     severities={m.RULE.code: m.RULE.severity for m in all_rules()},
                     config_file=Location("rules", ".drafterlint.yaml"), config_doc=doc, invoked=changed), now


def _text_or_none(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def run_engine(files: dict[str, str], base: Path, config_overrides: dict | None = None, *, config=None, **ctx_kw):
    """The engine's result on `files` (see write_files), with `config_overrides` over `config`
    (the defaults when not given)."""
    from drafterlint.config import Config
    from drafterlint.engine import build_context, run

    # Additive conventions for audit rules' examples: "registry@<date>:<path>" keys are
    # versions committed on that date (the engine gets the real git history), and a
    # "hub:answers" key stands in for the model hub ("hub:org/name@rev/file" keys for its files).
    files, timed = _timed_files(files)
    base_config = files.pop("base:.drafterlint.yaml", None)
    invoked = {k.partition(":")[2]: files.pop(k) for k in [k for k in files if k.startswith("base:")]}
    hub = files.pop("hub:answers", None)
    hub_files = {k.partition(":")[2]: files.pop(k) for k in [k for k in files if k.startswith("hub:")]}
    if (hub is not None or hub_files) and "online" not in ctx_kw:
        ctx_kw["online"] = _static_hub(hub or "", hub_files)
    if timed and "history" not in ctx_kw:
        ctx_kw["history"] = _history_from(timed, files, base)
    rules, registry = write_files(files, base)
    overrides = dict(config_overrides or {})
    if "documents" not in overrides.get("rules", {}):
        # An example's repository is just its files: check the default documents it has.
        present = [d for d in ("endpoints_rules.md", "endpoints_submission_rules.md") if f"rules:{d}" in files]
        overrides["rules"] = {**overrides.get("rules", {}), "documents": [*present, "**/*"]}
        if "rules:endpoints_submission_rules.md" not in files:
            overrides["rules"].setdefault("companion", None)
    config = (config or Config()).merged(overrides)
    state = None
    if base_config is not None:  # a change of the configuration: the base is these files as it configured them
        state, config = _base_state(overrides, base_config, rules, registry, invoked)
    ctx = build_context(
        config,
        rules if rules.exists() else None,
        registry if registry.exists() else None,
        base=state,
        **ctx_kw,
    )
    return run(ctx)


# -- a fake GitHub issues API and model hub on loopback (audit tests) ------------------------


class FakeAPI:
    """State and scripted behaviour of the fake server.

    `issues`: number -> issue dict; `comments`: (number, body); `log`: (method, path) of every
    request; `fail`: a queue of (method, path prefix, status, headers) answered once, in order,
    before normal service; `always`: a status every request gets (the server "down");
    `hub`: "org/name@rev" -> status for the model hub; `page_size`: the most issues per page;
    `files`: "org/name@rev/file" -> the JSON the hub serves for it (a dict), or a status (int);
    `slow`: such keys never answered (the request is held until the end of the test).
    """

    TOKEN = "ghp_test0123456789secret"

    def __init__(self):
        self.issues: dict[int, dict] = {}
        self.comments: list[tuple[int, str]] = []
        self.log: list[tuple[str, str]] = []
        self.fail: list[tuple[str, str, int, dict]] = []
        self.fail_message = "scripted failure"  # the `message` of each answer `fail` scripts
        self.always: int | None = None
        self.hub: dict[str, int] = {}
        self.files: dict[str, object] = {}
        self.slow: set[str] = set()
        self.release = threading.Event()
        self.page_size = 2
        self.url = ""
        self.auth_seen: list[str | None] = []
        # Model-hub files that answer 401 unless asked with `Bearer <hub_token>` (gated repositories).
        self.gated: set[str] = set()
        self.hub_token = "hf_gated0123456789secret"
        self.hub_auth_seen: list[str | None] = []
        # Pull-request reviews. `login`: who the token is (GET /user); None: the Actions token,
        # which may not ask and writes as github-actions[bot]. `reviews`/`review_comments`: id ->
        # object as GitHub answers it; `pr_lines`: per path, the lines of the pull request's diff,
        # the only ones a review comment may sit on (422 otherwise, as GitHub answers);
        # `read_only`: a fork's token, every write refused (403); `writes`: (method, path, body)
        # of every write, in order.
        self.login: str | None = "drafterlint-bot"
        self.reviews: dict[int, dict] = {}
        self.review_comments: dict[int, dict] = {}
        self.pr_lines: dict[str, set[int]] = {}
        self.read_only = False
        self.writes: list[tuple[str, str, object]] = []

    @property
    def writer(self) -> str:
        return self.login or "github-actions[bot]"

    def add_review(self, number: int, login: str, body: str, commit: str, comments=()) -> int:
        """A review on pull request `number` by `login`, with (path, line, body) comments."""
        rid = max([*self.reviews, *self.review_comments], default=100) + 1
        self.reviews[rid] = {"id": rid, "pull": number, "user": {"login": login}, "body": body,
                             "commit_id": commit, "state": "COMMENTED"}
        for path, line, text in comments:
            cid = max([*self.reviews, *self.review_comments]) + 1
            self.review_comments[cid] = {"id": cid, "pull_request_review_id": rid, "user": {"login": login},
                                         "path": path, "line": line, "side": "RIGHT", "body": text}
        return rid

    def comments_of(self, rid: int) -> list[dict]:
        return [c for c in self.review_comments.values() if c["pull_request_review_id"] == rid]

    def add_issue(self, title: str, body: str, state: str = "open", pull_request: bool = False,
                  author: str | None = None) -> int:
        """An issue opened by `author` (by default the identity the token writes as)."""
        number = max(self.issues, default=0) + 1
        issue = {"number": number, "title": title, "body": body, "state": state,
                 "html_url": f"https://github.invalid/o/r/issues/{number}",
                 "user": {"login": author or self.writer, "type": "Bot" if (author or self.writer).endswith("[bot]") else "User"}}
        if pull_request:
            issue["pull_request"] = {"url": "x"}
        self.issues[number] = issue
        return number


def make_handler(api: FakeAPI):
    import json
    import re
    from http.server import BaseHTTPRequestHandler
    from urllib.parse import parse_qs, urlsplit

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):  # keep test output quiet
            pass

        def _send(self, status: int, payload=None, headers: dict | None = None):
            send_json(self, status, json.dumps(payload if payload is not None else {}).encode(), headers)

        def _body(self):
            n = int(self.headers.get("Content-Length") or 0)
            return json.loads(self.rfile.read(n) or b"{}") if n else {}

        def _handle(self, method: str):
            parts = urlsplit(self.path)
            path = parts.path
            api.log.append((method, path))
            body = self._body() if method in ("POST", "PATCH", "PUT") else None
            if api.always is not None:
                return self._send(api.always, {"message": "down"}, {"Retry-After": "0"})
            for i, (m, prefix, status, headers) in enumerate(api.fail):
                if m == method and path.startswith(prefix):
                    del api.fail[i]
                    return self._send(status, {"message": api.fail_message}, headers)
            served = re.fullmatch(r"/([^/]+)/([^/]+)/resolve/([^/]+)/([^/]+)", path)
            if served and method == "GET":
                key = f"{served.group(1)}/{served.group(2)}@{served.group(3)}/{served.group(4)}"
                if key in api.slow:  # never answers: the client's timeout must end it
                    api.release.wait(60)
                    return None
                content = api.files.get(key, 404)
                api.hub_auth_seen.append(self.headers.get("Authorization"))
                if key in api.gated and self.headers.get("Authorization") != f"Bearer {api.hub_token}":
                    content = 401
                if isinstance(content, int):
                    return self._send(content, {"error": "no"},
                                      {"X-Error-Code": "EntryNotFound"} if content == 404 else {})
                return self._send(200, content)
            hub = re.fullmatch(r"/api/models/([^/]+)/([^/]+)/revision/([^/]+)", path)
            if hub and method == "GET":
                status = api.hub.get(f"{hub.group(1)}/{hub.group(2)}@{hub.group(3)}", 404)
                return self._send(status, {"sha": hub.group(3)} if status == 200 else {"error": "not found"})
            api.auth_seen.append(self.headers.get("Authorization"))
            if self.headers.get("Authorization") != f"Bearer {api.TOKEN}":
                return self._send(401, {"message": "Bad credentials"})
            if path == "/user" and method == "GET":
                if api.login is None:
                    return self._send(403, {"message": "Resource not accessible by integration"})
                return self._send(200, {"login": api.login, "id": 1})
            pulls = re.fullmatch(r"/repos/[^/]+/[^/]+/pulls/(?:(\d+)/reviews(?:/(\d+)(/comments)?)?|comments/(\d+))", path)
            if pulls:
                return self._pulls(method, pulls, body, parse_qs(parts.query), path)
            m = re.fullmatch(r"/repos/([^/]+)/([^/]+)/issues(?:/(\d+))?(/comments)?", path)
            if not m:
                return self._send(404, {"message": "Not Found"})
            number = int(m.group(3)) if m.group(3) else None
            if method == "GET" and number is None:
                q = parse_qs(parts.query)
                state = q.get("state", ["open"])[0]
                per = min(int(q.get("per_page", ["30"])[0]), api.page_size)
                page = int(q.get("page", ["1"])[0])
                items = [i for n, i in sorted(api.issues.items(), reverse=True)
                         if state == "all" or i["state"] == state]
                chunk = items[(page - 1) * per: page * per]
                headers = {}
                if page * per < len(items):
                    nxt = f"{api.url}{path}?state={state}&per_page={per}&page={page + 1}"
                    headers["Link"] = f'<{nxt}>; rel="next", <{nxt}>; rel="last"'
                return self._send(200, chunk, headers)
            if method == "POST" and number is None:
                n = api.add_issue(body.get("title", ""), body.get("body", ""))
                return self._send(201, api.issues[n])
            if number not in api.issues:
                return self._send(404, {"message": "Not Found"})
            if method == "POST" and m.group(4):
                api.comments.append((number, body.get("body", "")))
                return self._send(201, {"id": len(api.comments)})
            if method == "PATCH":
                api.issues[number].update({k: v for k, v in body.items() if k in ("title", "body", "state")})
                return self._send(200, api.issues[number])
            return self._send(405, {"message": "no"})

        def _page(self, items: list, path: str, q: dict):
            per = min(int(q.get("per_page", ["30"])[0]), api.page_size)
            page = int(q.get("page", ["1"])[0])
            headers = {}
            if page * per < len(items):
                nxt = f"{api.url}{path}?per_page={per}&page={page + 1}"
                headers["Link"] = f'<{nxt}>; rel="next"'
            return self._send(200, items[(page - 1) * per: page * per], headers)

        def _pulls(self, method: str, m, body, q: dict, path: str):
            """Reviews as GitHub's pulls API keeps them: a write is checked as GitHub checks it."""
            number, rid, comments, cid = (int(g) if g and g.isdigit() else g for g in m.groups())
            if method != "GET":
                api.writes.append((method, path, body))
                if api.read_only:
                    return self._send(403, {"message": "Resource not accessible by integration"})
            if method == "GET" and rid is None and cid is None:
                return self._page([r for r in api.reviews.values() if r["pull"] == number], path, q)
            if method == "GET" and comments:
                return self._page(api.comments_of(rid), path, q)
            if method == "POST" and rid is None:
                ok = (isinstance(body.get("commit_id"), str) and body.get("event") == "COMMENT"
                      and isinstance(body.get("body"), str) and isinstance(body.get("comments"), list))
                for c in body.get("comments") or []:
                    ok = ok and set(c) == {"path", "line", "side", "body"} and c["side"] == "RIGHT"
                    ok = ok and "```suggestion\n" in c["body"]
                    if ok and c["line"] not in api.pr_lines.get(c["path"], ()):
                        return self._send(422, {"message": "Unprocessable Entity",
                                                "errors": ["Line could not be resolved"]})
                if not ok:
                    return self._send(422, {"message": "Invalid request"})
                made = api.add_review(number, api.writer, body["body"], body["commit_id"],
                                      [(c["path"], c["line"], c["body"]) for c in body["comments"]])
                return self._send(200, api.reviews[made])
            if method == "PUT" and rid in api.reviews and not comments:
                if api.reviews[rid]["user"]["login"] != api.writer:
                    return self._send(403, {"message": "not yours"})
                api.reviews[rid]["body"] = body["body"]
                return self._send(200, api.reviews[rid])
            if method == "DELETE" and cid in api.review_comments:
                if api.review_comments[cid]["user"]["login"] != api.writer:
                    return self._send(403, {"message": "not yours"})
                del api.review_comments[cid]
                return send_json(self, 204, b"")
            return self._send(404, {"message": "Not Found"})

        def do_GET(self):
            self._handle("GET")

        def do_PUT(self):
            self._handle("PUT")

        def do_DELETE(self):
            self._handle("DELETE")

        def do_POST(self):
            self._handle("POST")

        def do_PATCH(self):
            self._handle("PATCH")

    return Handler


def pre_commit_exe() -> str | None:
    """The pre-commit of this Python's environment, else one on PATH (None: not installed)."""
    import shutil
    import sys

    beside = Path(sys.executable).parent / "pre-commit"
    return str(beside) if beside.exists() else shutil.which("pre-commit")
