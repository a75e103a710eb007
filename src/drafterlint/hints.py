"""What a message tells a person to run, in the words of the place they read it.

A hint names what the reader has. In the pre-commit hook: the fix hook, as pre-commit runs it,
when the repository's `.pre-commit-config.yaml` lists it, else the command that works in their shell (the installed
`drafterlint` when there is one outside the hook's own environment, which their shell cannot
reach; else `pipx run drafterlint`, as docs/contributors.md sets up). In `pre-push` the base is a
sha: the branch that points at it stands beside it. In the GitHub Action (DRAFTERLINT_ACTION,
set by action/entry.py): the Action's inputs and outputs, not command-line flags.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from drafterlint import lazyre

# Set by the Action's entry script: "suggest-fixes" when the job summary will show the patch.
ACTION_ENV = "DRAFTERLINT_ACTION"
PIPX = "pipx run drafterlint"
_LISTED = lazyre.compile(r"^[ \t]*-?[ \t]*id:[ \t]*['\"]?drafterlint-fix['\"]?[ \t]*(?:#.*)?$", re.M)


def in_action() -> bool:
    return bool(os.environ.get(ACTION_ENV))


def action_shows_patch() -> bool:
    return os.environ.get(ACTION_ENV) == "suggest-fixes"


def fix_hook_command(root: Path) -> str | None:
    """`pre-commit run drafterlint-fix` (with `--hook-stage manual` when it is listed for that
    stage only) when the repository's .pre-commit-config.yaml lists the hook, else None. The
    file is searched as text first: a hook run whose configuration does not list it loads no
    YAML."""
    try:
        text = (root / ".pre-commit-config.yaml").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if not _LISTED.search(text):
        return None
    import yaml

    try:
        data = yaml.safe_load(text)
        hooks = [h for r in data["repos"] for h in r["hooks"] if h.get("id") == "drafterlint-fix"]
    except (yaml.YAMLError, TypeError, KeyError, AttributeError):
        return None
    if not hooks:
        return None
    stages = hooks[0].get("stages") or []
    manual = isinstance(stages, list) and stages == ["manual"]
    return f"pre-commit run {'--hook-stage manual ' if manual else ''}drafterlint-fix"


def command_here() -> str:
    """How the reader's shell runs drafterlint: an installed `drafterlint` that is not this
    process's own environment (pre-commit's, which their shell does not have), else pipx."""
    import shutil  # here: it imports zlib, bz2 and lzma, which only a hook's hint needs

    own = Path(sys.prefix).resolve()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found = shutil.which("drafterlint", path=folder) if folder else None
        if found and own not in Path(found).resolve().parents:
            return "drafterlint"
    return PIPX


def branch_at(root: Path, sha: str) -> str:
    """The branch (local or remote-tracking) pointing at `sha`, for a reader who knows names
    rather than commits ("" when none does or git cannot tell)."""
    from drafterlint.findings import FetchError
    from drafterlint.gitops import run_git

    remote, branch = os.environ.get("PRE_COMMIT_REMOTE_NAME", ""), os.environ.get("PRE_COMMIT_REMOTE_BRANCH", "")
    try:
        names = run_git(root, ["for-each-ref", "--points-at", sha, "--format=%(refname:short)",
                               "refs/heads", "refs/remotes"], timeout=30).split()
    except FetchError:
        return ""
    pushed = f"{remote}/{branch.removeprefix('refs/heads/')}" if remote and branch else ""
    return pushed if pushed in names else (names[0] if names else "")


def hook_fix_hint(root: Path, base: str, head: str) -> str:
    """What mends a link the commit (or the push) broke, said in the hook."""
    if head == "HEAD" and base == "HEAD":
        listed = fix_hook_command(root)
        if listed:
            return f"run `{listed}`"
        cmd = command_here()
        also = ", or list the drafterlint-fix hook in .pre-commit-config.yaml" if cmd == PIPX else ""
        return f"run `{cmd} fix --base-ref HEAD`{also}"
    branch = branch_at(root, base)
    return f"run `{command_here()} fix --base-ref {base}`" + (f" ({branch})" if branch else "")


def action_fix_hint(sha: str) -> str:
    said = f"run `drafterlint fix --base-ref {sha}`"
    return f"apply the job summary's patch (suggest-fixes), or {said}" if action_shows_patch() else said


# Also a <summary> label, where Markdown is not read: no backticks.
ACTION_PREEXISTING = "folded in the job summary; the input only-new: false makes them count"
ACTION_ADOPTION = ("to fail only on what a change introduces: run on pull_request or push events with a base-ref "
                   "(the default there), or commit a baseline file written by `drafterlint baseline`")
ACTION_EVERY_FINDING = "the report at the json-file output has every finding"
