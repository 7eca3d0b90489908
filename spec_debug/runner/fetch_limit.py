"""How many bytes a fetch step may copy to the controller, and what it skipped or cut.

`fetch: {src: /var/log/sglang/*.log}` on a host that kept a month of logs, or a mistaken
`src: /data/checkpoints/model-*.safetensors`, copied tens of GB into runs/<id>/artifacts/
and filled the controller's disk (then run.json could not be written either). A fetch step
now copies at most its limit in all, the step's `artifact_limit` or the run's
`--artifact-limit` (256 MiB unless raised; 0 copies all), and never more than the
controller's disk can take while keeping KEEP_FREE bytes free (or half of it, when less is free). Each file's size is read on
the host (stat, over SFTP or locally) before a byte is copied: a file larger than what is
left is not copied at all; a file that turns out longer than its stat said (a log being
written, /proc files that stat as 0 bytes) is cut at what is left. The step's message, its
facts (`fetch_skipped`, `fetch_cut`) and an SD003 finding say which, how big, and how to
raise the limit.
"""

from __future__ import annotations

import errno
import resource
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from spec_debug.errors import SpecDebugError

KEEP_FREE = 64 * 1024 * 1024
"""Bytes of the controller's disk a fetch leaves free (half of what is free, on a disk with less
than twice this): run.json is rewritten after every step (a fleet's is several MB) and the
reports are written at the end. A nearly full laptop still gets its config.json."""

_READ_CHUNK = 1024 * 1024


class FetchTooLarge(Exception):
    """Transport.get(max_bytes=N) found the file larger than N before copying anything."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes, over the {limit} bytes left to copy")
        self.size = size
        self.limit = limit


class FetchCut(Exception):
    """Transport.get(max_bytes=N) copied N bytes of a file that held more (it grew while being
    copied, or its size reads 0 as /proc files do): the local file holds its first N bytes."""

    def __init__(self, kept: int, size: int | None) -> None:
        super().__init__(f"cut at {kept} bytes")
        self.kept = kept
        self.size = size


class LocalCopyError(SpecDebugError):
    """A fetched file's copy could not be written on this machine (the controller)."""


class LocalTarget:
    """The file on this machine a fetch copies into. Its write errors are this machine's: over
    SSH they met the transport's handling of the host's errors, and a copy cut by the
    controller's file size limit said "[Errno 27] gpu:/var/log/sglang/server.log: File too
    large", sending the user to the host."""

    def __init__(self, file: BinaryIO, path: Path) -> None:
        self._file = file
        self._path = path

    def write(self, data: bytes) -> int:
        try:
            return self._file.write(data)
        except OSError as exc:
            raise local_copy_error(exc, self._path) from None

    def flush(self) -> None:
        try:
            self._file.flush()
        except OSError as exc:
            raise local_copy_error(exc, self._path) from None


def local_copy_error(exc: OSError, path: Path) -> LocalCopyError:
    """exc, met writing path on this machine, as the fetch step says it. Python ignores SIGXFSZ
    (its startup sets it to SIG_IGN), so a write past the file size limit fails with EFBIG."""
    said = f"cannot write its copy on this machine ({path}): {exc.strerror or exc}"
    if exc.errno == errno.EFBIG:
        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        if limit != resource.RLIM_INFINITY:
            said += (f" (the file size limit of the shell that started spec-debug, ulimit -f: {limit} bytes; "
                     "raise it there, or fetch less with a narrower src)")
    return LocalCopyError(said)


def check_size(size: int, max_bytes: int | None) -> None:
    """Raise FetchTooLarge when a file's size (as stat says before the copy) is over max_bytes."""
    if max_bytes is not None and size > max_bytes:
        raise FetchTooLarge(size, max_bytes)


def copy_capped(source: BinaryIO, target: BinaryIO | LocalTarget, max_bytes: int | None, size: int | None) -> None:
    """Copy source to target, at most max_bytes of it (None: all). Reads one byte past the cap
    to tell a file that ended there from one that had more, which raises FetchCut (target then
    holds the first max_bytes bytes; the caller keeps it)."""
    if max_bytes is None:
        shutil.copyfileobj(source, target, _READ_CHUNK)
        return
    copied = 0
    while copied <= max_bytes:
        chunk = source.read(min(_READ_CHUNK, max_bytes + 1 - copied))
        if not chunk:
            return
        target.write(chunk[: max_bytes - copied])
        copied += len(chunk)
    raise FetchCut(max_bytes, size)


def human_size(size: int) -> str:
    """`9.3 GiB`, `812 bytes`: as `ls -lh` and the --artifact-limit option read sizes."""
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{size} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


@dataclass
class FetchBudget:
    """What one fetch step may still copy, and what it skipped or cut (in the order met)."""

    limit: int | None
    """Bytes in all; None: no limit but the controller's free space."""
    artifacts: Path
    """Where the copies go: its disk's free space is checked before each copy."""
    used: int = 0
    skipped: list[dict[str, object]] = field(default_factory=list)
    cut: list[dict[str, object]] = field(default_factory=list)
    _by_disk: bool = False

    def max_bytes(self) -> int:
        """Bytes the next file may take: what is left of the limit, and of the controller's disk
        less KEEP_FREE."""
        free = _free_bytes(self.artifacts)
        free -= _kept_free(free)
        left = None if self.limit is None else max(0, self.limit - self.used)
        self._by_disk = left is None or free < left
        return free if self._by_disk else left

    @property
    def by_disk(self) -> bool:
        """Whether the controller's free disk, not the limit, set the last max_bytes()."""
        return self._by_disk

    def copied(self, local: Path) -> None:
        self.used += local.stat().st_size

    def too_large(self, remote: str, exc: FetchTooLarge) -> str:
        self.skipped.append({"src": remote, "bytes": exc.size})
        return f"{remote}: not copied: {human_size(exc.size)}, {self._over()}"

    def was_cut(self, remote: str, artifact: str, exc: FetchCut) -> str:
        self.used += exc.kept
        self.cut.append({"src": remote, "artifact": artifact, "bytes_kept": exc.kept})
        return f"{remote}: cut after its first {human_size(exc.kept)} (it had more than its size said: a log still written?), {self._over()}"

    def _over(self) -> str:
        if self._by_disk:
            free = _free_bytes(self.artifacts)
            return (f"more than the controller's disk has free for it ({human_size(free)} free, "
                    f"{human_size(_kept_free(free))} of it kept for run.json): free some space or pass --out DIR on a bigger disk")
        assert self.limit is not None
        already = f" ({human_size(self.used)} already copied by this step)" if self.used else ""
        return (f"over this step's fetch limit of {human_size(self.limit)}{already}: raise the step's artifact_limit "
                "(e.g. artifact_limit: 20G; 0 copies all) or --artifact-limit")

    def facts(self) -> dict[str, object]:
        return {"fetch_skipped": list(self.skipped), "fetch_cut": list(self.cut)}


def _kept_free(free: int) -> int:
    return min(KEEP_FREE, free // 2)


def _free_bytes(folder: Path) -> int:
    """Free bytes on the disk that holds folder (or its nearest existing parent)."""
    for candidate in (folder, *folder.parents):
        try:
            return shutil.disk_usage(candidate).free
        except FileNotFoundError:
            continue
    return 0
