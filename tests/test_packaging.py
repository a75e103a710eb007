"""What the package promises beyond its code: one version, type information, its licence, and
help written for the people who run it."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

import drafterlint

ROOT = Path(__file__).resolve().parent.parent


def test_installed_version_is_the_package_version():
    assert importlib.metadata.version("drafterlint") == drafterlint.__version__


def test_version_flag_prints_the_one_version():
    proc = subprocess.run([sys.executable, "-m", "drafterlint", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"drafterlint {drafterlint.__version__}"


def test_package_is_marked_typed():
    assert (Path(drafterlint.__file__).parent / "py.typed").is_file()


def test_licence_is_the_declared_apache_2():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    # PEP 639: an SPDX expression and the licence file itself, not the deprecated free-text field.
    meta = importlib.metadata.metadata("drafterlint")
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta.get_all("License-File") == ["LICENSE"]


def test_help_speaks_to_users():
    proc = subprocess.run([sys.executable, "-m", "drafterlint", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    out = proc.stdout
    assert "argument parsing" not in out  # the module's docstring is for its maintainers
    assert "approved-drafter lists" in out
    assert "exit codes: 0 clean, 1 findings" in out
    for command in ("check", "rules", "explain", "sync", "audit"):
        assert command in out


def test_every_command_describes_itself():
    from drafterlint.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, cmd in sub.choices.items():
        assert cmd.description and cmd.description[0].isupper(), name


def test_every_subpackage_is_declared():
    # The package list in pyproject.toml is kept by hand (the schemas live outside src/): a new
    # subpackage missing from it works in an editable install and is absent from a real one.
    tomllib = pytest.importorskip("tomllib")
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    src = ROOT / "src"
    found = {".".join(init.parent.relative_to(src).parts) for init in src.rglob("__init__.py")}
    assert found - declared == set(), "add these to [tool.setuptools] packages in pyproject.toml"
