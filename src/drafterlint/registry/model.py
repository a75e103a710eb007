"""The registry as checks see it: policy folders, their heads, checkpoints and parameters.

Built by ``drafterlint.registry.load.load_registry`` from the YAML files (each parsed once);
every object keeps the document it came from and its path in it, so a finding can point at the
exact line and column of any field.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field
from typing import Any

from drafterlint.cohorts import DEFAULT_CALENDAR, Calendar, Cohort
from drafterlint.findings import Location, UnreadableFile
from drafterlint.records import dataclass
from drafterlint.registry.yamlload import YamlDoc

POLICY_FILES = (
    "catalog.yaml",
    "curve_checks.yaml",
    "point_checks.yaml",
    "submission_checks.yaml",
    "system_checks.yaml",
)
HEADS_PATH = ("catalogs", "approved_spec_decode_heads")
CHECKPOINTS_PATH = ("catalogs", "approved_checkpoints")
ENROLLED_PATH = ("enrollment", "models")


def publisher(repository: object) -> str | None:
    """The organisation of a model-hub repository id (`org/name` -> `org`), None if not one."""
    if not isinstance(repository, str) or "/" not in repository:
        return None
    org = repository.strip().split("/", 1)[0].strip()
    return org or None


def same_publisher(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a.casefold() == b.casefold()


@dataclass(eq=False, repr=False, kw_only=True)
class _Located:
    """Something read from a YAML mapping: where it is, and where each of its fields is.
    (Keyword-only, so each kind lists its own fields first, positionally, as before.)"""

    location: Location
    index: int = 0  # its place in its list
    doc: YamlDoc = field(default=None, repr=False)  # type: ignore[assignment]
    path: tuple = field(default=(), repr=False)  # its path in `doc`

    def field_location(self, name: str) -> Location:
        """The position of the field's value, or of the entry when the field is absent."""
        p = self.path + (name,)
        if self.doc.position(p) is None:
            return self.location
        return self.doc.location(p, value=True)


@dataclass(eq=False, repr=False)
class Head(_Located):
    """An approved speculative-decoding head in a policy's catalog."""

    model: str | None
    repository: str | None
    revision: str | None
    approved_cohort: str | None
    method: str | None
    bundled: bool
    raw: dict = field(default_factory=dict, repr=False)
    calendar: Calendar = field(default=DEFAULT_CALENDAR, repr=False)  # cohort ids are read with it

    @property
    def identity(self) -> tuple:
        return (self.model, self.repository, self.revision)

    @property
    def cohort(self) -> Cohort | None:
        return Cohort.try_parse(self.approved_cohort, self.calendar)

    @property
    def publisher(self) -> str | None:
        return publisher(self.repository)

    def describe(self) -> str:
        return f"{self.model}: {self.repository}@{self.revision}"


@dataclass(eq=False, repr=False)
class Checkpoint(_Located):
    """An approved model checkpoint in a policy's catalog."""

    model: str
    repository: str | None
    revision: str | None

    @property
    def identity(self) -> tuple:
        return (self.model, self.repository, self.revision)

    @property
    def publisher(self) -> str | None:
        return publisher(self.repository)


@dataclass(frozen=True, eq=False, repr=False)
class Param:
    """A value a policy file declares (a version, a check parameter) and where it is written."""

    value: Any
    location: Location


@dataclass(eq=False, repr=False)
class Policy:
    """One policy folder (a cohort's): its files as read and what they approve."""

    folder: str  # the folder's name, normally a cohort id
    path: str  # repository-relative path of the folder
    docs: dict[str, YamlDoc] = field(default_factory=dict)  # file name -> parsed file
    versions: dict[str, Param | None] = field(default_factory=dict)  # file name -> version
    revisions: dict[str, Param | None] = field(default_factory=dict)
    heads: list[Head] = field(default_factory=list)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    params: dict[str, Param] = field(default_factory=dict)  # lead_cohorts, adoption_window_cohorts
    enrolled_models: list[tuple[str, Location]] = field(default_factory=list)
    calendar: Calendar = field(default=DEFAULT_CALENDAR, repr=False)  # the folder name is read with it
    # Files of the folder that exist but could not be read (DL702 reports each): a check that
    # would read one says nothing about what it holds, rather than judge it empty.
    unreadable: set[str] = field(default_factory=set)

    @property
    def cohort(self) -> Cohort | None:
        return Cohort.try_parse(self.folder, self.calendar)

    @property
    def catalog(self) -> YamlDoc | None:
        return self.docs.get("catalog.yaml")

    def location(self) -> Location:
        """Where to report something about the folder itself: line 1 of its first file."""
        for name in POLICY_FILES:
            if name in self.docs:
                return self.docs[name].location(())
        repo = next(iter(self.docs.values())).repo if self.docs else "registry"
        return Location(repo, self.path, 1, 1)

    def checkpoints_of(self, model: str | None) -> list[Checkpoint]:
        return [c for c in self.checkpoints if c.model == model]


@dataclass(eq=False, repr=False)
class ExtraEntry(_Located):
    """One entry of an extra list (the `drafters:` shape)."""

    list_name: str
    benchmark: str | None
    approved_cohort: str | None
    model_id: str | None
    weight_checksum: str | None
    target_checksum: str | None
    configuration: Any
    raw: dict = field(default_factory=dict, repr=False)

    @property
    def revision(self) -> str | None:
        """The revision a `git-sha1:<rev>` weight checksum names, if it is one."""
        w = self.weight_checksum
        if isinstance(w, str) and w.startswith("git-sha1:"):
            return w.split(":", 1)[1]
        return None

    @property
    def identified_by(self) -> str:
        return "weights" if self.weight_checksum else "configuration" if self.target_checksum else "?"


@dataclass(eq=False, repr=False)
class ExtraList:
    """Another copy of the approved list (`--extra-list`, `drafters:` shape), as read."""

    name: str
    path: str  # as configured (shown in findings)
    format: str
    doc: YamlDoc | None
    entries: list[ExtraEntry] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class Registry:
    """The reference repository's policies, as read."""

    policies_path: str  # repository-relative folder that holds the policy folders
    policies: dict[str, Policy] = field(default_factory=dict)  # folder name -> policy, by cohort
    errors: list[UnreadableFile] = field(default_factory=list)
    extra_lists: list[ExtraList] = field(default_factory=list)
    # Why an extra list a configuration file names was not read (its file does not exist): the
    # comparison with it is skipped, as a missing registry.path skips the registry's checks.
    missing_extra_lists: list[str] = field(default_factory=list)
    # The publication calendar the rules state (§4.2): how many cohorts a month, for every id.
    calendar: Calendar = field(default=DEFAULT_CALENDAR, repr=False)

    def docs(self) -> Iterator[YamlDoc]:
        for policy in self.policies.values():
            yield from policy.docs.values()
        for extra in self.extra_lists:
            if extra.doc is not None:
                yield extra.doc

    def cohort_policies(self) -> list[tuple[Cohort, Policy]]:
        """The policies whose folder name is a valid cohort, oldest first."""
        out = [(p.cohort, p) for p in self.policies.values() if p.cohort is not None]
        return sorted(out, key=lambda cp: cp[0])

    def latest(self) -> Policy | None:
        """The newest cohort policy; when no folder is named as a cohort, the last folder."""
        cps = self.cohort_policies()
        if cps:
            return cps[-1][1]
        return list(self.policies.values())[-1] if self.policies else None


# -- what the rules read of the registry's history of policies --------------------------------


def latest_heads(registry: Registry | None) -> list:
    """Every head of every policy, once per identity, as the newest policy listing it has it.

    Returns [(head, policy)], in registry order of their newest policy.
    """
    if registry is None:
        return []
    seen: dict[tuple, tuple] = {}
    for policy in registry.policies.values():  # oldest first: later policies replace earlier ones
        for head in policy.heads:
            seen[head.identity] = (head, policy)
    return list(seen.values())


def latest_checkpoints(registry: Registry) -> list:
    """[(checkpoint, policy)] of the newest cohort policy: the current model list."""
    policy = registry.latest()
    if policy is None:
        return []
    out, seen = [], set()
    for cp in policy.checkpoints:
        if cp.identity not in seen:
            seen.add(cp.identity)
            out.append((cp, policy))
    return out
