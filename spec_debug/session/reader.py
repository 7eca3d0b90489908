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
from collections.abc import Callable, Iterator
from pathlib import Path

from spec_debug.session.events import ReadStats
from spec_debug.session.formats.compressed import DAMAGE, decompressed, kind_of, open_transcript, read_head

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


def _drain_long_line(raw: bytes, readline) -> int:
    """Read past the rest of an over-long line whose first bytes are raw; the bytes read."""
    read = 0
    while raw and not raw.endswith(b"\n"):
        raw = readline(_CHUNK)
        read += len(raw)
    return read


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
        if span is None:
            head = f.peek(6)[:6]
            if head[:2] in _UTF16_BOMS:
                yield from _utf16_lines(f, stats, max_bytes)
                return
            packed = kind_of(head)
            if packed is not None:
                yield from _packed_lines(f, packed, path, stats, max_bytes)
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
                pos += _drain_long_line(raw, readline)  # without keeping it
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
    return _counted_lines(text.readline, "\n", stats, max_bytes, _to_utf8)


def _to_utf8(line: str) -> bytes:
    return line.encode("utf-8", "surrogatepass")


def _counted_lines(readline: Callable, newline: bytes | str, stats: ReadStats, max_bytes: int,
                   encode: Callable | None = None) -> Iterator[tuple[int, bytes | None]]:
    """The line loop of :func:`iter_lines` over any ``readline`` (a decoded or decompressed
    stream; the plain-file loop stays inline in :func:`iter_lines`, it is the hot path)."""
    lineno = 0
    while True:
        line = readline(max_bytes + 1)
        if not line:
            return
        lineno += 1
        stats.lines += 1
        if len(line) > max_bytes:
            while line and not line.endswith(newline):
                line = readline(_CHUNK)
            stats.too_long += 1
            yield lineno, None
            continue
        yield lineno, line if encode is None else encode(line)


def _packed_lines(f, kind: str, path: Path, stats: ReadStats, max_bytes: int) -> Iterator[tuple[int, bytes | None]]:
    """:func:`iter_lines` over a compressed file (:mod:`formats.compressed`), decompressed as
    it is read. A cut or corrupt stream (a copy stopped half way, a disk error) ends the lines
    there: those before the damage are read and the damage is counted in ``stats.damaged``."""
    start = stats.lines
    last = b"\n"
    try:
        with decompressed(f, kind, path) as stream:
            if stream.peek(2)[:2] in _UTF16_BOMS:
                text = io.TextIOWrapper(stream, encoding="utf-16", errors="replace", newline="\n")
                lines = _counted_lines(text.readline, "\n", stats, max_bytes, _to_utf8)
            else:
                lines = _counted_lines(stream.readline, b"\n", stats, max_bytes)
            for lineno, raw in lines:
                last = raw or b"\n"
                yield lineno, raw
    except DAMAGE as exc:
        stats.damaged.append(f"{path.name}: the {kind} stream is cut short or corrupt after line "
                             f"{stats.lines - start} ({exc}); the lines before it were read")
        if last.endswith(b"\n"):
            # The line the damage cut never came out (the stdlib decompressors drop what they
            # had of it): counted as broken, so every report's summary line shows a loss.
            stats.broken_json += 1


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
    if span is None:
        shape = layout(path)
        if shape == "pretty":
            yield from _pretty_records(iter_lines(path, stats), stats)
            return
        if shape == "rollout":
            yield from _rollout_records(path, stats)
            return
        if shape in ("array", "loglines"):
            for index, lineno, obj in iter_json_array(path, stats, key="loglines" if shape == "loglines" else "messages"):
                stats.records += 1
                yield index, lineno, obj
            return
    fast = _fast_loads
    if fast is None:
        yield from _records_of(iter_lines(path, stats, span=span), stats)
        return
    max_bytes = MAX_LINE_BYTES
    # The plain-file loop of iter_lines, inline: a line is handed on one generator and one tuple
    # fewer (read alone, iter_lines, then this loop over it, cost 0.8 us a line of the bench
    # session, 3% of reading it). A UTF-16 or compressed file goes through iter_lines.
    with open(path, "rb", buffering=_READ_BUFFER) as f:
        if span is None:
            head = f.peek(6)[:6]
            if head[:2] in _UTF16_BOMS or kind_of(head) is not None:
                yield from _records_of(iter_lines(path, stats), stats)
                return
        readline = f.readline
        limit = max_bytes + 1
        index = -1
        lineno = 0
        pos, end = (0, None) if span is None else span
        if pos:
            f.seek(pos)
        while end is None or pos < end:
            raw = readline(limit)
            if not raw:
                return
            pos += len(raw)
            lineno += 1
            stats.lines += 1
            if len(raw) > max_bytes:
                pos += _drain_long_line(raw, readline)  # without keeping it (as iter_lines)
                stats.too_long += 1
                index += 1
                stats.records += 1
                continue
            if raw.isspace():
                continue
            index += 1
            stats.records += 1
            try:
                obj = fast(raw)
            except _FastError:
                # the stdlib decides: it accepts a few things orjson refuses
                index, found = _decoded_slowly(raw, index, stats)
                for at, obj in found:
                    yield at, lineno, obj
                continue
            if type(obj) is not dict:
                stats.non_object += 1
                continue
            yield index, lineno, obj


def _records_of(lines: Iterator[tuple[int, bytes | None]], stats: ReadStats) -> Iterator[tuple[int, int, dict]]:
    """:func:`iter_json_records` over the lines of :func:`iter_lines` (a UTF-16 or compressed
    file, or no orjson)."""
    index = -1
    fast = _fast_loads
    for lineno, raw in lines:
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
        index, found = _decoded_slowly(raw, index, stats)
        for at, obj in found:
            yield at, lineno, obj


def _decoded_slowly(raw: bytes, index: int, stats: ReadStats) -> tuple[int, list[tuple[int, dict]]]:
    """The records of a line the stdlib decodes (see :func:`iter_json_records`): ``(the last
    record index the line used, [(index, object), ...])``; ``index`` is the line's own, counted."""
    # The C scanner that ``JSONDecoder.decode`` calls through two Python frames (raw_decode,
    # then a whitespace regex after the value): called directly, with the same checks.
    try:
        if raw[:1] == b"{" and raw[1:2] != b"\x00":  # what json.loads would sniff as UTF-8
            text = raw.decode("utf-8", "surrogatepass")
            obj, end = _DECODER.scan_once(text, 0)
            if end != len(text) and text[end:].strip(" \t\n\r"):
                raise ValueError("extra data")  # json.loads: JSONDecodeError("Extra data")
        else:
            obj = json.loads(raw)
    except (ValueError, StopIteration, RecursionError) as exc:
        # JSONDecodeError, UnicodeDecodeError; the scanner's "no value"; a line nested deeper than
        # the stdlib recurses (orjson refuses past 1,024 levels, so such a line comes here): broken
        if b"\x00" in raw:
            found = []
            for n, obj in enumerate(_unpadded(raw, stats)):
                if n:  # a record appended right after the padding, on the same line
                    index += 1
                    stats.records += 1
                if obj is not None:
                    found.append((index, obj))
            return index, found
        obj = _with_stray_bytes(raw) if type(exc) is UnicodeDecodeError else None
        if obj is None:
            stats.broken_json += 1
            obj = _glued_record(raw)
            if obj is None:
                return index, []
            index += 1  # the record appended after the cut one, on its line (counted as NULs' are)
            stats.records += 1
    if type(obj) is not dict:
        stats.non_object += 1
        return index, []
    if _SURROGATE.search(raw):  # only lines orjson refused (or without orjson) come here
        obj = without_lone_surrogates(obj)
    return index, [(index, obj)]


_GLUED_TRIES = 256
"""How many object openings of a broken line :func:`_glued_record` tries, from its end."""


def _glued_record(raw: bytes) -> dict | None:
    """The whole record a broken line ends with: a process killed while it appended a line (kill
    -9, OOM, a Remote-SSH tunnel that dropped) leaves the start of a record and no newline, and the
    next append (the session resumed, in the same file) writes its record right after it, so one
    line holds a cut record and a whole one: ``{"type":"pr-link","sessionId":"…","prNu{"parentUuid"
    :…}`` (anthropics/claude-code issue #52387, CLI 2.1.118; github/copilot-cli issue #4098 shows the
    same in another CLI's log). The line was skipped as broken, and the whole record with it: a
    tool's result, so its command read as never answered. Each ``{"`` of the line is tried, from
    the end, for an object that runs to the line's end (one nested in the whole record ends before
    it); the first one found is that record. None when there is none (a line cut at the file's
    end, a line broken otherwise). Only broken lines come here."""
    try:
        text = raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        # the cut fell inside a character (a write cut at a byte count splits "…" or "é"): those
        # bytes are the cut record's, and the whole record after them is UTF-8
        text = raw.decode("utf-8", "replace")
    text = text.rstrip(" \t\n\r")
    scan = _DECODER.scan_once
    end = len(text)
    pos = text.rfind('{"', 0, end)
    for _ in range(_GLUED_TRIES):
        if pos <= 0:
            return None
        try:
            obj, stop = scan(text, pos)
        except (ValueError, StopIteration, RecursionError):
            obj, stop = None, -1
        if stop == end and type(obj) is dict:
            return obj
        pos = text.rfind('{"', 0, pos)
    return None


_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")
"""A surrogate escape (``"\\ud83d"``) or a surrogate encoded as UTF-8 bytes (CESU-8): the
stdlib decodes either to a lone surrogate when it has no partner. Such a line comes from a
tool that cut a string between the two halves of an emoji (JavaScript strings are UTF-16:
``JSON.stringify`` writes a lone half as an escape since ES2019, "well-formed
JSON.stringify"). A lone surrogate cannot be written as UTF-8, so the postmortem, the JSON
analysis and the playbook would all fail to be written; it becomes U+FFFD here."""
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE = re.compile("[\ud800-\udfff]")


def without_lone_surrogates(value):
    """``value`` with every lone surrogate in its strings (keys too) replaced by U+FFFD
    (decoded pairs are one character already, so any surrogate left is alone).

    A walk with a stack of its own, not recursion: a line the stdlib decodes may nest several
    hundred levels, and a recursive walk took two frames a level (the function and its
    comprehension), a RecursionError from about 500 levels that ended the analysis."""
    if type(value) is str:
        return _LONE.sub("\ufffd", value)
    if type(value) is not dict and type(value) is not list:
        return value
    pending: list[tuple[dict | list, dict | list]] = []
    root = _emptied(value, pending)
    while pending:
        given, fixed = pending.pop()
        if type(given) is dict:
            for k, v in given.items():
                fixed[_LONE.sub("\ufffd", k) if type(k) is str else k] = _emptied(v, pending)
        else:
            fixed.extend([_emptied(v, pending) for v in given])
    return root


def _emptied(value, pending: list):
    """A string without lone surrogates; for a dict or list an empty one, queued on ``pending``
    with ``value`` to be filled; anything else as it is."""
    if type(value) is str:
        return _LONE.sub("\ufffd", value)
    if type(value) is dict or type(value) is list:
        fixed = type(value)()
        pending.append((value, fixed))
        return fixed
    return value


def inner_json(text: str) -> object:
    """``json.loads`` of JSON that travels as a string inside a record (Codex and OpenAI tool
    ``arguments``, Codex's wrapped shell output), lone surrogates replaced as for records:
    an escape there is two levels deep, so the record's own decoding never saw it. Raises
    ValueError when it is no JSON, nested too deep (the stdlib recurses per level) included."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
    return without_lone_surrogates(value) if _SURROGATE_ESCAPE.search(text) else value


def decode_json(raw: bytes) -> object:
    """One JSON value from ``raw`` as :func:`iter_json_records` decodes a line (orjson, else
    the stdlib; lone surrogates replaced). Raises ValueError when it is no JSON, nested too
    deep included."""
    if _fast_loads is not None:
        try:
            return _fast_loads(raw)
        except _FastError:
            pass
    try:
        value = json.loads(raw.removeprefix(codecs.BOM_UTF8).decode("utf-8", "surrogatepass"))
    except UnicodeDecodeError:
        value = _with_stray_bytes(raw)
        if value is None:
            raise
    except RecursionError:
        raise ValueError("nested too deep") from None
    return without_lone_surrogates(value) if _SURROGATE.search(raw) else value


def _with_stray_bytes(raw: bytes) -> object | None:
    """The JSON value of a line that is not UTF-8 in a byte or two, those bytes read as cp1252
    (:func:`legacy_text`); None when it is no JSON, or mostly undecodable (binary). A JSONL file
    written by Python on Windows with ``ensure_ascii=False`` is in the locale's code page (cp1252
    "°C", "µs", "é": ``open()`` used it by default before PEP 686), so its non-ASCII lines are
    not UTF-8; dropping the whole line would lose the command or traceback in it."""
    replaced = raw.decode("utf-8", "replace")
    if replaced.count("\ufffd") * 10 > len(replaced):
        return None
    try:
        return json.loads(legacy_text(raw))
    except (ValueError, RecursionError):
        return None


_CP1252 = tuple(bytes([b]).decode("cp1252", "ignore") or chr(b) for b in range(256))
"""Each byte as cp1252 reads it; the five bytes cp1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90,
0x9D) as Latin-1 does, so that every byte stays itself."""


def _stray_bytes_as_cp1252(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return "".join(_CP1252[b] for b in exc.object[exc.start:exc.end]), exc.end


codecs.register_error("spec_debug.cp1252", _stray_bytes_as_cp1252)


def legacy_text(raw: bytes) -> str:
    """``raw`` as UTF-8, each byte that is not UTF-8 read as cp1252: a log or a JSONL line written
    in Windows' code page (cp1252, whose letters are Latin-1's) or by a Latin-1 terminal keeps
    ``/données``, ``95°C``, ``Gerät`` as written. U+FFFD for each lost the letter for good, and
    a path or a command distilled from it was no longer the one that ran; a byte of another code
    page (cmd.exe's cp850) is still kept, as the cp1252 letter of the same byte."""
    return raw.decode("utf-8", "spec_debug.cp1252")


LOGLINES = re.compile(rb'\{\s*"loglines"\s*:\s*\[')
"""A Claude Code web session as the API serves it, ``{"loglines": [records]}``: the session's
JSONL records in one JSON document (``GET /v1/session_ingress/session/<id>``; saved as
``<id>.json`` by simonw/claude-code-transcripts ``web --json``, see its
``src/claude_code_transcripts/__init__.py`` ``fetch_session`` and ``tests/sample_session.json``)."""


CODEX_TS_ROLLOUT = re.compile(rb'\{\s*"session"\s*:\s*\{\s*"timestamp"\s*:\s*"[^"\\]*"\s*,\s*"id"\s*:\s*"')
"""A rollout of the TypeScript Codex CLI (spring and summer 2025, before the Rust CLI's
envelope): one JSON document ``{"session": {timestamp, id, instructions, ...}, "items": [...]}``,
the Responses API items of the whole session, written by ``JSON.stringify(..., null, 2)`` to
``~/.codex/sessions/rollout-<date>-<id>.json`` (openai/codex ``codex-cli/src/utils/storage/
save-rollout.ts``; its forks add model, provider or lastResponseId after ``timestamp`` and ``id``)."""
_ROLLOUT_SESSION = re.compile(r'"session"\s*:\s*')
_ROLLOUT_HEADER_BYTES = 1 << 20
"""The session header holds the instructions (AGENTS.md and the like): a MiB is ample."""


def _rollout_records(path: Path, stats: ReadStats) -> Iterator[tuple[int, int, dict]]:
    """The records of a :data:`CODEX_TS_ROLLOUT` document: its session header, as the header
    line of an unenveloped rollout reads (``{id, timestamp, instructions}``), then its items."""
    raw = read_head(path, _ROLLOUT_HEADER_BYTES)
    # decoded as the items are (_Utf8Reader): a rollout PowerShell's `>` rewrote is UTF-16
    head = raw.decode("utf-16" if raw[:2] in _UTF16_BOMS else "utf-8", "replace")
    found = _ROLLOUT_SESSION.search(head)
    try:
        header, _ = json.JSONDecoder().raw_decode(head, found.end()) if found else (None, 0)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than json recurses
        header = None  # a header longer than the window, or cut: the items are still read
    stats.records += 1
    if isinstance(header, dict):
        stats.lines += 1
        yield 0, 2, header
    elif len(raw) == _ROLLOUT_HEADER_BYTES:
        stats.broken_json += 1
    # else the file ends in its header (cut while written): the items array it lacks is the
    # one broken record iter_json_array counts, not a second one
    for index, lineno, obj in iter_json_array(path, stats, key="items"):
        stats.records += 1
        yield index + 1, lineno, obj


def layout(path: Path) -> str:
    """How the file's JSON records are laid out, from its head: ``jsonl`` (one per line),
    ``pretty`` (indented objects one after another), ``array`` (one JSON array of them),
    ``loglines`` (one array under ``{"loglines": ...}``, :data:`LOGLINES`) or ``rollout`` (a
    TypeScript Codex CLI's session, :data:`CODEX_TS_ROLLOUT`).

    ``jq . session.jsonl > out.jsonl`` writes indented objects (``jq`` pretty-prints unless
    asked for --compact-output: jq manual), as do ``JSON.stringify(obj, null, 2)`` loops; the
    first non-blank line is then an object's opening brace alone, which no JSONL record is.
    ``jq -s . session.jsonl`` ("slurp", the usual way to make a JSONL file one JSON document)
    writes one array of the records: ``[`` then ``{``, which no Claude Code or Codex JSONL
    line starts with. Only the head is read (a JSONL file's first line may be a pasted
    image megabytes long)."""
    try:
        head = read_head(path, 4096)
    except OSError:
        return "jsonl"
    if head[:2] in _UTF16_BOMS:
        head = head.decode("utf-16", "replace").encode("utf-8", "surrogatepass")
    head = head.removeprefix(codecs.BOM_UTF8).lstrip()
    if LOGLINES.match(head):
        return "loglines"
    if CODEX_TS_ROLLOUT.match(head):
        return "rollout"
    first, newline, _ = head.partition(b"\n")
    if newline and first.strip() == b"{":
        return "pretty"
    if head[:1] == b"[" and head[1:].lstrip()[:1] == b"{":
        return "array"
    return "jsonl"


def pretty_objects(head: bytes, limit: int) -> list[dict]:
    """The first ``limit`` whole objects of a pretty-printed head of a file (for sniffing its
    format; an object the head cuts short is left out)."""
    lines = enumerate(head.splitlines(keepends=True), 1)
    found = []
    for _index, _lineno, obj in _pretty_records(lines, ReadStats()):
        found.append(obj)
        if len(found) >= limit:
            break
    return found


def array_objects(head: bytes, limit: int) -> list[dict]:
    """The first ``limit`` whole objects of the head of a JSON array file (for sniffing its
    format; an element the head cuts short is left out)."""
    text = head.decode("utf-8", "replace")
    pos = _skip_ws(text, 0)
    if text[pos:pos + 1] != "[":
        return []
    found: list[dict] = []
    pos += 1
    while len(found) < limit:
        pos = _skip_ws(text, pos)
        if text[pos:pos + 1] == ",":
            pos += 1
            continue
        try:
            obj, pos = _DECODER.raw_decode(text, pos)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than json recurses
            break
        if type(obj) is dict:
            found.append(obj)
    return found


def _pretty_records(lines: Iterator[tuple[int, bytes | None]], stats: ReadStats) -> Iterator[tuple[int, int, dict]]:
    """:func:`iter_json_records` over pretty-printed JSON objects (:func:`layout`).

    jq and ``JSON.stringify`` open and close a top-level object at column 0 and indent
    everything inside it; a JSON string holds no raw newline, so a line starting ``}`` ends
    the object. Lines are gathered from the ``{`` line to that one and decoded together: one
    record, numbered with the line it starts on. An object past :data:`MAX_LINE_BYTES` is
    skipped (``too_long``) without being kept; one cut short (a truncated file, or a new
    ``{`` before its ``}``) is counted broken. A compact line among them is read as JSONL."""
    index = -1
    parts: list[bytes] = []
    size = 0
    start = 0  # line number of the open object's ``{``; 0 when none is open
    overlong = False

    def finish(raw: bytes | None) -> Iterator[tuple[int, int, dict]]:
        nonlocal index
        index += 1
        stats.records += 1
        if raw is None:
            return
        try:
            obj = decode_json(raw)
        except ValueError:
            stats.broken_json += 1
            return
        if type(obj) is not dict:
            stats.non_object += 1
            return
        yield index, start, obj

    for lineno, raw in lines:
        if raw is None:  # a line past MAX_LINE_BYTES (counted too_long by iter_lines)
            if start:
                overlong = True
            else:
                index += 1
                stats.records += 1
            continue
        if start == 0:
            raw = raw.removeprefix(codecs.BOM_UTF8) if lineno == 1 else raw
            stripped = raw.strip()
            if not stripped:
                continue
            if stripped == b"{":
                start, parts, size, overlong = lineno, [raw], len(raw), False
                continue
            start = lineno
            yield from finish(raw)  # a compact record, or a stray line (broken)
            start = 0
            continue
        if raw[:1] == b"{" and raw.strip() == b"{":  # the open object never closed
            stats.broken_json += 1
            index += 1
            stats.records += 1
            start, parts, size, overlong = lineno, [raw], len(raw), False
            continue
        if not overlong:
            size += len(raw)
            if size > MAX_LINE_BYTES:
                overlong = True
                parts = []
                stats.too_long += 1
            else:
                parts.append(raw)
        if raw[:1] == b"}":
            yield from finish(None if overlong else b"".join(parts))
            start, parts = 0, []
    if start:  # the file ends inside an object
        if not overlong:
            stats.broken_json += 1
        index += 1
        stats.records += 1


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
        except (ValueError, RecursionError):
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
    with open_transcript(path) as fb:
        f = _Utf8Reader(fb, path, stats)
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
            except (ValueError, RecursionError) as exc:
                if type(exc) is RecursionError and (end := _nested_end(buf, pos)) is not None:
                    # An element nested deeper than json recurses (thousands of "["): broken, and
                    # passed over to its closing bracket; the elements after it are still read.
                    stats.broken_json += 1
                    line += buf.count("\n", 0, end)
                    buf = buf[end:]
                    pos = 0
                    continue
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
                if _SURROGATE_ESCAPE.search(buf, pos, end):
                    obj = without_lone_surrogates(obj)
                yield index, elem_line, obj
            else:
                stats.non_object += 1
            line += buf.count("\n", 0, end)
            buf = buf[end:]
            pos = 0


_NESTING_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
"""A JSON string (whose brackets are text) or one bracket."""


def _nested_end(text: str, pos: int) -> int | None:
    """Where the array or object opening at ``pos`` closes (just past its bracket), counting
    brackets outside strings, without decoding it; None when ``text`` ends first. For an element
    too deep for the decoder, a rare case: a plain loop is fine."""
    depth = 0
    for m in _NESTING_TOKEN.finditer(text, pos):
        token = m.group()
        if token in ("[", "{"):
            depth += 1
        elif token in ("]", "}"):
            depth -= 1
            if depth == 0:
                return m.end()
    return None


def _skip_ws(buf: str, pos: int) -> int:
    n = len(buf)
    while pos < n and buf[pos] in " \t\r\n":
        pos += 1
    return pos


class _Utf8Reader:
    """Reads text in chunks, decoding UTF-8 (or UTF-16 after its byte-order mark)
    incrementally (bad bytes become U+FFFD, a leading byte-order mark is dropped: editors on
    Windows write one)."""

    def __init__(self, fb, path: Path, stats: ReadStats) -> None:
        self._fb = fb
        self._path = path
        self._stats = stats
        # A BOM is not JSON; a UTF-16 one says the whole file is UTF-16 (PowerShell's ">").
        encoding = "utf-16" if fb.peek(2)[:2] in _UTF16_BOMS else "utf-8-sig"
        self._dec = codecs.getincrementaldecoder(encoding)(errors="replace")

    def read(self, size: int = _CHUNK) -> str:
        try:
            chunk = self._fb.read(size)
        except DAMAGE as exc:  # a compressed file cut short: what came before it is read
            self._stats.damaged.append(f"{self._path.name}: the compressed stream is cut short or corrupt "
                                       f"({exc}); the elements before it were read")
            chunk = b""
        return self._dec.decode(chunk, final=not chunk)
