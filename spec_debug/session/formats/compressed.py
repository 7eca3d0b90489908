"""Compressed transcripts, read as a stream (never decompressed whole into memory).

People keep old sessions as ``session.jsonl.gz`` (``gzip -r`` over a project folder,
logrotate's ``compress``), ``.bz2`` or ``.xz``, and Codex itself compresses every rollout
idle for seven days to ``rollout-*.jsonl.zst`` and deletes the plain file (openai/codex
``codex-rs/rollout/src/compression.rs``, since v0.137.0: ``COMPRESSED_SUFFIX = ".zst"``,
``MIN_ROLLOUT_AGE`` 7 days). The kind is known by the first bytes, so a compressed file under
a plain name is read too. gzip, bzip2 and xz are in the stdlib; zstd is not before Python
3.14, so it is read through the ``zstd`` command (the Debian/Ubuntu ``zstd`` package).
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import shutil
import subprocess
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

READ_BUFFER = 1 << 16
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"\x28\xb5\x2f\xfd", "zstd"))
"""RFC 1952 (gzip), the bzip2 and xz file formats, RFC 8878 (zstd frame magic 0xFD2FB528,
little-endian)."""
SUFFIXES = (".gz", ".bz2", ".xz", ".zst")
_OPENERS: dict[str, Callable[[BinaryIO], BinaryIO]] = {
    "gzip": lambda f: gzip.GzipFile(fileobj=f, mode="rb"),  # reads every member of a concatenated file
    "bzip2": bz2.BZ2File, "xz": lzma.LZMAFile}


class ZstdError(OSError):
    """The ``zstd`` command ended with an error: the stream is cut short or corrupt."""


DAMAGE = (EOFError, OSError, zlib.error, lzma.LZMAError)
"""What a decompressor raises on a cut or corrupt stream: EOFError ("Compressed file ended
before the end-of-stream marker was reached"), gzip.BadGzipFile, bz2's "Invalid data stream"
and :class:`ZstdError` (OSError), zlib.error, lzma.LZMAError."""


def kind_of(head: bytes) -> str | None:
    """``gzip`` / ``bzip2`` / ``xz`` / ``zstd`` from a file's first bytes (6 are enough)."""
    return next((name for magic, name in _MAGIC if head.startswith(magic)), None)


def kind_of_file(path: Path) -> str | None:
    try:
        with open(path, "rb") as f:
            return kind_of(f.read(6))
    except OSError:
        return None


def readable(kind: str) -> bool:
    """This machine can decompress ``kind`` (zstd needs the ``zstd`` command)."""
    return kind != "zstd" or shutil.which("zstd") is not None


def unpacked_name(name: str) -> str:
    """``session.jsonl`` for ``session.jsonl.gz`` (.bz2, .xz, .zst): the name the transcript
    had before it was compressed, which says its session id and kind."""
    lower = name.lower()
    for suffix in SUFFIXES:
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)]
    return name


def transcript_stem(path: Path) -> str:
    """The session id a file name gives: its stem, compression suffix and all
    (``<sessionId>.jsonl.gz`` -> ``<sessionId>``)."""
    return Path(unpacked_name(path.name)).stem


@contextmanager
def decompressed(f: BinaryIO, kind: str, path: Path) -> Iterator[BinaryIO]:
    """A readable stream (``read1``, ``readline``, ``peek``) of the text in ``f`` (the open
    file ``path``, compressed as ``kind``). Damage shows as one of :data:`DAMAGE` when reached."""
    if kind != "zstd":
        with _OPENERS[kind](f) as stream:
            yield stream
        return
    with _ZstdPipe(path) as stream:
        yield stream  # type: ignore[misc]  # a BufferedIOBase


@contextmanager
def open_transcript(path: Path) -> Iterator[BinaryIO]:
    """The file's bytes, decompressed as they are read when it is compressed."""
    with open(path, "rb", buffering=READ_BUFFER) as f:
        kind = kind_of(f.peek(6)[:6])
        if kind is None:
            yield f
            return
        with decompressed(f, kind, path) as stream:
            yield stream


def read_head(path: Path, size: int, unreadable: list[str] | None = None) -> bytes:
    """Up to ``size`` first bytes of the transcript, decompressed; a damaged compressed
    stream gives what came before the damage. When not a byte of it decompresses, what is
    wrong is added to ``unreadable``."""
    with open(path, "rb") as raw:
        kind = kind_of(raw.read(6))
        raw.seek(0)
        if kind is None:
            return raw.read(size)
        parts: list[bytes] = []
        got = 0
        try:
            with decompressed(raw, kind, path) as stream:
                while got < size:
                    # read1: one step of the decompressor, so the bytes before damage are
                    # returned (read(n) would drop them with the exception).
                    block = stream.read1(size - got)
                    if not block:
                        break
                    parts.append(block)
                    got += len(block)
        except DAMAGE as exc:
            if unreadable is not None and not parts:
                unreadable.append(f"{kind} data is cut short or corrupt ({exc})")
        return b"".join(parts)


class _ZstdPipe(io.BufferedIOBase):
    """``zstd -dc FILE`` as a stream: its output read as it comes, its exit status checked
    at the end (a cut or corrupt frame makes it fail after what it could decode), and the
    process stopped when the reader stops early."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        # -q: no progress line on stderr; "--": a file name that starts with "-" stays a name.
        self._proc = subprocess.Popen(["zstd", "-dcq", "--", str(path)], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=READ_BUFFER)
        self._out = self._proc.stdout
        self._done = False

    def close(self) -> None:
        if not self.closed:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            self._out.close()
            self._proc.stderr.close()
        super().close()

    def _checked(self, data: bytes) -> bytes:
        if not data and not self._done:
            self._done = True
            if self._proc.wait() != 0:
                message = self._proc.stderr.read(4096).decode("utf-8", "replace").strip()
                raise ZstdError(message.splitlines()[-1] if message else f"zstd exited with {self._proc.returncode}")
        return data

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        return self._checked(self._out.read1(size))

    def read(self, size: int | None = -1) -> bytes:
        return self._checked(self._out.read(size))

    def readline(self, size: int | None = -1) -> bytes:
        return self._checked(self._out.readline(size))

    def peek(self, size: int = 0) -> bytes:
        return self._out.peek(size)
