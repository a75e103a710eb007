"""A repository as it was at the merge base of a ref and HEAD, read from git into a temporary
folder: the user's working tree, index and `.git` are never written.

    with base_trees({"rules": rules_dir, "registry": registry_dir}, "origin/main") as bases:
        bases["rules"]      # Base(commit, root) of the merge base, or None: no base there

Only a repository whose root is a git work tree's top level and that knows the ref gets a base;
the other has none and is compared as it is. The files come from `git archive` of the merge-base
commit (regular files and directories only: links and anything else are left out), so what the
checks see is exactly what was committed. Used by `check --base-ref` and by `drafterlint fix`.
"""

from __future__ import annotations

import io
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from drafterlint.findings import FetchError
from drafterlint.gitops import _git, validate_revision


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
        top = _git(repo_dir, ["rev-parse", "--show-toplevel"], allow_local=True).strip()
        if Path(top).resolve() != repo_dir.resolve():
            return None  # a folder inside another repository: its history is not this one's
        commit = _git(repo_dir, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                      allow_local=True).strip()
    except FetchError:
        return None
    try:
        return _git(repo_dir, ["merge-base", commit, "HEAD"], allow_local=True).strip() or None
    except FetchError:
        pass
    # A shallow clone (a CI checkout) cannot see where the histories meet: the ref itself is the
    # base then, which is exact for a pull request's base commit.
    try:
        shallow = _git(repo_dir, ["rev-parse", "--is-shallow-repository"], allow_local=True).strip()
    except FetchError:
        return None
    return commit if shallow == "true" else None


def extract(repo_dir: Path, commit: str, dest: Path) -> None:
    """Write the files of `commit` under dest (an empty folder)."""
    data = _git(Path(repo_dir), ["archive", "--format=tar", commit], allow_local=True, binary=True)
    dest = Path(dest)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        for member in tar:
            rel = PurePosixPath(member.name)
            if rel.is_absolute() or ".." in rel.parts:
                continue  # git never writes these; refuse rather than trust
            target = dest.joinpath(*rel.parts)
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
            elif member.isfile():
                target.parent.mkdir(parents=True, exist_ok=True)
                source = tar.extractfile(member)
                if source is not None:
                    target.write_bytes(source.read())


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
