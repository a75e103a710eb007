"""Git history of the reference repository's policy catalogs: when each entry first appeared.

For every approved head and checkpoint (identified by model, repository and revision), the
first commit on the checked-out branch's first-parent line (the default branch as merged) whose
``catalog.yaml`` files listed it, with that commit's sha and date. DL403 and DL402 read it.

Bounded: at most ``max_commits`` commits that touch the policy folder are read (newest first,
then replayed oldest first), each distinct catalog blob is parsed once, and blobs over the
YAML loader's size limit are refused like any other unreadable file. An entry already present
in the oldest commit read is *not* dated by it when the history is incomplete: a shallow clone or a truncated walk cannot tell when such an
entry appeared, and a wrong date would make a false "backdated" finding. With the complete
history, the oldest commit touching the policies is the real first appearance of what it lists.

Dates are the committer dates (when the commit landed on the branch), taken in UTC.

GitPython is imported inside the functions that need it: a pre-commit hook pays for every import.
"""

from __future__ import annotations

import datetime
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from drafterlint.findings import UnreadableFile
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from git.objects.commit import Commit as GitCommit

MAX_COMMITS = 2000
CATALOG = "catalog.yaml"
_HEADS = ("catalogs", "approved_spec_decode_heads")
_CHECKPOINTS = ("catalogs", "approved_checkpoints")


@dataclass(frozen=True)
class Commit:
    """A commit: its sha, committer date (UTC) and summary line."""

    sha: str
    date: datetime.datetime  # committer date, UTC
    summary: str = ""

    @property
    def short(self) -> str:
        return self.sha[:7]

    @property
    def day(self) -> datetime.date:
        return self.date.date()

    def describe(self) -> str:
        return f"{self.short} ({self.day.isoformat()})"


@dataclass(eq=False, repr=False)
class History:
    """When each head and checkpoint first appeared in the policy catalogs."""

    repo: str  # the repository name findings use ("registry")
    ref_sha: str | None = None  # the commit the walk started from
    heads: dict[tuple, Commit] = field(default_factory=dict)  # (model, repository, revision)
    checkpoints: dict[tuple, Commit] = field(default_factory=dict)
    # Entries present in the oldest commit read, whose first appearance cannot be told.
    undated_heads: set[tuple] = field(default_factory=set)
    undated_checkpoints: set[tuple] = field(default_factory=set)
    commits_read: int = 0
    complete: bool = True  # False: shallow clone or walk truncated at max_commits
    notes: list[str] = field(default_factory=list)

    def head_first_seen(self, identity: tuple) -> Commit | None:
        return self.heads.get(tuple(identity))

    def checkpoint_first_seen(self, identity: tuple) -> Commit | None:
        return self.checkpoints.get(tuple(identity))


def _str(value: object) -> str | None:
    if value is None or isinstance(value, (dict, list, bool)):
        return None
    return str(value)


def catalog_entries(text: str, path: str, repo: str = "registry") -> tuple[set[tuple], set[tuple]]:
    """The (model, repository, revision) of every head and every checkpoint one catalog lists."""
    from drafterlint.registry.yamlload import load_yaml_text

    doc = load_yaml_text(text, path, repo)
    heads: set[tuple] = set()
    cps: set[tuple] = set()
    items = doc.get(_HEADS)
    if isinstance(items, list):
        for item in items:
            if isinstance(item, dict):
                heads.add((_str(item.get("model")), _str(item.get("repository")), _str(item.get("revision"))))
    by_model = doc.get(_CHECKPOINTS)
    if isinstance(by_model, dict):
        for model, entries in by_model.items():
            if isinstance(entries, list):
                for item in entries:
                    if isinstance(item, dict):
                        cps.add((_str(model), _str(item.get("repository")), _str(item.get("revision"))))
    return heads, cps


def build_history(
    repo_dir: Path,
    policies_path: str,
    *,
    repo_name: str = "registry",
    rev: str = "HEAD",
    max_commits: int = MAX_COMMITS,
) -> History:
    """Walk the first-parent history of `rev` in `repo_dir` for the catalogs under `policies_path`.

    Raises ValueError when `repo_dir` is not a git repository (callers say the history checks
    were skipped).
    """
    import git  # GitPython

    from drafterlint.gitops import git_config_args, git_env

    try:
        repo = git.Repo(str(repo_dir))
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
        raise ValueError(f"{repo_dir} is not a git repository") from exc
    # The same configuration and environment as every other git command (gitops.run_git): the
    # repository's own config runs nothing. `c=[...]` becomes one `-c` per item.
    repo.git.update_environment(**git_env())
    repo.git.set_persistent_git_options(c=git_config_args(repo_dir)[1::2])
    policies_path = policies_path.strip("/")
    hist = History(repo=repo_name)
    try:
        head = repo.commit(rev)
    except (ValueError, git.BadName) as exc:
        raise ValueError(f"{repo_dir} has no commit {rev!r}") from exc
    hist.ref_sha = head.hexsha
    shallow = Path(repo.git_dir, "shallow").exists()
    commits = list(
        repo.iter_commits(head, paths=policies_path or "", first_parent=True, max_count=max_commits + 1)
    )
    truncated = len(commits) > max_commits
    commits = commits[:max_commits]
    commits.reverse()  # oldest first
    hist.commits_read = len(commits)
    hist.complete = not shallow and not truncated
    if shallow:
        hist.notes.append("the reference repository is a shallow clone: entries already present in its "
                          "oldest commit are not dated")
    if truncated:
        hist.notes.append(f"only the newest {max_commits} commits touching {policies_path} were read")

    parsed: dict[str, tuple[set, set]] = {}  # blob sha -> entries (a blob is parsed once)
    for i, commit in enumerate(commits):
        heads, cps = _entries_at(commit, policies_path, repo_name, parsed)
        when = commit.committed_datetime.astimezone(datetime.timezone.utc)
        c = Commit(commit.hexsha, when, commit.summary if isinstance(commit.summary, str) else "")
        boundary = i == 0 and not hist.complete
        _first_seen(heads, c, boundary, hist.heads, hist.undated_heads)
        _first_seen(cps, c, boundary, hist.checkpoints, hist.undated_checkpoints)
    return hist


def _first_seen(idents: set, commit: Commit, boundary: bool, dated: dict, undated: set) -> None:
    """Record `commit` as where each entry not seen in an older commit first appears. The oldest
    commit of a truncated history is a boundary: what it holds may be older, so it stays undated."""
    for ident in idents:
        if ident in dated or ident in undated:
            continue
        if boundary:
            undated.add(ident)
        else:
            dated[ident] = commit


def _entries_at(commit: "GitCommit", policies_path: str, repo_name: str, parsed: dict) -> tuple[set, set]:
    heads: set = set()
    cps: set = set()
    try:
        tree = commit.tree / policies_path if policies_path else commit.tree
    except KeyError:
        return heads, cps
    if tree.type != "tree":
        return heads, cps
    for sub in tree.trees:
        try:
            blob = sub / CATALOG
        except KeyError:
            continue
        if blob.type != "blob":
            continue
        if blob.hexsha not in parsed:
            rel = f"{policies_path}/{sub.name}/{CATALOG}" if policies_path else f"{sub.name}/{CATALOG}"
            from drafterlint.registry.yamlload import DEFAULT_MAX_BYTES

            try:
                if blob.size > DEFAULT_MAX_BYTES:
                    raise UnicodeDecodeError("utf-8", b"", 0, 1, "over the size limit")
                text = blob.data_stream.read().decode("utf-8-sig")
                parsed[blob.hexsha] = catalog_entries(text, rel, repo_name)
            except (UnreadableFile, UnicodeDecodeError):
                parsed[blob.hexsha] = (set(), set())  # an unreadable version lists nothing
        h, c = parsed[blob.hexsha]
        heads |= h
        cps |= c
    return heads, cps
