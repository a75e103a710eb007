"""What each rule found on a check's context, kept for a change's base to take (engine.run,
baserun.BaseRun): imported only where a base follows (a plain check creates none of it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drafterlint.checks.context import Part

if TYPE_CHECKING:
    from drafterlint.checks.context import Context, Need
    from drafterlint.config import Config
    from drafterlint.findings import Finding, UnreadableFile

# The parts a change's base may share with its head, object for object: the others are computed
# again for each context, so they are never the head's.
SHAREABLE = (Part.RULES, Part.REGISTRY_REPO, Part.REGISTRY, Part.TODAY, Part.HISTORY, Part.ONLINE, Part.BASE)


class Found:
    """What one rule's `check` gave on a context: its findings (before the engine filters
    them), the files it met that could not be read, the parts it said it skipped (code, reason,
    need)."""

    __slots__ = ("findings", "unreadable", "skipped")

    def __init__(self, findings: "list[Finding]", unreadable: "list[UnreadableFile]",
                 skipped: "list[tuple[str, str, Need | None]]") -> None:
        self.findings = findings
        self.unreadable = unreadable
        self.skipped = skipped


class Ran:
    """What each rule found on the context that holds this (engine.run records it where a
    change's base follows), and, for that base's own context, the head's Ran (`head`), whose
    findings of a rule the base takes where every part the rule reads (RULE.reads) is the head's
    own object there and the configuration is the same: the rule would find the same again.
    Never of a rule with a per-document part: its documents are the base's (what it read of a
    document the change left alone is kept by the document's content: markdown.model.Body)."""

    __slots__ = ("head", "config", "parts", "checks")

    def __init__(self, head: "Ran | None" = None) -> None:
        self.head = head
        self.config: Config | None = None
        self.parts: dict[Part, object] = {}
        self.checks: dict[str, Found] = {}  # by rule code

    def bind(self, ctx: "Context") -> None:
        """The context this records: its configuration and the parts a base may share."""
        self.config = ctx.config
        self.parts = {part: getattr(ctx, part.value) for part in SHAREABLE}

    def taken(self, code: str, reads: "frozenset[Part] | None", ctx: "Context") -> Found | None:
        """The head's Found of the rule `code`, where the base may take it (see the class)."""
        head = self.head
        found = head.checks.get(code) if head is not None else None
        if found is None or head is None or reads is None or ctx.config is not head.config:
            return None
        same = all(part in head.parts and getattr(ctx, part.value) is head.parts[part] for part in reads)
        return found if same else None
