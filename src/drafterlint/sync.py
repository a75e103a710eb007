"""`drafterlint sync`: bring the other repository into the per-user cache, for offline checks.

    drafterlint sync registry                  # mlcommons/endpoints at its default branch
    drafterlint sync rules --ref v1.2          # the rules repository at a tag
    drafterlint sync registry --url https://github.com/me/endpoints.git --ref my-branch

The checkout lands in `<cache>/repos/<owner>__<name>/checkout` and `fetched.json` beside it
records the URL, ref, commit and time. `drafterlint check` uses that checkout when no other is
given. The update is atomic: `fetched.json` is removed first and written last, and the checkout
is built beside the old one and renamed into place, so an interrupted or concurrent run never
leaves a half checkout that `check` would accept; concurrent runs are serialised by a lock file.

Only https URLs are fetched. `DRAFTERLINT_ALLOW_LOCAL_SYNC=1` also allows a local path or a
`file://` URL: meant for tests and for local mirrors, never needed against GitHub.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drafterlint.findings import InputError
from drafterlint.options import SyncOptions

if TYPE_CHECKING:
    from drafterlint.config import Config

ALLOW_LOCAL_ENV = "DRAFTERLINT_ALLOW_LOCAL_SYNC"
FETCHED = "fetched.json"
CHECKOUT = "checkout"


def local_sync_allowed() -> bool:
    return os.environ.get(ALLOW_LOCAL_ENV) == "1"


def _local(url: str) -> bool:
    """A file:// URL or a path (a string without a scheme that names something on disk)."""
    if url.lower().startswith("file://"):
        return True
    return "://" not in url and "::" not in url and not url.startswith("-") and Path(url).expanduser().exists()


def default_url(config: "Config", which: str) -> str:
    name = (config.data[which].get("github") or "").strip("/")
    if not name or name.count("/") != 1:
        raise InputError(f"no {which}.github (owner/name) configured; give --url")
    return f"https://github.com/{name}.git"


def default_ref(config: "Config", which: str) -> str:
    return str(config.data[which].get("default_branch") or "main")


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """An exclusive lock on directory/.lock for the duration (POSIX; a no-op elsewhere)."""
    directory.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; the rename dance still keeps it sound
        yield
        return
    # Never through a link: the lock file is created or opened as itself, in the cache.
    try:
        fd = os.open(directory / ".lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as exc:
        raise InputError(f"cannot lock the cache: {exc.strerror or exc}", str(directory / ".lock")) from None
    with os.fdopen(fd, "r+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _write_json_atomically(path: Path, data: dict) -> None:
    from drafterlint.safeio import write_file

    write_file(path, json.dumps(data, indent=2) + "\n", within=path.parent, what="sync record")


def sync(config: "Config", which: str, url: str | None = None, ref: str | None = None,
         cache: Path | None = None) -> dict[str, Any]:
    """Fetch `which` ("rules"|"registry") into the cache; return what fetched.json records."""
    from drafterlint import gitops
    from drafterlint.sources import cached_checkout_dir

    allow_local = local_sync_allowed()
    url = url or default_url(config, which)
    if not allow_local and _local(url):
        raise InputError(f"repository URL {url!r} is a local path: sync fetches https URLs only; set "
                         f"{ALLOW_LOCAL_ENV}=1 to sync from a local repository or file:// URL")
    url = gitops.validate_url(url, allow_local=allow_local)
    ref = gitops.validate_ref(ref or default_ref(config, which))
    base = cached_checkout_dir(config, which, cache)
    with _locked(base):
        marker = base / FETCHED

        def retire_marker() -> None:
            # The new checkout is complete. From here until the new marker is written, `check`
            # sees no cached copy at all (rather than a marker describing another commit).
            with contextlib.suppress(FileNotFoundError):
                marker.unlink()

        sha = gitops.bring(
            url, ref, base / CHECKOUT, allow_local=allow_local, before_swap=retire_marker
        )
        record = {
            "url": url,
            "ref": ref,
            "commit": sha,
            "fetched_at": datetime.datetime.now(datetime.timezone.utc)
            .replace(microsecond=0)
            .isoformat()
            .replace("+00:00", "Z"),
        }
        _write_json_atomically(marker, record)
    record["path"] = str(base / CHECKOUT)
    return record


def sync_command(options: SyncOptions) -> int:
    from drafterlint.options import Chosen
    from drafterlint.safeio import say
    from drafterlint.steps import configuration

    config = configuration(Chosen(config=options.config))
    cache = Path(options.cache_dir).expanduser().resolve() if options.cache_dir else None
    record = sync(config, options.which, options.url, options.ref, cache)
    say(f"synced {options.which} {record['url']} at {record['ref']} "
        f"({record['commit'][:12]}) into {record['path']}", sys.stdout)
    return 0
