"""The commands behind the CLI that report on the local repositories (`check`, `baseline`,
`rules`, `explain`): each a short function over the shared steps of drafterlint.steps."""

from __future__ import annotations

import os
import sys
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from drafterlint import __version__
from drafterlint.findings import REGISTRY_REPO, RULES_REPO, Finding, InputError, Result
from drafterlint.options import BaselineOptions, CheckOptions, Format, LocalRun
from drafterlint.records import dataclass
from drafterlint.safeio import check_target, safe_text, say, write_file
from drafterlint.steps import (
    EXIT_OK,
    Setup,
    context,
    exit_code,
    new_since,
    no_merge_base,
    repo_views,
    run_checks,
    scope_of,
    setup,
    start,
    under_change,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from drafterlint.baserun import BaseRun
    from drafterlint.cache import RunCache
    from drafterlint.config import Config
    from drafterlint.markdown.model import Outline
    from drafterlint.report import ReportMeta
    from drafterlint.scope import Scope
    from drafterlint.sources import RepoView


def list_rules(out: TextIO) -> int:
    from drafterlint.checks.base import all_rules
    for mod in all_rules():
        r = mod.RULE
        say(f"{r.code}  {r.name:<28} {str(r.severity):<8} {r.summary}", out)
    return EXIT_OK


def explain_text(code: str) -> str:
    """A rule's page: the same Markdown docs/rules/CODE.md holds (drafterlint.docs renders both)."""
    from drafterlint.checks.base import rule_by_code
    from drafterlint.docs import rule_page

    mod = rule_by_code(code)
    if mod is None:
        raise InputError(f"no rule {code!r}; `drafterlint rules` lists them")
    return rule_page(mod)


def explain(code: str, out: TextIO) -> int:
    out.write(safe_text(explain_text(code)))
    return EXIT_OK


def changed_since(local_roots: dict, base_ref: str | None) -> dict[str, dict[str, set[int]]]:
    """Per repository name: per path, the lines changed since `base_ref` (git diff), for the
    reports that put findings on changed lines first."""
    if not base_ref:
        return {}
    from drafterlint.gitops import changed_lines

    out = {}
    for repo, root in local_roots.items():
        if root is not None:
            lines = changed_lines(Path(root), base_ref)
            if lines is not None:
                out[repo] = lines
    return out


def _formats(options: CheckOptions) -> set[str]:
    """Every format the command will write (--format and each --report FORMAT=FILE), by name."""
    return {options.format.value} | {extra.format.value for extra in options.report}


@dataclass(frozen=True, eq=False, repr=False)
class Located:
    """Where the repositories are and which one is under change: what the steps between the
    check and its report (the baseline file's place, the base's words) read before the report's
    metadata is built."""

    roots: dict[str, str]  # per repository name, the root as given
    local_roots: dict[str, Path | None]  # per repository name, its checkout
    names: dict[str, str]  # per repository name, what a person calls it
    scope: Scope

    def name_of(self, repo: str) -> str:
        return self.names.get(repo) or repo


def located(run: Setup, options: LocalRun) -> Located:
    roots, names = {}, {}
    for which, root, given in (("rules", run.rules_dir, options.rules_repo),
                               ("registry", run.registry_dir, options.registry_repo)):
        if root is not None:
            roots[which] = given or str(root)
            names[which] = run.config.data[which].get("github") or Path(root).resolve().name
    return Located(roots, {"rules": run.rules_dir, "registry": run.registry_dir}, names, scope_of(run, options))


@dataclass(frozen=True, eq=False, repr=False)
class Judged:
    """What the findings were matched against (the baseline file, the base of a change, or both),
    in the reports' words, and how many findings known there no longer occur: ReportMeta's
    baseline_* fields. The default: nothing, every finding counts as new."""

    source: str | None = None
    fixed: int = 0
    unchecked: dict[str, int] = field(default_factory=dict)
    from_file: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class Told:
    """What the reports tell a person besides the findings, in the words of where they are read
    (ReportMeta's fields of these names; the defaults are a plain check's)."""

    fix_hint: str = "run `drafterlint fix --base-ref BASE`"
    preexisting_hint: str = "--all shows them"
    in_action: bool = False
    adoption_hint: str | None = None
    suggestions: dict[tuple, tuple] = field(default_factory=dict)


def report_meta(run: Setup, options: CheckOptions, where: Located, judged: Judged | None = None,
                told: Told | None = None, changed: "dict[str, dict[str, set[int]]] | None" = None) -> "ReportMeta":
    """The reports' metadata, built once, when everything it says is known (`changed`: the lines
    changed since the base, when the check worked them out already)."""
    from drafterlint.report import DESCRIBE_RULES, ReportMeta

    judged, told = judged or Judged(), told or Told()

    base_ref = options.base_ref
    return ReportMeta(
        version=__version__,
        roots=where.roots,
        local_roots=where.local_roots,
        names=where.names,
        base_ref=base_ref,
        changed=changed if changed is not None else changed_since(where.local_roots, base_ref),
        rules=_rule_infos() if _formats(options) & DESCRIBE_RULES else (),
        scope=where.scope,
        cwd=Path.cwd(),
        verbosity=options.verbose - (1 if options.quiet else 0),
        show_info=options.show_info,
        statistics=options.statistics,
        fail_on=run.config.fail_on,
        exit_zero=options.exit_zero,
        baseline_source=judged.source,
        baseline_fixed=judged.fixed,
        baseline_unchecked=judged.unchecked,
        baseline_file=judged.from_file,
        fix_hint=told.fix_hint,
        preexisting_hint=told.preexisting_hint,
        in_action=told.in_action,
        adoption_hint=told.adoption_hint,
        suggestions=told.suggestions,
    )


def _rule_infos() -> tuple:
    from drafterlint.docs import rule_infos  # every rule's module: only for a report that lists them

    return tuple(rule_infos())


def emit(result: Result, options: CheckOptions, meta: "ReportMeta") -> None:
    from drafterlint.report import printed, render

    text = render(result, options.format, meta)
    # The paths are the user's (the command line); a symbolic link a checked repository holds
    # still may not lead a report out of it.
    repos = [root for root in meta.local_roots.values() if root is not None]
    if options.output:
        write_file(options.output, text, repos=repos, what="--output file")
    else:
        sys.stdout.write(printed(text, options.format))
    for extra in options.report:
        write_file(extra.path, render(result, extra.format, meta), repos=repos, what=f"--report {extra.format} file")


def _run_cache(options: LocalRun) -> "RunCache | None":
    """The content-hash cache for this check (drafterlint.cache), or None when disabled.

    Found before the configuration is read (the configuration's validation is cached in it):
    the cache is the user's (flag, environment, XDG), never a configuration file's `cache_dir`.
    """
    from drafterlint import cache

    if cache.disabled(options.no_cache):
        return None
    from drafterlint.sources import cache_root

    return cache.RunCache(cache_root())


def check(options: CheckOptions) -> int:
    options, head, unbased = _hook(options)
    if options.fix:
        from drafterlint.fix.command import run_fix

        run_fix(options, diff=False, out=sys.stderr, wanted=lambda code: True, head=head)
    done = checked(options, options.verbose)
    where = located(done.run, options)
    from drafterlint import hints

    told = Told(fix_hint(options, head))
    if options.hook:
        told = replace(told, preexisting_hint=f"`{hints.command_here()} check --all` shows them")
    elif hints.in_action():
        told = replace(told, preexisting_hint=hints.ACTION_PREEXISTING, in_action=True)
    judged = Judged()
    result = done.result
    if not options.all:
        adoption = hints.ACTION_ADOPTION if hints.in_action() else ADOPTION_HINT
        result, judged, hint = _judged(done, options, where, head, told.fix_hint)
        told = replace(told, adoption_hint=adoption, fix_hint=hint)
    if unbased:
        say_unbased(judged.source)
    from drafterlint.report import SUGGESTS

    if _formats(options) & SUGGESTS:
        from drafterlint.fix.command import suggestions

        told = replace(told, suggestions=suggestions(options if not options.all else replace(options, base_ref=None),
                                                     head))
    meta = report_meta(done.run, options, where, judged, told, done.changed)
    emit(result, options, meta)
    _offer_front(options, done, where)
    return exit_code(result, done.run.config, options.exit_zero, meta.scope)


# The options the command line's front follows (drafterlint.front): each either is in the run's
# key, in the invocation's key (the arguments) only, or changes what `probes` compare. A run
# with any other option set is never answered there: --fix, --hook and --base-ref ask git or
# write, --output and --report write files, -v says whether the cache hit, the rest change the
# configuration in ways the front does not derive.
FRONT_FOLLOWS = ("rules_repo", "registry_repo", "today", "format", "exit_zero", "all", "baseline", "scope",
                 "quiet", "show_info", "statistics")


def _offer_front(options: CheckOptions, done: "Checked", where: Located) -> None:
    """Tell the front (drafterlint.front) that this run's output may answer the same command
    next time, with every input of that output beyond the invocation's key."""
    cache = done.run_cache
    if cache is None or cache.key is None or cache.seen is None or cache.store.problem:
        return
    plain = CheckOptions()
    if replace(options, **{name: getattr(plain, name) for name in FRONT_FOLLOWS}) != plain:
        return
    # github appends the job summary to a file; rdjson works out what fix would write.
    if options.format in (Format.GITHUB, Format.RDJSON) or done.run.config.registry.get("extra_lists"):
        return
    from drafterlint import inputs

    if inputs.in_ci():
        return  # the front does not answer there (drafterlint.front.serve)
    here = str(Path.cwd())
    probes = [["real", here], ["toplevel", os.path.realpath(here)]]
    probes += [["real", str(root)] for root in (done.run.rules_dir, done.run.registry_dir) if root is not None]
    if not options.all:
        path, within = baseline_path(done.run.config, options.baseline, where)
        if path is not None:
            probes.append(["file", str(path)])
        if within is not None:
            probes.append(["real", str(within)])
    given = {"rules_repo": options.rules_repo, "registry_repo": options.registry_repo,
             "today": options.today.isoformat() if options.today else None}
    inputs.offer(given, cache.key, cache.seen, probes)


def _hook(options: CheckOptions) -> tuple[CheckOptions, str, bool]:
    """(the options, the head judged, whether a clean checkout found no branch to judge against):
    a hook without a base of its own judges hook_range()."""
    if options.hook and not options.base_ref and not options.all:
        base_ref, head, unbased = hook_range(options)
        return replace(options, base_ref=base_ref), head, unbased
    return options, "HEAD", False


def _judged(done: "Checked", options: CheckOptions, where: Located, head: str,
            hint: str) -> tuple[Result, Judged, str]:
    """(the result with what the baseline file and the base already have marked pre-existing,
    what it was matched against, the fix hint in the words of where it is read)."""
    result, judged = done.result, Judged()
    path, within = baseline_path(done.run.config, options.baseline, where)
    if path is not None and within is not None:
        check_target(path, within=within, what="baseline file")  # read only from where it may be written
    if path is not None and (path.is_file() or options.baseline):
        result, judged = compare_with_file(result, path)
    if options.base_ref:
        result, judged, hint = compare_with_base(result, done, options, where, judged, hint, head)
    return result, judged, hint


ADOPTION_HINT = ("to fail only on what a change introduces: record today's findings with `drafterlint baseline` "
                 "and commit the file, or compare with a base (`--base-ref origin/main`; the pre-commit hooks "
                 "compare with HEAD by default)")


def hook_range(options: LocalRun) -> tuple[str | None, str, bool]:
    """(base, head, whether a clean checkout found no branch to judge against) a hook judges: in `pre-push` (or `pre-commit run --from-ref A --to-ref B`)
    the range pre-commit passes; in a commit being made, HEAD and what is being committed; in a
    clean checkout with nothing to commit (CI, pre-commit.ci: `pre-commit run --all-files`),
    the branch against the default one (basetree.default_branch); no base before the first
    commit, nor in a clean checkout without a default branch (every finding counts then, but
    for the baseline file)."""
    from drafterlint.basetree import clean_checkout, default_branch, has_commit, same_commit

    from_ref, to_ref = os.environ.get("PRE_COMMIT_FROM_REF"), os.environ.get("PRE_COMMIT_TO_REF")
    if from_ref and to_ref:
        if not same_commit(start(options), to_ref, "HEAD"):
            from drafterlint.report import one_line

            # The files checked are the working tree's: say so when what is pushed is not it.
            print(one_line(f"drafterlint: {to_ref} is not checked out: the working tree is judged "
                           f"against {from_ref}"), file=sys.stderr)
        return from_ref, to_ref, False
    here = start(options)
    if not has_commit(here):
        return None, "HEAD", False
    # git sets GIT_INDEX_FILE for the hooks of a commit being made; `pre-commit run` has none.
    # Without it, a checkout whose index and files are HEAD's has nothing to commit: what is
    # judged is HEAD itself, the branch. (`git commit --amend` with nothing staged also leaves
    # the index equal to HEAD: it is a commit, judged against HEAD.)
    if os.environ.get("GIT_INDEX_FILE") or not clean_checkout(here):
        return "HEAD", "HEAD", False
    branch = default_branch(here)
    return branch, "HEAD", branch is None


def say_unbased(source: str | None) -> None:
    """The one line of a clean checkout with no default branch to judge against: what it was
    judged against instead (`source`, Judged.source), and how to give it a base."""
    from drafterlint.basetree import DEFAULT_BRANCHES
    from drafterlint.report import one_line

    if source is not None:
        line = (f"no default branch ({', '.join(DEFAULT_BRANCHES)}) in this clone, a shallow one perhaps: "
                f"judged against {source}")
    else:
        line = (f"nothing to commit, and no default branch ({', '.join(DEFAULT_BRANCHES)}) in this clone nor a "
                "baseline file to judge it against: every finding counts; give a base (`args: [--base-ref, "
                "origin/main]`, with the branch fetched: `fetch-depth: 0`), or commit a baseline (`drafterlint "
                "baseline`)")
    print(one_line(f"drafterlint: {line}"), file=sys.stderr)


def fix_hint(options: CheckOptions, head: str) -> str:
    """What mends a link a rename broke, said where the message is read (drafterlint.hints)."""
    ref = options.base_ref or "BASE"
    if options.hook and options.base_ref:
        from drafterlint.hints import hook_fix_hint

        return hook_fix_hint(start(options), ref, head)
    return f"run `drafterlint fix --base-ref {ref}`"


def baseline_command(options: BaselineOptions) -> int:
    """`drafterlint baseline`: record today's findings so that `check` fails only on new ones."""
    from drafterlint.baseline import baseline_text
    done = checked(options)
    where = located(done.run, options)
    path: Path | None
    within: Path | None = None
    if options.output:
        path = Path(options.output)
    else:
        path, within = baseline_path(done.run.config, None, where)
    if path is None:
        raise InputError("no baseline file: the configuration sets `baseline: null`; give --output FILE")
    findings = done.result.findings
    write_file(path, baseline_text(findings), within=within,
               repos=[r for r in (done.run.rules_dir, done.run.registry_dir) if r is not None],
               what="baseline file")
    say(f"drafterlint: wrote {len(findings)} finding(s) to {path}")
    return EXIT_OK


def baseline_path(config: "Config", given: str | None, where: Located) -> tuple[Path | None, Path | None]:
    """(`given` (check's --baseline), else the configured file; the folder it must stay in, None
    for the user's own choice). The configured file is relative to the configuration file's folder and must stay in
    the repository that holds it; without a configuration file, relative to the root of the
    repository under change (where pre-commit runs), and inside it."""
    from drafterlint.config import boundary, contained_setting

    if given:
        return Path(given), None
    value = config.data.get("baseline")  # the default file is in config.DEFAULTS
    if not value:
        return None, None
    if config.source is not None:
        return contained_setting(config, "baseline", str(value)), boundary(config)
    root = where.local_roots.get(where.scope.single) if where.scope.single else None
    top = Path(root) if root is not None else Path.cwd()
    path = Path(value).expanduser()
    return (path if path.is_absolute() else top / path), top


def compare_with_file(result: Result, path: Path) -> tuple[Result, Judged]:
    from drafterlint.baseline import match, read_baseline, unreadable_of
    from drafterlint.unchecked import blind_spots

    known = read_baseline(path)
    matched = match(result.findings, known, blind_spots(result, unreadable_of(known)))
    try:
        shown = path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        shown = str(path)
    return (replace(result, findings=matched.findings),
            Judged(f"the baseline file {shown}", matched.fixed, matched.unchecked, from_file=True))


def explain_renames(findings: list[Finding], base: "BaseRun", now_views: "dict[str, RepoView | None]",
                    hint: str) -> list[Finding]:
    """New broken-fragment findings whose heading this change renamed say what it is now, and
    `hint` (the command that mends them)."""
    from drafterlint.findings import UnreadableFile
    from drafterlint.renames import explain

    def reader(view_of: "Callable[[str], RepoView | None]") -> "Callable[[str, str], Outline | None]":
        def read(repo: str, path: str) -> "Outline | None":
            view = view_of(repo)
            if view is None or not view.is_file(path):
                return None
            try:
                return view.outline(path)  # the headings: kept of every document read
            except UnreadableFile:
                return None
        return read

    return explain(findings, reader(base.view), reader(now_views.get), hint)


@dataclass(eq=False, repr=False)
class Checked:
    """A check done (or read from the run cache): its setup, its result and its repositories."""

    run: Setup
    result: Any
    run_cache: Any  # drafterlint.cache.RunCache, or None
    views: dict[str, Any] | None  # the run's repository views (None on a cache hit)
    # The lines changed since the base (changed_since), when the check needed them first.
    changed: dict[str, dict[str, set[int]]] | None = None
    # What each rule found, for the base to take where it reads the same (checks._ran.Ran):
    # where a base follows and the check ran.
    ran: Any = None

    def now_views(self) -> dict[str, Any]:
        """The repositories as checked: the run's own views, or new ones on a cache hit
        (parsed documents then come from the content-keyed cache)."""
        if self.views is None:
            from drafterlint.sources import repo_view

            self.views = {}
            for name, root in (("rules", self.run.rules_dir), ("registry", self.run.registry_dir)):
                view = repo_view(self.run.config, name, root) if root is not None else None
                if view is not None and self.run_cache is not None:
                    view.doc_cache = self.run_cache.docs
                self.views[name] = view
        return self.views


def checked(options: LocalRun, verbose: int = 0) -> Checked:
    """The check the options ask for, from the run cache when its inputs are unchanged."""
    run_cache = _run_cache(options)
    run_setup = setup(options, run_cache.configs if run_cache is not None else None)
    result = run_cache.lookup(run_setup.inputs()) if run_cache is not None else None
    views = None
    changed = None
    ran = None
    if run_cache is not None and verbose:
        say(f"drafterlint: cache: {run_cache.outcome}")
    if result is None:
        if run_cache is not None and not run_cache.docs.keep:
            changed = _read_again(run_cache.docs, run_setup, options)
        if options.base_ref:  # a base follows: what each rule finds is kept for it
            from drafterlint.checks._ran import Ran

            ran = Ran()
        # Only a run that checks imports the engine and the rules (a third of a warm run).
        ctx = context(run_setup, run_cache, ran=ran)
        views = repo_views(ctx)
        result = run_checks(ctx)
        if run_cache is not None:
            run_cache.save(result)
    if run_cache is not None:
        if run_cache.store.problem:
            say(f"drafterlint: warning: {run_cache.store.problem}")
        run_cache.store.close()  # its directory's descriptor: a long-lived caller runs many checks
    return Checked(run_setup, result, run_cache, views, changed, ran)


def _read_again(docs: Any, run: Setup, options: LocalRun) -> "dict[str, dict[str, set[int]]] | None":
    """Tell the run's document store (cache.DocumentCache, one the run does not outlive) which
    documents a base will read another version of: in a repository under change, the ones
    changed since --base-ref (every one where git cannot tell); none elsewhere, nor without a
    base. Returns the lines changed, for the reports."""
    view_name = {"rules": RULES_REPO, "registry": REGISTRY_REPO}  # (sources.repo_view)
    roots = {"rules": run.rules_dir, "registry": run.registry_dir}
    docs.read_again = {view_name[name]: frozenset() for name in roots}
    if not options.base_ref:
        return None
    changed = changed_since(roots, options.base_ref)
    for name in under_change(scope_of(run, options), roots):
        paths = changed.get(name)
        docs.read_again[view_name[name]] = frozenset(paths) if paths is not None else None
    return changed


def compare_with_base(result: Result, done: Checked, options: CheckOptions, where: Located, judged: Judged,
                      hint: str, head: str = "HEAD") -> tuple[Result, Judged, str]:
    """Mark the findings that the merge base of --base-ref and `head` already has: the same
    checks run on the base version of the repository under change (drafterlint.baserun), the
    other repository shared by both runs. A rule that crashes on the base stops the run
    (drafterlint.baserun says so). Returns the result, what it was matched against (`judged`,
    the baseline file's, joined by the base) and the fix hint (`hint`, or the base's commit
    named where an annotation is read)."""
    from drafterlint.baserun import base_run

    ref = options.base_ref
    assert ref, "check() compares with a base only when there is one"
    views = done.now_views()
    with base_run(done.run.config, views, ref, under_change(where.scope, views), today=done.run.today,
                  run_cache=done.run_cache, head=head, ran=done.ran) as base:
        if base is None:
            if options.hook:  # a folder inside another repository, say: judge all
                return result, judged, hint
            raise no_merge_base(ref, f": fetch it, e.g. `git fetch origin {ref}`); --all checks without a base")
        if options.verbose:
            say(f"drafterlint: base cache: {'hit' if base.cached else 'miss'}")
        already = [f for f in result.findings if f.baseline]  # by a baseline file
        matched = new_since([f for f in result.findings if not f.baseline], base, result)
        if options.format is Format.GITHUB:  # an annotation is read on the pull request: name the commit
            from drafterlint.hints import action_fix_hint

            hint = action_fix_hint(next(iter(base.commits.values())))
        matched = replace(matched, findings=explain_renames(matched.findings, base, views, hint))
        matched = replace(matched, findings=[*matched.findings,
                                             *_weakened(done, options, where, base, views, result)])
        commits = base.commits
    source = _base_source(options, where, commits)
    if judged.source is None:
        judged = Judged(source, matched.fixed, matched.unchecked)
    else:  # the file's count of fixed findings is the one a person can act on
        judged = replace(judged, source=f"{judged.source} or {source}")
    findings = sorted([*already, *matched.findings], key=lambda f: f.sort_key())
    return replace(result, findings=findings), judged, hint


def _weakened(done: Checked, options: CheckOptions, where: Located, base: "BaseRun",
              views: "dict[str, RepoView | None]", result: Result) -> list[Finding]:
    """DL901's findings: what this change's configuration or baseline file, workflows or
    pre-commit configuration turn off or down (drafterlint.checks.weakened_check), when it
    touches them."""
    from drafterlint.baserun import change_state
    from drafterlint.config import load_config
    from drafterlint.engine import judge_change
    from drafterlint.steps import command_line_overrides

    config = done.run.config
    source = config.source  # None: no configuration file, but workflows and hooks are still compared
    state = change_state(base, config, lambda: command_line_overrides(options, load_config(source)),
                         baseline_path(config, options.baseline, where)[0], result.findings, done.run.today)
    return [] if state is None else judge_change(config, views, state)


def _base_source(options: CheckOptions, where: Located, commits: dict[str, str]) -> str:
    """What the findings were matched against, in the reports' words."""
    if options.hook and options.base_ref == "HEAD" and len(commits) == 1:
        return f"HEAD {next(iter(commits.values()))[:10]}"
    if len(commits) == 1:
        commit = next(iter(commits.values()))
        if options.base_ref and commit.startswith(options.base_ref):  # the Action's base is a sha
            return f"the base commit {commit[:10]}"
        return f"the merge base {commit[:10]} of {options.base_ref}"
    listed = ", ".join(f"{where.name_of(name)} {c[:10]}" for name, c in commits.items())
    return f"the merge bases of {options.base_ref}: {listed}"
