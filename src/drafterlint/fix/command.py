"""The `fix` command and `check --fix`: find, propose, prove, then write (or show the diff)."""

from __future__ import annotations

import difflib
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from drafterlint import lazyre
from drafterlint.findings import Finding, InputError
from drafterlint.options import FixOptions, LocalRun
from drafterlint.records import dataclass
from drafterlint.steps import (
    EXIT_FINDINGS,
    EXIT_OK,
    context,
    new_since,
    no_merge_base,
    repo_views,
    run_checks,
    scope_of,
    setup,
    under_change,
    wanted,
)

if TYPE_CHECKING:
    from drafterlint.checks.context import Context
    from drafterlint.config import Config
    from drafterlint.fix import Left, Proposal
    from drafterlint.sources import RepoView
    from drafterlint.steps import Setup

Wanted = Callable[[str], bool]  # whether a rule's findings are to be fixed, by its code

EXIT_LEFT = EXIT_FINDINGS  # something is left needing a human


@dataclass
class Planned:
    """What fix would do: the proven plan, what is left for a human, the repositories' views, and
    how many findings the base already has (not fix's business with a base)."""

    plan: Any  # drafterlint.fix.Plan
    left: list
    views: dict
    preexisting: int
    run: Any  # the steps.Setup it was planned in


def plan_fixes(options: LocalRun, wanted: Wanted, head: str = "HEAD") -> Planned:
    """Find, propose and prove, writing nothing: the one way `fix`, `check --fix`, the rdjson
    suggestions and the pull-request review learn what fix makes. With a base (--base-ref, or
    the hook's), only what the change from it to `head` broke."""
    from drafterlint import fix as fixing
    run_setup = setup(options)
    config = run_setup.config
    ctx = context(run_setup, whole=True)  # fix rewrites the documents' text
    result = run_checks(ctx, git_lines=False)  # placed in the parsed documents, where fix finds what it mends
    proposals, left, preexisting = _proposed(ctx, result.findings, run_setup, options, wanted, head)
    proposals, cached = _outside_the_cache(config, ctx, proposals)
    proposals, named = _named_by_the_configuration(config, options, proposals)
    left += cached + named
    plan = fixing.prove(ctx, result.findings, proposals)
    left = sorted([*left, *plan.left], key=lambda item: item.finding.sort_key())
    views = {v.name: v for v in (ctx.rules, ctx.registry_repo) if v is not None}
    return Planned(plan, left, views, preexisting, run_setup)


def run_fix(options: LocalRun, *, diff: bool, out: TextIO, wanted: Wanted, head: str = "HEAD") -> tuple[int, int]:
    """Fix (or, with `diff`, show) what can be fixed; returns (fixed, left needing a human).
    With a base (--base-ref, or the hook's), only what the change from it to `head` broke; `fix
    --review` also posts them on its pull request."""
    from drafterlint import fix as fixing
    planned = plan_fixes(options, wanted, head)
    plan, left, views, preexisting = planned.plan, planned.left, planned.views, planned.preexisting
    reviewed = ""
    if isinstance(options, FixOptions) and options.review:
        from drafterlint.review import post
        from drafterlint.safeio import say

        reviewed = post(options, planned)
        say(reviewed)
    patches: list[str] = []
    written, notes, refused = _apply(plan, views, diff, out, patches)
    left += refused
    if isinstance(options, FixOptions) and options.summary is not None:
        _job_summary(options, patches, [options.summary_note, reviewed])
    if isinstance(options, FixOptions) and options.patch is not None and patches:
        from drafterlint.safeio import write_file

        write_file(options.patch, "".join(patches), what="the patch")
    done = [p for p in plan.proposals if diff or p.file in written]
    out.flush()  # the diff, before the summary on stderr
    # Said at git's lines; where fix wrote, where what is left now is: inserted lines moved it.
    left = [fixing.Left(_moved(item.finding, [p for p in done if p.file == _file(item.finding)] if written else [],
                               views), item.why) for item in left]
    if preexisting:
        these = "finding the merge base of {} already has was" if preexisting == 1 else "findings the merge base of {} already has were"
        notes.append(f"{preexisting} {these.format(options.base_ref)} not touched "
                     "(`drafterlint fix` without --base-ref mends what it can of those)")
    _summary(sys.stderr if diff else out, done, left, views, would=diff, notes=notes)
    return len(done), len(left)


def suggestions(options: LocalRun, head: str = "HEAD") -> dict[tuple, tuple]:
    """Per finding (Finding.spot), fix's own edits placed in the file's bytes
    (fix.edits.Replacement): what `fix` with the same options would write, finding by finding."""
    from drafterlint.fix.edits import SourceFile

    planned = plan_fixes(options, lambda code: True, head)
    files = {file: SourceFile(before) for file, (before, _) in planned.plan.files.items()}
    return {_at_git_lines(p.finding, planned.views).spot: tuple(files[p.file].replacement(e) for e in p.edits)
            for p in planned.plan.proposals}


def _proposed(ctx: "Context", findings: list[Finding], run_setup: "Setup", options: LocalRun, wanted: Wanted,
              head: str) -> "tuple[list[Proposal], list[Left], int]":
    """(the fixes proposed, what is left for a human, how many findings the base already has).
    With a base, only what the change broke is mended: the base's own defects are not its
    business (`fix` without --base-ref mends those)."""
    from drafterlint import fix as fixing

    base_ref = options.base_ref
    if not base_ref:
        return (*fixing.propose(ctx, findings, wanted), 0)
    from drafterlint.baserun import base_run
    from drafterlint.fix.base import base_finder, documents_at_base

    now = repo_views(ctx)
    with base_run(run_setup.config, now, base_ref, under_change(scope_of(run_setup, options), now),
                  today=ctx.today, head=head) as base:
        if base is None:
            raise no_merge_base(base_ref, " without it)")
        marked = new_since(findings, base).findings
        new = [f for f in marked if not f.baseline]
        roots = {name: _root(base.view(name)) if name in base.commits else None for name in now}
        finder = base_finder(documents_at_base(ctx, roots), fixing.renamed_heading)
        return (*fixing.propose(ctx, new, wanted, finder), len(marked) - len(new))


def _apply(plan: Any, views: "dict[str, RepoView]", diff: bool, out: TextIO,
           patches: list[str]) -> tuple[list, list[str], list]:
    """Write the proven files (or, with `diff`, print their diffs, each also added to `patches`):
    (the files written, notes on diffs withheld, what a refused write leaves for a human)."""
    from drafterlint import fix as fixing

    written: list = []
    withheld: list[str] = []
    refused: list = []
    for (repo, path), (before, after) in sorted(plan.files.items()):
        shown = _shown(views[repo].root, path)
        if diff:
            patch, why = _unified(shown, before, after)
            if patch is None:
                withheld.append(f"the diff of {shown} is not shown: {why}; `drafterlint fix` makes it")
            else:
                out.write(patch)
                patches.append(patch)
            continue
        from drafterlint.fix.edits import Refused, write_fixed

        try:
            write_fixed(views[repo].root, path, before, after)
            written.append((repo, path))
        except Refused as exc:
            refused += [fixing.Left(p.finding, str(exc)) for p in plan.proposals if p.file == (repo, path)]
    return written, withheld, refused


def _job_summary(options: FixOptions, patches: list[str], notes: list[str]) -> None:
    """The Action's job-summary section (report/fix_summary.py) into --summary's file; none
    when there is nothing to say."""
    from drafterlint.report.fix_summary import section
    from drafterlint.safeio import write_file

    assert options.summary is not None
    text = section(len(patches), "".join(patches), base_ref=options.base_ref, notes=notes,
                   show_patch=options.summary_patch)
    if text:
        write_file(options.summary, text, what="the job summary's section")


def _root(view: "RepoView | None") -> Path | None:
    return view.root if view is not None else None


def _outside_the_cache(config: "Config", ctx: "Context",
                       proposals: "list[Proposal]") -> "tuple[list[Proposal], list[Left]]":
    """A repository found in drafterlint's cache (`drafterlint sync`) is a copy, not the user's:
    fixing it would change nothing anyone commits."""
    from drafterlint import fix as fixing
    from drafterlint.fix.edits import inside
    from drafterlint.sources import cache_root

    cache = cache_root(config)
    copies = {v.name for v in (ctx.rules, ctx.registry_repo)
              if v is not None and cache.exists() and inside(cache, v.root)}
    keep = [p for p in proposals if p.finding.location.repo not in copies]
    left = [fixing.Left(p.finding, "this repository is drafterlint's cached copy (`drafterlint sync`), "
                        "not a checkout of yours: not changed") for p in proposals if p.finding.location.repo in copies]
    return keep, left


def _named_by_the_configuration(config: "Config", options: LocalRun,
                                proposals: "list[Proposal]") -> "tuple[list[Proposal], list[Left]]":
    """A repository the configuration file located (`rules.path`, `registry.path`) outside the
    repository that holds the file is not one the user pointed drafterlint at: a repository's
    configuration may not direct writes out of itself. The command line's --rules-repo or
    --registry-repo makes it the user's choice."""
    from drafterlint import fix as fixing
    from drafterlint.config import boundary

    bound = boundary(config)
    refused = set()
    for which in ("rules", "registry"):
        configured = config.repo_path(which)
        given = options.rules_repo if which == "rules" else options.registry_repo
        if given or configured is None or bound is None:
            continue
        real, top = configured.resolve(), bound.resolve()
        if real != top and top not in real.parents:
            refused.add(which)
    keep = [p for p in proposals if p.finding.location.repo not in refused]
    left = [fixing.Left(p.finding, f"this repository was named by {config.source} ({p.finding.location.repo}.path), "
                        f"outside the repository that holds that file: not changed (give --{p.finding.location.repo}-repo "
                        "to let fix change it)") for p in proposals if p.finding.location.repo in refused]
    return keep, left


def _file(f: Finding) -> tuple[str, str]:
    return f.location.repo, f.location.path


def _moved(f: Finding, proposals: "list[Proposal]", views: "dict[str, RepoView]") -> Finding:
    """`f` (placed in the parsed document) at git's line in the file as the proposals' edits left
    it: the lines they insert are whole lines for git too."""
    here = (f.location.line, f.location.column)
    shift = sum(e.new.count("\n") for p in proposals for e in p.edits if (e.line, e.column) <= here)
    f = _at_git_lines(f, views)
    return replace(f, location=replace(f.location, line=f.location.line + shift)) if shift else f


def _at_git_lines(f: Finding, views: "dict[str, RepoView]") -> Finding:
    from drafterlint.engine import git_numbered

    return git_numbered({name: view.renumbered for name, view in views.items()}, [f])[0]


def _shown(root: Path, rel: str) -> str:
    full = root / rel
    try:
        relative = os.path.relpath(full, Path.cwd())
    except ValueError:  # another drive (Windows)
        return full.as_posix()
    return Path(relative).as_posix() if not relative.startswith("..") else full.as_posix()


def _unified(shown: str, before: bytes, after: bytes) -> tuple[str | None, str]:
    """The unified diff of one file, or (None, why) when it cannot be printed safely: a name a
    diff header cannot hold as it is, or a line the Actions runner would read as a workflow
    command (a context line ` ::warning::…` quoted from the document); escaping either would
    print a patch that no longer applies."""
    from drafterlint.safeio import is_command_line

    if not _diff_name_ok(shown):
        return None, "its file name cannot be written in a unified diff as it is"
    lines = list(difflib.unified_diff(_git_lines(before), _git_lines(after), f"a/{shown}", f"b/{shown}"))
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
    # The runner splits the log at CR, LF and CRLF, whatever git made of the text.
    if any(is_command_line(line) for line in re.split(r"\r\n|\r|\n", text)):
        return None, "a line of it would be read by the GitHub Actions runner as a workflow command"
    return text, ""


def _git_lines(data: bytes) -> list[str]:
    """The file's lines as git counts them: cut after each "\\n" only (a CRLF's CR stays in its
    line; U+2028, \\x0c, \\x85 and the others str.splitlines also cuts at are in-line text)."""
    return _GIT_LINE.findall(data.decode("utf-8"))


_GIT_LINE = lazyre.compile(r"[^\n]*\n|[^\n]+")


def _diff_name_ok(shown: str) -> bool:
    """A name git apply reads back as written: printable (no controls, separators or format
    characters), not quoted (`"`), no backslash (git's quoting), no trailing blank, no `##[`."""
    from drafterlint.safeio import LEGACY_COMMAND

    return (shown.isprintable() and not shown.startswith('"') and "\\" not in shown
            and shown == shown.rstrip() and LEGACY_COMMAND not in shown)


def _summary(out: TextIO, done: "list[Proposal]", left: "list[Left]", views: "dict[str, RepoView]", *, would: bool,
             notes: Sequence[str] = ()) -> None:
    from drafterlint.safeio import safe_line

    per_rule = Counter(p.finding.code for p in done)
    counts = ", ".join(f"{code} ×{n}" for code, n in sorted(per_rule.items()))
    lines = [f"{'would fix' if would else 'fixed'} {len(done)}" + (f" ({counts})" if counts else "")]
    lines += [f"  {_where(_at_git_lines(p.finding, views), views)}: {p.finding.code} {_what(p)} ({p.why})"
              for p in done]
    if left:
        lines.append(f"left {len(left)} needing a human:")
        lines += [f"  {_where(i.finding, views)}: {i.finding.code} {i.finding.message}: {i.why}" for i in left]
    lines += notes
    # Each line escaped on its own (a name holding a line break stays on its line); one write:
    # a reader that stops early (`| head`) is no error.
    out.write("\n".join(safe_line(line) for line in lines) + "\n")


def _where(f: Finding, views: "dict[str, RepoView]") -> str:
    view = views.get(f.location.repo)
    path = _shown(view.root, f.location.path) if view is not None else f.location.path
    return f"{path}:{f.location.line}:{f.location.column}"


def _what(p: "Proposal") -> str:
    return "; ".join(f"`{e.old}` -> `{e.new.strip()}`" if e.old else f"inserted `{e.new.strip()}`"
                     for e in sorted(p.edits, key=lambda e: (e.line, e.column)))


def fix_command(options: FixOptions) -> int:
    if options.review:
        from drafterlint.review import parse_target

        parse_target(options.review)  # before the run: a mistyped target is a usage error
        if not options.base_ref:
            raise InputError("--review needs --base-ref: only the lines the pull request changed take suggestions")
    fixing = wanted(options.select, options.ignore)
    # `--select`/`--ignore` choose what is fixed; every check still runs, so that a fix that
    # would break something another rule watches is caught.
    engine_options = replace(options, select=(), ignore=())
    if options.select:
        from drafterlint.fix import declared_fixes

        fixes = declared_fixes()
        fixable = sorted(code for code, fix in fixes.items() if fix.proposer is not None)
        for_a_human = [code for code, fix in fixes.items() if fix.proposer is None and fix.why]
        if not any(map(wanted(options.select, ()), [*fixable, *for_a_human])):
            raise InputError(f"--select {','.join(options.select)}: none of these rules has fixes "
                             f"(fixable: {', '.join(fixable)})")
    fixed, left = run_fix(engine_options, diff=options.diff, out=sys.stdout, wanted=fixing)
    if options.diff and fixed:
        return EXIT_LEFT
    return EXIT_LEFT if left else EXIT_OK

