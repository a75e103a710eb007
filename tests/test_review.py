"""Suggested changes on the pull request (`fix --review`, the Action's `suggested-changes`): one
review whose comments carry `suggestion` blocks on the lines the pull request changed, posted to a
loopback server that answers and refuses as GitHub's pulls API does; a re-run replaces its own
review and nothing else; a fork's read-only token gets one line and the patch."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from drafterlint.review import MARKER, REPLACED
from tests.helpers import FakeAPI, committed, git

BASE = """\
# Rules

## 1. Basics

See [§2.1](#21-rotation) for rotation.

## 2. Seeds

### 2.1 Rotation

Text.
"""

ADDED = ("New: the [rotation rule](#21-rotation) applies.\n"
         "Twice: [§2.1](#21-rotation) and [again](#21-rotation) — ünd so.\n")



def diff_lines(root: Path) -> dict[str, set[int]]:
    """The lines of the pull request's diff a comment may sit on (its added lines), read here from
    git's own output as git writes it: its lines end at "\\n" only (read as bytes: as text, a
    "\\r" would end one too), and a hunk holds as many as its header counts (an added line
    `++ b/x` is printed `+++ b/x`)."""
    diff = subprocess.run(["git", "diff", "-U0", "main...HEAD"], cwd=root, check=True, capture_output=True).stdout
    out: dict[str, set[int]] = {}
    path, left = "", 0
    for line in diff.decode("utf-8").split("\n"):
        if left:
            left -= not line.startswith("\\")  # ("\\ No newline at end of file" is none of them)
            continue
        if line.startswith("+++ b/"):
            path = line[6:]
        m = re.match(r"@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
        if m:
            start, count = int(m[2]), int(m[3] or 1)
            left = int(m[1] or 1) + count
            out.setdefault(path, set()).update(range(start, start + count))
    return out


def pull_request(where: Path, api: FakeAPI) -> tuple[Path, str]:
    """A branch that renames §2.1 and adds two lines linking to its old anchor; the link above
    it is on a line the pull request does not change. Returns (the checkout, the head commit)."""
    root = committed(where / "rules", {"endpoints_rules.md": BASE, ".drafterlint.yaml": "select: [DL2]\n"})
    git(root, "checkout", "-qb", "rename")
    text = BASE.replace("### 2.1 Rotation", "### 2.1 Seed Rotation").replace("Text.\n", "Text.\n" + ADDED)
    (root / "endpoints_rules.md").write_text(text, encoding="utf-8")
    git(root, "commit", "-qam", "rename")
    api.pr_lines = diff_lines(root)
    return root, git(root, "rev-parse", "HEAD")


@pytest.fixture
def review(cli, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", FakeAPI.TOKEN)

    def run(root: Path, head: str):
        return cli("fix", "--diff", "--base-ref", "main", "--review", "o/r#7", "--review-commit", head,
                   "--github-api-url", fake_api.url, cwd=root)

    return run


def _line_no(root: Path, start: str) -> int:
    lines = (root / "endpoints_rules.md").read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start))


def test_one_review_with_a_suggestion_on_each_changed_line_that_fix_mends(tmp_path, fake_api, review):
    root, head = pull_request(tmp_path, fake_api)
    code, out, err = review(root, head)
    assert code == 1 and out.startswith("--- a/endpoints_rules.md")  # the patch is still printed
    assert "drafterlint: suggested changes on o/r#7: 2 suggested change(s) posted in one review" in err
    (post,) = [w for w in fake_api.writes if w[0] == "POST"]
    assert post[1] == "/repos/o/r/pulls/7/reviews"
    sent = post[2]
    assert sent["commit_id"] == head and sent["event"] == "COMMENT" and sent["body"].startswith(MARKER + "\n")
    # the link on a line this pull request did not change is the patch's: said in the body
    assert "1 more fix lie on lines this pull request did not change" in sent["body"]
    assert "`drafterlint fix --base-ref main` makes them all" in sent["body"]
    by_line = {c["line"]: c for c in sent["comments"]}
    new, twice = _line_no(root, "New:"), _line_no(root, "Twice:")
    assert set(by_line) == {new, twice} and all(c["path"] == "endpoints_rules.md" for c in by_line.values())
    # each suggestion is the whole line as fix leaves it; two fixes on one line make one comment
    assert by_line[new]["body"].endswith(
        "```suggestion\nNew: the [rotation rule](#21-seed-rotation) applies.\n```")
    assert by_line[twice]["body"].endswith(
        "```suggestion\nTwice: [§2.1](#21-seed-rotation) and [again](#21-seed-rotation) — ünd so.\n```")
    assert by_line[twice]["body"].count("**DL201** broken-fragment") == 2
    # the suggestions are fix's: the patch makes the same lines
    assert "+Twice: [§2.1](#21-seed-rotation) and [again](#21-seed-rotation) — ünd so." in out


def test_a_rerun_leaves_an_unchanged_review_and_replaces_only_its_own(tmp_path, fake_api, review):
    root, head = pull_request(tmp_path, fake_api)
    review(root, head)
    (first,) = fake_api.reviews
    # someone else's review, its body opening with drafterlint's marker and holding a suggestion
    other = fake_api.add_review(7, "mallory", f"{MARKER}\nlooks like drafterlint's", head,
                                [("endpoints_rules.md", 1, "```suggestion\n# Pwned\n```")])
    writes = len(fake_api.writes)
    code, out, err = review(root, head)
    assert len(fake_api.writes) == writes  # the same suggestions on the same commit: nothing written
    assert "already suggests these 2 change(s): left as it is" in err
    # the pull request moves on: one more line to suggest
    with (root / "endpoints_rules.md").open("a", encoding="utf-8") as fh:
        fh.write("Third: [§2.1](#21-rotation).\n")
    git(root, "commit", "-qam", "more")
    fake_api.pr_lines = diff_lines(root)
    head = git(root, "rev-parse", "HEAD")
    code, out, err = review(root, head)
    assert "replaced its review: 3 suggested change(s) posted in one review" in err
    done = fake_api.writes[writes:]
    assert [w[0] for w in done] == ["DELETE", "DELETE", "PUT", "POST"]
    assert fake_api.reviews[first]["body"] == REPLACED and fake_api.comments_of(first) == []
    second = max(fake_api.reviews)
    assert len(fake_api.comments_of(second)) == 3 and fake_api.reviews[second]["commit_id"] == head
    # mallory's review and comment are as they were, and no write named them
    assert fake_api.reviews[other]["body"].endswith("looks like drafterlint's")
    assert len(fake_api.comments_of(other)) == 1
    assert not [w for w in done if f"/{other}" in w[1] or w[1].endswith(f"/{other + 1}")]
    # everything fixed: its suggestions are withdrawn, nothing new is posted
    subprocess.run(["git", "apply"], input=out, text=True, cwd=root, check=True)
    git(root, "commit", "-qam", "fixed")
    fake_api.pr_lines = diff_lines(root)
    code, out, err = review(root, git(root, "rev-parse", "HEAD"))
    assert "nothing left to suggest: its earlier suggestions were withdrawn" in err
    assert fake_api.comments_of(second) == [] and fake_api.reviews[second]["body"] == REPLACED
    assert len(fake_api.comments_of(other)) == 1


def test_the_actions_token_writes_as_the_actions_bot(tmp_path, fake_api, review):
    fake_api.login = None  # GET /user is refused to the Actions token
    root, head = pull_request(tmp_path, fake_api)
    review(root, head)
    (made,) = fake_api.reviews.values()
    assert made["user"]["login"] == "github-actions[bot]"
    writes = len(fake_api.writes)
    review(root, head)
    assert len(fake_api.writes) == writes  # found again as its own


def test_an_answer_naming_no_user_makes_the_actions_bot_the_reviews_author_as_for_the_audit(tmp_path, fake_api,
                                                                                          review):
    """The review's author is the audit's writer(): one identity, derived once."""
    root, head = pull_request(tmp_path, fake_api)
    theirs = fake_api.add_review(7, "a-maintainer", f"{MARKER}\nlooks like drafterlint's", head, [("endpoints_rules.md", 1, "x")])
    fake_api.login = None  # what it posts, GitHub shows as the Actions bot's
    fake_api.fail.append(("GET", "/user", 200, {}))  # but GET /user answers 200 {}: no login
    code, out, err = review(root, head)
    said = [line for line in err.splitlines() if "suggested changes on" in line]
    assert len(said) == 1 and "GET /user named no user (" in said[0], err
    assert "its review is the one github-actions[bot] wrote; " in said[0]
    made = [r for r in fake_api.reviews.values() if r["user"]["login"] == "github-actions[bot]"]
    assert len(made) == 1 and len(fake_api.comments_of(theirs)) == 1  # the maintainer's is not taken for its own
    assert not [w for w in fake_api.writes if w[1].endswith(f"/reviews/{theirs}")]


def test_a_read_only_token_gets_one_line_and_the_patch(tmp_path, fake_api, review):
    fake_api.read_only = True
    root, head = pull_request(tmp_path, fake_api)
    code, out, err = review(root, head)
    assert code == 1 and out.startswith("--- a/endpoints_rules.md")
    said = [line for line in err.splitlines() if "suggested changes" in line]
    assert len(said) == 1 and said[0].startswith(
        "drafterlint: suggested changes not posted; to fix: give the workflow `permissions: pull-requests: write`")
    assert fake_api.reviews == {} and FakeAPI.TOKEN not in err


def test_a_line_that_differs_at_the_head_commit_is_left_to_the_patch(tmp_path, fake_api, review):
    root, head = pull_request(tmp_path, fake_api)
    # the checkout is not the head (the Action checks out a merge commit): a line that reads
    # otherwise there is not suggested, since GitHub would place it on another text
    text = (root / "endpoints_rules.md").read_text(encoding="utf-8").replace("New: the", "New: that")
    (root / "endpoints_rules.md").write_text(text, encoding="utf-8")
    git(root, "commit", "-qam", "merge-like")
    fake_api.pr_lines = diff_lines(root)
    code, out, err = review(root, head)
    (post,) = [w for w in fake_api.writes if w[0] == "POST"]
    assert [c["line"] for c in post[2]["comments"]] == [_line_no(root, "Twice:")]
    assert "2 more fixes lie on lines" in post[2]["body"]


@pytest.mark.parametrize("args, text", [
    (("--review", "o/r#7"), "--review needs --base-ref"),
    (("--base-ref", "main", "--review", "o/r"), "--review takes OWNER/REPO#NUMBER"),
    (("--base-ref", "main", "--review", "o/../r#1"), "--review takes OWNER/REPO#NUMBER"),
])
def test_a_mistyped_review_is_a_usage_error(cli, tmp_path, fake_api, args, text):
    root, _ = pull_request(tmp_path, fake_api)
    code, out, err = cli("fix", "--diff", *args, cwd=root)
    assert code == 2 and text in err and err.count("\n") == 1 and fake_api.log == []


# -- the Action ---------------------------------------------------------------------------------


def _event(tmp_path: Path, head: str, base: str, head_repo: str) -> Path:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {
        "number": 7, "head": {"sha": head, "repo": {"full_name": head_repo}},
        "base": {"sha": base, "repo": {"full_name": "o/r"}}}}))
    return event


def _action_pull_request(runner, api: FakeAPI) -> tuple[str, str]:
    ws = committed(runner.workspace, {"endpoints_rules.md": BASE, ".drafterlint.yaml": "select: [DL2]\n"})
    base = git(ws, "rev-parse", "HEAD")
    git(ws, "checkout", "-qb", "rename")
    text = BASE.replace("### 2.1 Rotation", "### 2.1 Seed Rotation").replace("Text.\n", "Text.\n" + ADDED)
    (ws / "endpoints_rules.md").write_text(text, encoding="utf-8")
    git(ws, "commit", "-qam", "rename")
    git(ws, "branch", "-f", "main", base)
    api.pr_lines = diff_lines(ws)
    return base, git(ws, "rev-parse", "HEAD")


@pytest.mark.parametrize("head_repo", ["o/r", "fork-owner/r"], ids=["same-repository", "fork"])
def test_the_action_posts_on_its_own_pull_requests_and_says_one_line_on_a_fork(runner, fake_api, tmp_path,
                                                                                 head_repo):
    base, head = _action_pull_request(runner, fake_api)
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(_event(tmp_path, head, base, head_repo)),
           "GITHUB_API_URL": fake_api.url, "GITHUB_REPOSITORY": "o/r"}
    proc = runner({"rules-repo": ".", "base-ref": base, "suggested-changes": "true",
                   "github-token": FakeAPI.TOKEN}, extra_env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    summary = runner.summary.read_text()
    assert "```diff\n" in summary  # the patch is in the job summary either way
    if head_repo == "o/r":
        (made,) = fake_api.reviews.values()
        assert made["commit_id"] == head and len(fake_api.comments_of(made["id"])) == 2
        # the pull request is named in a code span: nothing quoted links or notifies
        assert "suggested changes on `o/r#7`: 2 suggested change(s) posted in one review" in summary
    else:
        assert fake_api.log == [] and fake_api.writes == []  # a fork's token is not even tried
        said = [line for line in summary.splitlines() if "suggested changes" in line]
        assert said == ["> suggested changes are not posted on a pull request from a fork (its token may not "
                        "write to the pull request): the job summary's patch makes the same fixes"]
        assert proc.stdout.count("suggested changes are not posted on a pull request from a fork") == 1
    assert FakeAPI.TOKEN not in proc.stdout + proc.stderr + summary


def test_suggestions_sit_on_gits_lines_and_a_line_with_a_bare_cr_is_left_to_the_patch(tmp_path, fake_api, review):
    """git (and GitHub) counts a line at "\\n" only: the parser's line after a bare "\\r" is part
    of git's line. The comments sit on git's lines; the fix on the line holding the "\\r" is left
    to the patch, since a comment's body would not keep it. The line after the heading holds what
    reads like a diff's file header after a U+2028 and a bare "\\r": text to git."""
    root = committed(tmp_path / "rules", {"endpoints_rules.md": BASE, ".drafterlint.yaml": "select: [DL2]\n"})
    git(root, "checkout", "-qb", "rename")
    added = "Held:\r[rotation](#21-rotation) after a CR.\n" + ADDED
    text = BASE.replace("### 2.1 Rotation", "### 2.1 Seed Rotation\nAs \u2028+++ b/else.md and \r+++ b/else.md\n++ b/else.md")
    text = text.replace("Text.\n", "Text.\n" + added)
    (root / "endpoints_rules.md").write_bytes(text.encode("utf-8"))
    git(root, "commit", "-qam", "rename")
    fake_api.pr_lines = diff_lines(root)
    assert fake_api.pr_lines == {"endpoints_rules.md": {n for n, line in enumerate(text.split("\n"), 1)
                                                        if line not in BASE.split("\n")}}
    code, out, err = review(root, git(root, "rev-parse", "HEAD"))
    assert code == 1 and "2 suggested change(s) posted in one review" in err, err
    (post,) = [w for w in fake_api.writes if w[0] == "POST"]
    lines = text.split("\n")  # git's lines
    by_line = {c["line"]: c["body"] for c in post[2]["comments"]}
    assert set(by_line) == {lines.index(ADDED.split("\n")[0]) + 1, lines.index(ADDED.split("\n")[1]) + 1}
    assert by_line[lines.index(ADDED.split("\n")[0]) + 1].endswith(
        "```suggestion\nNew: the [rotation rule](#21-seed-rotation) applies.\n```")
    assert "1 more fix lie on lines holding a bare carriage return" in post[2]["body"]
    assert "+Held:\r[rotation](#21-seed-rotation) after a CR." in out  # the patch mends it
