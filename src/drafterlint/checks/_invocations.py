"""Where the check is invoked, at the base and in the change: DL901's second half.

On a `pull_request` event GitHub runs the workflow as the pull request changed it, so the
drafterlint step can be turned down in the same pull request it judges: an input (`fail-on`,
`only-new`, `config`, `scope`, `base-ref`, a checkout), `continue-on-error`, an `if:`, the step,
its job or its trigger gone, the trigger's filters narrowed. The pre-commit configuration is a
contributor's tool, but it is in the repository and a reviewer reads its diff too: the
drafterlint hook's `args`, when it runs (`files`, `exclude`, `stages`), the hook gone.

A drafterlint step `uses:` this action (`…/drafterlint@…`, or a local `./` path) or `run:`s
`drafterlint check` (the one command line is read: its flags and whether `||` or `|` follows;
no other shell). A hook is one of this project's hooks (`drafterlint…` ids of a repository
named drafterlint) or any hook whose `entry` runs `drafterlint check`. The files are untrusted
text: read with the project's bounded YAML loader; one that cannot be read is one finding that
says why, at its line.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import field
from typing import Any

from drafterlint import lazyre
from drafterlint.findings import UnreadableFile
from drafterlint.records import dataclass
from drafterlint.registry.yamlload import YamlDoc, load_yaml_text

WORKFLOWS = ".github/workflows/"
PRE_COMMIT = ".pre-commit-config.yaml"
MAX_FILES = 200  # workflow files compared; a repository with more is compared on its first ones


def is_invocation_file(path: str) -> bool:
    """A file whose change DL901 reads: a workflow of the repository, or its hooks file."""
    if path == PRE_COMMIT:
        return True
    return path.startswith(WORKFLOWS) and "/" not in path[len(WORKFLOWS):] and path.endswith((".yml", ".yaml"))


@dataclass(frozen=True)
class Changed:
    """One invocation file as the base and the change hold it (None: not there)."""

    repo: str
    path: str
    base: str | None
    now: str | None


@dataclass(frozen=True)
class Weakening:
    """One thing the change turns off or down, at its place in the change's file."""

    path: str
    line: int
    column: int
    message: str
    key: str


@dataclass
class _Call:
    """One drafterlint step or hook: where it is and what it is told."""

    path: str
    group: tuple  # the job (a step) or the repos entry (a hook) it belongs to
    where: tuple  # its key path
    label: str
    options: dict  # flag or input name -> (value, key path)
    options_at: tuple  # where an option not given would be written (`with`, `run`, `args`)
    guards: dict = field(default_factory=dict)  # `if`, `continue-on-error`, `files`… -> (value, key path)
    lost_status: str = ""  # `|| true`, `| tee …` after a `run:` command
    line: int = 0  # of the step or hook

    @property
    def command(self) -> bool:
        return bool(self.options_at[-1] != "with")


_RUN = lazyre.compile(r"\bdrafterlint\s+check\b")
_USES = lazyre.compile(r"(^|/)drafterlint$|^\./?$", re.IGNORECASE)  # what precedes `@ref`
_SEVERITY = {"info": 1, "warning": 2, "error": 3}
_SAME = "values"  # the settings reported whenever the change gives them another value
_POINTS = {
    "config": "makes {who} read another configuration{was}: only the file the base reads is compared",
    "scope": "changes which repository fails {who}{was}",
    "base-ref": "changes what counts as pre-existing in {who}{was}",
    "baseline": "makes {who} read another baseline file{was}",
    "rules-repo": "points {who} at another checkout{was}",
    "registry-repo": "points {who} at another checkout{was}",
    "rules-url": "points {who} at another repository{was}",
    "registry-url": "points {who} at another repository{was}",
}
_WHEN = ("files", "exclude", "stages", "types", "types_or", "exclude_types", "entry", "language")


def weakenings(files: Iterable[Changed]) -> list[Weakening]:
    """What the change turns off or down where drafterlint is invoked, in file order."""
    out: list[Weakening] = []
    base_calls: list[_Call] = []
    now_calls: list[_Call] = []
    now_docs: dict[str, YamlDoc | None] = {}
    for changed in list(files)[:MAX_FILES]:
        base_doc = _read(changed.path, changed.base)
        now_doc = _read(changed.path, changed.now)
        base_here = _calls(changed.path, base_doc) if isinstance(base_doc, YamlDoc) else []
        if isinstance(now_doc, UnreadableFile):
            if base_here:
                where = now_doc.location
                out.append(Weakening(changed.path, where.line, where.column,
                                     f"`{changed.path}` cannot be read ({now_doc.message}): the drafterlint "
                                     f"{_kind(changed.path)} the base has there cannot be found", key="unreadable"))
            continue
        now_docs[changed.path] = now_doc
        base_calls += base_here
        now_calls += _calls(changed.path, now_doc) if now_doc is not None else []
        if isinstance(base_doc, YamlDoc) and now_doc is not None and base_here:
            out += _triggers(changed.path, base_doc, now_doc)
    pairs, gone = _pair(base_calls, now_calls)
    for before, after in pairs:
        out += _compare(before, after, now_docs[after.path])
    for before in gone:
        doc = now_docs.get(before.path)
        line, column = (doc.nearest(before.group) if doc is not None else None) or (1, 1)
        out.append(Weakening(before.path, line, column,
                             f"the change removes {before.label} (line {before.line} at the base): the check "
                             f"no longer runs there", key=f"removed:{'/'.join(map(str, before.group))}"))
    return sorted(out, key=lambda w: (w.path, w.line, w.column, w.key))


def _kind(path: str) -> str:
    return "hook" if path == PRE_COMMIT else "step"


def _read(path: str, text: str | None) -> YamlDoc | UnreadableFile | None:
    if text is None:
        return None
    try:
        return load_yaml_text(text, path, repo="rules")
    except UnreadableFile as exc:
        return exc


def _calls(path: str, doc: YamlDoc) -> list[_Call]:
    data = doc.value
    if not isinstance(data, dict):
        return []
    found = list(_hooks(path, data) if path == PRE_COMMIT else _steps(path, data))
    for call in found:  # where it was, for a removal's message
        call.line = (doc.nearest(call.where) or (1, 1))[0]
    return found


def _steps(path: str, data: dict) -> Iterator[_Call]:
    jobs = data.get("jobs")
    for job_id, job in (jobs.items() if isinstance(jobs, dict) else ()):
        steps = job.get("steps") if isinstance(job, dict) else None
        for index, step in enumerate(steps if isinstance(steps, list) else ()):
            if not isinstance(step, dict):
                continue
            where = ("jobs", job_id, "steps", index)
            uses, run = step.get("uses"), step.get("run")
            if isinstance(uses, str) and _USES.search(uses.split("@")[0].strip()):
                given = step.get("with")
                inputs: dict = given if isinstance(given, dict) else {}
                options = {str(k): (_text(v), (*where, "with", k)) for k, v in inputs.items()}
                call = _Call(path, ("jobs", job_id), where, f"the drafterlint step of job `{job_id}`", options,
                             (*where, "with"))
            elif isinstance(run, str) and _RUN.search(run):
                options, lost = _command(run, (*where, "run"))
                call = _Call(path, ("jobs", job_id), where, f"the drafterlint step of job `{job_id}`", options,
                             (*where, "run"), lost_status=lost)
            else:
                continue
            for key, holder, at in (("if", job, ("jobs", job_id)), ("if", step, where),
                                    ("continue-on-error", job, ("jobs", job_id)),
                                    ("continue-on-error", step, where)):
                if key in holder:
                    call.guards[f"{key}@{len(at)}"] = (_text(holder[key]), (*at, key))
            yield call


def _hooks(path: str, data: dict) -> Iterator[_Call]:
    repos = data.get("repos")
    top = {key: (_text(data[key]), (key,)) for key in ("files", "exclude", "default_stages") if key in data}
    for r, repo in enumerate(repos if isinstance(repos, list) else ()):
        if not isinstance(repo, dict) or not isinstance(repo.get("hooks"), list):
            continue
        ours = "drafterlint" in str(repo.get("repo", "")).lower()
        for h, hook in enumerate(repo["hooks"]):
            if not isinstance(hook, dict):
                continue
            ident, entry = str(hook.get("id", "")), hook.get("entry")
            runs = isinstance(entry, str) and _RUN.search(entry) is not None
            if not ((ours and ident.startswith("drafterlint")) or runs):
                continue
            where = ("repos", r, "hooks", h)
            line = " ".join([entry if isinstance(entry, str) else "drafterlint check",
                             *(shlex.quote(str(a)) for a in hook.get("args") or [] if not isinstance(a, dict | list))])
            given = (*where, "args") if "args" in hook else where
            options, _ = _command(line, given)
            call = _Call(path, ("repos", r, "hooks"), where, f"the drafterlint hook `{ident}`", options, given)
            call.guards.update(top)
            call.guards.update({key: (_text(hook[key]), (*where, key)) for key in _WHEN if key in hook})
            yield call


def _text(value: Any) -> str:
    """A setting as it reads, for comparing and quoting (lists as YAML's flow style)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in value.items()) + "}"
    return "" if value is None else str(value)


_FLAGS = {"--fail-on": "fail-on", "--select": "select", "--ignore": "ignore", "--config": "config",
          "--scope": "scope", "--base-ref": "base-ref", "--baseline": "baseline", "--rules-repo": "rules-repo",
          "--registry-repo": "registry-repo", "--exit-zero": "exit-zero"}


def _command(text: str, at: tuple) -> tuple[dict, str]:
    """The flags of the `drafterlint check` command line in `text`, as inputs are named, and
    what follows it on that line that loses its exit status (`|| …`, `| …`), if anything."""
    joined = text.replace("\\\n", " ")
    match = _RUN.search(joined)
    assert match is not None
    rest = joined[match.end():].split("\n", 1)[0]
    cut = re.search(r"\|\|?|&&|;|&|\s#", rest)
    args = rest[:cut.start()] if cut else rest
    lost = rest[cut.start():].strip() if cut is not None and cut.group().startswith("|") else ""
    try:
        words = shlex.split(args)
    except ValueError:
        words = args.split()
    options: dict = {}
    for i, word in enumerate(words):
        name, eq, value = word.partition("=")
        if name not in _FLAGS:
            continue
        if name == "--exit-zero":
            options["exit-zero"] = ("true", at)
        elif eq:
            options[_FLAGS[name]] = (value, at)
        elif i + 1 < len(words):
            options[_FLAGS[name]] = (words[i + 1], at)
    return options, " ".join(lost.split()[:4])


def _pair(base: list[_Call], now: list[_Call]) -> tuple[list[tuple[_Call, _Call]], list[_Call]]:
    """Each base call with the change's that stands for it: the same file, job (or hooks list)
    and place among its calls; what is left, in order (a job or a file renamed); the base's
    calls with none are gone."""
    def keyed(calls: list[_Call]) -> dict[tuple, _Call]:
        seen: dict[tuple, int] = {}
        out = {}
        for call in calls:
            group = (call.path, call.group)
            seen[group] = seen.get(group, -1) + 1
            out[(call.path, call.group, seen[group])] = call
        return out

    before, after = keyed(base), keyed(now)
    pairs = [(call, after.pop(k)) for k, call in before.items() if k in after]
    taken = {id(b) for b, _ in pairs}
    rest = list(after.values())
    gone = []
    for call in (c for c in before.values() if id(c) not in taken):
        match = next((c for c in rest if _kind(c.path) == _kind(call.path)), None)
        if match is None:
            gone.append(call)
        else:
            rest.remove(match)
            pairs.append((call, match))
    return pairs, gone


def _compare(before: _Call, after: _Call, doc: YamlDoc | None) -> Iterator[Weakening]:
    """What `after` turns off or down that `before`, the base's call it stands for, did not."""
    who = after.label

    def at(name: str, message: str, path: tuple | None = None) -> Weakening:
        if path is None:
            path = after.options[name][1] if name in after.options else after.options_at
        line, column = (doc.nearest(path) if doc is not None else None) or (1, 1)
        return Weakening(after.path, line, column, message, f"{'/'.join(map(str, after.where))}:{name}")

    def get(call: _Call, name: str) -> str:
        return str(call.options.get(name, ("", None))[0]).strip()

    def said(name: str, default: str = "removed") -> str:
        """The setting as the change writes it: `--config x` on a command line, `config: x` in `with:`."""
        value = _short(get(after, name))
        flag, sep = (f"--{name}", " ") if after.command else (name, ": ")
        return f"`{flag}{sep}{value}`" if value else f"`{flag}` ({default})"

    def base_said(name: str) -> str:
        return f" (the base: `{_short(get(before, name))}`)" if get(before, name) else ""

    was, now = get(before, "fail-on").lower() or "error", get(after, "fail-on").lower() or "error"
    if was != now and not (was in _SEVERITY and now in _SEVERITY and _SEVERITY[now] < _SEVERITY[was]):
        lost = f"on {was}s" if was in _SEVERITY else f"as the base's `{_short(was)}` did"
        yield at("fail-on", f"{said('fail-on', 'default error')} no longer fails {who} {lost}")
    if get(before, "only-new").lower() == "false" and get(after, "only-new").lower() != "false":
        yield at("only-new", f"{said('only-new', 'default true on a pull request')} fails {who} only on findings "
                 "the change introduces (the base: on every finding)")
    if get(after, "exit-zero") and not get(before, "exit-zero"):
        yield at("exit-zero", f"`--exit-zero` makes {who} pass whatever it finds")
    if after.lost_status and not before.lost_status:
        yield at("status", f"`{after.lost_status}` after `drafterlint check` loses its exit status in {who}")
    if added := [c for c in _codes(get(after, "ignore")) if c not in _codes(get(before, "ignore"))]:
        yield at("ignore", f"`--ignore {','.join(added)}` turns off {', '.join(added)} in {who}")
    chosen, was_chosen = _codes(get(after, "select")), _codes(get(before, "select"))
    if chosen and chosen != was_chosen:
        yield at("select", f"`--select {','.join(chosen)}` runs only {', '.join(chosen)} in {who} (the base: "
                 f"{', '.join(was_chosen) if was_chosen else 'every rule'})")
    for name, words in _POINTS.items():
        if get(after, name) != get(before, name):
            yield at(name, f"{said(name)} {words.format(who=who, was=base_said(name))}")
    for key, (value, path) in after.guards.items():
        old = before.guards.get(key, ("", None))[0]
        name = key.split("@")[0]
        also = f" (the base: `{_short(old)}`)" if old else ""
        if value == old or not value:
            continue
        if name == "continue-on-error" and value.lower() != "false":
            yield at(key, f"`continue-on-error: {_short(value)}` lets {who} fail and the job pass", path)
        elif name == "if" and _plain_if(value) not in ("always()", "success()", "true"):
            yield at(key, f"`if: {_short(value)}` may skip {who}{also}", path)
        elif name in ("entry", "language"):
            yield at(key, f"`{name}: {_short(value)}` changes what {who} runs{also}", path)
        elif name not in ("if", "continue-on-error"):
            yield at(key, f"`{name}: {_short(value)}` changes when {who} runs{also}", path)


def _plain_if(value: str) -> str:
    text = value.strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2].strip()
    return text


def _codes(value: str) -> list[str]:
    return [c.strip().upper() for c in re.split(r"[,\s]+", value) if c.strip()]


def _short(value: str, most: int = 60) -> str:
    value = " ".join(value.split())
    return value if len(value) <= most else value[:most - 1] + "…"


def _triggers(path: str, base: YamlDoc, now: YamlDoc) -> Iterator[Weakening]:
    """The events the base's workflow runs on that the change's no longer does, and their
    filters narrowed (a branch or path gone from a list, one added to an `-ignore` list)."""
    was, after = _events(base.value), _events(now.value)

    def at(key: tuple, message: str, label: str) -> Weakening:
        line, column = now.nearest(key) or (1, 1)
        return Weakening(path, line, column, message, f"on:{label}")

    for event in ("pull_request", "pull_request_target", "push", "merge_group"):
        if event not in was:
            continue
        if event not in after:
            yield at(("on",), f"the workflow no longer runs on `{event}`: its drafterlint step does not run "
                     "there", event)
            continue
        before, now_filters = was[event], after[event]
        for name in ("branches", "tags", "paths"):
            old, new = _list(before.get(name)), _list(now_filters.get(name))
            gone = [p for p in old or () if p not in (new or ())]
            if new is not None and (old is None or gone):
                what = f"no longer lists {', '.join(f'`{_short(p, 40)}`' for p in gone)}" if gone else \
                    f"now limits it to {', '.join(f'`{_short(p, 40)}`' for p in new[:3])}"
                yield at(("on", event, name), f"`on.{event}.{name}` {what}: the workflow that runs drafterlint "
                         "no longer runs for every change it did", f"{event}.{name}")
            old_ignored, new_ignored = _list(before.get(f"{name}-ignore")) or [], _list(now_filters.get(f"{name}-ignore"))
            if added := [p for p in new_ignored or () if p not in old_ignored]:
                yield at(("on", event, f"{name}-ignore"), f"`on.{event}.{name}-ignore` adds "
                         f"{', '.join(f'`{_short(p, 40)}`' for p in added)}: the workflow that runs drafterlint "
                         "no longer runs for every change it did", f"{event}.{name}-ignore")
        if event.startswith("pull_request"):
            default = ["opened", "synchronize", "reopened"]
            old_types, new_types = _list(before.get("types")) or default, _list(now_filters.get("types")) or default
            if lost := [t for t in old_types if t not in new_types]:
                yield at(("on", event, "types"), f"`on.{event}.types` no longer has {', '.join(lost)}: the "
                         "workflow that runs drafterlint no longer runs for every change it did", f"{event}.types")


def _events(value: Any) -> dict[str, dict]:
    on = value.get("on", value.get(True)) if isinstance(value, dict) else None
    if isinstance(on, str):
        return {on: {}}
    if isinstance(on, list):
        return {str(e): {} for e in on}
    if isinstance(on, dict):
        return {str(e): (f if isinstance(f, dict) else {}) for e, f in on.items()}
    return {}


def _list(value: Any) -> list[str] | None:
    if value is None:
        return None
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]
