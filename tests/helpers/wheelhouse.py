"""A local wheelhouse, so that pre-commit can install the hook with no package index.

pre-commit installs a `language: python` hook with `pip install .` into a fresh virtualenv: pip
needs setuptools to build this project and a wheel of every runtime dependency. Both come from
what is already installed here: each dependency's installed files (its RECORD) are packed back
into a wheel, and setuptools is the wheel virtualenv embeds (or, failing that, the installed one
packed the same way). With PIP_NO_INDEX=1 and PIP_FIND_LINKS=<wheelhouse> (`offline_pip_env`)
pip then resolves everything from that folder.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as md
import re
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# What installers add to a dist-info folder; a wheel carries none of it (RECORD is rewritten).
_INSTALLER_FILES = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def runtime_closure(project: str) -> list[md.Distribution]:
    """The installed distributions `project` needs at run time (itself excluded), each once."""
    seen: dict[str, md.Distribution] = {}
    todo = list(md.requires(project) or [])
    while todo:
        req = Requirement(todo.pop())
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        key = canonicalize_name(req.name)
        if key in seen:
            continue
        dist = md.distribution(req.name)
        seen[key] = dist
        todo.extend(dist.requires or [])
    return sorted(seen.values(), key=lambda d: canonicalize_name(d.metadata["Name"]))


def _tags(wheel_text: str) -> str:
    """The compressed tag of a wheel's file name (`py2.py3-none-any`) from its WHEEL file."""
    parts: list[list[str]] = [[], [], []]
    for line in wheel_text.splitlines():
        if line.startswith("Tag:"):
            for seen, piece in zip(parts, line.split(":", 1)[1].strip().split("-")):
                if piece not in seen:
                    seen.append(piece)
    if not parts[0]:
        raise ValueError("WHEEL names no tag")
    return "-".join(".".join(p) for p in parts)


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def repack(dist: md.Distribution, dest: Path) -> Path:
    """Pack an installed distribution's files (as its RECORD lists them) back into a wheel."""
    files = [f for f in dist.files or [] if not str(f).startswith("..")
             and "__pycache__" not in f.parts and f.suffix != ".pyc"]
    info = next((f.parts[0] for f in files if len(f.parts) == 2 and f.parts[0].endswith(".dist-info")
                 and f.name == "WHEEL"), None)
    if info is None:
        raise RuntimeError(f"{dist.metadata['Name']}: no WHEEL in its installed files, cannot repack")
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    tag = _tags(Path(dist.locate_file(f"{info}/WHEEL")).read_text(encoding="utf-8"))
    target = dest / f"{name}-{dist.version}-{tag}.whl"
    record = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as whl:
        for f in files:
            if f.parts[0] == info and f.name in _INSTALLER_FILES:
                continue
            data = Path(dist.locate_file(f)).read_bytes()
            arcname = f.as_posix()
            whl.writestr(arcname, data)
            record.append(f"{arcname},{_digest(data)},{len(data)}")
        record.append(f"{info}/RECORD,,")
        whl.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return target


def _embedded_setuptools() -> Path | None:
    """The newest setuptools wheel virtualenv (pre-commit's dependency) ships, if any."""
    try:
        from virtualenv.seed.wheels import embed
    except ImportError:
        return None
    wheels = Path(embed.__file__).parent.glob("setuptools-*.whl")

    def version(p: Path) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", p.name.split("-")[1]))

    return max(wheels, key=version, default=None)


def build(dest: Path, project: str = "drafterlint") -> Path:
    """Fill `dest` with wheels of `project`'s runtime dependencies and of setuptools."""
    dest.mkdir(parents=True, exist_ok=True)
    for dist in runtime_closure(project):
        repack(dist, dest)
    setuptools = _embedded_setuptools()
    if setuptools is not None:
        (dest / setuptools.name).write_bytes(setuptools.read_bytes())
    else:
        repack(md.distribution("setuptools"), dest)
    return dest


def offline_pip_env(wheelhouse: Path) -> dict[str, str]:
    """Environment variables that make every pip (and its build environments) use only `wheelhouse`."""
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
