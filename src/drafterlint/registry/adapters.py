"""Other copies of the approved-drafter list, read into one shape so checks can compare them.

Configured as ``registry.extra_lists``: ``[{"name": "submission-cli", "path": "...",
"format": "drafters"}]``. The path is absolute or relative to the configuration's folder.
The ``drafters`` format is a top-level ``drafters:`` list of entries with ``benchmark``,
``approved_cohort``, ``model_id`` and ``weight_checksum`` (weight-identified), or
``target_checksum`` and ``configuration`` (configuration-identified).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from drafterlint.findings import Location, UnreadableFile
from drafterlint.registry.model import ExtraEntry, ExtraList, Registry
from drafterlint.registry.yamlload import YamlDoc, load_yaml_text

if TYPE_CHECKING:
    from drafterlint.config import Config

FORMATS = ("drafters",)


def _str(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list, bool)):
        return None
    return value if isinstance(value, str) else str(value)


def read_extra_file(path: Path, shown: str, repo: str) -> YamlDoc:
    from drafterlint.sources import MAX_FILE_BYTES, decode_text

    loc = Location(repo, shown, 1, 1)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise UnreadableFile(loc, f"file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit")
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise UnreadableFile(loc, f"cannot read: {exc.strerror or exc}") from None
    return load_yaml_text(decode_text(data, loc), shown, repo)


def drafters_entries(name: str, doc: YamlDoc) -> list[ExtraEntry]:
    out: list[ExtraEntry] = []
    items = doc.get(("drafters",))
    if not isinstance(items, list):
        return out
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        p = ("drafters", i)
        out.append(
            ExtraEntry(
                list_name=name,
                benchmark=_str(item.get("benchmark")),
                approved_cohort=_str(item.get("approved_cohort")),
                model_id=_str(item.get("model_id")),
                weight_checksum=_str(item.get("weight_checksum")),
                target_checksum=_str(item.get("target_checksum")),
                configuration=item.get("configuration"),
                location=doc.location(p),
                index=i,
                raw=item,
                doc=doc,
                path=p,
            )
        )
    return out


def load_extra_lists(config: "Config", registry: Registry) -> None:
    """Read every configured extra list into `registry.extra_lists` (errors into .errors)."""
    for i, spec in enumerate(config.registry.get("extra_lists") or []):
        if not isinstance(spec, dict) or not spec.get("path"):
            continue
        name = str(spec.get("name") or spec["path"])
        fmt = str(spec.get("format") or "drafters")
        shown = str(spec["path"])
        full = Path(shown).expanduser()
        if not full.is_absolute():
            full = Path(getattr(config, "base_dir", Path.cwd())) / full
        if not full.exists():
            # Only a configuration file's list gets here (--extra-list is checked as it is
            # read): the file is not there in this checkout, which is no finding about the
            # lists. One that exists but cannot be read stays DL702.
            registry.missing_extra_lists.append(
                f"registry.extra_lists[{i}].path `{shown}` does not exist: the list “{name}” is not compared")
            continue
        if fmt not in FORMATS:
            registry.errors.append(
                UnreadableFile(
                    Location(name, shown, 1, 1),
                    f"unknown list format {fmt!r} (known: {', '.join(FORMATS)})",
                )
            )
            continue
        try:
            doc = read_extra_file(full, shown, name)
        except UnreadableFile as exc:
            registry.errors.append(exc.kept())
            registry.extra_lists.append(ExtraList(name, shown, fmt, None))
            continue
        registry.extra_lists.append(ExtraList(name, shown, fmt, doc, drafters_entries(name, doc)))
