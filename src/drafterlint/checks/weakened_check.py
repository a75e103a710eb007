"""DL901 weakened-check — a change turns the check itself off or down.

A pull request that breaks a link and adds `ignore: [DL2]` to `.drafterlint.yaml` passes: the
link rules no longer run, and nothing says the configuration changed. So on a change with a base
(`check --base-ref`, the hooks, the Action on a pull request or a push), each setting the change
makes that turns checks off or down is itself a finding, at its line of the configuration file,
naming what it turns off and how many of the base's findings it hides (the base checked with
its own configuration, against the base checked with the change's):

- `select` / `ignore`: the codes no longer chosen;
- `severity`: a rule reported lower than before, and `fail_on` raised: the findings that failed
  the check at the base and would not now;
- `rule_options`: an option change that hides findings the base shows;
- any other setting (documents, paths, sections) whose change hides findings the base shows;
- the baseline file: lines the change adds, and the findings of the change they mark
  pre-existing (at the first added line of that file);
- where the check is invoked: on a `pull_request` event GitHub runs the workflow as the pull
  request changed it, so each `.github/workflows/` file is compared too (at the line of the
  setting): the drafterlint step's inputs (`fail-on` raised, `only-new` turned on, another
  `config`, `scope`, `base-ref` or checkout), `--fail-on`/`--ignore`/`--select`/`--exit-zero`
  and `|| true` on a `run: drafterlint check` line, `continue-on-error` or an `if:` on the step
  or its job, the step or job removed, the workflow's `pull_request`/`push` trigger dropped or
  its `branches`/`paths`/`types` narrowed; and so is `.pre-commit-config.yaml`: the drafterlint
  hooks' `args`, when they run (`files`, `exclude`, `stages`), a hook removed.

It answers to the base's configuration, so the change cannot silence it; a weakening that is
meant is said where the reviewer sees it: `# drafterlint: disable=DL901` at the end of the line.
An error by default: a reviewer must see it before merging, and the check stays red until
someone who may accept it does (see docs/maintainers.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from drafterlint.checks._options import read_all
from drafterlint.checks.base import BASE, Context, Example, Rule
from drafterlint.checks.context import BaseState
from drafterlint.findings import Finding, Location, Severity

if TYPE_CHECKING:
    from drafterlint.config import Config

RULE = Rule(
    code="DL901",
    name="weakened-check",
    severity=Severity.ERROR,
    summary="a change turns checks off or down in the configuration, the workflow or the hooks, or grows the baseline",
    needs=frozenset({BASE}),
)

_BROKEN = "# Rules\n\n## 1. Links\n\nSee [gone](#gone) and [missing](#missing).\n"
_WORKFLOW = """\
on: pull_request
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: mlcommons/drafterlint@v0
        with:
          rules-repo: .
          fail-on: warning
"""
EXAMPLES = (
    Example("the change adds a check", {
        "rules:endpoints_rules.md": _BROKEN,
        "base:.drafterlint.yaml": "select: [DL2]\n",
        "rules:.drafterlint.yaml": "select: [DL2, DL1]\n",
    }),
    Example("the change ignores the link rules", {
        "rules:endpoints_rules.md": _BROKEN,
        "base:.drafterlint.yaml": "select: [DL2]\n",
        "rules:.drafterlint.yaml": "select: [DL2]\nignore: [DL201]\n",
    }, expect=(("rules:.drafterlint.yaml", 2, 10),)),
    Example("the change reports broken links as warnings", {
        "rules:endpoints_rules.md": _BROKEN,
        "base:.drafterlint.yaml": "select: [DL2]\n",
        "rules:.drafterlint.yaml": "select: [DL2]\nseverity:\n  DL201: warning\n",
    }, expect=(("rules:.drafterlint.yaml", 3, 3),)),
    Example("the change makes the workflow's drafterlint step stricter", {
        "rules:endpoints_rules.md": _BROKEN,
        "base:.drafterlint.yaml": "select: [DL2]\n",
        "rules:.drafterlint.yaml": "select: [DL2]\n",
        "base:.github/workflows/drafterlint.yml": _WORKFLOW,
        "rules:.github/workflows/drafterlint.yml": _WORKFLOW.replace("warning", "info"),
    }),
    Example("the change lets the workflow's drafterlint step pass on warnings", {
        "rules:endpoints_rules.md": _BROKEN,
        "base:.drafterlint.yaml": "select: [DL2]\n",
        "rules:.drafterlint.yaml": "select: [DL2]\n",
        "base:.github/workflows/drafterlint.yml": _WORKFLOW,
        "rules:.github/workflows/drafterlint.yml": _WORKFLOW.replace("warning", "error"),
    }, expect=(("rules:.github/workflows/drafterlint.yml", 9, 11),)),
    Example("the change lets the job pass whatever the step finds", {
        "rules:endpoints_rules.md": _BROKEN,
        "base:.drafterlint.yaml": "select: [DL2]\n",
        "rules:.drafterlint.yaml": "select: [DL2]\n",
        "base:.github/workflows/drafterlint.yml": _WORKFLOW,
        "rules:.github/workflows/drafterlint.yml": _WORKFLOW.replace("    steps:", "    continue-on-error: true\n"
                                                                     "    steps:"),
    }, expect=(("rules:.github/workflows/drafterlint.yml", 5, 5),)),
)

# Settings compared one by one below; every other setting counts when it hides findings.
_OWN = ("select", "ignore", "severity", "fail_on", "rule_options")


def check(ctx: Context) -> Iterator[Finding]:
    state = ctx.base_state
    now, base = ctx.config, state.config
    shown = {f.fingerprint for f in state.shown}
    hidden = [f for f in state.visible if f.fingerprint not in shown]
    explained: set[str] = set()

    def at(path: tuple) -> Location:
        where = state.config_doc.nearest(path) if state.config_doc is not None else None
        line, column = where or (1, 1)
        file = state.config_file
        assert file is not None, "a configuration change without a configuration file"
        return Location(file.repo, file.path, line, column)

    def hides(found: list[Finding]) -> str:
        explained.update(f.fingerprint for f in found)
        if not found:
            return "it hides none of the base's findings"
        return f"it hides {_count(found)} the base shows"

    codes = sorted(state.severities)
    off = [c for c in codes if base.enabled(c) and not now.enabled(c)]
    for path, label, taken in _turned_off(now, base, off):
        yield RULE.at(at(path), f"`{label}` turns off {_codes(taken)}: {hides([f for f in hidden if f.code in taken])}",
                      suggestion=_MEANT, key=f"off:{label}")
    for code in codes:
        before, after = _severity(base, state, code), _severity(now, state, code)
        if after < before and now.enabled(code):
            failing = [f for f in state.visible if f.code == code and f.severity >= base.fail_on]
            yield RULE.at(at(("severity", code)), f"`severity: {code}: {after}` reports {code} as {after}, not "
                          f"{before}: {_failing(failing, now.fail_on, after)}", suggestion=_MEANT, key=f"severity:{code}")
    if now.fail_on > base.fail_on:
        failing = [f for f in state.visible if base.fail_on <= f.severity < now.fail_on]
        yield RULE.at(at(("fail_on",)), f"`fail_on: {now.fail_on}` no longer fails on {base.fail_on}s: "
                      f"{_failing(failing, now.fail_on, base.fail_on)}",
                      suggestion=_MEANT, key="fail_on")
    # Compared as the rules read them: an option written out at its declared default is no change.
    named = set(now.data.get("rule_options") or {}) | set(base.data.get("rule_options") or {})
    for code in sorted(named):
        lost = [f for f in hidden if f.code == code and f.fingerprint not in explained]
        if lost and read_all(code, now) != read_all(code, base):
            yield RULE.at(at(("rule_options", code)), f"`rule_options: {code}` changed: {hides(lost)}",
                          suggestion=_MEANT, key=f"options:{code}")
    rest = [f for f in hidden if f.fingerprint not in explained]
    changed = [p for p in _changed(now.data, base.data) if p[0] not in _OWN]
    if rest and changed:
        names = ", ".join(".".join(map(str, p)) for p in changed[:3]) + (" …" if len(changed) > 3 else "")
        yield RULE.at(at(changed[0]), f"the change of {names} leaves files or parts unchecked: {hides(rest)}",
                      suggestion=_MEANT, key="settings")
    from drafterlint.checks._invocations import weakenings  # only where a run has a base

    for repo in dict.fromkeys(c.repo for c in state.invoked):
        for weakened in weakenings(c for c in state.invoked if c.repo == repo):
            yield RULE.at(Location(repo, weakened.path, weakened.line, weakened.column), weakened.message,
                          suggestion=_MEANT, key=weakened.key)
    if state.baseline_added:
        from drafterlint.baseline import marked_by  # only where a change grows the baseline

        added = {known.fingerprint for _, known in state.baseline_added}
        marked = marked_by(state.now, state.baseline_kept, [known for _, known in state.baseline_added])
        first = state.baseline_added[0][0]
        yield RULE.at(first, f"the change adds {len(added)} line(s) to the baseline file: they mark "
                      f"{_count(marked) if marked else 'none'} of this change's findings pre-existing",
                      suggestion="a baseline records what was there before; fix what this change "
                                 "introduces instead, or say why in the pull request", key="baseline")


_MEANT = "if it is meant, say so where the reviewer sees it: `# drafterlint: disable=DL901` on this line"


def _turned_off(now: Config, base: Config, off: list[str]) -> Iterator[tuple[tuple, str, list[str]]]:
    """(the key path to point at, how it reads, the codes it turns off) per setting responsible:
    an `ignore` entry the base did not have, else `select`."""
    left = list(off)
    before = [str(c).upper() for c in base.data.get("ignore") or []]
    for index, entry in enumerate(now.data.get("ignore") or []):
        entry = str(entry).upper()
        taken = [c for c in left if c.startswith(entry)]
        if taken and entry not in before:
            left = [c for c in left if c not in taken]
            yield ("ignore", index), f"ignore: {entry}", taken
    if left:
        chosen = ", ".join(str(c).upper() for c in now.data.get("select") or [])
        yield ("select",), f"select: [{chosen}]", left


def _severity(config: Config, state: BaseState, code: str) -> Severity:
    return config.severity_override(code) or state.severities[code]


def _failing(found: list[Finding], fail_on: Severity, after: Severity) -> str:
    if not found:
        return "none of the base's findings failed the check on it"
    if after < fail_on:
        return f"it stops failing the check on {_count(found)} the base shows"
    return f"{_count(found)} the base shows are reported lower"


def _codes(codes: list[str]) -> str:
    return ", ".join(codes[:6]) + (f" and {len(codes) - 6} more" if len(codes) > 6 else "")


def _count(found: Iterable[Finding]) -> str:
    found = list(found)
    by = Counter(str(f.severity) for f in found)
    detail = ", ".join(f"{n} {sev}{'s' if n > 1 and sev != 'info' else ''}" for sev, n in sorted(by.items()))
    return f"{len(found)} finding{'s' if len(found) != 1 else ''} ({detail})"


def _changed(now: Any, base: Any, path: tuple = ()) -> list[tuple]:
    """The key paths whose values differ between two configuration mappings."""
    if isinstance(now, dict) and isinstance(base, dict):
        out: list[tuple] = []
        for key in sorted(set(now) | set(base), key=str):
            out += _changed(now.get(key), base.get(key), (*path, key))
        return out
    return [path] if now != base else []
