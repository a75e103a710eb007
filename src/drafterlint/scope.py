"""Which repository a run is *under change*: the one whose findings fail it and get annotated.

A check reads both repositories (cross-validation needs both), but a contributor to the rules
documents cannot fix the reference repository in their change, nor can GitHub place an
annotation for it on their diff. So each run decides, in this order:

1. ``--scope rules|registry|all``, or ``--scope OWNER/REPO`` (what the action passes from
   ``GITHUB_REPOSITORY``): the repository whose configured ``github`` name it is; a fork
   (another owner, the same repository name) counts as that repository. A name that matches
   neither falls through to 2.
2. The repository the command runs in: the one whose root is the working directory's git
   top level (or the working directory), else the one that contains the working directory.
3. The only repository found, when just one was.
4. Otherwise it cannot tell: every repository is under change (``all``), as before scopes
   existed, and every finding counts.

Findings outside the scope are still computed and kept in JSON and the audit; they do not fail
the run, are not annotated, and are left out of SARIF. An extra list (``--extra-list``) belongs
to neither repository; it was named for this run, so its findings always count (SARIF for one
repository still leaves them out: their paths are not in it).
"""

from __future__ import annotations

from pathlib import Path

from drafterlint.findings import REGISTRY_REPO, RULES_REPO
from drafterlint.records import dataclass

SCOPES = ("rules", "registry", "all")


@dataclass(frozen=True, eq=False, repr=False)
class Scope:
    """The repositories under change, and how that was decided."""

    repos: frozenset[str] | None  # None: every repository (scope `all`)
    how: str  # how it was decided, for the reader

    def covers(self, f) -> bool:
        repo = f.location.repo
        return self.repos is None or repo in self.repos or repo not in (RULES_REPO, REGISTRY_REPO)

    def split(self, findings) -> tuple[list, list]:
        """(findings under change, findings elsewhere), each in the given order."""
        mine: list = []
        others: list = []
        for f in findings:
            (mine if self.covers(f) else others).append(f)
        return mine, others

    def counted(self, findings) -> tuple[list, list]:
        """(findings that can fail the run, pre-existing ones), both under change: the same
        split the exit code, the JSON scope summary and the action's outputs use."""
        mine = self.split(findings)[0]
        return [f for f in mine if not f.baseline], [f for f in mine if f.baseline]

    @property
    def single(self) -> str | None:
        """The one repository under change, or None for `all`."""
        return next(iter(self.repos)) if self.repos is not None and len(self.repos) == 1 else None


EVERYTHING = Scope(None, "all")


def _by_name(value: str, config, found: dict[str, Path]) -> str | None:
    wanted = value.strip().lower()
    names = {which: (config.data[which].get("github") or "").lower() for which in found}
    for which, name in names.items():
        if name and name == wanted:
            return which
    short = wanted.rsplit("/", 1)[-1]
    hits = [which for which, name in names.items() if name and name.rsplit("/", 1)[-1] == short]
    return hits[0] if len(hits) == 1 else None


def _containing(start: Path, found: dict[str, Path]) -> str | None:
    from drafterlint.sources import git_toplevel

    here = start.resolve()
    top = git_toplevel(here)
    roots = {which: root.resolve() for which, root in found.items()}
    for candidate in (top, here):
        exact = [which for which, root in roots.items() if candidate is not None and root == candidate]
        if len(exact) == 1:
            return exact[0]
    inside = [(len(root.parts), which) for which, root in roots.items() if here == root or root in here.parents]
    return max(inside)[1] if inside else None


def resolve_scope(value: str | None, config, rules_dir: Path | None, registry_dir: Path | None, start: Path) -> Scope:
    found = {k: v for k, v in ((RULES_REPO, rules_dir), (REGISTRY_REPO, registry_dir)) if v is not None}
    if value:
        if value == "all":
            return Scope(None, "--scope all")
        if value in (RULES_REPO, REGISTRY_REPO):
            return Scope(frozenset({value}), f"--scope {value}")
        which = _by_name(value, config, found)
        if which is not None:
            return Scope(frozenset({which}), f"--scope {value}")
    which = _containing(start, found)
    if which is not None:
        return Scope(frozenset({which}), "the working directory")
    if len(found) == 1:
        return Scope(frozenset(found), "the only repository found")
    return EVERYTHING


def validate_scope(value: str | None) -> str | None:
    from drafterlint.findings import InputError
    from drafterlint.sources import github_pair

    if value is None or value in SCOPES or github_pair(value) is not None:
        return value
    raise InputError(f"--scope takes rules, registry, all or OWNER/REPO, not {value!r}")
