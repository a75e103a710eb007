"""The regular-expression programs shipped ahead of time (drafterlint.reprograms, issue 39): each is
the one the running interpreter's compiler makes, a table is used only by the interpreter it was
made for, and checking the bundled examples compiles no pattern."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata

import pytest

from drafterlint import reprograms
from tests.helpers import ROOT

TABLE = reprograms.read()
needs_table = pytest.mark.skipif(
    TABLE is None, reason=f"no table for this interpreter ({reprograms.fingerprint()}): tools/regex_programs.py makes one")

try:
    import re._compiler as compiler
except ImportError:  # Python 3.10
    import sre_compile as compiler  # type: ignore[no-redef]

# `python -c INSTALLED_THEN_COUNTED ARGS...`: the console script's entry with the table installed
# first, printing (as JSON, last line of stderr) each pattern compiled after that.
INSTALLED_THEN_COUNTED = (
    "import json, sys\n"
    "try:\n"
    "    import re._compiler as compiler\n"
    "except ImportError:\n"
    "    import sre_compile as compiler\n"
    "from drafterlint import reprograms\n"
    "installed = reprograms.install()\n"
    "compile_, found = compiler.compile, []\n"
    "def counted(pattern, flags=0):\n"
    "    found.append([repr(pattern)[:120], int(flags)])\n"
    "    return compile_(pattern, flags)\n"
    "compiler.compile = counted\n"
    "from drafterlint.front import main\n"
    "try:\n"
    "    code = main()\n"
    "finally:\n"
    "    print(json.dumps({'installed': installed, 'compiled': found}), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def _compiled_after_install(tmp_path, *argv: str) -> dict:
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}
    env.pop("CI", None), env.pop("GITHUB_ACTIONS", None), env.pop("DRAFTERLINT_FORMAT", None)
    proc = subprocess.run([sys.executable, "-c", INSTALLED_THEN_COUNTED, "check", "--exit-zero", *argv],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stderr.strip().splitlines()[-1])


@needs_table
def test_every_program_is_the_one_the_running_compiler_makes():
    rows = TABLE["programs"]
    assert len(rows) > 150
    for row in rows:
        pattern, asked, *_ = row
        made = reprograms.pattern_of(row)
        fresh = compiler.compile(pattern, asked)
        # (a pattern's equality compares its source, flags and the program's every code)
        assert made == fresh and made.groupindex == fresh.groupindex and made.groups == fresh.groups, pattern
        assert reprograms.program(pattern, asked) == tuple(row), pattern


@needs_table
@pytest.mark.parametrize("argv", [
    ("--no-cache", "--rules-repo", "rules_fixtures/example/rules", "--registry-repo", "rules_fixtures/example/endpoints"),
    ("--rules-repo", "rules_fixtures/crossval/rules", "--registry-repo", "rules_fixtures/crossval/registry",
     "--format", "json"),
], ids=["example", "crossval-json-cached"])
def test_checking_the_examples_compiles_no_pattern(tmp_path, argv):
    """Every pattern a check of the examples meets is in the table: a pattern changed or added
    since the table was made is compiled every run until tools/regex_programs.py is run again."""
    if TABLE["dependencies"] != {dist: metadata.version(dist) for dist in TABLE["dependencies"]}:
        pytest.skip(f"the table was made with {TABLE['dependencies']}")
    result = _compiled_after_install(tmp_path, *argv)
    assert result["installed"] > 150  # (less the few the interpreter's start compiled before)
    assert result["compiled"] == [], "run tools/regex_programs.py on this interpreter: " + repr(result["compiled"])


def test_a_console_run_installs_the_table_once_it_does_not_answer_from_the_cache(tmp_path):
    """The front installs the programs only for a full run: a run it answers from the cache
    (warm) compiles next to nothing and would only pay for reading the table."""
    probe = ("import json, sys, re\n"
             "from drafterlint import front, reprograms\n"
             "seen = []\n"
             "real = reprograms.install\n"
             "reprograms.install = lambda *a: seen.append(real(*a)) or seen[-1]\n"
             "code = front.main()\n"
             "print(json.dumps(seen), file=sys.stderr)\n")
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}
    env.pop("CI", None), env.pop("GITHUB_ACTIONS", None), env.pop("DRAFTERLINT_FORMAT", None)
    argv = ["check", "--exit-zero", "--rules-repo", "rules_fixtures/example/rules",
            "--registry-repo", "rules_fixtures/example/endpoints"]

    def run() -> list:
        proc = subprocess.run([sys.executable, "-c", probe, *argv], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stderr.strip().splitlines()[-1])

    first, warm = run(), run()
    # (the few patterns the front compiled before are kept, not replaced)
    assert len(first) == 1 and (0 < first[0] <= len(TABLE["programs"]) if TABLE else first[0] == 0), first
    assert warm == []  # answered by the front before anything is compiled


def _in_fresh_interpreter(code: str, *args: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_installing_loads_no_hash_library():
    """The table is named by zlib's checksums: hashlib would load OpenSSL (some 3 ms) into a
    run that may need no digest."""
    out = _in_fresh_interpreter("import sys\nfrom drafterlint import reprograms\nreprograms.install()\n"
                                "print(sorted(m for m in ('hashlib', '_hashlib') if m in sys.modules))")
    assert out == "[]"


def test_a_folder_without_this_interpreters_table_installs_nothing(tmp_path):
    (tmp_path / "cpython311-0000000000.bin").write_bytes(b"not this interpreter's")
    out = _in_fresh_interpreter("import sys, re\nfrom drafterlint import reprograms\n"
                                "n = reprograms.install(sys.argv[1])\n"
                                "print(n, re.compile('(a)|b').match('b').group(0))", str(tmp_path))
    assert out == "0 b"


@pytest.mark.parametrize("damage", ["not zlib", "not marshal", "another fingerprint", "not a table"])
def test_a_damaged_table_installs_nothing(tmp_path, damage):
    import marshal
    import zlib

    name = reprograms.fingerprint()
    if name is None:
        pytest.skip("this interpreter names no table")
    data = {"not zlib": b"\x00garbage",
            "not marshal": zlib.compress(b"\xff\xfe\xfd"),
            "another fingerprint": zlib.compress(marshal.dumps({"fingerprint": "cpython0-x", "programs": []}, 2)),
            "not a table": zlib.compress(marshal.dumps([1, 2, 3], 2))}[damage]
    (tmp_path / f"{name}.bin").write_bytes(data)
    assert reprograms.read(str(tmp_path)) is None
    out = _in_fresh_interpreter("import sys\nfrom drafterlint import reprograms\nprint(reprograms.install(sys.argv[1]))",
                                str(tmp_path))
    assert out == "0"


def test_a_row_the_matcher_refuses_is_compiled_when_asked_for(tmp_path):
    """Rows are checked by the matcher as it takes them (its own validation of a program); one
    it refuses is left out, and `re.compile` compiles that pattern as without a table."""
    if reprograms.fingerprint() is None:
        pytest.skip("this interpreter names no table")
    import marshal
    import zlib

    good = reprograms.program("(?P<word>[a-z]+)-table", 0)
    refused = ("x(y)z-table", 0, 32, [1, 2, 3], 1, {})  # not a program
    rows = [refused, ("short-row",), good, 7]
    table = {"fingerprint": reprograms.fingerprint(), "programs": rows}
    (tmp_path / f"{reprograms.fingerprint()}.bin").write_bytes(zlib.compress(marshal.dumps(table, 2)))
    out = _in_fresh_interpreter(
        "import sys, re\nfrom drafterlint import reprograms\n"
        "n = reprograms.install(sys.argv[1])\n"
        "p = re.compile('x(y)z-table')\n"
        "print(n, p.match('xyz-table').group(1), re.compile('(?P<word>[a-z]+)-table').match('ab-table')['word'],"
        " re.compile('(?P<word>[a-z]+)-table') is re.compile('(?P<word>[a-z]+)-table'))", str(tmp_path))
    assert out == "1 y ab True"


def test_a_table_is_the_same_bytes_for_the_same_rows_in_any_order():
    if reprograms.fingerprint() is None:
        pytest.skip("this interpreter names no table")
    rows = [reprograms.program(p, f) for p, f in [("b+", 0), (b"a*", 0), ("b+", re.I), ("(?x) c", 0)]]
    assert reprograms.encode(rows, {"d": "1"}) == reprograms.encode(rows[::-1], {"d": "1"})


def test_the_fingerprint_changes_with_the_compilers_source(tmp_path, monkeypatch):
    """Another patch release whose compiler differs by one byte is another table's interpreter."""
    name = reprograms.fingerprint()
    if name is None:
        pytest.skip("this interpreter names no table")
    module = reprograms._compiler_module(reprograms._COMPILER_MODULES[1])
    copy = tmp_path / os.path.basename(module.__file__)
    with open(module.__file__, "rb") as source:
        copy.write_bytes(source.read() + b"\n")
    monkeypatch.setattr(module, "__file__", str(copy))
    assert reprograms.fingerprint() not in (None, name)
    monkeypatch.setattr(module, "__file__", str(copy.with_suffix(".pyc")))  # no source: no table
    assert reprograms.fingerprint() is None


@needs_table
@pytest.mark.slow  # two recording runs of everything the table covers
def test_the_shipped_table_is_what_the_tool_makes(tmp_path):
    """tools/regex_programs.py run now makes the shipped table byte for byte: nothing in it was
    written by hand, and nothing it would add is missing."""
    if TABLE["dependencies"] != {dist: metadata.version(dist) for dist in TABLE["dependencies"]}:
        pytest.skip(f"the table was made with {TABLE['dependencies']}")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS", "DRAFTERLINT_FORMAT")}
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "regex_programs.py"), "--output", str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    name = f"{reprograms.fingerprint()}.bin"
    assert (tmp_path / name).read_bytes() == (ROOT / "src" / "drafterlint" / "reprograms" / name).read_bytes()
