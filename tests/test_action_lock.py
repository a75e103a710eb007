"""The action's lock, action/requirements.lock: what `action/entry.py install` takes from the
package index, every file by its hash (`pip install --require-hashes`), so that a user's pin of
the action pins the dependencies it runs with too. Held here against pyproject.toml (each runtime
dependency and the build backend in the lock, at a version its range allows, nothing else asked
for at the top), against the command docs/development.md gives for making it, and by the real
install refusing a file that is not the locked one; `-m network` installs it from the index.
"""

from __future__ import annotations

import os
import re
import runpy
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import drafterlint
from tests.helpers import ROOT

LOCK_INPUT = ROOT / "action" / "requirements.in"
ENTRY = ROOT / "action" / "entry.py"
_lock = runpy.run_path(str(ROOT / ".ci" / "action_lock.py"), run_name="action_lock")
LOCK, read_lock = _lock["LOCK"], _lock["read_lock"]


def declared() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def range_problems(requirements: list[str], pins: list) -> list[str]:
    """Each requirement must be locked, and every pin of it at a version its range allows."""
    problems = []
    for text in requirements:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        locked = [p for p in pins if p.name == name]
        if not locked:
            problems.append(f"{req.name} is not in the lock")
        problems += [f"{req.name}=={p.version} is outside {req.specifier}" for p in locked
                     if not req.specifier.contains(p.version, prereleases=True)]
    return problems


def test_the_lock_pins_each_runtime_dependency_within_its_range():
    pins = read_lock(LOCK.read_text(encoding="utf-8"))
    assert range_problems(declared()["project"]["dependencies"], pins) == []


def test_the_lock_holds_the_build_backend_pyproject_declares():
    # The checkout is built in the virtualenv without isolation: setuptools comes from the lock.
    backend = declared()["build-system"]["requires"]
    listed = [line.strip() for line in LOCK_INPUT.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.lstrip().startswith("#")]
    assert listed == backend
    assert range_problems(backend, read_lock(LOCK.read_text(encoding="utf-8"))) == []


def test_nothing_is_asked_for_at_the_top_but_the_dependencies_and_the_backend():
    # A dependency dropped from pyproject.toml must leave the lock too (regenerate it).
    pins = read_lock(LOCK.read_text(encoding="utf-8"))
    top = {p.name for p in pins if any(w.endswith("(pyproject.toml)") or w.startswith("-r ") for w in p.wanted_by)}
    wanted = [*declared()["project"]["dependencies"], *declared()["build-system"]["requires"]]
    assert top == {canonicalize_name(Requirement(r).name) for r in wanted}
    assert all(p.wanted_by for p in pins), "every pin says what asked for it"


def test_every_locked_file_is_checked_by_its_hash():
    pins = read_lock(LOCK.read_text(encoding="utf-8"))
    assert len(pins) >= 10
    assert [p.name for p in pins if p.hashes == 0] == []


def test_the_lock_covers_the_pythons_the_action_runs_on():
    # --universal: one pin of each package for every Python pyproject.toml allows, by markers.
    pins = read_lock(LOCK.read_text(encoding="utf-8"))
    floor = re.fullmatch(r">=(\d+)\.(\d+)", declared()["project"]["requires-python"])
    assert floor, "requires-python is a floor"
    for minor in range(int(floor[2]), 16):
        env = {"python_version": f"3.{minor}", "python_full_version": f"3.{minor}.0"}
        for dep in declared()["project"]["dependencies"]:
            name = canonicalize_name(Requirement(dep).name)
            chosen = [p for p in pins if p.name == name and (p.marker is None or p.marker.evaluate(env))]
            assert len(chosen) == 1, (name, f"3.{minor}", chosen)


def lock_command() -> str:
    return LOCK.read_text(encoding="utf-8").splitlines()[1].lstrip("# ").strip()


def test_the_lock_was_made_by_the_documented_command():
    command = lock_command()
    assert command.startswith("uv pip compile ")
    for flag in ("--universal", "--generate-hashes", "--output-file action/requirements.lock"):
        assert flag in command
    python = re.search(r"--python-version (\d+\.\d+)", command)
    assert python and f">={python[1]}" == declared()["project"]["requires-python"]
    assert command in (ROOT / "docs" / "development.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("requirements, lock, says", [
    (["PyYAML>=6.0"], "pyyaml==5.4 \\\n    --hash=sha256:" + "0" * 64 + "\n", "outside >=6.0"),
    (["requests>=2.28"], "pyyaml==6.0 \\\n    --hash=sha256:" + "0" * 64 + "\n", "requests is not in the lock"),
    (["mistune>=3.4,<3.5"], "mistune==3.5.0 \\\n    --hash=sha256:" + "0" * 64 + "\n", "outside"),
])
def test_a_lock_out_of_step_with_pyproject_is_named(requirements, lock, says):
    assert says in " ".join(range_problems(requirements, read_lock(lock)))


def test_a_lock_line_that_is_no_pin_is_refused():
    with pytest.raises(ValueError, match="line 1"):
        read_lock("requests>=2.28\n")
    with pytest.raises(ValueError, match="line 2"):
        read_lock("idna==3.0 \\\n--index-url https://example.invalid/simple\n")


def fake_wheel(folder: Path, name: str, version: Version) -> None:
    """A valid wheel of a locked name and version whose bytes are not the locked file's."""
    dist = f"{name.replace('-', '_')}-{version}"
    with zipfile.ZipFile(folder / f"{dist}-py3-none-any.whl", "w") as wheel:
        wheel.writestr(f"{dist}.dist-info/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        wheel.writestr(f"{dist}.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        wheel.writestr(f"{dist}.dist-info/RECORD", "")


def test_the_install_refuses_a_file_that_is_not_the_locked_one(tmp_path):
    """A package index (here a local folder, no network) serving each locked name and version
    with other bytes: the install stops at the hash check, before anything is installed."""
    index = tmp_path / "index"
    index.mkdir()
    for pin in read_lock(LOCK.read_text(encoding="utf-8")):
        fake_wheel(index, pin.name, pin.version)
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(DRAFTERLINT_VENV=str(venv), PIP_NO_INDEX="1", PIP_FIND_LINKS=str(index),
               PIP_CONFIG_FILE=os.devnull, CACHE_HIT="")
    proc = subprocess.run([sys.executable, str(ENTRY), "install"], env=env, capture_output=True, text=True)
    assert proc.returncode != 0
    assert "DO NOT MATCH THE HASHES" in proc.stderr, proc.stderr[-2000:]
    assert not list(venv.glob("lib/python*/site-packages/drafterlint*"))
    assert not (venv / "drafterlint-action-lock").exists()


@pytest.mark.network
def test_the_install_takes_exactly_the_lock_from_the_index(tmp_path):
    """The action's install as a runner's first run does it: the locked files from the package
    index, then the checkout; the virtualenv then holds the lock's pins for this Python and
    drafterlint, nothing else."""
    action = tmp_path / "action-checkout"
    for part in ("action", "src", "schemas"):
        shutil.copytree(ROOT / part, action / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, action / name)
    venv = tmp_path / "venv"
    env = dict(os.environ, DRAFTERLINT_VENV=str(venv), CACHE_HIT="")
    entry = [sys.executable, str(action / "action" / "entry.py"), "install"]
    subprocess.run(entry, env=env, check=True)
    py = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    # A virtualenv restored from a checkout with the same lock only gets the checkout again
    # (offline: nothing else is fetched); one from another lock is made anew.
    stray = venv / "stray-file"
    stray.write_text("")
    subprocess.run(entry, env=dict(env, PIP_NO_INDEX="1"), check=True)
    assert stray.exists()
    (venv / "drafterlint-action-lock").write_text("another lock\n")
    subprocess.run(entry, env=env, check=True)
    assert not stray.exists()
    listing = subprocess.run([str(py), "-c", "import importlib.metadata as m; "
                              "print('\\n'.join(f'{d.name}=={d.version}' for d in m.distributions()))"],
                             capture_output=True, text=True, check=True).stdout.split()
    installed = {canonicalize_name(line.split("==")[0]): Version(line.split("==")[1]) for line in listing}
    here = {"python_version": f"{sys.version_info[0]}.{sys.version_info[1]}",
            "python_full_version": ".".join(map(str, sys.version_info[:3]))}
    expected = {p.name: p.version for p in read_lock(LOCK.read_text(encoding="utf-8"))
                if p.marker is None or p.marker.evaluate(here)}
    assert installed.pop("drafterlint") == Version(drafterlint.__version__)
    installed.pop("pip", None)  # a virtualenv made with its own pip, where the runner's cannot drive it
    assert installed == expected
