"""What a run keeps: nothing past its own context (a process that checks many times, such as a
long-lived editor integration or this test suite, must not hold every document it ever read)."""

from __future__ import annotations

import gc
import weakref

from drafterlint.config import Config
from drafterlint.engine import build_context, run


def test_a_run_keeps_no_document_alive_after_it(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text(
        "# Rules\n\n## 2. Models\n\nSee [models](#2-model).\n", encoding="utf-8")
    ctx = build_context(Config(), rules, None)
    result = run(ctx)
    # the broken fragment's suggestion is what builds the per-document anchor index
    assert any("did you mean `#2-models`" in (f.suggestion or "") for f in result.findings)
    doc = ctx.documents.main
    assert doc is not None
    gone = weakref.ref(doc)
    del ctx, result, doc
    gc.collect()
    assert gone() is None
