"""Reading the policy folders of the reference repository into a ``Registry``.

Tolerant by design: a file that cannot be parsed goes to ``Registry.errors`` (DL702) and the
rest still loads; a field of the wrong type is left out of the model (DL701 reports it), so
each rule sees only what it can reason about.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drafterlint.cohorts import DEFAULT_CALENDAR, Calendar
from drafterlint.findings import UnreadableFile
from drafterlint.registry.model import (
    CHECKPOINTS_PATH,
    ENROLLED_PATH,
    HEADS_PATH,
    POLICY_FILES,
    Checkpoint,
    Head,
    Param,
    Policy,
    Registry,
)
from drafterlint.registry.yamlload import YamlDoc, load_yaml_text

if TYPE_CHECKING:
    from drafterlint.cache import YamlPack
    from drafterlint.config import Config
    from drafterlint.sources import RepoView

# point_checks.yaml: (check name, parameter) -> the name the model gives the parameter.
_CHECK_PARAMS = {
    "lead_cohorts": (("spec-decode-head-approval-lead-time", "approval_age"), "minimum_cohorts"),
    "adoption_window_cohorts": (("seed-set-adoption", "adoption_window"), "adoption_window_cohorts"),
}


def registry_of(repo: "RepoView", config: "Config", calendar: Calendar) -> Registry:
    """The registry `repo` holds, read with `config` and the publication `calendar` the rules
    state: loaded once a view (kept on it), so a base that shares the view with the current run
    (the repository not under change) reads none of its files again. A registry is never
    written after it is loaded; the rules only read it."""
    kept = repo.registry_read
    if kept is not None and kept[0] == config and kept[1] == calendar:
        return kept[2]
    registry = load_registry(repo, config, calendar)
    repo.registry_read = (config, calendar, registry)
    return registry


def load_registry(repo: "RepoView", config: "Config", calendar: Calendar = DEFAULT_CALENDAR) -> Registry:
    """`calendar`: the publication calendar the rules state, with which cohort ids are read."""
    prefix = (config.registry.get("policies") or "").strip("/")
    reg = Registry(policies_path=prefix, calendar=calendar)
    folders = sorted(
        d[len(prefix) + 1 :] if prefix else d
        for d in repo.dirs
        if d and (d.startswith(prefix + "/") if prefix else True)
        and "/" not in (d[len(prefix) + 1 :] if prefix else d)
    )
    policies = []
    kept = repo.doc_cache.yaml_of(repo.name) if repo.doc_cache is not None else None
    for folder in folders:
        path = f"{prefix}/{folder}" if prefix else folder
        policy = Policy(folder=folder, path=path, calendar=calendar)
        for name in POLICY_FILES:
            rel = f"{path}/{name}"
            if not repo.is_file(rel):
                continue
            try:
                doc = _parsed(repo, rel, kept)
            except UnreadableFile as exc:
                reg.errors.append(exc.kept())
                policy.unreadable.add(name)
                continue
            policy.docs[name] = doc
        if not policy.docs and not policy.unreadable and not any(
            f.startswith(path + "/") and f.endswith((".yaml", ".yml")) for f in repo.files
        ):
            continue  # not a policy folder (no YAML in it)
        _fill(policy)
        policies.append(policy)
    if kept is not None:
        kept.done()
    policies.sort(key=_order)
    reg.policies = {p.folder: p for p in policies}

    from drafterlint.registry.adapters import load_extra_lists

    load_extra_lists(config, reg)
    return reg


def _parsed(repo: "RepoView", rel: str, kept: "YamlPack | None") -> YamlDoc:
    """The YAML file `rel` of `repo`, parsed; the same bytes at the same path of a repository of
    the same name are parsed once a run (the run's store of parsed documents, which a base's view
    shares with the head's), so a base's copy of a file the change left alone is the head's
    parse, and once for every run where the cache outlives the run (`kept`). load_yaml_text
    depends on nothing else."""
    from drafterlint.sources import decode_text

    data = repo.read_bytes(rel)
    text = decode_text(data, repo.location(rel))
    if repo.doc_cache is None or kept is None:
        return load_yaml_text(text, rel, repo.name)
    return repo.doc_cache.for_the_run(f"yaml\0{repo.name}\0{rel}", data,
                                      lambda: kept.parsed(rel, data, lambda: load_yaml_text(text, rel, repo.name)))


def _order(policy: Policy):
    c = policy.cohort
    return (0, c.ordinal, "") if c else (1, 0, policy.folder)


def _str(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list, bool)):
        return None
    return value if isinstance(value, str) else str(value)


def _fill(policy: Policy) -> None:
    for name, doc in policy.docs.items():
        top = doc.value if isinstance(doc.value, dict) else {}
        for attr, key in (("versions", "version"), ("revisions", "revision")):
            if key in top:
                getattr(policy, attr)[name] = Param(top[key], doc.location((key,), value=True))
            else:
                getattr(policy, attr)[name] = None
    cat = policy.catalog
    if cat is not None:
        _fill_catalog(policy, cat)
    points = policy.docs.get("point_checks.yaml")
    if points is not None:
        _fill_params(policy, points)


def _fill_catalog(policy: Policy, doc: YamlDoc) -> None:
    heads = doc.get(HEADS_PATH)
    if isinstance(heads, list):
        for i, item in enumerate(heads):
            if not isinstance(item, dict):
                continue
            p: tuple = HEADS_PATH + (i,)
            bundled = item.get("bundled", False)
            policy.heads.append(
                Head(
                    model=_str(item.get("model")),
                    repository=_str(item.get("repository")),
                    revision=_str(item.get("revision")),
                    approved_cohort=_str(item.get("approved_cohort")),
                    method=_str(item.get("method")),
                    bundled=bundled is True,
                    location=doc.location(p),
                    index=i,
                    raw=item,
                    doc=doc,
                    path=p,
                    calendar=policy.calendar,
                )
            )
    checkpoints = doc.get(CHECKPOINTS_PATH)
    if isinstance(checkpoints, dict):
        for model, entries in checkpoints.items():
            if not isinstance(entries, list):
                continue
            for i, item in enumerate(entries):
                if not isinstance(item, dict):
                    continue
                p = CHECKPOINTS_PATH + (model, i)
                policy.checkpoints.append(
                    Checkpoint(
                        model=model,
                        repository=_str(item.get("repository")),
                        revision=_str(item.get("revision")),
                        location=doc.location(p),
                        index=i,
                        doc=doc,
                        path=p,
                    )
                )
    enrolled = doc.get(ENROLLED_PATH)
    if isinstance(enrolled, list):
        for i, m in enumerate(enrolled):
            if isinstance(m, str):
                policy.enrolled_models.append((m, doc.location(ENROLLED_PATH + (i,))))


def _fill_params(policy: Policy, doc: YamlDoc) -> None:
    checks = doc.get(("checks",))
    if not isinstance(checks, dict):
        return
    for pname, ((check_name, operation), key) in _CHECK_PARAMS.items():
        # By name first; else any check declaring that operation.
        candidates = [check_name] + [
            n for n, c in checks.items()
            if n != check_name and isinstance(c, dict) and c.get("operation") == operation
        ]
        for name in candidates:
            check = checks.get(name)
            if isinstance(check, dict) and key in check:
                value = check[key]
                policy.params[pname] = Param(value, doc.location(("checks", name, key), value=True))
                break
