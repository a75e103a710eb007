"""Check a built distribution before anyone installs it: python .ci/check_dist.py DIST [--tag vX.Y.Z]

DIST holds what `python -m build` made: one sdist and one wheel of the version declared in
src/drafterlint/__init__.py (the one version source). The wheel must carry what an installed
drafterlint reads at run time (the JSON Schemas, the regular-expression programs, py.typed for
type checkers, the licence) and nothing of the repository's own (tests, fixtures, benchmarks). With --tag, the tag a release was
pushed for must name that same version, so a tag can never publish another version's files.
Standard library only: the release workflow runs it before installing anything else.
"""

from __future__ import annotations

import argparse
import re
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "drafterlint"


def declared_version() -> str:
    text = (ROOT / "src" / NAME / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"$', text, re.M)
    if not found:
        sys.exit(f"src/{NAME}/__init__.py declares no __version__ = \"X.Y.Z\"")
    return found.group(1)


def wheel_problems(wheel: Path, version: str) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        info = f"{NAME}-{version}.dist-info"
        metadata = zf.read(f"{info}/METADATA").decode("utf-8") if f"{info}/METADATA" in names else ""
    problems = []
    schemas = sorted(p.name for p in (ROOT / "schemas").glob("*.json"))
    tables = sorted(p.name for p in (ROOT / "src" / NAME / "reprograms").glob("*.bin"))
    required = [f"{NAME}/py.typed", f"{NAME}/__init__.py", f"{info}/licenses/LICENSE",
                *(f"{NAME}/schemas/{s}" for s in schemas), *(f"{NAME}/reprograms/{t}" for t in tables)]
    problems += [f"missing {n}" for n in required if n not in names]
    # The repository's own folders (tests, fixtures, benchmarks) are outside the package; a
    # tests folder moved inside it would still be caught.
    problems += [f"ships {n}" for n in sorted(names)
                 if not n.startswith((f"{NAME}/", f"{info}/")) or "/tests/" in f"/{n}"]
    if f"Version: {version}\n" not in metadata:
        problems.append(f"METADATA does not say Version: {version}")
    if "License-Expression: Apache-2.0\n" not in metadata:
        problems.append("METADATA has no License-Expression: Apache-2.0 (PEP 639)")
    return problems


def sdist_problems(sdist: Path, version: str) -> list[str]:
    top = f"{NAME}-{version}/"
    with tarfile.open(sdist) as tf:
        names = set(tf.getnames())
    required = [f"{top}PKG-INFO", f"{top}pyproject.toml", f"{top}LICENSE", f"{top}src/{NAME}/__init__.py"]
    return [f"missing {n}" for n in required if n not in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path)
    parser.add_argument("--tag", help="the pushed release tag, vX.Y.Z")
    args = parser.parse_args()
    version = declared_version()
    if args.tag is not None and args.tag != f"v{version}":
        sys.exit(f"tag {args.tag} does not name the declared version {version} (expected v{version})")
    wheels = sorted(args.dist.glob("*.whl"))
    sdists = sorted(args.dist.glob("*.tar.gz"))
    expected_wheel = f"{NAME}-{version}-py3-none-any.whl"
    expected_sdist = f"{NAME}-{version}.tar.gz"
    if [w.name for w in wheels] != [expected_wheel] or [s.name for s in sdists] != [expected_sdist]:
        sys.exit(f"{args.dist}: expected exactly {expected_wheel} and {expected_sdist}, found "
                 f"{[p.name for p in wheels + sdists]}")
    problems = [f"{wheels[0].name}: {p}" for p in wheel_problems(wheels[0], version)]
    problems += [f"{sdists[0].name}: {p}" for p in sdist_problems(sdists[0], version)]
    for line in problems:
        print(line, file=sys.stderr)
    if problems:
        return 1
    print(f"dist: {expected_wheel} and {expected_sdist} hold what they should")
    return 0


if __name__ == "__main__":
    sys.exit(main())
