"""Finding, reading and validating the configuration (.drafterlint.yaml).

Defaults fit the real repositories, so a checkout of either needs no configuration at all.
Precedence: defaults < the configuration file < command-line flags.
"""

from __future__ import annotations

import copy
import os
import re
from contextlib import AbstractContextManager
from dataclasses import field
from pathlib import Path
from typing import Any

from drafterlint import inputs
from drafterlint.config_defaults import DEFAULTS, deep_merge
from drafterlint.findings import InputError, Severity, chosen
from drafterlint.records import dataclass
from drafterlint.userregex import Budget

CONFIG_NAMES = inputs.CONFIG_NAMES


def config_schema() -> dict:
    from drafterlint.schemafiles import load

    return load("config.schema.json")


@dataclass
class Config:
    """The effective configuration: the defaults merged with the file (and the flags)."""

    data: dict[str, Any] = field(default_factory=lambda: copy.deepcopy(DEFAULTS))
    source: Path | None = None  # the file it came from, if any
    base_dir: Path = field(default_factory=Path.cwd)  # relative paths in the file resolve here
    # The CPU time its regular expressions may take in the run, all searches together.
    patterns: Budget = field(default_factory=Budget, compare=False, repr=False)

    # -- accessors used across the code --------------------------------------------------

    @property
    def rules(self) -> dict[str, Any]:
        return self.data["rules"]

    @property
    def registry(self) -> dict[str, Any]:
        return self.data["registry"]

    def options(self, code: str) -> dict[str, Any]:
        """A rule's options as the configuration sets them (``rule_options.CODE``), without the
        defaults: those are the rule's declarations, which merge them in (`Option.read`)."""
        return (self.data.get("rule_options") or {}).get(code) or {}

    @property
    def fail_on(self) -> Severity:
        return Severity.parse(self.data["fail_on"])

    def severity_override(self, code: str) -> Severity | None:
        value = self.data.get("severity", {}).get(code)
        return Severity.parse(value) if value else None

    def enabled(self, code: str) -> bool:
        return chosen(code, [c.upper() for c in self.data.get("select") or []],
                      [c.upper() for c in self.data.get("ignore") or []])

    def judging_changes(self) -> "Config":
        """This configuration as the rules that judge a change read it: its `select` does not
        leave them out (it was written for the checks of the files), its `ignore` does."""
        return self.merged({"select": []})

    def repo_path(self, which: str) -> Path | None:
        value = self.data[which].get("path")
        if not value:
            return None
        p = Path(value).expanduser()
        return p if p.is_absolute() else (self.base_dir / p)

    def merged(self, overrides: dict[str, Any]) -> "Config":
        return Config(deep_merge(self.data, overrides), self.source, self.base_dir, self.patterns)

    def searching(self, what: str, on: str) -> "AbstractContextManager[None]":
        """Where the patterns of the option `what` are searched over `on`: on the run's budget."""
        return self.patterns.running(what, on, self.source)


# Settings a configuration file may hold but that are the user's, not a repository's: ignored
# with one warning line (see `ignored_in_file`).
IGNORED_IN_FILES = {
    "cache_dir": "the cache is the user's and shared by every repository they check, so a "
                 "repository's file may not choose where it is written and pruned; set "
                 "DRAFTERLINT_CACHE or pass --cache-dir",
}


def ignored_in_file(config: Config) -> list[str]:
    """One warning line per setting of the file that drafterlint ignores (IGNORED_IN_FILES)."""
    if config.source is None:
        return []
    return [f"{config.source}: `{key}` is ignored in a configuration file: {why}"
            for key, why in IGNORED_IN_FILES.items() if config.data.get(key)]


def boundary(config: Config) -> Path | None:
    """Where the paths a configuration file names for drafterlint's own files must stay: the
    repository that holds the file (see `holder`)."""
    return None if config.source is None else holder(config.source)


def holder(file: Path) -> Path:
    """The repository that holds `file`, where it sits (a link's own folder, not where it leads):
    the top of its git work tree, else its folder."""
    return Path(inputs.holder(os.fspath(file)))


def contained_setting(config: Config, key: str, value: str, line: int | None = None) -> Path:
    """`value` (a path the configuration file names under `key`) resolved against the file's
    folder, refused (InputError, exit 2, naming the file and key) when it leads outside the
    repository that holds the file, symbolic links followed. A path on the command line is the
    user's choice and never comes here."""
    path = Path(value).expanduser()
    if not path.is_absolute():
        path = config.base_dir / path
    if not _inside(config, path):
        raise InputError(
            f"`{key}: {value}` leads outside the repository that holds this file ({boundary(config)}); a "
            "repository's configuration may only name places inside it (a path given on the "
            "command line may go anywhere)", str(config.source), line)
    return path


def _inside(config: Config, path: Path) -> bool:
    """Whether `path` (links followed) lies inside the repository that holds the configuration
    file (always, for a configuration that is no file)."""
    bound = boundary(config)
    return bound is None or _within(path, bound)


def _within(path: Path, top: Path) -> bool:
    """Whether `path`, links followed, lies in `top`."""
    return inputs.within(os.fspath(path), os.fspath(top))


def find_config(start: Path) -> Path | None:
    """The nearest .drafterlint.yaml from `start` upward (stopping at a filesystem root)."""
    found = inputs.find_config(os.fspath(start))
    return None if found is None else Path(found)


def load_config(path: Path | None = None, *, start: Path | None = None, validated: Any = None) -> Config:
    """Read and validate a configuration file; with no path, discover one from `start` upward.

    `validated` (a drafterlint.cache.ConfigCache) keeps what a file's bytes validated to: a file
    seen before is not parsed or validated again, so a warm run imports neither the YAML loader
    nor jsonschema (a third of its time). What depends on more than the bytes (where the paths
    it names lead) is checked on every run."""
    if path is None:
        path = find_config(start or Path.cwd())
        if path is None:
            return Config()
    path = Path(path)
    if not path.is_file():
        raise InputError("configuration file not found", str(path))
    top = holder(path)
    if not _within(path, top):
        # A committed link to ~/.config/gh/hosts.yml would have its keys and values quoted in
        # the errors below, in a fork's public log: nothing of the file is read, nor said.
        raise InputError(f"the configuration file resolves outside the repository that holds it ({top}), "
                         "through a symbolic link; not read: give the file it leads to with --config, if you mean it",
                         str(path))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read configuration: {exc}", str(path)) from None
    known = validated.get(raw) if validated is not None else None
    if known is not None:
        config = Config(deep_merge(DEFAULTS, known), path, path.parent)
        try:
            _contain_read_paths(config, known, None)
            return config
        except InputError:
            pass  # said again below, with the line of the path
    data, doc = _validated_data(path, raw)
    config = Config(deep_merge(DEFAULTS, data), path, path.parent)
    _contain_read_paths(config, data, doc)
    if validated is not None:
        validated.put(raw, data)
    return config


def config_at(raw: bytes, path: Path) -> tuple[Config, Any]:
    """The configuration that `raw` (the bytes of the file at `path`, as another commit holds
    them) declares, and its positioned document: validated as a file is, its paths not resolved
    (nothing is read through it; it is compared). InputError when it is not a configuration."""
    data, doc = _validated_data(path, raw)
    return Config(deep_merge(DEFAULTS, data), path, path.parent), doc


def _validated_data(path: Path, raw: bytes) -> tuple[dict, Any]:
    """The file's mapping, checked against the rule codes and the schema (InputError at the
    line of the first problem), and the positioned document it was read from."""
    from drafterlint.registry.yamlload import load_yaml_text  # bounded, safe, positioned

    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read configuration: {exc}", str(path)) from None
    from drafterlint.findings import UnreadableFile

    try:
        doc = load_yaml_text(text, str(path), repo="config")
    except UnreadableFile as exc:
        raise InputError(exc.message, str(path), exc.location.line) from None
    data = doc.value if doc.value is not None else {}
    if not isinstance(data, dict):
        raise InputError("configuration must be a mapping", str(path), 1)
    # Codes first: the schema's pattern would answer `DL1O4` with a regular expression, where
    # the user needs the code they meant.
    for key, items in _code_entries(data):
        for index, code in items:
            problem = unknown_code(code) if isinstance(code, str) else None
            if problem:
                line = (doc.nearest((key, index)) or (1, 1))[0]
                raise InputError(f"{key}: {problem}", str(path), line)
    _validate(data, doc, path)
    return data, doc


def _contain_read_paths(config: Config, data: dict, doc: Any) -> None:
    """The extra lists a configuration file names are read and their contents reported (DL701
    quotes their keys): like `baseline:`, each must lie inside the repository that holds the
    file. A list given with --extra-list is the user's choice and never comes here.
    (`rules.path` and `registry.path` may still name a folder outside: the hook's layout puts the
    other repository beside, a checkout or a partial copy; see docs/configuration.md.)"""
    registry = data.get("registry")
    for i, spec in enumerate(registry.get("extra_lists") or [] if isinstance(registry, dict) else []):
        if isinstance(spec, dict) and spec.get("path"):
            where = ("registry", "extra_lists", i, "path")
            contained_setting(config, f"registry.extra_lists[{i}].path", str(spec["path"]),
                              (doc.nearest(where) or (None,))[0] if doc is not None else None)


def _code_entries(data: dict):
    """(key, [(index or key, code)]) for every configuration key that names rules."""
    for key in ("select", "ignore"):
        if isinstance(data.get(key), list):
            yield key, list(enumerate(data[key]))
    if isinstance(data.get("severity"), dict):
        yield "severity", [(k, k) for k in data["severity"]]


def rule_codes() -> list[str]:
    from drafterlint.checks import modules

    return [m.RULE.code for m in modules()]


def unknown_code(code: str) -> str | None:
    """Why `code` selects no rule (with a did-you-mean), or None when it names a code or prefix.

    A typo in --select would otherwise check nothing and pass; in --ignore it would silence
    nothing and look like a false alarm.
    """
    import difflib

    from drafterlint.checks import modules

    wanted = code.strip().upper()
    codes = rule_codes()
    if wanted and any(c.startswith(wanted) for c in codes):
        return None
    by_name = {m.RULE.name: m.RULE.code for m in modules()}
    families = sorted({c[:3] for c in codes})
    if code.strip().lower() in by_name:
        close = [by_name[code.strip().lower()]]
    elif re.fullmatch(r"DL\d{3}", wanted) and wanted[:3] in families:
        # Same family, nearest number: DL209 -> DL206 says more than a string distance does.
        close = [min((c for c in codes if c[:3] == wanted[:3]), key=lambda c: abs(int(c[2:]) - int(wanted[2:])))]
    else:
        close = difflib.get_close_matches(wanted, codes, n=1, cutoff=0.6)
        close = close or [by_name[c] for c in difflib.get_close_matches(code.strip().lower(), list(by_name), n=1, cutoff=0.6)]
    if close:
        hint = f"; did you mean `{close[0]}`?"
    else:
        hint = f"; the families are {', '.join(f + 'xx' for f in families)}"
    return f"no rule code or prefix `{code}`{hint} (`drafterlint rules` lists them)"


def _format_checker() -> Any:
    """jsonschema's format checks, with `format: regex` (the options' patterns, searched in the
    rules text and the model hub's answers) refusing what does not compile and what may backtrack
    without bound (drafterlint.userregex: a repository's configuration is untrusted)."""
    import jsonschema

    from drafterlint.userregex import unsafe

    checker = copy.deepcopy(jsonschema.Draft202012Validator.FORMAT_CHECKER)

    @checker.checks("regex", raises=(re.error, ValueError))
    def usable_regex(value: object) -> bool:
        if isinstance(value, str):
            why = unsafe(value)
            if why:
                raise ValueError(why)
        return True

    return checker


def _validate(data: dict, doc: Any, path: Path) -> None:
    import jsonschema

    from drafterlint.schemaerrors import located_errors

    validator = jsonschema.Draft202012Validator(config_schema(), format_checker=_format_checker())
    first = next(iter(located_errors(validator, data, doc)), None)
    if first is not None:
        raise InputError(f"invalid configuration: {first.message}", str(path), first.line)
