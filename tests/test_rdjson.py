"""`--format rdjson` (reviewdog's Diagnostic Format): its shape, and its suggestions are fix's own
edits, so applying every one of them, as reviewdog counts (UTF-8 byte columns, end exclusive),
gives exactly the files `drafterlint fix` with the same options writes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import git

RULES = """\
# Rules — “règles”

## Table of Contents

1. [Basics](#1-basics)
2. [Seeds](#2-seeds)
   - [2.1 Rotation](#21-rotation)

## 1. Basics

Voilà: see [§2.3 Withdrawal](#23-withdrawal) and ([§2.1](#21-rotation)) — ünd [§2.1](#21-rotation) 🙂.
A table | [§2.1](#21-rotation) |

## 2. Seeds

### 2.1 Rotation

### 2.2 Withdrawal
"""

COMPANION = """\
# Submission

## 1. Basics

Siehe [Rules §2.1](endpoints_rules.md#21-rotation) und [Rules §2.3](endpoints_rules.md#23-withdrawal).
"""



def _repo(tmp_path: Path, newline: str, bom: bool) -> Path:
    root = tmp_path / "rules"
    root.mkdir()
    (root / "endpoints_rules.md").write_bytes((b"\xef\xbb\xbf" if bom else b"") + RULES.replace("\n", newline).encode())
    (root / "endpoints_submission_rules.md").write_bytes(COMPANION.replace("\n", newline).encode())
    (root / ".drafterlint.yaml").write_text("select: [DL1, DL2]\n")
    return root


def apply_suggestions(doc: dict, root: Path) -> None:
    """Every suggestion made, as reviewdog places them: written here from the format's
    definition, not with drafterlint's own code."""
    per_file: dict[str, list] = {}
    for d in doc["diagnostics"]:
        for s in d.get("suggestions", []):
            per_file.setdefault(d["location"]["path"], []).append(s)
    for path, suggestions in per_file.items():
        raw = (root / path).read_bytes()
        body = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
        starts = [body] + [m.end() for m in re.finditer(rb"\r\n|\r|\n", raw)]
        spans = []
        for s in suggestions:
            start, end = s["range"]["start"], s["range"].get("end", s["range"]["start"])
            spans.append((starts[start["line"] - 1] + start["column"] - 1,
                          starts[end["line"] - 1] + end["column"] - 1, s["text"].encode()))
        out, at = [], 0
        for a, b, text in sorted(spans):
            assert a >= at, "two suggestions overlap"
            out += [raw[at:a], text]
            at = b
        (root / path).write_bytes(b"".join([*out, raw[at:]]))


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in root.glob("*.md")}


def _check_and_fix(cli, root: Path, tmp_path: Path, *base: str) -> tuple[dict, Path]:
    fixed = tmp_path / "fixed"
    shutil.copytree(root, fixed)
    code, out, err = cli("check", "--no-cache", "--format", "rdjson", *base, cwd=root)
    assert code == 1, err
    cli("fix", *base, cwd=fixed)
    return json.loads(out), fixed


@pytest.mark.parametrize("newline,bom", [("\n", False), ("\r\n", True)], ids=["lf", "crlf-bom"])
def test_applying_every_suggestion_gives_what_fix_writes(cli, tmp_path, newline, bom):
    root = _repo(tmp_path, newline, bom)
    doc, fixed = _check_and_fix(cli, root, tmp_path)
    suggested = [d for d in doc["diagnostics"] if d.get("suggestions")]
    # a renumbered link in each document, and a table-of-contents line inserted (DL104)
    assert {d["code"]["value"] for d in suggested} == {"DL201", "DL203", "DL104"}
    assert any("\n" in s["text"] for d in suggested for s in d["suggestions"])
    before = _files(root)
    apply_suggestions(doc, root)
    assert _files(root) == _files(fixed) != before


def test_columns_are_utf8_bytes_and_the_shape_is_reviewdogs(cli, tmp_path):
    root = _repo(tmp_path, "\n", False)
    code, out, err = cli("check", "--no-cache", "--format", "rdjson", cwd=root)
    doc = json.loads(out)
    assert doc["source"]["name"] == "drafterlint"
    line = RULES.split("\n").index(next(ln for ln in RULES.split("\n") if ln.startswith("Voilà")))
    text = RULES.split("\n")[line].encode()
    (d,) = [d for d in doc["diagnostics"] if d["code"]["value"] == "DL201"
            and d["location"]["range"]["start"]["line"] == line + 1]
    assert d["severity"] == "ERROR" and d["location"]["path"] == "endpoints_rules.md"
    assert d["code"]["url"].endswith("/docs/rules/DL201.md")
    start = d["location"]["range"]["start"]["column"]
    assert text[start - 1:].startswith(b"[\xc2\xa72.3 Withdrawal]")  # the link, counted in bytes
    # the link's text names the section too: both are repointed, each placed in bytes
    replaced = {text[s["range"]["start"]["column"] - 1:s["range"]["end"]["column"] - 1]: s["text"]
                for s in d["suggestions"]}
    assert replaced == {b"23-withdrawal": "22-withdrawal", b"2.3": "2.2"}
    for d in doc["diagnostics"]:
        assert set(d) <= {"message", "location", "severity", "code", "suggestions"}
        assert d["severity"] in ("ERROR", "WARNING", "INFO") and isinstance(d["message"], str)


def test_with_a_base_the_suggestions_repoint_what_the_rename_broke(cli, tmp_path):
    root = _repo(tmp_path, "\n", False)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    git(root, "checkout", "-qb", "rename")
    text = (root / "endpoints_rules.md").read_text().replace("### 2.1 Rotation", "### 2.1 Seed Rotation")
    (root / "endpoints_rules.md").write_text(text)
    git(root, "commit", "-qam", "rename")
    doc, fixed = _check_and_fix(cli, root, tmp_path, "--base-ref", "main")
    # only what the change broke: the base's own broken links (§2.3) are not this change's
    assert {d["code"]["value"] for d in doc["diagnostics"]} == {"DL201", "DL203"}
    texts = {s["text"] for d in doc["diagnostics"] for s in d["suggestions"]}
    assert texts == {"21-seed-rotation"} and len(doc["diagnostics"]) == 5
    assert all("renamed it to §2.1 Seed Rotation" in d["message"] for d in doc["diagnostics"])
    apply_suggestions(doc, root)
    assert _files(root) == _files(fixed)
    assert "(#21-rotation)" not in (root / "endpoints_rules.md").read_text()
