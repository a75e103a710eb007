"""A repository as it was at the merge base of a ref and HEAD, read from git into a temporary
folder: the user's working tree, index and `.git` are never written.

    commit = merge_base(repo_dir, "origin/main")   # None: no base there
    extract(repo_dir, commit, dest)                 # its files under dest

Only a repository whose root is a git work tree's top level and that knows the ref has a base.
The files are the merge-base commit's blobs read with `git cat-file` (regular files only: links
and submodules are left out). Unlike `git archive` or a checkout, that applies no filter,
textconv or export attribute of the repository, so what the checks see is exactly what was
committed and nothing the checkout configures runs. Only the files a check reads are read
(streamed, each under the same size limit as in the working tree); the others are placeholders
of their size. Used by drafterlint.baserun (`check --base-ref`, the hooks, `fix --base-ref`).
"""

from __future__ import annotations

import threading
from pathlib import Path, PurePosixPath

from drafterlint.findings import FetchError, InputError
from drafterlint.gitops import READ_BY_CHECKS, open_git, run_git, validate_revision
from drafterlint.sources import MAX_FILE_BYTES


def merge_base(repo_dir: Path, ref: str, head: str = "HEAD") -> str | None:
    """The merge base of `ref` and `head` in repo_dir (in a shallow clone: `ref` itself), or None
    when there is none to be had (not the top of a git work tree, no such ref, unrelated
    histories)."""
    validate_revision(ref)
    validate_revision(head)
    repo_dir = Path(repo_dir)
    try:
        # One process answers every question, a line each, in the order asked: the top folder
        # (its name may hold a line break: the lines after it are git's own words), shallow or
        # not, and for the symmetric difference `ref...head` the head's commit, the ref's and
        # `^` and each merge base, in the order `git merge-base --all` gives them (its first
        # is what `git merge-base` answers); "--" makes the range a revision, never a path.
        answer = run_git(repo_dir, ["rev-parse", "--show-toplevel", "--is-shallow-repository",
                                    f"{ref}^{{commit}}...{head}^{{commit}}", "--"], allow_local=True).split("\n")
    except FetchError:
        return None
    while answer and answer[-1].strip() in ("", "--"):
        answer.pop()
    bases = []
    while answer and answer[-1].startswith("^"):
        bases.append(answer.pop()[1:].strip())
    if len(answer) < 4:
        return None
    top, shallow, commit = "\n".join(answer[:-3]), answer[-3].strip(), answer[-1].strip()
    if Path(top).resolve() != repo_dir.resolve():
        return None  # a folder inside another repository: its history is not this one's
    if bases:
        return bases[-1]  # (popped from the end: the first one git named)
    # A shallow clone (a CI checkout) cannot see where the histories meet: the ref itself is the
    # base then, which is exact for a pull request's base commit.
    return commit if shallow == "true" else None


_CHUNK = 1 << 20


def extract(repo_dir: Path, commit: str, dest: Path, max_bytes: int = MAX_FILE_BYTES) -> None:
    """Write the files of `commit` under dest (an empty folder): those a check reads, up to
    `max_bytes` each, with their content, streamed from git object by object; every other file
    (and one over the limit, which the check then refuses as it refuses the same file in the
    working tree) as a sparse placeholder of the same size, so that nothing is held in memory
    and no large blob is read at all. The others are only listed and tested for existence (a
    link to them)."""
    listing = run_git(Path(repo_dir), ["ls-tree", "-r", "-l", "-z", "--full-tree", commit], binary=True)
    files: list[tuple[bytes, PurePosixPath, bytes]] = []
    for entry in listing.split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        mode, kind, sha, size = (meta.split() + [b""] * 4)[:4]
        rel = PurePosixPath(name.decode("utf-8", "surrogateescape"))
        if kind != b"blob" or mode == b"120000" or rel.is_absolute() or ".." in rel.parts:
            continue  # links, submodules; git never lists the last two, refuse rather than trust
        files.append((sha, rel, size))
    clash = _clash(rel for _, rel, _ in files)
    if clash is not None:
        raise InputError(f"the base commit {commit} holds a tree git would reject ({clash}); not reading it",
                         str(repo_dir))
    wanted: list[tuple[bytes, Path, int]] = []
    try:
        for sha, rel, size in files:
            target = Path(dest).joinpath(*rel.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            n = int(size) if size.isdigit() else 0
            if rel.suffix.lower() in READ_BY_CHECKS and n <= max_bytes:
                wanted.append((sha, target, n))
            else:
                with open(target, "wb") as fh:
                    fh.truncate(n)
        if wanted:
            _stream_blobs(Path(repo_dir), wanted)
    except OSError as exc:  # a full temporary folder, or a name this system cannot hold
        raise InputError(f"cannot write the base commit {commit}'s files to a temporary folder: "
                         f"{exc.strerror or exc}", str(repo_dir)) from None


def _clash(paths) -> str | None:
    """What makes a listing impossible to write out (git fsck rejects such trees too, but
    `git mktree` writes them and a clone carries them): a name given twice, or one that is both
    a file and a folder."""
    files: set[PurePosixPath] = set()
    folders: set[PurePosixPath] = set()
    for rel in paths:
        if rel in files:
            return f"{rel} twice"
        files.add(rel)
        folders.update(rel.parents)
    both = sorted(files & folders)
    return f"a file and a folder both named {both[0]}" if both else None


def _stream_blobs(repo_dir: Path, wanted: list[tuple[bytes, Path, int]]) -> None:
    """Each blob's content into its target, read from one `git cat-file --batch` a chunk at a
    time (its input fed from a thread, so that neither pipe can fill and stall the other)."""
    proc = open_git(repo_dir, ["cat-file", "--batch"])
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def feed() -> None:
        try:
            for sha, _, _ in wanted:
                stdin.write(sha + b"\n")
            stdin.close()
        except OSError:
            pass  # git stopped early: its exit status says why

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        for sha, target, _ in wanted:
            header = stdout.readline(200).split()
            if len(header) != 3 or header[0] != sha or not header[2].isdigit():
                raise FetchError(f"git cat-file: unexpected answer for {sha.decode()}")
            left = int(header[2])
            with open(target, "wb") as fh:
                while left:
                    chunk = stdout.read(min(left, _CHUNK))
                    if not chunk:
                        raise FetchError("git cat-file: answer cut short")
                    fh.write(chunk)
                    left -= len(chunk)
            stdout.read(1)  # the newline after each object
    finally:
        stdout.close()
        feeder.join()
        proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


def tree_of(repo_dir: Path, commit: str) -> str | None:
    """The id of `commit`'s tree: a digest of every file in it, so a key for its findings."""
    try:
        return run_git(Path(repo_dir), ["rev-parse", "--verify", "--quiet", f"{commit}^{{tree}}"],
                       allow_local=True).strip() or None
    except FetchError:
        return None


def has_commit(repo_dir: Path, rev: str = "HEAD") -> bool:
    """Whether `rev` names a commit in repo_dir (False before the first commit)."""
    try:
        return bool(run_git(Path(repo_dir), ["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                            allow_local=True).strip())
    except FetchError:
        return False


def same_commit(repo_dir: Path, a: str, b: str) -> bool:
    """Whether two revisions name one commit in repo_dir (False when either names none).
    `git rev-parse --verify` takes one revision: each is resolved alone."""
    try:
        validate_revision(a)
        validate_revision(b)
        found = [run_git(Path(repo_dir), ["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                         allow_local=True).strip() for rev in (a, b)]
    except (FetchError, InputError):
        return False
    return bool(found[0]) and found[0] == found[1]


# Where a clean checkout's branch is judged from: the remote's default branch, else a local one.
DEFAULT_BRANCHES = ("origin/HEAD", "main", "master", "origin/main", "origin/master")


def default_branch(repo_dir: Path) -> str | None:
    """The first of DEFAULT_BRANCHES that has a merge base with HEAD in repo_dir (in a shallow
    clone, one that is there at all), or None."""
    for ref in DEFAULT_BRANCHES:
        if merge_base(repo_dir, ref) is not None:
            return ref
    return None


def clean_checkout(repo_dir: Path) -> bool:
    """Whether the index and the tracked files of repo_dir are HEAD's: nothing to commit.
    Read without the optional index lock (`git status` would otherwise write the index)."""
    try:
        return not run_git(Path(repo_dir), ["--no-optional-locks", "status", "--porcelain",
                                            "--untracked-files=no", "--ignore-submodules"], allow_local=True).strip()
    except FetchError:
        return False
