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
   of an earlier audit), else the state the audit embeds in its tracking issue's body (with
   ``--open-issue``: the fingerprint, rule, path and message of each finding, base64 JSON in an
   HTML comment at the top of the body).
4. Writes the Markdown report (``--output``, else stdout) and the JSON (``--json``), and with
   ``--open-issue OWNER/REPO`` creates, updates or closes the tracking issue
   (``drafterlint.githubapi``; token from ``GITHUB_TOKEN``).

What could not be checked (no history, the hub unreachable, the issue API failing) is said in
the report and never turns into a finding or exit 3. Exit codes are those of `check` (0, 1, 2),
plus 3 only when a repository itself could not be brought.
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from drafterlint import __version__
from drafterlint.findings import FetchError, InputError, Severity

EXIT_FETCH = 3
STATE_RE = re.compile(r"<!-- drafterlint-audit-state ([A-Za-z0-9+/=]+) -->")
MAX_STATE = 400  # findings remembered in the issue body


@dataclass
class Brought:
    which: str
    root: Path
    source: str
    sha: str | None
    github: str | None  # OWNER/REPO on github.com, for links

    @property
    def is_git(self) -> bool:
        return (self.root / ".git").exists()


_GITHUB_URL = re.compile(r"^https://github\.com/([A-Za-z0-9-]+)/([A-Za-z0-9._-]+?)(?:\.git)?/?$", re.I)


def _bring(which: str, given: str | None, ref: str | None, config, workdir: Path) -> Brought:
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
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        findings = data["findings"]
        if not isinstance(findings, list) or not all(isinstance(f, dict) and "fingerprint" in f for f in findings):
            raise ValueError("findings without fingerprints")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, None, [f"previous audit {path} is not an audit JSON report ({exc}): nothing to compare with"]
    when = (data.get("audit") or {}).get("today") if isinstance(data.get("audit"), dict) else None
    return findings, f"the audit of {when}" if when else str(path), []


def state_comment(findings) -> str:
    items = [
        {"fingerprint": f.fingerprint, "code": f.code, "path": f.location.path,
         "line": f.location.line, "message": f.message[:300]}
        for f in findings[:MAX_STATE]
    ]
    blob = base64.b64encode(json.dumps(items, separators=(",", ":")).encode()).decode()
    return f"<!-- drafterlint-audit-state {blob} -->"


def state_from_body(body: str | None) -> list[dict] | None:
    m = STATE_RE.search(body or "")
    if not m:
        return None
    try:
        items = json.loads(base64.b64decode(m.group(1)).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(items, list) or not all(isinstance(i, dict) and "fingerprint" in i for i in items):
        return None
    return items


def _head_lines(ctx) -> dict[tuple[str, str, int], tuple]:
    """(repo, path, line) -> the identity of the head whose entry holds that line, in every policy."""
    owner: dict[tuple[str, str, int], tuple] = {}
    for policy in ctx.registry.policies.values():
        for head in policy.heads:
            n = len(head.path)
            lines = {head.location.line}
            for table in (head.doc.positions, head.doc.value_positions):
                lines.update(pos[0] for p, pos in table.items() if p[:n] == head.path)
            for line in lines:
                owner[(head.location.repo, head.location.path, line)] = head.identity
    return owner


def _marks(ctx, findings) -> dict[tuple, list[str]]:
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


def _cohort_info(ctx, today: datetime.date, findings=()):
    from drafterlint.cohorts import Cohort
    from drafterlint.history import calendar_of
    from drafterlint.report.audit_markdown import TimelineHead

    calendar = calendar_of(ctx) if ctx.rules is not None else None
    from drafterlint.cohorts import DEFAULT_CALENDAR

    calendar = calendar or DEFAULT_CALENDAR
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
    from drafterlint.commands import write_atomically
    from drafterlint.findings import REPORT_MARKER

    text = (f"{REPORT_MARKER}\n# drafterlint audit — {today}\n\n❌ **The audit could not run**: the {which} repository "
            f"could not be brought.\n\n> [!CAUTION]\n> {message}\n")
    try:
        write_atomically(path, text)
    except (OSError, InputError):
        pass


def audit_command(args) -> int:
    from drafterlint.checks.base import HISTORY
    from drafterlint.commands import exit_code, load_effective_config, parse_report_specs, parse_today, write_atomically
    from drafterlint.engine import _NEED_REASONS, RuleCrashed, build_context, run
    from drafterlint.findings import Skipped
    from drafterlint.report import ReportMeta, render
    from drafterlint.sources import cache_root

    config = load_effective_config(args)
    today = parse_today(args.today) or datetime.date.today()
    extra_reports = parse_report_specs(args.report)
    cache = Path(args.cache_dir).expanduser() if args.cache_dir else cache_root(config)
    workdir = cache / "audit"
    repo_to_open = None
    if args.open_issue:
        from drafterlint.githubapi import validate_repo

        repo_to_open = validate_repo(args.open_issue)

    brought: dict[str, Brought] = {}
    for which, given, ref in (("rules", args.rules_repo, args.rules_ref),
                              ("registry", args.registry_repo, args.registry_ref)):
        try:
            brought[which] = _bring(which, given, ref, config, workdir)
        except FetchError as exc:
            message = f"{which} repository {given or ''}: {exc}".strip()
            _not_run_report(args.output, which, message, today.isoformat())
            print(f"drafterlint: could not bring the {message}", file=sys.stderr)
            return EXIT_FETCH

    notes: list[str] = []
    reg = brought["registry"]
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

    online = None
    if args.online:
        from drafterlint.hub import HubClient

        # The huggingface_hub names (HF_TOKEN, and the older HUGGING_FACE_HUB_TOKEN): a gated or
        # private checkpoint answers 401/403 without one. Sent to the hub's own host only.
        hub_token = os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN") or None
        online = HubClient(args.hub_api_url, cache_dir=cache, timeout=args.http_timeout, token=hub_token)

    ctx = build_context(config, brought["rules"].root, reg.root, today=today, history=history, online=online)
    try:
        result = run(ctx)
    except RuleCrashed as exc:
        print(f"drafterlint: internal error in rule {exc} (please report this)", file=sys.stderr)
        return 2
    if history_note:
        result.skipped = [Skipped(s.code, history_note) if s.reason == _NEED_REASONS[HISTORY] else s
                          for s in result.skipped]
    for s in result.skipped:
        if "model hub" in s.reason:
            notes.append(f"{s.code}: {s.reason}")

    # The previous audit.
    previous, previous_from, prev_notes = _load_previous(args.previous)
    notes += prev_notes
    client = existing = None
    looked = False
    if repo_to_open:
        from drafterlint.githubapi import GitHubClient, GitHubError

        token = os.environ.get("GITHUB_TOKEN") or None
        if not token:
            notes.append(f"tracking issue in {repo_to_open}: GITHUB_TOKEN is not set")
        else:
            client = GitHubClient(args.github_api_url, repo_to_open, token, timeout=args.http_timeout)
            try:
                existing = client.find_open()
                looked = True
            except GitHubError as exc:
                notes.append(f"tracking issue in {repo_to_open}: {exc}")
                client = None
            if previous is None and existing is not None:
                state = state_from_body(existing.get("body"))
                if state is not None:
                    previous, previous_from = state, f"the tracking issue #{existing.get('number')}"

    # What changed.
    from drafterlint.report.audit_markdown import AuditInfo, audit_document, render_audit

    now_cohort, next_cohorts, timeline = _cohort_info(ctx, today, result.findings)
    info = AuditInfo(today=today.isoformat(), today_cohort=now_cohort, next_cohorts=next_cohorts,
                     timeline=timeline, previous=previous_from)
    if previous is not None:
        before = {d["fingerprint"]: d for d in previous}
        current = {f.fingerprint for f in result.findings}
        info.new = [f for f in result.findings if f.fingerprint not in before]
        info.still_open = [f for f in result.findings if f.fingerprint in before]
        info.fixed = [d for fp, d in before.items() if fp not in current]
    from drafterlint.checks import rule_infos

    meta = ReportMeta(version=__version__, roots={k: b.source for k, b in brought.items()}, rules=tuple(rule_infos()))
    for k, b in brought.items():
        info.repositories[k] = {"source": b.source, "commit": b.sha, "github": b.github}
        if b.sha and b.github:
            meta.github[k] = (b.github, b.sha)
    if history is not None:
        info.history = {"commits_read": history.commits_read, "complete": history.complete,
                        "from": history.ref_sha}

    # The tracking issue.
    fail_on = min(config.fail_on, Severity.WARNING)
    clean = not any(f.severity >= fail_on for f in result.findings)
    if client is not None:
        from drafterlint.githubapi import MARKER, GitHubError, sync_issue

        counts = {s: sum(1 for f in result.findings if str(f.severity) == s) for s in ("error", "warning")}
        title = (f"drafterlint audit: {counts['error']} error(s), {counts['warning']} warning(s) "
                 f"({today.isoformat()})")
        body = "\n".join([MARKER, state_comment(result.findings),
                          render_audit(result, meta, info, max_bytes=60_000)])
        try:
            outcome = sync_issue(client, title=title, body=body, clean=clean, existing=existing, looked=looked,
                                 close_comment=f"The audit of {today.isoformat()} is clean: closing.")
            if outcome.action != "none":
                print(f"drafterlint: tracking issue {outcome.action}: #{outcome.number}", file=sys.stderr)
        except GitHubError as exc:
            notes.append(f"tracking issue in {repo_to_open}: {exc}")

    info.not_checked = notes
    text = render_audit(result, meta, info)
    written: list[tuple[str, Path]] = []
    if args.output:
        write_atomically(args.output, text)
        written.append(("report", args.output))
    else:
        sys.stdout.write(text)
    if args.json_out:
        write_atomically(args.json_out, json.dumps(audit_document(result, meta, info), indent=2,
                                                   ensure_ascii=False) + "\n")
        written.append(("JSON", args.json_out))
    for fmt, path in extra_reports:
        write_atomically(path, render(result, fmt, meta))
        written.append((fmt, path))
    if args.output:  # the report is in a file: the log says the verdict and where to read it
        from drafterlint.report.audit_markdown import verdict_text

        print(verdict_text(result, info))
        for what, path in written:
            print(f"  {what}: {path}")
    for n in notes:
        print(f"drafterlint: could not check: {n}", file=sys.stderr)
    return exit_code(result, config, args.exit_zero)
