"""Runs the rules: sources -> parsed documents and registry -> checks -> findings.

The only place that decides which rules run, what they are given, and how their findings are
filtered (selection, severity overrides, suppression comments) before the reports see them.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from drafterlint.checks.base import BASE, HISTORY, ONLINE, REGISTRY, RULES, TODAY, Need, RuleModule, all_rules
from drafterlint.checks.context import BaseState, Context, Inputs, Preparing, renumbered_of
from drafterlint.config import Config
from drafterlint.findings import (
    REGISTRY_REPO,
    RULES_REPO,
    Finding,
    InputError,
    Location,
    Result,
    Skipped,
    UnreadableFile,
    quoted,
)
from drafterlint.markdown.model import Body
from drafterlint.rendered import is_markdown
from drafterlint.sources import RepoView, repo_view

if TYPE_CHECKING:
    from drafterlint.checks._ran import Ran
    from drafterlint.gitlines import Renumber
    from drafterlint.history import History
    from drafterlint.hub import Hub


class RuleCrashed(Exception):
    """A rule failed in a way it should not: a bug in drafterlint, not in the checked files."""


def build_context(
    config: Config,
    rules_dir: Path | None,
    registry_dir: Path | None,
    *,
    today: datetime.date | None = None,
    history: History | None = None,
    online: Hub | None = None,
    base: BaseState | None = None,
    cache=None,
    whole: bool = False,
    ran: "Ran | None" = None,
) -> Context:
    """`cache` (a drafterlint.cache.RunCache) is told of every input read, and lends its store
    of parsed documents. `whole` keeps every document whole (fix rewrites their text), instead
    of only the outline of each checked one once the rules read its body. `ran` records what
    each rule finds, for a change's base (checks._ran.Ran)."""
    rules = _attach(repo_view(config, "rules", rules_dir), cache, whole) if rules_dir is not None else None
    registry_repo = (_attach(repo_view(config, "registry", registry_dir), cache, whole)
                     if registry_dir is not None else None)
    return prepare(Inputs(config, rules, registry_repo, today=today, history=history, online=online, base=base),
                   ran=ran)


def prepare(inputs: Inputs, *, ran: "Ran | None" = None) -> Context:
    """The Context the rules read: what every check reads, computed before the first one runs,
    in order: the resolved documents, the configured sections located in them, the facts the
    rules text states, the registry (unless given), when each of its heads becomes usable, and
    the native-head evidence. Then the checked documents are read one at a time, the rules'
    per-document parts run on each (`check_document`), and only its outline is kept (see
    `_read_checked`)."""
    from drafterlint.checks._eligibility import eligibility
    from drafterlint.checks._facts import extract
    from drafterlint.checks._native import NativeEvidence, evidence_table
    from drafterlint.checks._sections import locate_all
    from drafterlint.documents import resolve

    config = inputs.config
    preparing = Preparing(inputs)
    preparing.documents, checked = resolve(config, inputs.rules, inputs.registry_repo, preparing.unreadable)
    preparing.sections = locate_all(preparing)
    facts = extract(preparing)
    registry = inputs.registry
    if registry is None and inputs.registry_repo is not None:
        from drafterlint.registry.load import registry_of

        # Read with the calendar the rules state: it says how many cohorts a month there are.
        registry = registry_of(inputs.registry_repo, config, facts.publication_calendar)
    ctx = Context(**{**vars(inputs), "registry": registry}, documents=preparing.documents,
                  sections=preparing.sections, facts=facts, eligibility=eligibility(registry, facts, config),
                  native=NativeEvidence(evidence_table(config), inputs.online),
                  unreadable_files=preparing.unreadable_files, ran=ran, renumbered=renumbered_of(inputs))
    if ran is not None:
        ran.bind(ctx)
    _read_checked(ctx, checked)
    return ctx


def _read_checked(ctx: Context, checked: Iterable[tuple[RepoView, Body]]) -> None:
    """Each checked document, as it is read, given to the per-document part of every rule the
    configuration chooses whose needs are met (what the rest of the run cannot read again), and
    then only its outline kept: the headings, anchors and links other documents' checks read.
    The main and companion documents and the Markdown list stay whole."""
    docs = ctx.documents
    whole = docs.whole()
    parts = [(r.RULE.code, part) for r in _chosen(ctx, None)
             if (part := _document_part(r)) is not None and not _missing_needs(r, ctx)]
    docs.found.update((code, []) for code, _part in parts)
    for view, body in checked:
        for code, part in parts:
            if code not in docs.failed:
                try:
                    docs.found[code].extend(part(ctx, view, body) or ())
                except Exception as exc:  # raised again at the rule's turn, in `run`
                    docs.failed[code] = exc
        docs.checked.append((view, body.outline if id(body.outline) in whole else view.keep_outline(body.path)))


DocumentPart = Callable[[Context, RepoView, Body], Iterable[Finding]]


def _document_part(rule: RuleModule) -> DocumentPart | None:
    """The rule's per-document part, `check_document(ctx, view, doc)`, when it has one (read
    like OPTIONS and ADVICE: few rules define it)."""
    return getattr(rule, "check_document", None)


def _document_findings(ctx: Context, code: str, part: DocumentPart) -> Iterator[Finding]:
    """What a rule's per-document part finds in the checked documents: as they were read, or
    (a context prepared without reading them, or a rule left out then) over them now, each
    read again whole where only its outline was kept."""
    if code in ctx.documents.found:
        yield from ctx.documents.found[code]
        if code in ctx.documents.failed:
            raise ctx.documents.failed[code]
        return
    for view, doc in ctx.documents.checked:
        yield from part(ctx, view, view.body(doc.path)) or ()


def _attach(view: RepoView, cache, whole: bool) -> RepoView:
    if cache is not None:
        view.recorder = cache.recorder
        view.doc_cache = cache.docs
    view.keep_whole = whole
    return view


def _missing_needs(rule: RuleModule, ctx: Context) -> list[Need]:
    have = {
        RULES: ctx.rules is not None,
        REGISTRY: ctx.registry is not None,
        HISTORY: ctx.history is not None,
        TODAY: ctx.today is not None,
        ONLINE: ctx.online is not None,
        BASE: ctx.base is not None,
    }
    return sorted(n for n in rule.RULE.needs if not have.get(n, False))


_NEED_REASONS: dict[Need, str] = {
    RULES: "no rules repository (give --rules-repo or set rules.path)",
    REGISTRY: "no reference repository (give --registry-repo, set registry.path, or run `drafterlint sync`)",
    HISTORY: "needs git history (run `drafterlint audit`)",
    TODAY: "needs a date (run `drafterlint audit`)",
    ONLINE: "needs the network (run `drafterlint audit --online`)",
}


def _need_reason(ctx: Context, need: Need) -> str:
    """Why a check that needs `need` is skipped: a configured path that does not exist is named."""
    which = {RULES: "rules", REGISTRY: "registry"}.get(need)
    if which is None:
        return _NEED_REASONS[need]
    configured = ctx.config.repo_path(which)
    if configured is not None and not configured.exists():
        what = _NEED_REASONS[need].split(" (")[0]
        given = ctx.config.data[which].get("path")
        return f"{what}: {which}.path {quoted(given)} does not exist"
    return _NEED_REASONS[need]


def run(ctx: Context, rules: list[RuleModule] | None = None, crashed: list[RuleCrashed] | None = None, *,
        git_lines: bool = True) -> Result:
    """The findings of the chosen rules. A rule that crashes raises RuleCrashed, or, when
    `crashed` is a list, is put there and the others still run (the audit reports it).
    Placed at git's lines (git_numbered), or with `git_lines=False` at the parser's, where fix
    finds what it mends in the parsed documents."""
    result = Result()
    judged_by = _judged_by(ctx)
    chosen = _chosen(ctx, rules)

    skipped_by_reason: dict[str, list[str]] = {}
    # reason -> Skipped's (need, unmet): the need's value, a plain str, as the run cache keeps it
    need_of: dict[str, tuple[str, bool]] = {}
    raw: list[Finding] = []
    ran = cast("Ran | None", ctx.ran)
    for rule in chosen:
        missing = _missing_needs(rule, ctx)
        if missing:
            reason = _need_reason(ctx, missing[0])
            skipped_by_reason.setdefault(reason, []).append(rule.RULE.code)
            need_of[reason] = (missing[0].value, True)
            continue
        code = rule.RULE.code
        part = _document_part(rule)
        taken = ran.taken(code, rule.RULE.reads, ctx) if ran is not None and part is None else None
        if taken is not None:  # a change's base, where the rule reads what the head read
            raw.extend(taken.findings)
            for err in taken.unreadable:
                ctx.unreadable(err)
            for skipped_code, reason, need in taken.skipped:
                ctx.skip(skipped_code, reason, need=need)
            continue
        met, skips = len(ctx.unreadable_files), {reason: set(codes) for reason, codes in ctx.skipped.items()}
        found: list[Finding] = []  # (what a rule gave before it raised is kept, as before)
        try:
            if part is not None:
                found.extend(_document_findings(ctx, code, part))
            found.extend(rule.check(ctx) or ())
        except UnreadableFile as err:
            ctx.unreadable(err)
        except InputError:  # bad input met on the way (a configured pattern that never ends): exit 2
            raise
        except Exception as exc:  # a bug in a rule must be loud, but named, not a traceback
            why = "input nested too deeply" if isinstance(exc, RecursionError) else f"{type(exc).__name__}: {exc}"
            crash = RuleCrashed(f"{rule.RULE.code} {rule.RULE.name}: {why}")
            if crashed is None:
                raise crash from None
            crashed.append(crash)
            raw.extend(found)
            continue  # (nothing recorded of a rule that crashed)
        raw.extend(found)
        if ran is not None and ran.head is None:
            skipped = [(c, reason, ctx.skip_needs.get(reason)) for reason, codes in ctx.skipped.items()
                       for c in sorted(codes - skips.get(reason, set()))]
            from drafterlint.checks._ran import Found

            ran.checks[code] = Found(found, ctx.unreadable_files[met:], skipped)

    for reason, codes in ctx.skipped.items():
        skipped_by_reason.setdefault(reason, []).extend(sorted(codes))
        need = ctx.skip_needs.get(reason)
        need_of.setdefault(reason, (need.value if need is not None else "", False))
    result.skipped = [Skipped(",".join(codes), reason, *need_of[reason]) for reason, codes in skipped_by_reason.items()]
    seen: set[tuple] = set()
    yaml_comments: dict[tuple[str, str], dict[int, frozenset[str]]] = {}
    for f in raw:
        config = judged_by.get(f.code, ctx.config)
        if not config.enabled(f.code):
            continue
        override = config.severity_override(f.code)
        if override is not None:
            f = f.with_severity(override)
        if _suppressed(ctx, f, yaml_comments):
            continue
        ident = (f.code, f.location, f.message)
        if ident in seen:
            continue
        seen.add(ident)
        result.findings.append(f)
    result.findings.sort(key=Finding.sort_key)
    result.findings = place_occurrences(ctx, result.findings)
    if git_lines:
        result.findings = git_numbered(ctx.renumbered, result.findings)
    result.unreadable = sorted({err.location.path for err in ctx.unreadable_met()})
    return result


def git_numbered(renumbered: "Mapping[str, Mapping[str, Renumber]]", findings: list[Finding]) -> list[Finding]:
    """`findings` placed at git's lines, where the parser numbered a document's lines otherwise
    (drafterlint.gitlines): the one place a finding's position becomes the line and column every
    output says. What reads the documents again by a finding's place (suppressions, sections,
    fix) does so before."""
    if not any(renumbered.values()):
        return findings

    def placed(loc: Location) -> Location:
        r = renumbered.get(loc.repo, {}).get(loc.path)
        if r is None:
            return loc
        line, column = r.place(loc.line, loc.column)
        return replace(loc, line=line, column=column)

    return [replace(f, location=placed(f.location), related=tuple(map(placed, f.related))) for f in findings]


def _judged_by(ctx: Context) -> dict[str, Config]:
    """A rule that judges the change itself (needs BASE) runs only where there is a base, and
    answers to the base's configuration: the change cannot silence it, and a `select` written
    before it existed does not leave it out (only the base's `ignore` does)."""
    return {r.RULE.code: ctx.base.config.judging_changes()
            for r in all_rules() if BASE in r.RULE.needs and ctx.base is not None}


def _chosen(ctx: Context, rules: list[RuleModule] | None) -> list[RuleModule]:
    """The rules to run, in their order: `rules` (default all) as the configuration chooses."""
    judged_by = _judged_by(ctx)
    chosen = [r for r in (rules if rules is not None else all_rules())
              if judged_by.get(r.RULE.code, ctx.config).enabled(r.RULE.code)
              and (BASE not in r.RULE.needs or ctx.base is not None)]
    chosen.sort(key=lambda r: r.RULE.last)  # stable: code order otherwise
    return chosen


def judge_change(config: Config, views: dict, state) -> list[Finding]:
    """The findings of the rules that judge a change itself (needs BASE), given what its base
    shows (checks.context.BaseState): the views only lend their files (suppression comments)."""
    ctx = Context.unprepared(Inputs(config, views.get("rules"), views.get("registry"), base=state))
    return run(ctx, [r for r in all_rules() if BASE in r.RULE.needs]).findings


def place_occurrences(ctx: Context, findings: list[Finding]) -> list[Finding]:
    """Give each finding (sorted by position) its section and ordinal, so that its fingerprint
    is unique in the run and names no line: the third link to `#gone` in §8.1 stays the third
    when lines above it move."""
    counts: dict[tuple, int] = {}
    out = []
    for f in findings:
        context = _section_title(ctx, f)
        ident = (f.code, f.location.repo, f.location.path, f.key, context)
        ordinal = counts.get(ident, 0)
        counts[ident] = ordinal + 1
        out.append(replace(f, context=context, ordinal=ordinal))
    return out


def _section_title(ctx: Context, f: Finding) -> str:
    """The title (without its number, which renumbering changes) of the innermost heading
    around a Markdown finding; "" elsewhere (YAML findings carry their key path in `key`)."""
    view = {RULES_REPO: ctx.rules, REGISTRY_REPO: ctx.registry_repo}.get(f.location.repo)
    if view is None or not is_markdown(f.location.path):
        return ""
    doc = view.parsed(f.location.path)
    heading = doc.section_at(f.location.line) if doc is not None else None
    return heading.title if heading is not None else ""


def _suppressed(ctx: Context, f: Finding, yaml_comments: dict) -> bool:
    """Silenced by a comment in its file; `yaml_comments` keeps each YAML file's, read once."""
    if f.location.repo not in (RULES_REPO, REGISTRY_REPO):
        return False
    view = ctx.rules if f.location.repo == RULES_REPO else ctx.registry_repo
    if view is None:
        return False
    if f.location.path.endswith((".yaml", ".yml")):
        key = (view.name, f.location.path)
        if key not in yaml_comments:
            yaml_comments[key] = _yaml_suppressions(view, f.location.path)
        return f.code in yaml_comments[key].get(f.location.line, ())
    if not is_markdown(f.location.path):
        return False
    doc = view.parsed(f.location.path)  # a document no rule read has no comments to honour
    return doc is not None and doc.is_suppressed(f.code, f.location.line)


def _yaml_suppressions(view: RepoView, rel: str) -> dict[int, frozenset[str]]:
    """`# drafterlint: disable=CODE` comments of one YAML file."""
    from drafterlint.registry.yamlload import suppressed_lines

    try:
        return suppressed_lines(view.read_text(rel))
    except UnreadableFile:
        return {}
