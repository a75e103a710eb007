"""Native heads held against the checkpoint itself (DL505, DL506; `audit --online` only).

A checkpoint that ships a native head says so twice: its ``config.json`` declares it (a key
whose positive value is the number of head layers) and its weight index
(``model.safetensors.index.json``) carries the head's tensors. Which keys and which tensor names
count, per method, is the *evidence table*: configuration (``rule_options.DL505.evidence``,
defaults in ``drafterlint.config``), not code.

The claims (gathered by drafterlint.checks._claims) come from the catalog (every ``bundled: true`` head of every policy) and from the
Markdown list (each checkpoint a sentence says ships a native head). Each checkpoint's two files
are fetched once, at its pinned commit, and judged once per method:

- PRESENT: the config declares the head and the weights show it (or there is no weight index,
  a single-file checkpoint: then the config alone decides, and the verdict says so); or the
  config declares none of the table's keys but the weights show the head;
- ABSENT: a key is there with the value 0, or none is and the weights show no head, or the
  config declares the head but the weight index carries none of its tensors (a quantized
  re-publication that dropped them);
- NO_CONVENTION: the table has neither keys nor patterns for the method (``dspark`` by
  default): nothing to look for, "cannot verify";
- UNKNOWN: the hub did not give a definite answer (timeout, 5xx, 429, 401/403 for a gated or
  private repository, a missing ``config.json``), or the revision is not a full commit.
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from drafterlint.checks._options import OptionSlot
from drafterlint.findings import quoted
from drafterlint.records import dataclass
from drafterlint.userregex import Budget

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from drafterlint.config import Config
    from drafterlint.hub import FileAnswer, Hub

PRESENT, ABSENT, NO_CONVENTION, UNKNOWN = "present", "absent", "no-convention", "unknown"
CONFIG, INDEX = "config.json", "model.safetensors.index.json"
# The evidence table, per head method, and the nested configurations searched too: options of
# the rule that reports a head the checkpoint lacks (the one that reports the opposite reads the
# same table).
EVIDENCE = OptionSlot[dict[str, dict[str, list[str]]]]("evidence")
NESTED_CONFIGS = OptionSlot[list[str]]("nested_configs")


@dataclass(frozen=True, eq=False, repr=False)
class MethodEvidence:
    """What shows that a checkpoint bundles a head of one method: config keys, tensor names."""

    method: str
    config_keys: tuple[str, ...]
    tensor_patterns: tuple[str, ...]

    @property
    def empty(self) -> bool:
        return not self.config_keys and not self.tensor_patterns

    def looked_for(self, sections: tuple[str, ...]) -> str:
        parts = []
        if self.config_keys:
            where = CONFIG + (f" or its {', '.join(sections)}" if sections else "")
            parts.append(f"a positive {' or '.join(self.config_keys)} in {where}")
        if self.tensor_patterns:
            kinds = []
            if any("(?P<layer>" in p for p in self.tensor_patterns):
                kinds.append("past num_hidden_layers")
            if any("(?P<layer>" not in p for p in self.tensor_patterns):
                kinds.append(f"named like {EVIDENCE.path}.{self.method}")
            parts.append(f"{self.method} tensors ({' or '.join(kinds)}) in {INDEX}")
        return " and ".join(parts)


@dataclass(frozen=True, eq=False, repr=False)
class Table:
    """The evidence table: what shows each method's native head, and where to look."""

    methods: dict[str, MethodEvidence]
    sections: tuple[str, ...]  # nested configs searched too (e.g. text_config)
    source: Path | None = None  # the configuration file the table came from
    patterns: Budget = field(default_factory=Budget, compare=False)  # its run's (Config.patterns)

    def searching(self, on: str) -> AbstractContextManager[None]:
        """Where the table's tensor patterns are searched over `on`: on the run's CPU budget."""
        return self.patterns.running(EVIDENCE.path, on, self.source)

    def of(self, method: str | None) -> MethodEvidence:
        m = (method or "").lower()
        return self.methods.get(m) or MethodEvidence(m, (), ())


def evidence_table(config: Config) -> Table:
    methods = {
        str(name).lower(): MethodEvidence(str(name).lower(), tuple(spec.get("config_keys") or ()),
                                          tuple(spec.get("tensor_patterns") or ()))
        for name, spec in EVIDENCE.read(config).items()
    }
    return Table(methods, tuple(NESTED_CONFIGS.read(config)), config.source, config.patterns)


# -- judging one checkpoint -----------------------------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class Verdict:
    """What a checkpoint's files show of its native head (`state`: PRESENT, ABSENT, NO_CONVENTION, UNKNOWN)."""

    state: str
    repository: str
    revision: str
    method: str
    looked_for: str = ""
    found: str = ""  # what the files show (for ABSENT and PRESENT), or why UNKNOWN

    @property
    def ident(self) -> str:
        return f"{self.repository}@{self.revision}"

    def short(self) -> str:
        """One line for the audit's timeline."""
        return {
            PRESENT: f"✅ shown by the checkpoint ({self.found})",
            ABSENT: f"❌ not in the checkpoint ({self.found})",
            NO_CONVENTION: f"➖ cannot verify: the evidence table has nothing for {self.method}",
            UNKNOWN: f"❔ could not verify: {self.found}",
        }[self.state]


@dataclass(eq=False, repr=False)
class _Files:
    """The checkpoint files asked of the hub: its configuration and weight index."""

    config: FileAnswer
    index: FileAnswer | None  # None when not asked


def _number(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


# -- what is kept of a checkpoint's files -----------------------------------------------------

_HIDDEN = "num_hidden_layers"
_TENSORS = "drafterlint:tensors"  # how many tensors the index named (kept names are fewer)


def _scalar(value: object) -> object:
    if isinstance(value, str):
        return value if len(value) <= 200 else value[:200] + "…"
    return value if value is None or isinstance(value, (bool, int, float)) else f"<{type(value).__name__}>"


def kept_config(data: dict, table: Table) -> dict:
    """Of config.json, only the table's keys and num_hidden_layers, at the top and in the nested
    sections; a value that is no scalar is kept as its kind (it says nothing but "not a number")."""
    keys = {k for ev in table.methods.values() for k in ev.config_keys} | {_HIDDEN}

    def pick(scope: dict) -> dict:
        return {k: _scalar(scope[k]) for k in keys if k in scope}

    out = pick(data)
    out.update((s, pick(data[s])) for s in table.sections if isinstance(data.get(s), dict))
    return out


def kept_index(data: dict, table: Table) -> dict:
    """Of the weight index, only the tensor names some pattern of the table matches, and how
    many there were."""
    names = data.get("weight_map")
    if not isinstance(names, dict):
        return {}
    compiled = [re.compile(p) for ev in table.methods.values() for p in ev.tensor_patterns]
    kept = {n: None for n in names if isinstance(n, str) and any(rx.search(n) for rx in compiled)}
    return {"weight_map": kept, _TENSORS: len(names)}


@dataclass(eq=False, repr=False)
class _ConfigReading:
    """What the configuration file says of a method's keys."""

    values: list[tuple[str, object]] = field(default_factory=list)  # (key as shown, value)
    hidden_layers: int | None = None

    @property
    def declared(self) -> bool:
        return any((_number(v) or 0) > 0 for _, v in self.values)

    @property
    def denied(self) -> bool:
        """A key says 0 (and none says more); a value that is no number says nothing."""
        return not self.declared and any(_number(v) is not None for _, v in self.values)

    def text(self, ev: MethodEvidence) -> str:
        if self.values:
            return ", ".join(f"{k}: {v!r}" if not isinstance(v, (int, float)) else f"{k}: {v}"
                             for k, v in self.values)
        return f"{CONFIG} has no {' or '.join(ev.config_keys)}"


def _read_config(data: dict, ev: MethodEvidence, sections: tuple[str, ...]) -> _ConfigReading:
    scopes = [("", data)] + [(s, data[s]) for s in sections if isinstance(data.get(s), dict)]
    out = _ConfigReading()
    where_declared = None
    for name, scope in scopes:
        for key in ev.config_keys:
            if scope.get(key) is not None:  # null: not set
                out.values.append((f"{name}.{key}" if name else key, scope[key]))
                if where_declared is None and (_number(scope[key]) or 0) > 0:
                    where_declared = scope
    for scope in ([where_declared] if where_declared is not None else []) + [s for _, s in scopes]:
        n = _number(scope.get("num_hidden_layers"))
        if n is not None:
            out.hidden_layers = n
            break
    return out


@dataclass(eq=False, repr=False)
class _WeightsReading:
    """What the weight index shows of a method's tensors."""

    tensors: int = 0
    hits: list[str] = field(default_factory=list)
    highest_layer: int | None = None
    layer_pattern: bool = False  # a pattern with a `layer` group was tried

    def text(self, ev: MethodEvidence, hidden: int | None) -> str:
        if self.hits:
            more = f" and {len(self.hits) - 1} more" if len(self.hits) > 1 else ""
            return f"weight index: {self.hits[0]}{more}"
        parts = [f"weight index: {self.tensors} tensors"]
        if self.layer_pattern:
            if hidden is None:
                parts.append("num_hidden_layers unknown, so layers past it cannot be told")
            else:
                top = (f" (the highest is layer {self.highest_layer})"
                       if self.highest_layer is not None and self.highest_layer < hidden - 1 else "")
                parts.append(f"none past layer {hidden - 1}{top}")
        named = [p for p in ev.tensor_patterns if "(?P<layer>" not in p]
        if named:
            parts.append("none matching " + " or ".join(quoted(p) for p in named))
        return ", ".join(parts)


def _read_weights(data: dict, ev: MethodEvidence, hidden: int | None) -> _WeightsReading | None:
    names = data.get("weight_map")
    if not isinstance(names, dict):
        return None
    compiled = [re.compile(p) for p in ev.tensor_patterns]
    out = _WeightsReading(tensors=data.get(_TENSORS, len(names)), layer_pattern=any("layer" in rx.groupindex for rx in compiled))
    for name in names:
        if not isinstance(name, str):
            continue
        for rx in compiled:
            m = rx.search(name)
            if m is None:
                continue
            layer = m.groupdict().get("layer")
            if "layer" in rx.groupindex:
                if layer is None or not layer.isdigit():
                    continue
                n = int(layer)
                out.highest_layer = n if out.highest_layer is None else max(out.highest_layer, n)
                if hidden is None or n < hidden:
                    continue
            out.hits.append(name)
            break
    return out


@dataclass(eq=False, repr=False)
class NativeEvidence:
    """What the checkpoints themselves show of their native heads (``audit --online``): the
    facts DL505 and DL506 judge claims by, and the audit's timeline shows.

    The engine makes it before any check runs (``ctx.native``) from the evidence table and the
    hub client; each checkpoint's files are fetched once, and each (checkpoint, method) judged
    once, whoever asks first: the answer does not depend on which rule ran."""

    table: Table = field(default_factory=lambda: Table({}, ()))
    online: "Hub | None" = None  # the model hub's client, or None offline
    files: dict[tuple[str, str], _Files] = field(default_factory=dict)
    # (repository, revision, method), lowercased -> the verdict reached this run
    verdicts: dict[tuple[str, str, str], Verdict] = field(default_factory=dict)

    def verdict(self, repository: str, revision: str, method: str | None) -> Verdict:
        """Whether repository@revision ships a head of `method` (needs ``online``)."""
        key = (repository.lower(), revision.lower(), (method or "").lower())
        if key not in self.verdicts:
            self.verdicts[key] = self._judge(repository, revision, (method or "").lower())
        return self.verdicts[key]

    def _files(self, repository: str, revision: str) -> _Files:
        """The two files of a checkpoint, each cut down to what the table looks at as soon as it
        arrives: the parsed files of many checkpoints are never held at once."""
        from dataclasses import replace

        from drafterlint.hub import FOUND

        hub = self.online
        if hub is None:  # a bug: the rules that ask need ONLINE, and the audit asks online only
            raise RuntimeError("a checkpoint's files were asked for without the model hub")
        key = (repository.lower(), revision.lower())
        if key not in self.files:
            config = hub.json_file(repository, revision, CONFIG)
            if config.data is not None:
                config = replace(config, data=kept_config(config.data, self.table))
            index = hub.json_file(repository, revision, INDEX) if config.state == FOUND else None
            if index is not None and index.data is not None:
                with self.table.searching(f"the tensor names of {repository}@{revision}"):
                    index = replace(index, data=kept_index(index.data, self.table))
            self.files[key] = _Files(config, index)
        return self.files[key]

    def _judge(self, repository: str, revision: str, method: str) -> Verdict:
        from drafterlint.hub import FOUND, MISSING, is_commit

        table = self.table
        ev = table.of(method)
        looked = ev.looked_for(table.sections)

        def v(state: str, found: str) -> Verdict:
            return Verdict(state, repository, revision, method, looked, found)

        if ev.empty:
            return v(NO_CONVENTION, "")
        if not is_commit(revision):
            return v(UNKNOWN, f"revision not pinned ({revision!r} is not a full 40-hex commit)")
        files = self._files(repository, revision)
        if files.config.state != FOUND:
            detail = files.config.detail
            if files.config.state != MISSING:
                why = detail
            elif "EntryNotFound" in detail or detail.split(" (")[0] == "404":
                why = f"no {CONFIG} at that revision ({detail})"
            else:  # no such repository or revision: DL803's finding
                why = f"{CONFIG}: the hub answered {detail}"
            return v(UNKNOWN, why)
        conf = _read_config(files.config.data or {}, ev, table.sections)
        index = files.index
        if index is None or index.state not in (FOUND, MISSING):
            if conf.denied:
                return v(ABSENT, conf.text(ev))
            return v(UNKNOWN, f"{INDEX}: {index.detail if index is not None else 'not asked'}")
        if index.state == MISSING:
            note = f"no {INDEX} at this revision ({index.detail}): only {CONFIG} decides"
            if not ev.config_keys:
                return v(UNKNOWN, f"{note}, and the table has no config keys for {method}")
            return v(PRESENT if conf.declared else ABSENT, f"{conf.text(ev)}; {note}")
        with table.searching(f"the tensor names of {repository}@{revision}"):
            weights = _read_weights(index.data or {}, ev, conf.hidden_layers)
        if weights is None:
            return v(UNKNOWN, f"{INDEX} has no weight_map")
        found = (f"{conf.text(ev)}; " if ev.config_keys else "") + weights.text(ev, conf.hidden_layers)
        if conf.denied:
            return v(ABSENT, found)
        if weights.hits:
            return v(PRESENT, found)
        return v(ABSENT, found)
