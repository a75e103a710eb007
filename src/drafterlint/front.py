"""The command line's front (the console script's entry): a `check` whose every input is unchanged
since a run that stored its output prints that output before argparse, dataclasses, the
configuration, the engine or the reports are imported: a warm run at the interpreter's floor.

A full run that the front can answer next time (drafterlint.commands.check says which: a plain
check, no flag that writes files, asks git or works out fixes) stores, as a `front-` entry of the
cache, what it printed on each stream and its exit status, keyed by the invocation: the
arguments, the working directory, the environment and the interpreter. A later run with that key
derives the run's key the way the full run does (drafterlint.inputs: the configuration file
found and what its bytes validated to, the repositories located, the date), and prints the
stored output only when that key is the stored one, every listing and file the run read is
unchanged, and so is every other input of the printed report (`probes`: the folders the
repository under change and the repositories' names resolve through, the baseline file).
Anything else (another command, a missing or damaged entry, a configuration not validated before,
an input the front cannot derive) is a full run, which may store an entry for next time: a doubt
is never answered from the cache.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

from drafterlint import inputs

# Variables a shell changes between two identical commands, which nothing of drafterlint reads.
SHELL_STATE = frozenset({"_", "OLDPWD", "SHLVL"})

_KEY: str | None = None  # this process's invocation key, once derived


def invocation_key(argv: list[str]) -> str:
    env = sorted((k, v) for k, v in os.environ.items() if k not in SHELL_STATE)
    streams = [[getattr(s, "encoding", None), getattr(s, "errors", None)] for s in (sys.stdout, sys.stderr)]
    return inputs.key("front", list(argv), os.getcwd(), env, sys.executable, list(sys.flags), streams)


def _store() -> Any:
    from drafterlint.cache_store import Store

    return Store(os.path.join(inputs.cache_root(), "check-cache"))


# -- answering --------------------------------------------------------------------------------


def _run_key(given: dict, store: Any) -> str | None:
    """The run's key for the options `given`, derived as steps.setup derives the full run's
    (None: not derivable here)."""
    from drafterlint.config_defaults import DEFAULTS, deep_merge

    cwd = os.getcwd()
    found = inputs.find_config(cwd)
    if found is None:
        data, source, base_dir = deep_merge(DEFAULTS, {}), None, cwd
    else:
        if not inputs.within(found, inputs.holder(found)):
            return None
        with open(found, "rb") as fh:
            raw = fh.read()
        entry = store.load(inputs.config_entry_name(raw))
        if not isinstance(entry, dict) or entry.get("format") != inputs.FORMAT or not isinstance(entry.get("data"), dict):
            return None
        known = entry["data"]
        registry = known.get("registry")
        if isinstance(registry, dict) and registry.get("extra_lists"):
            return None  # their containment is the full run's to check
        data, source, base_dir = deep_merge(DEFAULTS, known), found, os.path.dirname(found)
    roots = {}
    for which in ("rules", "registry"):
        root, _, refused = inputs.locate(data, base_dir, which, given[f"{which}_repo"], cwd)
        if refused:
            return None
        roots[which] = root
    if roots["rules"] is None and roots["registry"] is None:
        return None
    today = given["today"]
    if today is not None:
        import datetime

        today = datetime.date.fromisoformat(today).isoformat()
    return inputs.run_key({"config": inputs.config_form(data, source, base_dir), "rules_dir": roots["rules"],
                           "registry_dir": roots["registry"], "today": today})


def serve(argv: list[str]) -> int | None:
    """The stored answer's exit status, printed; None when there is none to trust."""
    global _KEY
    # Not in CI: a job's environment is new each run, and its cache may have been restored from
    # elsewhere, where the front would print a stored text as it is.
    if os.name != "posix" or not argv or argv[0] != "check" or os.environ.get("DRAFTERLINT_NO_CACHE") or inputs.in_ci():
        return None
    # A run with --no-cache stores no answer (commands._offer_front), so none is found for it,
    # and its key costs the tool's fingerprint (every file of the package and its dependencies
    # listed, stat'ed and hashed), which such a run needs nowhere else.
    if "--no-cache" in (argv[:argv.index("--")] if "--" in argv else argv):
        return None
    try:
        _KEY = invocation_key(argv)
        store = _store()
        try:
            entry = store.load(f"front-{_KEY}.json")
            if not isinstance(entry, dict) or entry.get("format") != inputs.FORMAT:
                return None
            if _run_key(entry["given"], store) != entry["run"]:
                return None
        finally:
            store.close()
        if inputs.changed_input(entry["trees"], entry["files"], {}, []) is not None:
            return None
        if any(inputs.probe(kind, arg) != result for kind, arg, result in entry["probes"]):
            return None
        out, err, status = entry["stdout"], entry["stderr"], entry["status"]
        if not (isinstance(out, str) and isinstance(err, str) and status in (0, 1)):
            return None
    except Exception:  # an entry or an input that does not fit: the full run decides
        return None
    try:
        sys.stderr.write(err)
        sys.stderr.flush()
        sys.stdout.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        from drafterlint.cli import EXIT_PIPE, stdout_to_devnull

        stdout_to_devnull()
        return EXIT_PIPE
    return int(status)


# -- storing ----------------------------------------------------------------------------------


class _Tee:
    """A stream that keeps what is written through it."""

    def __init__(self, stream: Any):
        self.stream = stream
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        n = self.stream.write(text)
        self.parts.append(text)
        return n

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def main(argv: list[str] | None = None) -> int:
    """The console script: the stored answer when one can be trusted, else drafterlint.cli."""
    if argv is None:
        args = sys.argv[1:]
        status = serve(args)
        if status is not None:
            return status
    from drafterlint import reprograms

    reprograms.install()
    from drafterlint.cli import main as full

    if argv is not None or _KEY is None:
        return full(argv)
    inputs.OFFERED = None
    out, err = _Tee(sys.stdout), _Tee(sys.stderr)
    sys.stdout, sys.stderr = out, err
    try:
        status = full(None)
    finally:
        sys.stdout, sys.stderr = out.stream, err.stream
    if inputs.OFFERED is not None and status in (0, 1):
        store = _store()
        store.save(f"front-{_KEY}.json", {**inputs.OFFERED, "format": inputs.FORMAT, "stdout": "".join(out.parts),
                                          "stderr": "".join(err.parts), "status": status})
        store.close()
    return status


def console() -> None:
    """The console script and `python -m drafterlint`: main's status is the process's, and the
    interpreter's teardown is skipped. A run ends holding everything it built (documents'
    models, a base's too, the parser's states in reference cycles the command line never
    collects, cli.main); freeing them one object at a time at exit cost a cold run 1 % and a
    pull request's run 2 % of their instructions, for nothing: the process ends there, every
    file it writes is closed before (safeio), its threads are daemons. What it printed is
    flushed first; where that fails (a closed pipe), the interpreter's own exit reports it, as
    before. The cyclic collector is off for the whole run (drafterlint.cli says why) from here,
    before the imports: they made it scan everything made so far some 30 times (1 % of a run's
    instructions)."""
    gc.disable()
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(status)
    os._exit(status)
