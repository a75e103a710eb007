"""The GitHub Action's entry script (standard library only: it runs before the tool is installed).

    python3 entry.py prepare   # where the virtualenv goes, and its cache key  -> GITHUB_OUTPUT
    python3 entry.py install   # the virtualenv: the locked dependencies (hashes checked), then the action's checkout
    python3 entry.py run       # sync what was asked, run `drafterlint check`, publish the results

Every input arrives in the environment (INPUT_RULES_REPO, INPUT_FAIL_ON, …): action.yml never
puts an input into shell text. `run` writes annotations to stdout (drafterlint's `github`
format), lets drafterlint append the job summary to GITHUB_STEP_SUMMARY (or appends the Markdown
report itself for other formats), writes `errors=`, `warnings=`, `infos=` and the report paths
to GITHUB_OUTPUT, and exits with drafterlint's exit code (0 clean, 1 findings at or above
fail-on, 2 bad input, 3 a repository could not be fetched). When the check fails it also asks
`drafterlint fix --diff` what it would repair (on a pull request only what the change broke),
shows that patch in the job summary and names its file in the `fix-patch` output; it writes
nothing into the workspace.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

ACTION_DIR = Path(__file__).resolve().parent.parent
# What the action installs from the package index, each file by its hash (how it is made:
# docs/development.md, "The action's lock"); the virtualenv notes which lock it holds.
LOCK = ACTION_DIR / "action" / "requirements.lock"
LOCK_MARKER = "drafterlint-action-lock"
FORMATS = ("github", "text", "json", "sarif", "markdown")
SEVERITIES = ("error", "warning", "info")
SUMMARY_LIMIT = 1024 * 1024


class InputProblem(Exception):
    pass


def inp(name: str) -> str:
    """An input by its action.yml name (`fail-on` -> INPUT_FAIL_ON), stripped."""
    return os.environ.get("INPUT_" + name.replace("-", "_").upper(), "").strip()


def gh_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def error(message: str) -> None:
    print(f"::error title=drafterlint action::{gh_escape(message)}", flush=True)


def set_outputs(values: dict[str, str]) -> None:
    """Append name=value lines to GITHUB_OUTPUT (multi-line values use a random delimiter)."""
    path = os.environ.get("GITHUB_OUTPUT")
    if not path:
        for k, v in values.items():
            print(f"output {k}={gh_escape(str(v))}")
        return
    with open(path, "a", encoding="utf-8", newline="\n") as fh:
        for key, value in values.items():
            value = str(value)
            if "\n" in value or "\r" in value:
                delim = f"ghadelimiter_{uuid.uuid4()}"
                while delim in value:  # a delimiter inside the value would end it early
                    delim = f"ghadelimiter_{uuid.uuid4()}"
                fh.write(f"{key}<<{delim}\n{value}\n{delim}\n")
            else:
                fh.write(f"{key}={value}\n")


def temp_dir() -> Path:
    base = os.environ.get("RUNNER_TEMP") or tempfile.gettempdir()
    return Path(base)


# -- prepare / install -----------------------------------------------------------------------


def venv_dir() -> Path:
    given = os.environ.get("DRAFTERLINT_VENV")
    if given:
        return Path(given)
    tool_cache = os.environ.get("RUNNER_TOOL_CACHE")
    base = Path(tool_cache) if tool_cache else Path.home() / ".cache"
    return base / "drafterlint-action" / "venv"


def cache_key() -> str:
    return cache_key_prefix() + package_digest()


def package_digest() -> str:
    """A digest of everything the installed package is built from (pyproject.toml, src/, schemas/):
    an exact cache hit is then a virtualenv that already holds this very checkout, and the
    install step has nothing to do."""
    digest = hashlib.sha256()
    files = [ACTION_DIR / "pyproject.toml",
             *(p for folder in ("src", "schemas") for p in (ACTION_DIR / folder).rglob("*"))]
    for path in sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"):
        digest.update(path.relative_to(ACTION_DIR).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:20]


def lock_digest() -> str:
    return hashlib.sha256(LOCK.read_bytes()).hexdigest()[:16]


def cache_key_prefix() -> str:
    """The key without the package's digest: the restore key, which brings back the virtualenv of
    another checkout (the previous release) with the same locked dependencies, on the same system
    and Python, so that the install step reinstalls only the package. A different Python or lock
    never shares a virtualenv."""
    py = ".".join(map(str, sys.version_info[:3]))
    return f"drafterlint-venv-{platform.system()}-{platform.machine()}-py{py}-{lock_digest()}-"


def venv_python(venv: Path) -> Path:
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def drafterlint_cmd() -> list[str]:
    override = os.environ.get("DRAFTERLINT_COMMAND")  # tests, or a drafterlint already installed
    if override:
        return override.split()
    return [str(venv_python(venv_dir())), "-m", "drafterlint"]


def prepare() -> int:
    set_outputs({"venv": str(venv_dir()), "key": cache_key(), "restore-key": cache_key_prefix()})
    return 0


def outer_pip_drives() -> bool:
    """Whether this Python's own pip can install into another interpreter (`pip --python`, pip
    22.3 and later): then the virtualenv needs no pip of its own, and creating it takes a fraction
    of a second instead of the many seconds ensurepip spends unpacking and compiling pip."""
    try:
        import pip  # only its version: pip's package module is small and imports nothing
    except ImportError:
        return False
    found = re.match(r"(\d+)\.(\d+)", getattr(pip, "__version__", ""))
    return found is not None and (int(found[1]), int(found[2])) >= (22, 3)


def install() -> int:
    """On an exact cache hit, nothing. Otherwise the virtualenv holds exactly the lock
    (action/requirements.lock: every runtime dependency and the build backend, each file checked
    against its hash) and then this checkout, built in it without isolation and installed without
    dependencies, so nothing comes from the package index unchecked. A virtualenv restored from
    another checkout with the same lock (its marker says which) only gets the checkout again; any
    other is made anew, so that nothing the lock does not name is left in it."""
    venv = venv_dir()
    py = venv_python(venv)
    if os.environ.get("CACHE_HIT", "").lower() == "true" and subprocess.run(
            [str(py), "-m", "drafterlint", "--version"]).returncode == 0:
        return 0  # the cache key covers the lock and every file the package is built from
    outer = outer_pip_drives()
    marker = venv / LOCK_MARKER
    locked = lock_digest()
    same_lock = marker.is_file() and marker.read_text(encoding="utf-8").strip() == locked
    # a restored virtualenv of another lock, or whose interpreter no longer starts, is made anew
    fresh = not (same_lock and py.exists() and subprocess.run([str(py), "-c", "pass"]).returncode == 0)
    if fresh:
        subprocess.run([sys.executable, "-m", "venv", "--clear", *(["--without-pip"] if outer else []), str(venv)],
                       check=True)
    elif not outer and subprocess.run([str(py), "-c", "import pip"], capture_output=True).returncode != 0:
        # a virtualenv made without pip, restored on a runner whose own pip cannot drive it
        subprocess.run([str(py), "-m", "ensurepip", "--default-pip"], check=True)
    pip = [sys.executable, "-m", "pip", "--python", str(py)] if outer else [str(py), "-m", "pip"]
    # --no-compile: the modules a run imports are compiled then (and cached with the virtualenv),
    # not every file of every dependency and of setuptools at install time.
    pip += ["--disable-pip-version-check", "--no-input", "--quiet", "install", "--no-compile"]
    if fresh:
        subprocess.run([*pip, "--require-hashes", "--requirement", str(LOCK)], check=True)
        marker.write_text(locked + "\n", encoding="utf-8")
    subprocess.run([*pip, "--no-deps", "--no-build-isolation", str(ACTION_DIR)], check=True)
    subprocess.run([str(py), "-m", "drafterlint", "--version"], check=True)
    return 0


# -- run -------------------------------------------------------------------------------------


def sync(which: str, url: str, ref: str, config: str, env: dict, cwd: Path) -> str:
    """`drafterlint sync` into a private cache; returns the checkout's path."""
    cache = temp_dir() / f"drafterlint-cache-{which}-{uuid.uuid4().hex[:8]}"
    # `--opt=value`: a value that starts with "-" stays a value (and is then refused by drafterlint).
    cmd = [*drafterlint_cmd(), "sync", which, f"--cache-dir={cache}"]
    if url:
        cmd.append(f"--url={url}")
    if ref:
        cmd.append(f"--ref={ref}")
    if config:
        cmd.append(f"--config={config}")
    proc = subprocess.run(cmd, env=env, cwd=str(cwd))
    if proc.returncode != 0:
        raise SystemExit(proc.returncode)
    found = glob.glob(str(cache / "repos" / "*" / "fetched.json"))
    if len(found) != 1:
        error(f"drafterlint sync {which} left no checkout in {cache}")
        raise SystemExit(3)
    return str(Path(found[0]).parent / "checkout")


def read_inputs() -> dict:
    values = {
        name: inp(name)
        for name in (
            "rules-repo", "registry-repo", "rules-url", "rules-ref", "registry-url",
            "registry-ref", "config", "fail-on", "format", "sarif-file", "markdown-file",
            "json-file", "base-ref", "scope", "only-new", "suggest-fixes", "suggested-changes",
        )
    }
    for name, default in (("suggest-fixes", "true"), ("suggested-changes", "false")):
        said = values[name].strip().lower() or default
        if said not in ("true", "false"):
            raise InputProblem(f"{name} must be true or false, not {values[name]!r}")
        values[name] = said
    only_new = values["only-new"].strip().lower()
    if only_new not in ("", "true", "false"):
        raise InputProblem(f"only-new must be true or false, not {values['only-new']!r}")
    if not only_new:
        # A push is judged against the tip before it, as a pull request against its base: main
        # does not go red on the day the workflow is added for what was already there.
        event = os.environ.get("GITHUB_EVENT_NAME", "")
        only_new = "true" if event in ("pull_request", "pull_request_target", "push") else "false"
    values["only-new"] = only_new
    values["fail-on"] = values["fail-on"].lower() or "error"
    values["format"] = values["format"].lower() or "github"
    if values["fail-on"] not in SEVERITIES:
        raise InputProblem(f"fail-on must be one of {', '.join(SEVERITIES)}, not {values['fail-on']!r}")
    if values["format"] not in FORMATS:
        raise InputProblem(f"format must be one of {', '.join(FORMATS)}, not {values['format']!r}")
    for which in ("rules", "registry"):
        if values[f"{which}-repo"] and (values[f"{which}-url"] or values[f"{which}-ref"]):
            raise InputProblem(f"give either {which}-repo or {which}-url/{which}-ref, not both")
    return values


# What drafterlint.gitops.run_git overrides too (this script runs before drafterlint is
# installed): the checkout's own configuration runs nothing while the base is fetched.
_GIT = ["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + os.devnull]


def fetch_base(repo: Path, ref: str, env: dict) -> None:
    """actions/checkout fetches one commit: bring the base commit too (shallow), so that
    drafterlint can read the base version. A failure is left to drafterlint to report."""
    if not (repo / ".git").exists() or ref.startswith("-"):
        return
    have = subprocess.run([*_GIT, "-C", str(repo), "cat-file", "-e", f"{ref}^{{commit}}"],
                          env=env, capture_output=True)
    if have.returncode != 0:
        subprocess.run([*_GIT, "-C", str(repo), "fetch", "--quiet", "--no-tags", "--depth=1", "origin", ref],
                       env=env, capture_output=True)


ZERO = "0" * 40


def _event() -> dict:
    path = os.environ.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as fh:
            event = json.load(fh)
    except (OSError, ValueError):
        return {}
    return event if isinstance(event, dict) else {}


def _git_out(repo: Path, args: list[str], env: dict) -> str:
    proc = subprocess.run([*_GIT, "-C", str(repo), *args], env=env, capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def push_base(base: str, repo: Path, env: dict) -> str:
    """The base a push is judged against: the tip before it (github.event.before). A new branch
    (all zeros) is judged against where it left the default branch; a first push of the default
    branch has nothing to compare with ("": every finding counts)."""
    if base and base != ZERO:
        fetch_base(repo, base, env)
        if _git_out(repo, ["rev-parse", "--verify", "--quiet", f"{base}^{{commit}}"], env):
            return base
        # a force push: the previous tip is gone; judge the branch as a new one
    event = _event()
    default = str((event.get("repository") or {}).get("default_branch") or "")
    if not default or event.get("ref") == f"refs/heads/{default}" or default.startswith("-"):
        return ""
    if not _git_out(repo, ["rev-parse", "--verify", "--quiet", f"refs/remotes/origin/{default}"], env):
        subprocess.run([*_GIT, "-C", str(repo), "fetch", "--quiet", "--no-tags", "origin",
                        f"+refs/heads/{default}:refs/remotes/origin/{default}"], env=env, capture_output=True)
    tip = _git_out(repo, ["rev-parse", "--verify", "--quiet", f"refs/remotes/origin/{default}^{{commit}}"], env)
    if not tip:
        return ""
    return _git_out(repo, ["merge-base", tip, "HEAD"], env) or tip


def _absolute(path: str, workspace: Path) -> Path:
    p = Path(path).expanduser()
    return p if p.is_absolute() else workspace / p


_REPORT_CUT = "The report was cut to fit the job summary's 1 MiB limit; the JSON report has every finding."


def append_summary_file(markdown: Path, cut_note: str = _REPORT_CUT) -> None:
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target or not markdown.is_file():
        return
    text = markdown.read_text(encoding="utf-8")
    try:
        used = os.path.getsize(target)
    except OSError:
        used = 0
    room = SUMMARY_LIMIT - used - 1024
    data = text.encode("utf-8")
    if len(data) > room:
        note = f"\n> [!NOTE]\n> {cut_note}\n"
        cut = data[: max(0, room - 300)].decode("utf-8", "ignore")
        cut = cut[: cut.rfind("\n") + 1]
        closing, opened_at = _left_open(cut)
        if len((cut + closing + note).encode("utf-8")) > room:  # a long fence: drop the block instead
            cut, closing = cut[:opened_at], ""
        text = cut + closing + note
    with open(target, "a", encoding="utf-8", newline="\n") as fh:
        fh.write(text if text.endswith("\n") else text + "\n")


# A fence as CommonMark reads one: up to three blanks, then three or more backticks or tildes.
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")


def _left_open(cut: str) -> tuple[str, int]:
    """(the lines that close what `cut`, whole lines of Markdown drafterlint wrote, leaves open,
    where the first of those opened): a fenced code block (the cut of a long patch) and the
    `<details>` folds around it, each written on a line of its own. Closed, the note after the
    cut is read as a note, outside the fence and outside the fold."""
    fence, fence_at, folds, at = "", 0, [], 0
    for line in cut.split("\n"):
        m = _FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
                fence = ""
        elif m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence, fence_at = m.group(1), at
        elif line.startswith("<details"):
            folds.append(at)
        elif line.strip() == "</details>" and folds:
            folds.pop()
        at += len(line) + 1
    starts = [*folds, *([fence_at] if fence else [])]
    closing = (f"{fence}\n" if fence else "") + "\n</details>\n" * len(folds)
    return closing, min(starts, default=len(cut))


def review_args(values: dict) -> tuple[list[str], str]:
    """(the arguments that make `drafterlint fix` post its fixes as suggested changes on this
    pull request, the one line said instead when it cannot). Only with `suggested-changes: true`,
    on a pull request judged against its base; a pull request from a fork gets a read-only token,
    so nothing is asked of the API there and the job summary's patch stands in."""
    if values["suggested-changes"] != "true":
        return [], ""
    pr = _event().get("pull_request")
    if not isinstance(pr, dict) or not values["base-ref"] or values["only-new"] != "true":
        return [], ""
    head, base = pr.get("head") or {}, pr.get("base") or {}
    theirs = str((head.get("repo") or {}).get("full_name") or "")
    ours = str((base.get("repo") or {}).get("full_name") or os.environ.get("GITHUB_REPOSITORY", ""))
    number, sha = pr.get("number"), str(head.get("sha") or "")
    if not theirs or theirs.lower() != ours.lower():
        return [], ("drafterlint: suggested changes are not posted on a pull request from a fork (its token may "
                    "not write to the pull request): the job summary's patch makes the same fixes")
    if not isinstance(number, int) or not re.fullmatch(r"[0-9a-f]{40}", sha):
        return [], "drafterlint: suggested changes are not posted: the event names no pull request number and head"
    args = [f"--review={ours}#{number}", f"--review-commit={sha}"]
    api = os.environ.get("GITHUB_API_URL", "").strip()
    return args + ([f"--github-api-url={api}"] if api else []), ""


def suggest_fixes(values: dict, repos: dict, workspace: Path, env: dict, out_dir: Path, *,
                  show_patch: bool) -> Path | None:
    """`drafterlint fix --diff` on the same inputs: the patch file, or None when nothing can be
    repaired. On a pull request (only-new) with a base, only what the change broke is mended;
    with `suggested-changes`, fix also posts them on the pull request (review_args). fix writes
    the job summary's section itself (`--summary`: the patch when `show_patch`, and what became
    of the suggested changes), through drafterlint's one Markdown writer: it quotes the base's
    name, an error answer of the API and the documents' lines, and this script, which runs
    outside drafterlint's virtualenv, only appends the file."""
    section = out_dir / "drafterlint-fixes.md"
    # fix writes the patch file itself, byte for byte: read through a text-mode pipe, a CRLF
    # document's patch would lose its CRs and not apply.
    patch = out_dir / "drafterlint-fixes.patch"
    cmd = [*drafterlint_cmd(), "fix", "--diff", f"--summary={section}", f"--patch={patch}"]
    if show_patch:
        cmd.append("--summary-patch")
    if values["config"]:
        cmd.append(f"--config={_absolute(values['config'], workspace)}")
    if bool(values["base-ref"]) and values["only-new"] == "true":
        cmd.append(f"--base-ref={values['base-ref']}")
    for which in ("rules", "registry"):
        if which in repos:
            cmd.append(f"--{which}-repo={repos[which]}")
    review, instead = review_args(values)
    if instead:
        cmd.append(f"--summary-note={instead}")
    quiet = {k: v for k, v in env.items() if k not in ("GITHUB_STEP_SUMMARY", "GITHUB_TOKEN")}
    if review:
        quiet["GITHUB_TOKEN"] = inp("github-token")
    proc = subprocess.run([*cmd, *review], cwd=str(workspace), env=quiet, capture_output=True, text=True)
    # Printed through drafterlint's escape: no control character, no workflow command.
    said = [line for line in proc.stderr.splitlines() if line.startswith("drafterlint: suggested changes")]
    for line in [*said, *([instead] if instead else [])]:
        print(line, flush=True)
    append_summary_file(section, "The patch was cut to fit the job summary's 1 MiB limit; "
                                 "the fix-patch output names the whole file.")
    # No file: nothing to repair, or fix could not run.
    return patch if patch.is_file() else None


def run() -> int:
    try:
        values = read_inputs()
    except InputProblem as exc:
        error(str(exc))
        return 2
    workspace = Path(os.environ.get("GITHUB_WORKSPACE") or os.getcwd()).resolve()
    env = dict(os.environ)
    out_dir = temp_dir() / f"drafterlint-{uuid.uuid4().hex[:8]}"
    out_dir.mkdir(parents=True, exist_ok=True)

    repos: dict[str, str] = {}
    for which in ("rules", "registry"):
        if values[f"{which}-repo"]:
            repos[which] = str(_absolute(values[f"{which}-repo"], workspace))
        elif values[f"{which}-url"] or values[f"{which}-ref"]:
            config = str(_absolute(values["config"], workspace)) if values["config"] else ""
            repos[which] = sync(which, values[f"{which}-url"], values[f"{which}-ref"], config, env, workspace)

    json_file = _absolute(values["json-file"], workspace) if values["json-file"] else out_dir / "drafterlint.json"
    sarif_file = _absolute(values["sarif-file"], workspace) if values["sarif-file"] else None
    markdown_file = _absolute(values["markdown-file"], workspace) if values["markdown-file"] else None
    summary_markdown = None
    if values["format"] != "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        summary_markdown = markdown_file or out_dir / "drafterlint.md"
    for f in (json_file, sarif_file, markdown_file):
        if f is not None:
            f.parent.mkdir(parents=True, exist_ok=True)

    if os.environ.get("GITHUB_EVENT_NAME") == "push" and values["only-new"] == "true":
        values["base-ref"] = push_base(values["base-ref"], workspace, env)
    cmd = [*drafterlint_cmd(), "check", f"--format={values['format']}", f"--fail-on={values['fail-on']}"]
    cmd.append(f"--report=json={json_file}")
    if sarif_file:
        cmd.append(f"--report=sarif={sarif_file}")
    if markdown_file or summary_markdown:
        cmd.append(f"--report=markdown={markdown_file or summary_markdown}")
    if values["config"]:
        cmd.append(f"--config={_absolute(values['config'], workspace)}")
    if values["base-ref"]:
        cmd.append(f"--base-ref={values['base-ref']}")
        if values["only-new"] == "true":
            fetch_base(workspace, values["base-ref"], env)
        else:
            cmd.append("--all")  # the base only orders the annotations
    # The repository the workflow runs for is the one under change: only its findings fail the
    # step and are annotated (drafterlint matches the name against the configured `github`).
    scope = values["scope"] or os.environ.get("GITHUB_REPOSITORY", "").strip()
    if scope:
        cmd.append(f"--scope={scope}")
    if "rules" in repos:
        cmd.append(f"--rules-repo={repos['rules']}")
    if "registry" in repos:
        cmd.append(f"--registry-repo={repos['registry']}")
    if values["format"] != "github":
        env.pop("GITHUB_STEP_SUMMARY", None)  # appended below from the Markdown report

    # drafterlint's hints then name the Action's inputs and outputs, not command-line flags.
    env["DRAFTERLINT_ACTION"] = "suggest-fixes" if values["suggest-fixes"] == "true" else "true"
    # Only the github format writes workflow commands (escaped). Any other format quotes the
    # documents' text as it is, so the runner is told not to read commands in it at all.
    token = None if values["format"] == "github" else uuid.uuid4().hex
    if token:
        print(f"::stop-commands::{token}")
    sys.stdout.flush()
    try:
        proc = subprocess.run(cmd, cwd=str(workspace), env=env)
    finally:
        if token:
            print(f"::{token}::", flush=True)
    code = proc.returncode

    outputs = {"json-file": str(json_file), "sarif-file": str(sarif_file or ""),
               "markdown-file": str(markdown_file or ""), "fix-patch": ""}
    if code in (0, 1) and json_file.is_file():
        doc = json.loads(json_file.read_text(encoding="utf-8"))
        summary = (doc.get("scope") or {}).get("summary") or doc.get("summary", {})
        outputs.update(errors=str(summary.get("error", 0)), warnings=str(summary.get("warning", 0)),
                       infos=str(summary.get("info", 0)))
        if summary_markdown is not None:
            append_summary_file(summary_markdown)
        # The review is brought up to date on a passing run too: its suggestions were applied.
        reviewing = values["suggested-changes"] == "true"
        if (code == 1 and values["suggest-fixes"] == "true") or reviewing:
            patch = suggest_fixes(values, repos, workspace, env, out_dir,
                                  show_patch=values["suggest-fixes"] == "true")
            outputs["fix-patch"] = str(patch or "") if values["suggest-fixes"] == "true" else ""
    else:
        outputs.update(errors="", warnings="", infos="")
        error(f"drafterlint could not run (exit {code}); see the log above")
    set_outputs(outputs)
    return code


def main(argv: list[str]) -> int:
    what = argv[1] if len(argv) > 1 else "run"
    if what == "prepare":
        return prepare()
    if what == "install":
        return install()
    if what == "run":
        return run()
    print(f"usage: {argv[0]} prepare|install|run", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
