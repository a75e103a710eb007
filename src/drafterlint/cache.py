"""A content-hash cache for `drafterlint check`, so that repeated pre-commit runs on unchanged
files cost almost nothing. Safe to delete at any time; never stale.

Stores under ``sources.cache_root(config)/check-cache/``:

* ``run-<key>.json``: the findings of a whole run. ``key`` hashes everything the engine is given
  (the effective configuration -- file and command-line flags merged --, the repository roots,
  the date), taken from the one dict `steps.Setup.inputs` gives the engine, and the tool itself
  (its version, this format, and the size and modification time of every file of the installed
  package and of its Markdown/YAML/schema dependencies). The entry lists every input the run
  read: each repository's file listing, each file's content digest (or the error reading it
  gave), and the extra lists the configuration names. A lookup re-lists and re-hashes all of
  them; any difference is a miss. So the result is reused only when every input is
  byte-for-byte what produced it.
* ``config-<key>.json``: what a configuration file's bytes validated to (the mapping), keyed by
  the bytes and the tool fingerprint: a run on an unchanged file parses and validates nothing,
  and imports neither the YAML loader nor jsonschema. Where the paths it names lead is checked
  on every run.
* ``front-<key>.json``: what a `check` printed on each stream and its exit status, keyed by the
  invocation (arguments, working folder, environment, interpreter), with the run's key, what
  the run read and the report's other inputs: drafterlint.front prints it, before the rest of
  the tool is imported, when all of them are unchanged.
* ``doc-<key>.json``: parsed Markdown documents keyed by the digest of their bytes, their path and
  the tool fingerprint, so that a run after an edit to one file re-parses only that file; a
  large document (over `markdown.sections.WORTH_SECTIONING` bytes) is kept as its sections
  instead, each named by its text and the line after it, so that an edit re-parses only the
  section it is in (see drafterlint.markdown.sections for when a section is reused), all of
  them in one entry keyed by the repository's name and the document's path (SectionPack); once
  a run finds every section of it in that entry (the document as seen before), it is kept whole
  too, and the next run with those bytes reads it in one piece. A document is kept as columns of
  its objects' fields (`document_text`; a section's model too, markdown/sections.py). Not
  written where the cache will not outlive the run (`sources.cache_outlives_the_run`: in CI, unless
  $DRAFTERLINT_CACHE chooses the cache's place): writing the model costs more than parsing
  saves, for no later run; the documents are shared within the run (a base's with the head's).
  The reference repository's parsed YAML files are kept the same way, one entry for the
  repository (YamlPack), each file by its path and the digest of its bytes.

No link is ever followed: every file is opened relative to the directory's own descriptor with
O_NOFOLLOW, a `check-cache` that is a link or holds one is not used (one warning, an uncached
run), and pruning deletes only names of the cache's own pattern whose contents start with its
header. The cache's location is the user's (`--cache-dir`, $DRAFTERLINT_CACHE, XDG), never a
configuration file's `cache_dir`.

Entries are JSON (never pickle: a cache directory may be writable by someone else, and loading
must not run code), decoded only into the model's own classes (drafterlint.cache_codec); written
to a temporary file and renamed; anything unreadable, truncated or of another format is ignored
(and removed). The directory (drafterlint.cache_store) is bounded: beyond ``MAX_ENTRIES`` files
or ``MAX_BYTES`` bytes, the least recently used entries are removed.

Set ``DRAFTERLINT_NO_CACHE=1`` (or pass ``--no-cache``) to bypass it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from drafterlint import inputs
from drafterlint.cache_codec import FORMAT, decode_columns, encode_columns, fingerprint, pools_of
from drafterlint.cache_store import Store
from drafterlint.sources import cache_outlives_the_run

MAX_DOC_BYTES = 8 * 1024 * 1024  # a parsed document larger than this (as JSON) is not kept


# -- parsed documents --------------------------------------------------------------------------


class DocumentCache:
    """Parsed Markdown documents keyed by (tool fingerprint, path, digest of the bytes).

    Where the cache will not outlive the run (sources.cache_outlives_the_run), they are kept in memory
    only: a base's unchanged documents are still parsed once, and nothing is written that no
    run will read. A document is kept whole in memory only while a view keeps it whole: once a
    view keeps only its outline, what a base needs of it is its Read (`read`), a fraction of
    the model (a parsed document takes 8 to 14 times its bytes: the Action's path on a docs
    tree of 20,000 files peaked at 998 MiB when every one was kept whole for the base)."""

    def __init__(self, store: Store, *, keep: bool = True):
        self.store = store
        self.keep = keep
        self.memory: dict[str, Any] = {}
        # What the run read of every document, by `name` (its outline and what the rules read
        # of its body: what a base shares with the current run for a document it left alone).
        self.reads: dict[str, Read] = {}
        self.sections = SectionEntries(self)
        self.yaml: dict[str, YamlPack] = {}  # by the repository's name
        # Where the cache does not outlive the run: per repository (its name), the documents a
        # base reads another version of (commands.checked); None where that is not known.
        self.read_again: dict[str, frozenset[str] | None] | None = None

    def in_sections(self, repo: str, rel: str) -> bool:
        """Whether a large document is parsed section by section (markdown.sections): where the
        cache outlives the run (a later run re-parses the sections an edit is in), or where a
        base of this run reads another version of it (the base re-parses only the sections that
        differ). Anywhere else a whole parse costs less (a tenth less for the rules document)
        and gives the same model."""
        if self.keep or self.read_again is None:
            return True
        paths = self.read_again.get(repo)
        return paths is None or rel in paths

    def read(self, name: str) -> "Read":
        """What the run read of the document whose bytes `name` names (made empty if none)."""
        read = self.reads.get(name)
        if read is None:
            read = self.reads[name] = Read()
        return read

    def outline(self, name: str, doc: Any) -> Any:
        """The outline (markdown.model.Summary) of `doc`, read from the bytes `name` names:
        made once, the same object for every view that reads them (an outline is never changed
        once made: its indexes are worked out from it, the same for every reader). The whole
        document is no longer kept: a view that keeps only the outline needs no more of it."""
        read = self.read(name)
        if read.outline is None:
            read.outline = doc.summary()
        self.memory.pop(name, None)
        return read.outline

    def name(self, rel: str, data: bytes) -> str:
        """What names the document `rel` read as `data` (the tool, the path, the bytes)."""
        h = inputs.sha256(f"{fingerprint()}\0{rel}\0{inputs.content_digest(data)}".encode("utf-8", "surrogateescape"))
        return f"doc-{h.hexdigest()}.json"

    def get(self, rel: str, data: bytes):
        from drafterlint.markdown.model import Document

        name = self.name(rel, data)
        doc = self.memory.get(name) or self.store.load(name, document_from_text)
        return doc if isinstance(doc, Document) and doc.path == rel else None

    def put(self, rel: str, data: bytes, doc: Any) -> None:
        name = self.name(rel, data)
        if not self.keep:
            self.memory[name] = doc
            return
        try:
            text = document_text(doc)
        except TypeError:  # (a part of the model the columns do not hold: not kept)
            return
        self.store.save_text(name, text, max_bytes=MAX_DOC_BYTES)

    def remember(self, rel: str, data: bytes, doc: Any) -> None:
        """`doc` for the rest of the run only (a document kept as its sections: a base's
        unchanged copy of it is this one, not its sections decoded again)."""
        self.memory[self.name(rel, data)] = doc

    def for_the_run(self, what: str, data: bytes, compute: Callable[[], Any]) -> Any:
        """`compute()` for the input `what` of content `data`, computed once a run and never
        written: a parse cheaper than reading it back (a YAML file), shared by a base's views."""
        name = self.name(what, data)
        if name not in self.memory:
            self.memory[name] = compute()
        return self.memory[name]

    def yaml_of(self, repo: str) -> "YamlPack":
        """The parsed YAML files of the repository named `repo` (registry.load)."""
        if repo not in self.yaml:
            self.yaml[repo] = YamlPack(self, repo)
        return self.yaml[repo]

    def _keep(self, name: str, value: Any) -> None:
        if self.keep:
            self.store.save(name, value, max_bytes=MAX_DOC_BYTES)
        else:
            self.memory[name] = value

    def remembered(self, kind: str, content: str, compute: Callable[[], Iterable[Any]]) -> list:
        """What `compute()` gives (a list of findings, say) for an input whose whole content
        `content` says, kept like a parsed document: DL701 judges an unchanged YAML file without
        importing jsonschema again."""
        h = inputs.sha256(f"{fingerprint()}\0{kind}\0".encode())
        h.update(content.encode("utf-8", "surrogateescape"))
        name = f"doc-{h.hexdigest()}.json"
        kept = self.memory.get(name)
        if kept is None:
            kept = self.store.load(name)
        if isinstance(kept, list):
            return kept
        value = list(compute())
        self._keep(name, value)
        return value


# A parsed document as the cache keeps it whole: one JSON array, each list of the model's
# objects as columns (cache_codec.encode_columns: read back by loops in C, not a call per object;
# the rules document's 17,000 objects as rows, a hook call per list, cost a sixth of a run).
_DOCUMENT_COLUMNS = ("headings", "links", "lists", "tables", "quotes", "paragraphs", "prose", "suppressions")
_POOLED = ("lists", "tables")  # (what holds the document's links and prose again)
_DOCUMENT_FIELDS = ("path", "text", "headings", "links", "lists", "tables", "quotes", "paragraphs", "prose",
                    "html_anchors", "suppressions", "code_lines", "limits")


def _document_classes() -> dict[str, type]:
    from drafterlint.markdown import model

    return {"headings": model.Heading, "links": model.Link, "lists": model.ListBlock, "tables": model.Table,
            "quotes": model.Quote, "paragraphs": model.Paragraph, "prose": model.Prose,
            "suppressions": model.Suppression}


def document_text(doc: Any) -> str:
    """`doc` (a markdown.model.Document) as the cache keeps it; TypeError for what it cannot."""
    import dataclasses

    if tuple(f.name for f in dataclasses.fields(doc)) != _DOCUMENT_FIELDS:
        raise TypeError("a Document of other fields")
    classes = _document_classes()
    # (a list item's links and prose, a table cell's links: as their places in the document's own)
    pools = pools_of(links=doc.links, prose=doc.prose)
    return json.dumps([
        doc.path, doc.text,
        *([len(getattr(doc, f)), encode_columns(classes[f], getattr(doc, f), pools if f in _POOLED else None)]
          for f in _DOCUMENT_COLUMNS),
        list(doc.html_anchors.items()), sorted(doc.code_lines), [list(x) for x in doc.limits],
    ], ensure_ascii=True, separators=(",", ":"))


def document_from_text(text: str) -> Any:
    """The Document document_text wrote; ValueError (or another error) for anything else."""
    from drafterlint.markdown.model import Document

    path, body, *columns, anchors, code, limits = json.loads(text)
    classes = _document_classes()
    if len(columns) != len(_DOCUMENT_COLUMNS) or type(path) is not str or type(body) is not str:
        raise ValueError("not a document")
    given = dict(zip(_DOCUMENT_COLUMNS, columns))
    made = {f: decode_columns(classes[f], given[f][1], given[f][0]) for f in ("links", "prose")}
    pools = {classes["links"]: made["links"], classes["prose"]: made["prose"]}
    made.update({f: decode_columns(classes[f], value[1], value[0], 0, pools) for f, value in given.items() if f not in made})
    if any(type(k) is not str or type(v) is not int for k, v in anchors) or any(type(x) is not int for x in code):
        raise ValueError("not a document")
    return Document(path=path, text=body, html_anchors=dict(anchors), code_lines=frozenset(code),
                    limits=[(int(a), int(b), str(m)) for a, b, m in limits], **made)


class Read:
    """What a run read of one version of a document (DocumentCache.reads): its outline, once a
    view kept only that, and what the rules' per-document parts read of its body
    (markdown.model.Body.read, by the function that read it). A base's unchanged document is
    given these, and is not parsed again."""

    __slots__ = ("outline", "body")

    def __init__(self) -> None:
        self.outline: Any = None
        self.body: dict[Any, Any] = {}


class SectionEntries:
    """The sections of large documents (drafterlint.markdown.sections), kept like the documents:
    in the directory where the cache outlives the run, one entry per document (its pack, see
    SectionPack), and in memory for the run (the base's version of a changed document reuses
    the sections the head's left alone)."""

    def __init__(self, docs: DocumentCache):
        self.docs = docs
        self.memory: dict[str, Any] = {}  # every section's entry made or read in this run, by name
        self.packs: dict[str, dict[str, Any]] = {}  # the stored entries of each pack read, by its name

    def of(self, repo: str, rel: str) -> "SectionPack":
        """The store of the document `rel` of the repository named `repo`."""
        return SectionPack(self, repo, rel)


# A pack keeps the sections of the document's last version and, up to as much again, the other
# sections of its earlier ones, the latest first: a branch switched back, or a base and its head
# kept in one cache, re-parse only the sections they differ in.
MAX_PACK_BYTES = 16 * 1024 * 1024


class SectionPack:
    """The sections of one document (markdown.sections.SectionStore): one cache entry,
    `doc-<key>.json`, keyed by the tool's fingerprint, the repository's name and the path,
    holding every section's entry by its name. One entry, not one per section: the store's bound
    on entries (cache_store.MAX_ENTRIES) counts documents, and a run reads one file per document.
    Written once, after the document is parsed, and only when a section was parsed again; the
    entries of the sections left alone are written back as they were read (their model is JSON
    text already: nothing is encoded again)."""

    def __init__(self, entries: SectionEntries, repo: str, rel: str):
        self.entries = entries
        self.rel = rel
        self.salt = fingerprint()
        self.persists = entries.docs.keep
        self.name = "doc-{}.json".format(
            inputs.sha256(f"{self.salt}\0sections\0{repo}\0{rel}".encode("utf-8", "surrogateescape")).hexdigest())
        self.new = False

    def _stored(self) -> dict[str, Any]:
        packs = self.entries.packs
        if self.name not in packs:
            packs[self.name] = {}
            pack = self.entries.docs.store.load(self.name, unpack_text) if self.persists else None
            if pack is not None and pack[0] == self.rel:
                packs[self.name] = pack[1]
        return packs[self.name]

    def get(self, name: str) -> Any:
        entry = self.entries.memory.get(name)
        return entry if entry is not None else self._stored().get(name)

    def put(self, name: str, entry: dict) -> None:
        self.entries.memory[name] = entry
        self.new = True

    def done(self, names: list[str]) -> None:
        if not self.persists:
            return
        stored = self._stored()
        if not self.new and all(n in stored for n in names):
            return
        kept: dict[str, Any] = {}
        for n in names:
            entry = self.entries.memory.get(n)
            if entry is None:  # (as read from the pack: none of the run's own keys, unpack_text)
                entry = stored.get(n)
                if isinstance(entry, dict):
                    kept.setdefault(n, entry)
            elif isinstance(entry, dict) and n not in kept:  # (a key starting with `_` is the run's own)
                kept[n] = {k: v for k, v in entry.items() if not k.startswith("_")}
        size = sum(len(e.get("part") or "") for e in kept.values())
        now = dict(kept)
        room = min(size, MAX_PACK_BYTES // 2 - size)
        for n, entry in stored.items():
            if n not in kept:
                room -= max(len(entry.get("part") or ""), 64)  # (a reach marker has no part)
                if room < 0:
                    break
                kept[n] = entry
        for pack in (kept, now) if len(kept) > len(now) else (now,):
            if self.entries.docs.store.save_text(self.name, pack_text(self.rel, pack), max_bytes=MAX_PACK_BYTES):
                self.entries.packs[self.name] = pack
                return


# A pack as the store keeps it: one JSON line (the path; each section's name, entry but its
# model, and the length of its model's text), then the models' JSON texts one after another. Not
# one JSON document holding the models as strings: quoting them (every `"` escaped, and undone
# on reading) was more than half of what writing and reading a pack cost.


def pack_text(rel: str, entries: dict[str, dict]) -> str:
    head, parts = [], []
    for n, entry in entries.items():
        part = entry.get("part")
        if isinstance(part, str):  # (the store persists: every entry holds its model's text)
            head.append([n, {k: v for k, v in entry.items() if k != "part"}, len(part)])
            parts.append(part)
    # (plain JSON: every entry is made of JSON's own values, markdown/sections.py, so the
    # cache's tagged form, written and read back by a call per value, is not needed)
    return json.dumps({"path": rel, "entries": head}, ensure_ascii=True, separators=(",", ":")) \
        + "\n" + "".join(parts)


def unpack_text(text: str) -> tuple[str, dict[str, dict]]:
    line, _, parts = text.partition("\n")
    value = json.loads(line)
    entries, at = {}, 0
    for n, entry, size in value["entries"]:
        # (a key starting with `_` is what only the run that made an entry keeps, its model's
        # objects, never written: an entry holding one was not written here, and is refused)
        if not isinstance(n, str) or not isinstance(entry, dict) or size < 0 or any(k[:1] == "_" for k in entry):
            raise ValueError("not a section's entry")
        entries[n] = {**entry, "part": parts[at : at + size]}
        at += size
    if at != len(parts) or not isinstance(value["path"], str):
        raise ValueError("not a pack")
    return value["path"], entries


class YamlPack:
    """The parsed YAML files of one repository (registry.load): one cache entry, `doc-<key>.json`,
    keyed by the tool's fingerprint and the repository's name, holding each file's parse
    (yamlload.as_entry) by its path and the digest of its bytes, so that a run in which no YAML
    file changed neither parses one nor imports PyYAML. Written once a load (`done`), and only
    when a file was parsed; it keeps the files of that load, then earlier versions (a base's, a
    branch switched back) up to as many again. Only where the cache outlives the run: elsewhere
    the run's own store (DocumentCache.for_the_run) is all there is."""

    def __init__(self, docs: DocumentCache, repo: str):
        self.docs = docs
        self.name = "doc-{}.json".format(
            inputs.sha256(f"{fingerprint()}\0yaml\0{repo}".encode("utf-8", "surrogateescape")).hexdigest())
        self._kept: dict[str, Any] | None = None
        self.now: dict[str, Any] = {}
        self.new = False

    def _stored(self) -> dict[str, Any]:
        if self._kept is None:
            self._kept = {}
            entry = self.docs.store.load(self.name) if self.docs.keep else None
            if isinstance(entry, dict) and entry.get("format") == FORMAT and isinstance(entry.get("files"), dict):
                self._kept = entry["files"]
        return self._kept

    def parsed(self, rel: str, data: bytes, parse: Callable[[], Any]) -> Any:
        """The YAML file `rel` of content `data`: as kept, else `parse()` (kept when it gives a
        YamlDoc the cache can hold)."""
        from drafterlint.registry.yamlload import as_entry, from_entry

        key = f"{rel}\0{inputs.content_digest(data)}"
        entry = self._stored().get(key)
        if entry is not None:
            try:
                doc = from_entry(entry)
            except Exception:  # an entry that does not fit is a miss, never an error
                doc = None
            if doc is not None and doc.path == rel:
                self.now[key] = entry
                return doc
        doc = parse()
        entry = as_entry(doc) if self.docs.keep else None
        if entry is not None:
            self.now[key] = entry
            self.new = True
        return doc

    def done(self) -> None:
        """The load is over: the entry written if a file was parsed."""
        if not self.new:
            return
        files = dict(self.now)
        for key, entry in self._stored().items():
            if len(files) >= 2 * len(self.now):
                break
            files.setdefault(key, entry)
        self.docs.store.save(self.name, {"format": FORMAT, "files": files}, max_bytes=MAX_DOC_BYTES)
        self._kept, self.new = files, False


# -- the configuration ------------------------------------------------------------------------


class ConfigCache:
    """What a configuration file's bytes validated to (drafterlint.config.load_config), keyed by
    (tool fingerprint, the bytes): the mapping depends on nothing else, so any file with those
    bytes reuses it, wherever it is."""

    def __init__(self, store: Store):
        self.store = store

    def _name(self, data: bytes) -> str:
        return inputs.config_entry_name(data)

    def get(self, data: bytes) -> dict | None:
        entry = self.store.load(self._name(data))
        if isinstance(entry, dict) and entry.get("format") == FORMAT and isinstance(entry.get("data"), dict):
            return entry["data"]
        return None

    def put(self, data: bytes, validated: dict) -> None:
        # A value JSON cannot hold (a YAML date) is not kept: that file is validated every run.
        self.store.save(self._name(data), {"format": FORMAT, "data": validated})


# -- whole runs --------------------------------------------------------------------------------


class Recorder:
    """Told by each RepoView of every listing and file it read during one run."""

    def __init__(self) -> None:
        self.trees: dict[str, list] = {}
        self.files: dict[tuple[str, str, int | None], str] = {}

    def tree(self, view: Any) -> None:
        self.trees[str(view.root)] = [view.name, _tree_digest(view)]

    def read(self, view: Any, rel: str, limit: int | None, data: bytes | None, error: str | None) -> None:
        outcome = f"sha256:{inputs.content_digest(data)}" if data is not None else f"error:{error}"
        self.files[(str(view.root), rel, limit)] = outcome


def _tree_digest(view: Any) -> str:
    return inputs.tree_digest(str(view.root), view.files, view.dirs)


def _file_outcome(path: Path) -> str:
    return inputs.file_outcome(str(path))


def _moved(given: dict[str, Any], trees: dict) -> str | None:
    """A repository given by a path that now leads elsewhere (a link moved): the key holds the
    path as given, the entry the folder it led to."""
    for root in (given.get("rules_dir"), given.get("registry_dir")):
        if root is not None and os.path.realpath(root) not in trees:
            return f"where {root} leads"
    return None


def _extra_list_paths(config: Any) -> list[str]:
    """The files `registry.adapters.load_extra_lists` reads (resolved the way it resolves them)."""
    out = []
    for spec in (config.registry.get("extra_lists") or []):
        if isinstance(spec, dict) and spec.get("path"):
            full = Path(str(spec["path"])).expanduser()
            if not full.is_absolute():
                full = Path(getattr(config, "base_dir", Path.cwd())) / full
            out.append(str(full))
    return out



class RunCache:
    """The cache of one `drafterlint check` invocation.

    ``run-<key>``: the findings, keyed by every input the engine is given (the
    effective configuration, the repository roots, the date) and checked against every file and
    listing the run read.
    """

    def __init__(self, root: Path):
        self.store = Store(Path(root) / "check-cache")
        self.docs = DocumentCache(self.store, keep=cache_outlives_the_run())
        self.configs = ConfigCache(self.store)
        self.recorder = Recorder()
        self.key: str | None = None
        self.outcome = "not looked up"
        # What the run read ({root: [name, tree digest]}, [[root, rel, limit, outcome]]): from
        # the entry on a hit, from the recorder once saved.
        self.seen: tuple[dict, list] | None = None
        self.base_inputs: dict[str, Any] = {}  # set by drafterlint.baserun for a base's cache

    def sibling(self) -> "RunCache":
        """Another run's cache in the same store (a base's findings beside the current run's)."""
        other = RunCache(self.store.dir.parent)
        other.store, other.docs, other.configs = self.store, self.docs, self.configs
        return other

    def inputs_under(self, root: Path) -> list:
        """What this run read under `root`: its listing's digest and each file's, sorted; a key
        part for a run that reads the same repository (None when not known)."""
        if self.seen is None:
            return [None]
        trees, files = self.seen
        where = str(Path(root).resolve())
        return [trees.get(where), sorted([rel, limit, outcome] for r, rel, limit, outcome in files if r == where)]

    @property
    def name(self) -> str:
        return f"run-{self.key}.json"

    def lookup(self, given: dict[str, Any]) -> Any:
        """The stored result of a run given `given` (the engine's arguments), if every file and
        listing it read is unchanged; else None (and `outcome` says why)."""
        self.config = given["config"]
        try:
            self.key = inputs.run_key(given)
        except TypeError:  # an input without a canonical form: this run is not cached
            self.outcome = "off (an input has no canonical form)"
            return None
        entry = self.store.load(self.name)
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            self.outcome = "miss (no entry for these inputs)"
            return None
        try:
            changed = self._changed_input(entry, self.config) or _moved(given, entry["trees"])
            if changed:
                self.outcome = f"miss ({changed} changed)"
                return None
            from drafterlint.findings import Result

            result = Result(findings=list(entry["findings"]), skipped=list(entry["skipped"]),
                            unreadable=[str(p) for p in entry["unreadable"]])
            self.seen = (dict(entry["trees"]), [list(row) for row in entry["files"]])
        except Exception:  # an entry that does not fit is a miss, never an error
            self.outcome = "miss (entry unusable)"
            return None
        self.outcome = f"hit ({self.name})"
        return result

    def _changed_input(self, entry: dict, config: Any) -> str | None:
        return inputs.changed_input(entry["trees"], entry["files"], entry["extra"], _extra_list_paths(config))

    def save(self, result: Any) -> None:
        if self.key is None:
            return
        rec = self.recorder
        entry = {
            "format": FORMAT,
            "trees": rec.trees,
            "files": [[root, rel, limit, outcome] for (root, rel, limit), outcome in rec.files.items()],
            "extra": {p: _file_outcome(Path(p)) for p in _extra_list_paths(self.config)},
            "findings": result.findings,
            "skipped": result.skipped,
            "unreadable": result.unreadable,
        }
        self.seen = (dict(rec.trees), [list(row) for row in entry["files"]])
        self.store.save(self.name, entry)


def disabled(no_cache: bool = False) -> bool:
    """--no-cache (`no_cache`) or DRAFTERLINT_NO_CACHE=1."""
    return bool(os.environ.get("DRAFTERLINT_NO_CACHE")) or no_cache
