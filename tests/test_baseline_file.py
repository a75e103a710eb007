"""`drafterlint baseline` and the baseline file `check` reads (real repositories on disk)."""

from __future__ import annotations

import json

from tests.helpers.samples import COMPANION, rules_text


def make(tmp_path, text: str):
    root = tmp_path / "rules"
    root.mkdir(exist_ok=True)
    (root / "endpoints_rules.md").write_text(text, encoding="utf-8")
    (root / "endpoints_submission_rules.md").write_text(COMPANION, encoding="utf-8")
    return root


def test_baseline_then_check_passes_and_only_new_findings_fail(cli, tmp_path):
    root = make(tmp_path, rules_text(second_broken=True))
    code, _, err = cli("baseline", "--no-cache", cwd=root)
    assert code == 0 and "wrote" in err
    lines = (root / ".drafterlint-baseline.json").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(ln) for ln in lines]
    assert {"fingerprint", "code", "path", "message"} <= set(rows[0])
    assert rows == sorted(rows, key=lambda r: (r["repo"], r["path"], r["code"], r["fingerprint"]))
    code, out, _ = cli("check", "--no-cache", cwd=root)
    assert code == 0, out
    assert "pre-existing finding" in out
    # Stable: a second run writes the same bytes.
    before = (root / ".drafterlint-baseline.json").read_bytes()
    cli("baseline", "--no-cache", cwd=root)
    assert (root / ".drafterlint-baseline.json").read_bytes() == before
    # A new broken link fails; --all makes every finding count.
    (root / "endpoints_rules.md").write_text(rules_text(second_broken=True) + "\n[new](#brand-new)\n", encoding="utf-8")
    code, out, _ = cli("check", "--no-cache", "--select", "DL201", cwd=root)
    assert code == 1 and "#brand-new" in out and "#gone" not in out
    code, out, _ = cli("check", "--no-cache", "--select", "DL201", "--all", cwd=root)
    assert code == 1 and "#gone" in out


def test_a_fixed_baselined_finding_says_the_file_can_shrink(cli, tmp_path):
    root = make(tmp_path, rules_text(second_broken=True))
    cli("baseline", "--no-cache", "--select", "DL2", cwd=root)
    (root / "endpoints_rules.md").write_text(rules_text(), encoding="utf-8")
    code, out, _ = cli("check", "--no-cache", "--select", "DL2", cwd=root)
    assert code == 0
    assert "1 baselined finding is fixed: run `drafterlint baseline` to shrink the file" in out
    _, out, _ = cli("check", "--no-cache", "--select", "DL2", "--format", "json", cwd=root)
    doc = json.loads(out)
    assert doc["baseline"]["fixed"] == 1 and all(f["baseline"] for f in doc["findings"])


def test_configured_path_and_flag(cli, tmp_path):
    root = make(tmp_path, rules_text())
    (root / ".drafterlint.yaml").write_text("baseline: ci/known.jsonl\n", encoding="utf-8")
    (root / "ci").mkdir()
    cli("baseline", "--no-cache", cwd=root)
    assert (root / "ci" / "known.jsonl").is_file() and not (root / ".drafterlint-baseline.json").exists()
    code, _, _ = cli("check", "--no-cache", "--select", "DL201", cwd=root)
    assert code == 0
    code, _, err = cli("check", "--no-cache", "--baseline", str(tmp_path / "absent.json"), cwd=root)
    assert code == 2 and "absent.json" in err


def test_a_malformed_baseline_is_a_usage_error_naming_file_and_line(cli, tmp_path):
    root = make(tmp_path, rules_text())
    good = json.dumps({"fingerprint": "0123456789abcdef", "code": "DL201", "path": "x", "message": "m"})
    (root / ".drafterlint-baseline.json").write_text(f"{good}\n\n{{not json\n", encoding="utf-8")
    code, _, err = cli("check", "--no-cache", cwd=root)
    assert code == 2 and ".drafterlint-baseline.json:3:" in err and "Traceback" not in err
    (root / ".drafterlint-baseline.json").write_text(f"{good}\n[1, 2]\n", encoding="utf-8")
    code, _, err = cli("check", "--no-cache", cwd=root)
    assert code == 2 and ".drafterlint-baseline.json:2:" in err


def test_a_baseline_whose_messages_hold_what_splitlines_cuts_at_is_read_back(cli, tmp_path):
    """A link's target may hold U+2028, \\x85 or \\x0c (no ASCII blank or control for CommonMark's
    destination, but these are neither); the message quoting it is written into the baseline as
    it is (json.dumps leaves them), so the file's lines end at "\\n" only when read back."""
    root = make(tmp_path, rules_text() + "\n[a](#x\u2028y) [b](#p\x85q) [c](#r\u2029s)\n")
    assert cli("baseline", "--no-cache", cwd=root)[0] == 0
    written = (root / ".drafterlint-baseline.json").read_text(encoding="utf-8")
    assert "\u2028" in written and "\x85" in written  # the fixture plants what it says
    code, out, err = cli("check", "--no-cache", "--select", "DL201", cwd=root)
    assert code == 0 and "pre-existing finding" in out, out + err
