"""Suggested changes on a pull request: one review of drafterlint's whose comments carry GitHub
`suggestion` blocks, each the line as `fix` leaves it (`drafterlint fix --review OWNER/REPO#N`,
which the Action runs when its `suggested-changes` input is true).

Which lines. GitHub places a review comment only on the pull request's diff, and "Commit
suggestion" replaces whole lines; so a fix is suggested when every line it edits is one the pull
request changed (half a fix would not pass the check), and the edits of all such fixes on one
line make one comment. The fixes on other lines (a renamed heading's links elsewhere in the
document) are counted in the review's body and left to the job summary's patch. With the pull
request's head commit given (`--review-commit`), a line whose text there differs from the one
checked (the Action checks out the merge commit) is left to the patch as well, and so is a line
holding a bare carriage return (git's line, which the parser read as two: a comment's body would
not keep it). Lines are git's (drafterlint.gitlines), as GitHub numbers them.

Whose review. drafterlint's review is one whose author is the token's identity (`writer()`, as
for the audit's tracking issue: GET /user; the Actions token may not ask, and writes as
github-actions[bot]) and whose body starts with MARKER.
Anyone else's review, one that copies the marker included, is never read for state, edited or
deleted; nor is a comment of another author inside drafterlint's review.

A re-run. When the comments it would post are those of its latest review on the same commit,
nothing is written. Otherwise the comments of its earlier reviews are deleted and their bodies
say they were replaced (GitHub lets no one delete a submitted review), then one new review is
posted, if anything is left to suggest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from drafterlint import answers
from drafterlint.answers import BadAnswer
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.githubapi import GitHubClient
    from drafterlint.options import FixOptions

MARKER = "<!-- drafterlint-suggested-changes -->"
REPLACED = f"{MARKER}\ndrafterlint: replaced by a later review."


@dataclass(frozen=True)
class Suggested:
    """A suggested change on one line of a pull request."""

    path: str
    line: int
    text: str  # the line as fix leaves it ("\n" where fix inserts lines after it)
    findings: tuple  # the findings its edits mend, in document order


def suggested_lines(plan, repo: str, changed: dict[str, set[int]],
                    line_at_head: Callable[[str, int], str | None] | None = None) -> tuple[list[Suggested], int, int]:
    """(one Suggested per changed line of `repo` that fix edits; how many of fix's proposals for
    `repo` are left to the patch because a line they edit is not a changed one; how many because
    one holds a bare "\r")."""
    from drafterlint.fix.edits import SourceFile

    sources = {path: SourceFile(before) for (name, path), (before, _) in plan.files.items() if name == repo}
    edits: dict[tuple[str, int], list] = {}
    found: dict[tuple[str, int], list] = {}
    elsewhere = held = 0
    for p in plan.proposals:
        name, path = p.file
        if name != repo:
            continue
        src = sources[path]
        # At git's lines, as GitHub places a comment.
        placed = [(src.replacement(e), order, e) for order, e in enumerate(p.edits)]
        lines = {r.line for r, _, _ in placed}
        same = line_at_head is None or all(line_at_head(path, n) in (None, src.git_line(n)) for n in lines)
        if not (same and lines <= changed.get(path, set())):
            elsewhere += 1
            continue
        if any("\r" in src.git_line(n) for n in lines):  # a comment's body keeps no bare "\r"
            held += 1
            continue
        for r, order, e in placed:
            edits.setdefault((path, r.line), []).append((r.start, order, r, e))
        found.setdefault((path, min(lines)), []).append(p.finding)
    out = []
    for (path, line), at in sorted(edits.items()):
        text = sources[path].git_line(line).encode("utf-8")
        # Right to left, so that each edit's column still counts from the line as read; at one
        # column the later insertion first, so that they end in the order fix writes them.
        for start, _, r, e in sorted(at, key=lambda t: (t[0], t[1]), reverse=True):
            text = text[:start - 1] + e.new.encode("utf-8") + text[r.end - 1:]
        out.append(Suggested(path, line, text.decode("utf-8"), tuple(found.get((path, line), ()))))
    return out, elsewhere, held


def comment_body(s: Suggested, quoted: Callable[[str], str]) -> str:
    """What the finding is (quoted: text from the documents, made inert), then the suggestion."""
    from drafterlint.report.markdown_writer import code_block

    said = [f"**{f.code}** {f.name}: {quoted(f.message)}" for f in s.findings]
    return "\n\n".join([*said, code_block(s.text, "suggestion")])


def review_body(posted: int, elsewhere: int, patch_hint: str, held: int = 0) -> str:
    lines = [MARKER, f"**drafterlint** suggests {posted} change{'' if posted == 1 else 's'} on lines this pull "
             "request changed, each what `drafterlint fix` writes: \"Commit suggestion\" applies one, "
             "\"Add suggestion to batch\" several in one commit."]
    if elsewhere:
        lines.append(f"{elsewhere} more fix{'' if elsewhere == 1 else 'es'} lie on lines this pull request did not "
                     f"change, where GitHub takes no suggestion: {patch_hint}.")
    if held:
        lines.append(f"{held} more fix{'' if held == 1 else 'es'} lie on lines holding a bare carriage return, which a "
                     f"suggestion cannot keep: {patch_hint}.")
    return "\n\n".join(lines)


# -- the review on GitHub -----------------------------------------------------------------------


def _login(item: dict, what: str) -> str:
    user = answers.field(item, "user", (dict, type(None)), what, required=False) or {}
    return answers.field(user, "login", (str, type(None)), f"the user of {what}", required=False) or ""


def own_reviews(client: "GitHubClient", number: int, me: str) -> list[dict]:
    """drafterlint's reviews on the pull request: author `me` and MARKER opening the body."""
    out = []
    for i, r in enumerate(client.list_all(f"/repos/{client.repo}/pulls/{int(number)}/reviews")):
        what = f"review {i} of pull request {number}"
        try:
            body = answers.field(r, "body", (str, type(None)), what, required=False) or ""
            if _login(r, what) == me and body.startswith(MARKER):
                answers.positive_int(r, "id", what)
                out.append(r)
        except BadAnswer as exc:
            raise client.bad_answer(exc) from None
    return sorted(out, key=lambda r: r["id"])


def _comments(client: "GitHubClient", number: int, review: dict, me: str) -> list[dict]:
    out = []
    url = f"/repos/{client.repo}/pulls/{int(number)}/reviews/{review['id']}/comments"
    for i, c in enumerate(client.list_all(url)):
        what = f"comment {i} of review {review['id']}"
        try:
            if _login(c, what) != me:
                continue
            answers.positive_int(c, "id", what)
            answers.field(c, "path", str, what)
            answers.field(c, "body", str, what)
            answers.field(c, "line", (int, type(None)), what, required=False)
        except BadAnswer as exc:
            raise client.bad_answer(exc) from None
        out.append(c)
    return out


def publish(client: "GitHubClient", number: int, commit: str, suggested: list[Suggested], body: str,
            quoted: Callable[[str], str]) -> str:
    """Bring drafterlint's review on pull request `number` to `suggested`; what was done, in words
    (after why it took its review to be the Actions bot's, when GitHub named no user)."""
    me, unnamed = client.writer()  # the identity the audit's tracking issue is written as, too
    done = _publish(client, number, commit, suggested, body, quoted, me)
    return f"{unnamed}: its review is the one {me} wrote; {done}" if unnamed else done


def _publish(client: "GitHubClient", number: int, commit: str, suggested: list[Suggested], body: str,
             quoted: Callable[[str], str], me: str) -> str:
    wanted = sorted((s.path, s.line, comment_body(s, quoted)) for s in suggested)
    mine = own_reviews(client, number, me)
    held = {r["id"]: _comments(client, number, r, me) for r in mine}
    if mine and wanted:
        latest = mine[-1]
        there = sorted((c["path"], c.get("line"), c["body"]) for c in held[latest["id"]])
        if there == wanted and latest.get("commit_id") == commit and latest.get("body") == body:
            return f"its review already suggests these {len(wanted)} change(s): left as it is"
    if not mine and not wanted:
        return "nothing to suggest on the lines this pull request changed"
    for r in mine:
        for c in held[r["id"]]:
            client.send("DELETE", f"/repos/{client.repo}/pulls/comments/{c['id']}")
        if r.get("body") != REPLACED:
            client.send("PUT", f"/repos/{client.repo}/pulls/{int(number)}/reviews/{r['id']}", json={"body": REPLACED})
    if not wanted:
        return "nothing left to suggest: its earlier suggestions were withdrawn"
    client.send("POST", f"/repos/{client.repo}/pulls/{int(number)}/reviews", json={
        "commit_id": commit,
        "body": body,
        "event": "COMMENT",
        "comments": [{"path": path, "line": line, "side": "RIGHT", "body": text} for path, line, text in wanted],
    })
    return f"{'replaced its review: ' if mine else ''}{len(wanted)} suggested change(s) posted in one review"


# -- `drafterlint fix --review OWNER/REPO#N` ---------------------------------------------------------


def parse_target(value: str) -> tuple[str, int]:
    """OWNER/REPO#NUMBER -> (OWNER/REPO, NUMBER); InputError otherwise."""
    from drafterlint.findings import InputError
    from drafterlint.githubapi import validate_repo

    repo, sep, number = value.partition("#")
    if not sep or not number.isascii() or not number.isdigit() or int(number) < 1 or len(number) > 9:
        raise InputError(f"--review takes OWNER/REPO#NUMBER (a pull request), not {value!r}")
    try:
        return validate_repo(repo), int(number)
    except InputError:
        raise InputError(f"--review takes OWNER/REPO#NUMBER (a pull request), not {value!r}") from None


def _lines_at(root, commit: str) -> Callable[[str, int], str | None]:
    """(path, line) -> that line of the file at `commit`; None when git cannot tell (the commit
    is not in this clone), so that the checkout's own line is taken."""
    from drafterlint.findings import FetchError
    from drafterlint.fix.edits import Refused, SourceFile
    from drafterlint.gitops import run_git

    files: dict[str, SourceFile | None] = {}

    def line(path: str, n: int) -> str | None:
        if path not in files:
            try:
                files[path] = SourceFile(run_git(root, ["show", f"{commit}:{path}"], binary=True, timeout=60))
            except (FetchError, Refused):
                files[path] = None
        src = files[path]
        if src is None:
            return None
        return src.git_line(n) if n <= src.git_lines() else ""

    return line


def post(options: "FixOptions", planned: Any) -> str:
    """Post fix's plan (`planned`, fix.command.Planned, which imports this module) as suggested
    changes on the pull request --review names; the one line that says what was done, or what to
    fix when nothing could be."""
    import os

    from drafterlint.githubapi import GitHubClient, GitHubError, token_problem
    from drafterlint.gitops import changed_lines, run_git
    from drafterlint.report.markdown_writer import code, message
    from drafterlint.steps import scope_of

    assert options.review, "posted for fix --review only"
    repo, number = parse_target(options.review)
    single = scope_of(planned.run, replace(options, scope=repo)).single
    if single is None or planned.views.get(single) is None:
        return (f"drafterlint: suggested changes not posted; to fix: configure `github: {repo}` for the repository "
                "the pull request changes (rules or registry), so that drafterlint can tell which one it is")
    view = planned.views[single]
    changed = changed_lines(view.root, options.base_ref) if options.base_ref else None
    if changed is None:
        return (f"drafterlint: suggested changes not posted; to fix: fetch the base {options.base_ref} "
                "(the lines the pull request changed cannot be told without it)")
    token = os.environ.get("GITHUB_TOKEN") or None
    problem = token_problem("GITHUB_TOKEN", token)
    if problem:
        return (f"drafterlint: suggested changes not posted; to fix: pass a token that may write to pull requests "
                f"in GITHUB_TOKEN ({problem})")
    try:
        commit = options.review_commit or run_git(view.root, ["rev-parse", "HEAD"])
        suggested, elsewhere, held = suggested_lines(planned.plan, single, changed, _lines_at(view.root, commit))
        body = review_body(len(suggested), elsewhere, f"{code(f'drafterlint fix --base-ref {options.base_ref}')} makes them all",
                           held)
        client = GitHubClient(options.github_api_url, repo, token)
        done = publish(client, number, commit, suggested, body, message)
    except GitHubError as exc:
        if exc.status in (403, 404):
            fix = ("give the workflow `permissions: pull-requests: write`; a pull request from a fork gets a "
                   "read-only token, and the job summary's patch stands in")
        else:
            fix = exc.fix or "see the cause"
        return f"drafterlint: suggested changes not posted; to fix: {fix} (cause: {exc})"
    return f"drafterlint: suggested changes on {repo}#{number}: {done}"
