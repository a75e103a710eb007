"""Make the table of regular-expression programs drafterlint ships for the interpreter running
this script (src/drafterlint/reprograms/, the package's docstring says why and when a table is
used).

    python tools/regex_programs.py          # from the repository, with its dependencies installed

The table holds every pattern compiled while drafterlint imports all its modules, uses each of
its lazily compiled module patterns once, and checks the bundled examples (rules_fixtures/) and a
document written here with every block kind at every list indent (mistune compiles a list-break
scanner per indent) in every report format. Run it on each supported interpreter (3.10 to 3.13)
after a change to a pattern or a dependency: tests/test_reprograms.py says when a table is
missing a pattern the examples compile, and compares every program with the running compiler's.
A table named for an interpreter no longer supported can be deleted.
"""

from __future__ import annotations

# Only re and sys before the recording starts: a module imported first could compile a pattern
# at import (gettext does, under argparse) that the run compiles and the table would then lack.
import re
import sys

_ASKED: set[tuple] = set()
_compile = re._compile  # type: ignore[attr-defined]


def _recording(pattern, flags):
    if isinstance(pattern, (str, bytes)):
        _ASKED.add((type(pattern), pattern, int(flags)))
    return _compile(pattern, flags)


re._compile = _recording  # type: ignore[attr-defined]

import argparse  # noqa: E402
import contextlib  # noqa: E402
import importlib  # noqa: E402
import io  # noqa: E402
import marshal  # noqa: E402
import os  # noqa: E402
import pkgutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
from importlib import metadata  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "rules_fixtures"

# Every block kind mistune scans for, inside and after list items at each indent it compiles a
# scanner for (a marker indented 0 to 3 spaces, bullets and ordered).
_EVERY_BLOCK = """# 1. Title

Text with *emphasis*, __strong__, `code`, a [link](#1-title), <https://example.com>, a
footnote[^1], an ![image](x.png "t") and <span>html</span>.

[^1]: The note.

> quote
> - list in a quote
>   > quote in a list in a quote
> 1. ordered in a quote

| a | b |
|---|---|
| [c](#1-title) | d |

> [!NOTE]
> An alert.

    indented code

<!-- drafterlint-disable-next-line DL201 -->
Setext
------

---
"""
# A list of each marker at each indent, each item holding every block kind.
_ITEM_BODY = ["> quote", "```", "code", "```", "<div>", "html", "</div>", "# heading", "***",
              "| a | b |", "|---|---|", "| c | d |", "text"]
_EVERY_BLOCK += "".join(
    "\n" + "".join(f"{' ' * indent}{marker} item\n" + "".join(f"{' ' * (indent + len(marker) + 1)}{line}\n" for line in _ITEM_BODY)
                    + f"{' ' * indent}{marker} second item\nlazy line\n" for indent in range(4))
    for marker in ("-", "*", "+", "1.", "1)"))


def _use_module_patterns() -> None:
    import drafterlint
    from drafterlint import lazyre

    for module in pkgutil.walk_packages(drafterlint.__path__, "drafterlint."):
        if module.name.endswith("__main__"):
            continue
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            places = [value, *vars(value).values()] if isinstance(value, type) else [value]
            for place in places:
                if isinstance(place, lazyre.Lazy):
                    place.search(place.pattern[:0])


def _check(*argv: str) -> None:
    from drafterlint import cli

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            cli.main(["check", "--exit-zero", *argv])
        except SystemExit:
            pass


def _run_examples(work: Path) -> None:
    """Check each bundled example in every format, then with a cache: filled, and read back
    with one document changed."""
    example = FIXTURES / "example"
    pairs = [(example / "rules", example / "endpoints"),
             (FIXTURES / "crossval" / "rules", FIXTURES / "crossval" / "registry"),
             *((FIXTURES / "eras" / era / "rules", FIXTURES / "eras" / "registry") for era in ("v1", "designated", "wip")),
             *((example / "rules", case) for case in sorted((FIXTURES / "registry_cases").iterdir()))]
    every = work / "every" / "rules"
    every.mkdir(parents=True)
    (every / "endpoints_rules.md").write_text(_EVERY_BLOCK, encoding="utf-8")
    pairs.append((every, example / "endpoints"))
    for rules, registry in pairs:
        for report_format in ("text", "json", "github", "sarif", "markdown", "rdjson"):
            _check("--no-cache", "--rules-repo", str(rules), "--registry-repo", str(registry), "--format", report_format)
    os.environ["DRAFTERLINT_CACHE"] = str(work / "cache")
    for edit in ("", "\nA paragraph added.\n"):
        with open(every / "endpoints_rules.md", "a", encoding="utf-8") as f:
            f.write(edit)
        _check("--rules-repo", str(every), "--registry-repo", str(example / "endpoints"))


# The distributions whose patterns a table holds besides drafterlint's (recorded in it: the tests
# compare a table with this script's output only where the same releases are installed).
DEPENDENCIES = ("mistune", "PyYAML", "jsonschema")


def _record(output: Path) -> None:
    """Run everything the table covers and write what was compiled to `output` (marshal)."""
    sys.path.insert(0, str(ROOT / "src"))
    os.environ.pop("DRAFTERLINT_FORMAT", None)
    _use_module_patterns()
    with tempfile.TemporaryDirectory() as work:
        _run_examples(Path(work))
    from drafterlint import safeio

    asked = [(pattern, flags) for _type, pattern, flags in _ASKED if not flags & re.DEBUG]
    safeio.write_file(output, marshal.dumps(asked), within=output.parent, what="recording")


def _asked_under(seeds: tuple[str, ...], work: Path) -> set[tuple]:
    """The patterns compiled by a recording run under each hash seed, kept where all agree: a
    pattern made from a set's order (tokenize's string prefixes) differs every process and would
    never be asked for as recorded."""
    runs = []
    for seed in seeds:
        out = work / f"asked-{seed}"
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
        runs.append((out, subprocess.Popen([sys.executable, __file__, "--record", str(out)],
                                           env={**env, "PYTHONHASHSEED": seed})))
    asked = []
    for out, proc in runs:
        if proc.wait() != 0:
            raise SystemExit(f"recording under PYTHONHASHSEED failed (exit {proc.returncode})")
        asked.append(set(marshal.loads(out.read_bytes())))
    return set.intersection(*asked)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=ROOT / "src" / "drafterlint" / "reprograms",
                        help="the folder to write the table in (default: the package's)")
    parser.add_argument("--record", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.record:
        _record(args.record)
        return 0
    sys.path.insert(0, str(ROOT / "src"))
    from drafterlint import reprograms, safeio

    name = reprograms.fingerprint()
    if name is None:
        print("this interpreter names no table (not CPython, or its re sources are missing)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as work:
        asked = _asked_under(("1", "2"), Path(work))
    rows = [reprograms.program(pattern, flags) for pattern, flags in asked]
    target = args.output / f"{name}.bin"
    versions = {dist: metadata.version(dist) for dist in DEPENDENCIES}
    safeio.write_file(target, reprograms.encode(rows, versions), within=args.output, what="table")
    print(f"{target}: {len(rows)} programs for Python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
