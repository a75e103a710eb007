"""DL505/DL506: native heads held against the checkpoint's config.json and weight index, served
by a real HTTP server on loopback for fake repositories at fixed revisions."""

from __future__ import annotations

import json
import shutil

import pytest

from drafterlint.hub import FOUND, MISSING, UNKNOWN, HubClient
from tests.helpers import FIXTURES, run_engine

POL = "src/inference_endpoint/validation/policies/2026-11-C1"
CAT = f"registry:{POL}/catalog.yaml"
R1, R2, R3 = "1" * 40, "2" * 40, "3" * 40


def client(api, tmp_path, **kw):
    kw.setdefault("cache_dir", tmp_path / "cache")
    kw.setdefault("sleep", lambda s: None)
    return HubClient(api.url, **kw)


def serve(api, repository, revision, config, layers=None, names=()):
    """A repository at `revision`: its config.json and (unless layers is None) a weight index of
    `layers` decoder layers plus `names`."""
    api.files[f"{repository}@{revision}/config.json"] = config
    if layers is not None:
        weights = {f"model.layers.{i}.self_attn.q_proj.weight": "model-00001.safetensors"
                   for i in range(layers)}
        weights.update(dict.fromkeys(names, "model-00002.safetensors"))
        api.files[f"{repository}@{revision}/model.safetensors.index.json"] = {
            "metadata": {"total_size": 1}, "weight_map": weights}


def head(repository, revision, method="mtp", model="m1", bundled=True):
    return (f"    - model: {model}\n      repository: {repository}\n      revision: {revision}\n"
            f"      approved_cohort: 2026-09-C1\n      method: {method}\n"
            + ("      bundled: true\n" if bundled else ""))


def catalog(heads, checkpoints=()):
    text = "version: 2026-11-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n" + "".join(heads)
    text += "  approved_checkpoints:\n    m1:\n"
    for repository, revision in checkpoints:
        text += f"      - repository: {repository}\n        revision: {revision}\n"
    return text


def findings(result, *codes):
    return [f for f in result.findings if f.code in codes]


def line_of(text, needle, nth=0):
    lines = [i + 1 for i, ln in enumerate(text.splitlines()) if needle in ln]
    return lines[nth]


# -- the hub client's file reading -------------------------------------------------------------


def test_json_file_found_missing_and_cached(fake_api, tmp_path):
    serve(fake_api, "orga/m1", R1, {"num_nextn_predict_layers": 1})
    h = client(fake_api, tmp_path)
    a = h.json_file("orga/m1", R1, "config.json")
    assert a.state == FOUND and a.data == {"num_nextn_predict_layers": 1}
    b = h.json_file("orga/m1", R1, "model.safetensors.index.json")
    assert b.state == MISSING and "EntryNotFound" in b.detail
    again = client(fake_api, tmp_path)
    assert again.json_file("orga/m1", R1, "config.json").data == a.data
    assert again.json_file("orga/m1", R1, "model.safetensors.index.json").state == MISSING
    assert again.requests_made == 0


def test_only_full_commits_are_fetched(fake_api, tmp_path):
    h = client(fake_api, tmp_path)
    for rev in ("main", "1111111", "v1.0", "refs/pr/1"):
        a = h.json_file("orga/m1", rev, "config.json")
        assert a.state == UNKNOWN and "revision not pinned" in a.detail
    assert fake_api.log == []


@pytest.mark.parametrize("status", [401, 403])
def test_gated_and_private_are_unknown(fake_api, tmp_path, status):
    fake_api.files[f"orgg/m1@{R1}/config.json"] = status
    a = client(fake_api, tmp_path).json_file("orgg/m1", R1, "config.json")
    assert a.state == UNKNOWN and str(status) in a.detail and "gated" in a.detail
    # not remembered: once access is granted, the next audit reads the file
    serve(fake_api, "orgg/m1", R1, {"num_nextn_predict_layers": 1})
    assert client(fake_api, tmp_path).json_file("orgg/m1", R1, "config.json").state == FOUND


def test_500_and_429_then_success_with_the_retry_policy(fake_api, tmp_path):
    serve(fake_api, "orga/m1", R1, {"num_nextn_predict_layers": 1})
    fake_api.fail += [("GET", "/orga/m1/resolve/", 500, {}), ("GET", "/orga/m1/resolve/", 429, {"Retry-After": "2"})]
    slept: list[float] = []
    a = client(fake_api, tmp_path, sleep=slept.append, backoff=0.5).json_file("orga/m1", R1, "config.json")
    assert a.state == FOUND
    assert [p for _, p in fake_api.log].count(f"/orga/m1/resolve/{R1}/config.json") == 3
    assert slept == [0.5, 2.0]


def test_a_missing_revision_is_not_called_a_missing_file(fake_api, tmp_path):
    fake_api.fail.append(("GET", "/orgr/m1/resolve/", 404, {"X-Error-Code": "RevisionNotFound"}))
    result = run(fake_api, tmp_path, {CAT: catalog([head("orgr/m1", R1)])})
    assert findings(result, "DL505") == []
    assert any("orgr/m1" in s.reason and "404 RevisionNotFound" in s.reason and "no config.json" not in s.reason
               for s in result.skipped)


def test_invalid_json_is_unknown(fake_api, tmp_path):
    fake_api.files[f"orga/m1@{R1}/config.json"] = ["not", "an", "object"]
    a = client(fake_api, tmp_path).json_file("orga/m1", R1, "config.json")
    assert a.state == UNKNOWN and "not a JSON object" in a.detail


# -- DL505 against the loopback hub ------------------------------------------------------------


def run(api, tmp_path, files, **kw):
    return run_engine(files, tmp_path / "repos", online=client(api, tmp_path, **kw))


def test_mtp_head_with_config_key_and_tensors_passes(fake_api, tmp_path):
    serve(fake_api, "orga/m1", R1, {"num_hidden_layers": 47, "num_nextn_predict_layers": 1}, layers=48)
    result = run(fake_api, tmp_path, {CAT: catalog([head("orga/m1", R1)], [("orga/m1", R1)])})
    assert findings(result, "DL505", "DL506") == []
    assert not [s for s in result.skipped if "DL505" in s.code]


def test_config_zero_is_dl505_at_the_heads_catalog_line(fake_api, tmp_path):
    serve(fake_api, "orgz/m1", R1, {"num_hidden_layers": 47, "num_nextn_predict_layers": 0}, layers=47)
    text = catalog([head("orgz/m1", R1)], [("orgz/m1", R1)])
    result = run(fake_api, tmp_path, {CAT: text})
    [f] = findings(result, "DL505")
    assert (f.location.path, f.location.line) == (f"{POL}/catalog.yaml", line_of(text, "bundled: true"))
    assert str(f.severity) == "error"
    assert f"orgz/m1@{R1}" in f.message
    assert "num_nextn_predict_layers: 0" in f.message and "none past layer 46" in f.message
    assert "num_nextn_predict_layers or mtp_num_hidden_layers" in f.message  # what was looked for


def test_quantized_copy_that_dropped_the_mtp_layers(fake_api, tmp_path):
    # The re-publication kept the original config but not the layer past the last one.
    serve(fake_api, "orgq/m1-int4", R1, {"num_hidden_layers": 47, "num_nextn_predict_layers": 1}, layers=47)
    result = run(fake_api, tmp_path, {CAT: catalog([head("orgq/m1-int4", R1)])})
    [f] = findings(result, "DL505")
    assert "num_nextn_predict_layers: 1" in f.message and "none past layer 46" in f.message


def test_qwen_style_nested_text_config_and_mtp_prefix(fake_api, tmp_path):
    config = {"model_type": "qwen3_5_moe", "text_config": {"num_hidden_layers": 40, "mtp_num_hidden_layers": 1}}
    serve(fake_api, "orgw/m1", R1, config, layers=40, names=["mtp.fc.weight", "mtp.layers.0.mlp.gate.weight"])
    serve(fake_api, "orgw/m1", R2, config, layers=40)  # the same config, the mtp.* tensors gone
    result = run(fake_api, tmp_path, {CAT: catalog([head("orgw/m1", R1), head("orgw/m1", R2)])})
    [f] = findings(result, "DL505")
    assert R2 in f.message and "text_config.mtp_num_hidden_layers: 1" in f.message
    assert "none matching" in f.message


def test_single_file_checkpoint_is_judged_by_its_config(fake_api, tmp_path):
    serve(fake_api, "orgs/small", R1, {"num_hidden_layers": 4, "num_nextn_predict_layers": 1})
    serve(fake_api, "orgs/small", R2, {"num_hidden_layers": 4})
    result = run(fake_api, tmp_path, {CAT: catalog([head("orgs/small", R1), head("orgs/small", R2)])})
    [f] = findings(result, "DL505")
    assert R2 in f.message and "only config.json decides" in f.message
    from drafterlint.checks._native import PRESENT

    assert any(v.state == PRESENT and "only config.json decides" in v.found
               for v in result_verdicts(fake_api, tmp_path, "orgs/small", R1))


def result_verdicts(api, tmp_path, repository, revision):
    from drafterlint.config import Config
    from drafterlint.engine import build_context

    ctx = build_context(Config(), None, None, online=client(api, tmp_path))
    return [ctx.native.verdict(repository, revision, "mtp")]


def test_gated_slow_and_unpinned_are_could_not_verify_never_dl505(fake_api, tmp_path):
    fake_api.files[f"orgg/m1@{R1}/config.json"] = 401
    fake_api.files[f"orgh/m1@{R1}/config.json"] = 403
    fake_api.files[f"orgm/m1@{R1}/config.json"] = 404  # not in the repository
    text = catalog([head("orgg/m1", R1), head("orgh/m1", R1), head("orgm/m1", R1), head("orgb/m1", "main"),
                    head("orgc/m1", "1111111")])
    result = run(fake_api, tmp_path, {CAT: text})
    assert findings(result, "DL505") == []
    reasons = [s.reason for s in result.skipped if "DL505" in s.code]
    assert any("orgg/m1" in r and "401" in r and "gated" in r for r in reasons)
    assert any("orgh/m1" in r and "403" in r for r in reasons)
    assert any("orgm/m1" in r and "no config.json" in r for r in reasons)
    assert any("orgb/m1@main" in r and "revision not pinned" in r for r in reasons)
    assert any("orgc/m1@1111111" in r and "revision not pinned" in r for r in reasons)
    assert not any(p.startswith(("/orgb/", "/orgc/")) for _, p in fake_api.log)  # no file fetched


def test_slow_hub_times_out_as_could_not_verify(fake_api, tmp_path):
    serve(fake_api, "orgt/m1", R1, {"num_nextn_predict_layers": 0}, layers=4)
    fake_api.slow.add(f"orgt/m1@{R1}/config.json")
    # The server never answers before the test ends: any timeout trips, however loaded the machine.
    result = run(fake_api, tmp_path, {CAT: catalog([head("orgt/m1", R1)])}, timeout=1.0, retries=1)
    assert findings(result, "DL505") == []
    [skip] = [s for s in result.skipped if "DL505" in s.code]
    assert "orgt/m1" in skip.reason and "could not reach the model hub" in skip.reason
    # what the part lacked is said by the rule (ctx.skip(..., need=ONLINE)): the audit lists it
    # as not checked, not as a rule that could not run at all
    assert (skip.need, skip.unmet) == ("online", False)


def test_500_then_success_is_verified(fake_api, tmp_path):
    serve(fake_api, "orgf/m1", R1, {"num_hidden_layers": 4, "num_nextn_predict_layers": 0}, layers=4)
    fake_api.fail += [("GET", "/orgf/m1/resolve/", 500, {}), ("GET", "/orgf/m1/resolve/", 503, {})]
    result = run(fake_api, tmp_path, {CAT: catalog([head("orgf/m1", R1)])})
    assert len(findings(result, "DL505")) == 1


def test_dspark_claim_is_info_cannot_verify_with_the_default_table(fake_api, tmp_path):
    serve(fake_api, "orgd/m1", R1, {"num_hidden_layers": 4}, layers=4)
    result = run(fake_api, tmp_path, {CAT: catalog([head("orgd/m1", R1, "dspark")])})
    [f] = findings(result, "DL505")
    assert str(f.severity) == "info" and "cannot verify" in f.message
    assert not any("/resolve/" in p for _, p in fake_api.log)  # nothing to look for: no file fetched


def test_the_table_is_extended_from_the_configuration(fake_api, tmp_path):
    serve(fake_api, "orgd/m1", R1, {"num_hidden_layers": 4, "dspark_block_size": 0}, layers=4)
    files = {CAT: catalog([head("orgd/m1", R1, "dspark")])}
    overrides = {"rule_options": {"DL505": {"evidence": {"dspark": {"config_keys": ["dspark_block_size"]}}}}}
    result = run_engine(files, tmp_path / "repos", overrides, online=client(fake_api, tmp_path))
    [f] = findings(result, "DL505")
    assert str(f.severity) == "error" and "dspark_block_size: 0" in f.message


def test_markdown_list_claim_is_checked_at_the_lists_line(fake_api, tmp_path):
    serve(fake_api, "orgl/m1", R3, {"num_hidden_layers": 4, "num_nextn_predict_layers": 0}, layers=4)
    readme = ("# Examples\n\n## Approved Checkpoints and Speculative-Decoding Heads\n\n### m1\n\n"
              "Approved model checkpoints:\n\n"
              f"- [orgl/m1](https://huggingface.co/orgl/m1/tree/{R3}) (`{R3}`)\n\n"
              "The approved checkpoint includes its native MTP speculative-decoding head.\n")
    files = {CAT: catalog([], [("orgl/m1", R3)]), "registry:examples/10_Agentic_Inference/README.md": readme}
    result = run(fake_api, tmp_path, files)
    [f] = findings(result, "DL505")
    assert f.location.path == "examples/10_Agentic_Inference/README.md"
    assert f.location.line == line_of(readme, "native MTP") and "the Markdown list says" in f.message


# -- DL506 -------------------------------------------------------------------------------------


def test_unrecorded_native_head_is_dl506_info(fake_api, tmp_path):
    serve(fake_api, "orgu/m1", R1, {"num_hidden_layers": 4, "num_nextn_predict_layers": 1}, layers=5)
    serve(fake_api, "orgu/m1", R2, {"num_hidden_layers": 4, "num_nextn_predict_layers": 1}, layers=5)
    text = catalog([head("orgu/m1", R2)], [("orgu/m1", R1), ("orgu/m1", R2)])
    result = run(fake_api, tmp_path, {CAT: text})
    [f] = findings(result, "DL506")
    assert str(f.severity) == "info" and R1 in f.message
    assert f.location.line == line_of(text, f"revision: {R1}")
    assert findings(result, "DL505") == []


# -- the audit, end to end ---------------------------------------------------------------------


def test_audit_online_shows_the_verified_state(cli, tmp_path, fake_api):
    rules = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    registry = tmp_path / "registry"
    (registry / POL).mkdir(parents=True)
    text = catalog([head("orga/m1", R1), head("orgz/m1", R2), head("orgg/m1", R3)],
                   [("orga/m1", R1), ("orgz/m1", R2), ("orgg/m1", R3)])
    (registry / POL / "catalog.yaml").write_text(text)
    serve(fake_api, "orga/m1", R1, {"num_hidden_layers": 4, "num_nextn_predict_layers": 1}, layers=5)
    serve(fake_api, "orgz/m1", R2, {"num_hidden_layers": 4, "num_nextn_predict_layers": 0}, layers=4)
    fake_api.files[f"orgg/m1@{R3}/config.json"] = 401
    out, js = tmp_path / "audit.md", tmp_path / "audit.json"
    code, _, _ = cli("audit", "--rules-repo", rules, "--registry-repo", registry, "--today", "2026-12-02",
                       "--online", "--hub-api-url", fake_api.url, "--select", "DL5",
                       "--output", out, "--json", js, "--cache-dir", tmp_path / "cache")
    report, data = out.read_text(), json.loads(js.read_text())
    assert code == 1
    [f] = [f for f in data["findings"] if f["code"] == "DL505"]
    assert f["line"] == line_of(text, "bundled: true", 1) and "orgz/m1" in f["message"]
    assert "| DL505 |" in report.replace("`", "") or "DL505" in report.split("## Findings")[1]
    timeline = report.split("## Cohort timeline")[1].split("## Findings")[0]
    assert "✅ shown by the checkpoint" in timeline and "❌ not in the checkpoint" in timeline
    assert "❔ could not verify" in timeline and "401" in timeline
    assert any("orgg/m1" in n and "401" in n for n in data["audit"]["not_checked"])
    assert any(h["verified"].startswith("❌") for h in data["audit"]["timeline"])


def test_audit_timeline_shows_what_the_checkpoint_shows_whichever_rules_run(cli, tmp_path, fake_api):
    # The verdicts are facts of the run (ctx.native), not DL505's by-products: with DL505 not
    # selected, the timeline still says what each bundled head's checkpoint shows.
    rules = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    registry = tmp_path / "registry"
    (registry / POL).mkdir(parents=True)
    text = catalog([head("orga/m1", R1), head("orgz/m1", R2)], [("orga/m1", R1), ("orgz/m1", R2)])
    (registry / POL / "catalog.yaml").write_text(text)
    serve(fake_api, "orga/m1", R1, {"num_hidden_layers": 4, "num_nextn_predict_layers": 1}, layers=5)
    serve(fake_api, "orgz/m1", R2, {"num_hidden_layers": 4, "num_nextn_predict_layers": 0}, layers=4)
    js = tmp_path / "audit.json"
    cli("audit", "--rules-repo", rules, "--registry-repo", registry, "--today", "2026-12-02",
        "--online", "--hub-api-url", fake_api.url, "--select", "DL802",
        "--output", tmp_path / "audit.md", "--json", js, "--cache-dir", tmp_path / "cache")
    data = json.loads(js.read_text())
    assert not [f for f in data["findings"] if f["code"] == "DL505"]
    verified = {h["repository"]: h["verified"] for h in data["audit"]["timeline"]}
    assert verified["orga/m1"].startswith("✅") and verified["orgz/m1"].startswith("❌")
    # each checkpoint's files were fetched once
    assert sum(1 for _, p in fake_api.log if p.endswith("/config.json")) == 2


# -- the evidence table as configuration -------------------------------------------------------


def test_explain_shows_the_tables_defaults_and_how_to_extend_it(cli):
    code, out, _ = cli("explain", "DL505")
    assert code == 0
    options = out.split("Options (.drafterlint.yaml; these are the defaults):")[1]
    assert "num_nextn_predict_layers" in options and "mtp_num_hidden_layers" in options
    assert "dspark:" in options and "nested_configs" in options
    assert "To extend it" in out


def test_a_bad_pattern_in_the_table_is_a_configuration_error(cli, tmp_path):
    cfg = tmp_path / ".drafterlint.yaml"
    cfg.write_text("rule_options:\n  DL505:\n    evidence:\n      mtp:\n        tensor_patterns: ['^mtp\\\\.(']\n")
    code, _, err = cli("check", "--config", cfg, "--registry-repo", tmp_path)
    assert code == 2 and ".drafterlint.yaml:5" in err and "regex" in err
    cfg.write_text("rule_options:\n  DL505:\n    evidense: {}\n")
    code, _, err = cli("check", "--config", cfg, "--registry-repo", tmp_path)
    assert code == 2 and "did you mean `evidence`" in err


def test_a_gated_checkpoint_is_read_with_the_hub_token(cli, tmp_path, fake_api, monkeypatch):
    # A gated repository answers 401 without a token: "could not verify" then, and checked with
    # HF_TOKEN set; the token reaches the hub and no output.
    rules = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    registry = tmp_path / "registry"
    (registry / POL).mkdir(parents=True)
    text = catalog([head("orgz/m1", R2)], [("orgz/m1", R2)])
    (registry / POL / "catalog.yaml").write_text(text)
    serve(fake_api, "orgz/m1", R2, {"num_hidden_layers": 4, "num_nextn_predict_layers": 0}, layers=4)
    fake_api.gated.update(f for f in fake_api.files if f.startswith("orgz/m1@"))

    def audit(name):
        out, js = tmp_path / f"{name}.md", tmp_path / f"{name}.json"
        code, stdout, stderr = cli(
            "audit", "--rules-repo", rules, "--registry-repo", registry, "--today", "2026-12-02",
            "--online", "--hub-api-url", fake_api.url, "--select", "DL5",
            "--output", out, "--json", js, "--cache-dir", tmp_path / name)
        raw = js.read_text()
        assert fake_api.hub_token not in "\n".join([stdout, stderr, out.read_text(), raw])
        return code, json.loads(raw)

    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    code, data = audit("without")
    assert code == 0 and not [f for f in data["findings"] if f["code"] == "DL505"]
    assert any("orgz/m1" in n and "401" in n for n in data["audit"]["not_checked"])
    assert set(fake_api.hub_auth_seen) == {None}

    monkeypatch.setenv("HF_TOKEN", fake_api.hub_token)
    code, data = audit("with")
    [f] = [f for f in data["findings"] if f["code"] == "DL505"]  # the checkpoint shows no MTP layer
    assert code == 1 and "orgz/m1" in f["message"]
    assert not any("orgz/m1" in n for n in data["audit"]["not_checked"])
    assert f"Bearer {fake_api.hub_token}" in fake_api.hub_auth_seen
