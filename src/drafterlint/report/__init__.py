"""Reports: findings in, text out. Each format is a module with `render(result, meta) -> str`."""

from __future__ import annotations

import importlib
import operator
from dataclasses import field
from pathlib import Path

from drafterlint.findings import RuleInfo, Severity
from drafterlint.options import Format
from drafterlint.records import dataclass
from drafterlint.scope import EVERYTHING, Scope

# The formats that describe every rule (ReportMeta.rules): for the others the command does not
# import the rule modules, which on a cache hit would be most of the run.
DESCRIBE_RULES = frozenset({"sarif"})
# The formats that carry fix's own edits (ReportMeta.suggestions): for them the command works out
# what `fix` would write, which costs a second run of the checks and a proof.
SUGGESTS = frozenset({"rdjson"})


@dataclass(frozen=True, eq=False, repr=False)
class ReportMeta:
    """What the reports are told besides the result: built once by the command, when all of it is
    known (drafterlint.commands.report_meta; the audit's in drafterlint.audit)."""

    version: str
    # Per repository name ("rules", "registry"): the root as given, for messages and links.
    roots: dict[str, str] = field(default_factory=dict)
    # Per repository name: (owner/repo, commit or ref) so reports can link to exact lines.
    github: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Per repository name: its checkout (resolved paths, annotations, SARIF roots).
    local_roots: dict[str, Path | None] = field(default_factory=dict)
    # Per repository name: what a person calls it (`mlcommons/endpoints`).
    names: dict[str, str] = field(default_factory=dict)
    base_ref: str | None = None
    # Per repository name: per path, the lines changed since base_ref (read from git by the
    # command, so that reports only format).
    changed: dict[str, dict[str, set[int]]] = field(default_factory=dict)
    rules: tuple[RuleInfo, ...] = ()  # every rule, for the formats in DESCRIBE_RULES
    # Per finding (Finding.spot), the replacements `fix` makes for it (fix.edits.Replacement),
    # for the formats in SUGGESTS.
    suggestions: dict[tuple, tuple] = field(default_factory=dict)
    scope: Scope = EVERYTHING  # the repository under change (drafterlint.scope)
    cwd: Path | None = None  # where the command runs: text paths are relative to it
    # What a person reading text output asked for: -1 quiet, 0 default, 1 verbose.
    verbosity: int = 0
    show_info: bool = False
    statistics: bool = False
    fail_on: Severity = Severity.ERROR
    exit_zero: bool = False  # --exit-zero: findings are reported but the run does not fail
    # What pre-existing findings were matched against ("the merge base 1a2b3c4 of main", "the
    # baseline file .drafterlint-baseline.json"), None when every finding counts as new; and how
    # many findings known there no longer occur.
    baseline_source: str | None = None
    baseline_fixed: int = 0
    # Known findings no longer reported that the run could not have seen: how many, per why
    # ("because catalog.yaml is unreadable"); never counted fixed (drafterlint.unchecked).
    baseline_unchecked: dict[str, int] = field(default_factory=dict)
    baseline_file: bool = False  # the source is a baseline file, which `drafterlint baseline` shrinks
    preexisting_hint: str = "--all shows them"  # how to see the pre-existing findings
    # What mends a link this change's rename broke, in the words of where the message is read.
    fix_hint: str = "run `drafterlint fix --base-ref BASE`"
    in_action: bool = False  # read in the GitHub Action's log and summary: its inputs, not flags
    # The last line when findings fail a run that has neither a base nor a baseline (None: not said).
    adoption_hint: str | None = None
    # display_path's answers, per (repository, path)
    _shown_paths: dict[tuple[str, str], str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def name_of(self, repo: str) -> str:
        return self.names.get(repo) or repo

    def display_path(self, f) -> str:
        """The finding's file relative to the working directory when it lies inside it, else
        relative to its repository with the repository's name in front; never `..`.

        Worked out once per file: it resolves paths on disk, and a document can carry tens of
        thousands of findings."""
        key = (f.location.repo, f.location.path)
        shown = self._shown_paths.get(key)
        if shown is None:
            shown = self._shown_paths[key] = self._display_path(f)
        return shown

    def _display_path(self, f) -> str:
        root = self.local_roots.get(f.location.repo)
        # An extra list has no repository: its path is the file's own (absolute once resolved).
        full = Path(f.location.path) if root is None else Path(root).resolve() / f.location.path
        if self.cwd is not None and full.is_absolute():
            try:
                return full.relative_to(self.cwd.resolve()).as_posix()
            except ValueError:
                pass
        return f.location.path if root is None else f"{self.name_of(f.location.repo)}/{f.location.path}"

    def elsewhere(self, others) -> list[tuple[str, list]]:
        """Findings outside the scope, grouped per repository: [(name, findings)]."""
        groups: dict[str, list] = {}
        for f in others:
            groups.setdefault(self.name_of(f.location.repo), []).append(f)
        return list(groups.items())


def render(result, fmt: Format | str, meta: ReportMeta) -> str:
    """The report of `result` in `fmt` (a Format, or its name); an unknown name is a ValueError."""
    module = importlib.import_module(f"drafterlint.report.{Format(fmt).value}_report")
    return module.render(printable(result), meta)


def one_line(text: str) -> str:
    """`text` kept on its line, and never a workflow command: the one escape (safeio.safe_line)."""
    from drafterlint.safeio import safe_line

    return safe_line(text)


def printed(text: str, fmt: Format) -> str:
    """A rendered report as it may be printed: the `github` format builds its own lines (its
    commands escaped by their builder, the rest through the escape); every other format goes
    line by line through the escape (a no-op on JSON, which json_safe has made printable)."""
    if fmt is Format.GITHUB:
        return text
    from drafterlint.safeio import safe_text

    return safe_text(text)


# The fields a record's constructor takes, by its class (None: not a record), for `printable`,
# which reads each finding's: dataclasses.fields made them anew for each object, 4 ms a run on
# the real repositories' 80 findings.
_INIT_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _init_fields(cls: type) -> tuple[str, ...] | None:
    names = _INIT_FIELDS.get(cls, ())
    if names == ():
        from dataclasses import fields, is_dataclass

        names = _INIT_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.init) if is_dataclass(cls) else None
    return names


def printable(result):
    """The result with every text a report writes made encodable (safeio.encodable: the bytes of a
    name that is not valid UTF-8 shown as \\xNN, so every format can write it and JSON and SARIF
    stay valid UTF-8); the same object when nothing needs it (the common case costs one scan)."""
    from dataclasses import replace

    from drafterlint.safeio import encodable, has_surrogate

    def fix(obj):
        if isinstance(obj, str) and has_surrogate(obj):
            return encodable(obj)
        if isinstance(obj, tuple):
            fixed = tuple(fix(x) for x in obj)
            # (the same tuple where nothing changed: a record holding one is then kept, not copied)
            return obj if type(obj) is tuple and all(map(operator.is_, fixed, obj)) else fixed
        names = _init_fields(type(obj))
        if names is not None:
            changes = {}
            for name in names:
                value = getattr(obj, name)
                fixed = fix(value)
                if fixed is not value:
                    changes[name] = fixed
            return replace(obj, **changes) if changes else obj
        return obj

    findings = [fix(f) for f in result.findings]
    skipped = [fix(s) for s in result.skipped]
    if all(a is b for a, b in zip(findings, result.findings)) and all(a is b for a, b in zip(skipped, result.skipped)):
        return result
    return replace(result, findings=findings, skipped=skipped)


def summary_counts(findings) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[str(f.severity)] += 1
    return counts


def new_and_preexisting(findings) -> tuple[list, list]:
    """(new findings, pre-existing ones), each in the given order."""
    return [f for f in findings if not f.baseline], [f for f in findings if f.baseline]


def preexisting_lines(meta, preexisting) -> list[str]:
    """What a person reads about the findings that fail nothing because they were there before."""
    out = []
    if preexisting:
        out.append(f"{plural(len(preexisting), 'pre-existing finding')} (in {meta.baseline_source}) "
                   f"do not fail this run: {meta.preexisting_hint}")
    if meta.baseline_fixed:
        n = meta.baseline_fixed
        if meta.baseline_file:
            out.append(f"{plural(n, 'baselined finding')} {'is' if n == 1 else 'are'} fixed: "
                       "run `drafterlint baseline` to shrink the file")
        else:
            out.append(f"{plural(n, 'finding')} of {meta.baseline_source} {'is' if n == 1 else 'are'} fixed by this change")
    for why, n in meta.baseline_unchecked.items():
        out.append(f"{plural(n, 'finding')} of {meta.baseline_source} could not be checked {why}: not counted fixed")
    return out


@dataclass(frozen=True, eq=False, repr=False)
class Group:
    """Findings one cause broke (Finding.cause): a rename that broke 23 links is one group."""

    cause: str
    findings: tuple


def by_cause(findings) -> list:
    """The findings in their order, those that share a cause (two or more) as one Group at the
    place of the first of them; the others as they are."""
    members: dict[str, list] = {}
    for f in findings:
        if f.cause:
            members.setdefault(f.cause, []).append(f)
    out: list = []
    for f in findings:
        group = members.get(f.cause) if f.cause else None
        if group is None or len(group) < 2:
            out.append(f)
        elif group[0] is f:
            out.append(Group(f.cause, tuple(group)))
    return out


def leading_first(items: list) -> list:
    """`items` (findings and Groups) with those a report puts before all others first
    (findings.LEADING_CODES: the check itself was weakened, so what follows may be missing
    findings), the rest in their order: whatever file it is in, and before a rename's group."""
    from drafterlint.findings import LEADING_CODES

    return sorted(items, key=lambda f: isinstance(f, Group) or f.code not in LEADING_CODES)


def group_line(group: Group, fix_hint: str) -> str:
    """ "§2.9.4 … was renamed to …: 23 links point to the old anchor; to repoint them all, run `…`" """
    return f"{group.cause}: {len(group.findings)} links point to the old anchor; to repoint them all, {fix_hint}"


def member_message(group: Group, fix_hint: str) -> str:
    """A group's wording for one of its findings (an annotation stays on its own line)."""
    n = len(group.findings) - 1
    return (f"{group.cause}: this link and {plural(n, 'other')} point to the old anchor; "
            f"to repoint them all, {fix_hint}")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def elsewhere_line(name: str, findings) -> str:
    """ "9 findings in mlcommons/endpoints, not changed here (3 errors, 6 warnings)" """
    c = summary_counts(findings)
    parts = [plural(c[s], s) for s in ("error", "warning") if c[s]] + ([f"{c['info']} info"] if c["info"] else [])
    return f"{plural(len(findings), 'finding')} in {name}, not changed here ({', '.join(parts)})"
