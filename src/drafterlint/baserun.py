"""The findings of a change's base: what `check --base-ref`, the hooks and `fix --base-ref`
compare with.

    with base_run(config, views, "HEAD", under_change={"rules"}, run_cache=cache) as base:
        base.findings        # the same checks, run on the merge base
        base.view("rules")   # the repository as it was there (written from git on demand)

Only the repositories under change get a base. The other one is the same repository in both
runs, so it is read once and its view (parsed documents included) is shared: that is cheaper,
and it compares like with like (a checkout and a copy of it written from git would differ in
what they can tell, e.g. whether a missing file is really missing).

The base's findings are cached by content: the key holds the tree id of each base commit (a
digest of every file in it), the effective configuration, the date, the tool, and the digests
of what the current run read of the other repository; what the base run reads of the other
repository beyond that is recorded and re-checked like any cached run. The base of the next
commit is the tree this commit wrote, so in a hook it is usually a hit, and then nothing is
written from git unless a message needs the base's documents.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drafterlint.basetree import extract, merge_base, tree_of

if TYPE_CHECKING:
    from drafterlint.sources import RepoView


class BaseRun:
    def __init__(self, config, now: "dict[str, RepoView | None]", commits: dict[str, str], tmp: Path, cache,
                 docs=None, ran=None):
        self.config = config
        self.now = now
        self.commits = commits  # repository name -> its merge base, for those under change
        self._tmp = tmp
        self._views: dict[str, RepoView] = {}
        self._cache = cache  # drafterlint.cache.RunCache of the base's findings, or None
        self._docs = docs  # the current run's parsed documents (cache.DocumentCache), or None
        self._ran = ran  # what each rule found on the current run (checks._ran.Ran), or None
        self.findings: list = []
        self.unreadable: list[str] = []  # the files the base run could not read (Result.unreadable)
        self.cached = False

    def view(self, name: str) -> "RepoView | None":
        """The repository at the base: written from git for one under change, else shared."""
        if name not in self.commits:
            return self.now.get(name)
        if name not in self._views:
            from drafterlint.sources import repo_view

            now = self.now[name]
            assert now is not None
            dest = self._tmp / name
            dest.mkdir(parents=True, exist_ok=True)
            extract(now.root, self.commits[name], dest)
            view = repo_view(self.config, name, dest)
            view.known_complete = True
            view.doc_cache = self._docs  # keyed by content: shared with the current run's
            self._views[name] = view
        return self._views[name]

    def written(self, name: str) -> Path | None:
        """Where the base's files of repository `name` were written for its run, or None (not
        under change, or not written: the base's findings came from a cache)."""
        view = self._views.get(name) if name in self.commits else None
        return None if view is None else view.root

    def place(self, path) -> tuple[str, str] | None:
        """(the repository under change that holds `path`, its path there), or None."""
        for name in self.commits:
            view = self.now[name]
            if view is None:
                continue
            try:
                return name, Path(path).resolve().relative_to(view.root.resolve()).as_posix()
            except ValueError:
                continue
        return None

    def with_config(self, config) -> "BaseRun":
        """The same base, checked with another configuration (its own folder, no cache)."""
        folder = self._tmp / f"config-{len(list(self._tmp.iterdir()))}"
        folder.mkdir()
        return BaseRun(config, self.now, self.commits, folder, None, self._docs, self._ran)

    def file_at_base(self, name: str, rel: str) -> bytes | None:
        """The bytes of `rel` in the base commit of repository `name`, None when it has none."""
        from drafterlint.findings import FetchError
        from drafterlint.gitops import run_git

        view = self.now[name]
        assert view is not None
        try:
            return run_git(view.root, ["cat-file", "blob", f"{self.commits[name]}:{rel}"], allow_local=True,
                           binary=True)
        except FetchError:
            return None

    def run(self, today) -> None:
        """The checks on the base. A rule that crashes on the base's files is as loud as on the
        current ones: one line, and the command ends (steps.Stopped, EXIT_USAGE)."""
        from drafterlint.checks._ran import Ran
        from drafterlint.checks.context import Inputs
        from drafterlint.engine import RuleCrashed, prepare, run
        from drafterlint.safeio import say
        from drafterlint.steps import EXIT_USAGE, Stopped

        others = [v for name, v in self.now.items() if v is not None and name not in self.commits]
        saved = [(v, v.recorder) for v in others]
        for v in others:  # what the base run reads of them beyond the current run is its input
            v.recorder = self._cache.recorder if self._cache is not None else None
        try:
            # What a rule reads the same as the current run did, it is not run for again (Ran).
            ran = Ran(head=self._ran) if self._ran is not None else None
            done = run(prepare(Inputs(self.config, self.view("rules"), self.view("registry"), today=today), ran=ran))
            self.findings, self.unreadable = done.findings, done.unreadable
        except RuleCrashed as exc:
            say(f"drafterlint: internal error in rule {exc}, checking the base (please report this)")
            raise Stopped(EXIT_USAGE) from None
        finally:
            for v, recorder in saved:
                v.recorder = recorder


@contextmanager
def base_run(config, now: "dict[str, RepoView | None]", ref: str, under_change: Iterable[str], *,
             today=None, run_cache=None, head: str = "HEAD", ran=None) -> Iterator[BaseRun | None]:
    """The base of `ref` (merged with `head`) for the repositories under change; None when none
    of them has one (not a git work tree's top, no such ref, a shallow clone without it). `ran`:
    what each rule found on the current run (checks._ran.Ran), which the base takes of a
    rule that reads nothing that differs there."""
    commits: dict[str, str] = {}
    changed = set(under_change)
    # In the views' order, not the set's: the reports name the bases in this order, and a set of
    # names is iterated in a different order in each process.
    for name in [*(n for n in now if n in changed), *sorted(changed - set(now))]:
        view = now.get(name)
        commit = merge_base(view.root, ref, head) if view is not None else None
        if commit is not None:
            commits[name] = commit
    if not commits:
        yield None
        return
    tmp = Path(tempfile.mkdtemp(prefix="drafterlint-base-"))
    try:
        cache = _base_cache(run_cache, config, now, commits, today)
        base = BaseRun(config, now, commits, tmp, cache, run_cache.docs if run_cache is not None else None, ran)
        stored = cache.lookup(cache.base_inputs) if cache is not None else None
        if stored is not None:
            base.findings, base.unreadable, base.cached = stored.findings, stored.unreadable, True
        else:
            base.run(today)
            if cache is not None:
                from drafterlint.findings import Result

                cache.save(Result(findings=base.findings, unreadable=base.unreadable))
        yield base
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _base_cache(run_cache, config, now, commits: dict[str, str], today) -> Any:
    """A run cache for the base's findings (see the module's docstring), or None: none where no
    later run will read it (sources.cache_outlives_the_run: CI with the runner's own cache
    folder), which spares asking git for the base's tree."""
    if run_cache is None or run_cache.seen is None or not run_cache.docs.keep:
        return None
    trees = {}
    for name, commit in commits.items():
        tree = tree_of(now[name].root, commit)
        if tree is None:
            return None
        trees[name] = tree
    others = {name: run_cache.inputs_under(view.root) for name, view in now.items()
              if view is not None and name not in commits}
    cache = run_cache.sibling()
    cache.base_inputs = {"base": trees, "config": config, "today": today, "others": others}
    return cache


def change_state(base: BaseRun, config, overrides: Callable[[], dict], baseline: Path | None, now_findings, today):
    """What the base shows for the rules that judge a change itself (checks.context.BaseState),
    or None when the change touches neither the configuration file, the baseline file, the
    workflows nor the pre-commit configuration of a repository under change. `config` is the
    change's (its file with the command line's `overrides()`); the base's file gets the same
    overrides."""
    from drafterlint.checks.base import all_rules
    from drafterlint.checks.context import BaseState
    from drafterlint.config import Config, config_at
    from drafterlint.findings import InputError, Location

    invoked = _invoked(base)
    severities = {m.RULE.code: m.RULE.severity for m in all_rules()}
    source = config.source
    placed = base.place(source) if source is not None else None
    if source is not None and placed is not None:
        name, rel = placed
        now_bytes = Path(source).read_bytes()
        before = base.file_at_base(name, rel)
        added, kept = _baseline_added(base, baseline)
        if before != now_bytes or added:
            # (read only where compared: validating the two versions imports jsonschema, which
            # the hook of a commit that leaves the file alone would pay on every commit)
            try:
                doc = config_at(now_bytes, Path(source))[1]
                base_file = config_at(before, Path(source))[0] if before is not None else Config()
            except InputError:
                before = now_bytes  # a base whose file this version cannot read: nothing to compare with
                added, kept = (), ()
        if before != now_bytes or added:
            base_config = base_file.merged(overrides())
            as_configured = base.with_config(base_config)
            as_configured.run(today)
            return BaseState(config=base_config, visible=tuple(as_configured.findings), shown=tuple(base.findings),
                             severities=severities, config_file=Location(name, rel), config_doc=doc,
                             baseline_added=added, baseline_kept=kept, now=tuple(now_findings), invoked=invoked)
    if not invoked:
        return None
    # Only where the check is invoked changed: the base is judged as the change configures it.
    return BaseState(config=config, visible=tuple(base.findings), shown=tuple(base.findings), severities=severities,
                     config_file=None, config_doc=None, now=tuple(now_findings), invoked=invoked)


def _invoked(base: BaseRun) -> tuple:
    """The workflow files and the pre-commit configuration (checks._invocations) that differ
    between the base and the working tree of each repository under change. Where the base's
    files were written out for its run (basetree.extract writes every YAML file), they are read
    there: no git process more. Otherwise (its findings came from a cache) one `git ls-tree`
    lists the base's with their blob ids; a file whose bytes hash to the same id is the same,
    and only a changed one is read from git."""
    from drafterlint.checks._invocations import MAX_FILES, Changed, is_invocation_file
    from drafterlint.registry.yamlload import DEFAULT_MAX_BYTES

    out = []
    for name in base.commits:
        view = base.now[name]
        assert view is not None
        written = base.written(name)
        if written is not None:
            at_base: dict[str, str | None] = dict.fromkeys(_invocation_files(written, is_invocation_file))
        else:
            listed = _listed_at_base(base, name, is_invocation_file)
            if listed is None:
                continue
            at_base = dict(listed)
        now_paths = _invocation_files(view.root, is_invocation_file)
        for rel in sorted({*at_base, *now_paths})[:MAX_FILES]:
            now = _bounded(view.root / rel, DEFAULT_MAX_BYTES) if rel in now_paths else None
            if rel not in at_base:
                before = None
            elif written is not None:
                before = _bounded(written / rel, DEFAULT_MAX_BYTES)
            elif now is not None and at_base[rel] == _blob_id(now):
                continue
            else:
                before = base.file_at_base(name, rel)
            if before == now:
                continue
            out.append(Changed(name, rel, _text(before), _text(now)))
    return tuple(out)


def _invocation_files(root: Path, wanted: Callable[[str], bool]) -> list[str]:
    """The workflow files and the pre-commit configuration in the folder `root` (links left out,
    as the base's extraction leaves them out)."""
    from drafterlint.checks._invocations import PRE_COMMIT, WORKFLOWS

    here = [p for p in (root / WORKFLOWS).glob("*") if p.is_file() and not p.is_symlink()]
    if (root / PRE_COMMIT).is_file() and not (root / PRE_COMMIT).is_symlink():
        here.append(root / PRE_COMMIT)
    return sorted(rel for rel in (p.relative_to(root).as_posix() for p in here) if wanted(rel))


def _listed_at_base(base: BaseRun, name: str, wanted: Callable[[str], bool]) -> dict[str, str] | None:
    """{path: blob id} of the base's workflow files and pre-commit configuration, from git."""
    from drafterlint.checks._invocations import PRE_COMMIT, WORKFLOWS
    from drafterlint.findings import FetchError
    from drafterlint.gitops import run_git

    view = base.now[name]
    assert view is not None
    try:
        listed = run_git(view.root, ["ls-tree", "-z", "--full-tree", base.commits[name], "--", WORKFLOWS, PRE_COMMIT],
                         allow_local=True, binary=True)
    except FetchError:
        return None
    at_base = {}
    for row in listed.split(b"\0"):
        meta, _, path = row.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == b"blob" and parts[0] != b"120000":
            text = path.decode("utf-8", "replace")
            if wanted(text):
                at_base[text] = parts[2].decode()
    return at_base


def _blob_id(data: bytes) -> str:
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _bounded(path: Path, most: int) -> bytes:
    """A file's bytes, or its first `most` + 1 (the YAML loader refuses what is over its limit)."""
    with open(path, "rb") as handle:
        return handle.read(most + 1)


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "replace")


def _baseline_added(base: BaseRun, baseline: Path | None) -> tuple[tuple, tuple]:
    """((where, what it records) of each line the change adds to the baseline file, what the
    file's other lines record)."""
    from drafterlint.baseline import Known, baseline_rows
    from drafterlint.findings import Location

    placed = base.place(baseline) if baseline is not None and Path(baseline).is_file() else None
    if baseline is None or placed is None:
        return (), ()
    name, rel = placed
    before = (base.file_at_base(name, rel) or b"").decode("utf-8", "replace")
    known = {row.fingerprint for _, row in baseline_rows(before) if isinstance(row, Known)}
    text = Path(baseline).read_text(encoding="utf-8", errors="replace")
    rows = [(number, row) for number, row in baseline_rows(text) if isinstance(row, Known)]
    return (tuple((Location(name, rel, number), row) for number, row in rows if row.fingerprint not in known),
            tuple(row for _, row in rows if row.fingerprint in known))
