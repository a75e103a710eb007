"""A repository as it was at the merge base of a ref and HEAD, read from git into a temporary
folder: the user's working tree, index and `.git` are never written.

    with base_trees({"rules": rules_dir, "registry": registry_dir}, "origin/main") as bases:
        bases["rules"]      # Base(commit, root) of the merge base, or None: no base there

Only a repository whose root is a git work tree's top level and that knows the ref gets a base;
the other has none and is compared as it is. The files are the merge-base commit's blobs read
with `git cat-file` (regular files only: links and submodules are left out). Unlike `git archive`
or a checkout, that applies no filter, textconv or export attribute of the repository, so what
the checks see is exactly what was committed and nothing the checkout configures runs. Used by `check --base-ref` and by `drafterlint fix`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from drafterlint.findings import FetchError
from drafterlint.gitops import run_git, validate_revision


@dataclass(frozen=True)
class Base:
    commit: str  # the merge base
    root: Path  # a temporary folder holding the files of that commit


def merge_base(repo_dir: Path, ref: str) -> str | None:
    """The merge base of `ref` and HEAD in repo_dir (in a shallow clone: `ref` itself), or None
    when there is none to be had (not the top of a git work tree, no such ref, unrelated
    histories)."""
    validate_revision(ref)
    repo_dir = Path(repo_dir)
    try:
        top = run_git(repo_dir, ["rev-parse", "--show-toplevel"], allow_local=True).strip()
        if Path(top).resolve() != repo_dir.resolve():
            return None  # a folder inside another repository: its history is not this one's
        commit = run_git(repo_dir, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                      allow_local=True).strip()
    except FetchError:
        return None
    try:
        return run_git(repo_dir, ["merge-base", commit, "HEAD"], allow_local=True).strip() or None
    except FetchError:
        pass
    # A shallow clone (a CI checkout) cannot see where the histories meet: the ref itself is the
    # base then, which is exact for a pull request's base commit.
    try:
        shallow = run_git(repo_dir, ["rev-parse", "--is-shallow-repository"], allow_local=True).strip()
    except FetchError:
        return None
    return commit if shallow == "true" else None


def extract(repo_dir: Path, commit: str, dest: Path) -> None:
    """Write the regular files of `commit` under dest (an empty folder)."""
    listing = run_git(Path(repo_dir), ["ls-tree", "-r", "-z", "--full-tree", commit], binary=True)
    files: list[tuple[bytes, PurePosixPath]] = []
    for entry in listing.split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        mode, kind, sha = (meta.split(b" ") + [b"", b""])[:3]
        rel = PurePosixPath(name.decode("utf-8", "surrogateescape"))
        if kind != b"blob" or mode == b"120000" or rel.is_absolute() or ".." in rel.parts:
            continue  # links, submodules; git never lists the last two, refuse rather than trust
        files.append((sha, rel))
    if not files:
        return
    out = run_git(Path(repo_dir), ["cat-file", "--batch"], binary=True,
                  stdin=b"".join(sha + b"\n" for sha, _ in files))
    dest = Path(dest)
    pos = 0
    for _, rel in files:
        header_end = out.index(b"\n", pos)
        size = int(out[pos:header_end].split(b" ")[2])
        target = dest.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(out[header_end + 1:header_end + 1 + size])
        pos = header_end + 1 + size + 1  # the content is followed by a newline


def read_base(repo_dir: Path, ref: str, dest: Path) -> Base | None:
    """The merge base of `ref` and HEAD in repo_dir, written under dest; None without one."""
    commit = merge_base(repo_dir, ref)
    if commit is None:
        return None
    dest.mkdir(parents=True, exist_ok=True)
    extract(repo_dir, commit, dest)
    return Base(commit, dest)


@contextmanager
def base_trees(roots: dict[str, Path | None], ref: str) -> Iterator[dict[str, Base | None]]:
    """Per repository name, its base (see the module's docstring); removed on leaving."""
    validate_revision(ref)
    tmp = Path(tempfile.mkdtemp(prefix="drafterlint-base-"))
    try:
        yield {name: (read_base(root, ref, tmp / name) if root is not None else None)
               for name, root in roots.items()}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
