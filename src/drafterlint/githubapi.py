"""The audit's tracking issue, through the GitHub REST API.

One open issue per repository carries the latest audit. It is the audit's own by identity, not
by text anyone can copy: its body opens with a marker the audit writes (an HTML comment,
invisible when rendered), and its author is the identity the audit writes as (``writer``: the
token's user, as ``GET /user`` names it, else the Actions bot, github-actions[bot], as which the
Actions token writes). The open issues are listed (``GET /repos/{owner}/{repo}/issues?state=open
&per_page=100``, following ``Link: rel="next"``); of the audit's own, the oldest is updated and
the others are named (``Candidates``); an issue that holds the marker otherwise (a stranger's,
or the marker quoted further down) is never written nor read. None found: one is created. A
clean audit closes the open one with a comment.

The token comes from ``GITHUB_TOKEN`` and is only ever put in the ``Authorization`` header, and
only over https (plain http to a loopback host alone, for tests): it is scrubbed from every error
message in every form a message may show it (``safeio.secret_forms``), and never printed or
logged; a token holding a control character (a line break pasted with it) is not used at all. 5xx answers and connection
errors are retried with backoff; 429 and rate-limit 403s wait for ``Retry-After`` (capped).
``--github-api-url`` points it at GitHub Enterprise or a test server. Every answer's shape is
checked (``drafterlint.answers``): an answer GitHub would not give is a GitHubError, like a
refused connection, and each GitHubError says what to fix where that can be told (``fix``).

``requests`` is imported on first use.
"""

from __future__ import annotations

import time
from typing import Any

from drafterlint import answers, lazyre
from drafterlint.answers import BadAnswer
from drafterlint.records import dataclass
from drafterlint.retrying import MAX_RETRY_AFTER, AnswerCutOff, RetryPolicy, send
from drafterlint.safeio import MIN_SECRET, redact, secret_forms

MARKER = "<!-- drafterlint-audit-tracking-issue -->"
MAX_BODY = 65_000  # GitHub refuses bodies over 65,536 characters
MAX_PAGES = 50
_OWNER_REPO = lazyre.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")


ACTIONS_BOT = "github-actions[bot]"  # the login the Actions token (GITHUB_TOKEN in a workflow) writes as
MIN_TOKEN = MIN_SECRET  # shorter is no GitHub token, and redacting it would mangle words


class GitHubError(Exception):
    """The GitHub API could not do what was asked (message has no token in it). `fix`: what
    the person running the audit should change, when that can be told."""

    def __init__(self, message: str, fix: str = "", status: int = 0, *, limited: bool = False):
        super().__init__(message)
        self.fix = fix
        self.status = status  # the HTTP status GitHub answered (0: none, or not an HTTP refusal)
        self.limited = limited  # a rate limit's refusal (429, or a 403 that says so)


class UnexpectedAnswer(GitHubError):
    """An answer GitHub's API would not give (its shape checked by drafterlint.answers)."""


def scrub(text: str, token: str | None) -> str:
    """`text` with each whole occurrence of `token`, in any form a message may show it, replaced
    by ***: one not inside a longer run of token characters, so that a short value never blanks
    letters inside words."""
    return redact(text, secret_forms(token))


def token_problem(name: str, value: str | None) -> str:
    """Why the token in environment variable `name` is not used ("" when it is usable). The
    line never shows the value."""
    if not value:
        return f"{name} is not set"
    if not (value.isascii() and value.isprintable()):
        # requests would refuse the header, quoting it whole; a token has no such character.
        return (f"{name} holds a character no token has (a control character such as a line break "
                "saved with the secret, or one outside ASCII): not used; set it again without")
    if len(value) < MIN_TOKEN:
        return f"{name} is {len(value)} characters long, too short for a token (at least {MIN_TOKEN}): not used"
    return ""


def token_transport_problem(url: str, option: str) -> str:
    """Why a token may not be sent to `url` (given with `option`), "" when it may: only over
    https, or plain http to this machine (a test server)."""
    import ipaddress
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme.lower() == "https":
        return ""
    host = (parts.hostname or "").lower()
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if parts.scheme.lower() == "http" and loopback:
        return ""
    return (f"{option} {url}: a token is sent only over https (plain http only to this machine, "
            "for a test server); give the https address")


def _fix_for(status: int, url: str) -> str:
    """What to change when the API refused: the person reading the log acts on this."""
    if status == 401:
        return "GITHUB_TOKEN was refused: give a valid token (in a workflow, `GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}`)"
    if status == 403:
        return ("the token may not write issues: grant `permissions: issues: write` to the workflow "
                "(or a token with the Issues read/write scope)")
    if status == 404:
        return f"no such repository at {url}: check --open-issue OWNER/REPO, --github-api-url, and that the token can see it"
    if status == 410:
        return "issues are turned off in that repository: turn them on, or name another with --open-issue"
    return ""


_ERRNO = lazyre.compile(r"\[Errno -?\d+\] ([^'\"()\[\]]+)")
_CLAUSE = 160


def clause(exc: BaseException) -> str:
    """A library's exception in one clause: requests wraps a refused connection in urllib3's
    pool, retry and socket reprs (some 500 characters) around one reason, `[Errno 111]
    Connection refused`, which is all a person acts on."""
    text = str(exc)
    reasons = _ERRNO.findall(text)
    if reasons:
        text = reasons[-1].strip().rstrip(".")
    elif len(text) > _CLAUSE:
        text = text[:_CLAUSE].rstrip() + "…"
    return f"{type(exc).__name__}: {text}"


def validate_repo(value: str) -> str:
    from drafterlint.findings import InputError

    if not isinstance(value, str) or not _OWNER_REPO.match(value) or ".." in value:
        raise InputError(f"--open-issue takes OWNER/REPO, not {value!r}")
    return value


@dataclass(frozen=True)
class Outcome:
    """What updating the tracking issue did."""

    action: str  # "created", "updated", "closed", "none"
    number: int | None = None
    url: str | None = None


def _retryable(resp) -> bool:
    limited = resp.status_code == 429 or (
        resp.status_code == 403
        and (resp.headers.get("Retry-After") or resp.headers.get("X-RateLimit-Remaining") == "0")
    )
    return limited or resp.status_code >= 500


class GitHubClient:
    def __init__(
        self,
        api_url: str,
        repo: str,
        token: str | None,
        *,
        timeout: float = 20.0,
        retries: int = 3,
        backoff: float = 1.0,
        max_retry_after: float = MAX_RETRY_AFTER,
        sleep=time.sleep,
    ):
        self.api_url = api_url.rstrip("/")
        self.repo = validate_repo(repo)
        refused = token_transport_problem(self.api_url, "--github-api-url") if token else ""
        if refused:
            from drafterlint.findings import InputError

            raise InputError(refused)
        self._token = token
        self.timeout = timeout
        self._retry = RetryPolicy(retries, backoff, max_retry_after, sleep)
        self._session: Any = None  # a requests.Session, made on first use (import cost)

    def __repr__(self) -> str:  # never shows the token
        return f"GitHubClient({self.api_url!r}, {self.repo!r})"

    # -- HTTP -------------------------------------------------------------------------------

    def _request(self, method: str, url: str, **kw):
        import requests

        if self._session is None:
            self._session = requests.Session()
            self._session.headers.update({
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": "drafterlint-audit",
            })
            if self._token:
                self._session.headers["Authorization"] = f"Bearer {self._token}"
        if not url.startswith(("http://", "https://")):
            url = self.api_url + url
        try:
            resp = self._retry.run(
                lambda: send(self._session, method, url, timeout=self.timeout, **kw),
                _retryable,
                (requests.ConnectionError,),
            )
        except (requests.RequestException, AnswerCutOff) as exc:
            fix = f"check --github-api-url {self.api_url} (and the network)" if isinstance(
                exc, (requests.ConnectionError, requests.Timeout, AnswerCutOff)) else ""
            raise GitHubError(scrub(f"{method} {url}: {clause(exc)}", self._token), fix) from None
        if resp.status_code >= 400:
            detail = self._message(resp)
            waited = self._retry.gave_up(resp) if _retryable(resp) else ""
            if waited:
                detail = f"{detail} ({waited})".strip()
            raise GitHubError(scrub(f"{method} {url}: HTTP {resp.status_code} {detail}".strip(), self._token),
                              "" if waited else _fix_for(resp.status_code, self.api_url), resp.status_code,
                              limited=resp.status_code == 429 or (resp.status_code == 403 and _retryable(resp)))
        return resp

    @staticmethod
    def _message(resp) -> str:
        """The `message` of an error answer, else the start of its text."""
        try:
            data = answers.json_of(resp.content, "the error answer")
        except BadAnswer:
            return answers.shown(resp.text[:200])
        message = data.get("message") if isinstance(data, dict) else None
        if message is None or isinstance(message, str):
            return message or ""
        return answers.shown(message)

    def _object(self, method: str, url: str, **kw) -> dict:
        """The JSON object the API answers (a GitHubError for anything else)."""
        resp = self._request(method, url, **kw)
        what = f"the answer to {method} {url}"
        try:
            return answers.expect(answers.json_of(resp.content, what), dict, what)
        except BadAnswer as exc:
            raise _bad(exc) from None

    def get_object(self, url: str) -> dict:
        return self._object("GET", url)

    def send(self, method: str, url: str, **kw) -> None:
        """A write whose answer is not read (beyond its status)."""
        self._request(method, url, **kw)

    @staticmethod
    def bad_answer(exc: BadAnswer) -> GitHubError:
        return _bad(exc)

    def pages(self, url: str, params: dict | None = None, listing: str = ""):
        """Each page of a listing (a JSON list, checked) with what to call it in an error,
        following `Link: rel="next"` within the API, at most MAX_PAGES of them (a GitHubError past
        that: a listing read in part could hide what is looked for)."""
        read: set[str] = set()
        for _ in range(MAX_PAGES):
            resp = self._request("GET", url, params=params)
            read.add(resp.url)
            what = f"the answer to GET {url}"
            try:
                yield answers.expect(answers.json_of(resp.content, what), list, what), what
            except BadAnswer as exc:
                raise _bad(exc) from None
            following = next_link(resp.headers.get("Link", ""))
            if following is None:
                return
            url, params = following, None  # the next link carries the query
            if not url.startswith(self.api_url + "/"):
                raise GitHubError("the next page link leaves the API")
            if url in read:
                raise GitHubError(f"GET {url}: the next page link points back to a page already read")
        raise GitHubError(f"more than {MAX_PAGES} pages of {listing or url}: stopped reading")

    def list_all(self, url: str) -> list[dict]:
        """Every item of a listing, each a JSON object."""
        out = []
        for page, what in self.pages(url, {"per_page": 100}):
            for i, item in enumerate(page):
                try:
                    out.append(answers.expect(item, dict, f"item {i} of {what}"))
                except BadAnswer as exc:
                    raise _bad(exc) from None
        return out

    # -- issues -----------------------------------------------------------------------------

    def user_login(self) -> str | None:
        """The login of the token's user (GET /user), or None when GitHub refuses the question
        to the token as to an app's (the Actions token: 403 "Resource not accessible by
        integration")."""
        try:
            me = self.get_object("/user")
        except GitHubError as exc:
            if exc.status == 403 and not exc.limited:
                return None
            raise
        try:
            return answers.field(me, "login", str, "the token's user")
        except BadAnswer as exc:
            raise _bad(exc) from None

    def writer(self) -> tuple[str, str]:
        """(the login this client writes as, "" or why it is taken to be the Actions bot). The
        token's user when GitHub names one; else the Actions bot: the Actions token (refused GET
        /user), no token, or an answer that names no user. Either way an identity no stranger can
        write as."""
        if not self._token:
            return ACTIONS_BOT, ""
        try:
            return self.user_login() or ACTIONS_BOT, ""
        except UnexpectedAnswer as exc:
            return ACTIONS_BOT, f"GET /user named no user ({exc})"

    def find_open(self, author: str, marker: str = MARKER) -> "Candidates":
        """The open issues (not pull requests) that are the audit's own, written by `author` with
        `marker` opening the body, and those that hold the marker otherwise."""
        # Every page is read (at most MAX_PAGES; pages() says when there are more: a listing read
        # in part could hide the oldest), as GitHub lists the newest first.
        listing = "open issues, looking for the tracking issue"
        own: list[dict] = []
        foreign: list[int] = []
        try:
            for page, what in self.pages(f"/repos/{self.repo}/issues", {"state": "open", "per_page": 100}, listing):
                _sort_out(page, marker, author, what, own, foreign)
        except BadAnswer as exc:
            raise _bad(exc) from None
        own.sort(key=lambda issue: issue["number"])
        return Candidates(own[0] if own else None, tuple(i["number"] for i in own[1:]), tuple(sorted(foreign)))

    def create(self, title: str, body: str) -> dict:
        made = self._object("POST", f"/repos/{self.repo}/issues", json={"title": title, "body": body})
        try:
            answers.positive_int(made, "number", "the issue made")
            answers.field(made, "html_url", str, "the issue made", required=False)
        except BadAnswer as exc:
            raise _bad(exc) from None
        return made

    def update(self, number: int, title: str, body: str) -> dict:
        return self._object("PATCH", f"/repos/{self.repo}/issues/{int(number)}",
                            json={"title": title, "body": body})

    def comment(self, number: int, body: str) -> dict:
        return self._object("POST", f"/repos/{self.repo}/issues/{int(number)}/comments",
                            json={"body": body})

    def close(self, number: int) -> dict:
        return self._object("PATCH", f"/repos/{self.repo}/issues/{int(number)}",
                            json={"state": "closed", "state_reason": "completed"})


def _bad(exc: BadAnswer) -> GitHubError:
    return UnexpectedAnswer(f"{exc}: not what GitHub's issues API answers",
                       "check --github-api-url: it should be GitHub's REST API (https://api.github.com, "
                       "or https://HOST/api/v3 for GitHub Enterprise)")


@dataclass(frozen=True)
class Candidates:
    """What the list of open issues holds of the audit's: `own`, the tracking issue (the oldest
    of its own, None when there is none); `newer`, the numbers of its other own ones (passed
    over); `foreign`, those of the issues that hold the marker without being its own."""

    own: dict | None
    newer: tuple[int, ...] = ()
    foreign: tuple[int, ...] = ()


def _sort_out(items: list, marker: str, author: str, what: str, own: list[dict], foreign: list[int]) -> None:
    """Each open issue (not pull request) of one page of the list that holds `marker`: into
    `own` when the marker opens its body and `author` wrote it, else its number into
    `foreign`."""
    for i, item in enumerate(items):
        issue = answers.expect(item, dict, f"item {i} of {what}")
        body = answers.field(issue, "body", (str, type(None)), f"item {i} of {what}", required=False) or ""
        if "pull_request" in issue or marker not in body:
            continue
        number = answers.positive_int(issue, "number", f"the issue holding the marker in {what}")
        user = answers.field(issue, "user", (dict, type(None)), f"issue #{number}", required=False) or {}
        login = answers.field(user, "login", (str, type(None)), f"the user of issue #{number}", required=False)
        if body.startswith(marker) and login == author:
            answers.field(issue, "html_url", str, f"the tracking issue in {what}", required=False)
            own.append(issue)
        else:
            foreign.append(number)


def next_link(header: str) -> str | None:
    """The `rel="next"` address of a `Link:` header (`<url>; rel="next", <url>; rel="last"`),
    read by splitting, in one pass: a regular expression over it backtracks quadratically on a
    header of many `<`."""
    for item in header.split(","):
        url, closed, params = item.strip().partition(">")
        if not closed or not url.startswith("<") or len(url) < 2:
            continue
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "rel" and "next" in value.strip().strip('"').split():
                return url[1:]
    return None


def fit_body(body: str, marker: str = MARKER, limit: int = MAX_BODY) -> str:
    """The body opening with the marker, cut to GitHub's limit (with a note) when it is too long."""
    if not body.startswith(marker):
        body = f"{marker}\n{body}"
    if len(body) <= limit:
        return body
    note = "\n\n> [!NOTE]\n> The report is longer than an issue allows; the full report is in the audit's artifacts.\n"
    cut = body[: limit - len(note)]
    cut = cut[: cut.rfind("\n")] if "\n" in cut else cut
    return cut + note


def sync_issue(client: GitHubClient, *, title: str, body: str, clean: bool, close_comment: str,
               existing: dict | None = None, looked: bool = False) -> Outcome:
    """Create, update or close the tracking issue. `existing`/`looked`: a look-up already made."""
    issue = existing if looked else client.find_open(client.writer()[0]).own
    if clean:
        if issue is None:
            return Outcome("none")
        client.comment(issue["number"], close_comment)
        client.close(issue["number"])
        return Outcome("closed", issue["number"], issue.get("html_url"))
    body = fit_body(body)
    if issue is None:
        made = client.create(title, body)
        return Outcome("created", made.get("number"), made.get("html_url"))
    client.update(issue["number"], title, body)
    return Outcome("updated", issue["number"], issue.get("html_url"))
