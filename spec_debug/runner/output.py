"""Bounded capture of a command's output.

A step may print gigabytes (a model dump, a log cat). The record keeps at most
``limit_bytes`` of each stream (head and tail, since the end holds the traceback) and the
full stream is spilled to an artifact file, so nothing is lost and memory stays flat.

The disk may fill while a step prints gigabytes: then the spill stops, its partial file is
removed (it would pass for the full output, and it holds the space run.json needs next), and
the record's truncation marker says the full output could not be saved, and why. The step
itself goes on; a full disk is not the command's failure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable

DEFAULT_CAPTURE_LIMIT = 256 * 1024

TRUNCATION_MARKER = re.compile(r"\n\.\.\. \[(\d+) bytes truncated; [^\]\n]*\] \.\.\.\n")
"""What text() puts between head and tail; readers of captured text look for it."""

LineCallback = Callable[[str, str], None]
"""Called with (stream name, decoded line) as lines complete, for live display."""


@dataclass
class StreamCapture:
    """Keeps the head and tail of one stream in memory and the whole of it on disk."""

    name: str
    limit_bytes: int = DEFAULT_CAPTURE_LIMIT
    spill_path: Path | None = None
    on_line: LineCallback | None = None
    total_bytes: int = 0
    _head: bytearray = field(default_factory=bytearray)
    _tail: bytearray = field(default_factory=bytearray)
    _spill: IO[bytes] | None = None
    _partial_line: bytearray = field(default_factory=bytearray)
    spill_error: str | None = None
    """Why the full stream could not be saved (e.g. "No space left on device"), else None."""

    def write(self, chunk: bytes) -> None:
        if not chunk:
            return
        self.total_bytes += len(chunk)
        half = self.limit_bytes // 2
        if len(self._head) < half:
            take = half - len(self._head)
            self._head += chunk[:take]
            chunk_rest = chunk[take:]
        else:
            chunk_rest = chunk
        if chunk_rest:
            self._tail += chunk_rest
            if len(self._tail) > 2 * half:
                del self._tail[: len(self._tail) - half]
        if self.spill_path is not None and self.spill_error is None:
            try:
                if self._spill is None:
                    self.spill_path.parent.mkdir(parents=True, exist_ok=True)
                    self._spill = open(self.spill_path, "wb")
                self._spill.write(chunk)
            except OSError as exc:
                self._give_up_spill(exc)
        if self.on_line is not None:
            self._emit_lines(chunk)

    def _emit_lines(self, chunk: bytes) -> None:
        self._partial_line += chunk
        # A line longer than the cap is flushed as is rather than buffered forever.
        while True:
            newline = self._partial_line.find(b"\n")
            if newline < 0:
                if len(self._partial_line) > self.limit_bytes:
                    newline = len(self._partial_line) - 1
                else:
                    return
            line = bytes(self._partial_line[: newline + 1])
            del self._partial_line[: newline + 1]
            assert self.on_line is not None
            self.on_line(self.name, line.decode("utf-8", "replace").rstrip("\n"))

    @property
    def truncated(self) -> bool:
        return self.total_bytes > self.limit_bytes

    def text(self) -> str:
        """The captured text: whole if it fits, else head, a marker, and tail."""
        if not self.truncated:
            return (bytes(self._head) + bytes(self._tail)).decode("utf-8", "replace")
        half = self.limit_bytes // 2
        tail = bytes(self._tail[-half:])
        skipped = self.total_bytes - len(self._head) - len(tail)
        where = "full output in artifacts" if self.spill_error is None else f"the full output could not be saved: {self.spill_error}"
        marker = f"\n... [{skipped} bytes truncated; {where}] ...\n"
        return bytes(self._head).decode("utf-8", "replace") + marker + tail.decode("utf-8", "replace")

    def search_whole(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """The first match of pattern anywhere in the stream, the part cut from the record
        included: an expectation such as `not_contains: CUDA out of memory` on a long log must
        not pass because the line fell between the kept head and tail. The spilled file is read
        line by line (memory stays flat); a pattern spanning lines matches in the kept text only.
        Call after close()."""
        kept = pattern.search(self.text())
        if kept is not None or not self.truncated or self.spill_path is None or self.spill_error is not None:
            return kept
        try:
            with open(self.spill_path, "rb") as spilled:
                for raw_line in spilled:
                    found = pattern.search(raw_line.decode("utf-8", "replace"))
                    if found is not None:
                        return found
        except OSError:
            return None  # the artifact was removed meanwhile: the kept text is all there is
        return None

    @property
    def whole_stream_searchable(self) -> bool:
        """False when part of the stream is neither in the record nor on disk."""
        return not self.truncated or (self.spill_path is not None and self.spill_error is None)

    def close(self) -> None:
        if self.on_line is not None and self._partial_line:
            self.on_line(self.name, self._partial_line.decode("utf-8", "replace"))
            self._partial_line.clear()
        if self._spill is not None:
            try:
                self._spill.close()  # flushes: on a full disk this is where the write fails
            except OSError as exc:
                self._spill = None
                self._give_up_spill(exc)
            self._spill = None
            # Keep the spill file only when the record could not hold everything.
            if not self.truncated and self.spill_path is not None:
                self.spill_path.unlink(missing_ok=True)

    def _give_up_spill(self, exc: OSError) -> None:
        self.spill_error = exc.strerror or str(exc)
        if self._spill is not None:
            try:
                self._spill.close()
            except OSError:
                pass  # the same full disk: the file is removed below anyway
            self._spill = None
        if self.spill_path is not None:
            try:
                self.spill_path.unlink(missing_ok=True)
            except OSError:
                pass
