"""A stream's artifact file, capped: its head and its end, and how much was dropped between them.

A step that floods its output (`yes`, `cat /dev/urandom | base64`, `journalctl -f` or
`tail -f` of a busy server log under a long timeout) writes hundreds of MB a second; spilled
whole, it filled a GPU host's /home or a laptop before the timeout fired. The artifact keeps
the first half of ``limit`` bytes as they come, and the last half in a ring file beside it
(the end holds the traceback); at close the two are joined around a line that says exactly
how many bytes were dropped between them. Bytes are counted as written to the file, i.e.
after masking (a masked secret is shorter or longer than the secret).

On disk it holds at most ``limit`` bytes while the stream runs, plus the ring's half again
for the moment the end is copied after the head.
"""

from __future__ import annotations

import errno
import shutil
from pathlib import Path
from typing import IO

DEFAULT_ARTIFACT_LIMIT = 256 * 1024 * 1024
"""Per stream. A vLLM/SGLang server log of a day's benchmark at INFO level (one stats line every
few seconds, a line per request) is tens of MB and is kept whole; a flood (`yes` writes about
a GB a second) stops at this. Two streams, each attempt its own: a step that floods both
and retries twice leaves 1.5 GiB at most, which a GPU host's disk survives."""

_COPY_CHUNK = 1024 * 1024


def dropped_line(dropped: int, head: int, tail: int, limit: int) -> bytes:
    """What the artifact holds where its middle was dropped: on a line of its own."""
    return (
        f"\n... [spec-debug: {dropped} bytes of this stream dropped here; this file keeps its first {head} "
        f"and last {tail} bytes (artifact limit {limit} bytes per stream)] ...\n"
    ).encode()


class CappedSpill:
    """Writes a stream to ``path``, keeping at most ``limit`` bytes of it (None or 0: all)."""

    def __init__(self, path: Path, limit: int | None, root: Path | None = None) -> None:
        self.path = path
        self.limit = limit or None
        self.root = root
        """The run folder ``path`` lies in: a spill makes the folders below it, never it again."""
        self.written = 0
        """Bytes offered so far (after masking), kept or not."""
        self._file: IO[bytes] | None = None
        self._ring: IO[bytes] | None = None
        self._ring_path = path.with_name(path.name + ".tail-part")
        self._head = 0 if self.limit is None else self.limit - self.limit // 2
        self._tail = 0 if self.limit is None else self.limit // 2

    @property
    def dropped(self) -> int:
        """Bytes of the stream that are not in the artifact."""
        return 0 if self.limit is None else max(0, self.written - self.limit)

    def write(self, data: bytes) -> None:
        if not data:
            return
        if self._file is None:
            if self.root is not None and not self.root.is_dir():
                # Removed mid-run (a cleanup of runs/, an rm -r): making it again held this
                # artifact and a record without the run's earlier files, and the run passed.
                raise FileNotFoundError(errno.ENOENT, "the run folder was removed", str(self.root))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "wb")
        offered_before = self.written
        self.written += len(data)
        if self.limit is None:
            self._file.write(data)
            return
        room = max(0, self._head - offered_before)
        if room:
            self._file.write(data[:room])
            data = data[room:]
            offered_before += room
        if data and self._tail:
            self._to_ring(data, offered_before - self._head)

    def _to_ring(self, data: bytes, ring_total: int) -> None:
        """Writes data at its place in the ring: byte n after the head lives at n % tail."""
        if self._ring is None:
            self._ring = open(self._ring_path, "w+b")
        if len(data) >= self._tail:  # only its end survives
            ring_total += len(data) - self._tail
            data = data[-self._tail :]
        at = ring_total % self._tail
        first = min(len(data), self._tail - at)
        self._ring.seek(at)
        self._ring.write(data[:first])
        if first < len(data):
            self._ring.seek(0)
            self._ring.write(data[first:])

    def close(self) -> None:
        """Joins head and tail into the artifact. Raises OSError (a full disk): then discard()."""
        if self._file is None:
            return
        try:
            if self._ring is not None:
                self._ring.flush()
            ring_total = self.written - self._head
            if self.dropped:
                self._file.write(dropped_line(self.dropped, self._head, self._tail, self.limit or 0))
                if self._ring is not None:
                    at = ring_total % self._tail
                    self._copy(at, self._tail - at)  # the oldest bytes of the end
                    self._copy(0, at)
            elif self._ring is not None:
                self._copy(0, ring_total)
            self._file.close()  # flushes: on a full disk this is where the write fails
        finally:
            self._close_ring()
        self._file = None

    def _copy(self, start: int, length: int) -> None:
        assert self._ring is not None and self._file is not None
        self._ring.seek(start)
        shutil.copyfileobj(_Limited(self._ring, length), self._file, _COPY_CHUNK)

    def _close_ring(self) -> None:
        if self._ring is not None:
            try:
                self._ring.close()
            except OSError:
                pass  # its bytes are no longer needed
            self._ring = None
            try:
                self._ring_path.unlink(missing_ok=True)
            except OSError:
                pass

    def discard(self) -> None:
        """Removes what was written: a partial artifact would pass for the output."""
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass  # the same full disk: the file is removed below anyway
            self._file = None
        self._close_ring()
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass  # nothing more can be done; the record says the output was not saved


class _Limited:
    """The next ``length`` bytes of a file, for shutil.copyfileobj."""

    def __init__(self, source: IO[bytes], length: int) -> None:
        self._source, self._left = source, length

    def read(self, size: int = -1) -> bytes:
        want = self._left if size < 0 else min(size, self._left)
        chunk = self._source.read(want) if want > 0 else b""
        self._left -= len(chunk)
        return chunk

