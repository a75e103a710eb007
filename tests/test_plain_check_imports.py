"""What a plain `drafterlint check` imports (issue 39, cold): every module costs every run its
import, and what other commands, formats or flags need is imported where they need it. A fresh
interpreter, as the console script's, runs a first check in a git checkout of the example."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import subprocess
import sys

from tests.helpers import example_git_repos, git, git_commit_all
from tests.helpers.imported import FRONT_AND_TRACE

# What only other commands (fix, baseline, audit, sync), other report formats, a change's base
# (--base-ref, --hook), the model hub, the GitHub API or git history need; GitPython and requests are imported
# inside the functions that use them, and nothing of a plain check starts a process.
NOT_FOR_A_PLAIN_CHECK = (
    "drafterlint.fix", "drafterlint.baseline", "drafterlint.audit", "drafterlint.auditstate",
    "drafterlint.audit_tracking", "drafterlint.sync", "drafterlint.docs", "drafterlint.baserun",
    "drafterlint.basetree", "drafterlint.renames", "drafterlint.gitops", "drafterlint.review",
    "drafterlint.hub", "drafterlint.githubapi", "drafterlint.retrying", "drafterlint.answers",
    "drafterlint.report.json_report", "drafterlint.report.sarif_report", "drafterlint.report.github_report",
    "drafterlint.report.markdown_report", "drafterlint.report.rdjson_report", "drafterlint.report.audit_markdown",
    "git", "requests", "urllib3", "subprocess",
    # git history (the audit's) and the comparison of how a base invoked the check (DL901, --base-ref)
    "drafterlint.history", "drafterlint.checks._invocations",
    # what each rule found, kept for a base (--base-ref)
    "drafterlint.checks._ran",
    # a configured pattern's CPU budget asks signal.signal whether this is the main thread
    "threading",
    # what a help formatter of the terminal's width imports (argparse asks shutil its size), and a
    # hook's hint (shutil.which); zlib, bz2 and lzma come with it
    "shutil", "bz2", "lzma",
)


def _plain_check_modules(tmp_path, *flags: str) -> list[str]:
    """The modules a first plain check of the example (with `flags`) imports, in a fresh interpreter."""
    rules, registry = example_git_repos(tmp_path)
    trace = tmp_path / "modules.json"
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}
    env.pop("CI", None), env.pop("GITHUB_ACTIONS", None), env.pop("DRAFTERLINT_FORMAT", None)
    proc = subprocess.run([sys.executable, "-c", FRONT_AND_TRACE, str(trace), "check", "--rules-repo", str(rules),
                           "--registry-repo", str(registry), *flags],
                          cwd=rules, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr  # the example's planted defects
    assert "error(s)" in proc.stdout  # the text report
    modules = json.loads(trace.read_text())
    assert "drafterlint.engine" in modules and "drafterlint.report.text_report" in modules  # it ran
    return modules


# The start of a script given a JSON file of module names (sys.argv[1]): every module that is
# not drafterlint's imported first, so that what is counted next is drafterlint's own.
OTHERS_FIRST = (
    "modules = json.loads(open(sys.argv[1]).read())\n"
    "for name in modules:\n"
    "    if name.split('.')[0] not in ('drafterlint', '__main__'):\n"
    "        try:\n"
    "            importlib.import_module(name)\n"
    "        except ImportError:\n"
    "            pass\n"
)


# `python -c COMPILED_AT_IMPORT MODULES`: imports the modules named in the JSON file MODULES,
# drafterlint's last, and prints (as JSON) the file and line in drafterlint of each regular
# expression compiled while drafterlint's were imported.
COMPILED_AT_IMPORT = (
    "import importlib, json, sys\n"
    "try:\n"
    "    import re._compiler as compiler\n"
    "except ImportError:  # Python 3.10\n"
    "    import sre_compile as compiler\n"
    + OTHERS_FIRST +
    "compile_, found = compiler.compile, []\n"
    "def counted(pattern, flags=0):\n"
    "    frame = sys._getframe(1)\n"
    "    while frame is not None and '/drafterlint/' not in frame.f_code.co_filename.replace('\\\\', '/'):\n"
    "        frame = frame.f_back\n"
    "    if frame is not None:\n"
    "        found.append(f'{frame.f_code.co_filename}:{frame.f_lineno}')\n"
    "    return compile_(pattern, flags)\n"
    "compiler.compile = counted\n"
    "for name in modules:\n"
    "    if name.startswith('drafterlint'):\n"
    "        importlib.import_module(name)\n"
    "print(json.dumps(found))\n"
)


def test_a_plain_check_imports_only_what_it_runs(tmp_path):
    modules = _plain_check_modules(tmp_path)
    unneeded = sorted(m for m in modules if m in NOT_FOR_A_PLAIN_CHECK or m.startswith(
        tuple(f"{n}." for n in NOT_FOR_A_PLAIN_CHECK)))
    assert unneeded == []


def test_a_check_without_the_cache_imports_no_hashlib(tmp_path):
    """Nothing of a `--no-cache` check hashes (the front works out no key for it, the cache is
    off), so hashlib, whose import loads OpenSSL, is imported where a digest is made."""
    modules = _plain_check_modules(tmp_path, "--no-cache")
    assert not {"hashlib", "_hashlib"} & set(modules)


def test_the_hook_of_a_commit_that_leaves_the_configuration_alone_does_not_validate_it_again(tmp_path):
    """A commit's hook compares the configuration file at HEAD and in the commit (DL901) only
    where they differ: validating both versions imports jsonschema (about a tenth of a plain
    check), which every commit paid although its run's own configuration was validated before."""
    rules, registry = example_git_repos(tmp_path)
    (rules / ".drafterlint.yaml").write_text(f"registry:\n  path: {registry}\nfail_on: warning\n")
    git_commit_all(rules, "2026-08-02", "configure")
    trace = tmp_path / "modules.json"
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}
    env.pop("CI", None), env.pop("GITHUB_ACTIONS", None), env.pop("DRAFTERLINT_FORMAT", None)

    def hook() -> tuple[subprocess.CompletedProcess, list[str]]:
        proc = subprocess.run([sys.executable, "-c", FRONT_AND_TRACE, str(trace), "check", "--hook"],
                              cwd=rules, env=env, capture_output=True, text=True, timeout=120)
        return proc, json.loads(trace.read_text())

    def commit_edit(old: str, new: str, name: str = "endpoints_rules.md") -> None:
        path = rules / name
        path.write_text(path.read_text().replace(old, new, 1))
        git(rules, "add", "--all")

    first, _ = hook()  # the contributor's earlier commit: the configuration's validation is kept
    assert first.returncode == 0, first.stdout + first.stderr
    commit_edit("\n", "\nA sentence the commit adds.\n")
    proc, modules = hook()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "drafterlint.baserun" in modules  # it compared with HEAD
    assert "jsonschema" not in modules

    # A commit that does change the file is compared, and told (DL901 on a raised fail_on)
    commit_edit("fail_on: warning", "fail_on: error", ".drafterlint.yaml")
    proc, modules = hook()
    assert "DL901" in proc.stdout, proc.stdout + proc.stderr
    assert "jsonschema" in modules


def test_importing_what_a_plain_check_runs_compiles_none_of_its_patterns(tmp_path):
    """A module's patterns are compiled where first used (drafterlint.lazyre): on a run with one
    document changed most of the block parser's are never used, and compiling them all at import
    cost as much as parsing the changed section."""
    listed = tmp_path / "listed.json"
    listed.write_text(json.dumps(_plain_check_modules(tmp_path)))
    proc = subprocess.run([sys.executable, "-c", COMPILED_AT_IMPORT, str(listed)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


# `python -c CODE_COMPILED_AT_IMPORT MODULES`: imports the modules named in the JSON file MODULES,
# drafterlint's last, and prints (as JSON) the name of each piece of source compiled while
# drafterlint's were imported that is no module file: a method a dataclass generated, a
# docstring `dataclasses` made from inspect.signature, anything given to exec or eval.
CODE_COMPILED_AT_IMPORT = (
    "import importlib, json, os, sys\n"
    + OTHERS_FIRST +
    "found = []\n"
    # (Python 3.13's dataclasses compile one empty builder a class: the stdlib's, no method)
    "EMPTY = (b'def __create_fn__():\\n\\n return ()', 'def __create_fn__():\\n\\n return ()')\n"
    "def hook(event, args):\n"
    "    if event == 'compile' and not os.path.isfile(str(args[1])) and args[0] not in EMPTY:\n"
    "        found.append(str(args[1]))\n"
    "sys.addaudithook(hook)\n"
    "for name in modules:\n"
    "    if name.startswith('drafterlint'):\n"
    "        importlib.import_module(name)\n"
    "print(json.dumps(found))\n"
)


def test_importing_what_a_plain_check_runs_compiles_no_code(tmp_path):
    """The records of a plain check's modules are made without compiling a method
    (drafterlint.records: `dataclasses` compiled 382 then, about 90 ms, a quarter of a run with
    one document changed); a record's constructor is compiled when it is first called, which for
    the few declarations built at import (a rule's `Rule`, `Example`, `Option`) is then."""
    listed = tmp_path / "listed.json"
    modules = _plain_check_modules(tmp_path)
    listed.write_text(json.dumps(modules))
    proc = subprocess.run([sys.executable, "-c", CODE_COMPILED_AT_IMPORT, str(listed)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    compiled = json.loads(proc.stdout)
    # only the constructors of records built at import (a rule's declarations), each once
    assert [c for c in compiled if not c.startswith("<record ")] == [], compiled
    assert len(compiled) == len(set(compiled)) and len(compiled) < 10, compiled
    classes = [cls for name in modules if name.startswith("drafterlint")
               for cls in vars(importlib.import_module(name)).values()
               if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == name]
    assert len(classes) > 80 and all(hasattr(cls, "__record_params__") for cls in classes)
