"""What a check is given: the Context.

It sits below every module that takes one (the rules, the shared helpers that memoise on it, the
engine) and above the data it holds (the documents, the sections, the facts, the eligibility,
the native evidence, the registry): those are computed from explicit pieces and never import it,
so the checks' modules form no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from enum import Enum
from typing import TYPE_CHECKING, TypeVar, cast

from drafterlint.checks._eligibility import Eligibility
from drafterlint.checks._facts import RulesFacts
from drafterlint.checks._native import NativeEvidence
from drafterlint.documents import Documents
from drafterlint.findings import Finding, Location, Severity, UnreadableFile
from drafterlint.records import dataclass

if TYPE_CHECKING:  # imported for annotations only: a pre-commit hook pays for every import
    import datetime

    from drafterlint.baseline import Known
    from drafterlint.checks._invocations import Changed
    from drafterlint.checks._sections import Located
    from drafterlint.config import Config
    from drafterlint.gitlines import Renumber
    from drafterlint.history import History
    from drafterlint.hub import Hub
    from drafterlint.markdown.model import Document
    from drafterlint.registry.model import Registry
    from drafterlint.registry.yamlload import YamlDoc
    from drafterlint.sources import RepoView

_T = TypeVar("_T")


class Need(str, Enum):
    """What a rule needs in order to run. A rule whose needs are not met is skipped (said once).

    A str as well, by its value ("registry"): the value is what SARIF's rule properties and a
    skipped check's `need` (findings.Skipped, kept in the run cache as JSON) carry."""

    RULES = "rules"  # the rules repository
    REGISTRY = "registry"  # the reference repository's policy folders
    HISTORY = "history"  # git history of the repositories (audit)
    TODAY = "today"  # a date to compare with (audit)
    ONLINE = "online"  # the network (audit --online)
    # The base of a change whose configuration differs (check --base-ref, the hooks, the Action):
    # a rule that needs it runs only there, and is never listed as skipped elsewhere.
    BASE = "base"

    def __str__(self) -> str:
        return self.value


RULES, REGISTRY, HISTORY, TODAY, ONLINE, BASE = (
    Need.RULES, Need.REGISTRY, Need.HISTORY, Need.TODAY, Need.ONLINE, Need.BASE)


class Part(str, Enum):
    """A part of the Context a rule's `check` reads (RULE.reads; its value names the Context's
    field).

    A change's base takes the head's findings of a rule whose every part read is the head's own
    object there (checks._ran.Ran): a repository view the base shares (a repository not under
    change), the registry loaded once for both, the same date. What is computed again for each
    context (the documents, the sections, the facts, the eligibility, the native evidence) is
    never the same object, so a rule that reads one is always run again; the configuration is
    compared for every rule. tests/test_rule_reads.py records what each rule reads as it runs."""

    RULES = "rules"  # the rules repository (its files; its documents through `documents`)
    REGISTRY_REPO = "registry_repo"  # the reference repository's files
    REGISTRY = "registry"  # the registry loaded from them
    DOCUMENTS = "documents"
    SECTIONS = "sections"
    FACTS = "facts"
    ELIGIBILITY = "eligibility"
    NATIVE = "native"
    TODAY = "today"
    HISTORY = "history"
    ONLINE = "online"
    BASE = "base"


@dataclass(frozen=True, eq=False, repr=False)
class BaseState:
    """What the base of a change shows, for the rules that judge the change itself (needs BASE):
    set only when the change touches the configuration or the baseline file."""

    config: "Config"  # the base's configuration
    visible: tuple[Finding, ...]  # the base's findings under its own configuration
    shown: tuple[Finding, ...]  # the base's findings under the change's configuration
    severities: Mapping[str, Severity]  # every rule's default severity, by code
    config_file: Location | None  # the change's configuration file (None: it has none)
    config_doc: "YamlDoc | None"  # that file, positioned
    baseline_added: tuple[tuple[Location, "Known"], ...] = ()  # lines the change adds to the baseline file, with what each records
    baseline_kept: tuple["Known", ...] = ()  # what the baseline file's other lines record
    now: tuple[Finding, ...] = ()  # the change's findings (what an added baseline line hides)
    invoked: tuple["Changed", ...] = ()  # the workflow and pre-commit files the change changes (_invocations)


class BrokenPromise(RuntimeError):
    """The engine ran a rule whose needs it had not met: a bug in drafterlint, not in the input."""


@dataclass(frozen=True, eq=False, repr=False)
class Inputs:
    """What a check runs on, as given: the configuration and the repositories, and what the
    audit adds (the history, the date, the model hub) or a change's base. `engine.prepare`
    makes the Context the rules read of them."""

    config: "Config"
    rules: "RepoView | None" = None
    registry_repo: "RepoView | None" = None
    registry: "Registry | None" = None  # loaded already (else prepare loads it from registry_repo)
    today: "datetime.date | None" = None
    history: "History | None" = None  # audit only
    online: "Hub | None" = None  # audit --online only
    base: BaseState | None = None  # a change's base, when it touches the configuration


@dataclass(eq=False, repr=False)
class Preparing:
    """A Context being prepared (engine.prepare): its inputs and what is computed of them so far,
    in order, the documents and then the sections located in them, which locating the sections
    and reading the rules' facts take (_sections.Locatable, _facts.Sources); the files met
    unreadable on the way. No rule is given one."""

    inputs: Inputs
    documents: Documents = field(default_factory=Documents)
    sections: "list[tuple[Document, Located]]" = field(default_factory=list)
    unreadable_files: "list[UnreadableFile]" = field(default_factory=list)

    @property
    def config(self) -> "Config":
        return self.inputs.config

    @property
    def rules(self) -> "RepoView | None":
        return self.inputs.rules

    def unreadable(self, error: "UnreadableFile") -> None:
        self.unreadable_files.append(error.kept())


def renumbered_of(inputs: Inputs) -> "dict[str, dict[str, Renumber]]":
    """Context.renumbered of a context over `inputs`' repositories."""
    return {view.name: view.renumbered for view in (inputs.rules, inputs.registry_repo) if view is not None}


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class Context(Inputs):
    """Everything a check may look at: parsed documents and registry, never raw paths.

    Prepared: `engine.prepare` makes it, with `documents` (the one resolved list of documents),
    `sections` (the configured sections, located), `facts` (what the rules text states),
    `registry`, `eligibility` (when each head becomes usable) and `native` (what the
    checkpoints show of their native heads, asked of the hub on demand) all computed before
    any check runs: every check, and the audit after them, reads the same ones, whichever runs
    first, and none is set again (the fields are frozen; what checks meet on the way, below,
    is added to)."""

    documents: Documents
    sections: "list[tuple[Document, Located]]"
    facts: RulesFacts
    eligibility: Eligibility
    native: NativeEvidence
    # What checks met on the way: files that could not be read (reported by DL702) and parts of
    # checks that could not run (reason -> codes, said once).
    unreadable_files: "list[UnreadableFile]" = field(default_factory=list)
    skipped: dict[str, set[str]] = field(default_factory=dict)
    skip_needs: dict[str, Need] = field(default_factory=dict)  # reason -> what would let it run
    # Results one check computes and others reuse (resolved links, the parsed Markdown list),
    # each under the function that computes it (see `shared`): the value's type is the key's
    # return type, which a dict cannot say, so `shared` is the only reader.
    memo: "dict[Callable[[Context], object], object]" = field(default_factory=dict)
    # What each rule found here, for a change's base to take (a checks._ran.Ran, which imports
    # this module); None where no base follows.
    ran: object = None
    # Per repository name, its view's documents whose lines git numbers otherwise than the parser
    # (sources.RepoView.renumbered, the dicts the views fill as they read): what said_line reads,
    # no part of its own (a place a rule names came from a part it read, and so did that file).
    renumbered: "Mapping[str, Mapping[str, Renumber]]" = field(default_factory=dict)

    @classmethod
    def unprepared(cls, inputs: Inputs, *, facts: RulesFacts | None = None) -> "Context":
        """A Context with nothing computed of its inputs (no documents, no sections; no facts
        but `facts`): for the rules that judge a change itself (needs BASE), which read only
        what its base shows, and for a test of one registry rule."""
        return cls(**vars(inputs), documents=Documents(), sections=[], facts=facts or RulesFacts(),
                   eligibility=Eligibility(), native=NativeEvidence(), renumbered=renumbered_of(inputs))

    def unreadable(self, error: "UnreadableFile") -> None:
        """Record a file that could not be read (DL702) without stopping the check that met it."""
        self.unreadable_files.append(error.kept())

    def unreadable_met(self) -> list[UnreadableFile]:
        """Every file met that could not be read, with the first reason: the registry's files
        (read when it was loaded), the documents and any file a check read, and the parts of
        parsed documents left unparsed because they exceed a bound (a table over the cell
        budget). DL702 reports them; the engine records them whether it is chosen or not."""
        met = [*getattr(self.registry, "errors", ()), *self.unreadable_files]
        for view in (self.rules, self.registry_repo):
            if view is None:
                continue
            for doc in view.parsed_documents():
                for line, _last, message in doc.limits:
                    from drafterlint.markdown.model import LIMIT_LINE

                    loc = view.location(doc.path, line)
                    met.append(UnreadableFile(loc, message.replace(LIMIT_LINE, str(self.said_line(loc)))))
        return met

    def said_line(self, loc: Location) -> int:
        """The line of `loc`, a place in a parsed document, as git numbers it (drafterlint.
        gitlines): what a message says when it names a place (the engine renumbers the finding's
        own place as the run ends)."""
        renumber = self.renumbered.get(loc.repo, {}).get(loc.path)
        return renumber.place(loc.line, loc.column)[0] if renumber is not None else loc.line

    def skip(self, code: str, reason: str, *, need: Need | None = None) -> None:
        """Say once that part of a check could not run (never a failure). `need` is what the
        part lacked (base.ONLINE: the model hub did not answer), None when nothing would let it run
        (the rules of this version ask for nothing there); the audit words the two apart."""
        self.skipped.setdefault(reason, set()).add(code)
        if need is not None:
            self.skip_needs[reason] = need

    def shared(self, compute: "Callable[[Context], _T]") -> _T:
        """`compute(self)`, computed once per context and then reused by every check that asks.

        Keyed by the function itself, not by a name: two helpers cannot collide on a key or
        read each other's result, and the result keeps the function's type."""
        if compute not in self.memo:
            self.memo[compute] = compute(self)
        return cast(_T, self.memo[compute])

    def remembered(self, kind: str, content: str, compute: "Callable[[], Iterable[_T]]") -> "list[_T]":
        """`compute()`, for an input whose whole content `content` says, from the run's cache when
        an earlier run computed it (the registry's store of parsed documents, keyed like them by
        the content and the tool); computed, and kept there, otherwise."""
        store = getattr(self.registry_repo, "doc_cache", None)
        if store is None:
            return list(compute())
        return cast("list[_T]", store.remembered(kind, content, compute))

    # What a rule's RULE.needs promised: the engine runs the rule only when the part is there,
    # so the rule reads it typed, without a branch for a case that cannot happen.

    @property
    def loaded_registry(self) -> "Registry":
        """The registry, for a rule that needs REGISTRY."""
        return _promised(self.registry, "registry")

    @property
    def rules_view(self) -> "RepoView":
        """The rules repository, for a rule that needs RULES."""
        return _promised(self.rules, "rules")

    @property
    def git_history(self) -> "History":
        """The registry's git history, for a rule that needs HISTORY."""
        return _promised(self.history, "history")

    @property
    def hub(self) -> "Hub":
        """The model hub, for a rule that needs ONLINE."""
        return _promised(self.online, "online")

    @property
    def base_state(self) -> BaseState:
        """What the change's base shows, for a rule that needs BASE."""
        return _promised(self.base, "base")

    @property
    def judged_on(self) -> "datetime.date":
        """The date to judge by, for a rule that needs TODAY."""
        return _promised(self.today, "today")


def _promised(value: "_T | None", need: str) -> _T:
    if value is None:
        raise BrokenPromise(f"a rule that needs {need!r} ran without it")
    return value
