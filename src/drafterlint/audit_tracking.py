"""The audit's tracking issue (`drafterlint audit --open-issue OWNER/REPO`): looked up before the
checks (the previous audit's state is in its body), then created, updated or closed once the
reports are written. What goes wrong is recorded in `Tracking` and fails the run with exit 4."""

from __future__ import annotations

import os
import sys
from typing import Any

from drafterlint.findings import Severity
from drafterlint.options import AuditOptions
from drafterlint.records import dataclass
from drafterlint.report import one_line


@dataclass
class Tracking:
    """The tracking issue of one run: where, the client, what was found, and what went wrong.
    `failure` (with `fix`, what to change) makes the run fail with EXIT_TRACKING."""

    repo: str
    client: Any = None  # a GitHubClient
    token_problem: str = ""
    existing: dict | None = None  # the audit's own tracking issue, once looked up
    looked: bool = False
    failure: str = ""
    fix: str = ""

    def fail(self, exc) -> None:
        self.failure, self.fix = str(exc), getattr(exc, "fix", "")


def start_tracking(options: AuditOptions, repo: str | None, http_timeout: float) -> Tracking | None:
    """The tracking issue's client, made before anything is brought: a token that is missing or
    refused is said now, once, in a line that never shows it (the issue is still read without
    one, as a public repository's issues can be, and the run fails at the update); a token is
    never sent over plain http (InputError, exit 2)."""
    if repo is None:
        return None
    from drafterlint.githubapi import GitHubClient, token_problem

    token = os.environ.get("GITHUB_TOKEN") or None
    tracking = Tracking(repo, token_problem=token_problem("GITHUB_TOKEN", token))
    if tracking.token_problem and token:  # set but refused: say so now, in one line
        print(one_line(f"drafterlint: {tracking.token_problem}"), file=sys.stderr)
    tracking.client = GitHubClient(options.github_api_url, repo, None if tracking.token_problem else token,
                                   timeout=http_timeout)
    return tracking


def look_up(tracking: Tracking) -> None:
    """Find the tracking issue (a read: the previous audit's state is in it): the oldest open
    issue whose body opens with the marker and whose author is the identity the audit writes as.
    What else holds the marker, and which identity that is when GitHub names no user, is said
    in one line each."""
    from drafterlint.githubapi import GitHubError

    client = tracking.client
    try:
        author, unnamed = client.writer()
        found = client.find_open(author)
    except GitHubError as exc:
        tracking.fail(exc)
        return
    tracking.existing, tracking.looked = found.own, True
    if unnamed:
        _say(f"{unnamed}: the tracking issue is the one {author} wrote")
    if found.newer:
        _say(f"more than one open issue is the audit's own ({author}): the oldest, #{found.own['number']}, is the "
             f"tracking issue; left as they are: {_numbers(found.newer)}")
    if found.foreign:
        _say(f"holding the audit's marker but not its tracking issue (not opened by {author} with the marker "
             f"first), so never written nor read: {_numbers(found.foreign)}")


def _numbers(numbers: tuple[int, ...], most: int = 10) -> str:
    shown = ", ".join(f"#{n}" for n in numbers[:most])
    more = len(numbers) - most
    return f"{shown} and {more} more" if more > 0 else shown


def _say(text: str) -> None:
    print(one_line(f"drafterlint: {text}"), file=sys.stderr)


def previous_state(tracking: Tracking, notes: list[str]) -> "tuple[list[dict[str, Any]] | None, str | None, str]":
    """(finding dicts, where from, a note when it kept only some) of the state the previous
    audit left in the issue's body; why it cannot be read goes to `notes`."""
    from drafterlint import auditstate
    from drafterlint.githubapi import MARKER

    existing = tracking.existing
    assert existing is not None, "read only from an issue that was found"
    number = existing["number"]
    state, why = auditstate.read(existing.get("body"), MARKER)
    if state is None:
        notes.append(f"the previous audit: {why}")
        return None, None, ""
    if state.left_out:
        _say(f"the tracking issue #{number}: {state.left_out}")
    partial = ""
    if state.partial:
        partial = (f"The previous audit's state kept {len(state.items)} of its {state.total} findings; "
                   "one it did not keep counts as new here.")
    return state.items, f"the tracking issue #{number}", partial


def settle(tracking: Tracking, config, result, meta, info, crashed: list) -> None:
    """Update the tracking issue, unless a rule failed; say why when it was not updated."""
    if crashed:  # a partial run would mark the failed rule's findings fixed
        tracking.failure = tracking.failure or "a rule failed, so the tracking issue was left as it was"
    else:
        fail_on = min(config.fail_on, Severity.WARNING)
        _update(tracking, result, meta, info, clean=not any(f.severity >= fail_on for f in result.findings))
    if tracking.failure:
        # What to do first, then the cause: a reader of the log's last line acts on its start.
        line = f"drafterlint: error: the tracking issue in {tracking.repo} was not updated"
        said = f"; to fix: {tracking.fix} (cause: {tracking.failure})" if tracking.fix else f": {tracking.failure}"
        print(one_line(line + said), file=sys.stderr)


def _update(tracking: Tracking, result, meta, info, clean: bool) -> None:
    """Create, update or close the tracking issue; a failure is recorded in `tracking`."""
    from drafterlint import auditstate
    from drafterlint.githubapi import MARKER, MAX_BODY, GitHubError, sync_issue
    from drafterlint.report.audit_markdown import by_severity_then_rule, issue_title, render_audit

    if tracking.token_problem:
        tracking.failure = f"{tracking.token_problem}: the tracking issue cannot be written"
        tracking.fix = ("set GITHUB_TOKEN to a token that may write issues (in a workflow: "
                        "`env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` and `permissions: issues: write`)")
        return
    if tracking.failure or not tracking.looked:
        return  # not found for sure: an update now could make a second issue
    visible = render_audit(result, meta, info, max_chars=MAX_BODY - auditstate.MAX_CHARS - len(MARKER) - 2)
    state = auditstate.comment(by_severity_then_rule(result.findings), auditstate.budget(len(visible)))
    try:
        outcome = sync_issue(tracking.client, title=issue_title(result, info),
                             body="\n".join([MARKER, state, visible]), clean=clean,
                             existing=tracking.existing, looked=True,
                             close_comment=f"The audit of {info.today} is clean: closing.")
    except GitHubError as exc:
        tracking.fail(exc)
        return
    if outcome.action != "none":
        print(one_line(f"drafterlint: tracking issue {outcome.action}: #{outcome.number}"), file=sys.stderr)
