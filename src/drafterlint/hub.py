"""Asking the model hub whether a repository@revision exists (DL803, `audit --online`).

``GET {hub}/api/models/{org}/{name}/revision/{revision}``: 200 means it exists; 404 means it
does not. Anything else — a timeout, a refused connection, a 5xx or 429 that outlasts the
retries, a 401/403 (the hub answers so for gated and private repositories, and for some missing
ones: it cannot be told apart) — is *unknown*: the audit says it could not
check, never that the revision is missing.

``GET {hub}/{org}/{name}/resolve/{revision}/{file}`` (``json_file``) reads a JSON file of a
repository (``config.json``, ``model.safetensors.index.json``) at a revision, for the native-head
evidence (DL505, DL506). Only a full 40-hex commit is fetched: a branch or tag can move, so
what it shows today proves nothing about the approved revision. 200 with a JSON object is
FOUND, 404 is MISSING (with the hub's ``X-Error-Code``: ``EntryNotFound`` for a file the
revision does not have), anything else UNKNOWN, as above.

Requests have a timeout and answers a size limit (``retrying.send``); 429 and 5xx are retried with exponential backoff, honouring
``Retry-After`` (seconds or an HTTP date, capped). Definite answers are cached on disk for a
day under the cache directory. Once the hub cannot be reached at all, the remaining look-ups are
not attempted (one failure, not one per revision).

A token (``HF_TOKEN``) is sent only over https (plain http to this machine alone, for a test
server): a client given one for another address is refused (InputError).

``requests`` is imported when the first request is made.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from drafterlint import answers, lazyre
from drafterlint.answers import AnswerTooComplex, BadAnswer
from drafterlint.findings import InputError
from drafterlint.records import dataclass
from drafterlint.retrying import MAX_RETRY_AFTER, AnswerTooLarge, AnswerTooSlow, RetryPolicy, send

EXISTS, MISSING, UNKNOWN = "exists", "missing", "unknown"
FOUND = "found"  # json_file: the file, parsed
CACHE_SECONDS = 24 * 3600
_COMMIT = lazyre.compile(r"^[0-9a-f]{40}$")
_PART = lazyre.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
_REV = lazyre.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$")


@dataclass(frozen=True)
class Answer:
    """Whether the hub has a revision."""

    state: str  # EXISTS, MISSING or UNKNOWN
    detail: str = ""  # why UNKNOWN (or the status code)


@dataclass(frozen=True)
class FileAnswer:
    """A file the hub was asked for: found (and parsed), missing or unknown."""

    state: str  # FOUND, MISSING or UNKNOWN
    detail: str = ""  # the status, or why UNKNOWN
    data: dict | None = None  # the parsed file when FOUND


def is_commit(revision: str | None) -> bool:
    """A full commit hash: the only kind of revision whose files are fetched."""
    return revision is not None and _COMMIT.match(revision.lower()) is not None


class Hub(Protocol):
    """What the checks ask of the model hub: the network's HubClient, or StaticHub's tables."""

    def revision(self, repository: str | None, revision: str | None) -> Answer: ...

    def json_file(self, repository: str | None, revision: str | None, filename: str) -> FileAnswer: ...


class HubClient:
    def __init__(
        self,
        base_url: str = "https://huggingface.co",
        *,
        cache_dir: Path | None = None,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 1.0,
        max_retry_after: float = MAX_RETRY_AFTER,
        token: str | None = None,
        sleep=time.sleep,
        clock=time.time,
    ):
        self.base_url = base_url.rstrip("/")
        if token:
            from drafterlint.githubapi import token_transport_problem

            refused = token_transport_problem(self.base_url, "--hub-api-url")
            if refused:
                raise InputError(refused)
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.timeout = timeout
        self._retry = RetryPolicy(retries, backoff, max_retry_after, sleep, clock)
        self._token = token
        self._clock = clock
        self._session: Any = None  # a requests.Session, made on first use (import cost)
        self._down: str | None = None  # set once the hub cannot be reached
        self.requests_made = 0

    # -- public -----------------------------------------------------------------------------

    def revision(self, repository: str | None, revision: str | None) -> Answer:
        if not repository or not revision:
            return Answer(UNKNOWN, "no repository or revision to ask about")
        parts = repository.strip().split("/")
        if len(parts) != 2 or not all(_PART.match(p) for p in parts) or not _REV.match(revision):
            return Answer(UNKNOWN, f"{repository}@{revision} is not a model-hub repository id and revision")
        url = f"{self.base_url}/api/models/{quote(parts[0])}/{quote(parts[1])}/revision/{quote(revision, safe='')}"
        cached = self._cached(url)
        if cached is not None:
            return cached
        if self._down is not None:
            return Answer(UNKNOWN, self._down)
        answer = self._ask(url)
        if answer.state != UNKNOWN:
            self._store(url, answer)
        return answer

    def json_file(self, repository: str | None, revision: str | None, filename: str) -> FileAnswer:
        """The JSON object `filename` of `repository` at the commit `revision`."""
        if not repository or not revision:
            return FileAnswer(UNKNOWN, "no repository or revision to ask about")
        if not is_commit(revision):
            return FileAnswer(UNKNOWN, f"revision not pinned ({revision!r} is not a 40-hex commit)")
        parts = repository.strip().split("/")
        if len(parts) != 2 or not all(_PART.match(p) for p in parts) or not _PART.match(filename):
            return FileAnswer(UNKNOWN, f"{repository} is not a model-hub repository id")
        url = (f"{self.base_url}/{quote(parts[0])}/{quote(parts[1])}/resolve/"
               f"{revision.lower()}/{quote(filename)}")
        cached = self._cached_file(url)
        if cached is not None:
            return cached
        if self._down is not None:
            return FileAnswer(UNKNOWN, self._down)
        answer = self._ask_file(url, filename)
        if answer.state != UNKNOWN:
            self._write_entry(url, {"state": answer.state, "detail": answer.detail, "data": answer.data})
        return answer

    # -- HTTP -------------------------------------------------------------------------------

    def _get(self, url: str):
        import requests

        if self._session is None:
            self._session = requests.Session()
            self._session.headers["User-Agent"] = "drafterlint-audit"
            if self._token:
                self._session.headers["Authorization"] = f"Bearer {self._token}"
        self.requests_made += 1
        return send(self._session, "GET", url, timeout=self.timeout, allow_redirects=True)

    def _ask(self, url: str) -> Answer:
        return self._fetch(url)[0]

    def _fetch(self, url: str):
        """(Answer, the response when there was a definite one)."""
        import requests

        try:
            resp = self._retry.run(
                lambda: self._get(url),
                lambda r: r.status_code == 429 or r.status_code >= 500,
                (requests.ConnectionError,),
            )
        except AnswerTooLarge as exc:
            return Answer(UNKNOWN, f"the model hub's answer was cut off: {exc}"), None
        except AnswerTooSlow as exc:  # as slow for the next file: not asked again this run
            self._down = f"the model hub is too slow: {exc}"
            return Answer(UNKNOWN, self._down), None
        except requests.RequestException as exc:
            self._down = f"could not reach the model hub ({type(exc).__name__})"
            return Answer(UNKNOWN, self._down), None
        code = resp.status_code
        if code == 200:
            return Answer(EXISTS, "200"), resp
        if code == 404:
            err = resp.headers.get("X-Error-Code", "")
            return Answer(MISSING, f"{code} {err}".strip()), resp
        if code == 429 or code >= 500:
            waited = self._retry.gave_up(resp)
            if waited:  # it will not be sooner (or more readable) for the next revision
                self._down = f"the model hub answered {code}, {waited}"
                return Answer(UNKNOWN, self._down), None
            return Answer(UNKNOWN, f"the model hub answered {code} after {self._retry.retries + 1} attempts"), None
        return Answer(UNKNOWN, f"the model hub answered {code} (gated, private or refused)"), None

    def _ask_file(self, url: str, filename: str) -> FileAnswer:
        first, resp = self._fetch(url)
        if first.state != EXISTS:
            return FileAnswer(first.state, first.detail)
        try:
            data = answers.expect(answers.json_of(resp.content, filename), dict, filename)
        except AnswerTooComplex as exc:  # no hub serves such a file: not asked again this run
            self._down = f"the model hub answered more than a model's file holds: {exc}"
            return FileAnswer(UNKNOWN, self._down)
        except BadAnswer as exc:
            return FileAnswer(UNKNOWN, str(exc))
        return FileAnswer(FOUND, "200", data)

    # -- cache ------------------------------------------------------------------------------

    def _cached_file(self, url: str) -> FileAnswer | None:
        data = self._read_entry(url)
        if data is None or data.get("state") not in (FOUND, MISSING):
            return None
        body = data.get("data")
        if data["state"] == FOUND and not isinstance(body, dict):
            return None
        return FileAnswer(data["state"], str(data.get("detail", "")) + " (cached)", body)

    def _read_entry(self, url: str) -> dict | None:
        """A fresh cache entry for `url`, or None."""
        path = self._cache_file(url)
        if path is None or not path.is_file():
            return None
        try:
            data = answers.json_of(path.read_bytes(), "a cache entry")
            if data.get("url") != url or self._clock() - float(data["time"]) > CACHE_SECONDS:
                return None
            return data
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def _write_entry(self, url: str, entry: dict) -> None:
        path = self._cache_file(url)
        if path is None:
            return
        from drafterlint.findings import InputError
        from drafterlint.safeio import write_file

        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, json.dumps({"url": url, "time": self._clock(), **entry}),
                       within=self.cache_dir, what="hub cache entry")
        except (OSError, InputError):
            pass  # a cache that cannot be written only costs a request next time

    def _cache_file(self, url: str) -> Path | None:
        if self.cache_dir is None:
            return None
        return self.cache_dir / "hub" / (hashlib.sha256(url.encode()).hexdigest()[:32] + ".json")

    def _cached(self, url: str) -> Answer | None:
        data = self._read_entry(url)
        if data is None or data.get("state") not in (EXISTS, MISSING):
            return None
        return Answer(data["state"], str(data.get("detail", "")) + " (cached)")

    def _store(self, url: str, answer: Answer) -> None:
        self._write_entry(url, {"state": answer.state, "detail": answer.detail})


class StaticHub:
    """A hub that answers from tables, for examples and tests that do not need a server.

    `answers`: "org/name@revision" -> "exists"/"missing" (revision look-ups); `files`:
    "org/name@revision/file" -> the file's JSON object (json_file). A file missing at a revision
    that has other files is MISSING; anything else is unknown."""

    def __init__(self, answers: dict[str, str], files: dict[str, dict] | None = None):
        self.answers = dict(answers)
        self.files = dict(files or {})

    def revision(self, repository: str | None, revision: str | None) -> Answer:
        state = self.answers.get(f"{repository}@{revision}")
        if state in (EXISTS, MISSING):
            return Answer(state, "static")
        return Answer(UNKNOWN, "the model hub could not be reached")

    def json_file(self, repository: str | None, revision: str | None, filename: str) -> FileAnswer:
        if not is_commit(revision):
            return FileAnswer(UNKNOWN, f"revision not pinned ({revision!r} is not a 40-hex commit)")
        at = f"{repository}@{revision}/"
        if at + filename in self.files:
            return FileAnswer(FOUND, "static", self.files[at + filename])
        if any(k.startswith(at) for k in self.files):
            return FileAnswer(MISSING, "404 EntryNotFound")
        return FileAnswer(UNKNOWN, "the model hub could not be reached")
