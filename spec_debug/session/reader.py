"""Streaming readers: lines, JSONL records and JSON-array elements, in bounded memory.

A file is never read whole: lines come one at a time (``readline`` with a limit, so a
single 1 GB line cannot exhaust memory) and JSON arrays are decoded element by element.
Broken, non-object and over-long lines are counted in :class:`ReadStats` and skipped.
"""

from __future__ import annotations

import codecs
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import ReadStats

MAX_LINE_BYTES = 32 * 1024 * 1024
"""Longest line we decode. Longer lines are skipped (counted as ``too_long``): a transcript
line that size is a pasted binary blob, and decoding it would break the memory bound."""

_CHUNK = 1 << 20
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
"""Windows PowerShell 5 writes UTF-16LE with a byte-order mark for ``>`` and ``Out-File``
(Microsoft Learn, about_Redirection and about_Character_Encoding: "Unicode" is its default),
so a session log or a JSONL saved that way is UTF-16 from its first two bytes."""
_READ_BUFFER = 1 << 16
try:
    from orjson import JSONDecodeError as _FastError, loads as _fast_loads
except ImportError:  # orjson is a dependency, but an analysis must not need it
    _fast_loads, _FastError = None, ValueError
"""orjson decodes a transcript line about twice as fast as the stdlib (and is exact: the same
objects). It refuses what the stdlib accepts only at the edges (lone surrogate escapes, NaN),
and those lines go through the stdlib path. One difference stays: orjson reads an integer
past 64 bits as a float; no field the analysis reads (exit codes, token counts, line
numbers) comes near that."""
_DECODER = json.JSONDecoder()
"""``json.loads`` on bytes sniffs the encoding (``json.detect_encoding``), decodes with
``surrogatepass`` and calls this decoder; a line that starts with ``{`` is UTF-8 to that
sniffing, so the reader does those two steps itself and skips the per-line sniff."""


def iter_lines(path: Path, stats: ReadStats, max_bytes: int | None = None,
               span: tuple[int, int] | None = None) -> Iterator[tuple[int, bytes | None]]:
    """Yield ``(line_number, raw_line)``; ``raw_line`` is None for a line longer than
    ``max_bytes`` (already counted as ``too_long`` and drained, never held).

    ``span=(start, end)`` reads only the lines that start in those bytes (``start`` at a
    line start); line numbers then count from the span's first line."""
    if max_bytes is None:
        max_bytes = MAX_LINE_BYTES
    # A transcript line is often longer than the default 8 KB buffer (a tool result is in it
    # twice: the content block and toolUseResult), and ``readline`` then assembles it from
    # several raw reads: with 64 KB, reading the lines of a 30 MB session took 0.02 s, not 0.10 s.
    with open(path, "rb", buffering=_READ_BUFFER) as f:
        if span is None and f.peek(2)[:2] in _UTF16_BOMS:
            yield from _utf16_lines(f, stats, max_bytes)
            return
        readline = f.readline
        lineno = 0
        pos, end = (0, None) if span is None else span
        if pos:
            f.seek(pos)
        while end is None or pos < end:
            raw = readline(max_bytes + 1)
            if not raw:
                return
            pos += len(raw)
            lineno += 1
            stats.lines += 1
            if len(raw) > max_bytes:
                # Drain the rest of the over-long line without keeping it.
                while raw and not raw.endswith(b"\n"):
                    raw = readline(_CHUNK)
                    pos += len(raw)
                stats.too_long += 1
                yield lineno, None  # keeps its place in the numbering
                continue
            yield lineno, raw


def is_utf16(path: Path) -> bool:
    """The file starts with a UTF-16 byte-order mark (see :data:`_UTF16_BOMS`)."""
    try:
        with open(path, "rb") as f:
            return f.read(2) in _UTF16_BOMS
    except OSError:
        return False


def _utf16_lines(f, stats: ReadStats, max_bytes: int) -> Iterator[tuple[int, bytes | None]]:
    """:func:`iter_lines` over a UTF-16 file: decoded as it is read and handed on as UTF-8
    bytes, so every reader after this sees what a UTF-8 file gives (the mark is dropped)."""
    text = io.TextIOWrapper(f, encoding="utf-16", errors="replace", newline="\n")
    lineno = 0
    while True:
        line = text.readline(max_bytes + 1)
        if not line:
            return
        lineno += 1
        stats.lines += 1
        if len(line) > max_bytes:
            while line and not line.endswith("\n"):
                line = text.readline(_CHUNK)
            stats.too_long += 1
            yield lineno, None
            continue
        yield lineno, line.encode("utf-8", "surrogatepass")


def line_starts(path: Path, every: int) -> list[int]:
    """Offsets of line starts about ``every`` bytes apart, from 0 to the file size: the
    spans a file is cut into for worker processes (a line is never cut)."""
    size = path.stat().st_size
    bounds = [0]
    with open(path, "rb") as f:
        target = every
        while target < size:
            f.seek(target)
            pos = target
            while True:  # to the next newline, in blocks (a line may be huge)
                block = f.read(1 << 16)
                if not block:
                    pos = size
                    break
                nl = block.find(b"\n")
                if nl >= 0:
                    pos += nl + 1
                    break
                pos += len(block)
            if pos >= size:
                break
            bounds.append(pos)
            target = pos + every
    bounds.append(size)
    return bounds


def iter_json_records(path: Path, stats: ReadStats,
                      span: tuple[int, int] | None = None) -> Iterator[tuple[int, int, dict]]:
    """Yield ``(record_index, line_number, object)`` for each JSON-object line.

    ``record_index`` counts every non-blank line, parsed or not, so that indices stay the
    same when a broken line in the middle is later repaired or skipped. With ``span`` (see
    :func:`iter_lines`) indices and line numbers count from the span's start, and
    ``stats.records`` says how many indices the span used.
    """
    index = -1
    loads = json.loads
    # The C scanner that ``JSONDecoder.decode`` calls through two Python frames (raw_decode,
    # then a whitespace regex after the value): called directly, with the same checks.
    scan = _DECODER.scan_once
    fast = _fast_loads
    for lineno, raw in iter_lines(path, stats, span=span):
        if raw is None:
            index += 1
            stats.records += 1
            continue
        if raw.isspace():
            continue
        index += 1
        stats.records += 1
        if fast is not None:
            try:
                obj = fast(raw)
            except _FastError:
                pass  # the stdlib decides: it accepts a few things orjson refuses
            else:
                if type(obj) is not dict:
                    stats.non_object += 1
                    continue
                yield index, lineno, obj
                continue
        try:
            if raw[:1] == b"{" and raw[1:2] != b"\x00":  # what json.loads would sniff as UTF-8
                text = raw.decode("utf-8", "surrogatepass")
                obj, end = scan(text, 0)
                if end != len(text) and text[end:].strip(" \t\n\r"):
                    raise ValueError("extra data")  # json.loads: JSONDecodeError("Extra data")
            else:
                obj = loads(raw)
        except (ValueError, StopIteration):  # JSONDecodeError, UnicodeDecodeError; the scanner's "no value"
            if b"\x00" not in raw:
                stats.broken_json += 1
                continue
            for n, obj in enumerate(_unpadded(raw, stats)):
                if n:  # a record appended right after the padding, on the same line
                    index += 1
                    stats.records += 1
                if obj is not None:
                    yield index, lineno, obj
            continue
        if type(obj) is not dict:
            stats.non_object += 1
            continue
        yield index, lineno, obj


_NUL_RUN = re.compile(rb"\x00+")


def _unpadded(raw: bytes, stats: ReadStats) -> Iterator[dict | None]:
    """The records of a line that holds runs of NUL bytes: what a crash during an append
    leaves (the file was extended but the block never written). Seen in Claude Code sessions
    as a valid record followed by ~9 KB of NULs on its line, a final line of ~143 KB of NULs
    (anthropics/claude-code issue #76059), and a mid-file run of NULs with valid appends after
    it (issue #49876). JSON never holds a raw NUL, so each piece between the runs is decoded on
    its own: one object per piece (None where it is no record; counted). A line of padding
    alone is counted as binary."""
    pieces = [piece for piece in _NUL_RUN.split(raw) if piece.strip()]
    if not pieces:
        stats.binary += 1
        yield None
        return
    for piece in pieces:
        try:
            obj = json.loads(piece)
        except ValueError:
            stats.broken_json += 1
            yield None
            continue
        if type(obj) is not dict:
            stats.non_object += 1
            yield None
            continue
        yield obj


def iter_json_array(path: Path, stats: ReadStats, key: str = "messages") -> Iterator[tuple[int, int, dict]]:
    """Yield the object elements of a top-level JSON array (or of ``{key: [...]}``).

    Decodes one element at a time with ``raw_decode`` over a sliding buffer; a single element
    larger than :data:`MAX_LINE_BYTES` is skipped as ``too_long``. The line number given is
    that of the element's first character.
    """
    decoder = json.JSONDecoder()
    with open(path, "rb") as fb:
        f = _Utf8Reader(fb)
        buf = f.read()
        pos = _skip_ws(buf, 0)
        if buf[pos:pos + 1] == "{":
            # Find the array under `key` (common wrapper: {"messages": [...]}). The key must
            # open an array: a request body saved as sent ({model, tools, messages}) may name a
            # "messages" property in a tool's JSON schema first, and list it under "required".
            marker = re.compile(rf'"{re.escape(key)}"\s*:\s*\[')
            found = marker.search(buf)
            while found is None and len(buf) < MAX_LINE_BYTES:
                more = f.read()
                if not more:
                    break
                buf += more
                found = marker.search(buf, max(0, len(buf) - len(more) - 64))
            if found is None:
                stats.broken_json += 1
                return
            pos = found.end() - 1
        elif buf[pos:pos + 1] != "[":
            stats.broken_json += 1
            return
        line = 1  # line number of buf[0]
        pos += 1
        index = -1
        while True:
            pos = _skip_ws(buf, pos)
            if pos < len(buf) and buf[pos] == ",":
                pos += 1
                continue
            if pos < len(buf) and buf[pos] in "]}":
                return
            if pos >= len(buf):
                more = f.read()
                if not more:
                    return  # truncated array: elements so far were already yielded
                line += buf.count("\n", 0, pos)
                buf = buf[pos:] + more
                pos = 0
                continue
            try:
                obj, end = decoder.raw_decode(buf, pos)
            except ValueError:
                # An element cut by the chunk edge: read as much again as is pending, so a
                # large element is re-decoded a logarithmic number of times, not once a chunk.
                more = f.read(max(_CHUNK, len(buf) - pos))
                if not more:
                    stats.broken_json += 1  # truncated last element
                    return
                if len(buf) - pos > MAX_LINE_BYTES:
                    stats.too_long += 1
                    return
                line += buf.count("\n", 0, pos)
                buf = buf[pos:] + more
                pos = 0
                continue
            index += 1
            stats.lines += 1
            elem_line = line + buf.count("\n", 0, pos)
            if type(obj) is dict:
                yield index, elem_line, obj
            else:
                stats.non_object += 1
            line += buf.count("\n", 0, end)
            buf = buf[end:]
            pos = 0


def _skip_ws(buf: str, pos: int) -> int:
    n = len(buf)
    while pos < n and buf[pos] in " \t\r\n":
        pos += 1
    return pos


class _Utf8Reader:
    """Reads text in chunks, decoding UTF-8 (or UTF-16 after its byte-order mark)
    incrementally (bad bytes become U+FFFD, a leading byte-order mark is dropped: editors on
    Windows write one)."""

    def __init__(self, fb) -> None:
        self._fb = fb
        # A BOM is not JSON; a UTF-16 one says the whole file is UTF-16 (PowerShell's ">").
        encoding = "utf-16" if fb.peek(2)[:2] in _UTF16_BOMS else "utf-8-sig"
        self._dec = codecs.getincrementaldecoder(encoding)(errors="replace")

    def read(self, size: int = _CHUNK) -> str:
        chunk = self._fb.read(size)
        return self._dec.decode(chunk, final=not chunk)
