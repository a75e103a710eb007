"""`drafterlint audit`: the weekly job for task-force leads.

1. Brings both repositories. An https URL is cloned with its full history at the ref given
   (``--rules-ref``/``--registry-ref``, else the configured default branch). A local directory
   that is a git work tree is used in place, read-only, at its checked-out commit (or cloned at
   the ref when one is given). A plain folder (a snapshot) is used as it is, and the history
   checks (DL402, DL403) are skipped with a note. Nothing given: the configured GitHub
   repositories. A repository that cannot be brought is exit 3.
2. Reads the registry's git history (``drafterlint.history``), and with ``--online`` asks the
   model hub (``drafterlint.hub``); runs every rule with the date ``--today`` (default: today).
3. Compares with the previous audit by finding fingerprint: ``--previous FILE`` (a JSON report
   of an earlier audit), else the state the audit left in its tracking issue's body
   (``drafterlint.auditstate``: small and compressed, a tenth of the body at most).
4. Writes the Markdown report (``--output``, else stdout) and the JSON (``--json``) — always,
   before the tracking issue is touched — and then, with ``--open-issue OWNER/REPO``, creates,
   updates or closes the tracking issue (``drafterlint.githubapi``; token from ``GITHUB_TOKEN``).

What could not be checked (no history, the hub unreachable or answering nonsense, the issue
API failing) is said in the report and never turns into a finding or exit 3. A rule that
crashes is named in the report; the others still run. Exit codes: those of `check` (0, 1, 2:
also a rule that crashed), 3 when a repository itself could not be brought, 4 when the
tracking issue could not be updated (a missing or refused token, the API unreachable or
answering something else); 2, 3 and 4 are not hidden by ``--exit-zero``, which is about
findings.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drafterlint import __version__, lazyre
from drafterlint.audit_tracking import Tracking, look_up, previous_state, settle, start_tracking
from drafterlint.findings import FetchError, Finding, InputError, Result, Severity
from drafterlint.options import AuditOptions
from drafterlint.records import dataclass
from drafterlint.report import one_line
from drafterlint.safeio import json_safe, safe_text, write_file
from drafterlint.steps import (
    EXIT_FETCH,
    EXIT_TRACKING,
    EXIT_USAGE,
    Stopped,
    configuration,
    exit_code,
)

if TYPE_CHECKING:
    from drafterlint.checks.base import Context
    from drafterlint.config import Config
    from drafterlint.engine import RuleCrashed
    from drafterlint.findings import Carried
    from drafterlint.history import History
    from drafterlint.hub import HubClient
    from drafterlint.report import ReportMeta
    from drafterlint.report.audit_markdown import AuditInfo, TimelineHead

    # carry(d, why): the previous audit's finding `d` as a finding of this run, not checked `why`
    Carry = Callable[[dict[str, Any], str], Carried]
    # (the previous audit's finding dicts or None, where they are from, a note when partial)
    Previous = tuple[list[dict[str, Any]] | None, str | None, str]


@dataclass
class Brought:
    """A repository the audit brought: where it is, where from, at which commit."""

    which: str
    root: Path
    source: str
    sha: str | None
    github: str | None  # OWNER/REPO on github.com, for links

    @property
    def is_git(self) -> bool:
        return (self.root / ".git").exists()


# Every token the audit may be given: none is ever printed or written (safeio.masking, in cli).
TOKENS = ("GITHUB_TOKEN", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")

_GITHUB_URL = lazyre.compile(r"^https://github\.com/([A-Za-z0-9-]+)/([A-Za-z0-9._-]+?)(?:\.git)?/?$", re.I)


def _bring(which: str, given: str | None, ref: str | None, config: "Config", workdir: Path) -> Brought:
    from drafterlint import gitops

    section = config.data[which]
    configured_github = section.get("github")
    if given is None:
        path = config.repo_path(which)
        if path is not None:
            given = str(path)
        elif configured_github:
            given = f"https://github.com/{configured_github}"
        else:
            raise InputError(f"give --{which}-repo URL or DIR")
    if given.lower().startswith("https://"):
        gitops.validate_url(given)
        m = _GITHUB_URL.match(given)
        github = f"{m.group(1)}/{m.group(2)}" if m else configured_github
        dest = workdir / which
        sha = gitops.bring(given, ref or section.get("default_branch") or "main", dest, full_history=True)
        return Brought(which, dest, given, sha, github)
    if "://" in given or "::" in given or given.startswith("-"):
        gitops.validate_url(given)  # raises InputError: only https
    path = Path(given).expanduser()
    if not path.is_dir():
        raise FetchError(f"{which} repository {given!r} is not a directory")
    if ref is not None:
        gitops.validate_ref(ref)
        if not (path / ".git").exists():
            raise InputError(f"--{which}-ref needs a git repository; {given} is a plain folder")
        dest = workdir / which
        sha = gitops.bring(str(path), ref, dest, full_history=True, allow_local=True)
        return Brought(which, dest, given, sha, configured_github)
    head = gitops.head_commit(path) if (path / ".git").exists() else None
    return Brought(which, path.resolve(), given, head, configured_github)


def _load_previous(path: Path | None) -> tuple[list[dict] | None, str | None, list[str]]:
    """(finding dicts, description) of the previous audit, or (None, None) when there is none."""
    if path is None:
        return None, None, []
    if not Path(path).is_file():
        return None, None, [f"previous audit {path} not found: nothing to compare with"]
    from drafterlint import answers

    try:  # a file from an earlier run, perhaps downloaded: checked like a network answer
        data = answers.expect(answers.json_of(Path(path).read_bytes(), "it"), dict, "it")
        findings = answers.field(data, "findings", list, "it")
        for f in findings:
            answers.field(answers.expect(f, dict, "a finding"), "fingerprint", str, "a finding")
    except OSError as exc:
        return None, None, [f"previous audit {path} cannot be read ({exc.strerror or exc}): nothing to compare with"]
    except answers.BadAnswer as exc:
        return None, None, [f"previous audit {path} is not an audit JSON report ({exc}): nothing to compare with"]
    when = data["audit"].get("today") if isinstance(data.get("audit"), dict) else None
    return findings, f"the audit of {when}" if isinstance(when, str) else str(path), []


def _head_lines(ctx: "Context") -> dict[tuple[str, str, int], tuple]:
    """(repo, path, line) -> the identity of the head whose entry holds that line, in every policy."""
    owner: dict[tuple[str, str, int], tuple] = {}
    for policy in ctx.loaded_registry.policies.values():  # _marks asks only when there is one
        for head in policy.heads:
            n = len(head.path)
            lines = {head.location.line}
            for table in (head.doc.positions, head.doc.value_positions):
                lines.update(pos[0] for p, pos in table.items() if p[:n] == head.path)
            for line in lines:
                owner[(head.location.repo, head.location.path, line)] = head.identity
    return owner


def _marks(ctx: "Context", findings: Iterable[Finding]) -> dict[tuple, list[str]]:
    """Head identity -> why it is marked in the timeline (its DL401/DL403/DL505 errors)."""
    from drafterlint.report.audit_markdown import TIMELINE_MARKS

    marked = [f for f in findings if f.code in TIMELINE_MARKS and f.severity is Severity.ERROR]
    if not marked or ctx.registry is None:
        return {}
    owner = _head_lines(ctx)
    out: dict[tuple, list[str]] = {}
    for f in marked:
        places = [(loc.repo, loc.path, loc.line) for loc in (f.location, *f.related)]
        for ident in {owner[p] for p in places if p in owner}:
            out.setdefault(ident, []).append(f"{f.code} {f.name}: {f.message}")
    return out


def _cohort_info(ctx: "Context", today: datetime.date,
                 findings: Iterable[Finding] = ()) -> "tuple[str, list[tuple[str, str]], list[TimelineHead]]":
    from drafterlint.cohorts import Cohort
    from drafterlint.report.audit_markdown import TimelineHead

    calendar = ctx.facts.publication_calendar  # the default one without rules (no facts)
    now = Cohort.for_date(today, calendar)
    nxt = [(str(now + i), (now + i).publication_date(calendar).isoformat())
           for i in range(ctx.eligibility.horizon + 1)]
    timeline = []
    marks = _marks(ctx, findings)
    if ctx.registry is not None:
        for e in ctx.eligibility.heads:
            head, approved, usable = e.head, e.approved, e.usable
            # What the checkpoint shows (audit --online), for the heads DL505 holds against it:
            # judged once, whichever asks first.
            v = None
            if ctx.online is not None and head.bundled and head.repository and head.revision and head.method:
                v = ctx.native.verdict(head.repository, head.revision, head.method)
            timeline.append(TimelineHead(
                model=head.model or "?", repository=head.repository or "?", revision=head.revision or "?",
                method=head.method, approved=str(approved),
                approved_date=approved.publication_date(calendar).isoformat(),
                eligible=str(usable), eligible_date=usable.publication_date(calendar).isoformat(),
                verified=v.short() if v is not None else "",
                marks=marks.get(head.identity, []),
            ))
    return str(now), nxt, timeline


def _not_run_report(path: Path | None, which: str, message: str, today: str) -> None:
    if path is None:
        return
    from drafterlint.findings import REPORT_MARKER

    text = (f"{REPORT_MARKER}\n# drafterlint audit — {today}\n\n❌ **The audit could not run**: the {which} repository "
            f"could not be brought.\n\n> [!CAUTION]\n> {message}\n")
    try:
        write_file(path, text, what="output file")
    except (OSError, InputError):
        pass


def _compare(info: "AuditInfo", result: Result, previous: "list[dict[str, Any]] | None", previous_from: str | None,
             carry: "Carry") -> None:
    """Fill what changed since the previous audit (finding dicts with a fingerprint). A finding
    it had that this run could not have seen (drafterlint.unchecked) is not fixed: `carry(d,
    why)` makes it a finding of this run again, marked carried, in `result` and `info.carried`."""
    from drafterlint.unchecked import blind_spots, unreadable_code

    info.previous = previous_from
    if previous is None:
        return
    findings = result.findings
    before = {d["fingerprint"]: d for d in previous}
    current = {f.fingerprint for f in findings}
    blind = blind_spots(result, {p for d in previous if d.get("code") == unreadable_code()
                                 and isinstance(p := d.get("path"), str)})
    info.new = [f for f in findings if f.fingerprint not in before]
    info.still_open = [f for f in findings if f.fingerprint in before]
    for fp, d in before.items():
        if fp in current:
            continue
        why = blind.why(str(d.get("code", "")))
        if why is None:
            info.fixed.append(d)
        else:
            info.carried.append(carry(d, why))
    if info.carried:
        result.findings = sorted([*findings, *info.carried], key=lambda f: f.sort_key())


def _carrier(config: "Config", brought: dict[str, Brought], previous_from: str | None) -> "Carry":
    """carry(d, why): the previous audit's finding `d` as a Carried finding of this run. Its
    severity is the one it had (a JSON report says it) or its rule's now; its repository the one
    that holds its file (the tracking issue's state keeps only the path)."""
    from drafterlint.docs import rule_infos
    from drafterlint.findings import Carried, Location

    rules = {r.code: r for r in rule_infos()}

    def carry(d: dict, why: str) -> Carried:
        code, path = str(d.get("code", "")), str(d.get("path", ""))
        rule = rules.get(code)
        try:
            severity = Severity.parse(str(d["severity"]))
        except (KeyError, ValueError):
            severity = config.severity_override(code) or (rule.severity if rule else Severity.ERROR)
        repo = d.get("repo")
        if repo not in ("rules", "registry"):
            repo = "registry" if path and (brought["registry"].root / path).exists() else "rules"
        line = d.get("line")
        return Carried(code=code, name=rule.name if rule else str(d.get("name", "")), severity=severity,
                       location=Location(repo, path, line if isinstance(line, int) and line > 0 else 1),
                       message=str(d.get("message") or "(its message was not kept by the previous audit's state)"),
                       suggestion=f"not checked by this audit {why}; carried from {previous_from}",
                       known_print=str(d["fingerprint"]), why=why)

    return carry


def _previous(options: AuditOptions, tracking: Tracking | None, notes: list[str]) -> "Previous":
    """(finding dicts, where from, a note when the previous state kept only some findings)."""
    previous, previous_from, prev_notes = _load_previous(options.previous)
    notes += prev_notes
    if previous is not None or tracking is None or tracking.existing is None:
        return previous, previous_from, ""
    return previous_state(tracking, notes)


def _where_the_full_report_is(options: AuditOptions) -> tuple[str, str | None]:
    """For an issue body cut to fit: the workflow run (its artifacts, and its address), else the
    files written."""
    server, repo, run = (os.environ.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID"))
    if re.fullmatch(r"https://[A-Za-z0-9.-]+(:[0-9]+)?", server) and re.fullmatch(r"[\w.-]+/[\w.-]+", repo) \
            and run.isascii() and run.isdigit():
        return "the artifacts of the workflow run", f"{server}/{repo}/actions/runs/{run}"
    files = [Path(p).name for p in (options.output, options.json_out) if p]
    return (f"the audit's report files ({', '.join(files)})" if files else "the audit's report"), None


def _write_reports(options: AuditOptions, result: Result, meta: "ReportMeta", info: "AuditInfo") -> list[tuple[str, Path]]:
    from drafterlint.report import render
    from drafterlint.report.audit_markdown import audit_document, render_audit

    written: list[tuple[str, Path]] = []
    text = render_audit(result, meta, info)
    if options.output:
        write_file(options.output, text, what="output file")
        written.append(("report", options.output))
    else:
        sys.stdout.write(safe_text(text))
    if options.json_out:
        write_file(options.json_out, json_safe(json.dumps(audit_document(result, meta, info), indent=2,
                                                          ensure_ascii=False)) + "\n", what="output file")
        written.append(("JSON", options.json_out))
    for extra in options.report:
        write_file(extra.path, render(result, extra.format, meta), what="output file")
        written.append((str(extra.format), extra.path))
    return written


def _exit(crashed: list, tracking: Tracking | None, findings_code: int) -> int:
    """A rule that failed (2) or a tracking issue not updated (4) fail the run whatever
    --exit-zero says (it is about findings); then the findings' own code."""
    if crashed:
        return EXIT_USAGE
    if tracking is not None and tracking.failure:
        return EXIT_TRACKING
    return findings_code


def audit_command(options: AuditOptions) -> int:
    from drafterlint.engine import build_context
    from drafterlint.sources import cache_root

    config = configuration(options)
    today = options.today or datetime.date.today()
    cache = Path(options.cache_dir).expanduser() if options.cache_dir else cache_root(config)
    # The tokens are judged before anything is brought: a refused one is said at the start.
    tracking = start_tracking(options, _tracked_repo(options), options.http_timeout)
    hub = _hub(options, cache) if options.online else None
    brought = _bring_both(options, config, cache / "audit", today)
    notes: list[str] = []
    history, history_note = _history(brought["registry"], config, notes)
    ctx = build_context(config, brought["rules"].root, brought["registry"].root, today=today, history=history,
                        online=hub)
    crashed: list[RuleCrashed] = []
    result = _run(ctx, crashed, history_note, notes)
    # The previous audit: --previous, else the state in the tracking issue (a read only).
    if tracking is not None:
        look_up(tracking)
        if tracking.failure:
            notes.append(f"tracking issue in {tracking.repo}: {tracking.failure} (it is not updated by this run)")
    previous = _previous(options, tracking, notes)
    info, meta = _describe(options, ctx, today, result, crashed, brought, history, notes, previous)
    # The reports first: whatever happens to the tracking issue, they are written.
    written = _write_reports(options, result, meta, info)
    _say_outcome(options, result, info, written, crashed, notes)
    if tracking is not None:
        settle(tracking, config, result, meta, info, crashed)
    return _exit(crashed, tracking, exit_code(result, config, options.exit_zero))


def _tracked_repo(options: AuditOptions) -> str | None:
    """--open-issue's OWNER/REPO, checked before anything is brought."""
    if not options.open_issue:
        return None
    from drafterlint.githubapi import validate_repo

    return validate_repo(options.open_issue)


def _bring_both(options: AuditOptions, config: "Config", workdir: Path, today: datetime.date) -> dict[str, Brought]:
    """Both repositories; one that cannot be brought stops the run (exit 3) with a short report."""
    brought: dict[str, Brought] = {}
    for which, given, ref in (("rules", options.rules_repo, options.rules_ref),
                              ("registry", options.registry_repo, options.registry_ref)):
        try:
            brought[which] = _bring(which, given, ref, config, workdir)
        except FetchError as exc:
            message = f"{which} repository{' ' + given if given else ''}: {exc}"
            _not_run_report(options.output, which, message, today.isoformat())
            print(one_line(f"drafterlint: could not bring the {message}"), file=sys.stderr)
            raise Stopped(EXIT_FETCH) from None
    return brought


def _history(reg: Brought, config: "Config", notes: list[str]) -> "tuple[History | None, str | None]":
    """(the registry's git history or None, why it is missing or None); its notes go to `notes`."""
    history = None
    history_note = None
    if reg.is_git:
        from drafterlint.history import build_history

        try:
            history = build_history(reg.root, config.registry.get("policies") or "")
            notes += [f"history: {n}" for n in history.notes]
        except ValueError as exc:
            history_note = f"git history of the reference repository ({exc})"
    else:
        history_note = (f"git history: the reference repository {reg.source} is not a git checkout, "
                        "so when each head and checkpoint was first listed is unknown (DL402, DL403 skipped)")
    if history_note:
        notes.append(history_note)
    return history, history_note


def _hub(options: AuditOptions, cache: Path) -> "HubClient":
    """The model hub's client for --online."""
    from drafterlint.githubapi import token_problem
    from drafterlint.hub import HubClient

    # The huggingface_hub names (HF_TOKEN, and the older HUGGING_FACE_HUB_TOKEN): a gated or
    # private checkpoint answers 401/403 without one. Sent to the hub's own host only, over https.
    name = "HF_TOKEN" if os.environ.get("HF_TOKEN") else "HUGGING_FACE_HUB_TOKEN"
    hub_token = os.environ.get(name) or None
    if hub_token and token_problem(name, hub_token):
        print(one_line(f"drafterlint: {token_problem(name, hub_token)}"), file=sys.stderr)
        hub_token = None
    return HubClient(options.hub_api_url, cache_dir=cache, timeout=options.http_timeout, token=hub_token)


def _run(ctx: "Context", crashed: "list[RuleCrashed]", history_note: str | None, notes: list[str]) -> Result:
    """Every rule (one that crashes goes to `crashed`); the checks the history's absence skipped
    say why it is absent, and what the model hub did not answer goes to `notes`."""
    from dataclasses import replace

    from drafterlint.checks.base import HISTORY, ONLINE
    from drafterlint.engine import run

    result = run(ctx, crashed=crashed)
    if history_note:
        result.skipped = [replace(s, reason=history_note) if s.unmet and s.need == HISTORY else s
                          for s in result.skipped]
    notes += [f"{s.code}: {s.reason}" for s in result.skipped if s.need == ONLINE and not s.unmet]
    return result


def _describe(options: AuditOptions, ctx: "Context", today: datetime.date, result: Result, crashed: "list[RuleCrashed]",
              brought: dict[str, Brought], history: "History | None", notes: list[str],
              previous: "Previous") -> "tuple[AuditInfo, ReportMeta]":
    """(the audit's part of the report, the report's metadata)."""
    from drafterlint.docs import rule_infos
    from drafterlint.report import ReportMeta
    from drafterlint.report.audit_markdown import AuditInfo

    previous_findings, previous_from, partial = previous
    full_report, full_report_url = _where_the_full_report_is(options)
    info = AuditInfo(today=today.isoformat(), today_cohort="", previous_partial=partial, full_report=full_report,
                     full_report_url=full_report_url, crashed=[str(c) for c in crashed])
    _compare(info, result, previous_findings, previous_from, _carrier(ctx.config, brought, previous_from))
    # After the comparison: a carried DL505 still marks its head.
    info.today_cohort, info.next_cohorts, info.timeline = _cohort_info(ctx, today, result.findings)
    for k, b in brought.items():
        info.repositories[k] = {"source": b.source, "commit": b.sha, "github": b.github}
    meta = ReportMeta(version=__version__, roots={k: b.source for k, b in brought.items()}, rules=tuple(rule_infos()),
                      github={k: (b.github, b.sha) for k, b in brought.items() if b.sha and b.github})
    if history is not None:
        info.history = {"commits_read": history.commits_read, "complete": history.complete,
                        "from": history.ref_sha}
    info.not_checked = notes
    return info, meta


def _say_outcome(options: AuditOptions, result: Result, info: "AuditInfo", written: list[tuple[str, Path]],
                 crashed: "list[RuleCrashed]", notes: list[str]) -> None:
    """The log: the verdict and the files when the report went to one, then what went wrong."""
    if options.output:  # the report is in a file: the log says the verdict and where to read it
        from drafterlint.report.audit_markdown import verdict_text

        print(one_line(verdict_text(result, info)))
        for what, path in written:
            print(one_line(f"  {what}: {path}"))
    for c in crashed:
        print(one_line(f"drafterlint: internal error in rule {c} (please report this); the report says "
                       "which findings are missing"), file=sys.stderr)
    for n in notes:
        print(one_line(f"drafterlint: could not check: {n}"), file=sys.stderr)
