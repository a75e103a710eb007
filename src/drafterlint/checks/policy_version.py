"""DL405 policy-version — the files of one policy folder disagree on version or revision.

All five files of a cohort folder (catalog, curve, point, submission and system checks) pin the
same ``version`` — the folder's cohort — and the same ``revision``. A file copied from another
folder and not updated keeps an old version: the validator would load a mixed policy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from drafterlint.checks.base import REGISTRY, Context, Example, Part, Rule
from drafterlint.cohorts import Cohort
from drafterlint.findings import Finding, Severity, quoted

if TYPE_CHECKING:
    from drafterlint.registry.model import Policy

RULE = Rule(
    code="DL405",
    name="policy-version",
    severity=Severity.ERROR,
    summary="policy files of one cohort folder disagree on version/revision or with the folder",
    needs=frozenset({REGISTRY}),
    reads=frozenset({Part.REGISTRY}),
)
ADVICE = "decide which version and revision this cohort folder carries, and align its files"

_P = "registry:src/inference_endpoint/validation/policies/2026-10-C1/"
_CAT = (
    "version: 2026-10-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads: []\n"
    "  approved_checkpoints: {}\n"
)


def _points(version: str) -> str:
    return f"version: {version}\nrevision: 1\nchecks: {{}}\n"


EXAMPLES = (
    Example(
        "both files pin the folder's cohort",
        {_P + "catalog.yaml": _CAT, _P + "point_checks.yaml": _points("2026-10-C1")},
    ),
    Example(
        "point_checks.yaml pinned to another cohort",
        {_P + "catalog.yaml": _CAT, _P + "point_checks.yaml": _points("2026-10-C0")},
        expect=((_P + "point_checks.yaml", 1, 10),),
    ),
)


def _norm(value: object) -> str:
    return str(value).strip()


def _unpinned(policy: "Policy", name: str, key: str, value: str) -> Finding:
    """A policy file that does not pin `key` at all: reported at the file, with the value to add."""
    return RULE.at(
        policy.docs[name].location(()),
        f"{name} pins no {key}; add {quoted(f'{key}: {value}')}",
        key=f"{policy.folder}:{name}:{key}-missing",
    )


def check(ctx: Context) -> Iterator[Finding]:
    reg = ctx.loaded_registry
    for policy in reg.policies.values():
        folder_cohort = policy.cohort
        # version: the folder's cohort when the folder is one, else what most files say
        versions = {n: p for n, p in policy.versions.items() if p is not None}
        expected: str | None
        if folder_cohort is not None:
            expected = str(folder_cohort)
            basis = "its folder"
        else:
            common = Counter(_norm(p.value) for p in versions.values()).most_common(1)
            expected = common[0][0] if common else None
            basis = "the other files"
        for name, param in policy.versions.items():
            if param is None:
                yield _unpinned(policy, name, "version", expected or policy.folder)
                continue
            if Cohort.try_parse(param.value, policy.calendar) is None:
                continue  # DL404 says why
            if expected is not None and _norm(param.value) != expected:
                yield RULE.at(
                    param.location,
                    f"{name} pins version {param.value}, but {basis} is {expected}; "
                    "all files of a policy folder pin its cohort",
                    suggestion=f"version: {expected}",
                    key=f"{policy.folder}:{name}:version",
                )
        revisions = {n: p for n, p in policy.revisions.items() if p is not None}
        if not revisions:
            continue
        reference = revisions.get("catalog.yaml")
        common = Counter(_norm(p.value) for p in revisions.values()).most_common()
        expected_rev = common[0][0]
        if len(common) > 1 and common[0][1] == common[1][1] and reference is not None:
            expected_rev = _norm(reference.value)  # a tie: the catalog decides
        ref_param = next(p for p in revisions.values() if _norm(p.value) == expected_rev)
        for name, param in policy.revisions.items():
            if param is None:
                yield _unpinned(policy, name, "revision", expected_rev)
            elif _norm(param.value) != expected_rev:
                yield RULE.at(
                    param.location,
                    f"{name} pins revision {param.value}, but the other files of "
                    f"{policy.folder} pin {expected_rev}",
                    suggestion=f"revision: {expected_rev}",
                    related=(ref_param.location,),
                    key=f"{policy.folder}:{name}:revision",
                )
