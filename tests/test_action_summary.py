"""What the Action writes where people and the runner read it holds only what drafterlint wrote.

A real run of action/entry.py on a pull request whose text a stranger controls: an error answer
of the API (quoted in the suggested-changes line), the base branch's name (in the command the
summary names) and the document's lines (in the patch the summary shows) carry a mention, a link,
an image, raw HTML, a comment, a heading, a table pipe, backtick and tilde runs, `</details>` and
a bidi override. The job summary, rendered with cmark-gfm (GitHub's parser), may hold no element,
comment or live word that the same run with plain words in those places does not; the log's
lines are no workflow commands of the stranger's. (GITHUB_OUTPUT and the other formats' logs:
test_injection.py.)
"""

from __future__ import annotations

import html as htmllib
import importlib.util
import json
import re
import shutil

from drafterlint.safeio import is_command_line
from tests.helpers import ACTION_ENTRY, FakeAPI, committed, git
from tests.helpers.rendered import DISGUISING, LIVE, elements, prose, rendered

# On one line (a document's line, an error answer's message, a branch's name each hold one) and
# in a JSON message, with a line break and a heading after it.
PAYLOAD = ("`x`![i](http://t.example/p.png)`y` @org/team <img src=x> a|b <!-- c \u202egnp.exe #12 GH-3 "
           "o/r#4 *e* ~~s~~ &#x202e; ````` ~~~~ </details> www.t.example")
MESSAGE = PAYLOAD + "\n# heading\n| a | b |\n|---|---|"
# A name git takes for a branch (no blank, `[`, `~`, `^`, `:`, `?`, `*` or `\`).
REF = "x`<img>`@org/team|#12\u202egnp</details>www.t.example"
PLAIN = "plain words and some more words in their place"
PLAIN_REF = "plain-base"

BASE = """\
# Rules

## 1. Basics

See [§2.1](#21-rotation) for rotation.

## 2. Seeds

### 2.1 Rotation

Text.
"""


def pull_request_run(runner, api: FakeAPI, said: str, ref: str, *, refused: bool = True) -> tuple[str, str]:
    """The Action on a pull request from a branch of the repository that renames §2.1 next to a
    line holding `said`, based on branch `ref`, asked to post suggested changes, whose review
    the API refuses with `said` as its message when `refused`. (job summary, stdout)."""
    ws = runner.workspace
    shutil.rmtree(ws)
    for f in (runner.summary, runner.output):
        f.write_text("")
    api.reviews.clear()
    api.review_comments.clear()
    api.fail[:] = [("POST", "/repos/o/r/pulls/7/reviews", 422, {})] if refused else []
    api.fail_message = said
    api.pr_lines = {"endpoints_rules.md": set(range(1, 30))}  # where GitHub takes a comment
    committed(ws, {"endpoints_rules.md": BASE, ".drafterlint.yaml": "select: [DL2]\n"})
    git(ws, "branch", ref)
    base = git(ws, "rev-parse", "HEAD")
    git(ws, "checkout", "-qb", "rename")
    line = said.split("\n")[0]
    text = BASE.replace("### 2.1 Rotation", "### 2.1 Seed Rotation").replace(
        "Text.\n", f"Text.\n\nSaid: {line}\nNew: the [rotation rule](#21-rotation) applies.\n")
    (ws / "endpoints_rules.md").write_text(text, encoding="utf-8")
    git(ws, "commit", "-qam", "rename")
    head = git(ws, "rev-parse", "HEAD")
    event = runner.temp / "event.json"
    event.write_text(json.dumps({"pull_request": {
        "number": 7, "head": {"sha": head, "repo": {"full_name": "o/r"}},
        "base": {"sha": base, "repo": {"full_name": "o/r"}}}}))
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
           "GITHUB_API_URL": api.url, "GITHUB_REPOSITORY": "o/r"}
    proc = runner({"rules-repo": ".", "base-ref": ref, "suggested-changes": "true", "github-token": FakeAPI.TOKEN},
                  extra_env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return runner.summary.read_text(encoding="utf-8"), proc.stdout


def test_the_job_summary_quotes_the_strangers_text_as_text(runner, fake_api):
    hostile, log = pull_request_run(runner, fake_api, MESSAGE, REF)
    plain, _ = pull_request_run(runner, fake_api, PLAIN, PLAIN_REF)
    # the fixture is hostile: the section quotes the answer, the branch and the line (else the
    # assertions below prove nothing)
    section = hostile.split("### drafterlint can repair 1 file", 1)[1]
    note = next(ln for ln in section.splitlines() if "suggested changes not posted" in ln)
    assert "HTTP 422" in note and "org/team" in note and "heading" in note
    how = next(ln for ln in section.splitlines() if "makes these changes" in ln)
    assert "org/team" in how and "details" in how
    patch = section.split("```diff\n", 1)[1]
    assert " Said: `x`![i](http://t.example/p.png)" in patch and "+New: the [rotation rule](#21-seed-rotation)" in patch

    found, comments = elements(hostile)
    expected, expected_comments = elements(plain)
    assert found - expected == set()
    assert comments == expected_comments
    assert not any(tag == "img" for tag, *_ in found)
    page = rendered(hostile)
    assert set(LIVE.findall(prose(page))) <= set(LIVE.findall(prose(rendered(plain))))
    assert "<h1>" not in page and "heading" in page
    # the section's fold holds the patch, and the summary ends with it closed
    assert page.count("<details>") == page.count("</details>") == rendered(plain).count("</details>")
    assert DISGUISING.search(hostile) is None
    shown = htmllib.unescape(page)
    assert shown.count("\\u202egnp") >= 3  # the note, the command, the patch's line

    # the log: the line is said once, escaped, and no line of the stranger's is a command
    said = [ln for ln in log.splitlines() if "suggested changes not posted" in ln]
    assert len(said) == 1 and "\\u202egnp" in said[0] and "\\n# heading" in said[0]
    assert [ln for ln in log.splitlines() if is_command_line(ln) and not ln.startswith(("::error ", "::notice "))] == []
    assert DISGUISING.search(log) is None


def test_the_posted_review_quotes_the_base_as_text(runner, fake_api):
    """The review's body names the command that makes the fixes it could not suggest, with the
    base's name in it."""
    pages = {}
    for said, ref in ((MESSAGE, REF), (PLAIN, PLAIN_REF)):
        summary, _ = pull_request_run(runner, fake_api, said, ref, refused=False)
        assert "suggested changes on `o/r#7`: 1 suggested change(s) posted in one review" in summary
        (review,) = fake_api.reviews.values()
        pages[ref] = "\n\n".join([review["body"], *(c["body"] for c in fake_api.comments_of(review["id"]))])
    hostile, plain = pages[REF], pages[PLAIN_REF]
    assert "1 more fix lie" in hostile and "org/team" in hostile.split("1 more fix", 1)[1]
    found, comments = elements(hostile)
    assert found - elements(plain)[0] == set() and comments == elements(plain)[1]
    assert set(LIVE.findall(prose(rendered(hostile)))) <= set(LIVE.findall(prose(rendered(plain))))
    assert DISGUISING.search(hostile) is None


# -- the section itself (report/fix_summary.py) ----------------------------------------------


def test_the_patch_is_one_code_block_inside_the_fold_whatever_its_lines_hold():
    from drafterlint.report.fix_summary import section

    patch = ("--- a/x.md\n+++ b/x.md\n@@ -1,3 +1,3 @@\n ``````\n ~~~~\n-</details> [a](#b)\r\n+</details> [a](#c)\r\n"
             " lone\rcr \u202e\n")
    page = rendered(section(1, patch, base_ref=None, notes=[], show_patch=True))
    (block,) = re.findall(r'<pre lang="diff"><code>(.*?)</code></pre>', page, flags=re.S)
    assert htmllib.unescape(block) == patch.replace("\r\n", "\n").replace("\rcr \u202e", "\\rcr \\u202e")
    assert page.index("<details>") < page.index("<pre") < page.index("</pre>") < page.index("</details>")
    assert page.count("</details>") == 1 and "shown escaped" in page
    crlf = section(1, "--- a/x.md\r\n+++ b/x.md\r\n", base_ref=None, notes=[], show_patch=True)
    assert "```diff\n--- a/x.md\n+++ b/x.md\n```" in crlf and "shown escaped" not in crlf


def test_without_the_patch_or_with_a_long_one_the_section_says_so():
    from drafterlint.report.fix_summary import SHOWN_PATCH_LIMIT, section

    said = "drafterlint: suggested changes on o/r#7: 1 suggested change(s) posted in one review"
    assert section(1, "--- a/x\n", base_ref="b", notes=[said], show_patch=False) == (
        "### drafterlint's suggested changes\n\n> suggested changes on `o/r#7`: 1 suggested change(s) posted "
        "in one review\n")
    assert section(1, "--- a/x\n", base_ref="b", notes=["", ""], show_patch=False) == ""
    long = section(2, "--- a/x\n" + "+" * SHOWN_PATCH_LIMIT, base_ref=None, notes=[], show_patch=True)
    assert long.startswith("### drafterlint can repair 2 files") and "too long to show" in long and "```" not in long


def test_a_section_cut_to_fit_the_summary_closes_its_fence_and_fold_before_the_note(tmp_path, cli, monkeypatch):
    """The job summary holds 1 MiB: the Action cuts what it appends at a line end when the room
    runs out. Cut inside the shown patch, the fence and the fold are closed first, so the note
    saying so is a note a person sees (not a line of the patch, not folded away), and the cut
    leaves nothing live that the whole section does not have; at every line of a real fix's
    section."""
    entry = _action_entry()
    repo = tmp_path / "rules"
    committed(repo, {"endpoints_rules.md": BASE, ".drafterlint.yaml": "select: [DL2]\n"})
    base = git(repo, "rev-parse", "HEAD")
    added = "".join(f"\nSaid {n}: {PAYLOAD}\nNew {n}: the [rotation rule](#21-rotation) applies.\n" for n in range(12))
    (repo / "endpoints_rules.md").write_text(BASE.replace("### 2.1 Rotation", "### 2.1 Seed Rotation") + added,
                                             encoding="utf-8")
    summary_file = tmp_path / "section.md"
    code, _, err = cli("fix", "--diff", "--base-ref", base, f"--summary={summary_file}", "--summary-patch",
                       f"--patch={tmp_path / 'fix.patch'}", cwd=repo)
    section = summary_file.read_text(encoding="utf-8")
    assert code in (0, 1) and "``````diff" in section and section.count("#21-seed-rotation") == 13, err + section
    note = "The patch was cut to fit."
    whole_found, whole_comments = elements(section + f"\n> [!NOTE]\n> {note}\n")
    whole_live = set(LIVE.findall(prose(rendered(section))))
    target = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    data = section.encode("utf-8")
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n") and i + 1 + 300 < len(data)]
    fence = data.index(b"``````diff")
    assert any(e > fence + 200 for e in ends)  # some cuts fall inside the patch
    for end in ends:
        target.write_bytes(b"x" * (entry.SUMMARY_LIMIT - 1024 - 300 - end))
        entry.append_summary_file(summary_file, note)
        appended = target.read_bytes()[entry.SUMMARY_LIMIT - 1024 - 300 - end:].decode("utf-8")
        assert appended.startswith(section[: len(data[:end].decode("utf-8"))][:40]), end
        page = rendered(appended)
        said = f"<blockquote>\n<p>[!NOTE]\n{note}</p>\n</blockquote>"
        assert page.rstrip().endswith(said), (end, page[-400:])
        assert page.count("<details>") == page.count("</details>") and page.count("<pre") == page.count("</pre>"), end
        found, comments = elements(appended)
        assert found <= whole_found and comments <= whole_comments, (end, found - whole_found)
        assert set(LIVE.findall(prose(page))) <= whole_live, end


def test_a_cut_whose_fence_would_not_fit_drops_the_fold_it_opened(tmp_path, monkeypatch):
    """A fence as long as the patch's longest backtick run does not fit in what the cut keeps
    spare: the cut then goes back to before the fold, and still fits."""
    from drafterlint.report.fix_summary import section

    entry = _action_entry()
    patch = "--- a/x.md\n+++ b/x.md\n@@ -1,40 +1,40 @@\n " + "`" * 400 + "\n" + "".join(f"-a {n}\n+b {n}\n" for n in range(40))
    text = section(1, patch, base_ref=None, notes=[], show_patch=True)
    (tmp_path / "section.md").write_text(text, encoding="utf-8")
    target = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    used = entry.SUMMARY_LIMIT - 1024 - 300 - text.index("+b 20\n")
    target.write_bytes(b"x" * used)
    entry.append_summary_file(tmp_path / "section.md", "Cut.")
    appended = target.read_bytes()[used:].decode("utf-8")
    assert len(appended.encode("utf-8")) <= entry.SUMMARY_LIMIT - 1024 - used
    assert appended.startswith("### drafterlint can repair 1 file") and "<details>" not in appended
    assert rendered(appended).rstrip().endswith("<blockquote>\n<p>[!NOTE]\nCut.</p>\n</blockquote>")


def _action_entry():
    """action/entry.py as a module (it runs outside the package, on the standard library)."""
    spec = importlib.util.spec_from_file_location("action_entry", ACTION_ENTRY)
    assert spec is not None and spec.loader is not None
    entry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(entry)
    return entry
