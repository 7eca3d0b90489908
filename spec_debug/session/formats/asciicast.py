"""Terminal recordings made with asciinema (``asciinema rec session.cast``): a shell log whose
output comes in timed chunks.

asciicast v2 and v3 (docs.asciinema.org/manual/asciicast/v2 and /v3) are newline-delimited
JSON: a header object (``{"version": 2, "width", "height", "timestamp"}``; v3 ``{"version": 3,
"term": {"cols", "rows"}, "timestamp"}``), then one ``[time, code, data]`` array per event,
``"o"`` being terminal output. v2 times count from the start, v3 times from the event before;
v3 allows ``#`` comment lines. The output is cut into lines and read as a shell log
(:mod:`text_log`), each line stamped with the time its end was written.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import text_log
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.compressed import DAMAGE, open_transcript, read_head
from spec_debug.session.reader import decode_json, iter_lines

_MAX_PENDING = 1 << 20
"""Output without a newline (a progress bar redrawn for an hour) is cut at this many characters."""


def looks_like(obj: dict) -> bool:
    """The header line of a v2 or v3 recording."""
    version = obj.get("version")
    return (version == 2 and "width" in obj and "height" in obj) or (version == 3 and isinstance(obj.get("term"), dict))


_V1_HEAD = re.compile(rb'\A\s*\{\s*"version"\s*:\s*1\s*,')
_V1_STDOUT = re.compile(rb'"stdout"\s*:\s*\[')
_MAX_V1_BYTES = 64 * 1024 * 1024
"""A v1 recording is one JSON document, read whole; one this large is not read (``too_long``)."""


def looks_like_v1_head(head: bytes) -> bool:
    """asciicast v1 (asciinema 1.x, before 2.0 in 2018; docs.asciinema.org/manual/asciicast/v1):
    one JSON document ``{"version": 1, "width", "height", "duration", "command", "title", "env",
    "stdout": [[delay, data], ...]}``, each delay counted from the frame before."""
    return bool(_V1_HEAD.match(head)) and bool(_V1_STDOUT.search(head))


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    head = read_head(path, 1 << 16)
    if looks_like_v1_head(head):
        width = _V1_WIDTH.search(head, 0, _V1_STDOUT.search(head).start())  # a key of the document, before its frames
        return text_log.read_lines(_v1_lines(path, stats), cursor, columns=int(width.group(1)) if width else None)
    recorded = _recorded_command(head)
    resizes: deque[tuple[int, int]] = deque()
    ended = text_log.RecordingEnd()
    return text_log.read_lines(_output_lines(path, stats, recorded, resizes, ended), cursor, recorded=recorded,
                               columns=_columns(head), resizes=resizes, ended=ended)


_V1_WIDTH = re.compile(rb'"width"\s*:\s*(\d{1,4})\s*[,}]')
"""A v1 document's ``width``, the recorded terminal's columns."""


def _columns(head: bytes) -> int | None:
    """The recorded terminal's width, as the header gives it (v2 ``width``, v3 ``term.cols``): the
    width the shell's line editor wrapped a long command at (:func:`text_log.read_lines`'s
    ``columns``)."""
    try:
        header = decode_json(head.split(b"\n", 1)[0])
    except ValueError:
        return None
    if not isinstance(header, dict):
        return None
    width = header.get("width") if header.get("version") == 2 else (header.get("term") or {}).get("cols") \
        if isinstance(header.get("term"), dict) else None
    return width if isinstance(width, int) and not isinstance(width, bool) and 0 < width < 10000 else None


_SHELLS = frozenset({"bash", "sh", "zsh", "fish", "dash", "ksh", "tcsh", "csh", "pwsh", "powershell", "nu"})


def _recorded_command(head: bytes) -> text_log.RecordedCommand | None:
    """The command the header says was recorded instead of a shell: ``asciinema rec -c "bash
    launch.sh"`` writes it as ``command`` (v2 and v3 headers, docs.asciinema.org/manual/asciicast/
    v2 and /v3), and its output holds no prompt that shows it, so its traceback was a failure of no
    command. A shell given so (``-c /bin/bash``, ``-c "zsh -l"``) is an interactive session, whose
    prompts show the commands."""
    first = head.split(b"\n", 1)[0]
    try:
        header = decode_json(first)
    except ValueError:
        return None
    command = header.get("command") if isinstance(header, dict) else None
    if not isinstance(command, str) or not command.strip():
        return None
    words = command.split()
    if words[0].rsplit("/", 1)[-1] in _SHELLS and all(w.startswith("-") for w in words[1:]):
        return None
    return text_log.RecordedCommand(command.strip(), _stamp(_start(header), 0.0))


def _start(header: dict) -> datetime | None:
    ts = header.get("timestamp")
    if isinstance(ts, (int, float)) and not isinstance(ts, bool):
        try:
            return datetime.fromtimestamp(ts, tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    return None


def _v1_lines(path: Path, stats: ReadStats) -> Iterator[tuple[int, str, str | None]]:
    """The output of a v1 recording as lines; it gives no start time, so no line has a time."""
    try:
        with open_transcript(path) as f:  # a .cast.gz is read through
            raw = f.read(_MAX_V1_BYTES + 1)
    except DAMAGE:
        stats.damaged.append(f"{path.name}: the compressed stream is cut short or corrupt")
        return
    if len(raw) > _MAX_V1_BYTES:
        stats.too_long += 1
        return
    stats.lines += raw.count(b"\n") + 1
    try:
        doc = decode_json(raw)
        frames = doc.get("stdout") if isinstance(doc, dict) else None
    except ValueError:
        stats.broken_json += 1  # a copy cut short: the frames before the cut are still read
        frames = _whole_frames(raw.decode("utf-8", "replace"))
    pending = ""
    for frame in frames if isinstance(frames, list) else ():
        if not isinstance(frame, list) or len(frame) != 2 or not isinstance(frame[1], str):
            stats.non_object += 1
            continue
        pending += frame[1]
        if "\n" in frame[1]:
            *lines, pending = pending.split("\n")
            for line in lines:
                yield 1, line.rstrip("\r"), None
        if len(pending) > _MAX_PENDING:
            yield 1, pending, None
            pending = ""
    if pending:
        yield 1, pending, None


_RESIZE = re.compile(r"(\d{1,4})x\d{1,5}")
"""A resize event's data, ``COLSxROWS`` (asciinema ``src/asciicast/v2.rs`` and ``v3.rs``,
``serialize_event``: ``Resize(cols, rows) => ('r', format!("{cols}x{rows}"))``, at e53220fb)."""


def _output_lines(path: Path, stats: ReadStats, recorded: text_log.RecordedCommand | None = None,
                  resizes: deque[tuple[int, int]] | None = None, ended: text_log.RecordingEnd | None = None,
                  ) -> Iterator[tuple[int, str, str | None]]:
    """The output as lines; each ``"r"`` event's line number and columns go to ``resizes`` as it
    is read (a window resized while recording: readline wraps what is typed after at the new
    width, :func:`text_log.read_lines`); the exit event's status to ``recorded`` or, a shell
    recorded, to ``ended``."""
    start: datetime | None = None
    relative = False
    clock = 0.0
    pending = ""
    header_seen = False
    for lineno, raw in iter_lines(path, stats):
        if raw is None or raw.isspace() or raw.startswith(b"#"):
            continue
        try:
            value = decode_json(raw)  # a browser recorder's JSON.stringify may cut an emoji in half
        except ValueError:
            stats.broken_json += 1
            continue
        if not header_seen:
            header_seen = True
            if isinstance(value, dict):
                relative = value.get("version") == 3
                start = _start(value)
                continue
        if not isinstance(value, list) or len(value) != 3:
            stats.non_object += 1
            continue
        at, code, data = value
        if isinstance(at, (int, float)) and not isinstance(at, bool):
            clock = clock + at if relative else at
        if code == "x" and (recorded is not None or ended is not None):
            # v3's exit event, [t, "x", "1"]: the recorded command's or shell's exit status
            # (asciinema src/session.rs, Session::run: handle_exit(status) once the child is
            # reaped, whatever it ran; at 04c82f05)
            status = str(data).strip()
            (recorded if recorded is not None else ended).exit_code = \
                int(status) if status.lstrip("-").isdigit() and len(status) <= 4 else None
            continue
        if code != "o" or not isinstance(data, str):
            if code == "r" and resizes is not None and isinstance(data, str) \
                    and (size := _RESIZE.fullmatch(data.strip())) is not None and int(size.group(1)) > 0:
                resizes.append((lineno, int(size.group(1))))
            continue  # input echoes in the output anyway; markers and an exit carry no text
        pending += data
        if "\n" in data:
            stamp = _stamp(start, clock)
            *lines, pending = pending.split("\n")
            for line in lines:
                yield lineno, line.rstrip("\r"), stamp
        if len(pending) > _MAX_PENDING:
            stamp = _stamp(start, clock)
            yield lineno, pending, stamp
            pending = ""
    if pending:
        yield lineno if header_seen else 0, pending, _stamp(start, clock)


def _whole_frames(text: str) -> list:
    """The ``[delay, data]`` frames of a v1 document's ``stdout`` up to where it is cut off."""
    found = re.search(r'"stdout"\s*:\s*\[', text)
    if found is None:
        return []
    decoder, frames, at = json.JSONDecoder(), [], found.end()
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        try:
            frame, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            return frames
        frames.append(frame)


def _stamp(start: datetime | None, seconds: float) -> str | None:
    if start is None:
        return None
    try:
        return (start + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")
    except OverflowError:
        return None
