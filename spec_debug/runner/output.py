"""Bounded capture of a command's output.

A step may print gigabytes (a model dump, a log cat). The record keeps at most
``limit_bytes`` of each stream (head and tail, since the end holds the traceback) and the
stream is spilled to an artifact file, so nothing is lost and memory stays flat. The artifact
holds ``artifact_limit`` bytes at most (runner/spill.py): a flood (`yes`, `tail -f` of a busy
log under a long timeout) keeps its head and end there, and both the artifact and the record's
truncation marker say how many bytes were dropped between them.

The spilled file is masked as it is written (``redactor``), as run.json is: without it a
secret cut from the record would land on disk in the clear beside a record that masks it.
Expectations that must see the whole stream (`not_contains: CUDA out of memory`) cannot read
that file back (a needle may hold what the mask replaced), so their patterns are ``watch``ed
on the raw stream as it passes.

The disk may fill while a step prints gigabytes: then the spill stops, its partial file is
removed (it would pass for the full output, and it holds the space run.json needs next), and
the record's truncation marker says the full output could not be saved, and why. The step
itself goes on; a full disk is not the command's failure.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from spec_debug.ansi import strip_ansi
from spec_debug.redact import LineMaskingRedactor, StreamRedactor
from spec_debug.runner.output_regex import anchored_to_text_ends
from spec_debug.runner.spill import DEFAULT_ARTIFACT_LIMIT, CappedSpill

DEFAULT_CAPTURE_LIMIT = 256 * 1024
WHOLE_TEXT_LIMIT = 64 * 1024 * 1024
"""Bytes of a stream cut by the capture limit that whole_text() reads back from its artifact at
most: a JSON document is parsed whole, in memory."""

TRUNCATION_MARKER = re.compile(r"\n\.\.\. \[(\d+) bytes truncated; [^\]\n]*\] \.\.\.\n")
"""What text() puts between head and tail; readers of captured text look for it."""

LineCallback = Callable[[str, str], None]
"""Called with (stream name, decoded line) as lines complete, for live display."""

PROGRESS_EVERY_S = 10.0
"""How often a line redrawn in place with "\r" is shown live before it ends (see _emit_progress)."""

QUIET_LINE_S = 2.0
"""How long an unended line waits, nothing more coming, before it is shown live (show_unended)."""


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
    _spill: CappedSpill | None = None
    _partial_line: bytearray = field(default_factory=bytearray)
    _progress_shown_at: float | None = None
    _partial_grew_at: float = 0.0
    _partial_started_at: float = 0.0
    _unended_shown: int = -1
    """len(_partial_line) when show_unended last showed it (-1: not shown)."""
    spill_error: str | None = None
    """Why the full stream could not be saved (e.g. "No space left on device"), else None."""
    redactor: StreamRedactor | LineMaskingRedactor | None = None
    """Masks what goes to the spill file; None writes it as printed (--no-redact)."""
    spill_root: Path | None = None
    """The run folder the spill file lies in, which the spill does not make again once removed."""
    watch: tuple[re.Pattern[str], ...] = ()
    """Patterns whose first match is searched line by line in the whole raw stream as it passes."""
    collect: tuple[re.Pattern[str], ...] = ()
    """Patterns whose every match (up to MAX_COLLECTED) is kept from the whole raw stream."""
    held_open_by: list[tuple[int, str]] | None = None
    """Set by a transport that stopped waiting for the stream's end once the step's command had
    exited: the processes (pid, command line) it left running in the background that still hold
    the stream open ([] when they could not be named). None: the stream ended with the step."""
    survived_kill: list[tuple[int, str, str]] | None = None
    """Set on stdout by a transport whose timeout kill left the step's processes alive (they wait
    in the kernel, state D): (pid, /proc state letter, command line) of each, [] when they could
    not be named. None: the step's processes ended."""
    _watch_found: dict[tuple[str, int], re.Match[str]] = field(default_factory=dict)
    _collected: dict[tuple[str, int], list[SavedMatch] | None] = field(default_factory=dict)
    _watch_buffer: bytearray = field(default_factory=bytearray)
    artifact_limit: int | None = DEFAULT_ARTIFACT_LIMIT
    """Bytes of the stream the spilled artifact keeps at most (head and end); None or 0: all.
    Never less than limit_bytes: the artifact holds at least what the record does."""
    artifact_dropped: int = 0
    """Bytes of the stream the artifact lacks (cut from its middle at artifact_limit), after close()."""
    _spill_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    """Held while the spill is written or closed: yield_spill() comes from the thread that
    writes run.json, while the step's thread writes the stream."""
    keep_whole: bool = False
    """Keep the raw stream in memory (up to WHOLE_TEXT_LIMIT bytes) for whole_text(): a step whose
    JSON is parsed whole (a probe, a json: capture). Where the run redacts, the artifact is masked,
    and a document longer than the capture limit read back from it gave the facts the mask: an
    `api_key` captured from a server's config was `***REDACTED***` in the next step's curl."""
    _whole: bytearray | None = field(default_factory=bytearray, repr=False, compare=False)

    def write(self, chunk: bytes) -> None:
        if not chunk:
            return
        self.total_bytes += len(chunk)
        if self.keep_whole and self._whole is not None:
            if self.total_bytes > WHOLE_TEXT_LIMIT:
                self._whole = None  # past what whole_text() reads
            else:
                self._whole += chunk
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
            with self._spill_lock:
                if self.spill_error is None:  # not given up meanwhile (yield_spill)
                    try:
                        if self._spill is None:
                            cap = max(self.artifact_limit, self.limit_bytes) if self.artifact_limit else None
                            self._spill = CappedSpill(self.spill_path, cap, self.spill_root)
                        self._spill.write(chunk if self.redactor is None else self.redactor.feed(chunk))
                    except OSError as exc:
                        self._give_up_spill(exc.strerror or str(exc))
        if self.on_line is not None:
            self._emit_lines(chunk)
        if self._watching:
            self._watch_lines(chunk, final=False)

    @property
    def _watching(self) -> bool:
        return len(self._watch_found) < len(self.watch) or bool(self.collect)

    def _watch_lines(self, chunk: bytes, *, final: bool) -> None:
        """Search the complete lines seen so far for the watched patterns not found yet, and
        collect every match of the collected ones."""
        self._watch_buffer += chunk
        end = len(self._watch_buffer) if final else self._watch_buffer.rfind(b"\n") + 1
        keep = 0
        if end == 0:
            if len(self._watch_buffer) <= max(self.limit_bytes, _WATCH_OVERLAP):
                return
            # A line longer than the cap is searched as it is; its end is searched again with
            # what follows, so a needle across the cut is still found (and collected once).
            end, keep = len(self._watch_buffer), _WATCH_OVERLAP
        # A byte that is no UTF-8 as its surrogate (PEP 383), as host_text() and the record keep it:
        # a match found here is quoted (`matched 'caf\\xe9'`) and captured as a fact.
        consumed = as_lines(bytes(self._watch_buffer[: end - keep]).decode("utf-8", "surrogateescape"))
        block = consumed + as_lines(bytes(self._watch_buffer[end - keep : end]).decode("utf-8", "surrogateescape"))
        del self._watch_buffer[: end - keep]
        for pattern in self.watch:
            key = (pattern.pattern, pattern.flags)
            if key not in self._watch_found:
                found = _search_lines(pattern, block)
                if found is not None:
                    self._watch_found[key] = found
        for pattern in self.collect:
            saved = self._collected.setdefault((pattern.pattern, pattern.flags), [])
            if saved is None:
                continue
            for start, found in _finditer_lines(pattern, block):
                if start >= len(consumed):
                    break
                saved.append(SavedMatch(found))
                if len(saved) > MAX_COLLECTED:
                    self._collected[(pattern.pattern, pattern.flags)] = None
                    break
        if not self._watching:
            self._watch_buffer.clear()

    def _emit_lines(self, chunk: bytes) -> None:
        now = time.monotonic()
        if not self._partial_line:
            self._partial_started_at = now
        self._partial_grew_at = now
        self._partial_line += chunk
        # A line longer than the cap is flushed as is rather than buffered forever.
        while True:
            newline = self._partial_line.find(b"\n")
            if newline < 0:
                if len(self._partial_line) > self.limit_bytes:
                    newline = len(self._partial_line) - 1
                else:
                    self._emit_progress()
                    return
            line = bytes(self._partial_line[: newline + 1])
            del self._partial_line[: newline + 1]
            self._progress_shown_at = None
            self._unended_shown, self._partial_started_at = -1, now
            assert self.on_line is not None
            self.on_line(self.name, line.decode("utf-8", "surrogateescape").rstrip("\n"))

    def _emit_progress(self) -> None:
        """Show a progress bar's latest redraw while its line is still open. tqdm (checkpoint
        shards loading, torch.compile, vLLM's CUDA graph capture), pip and huggingface_hub
        downloads redraw one line with "\r" and end it only when done: --show-output showed
        nothing for the minutes a model took to load, as if the host were hung. Shown at
        once, then every PROGRESS_EVERY_S, so a bar redrawn ten times a second is not a flood;
        the whole line still comes when it ends."""
        # A "\r" that ends what came so far may be the first half of a "\r\n" line end split
        # between two reads: only one with more after it ends a redraw.
        last = len(self._partial_line) - (1 if self._partial_line.endswith(b"\r") else 0)
        end = self._partial_line.rfind(b"\r", 0, last)
        now = time.monotonic()
        if end <= 0 or (self._progress_shown_at is not None and now - self._progress_shown_at < PROGRESS_EVERY_S):
            return
        redraw = bytes(self._partial_line[:end]).rsplit(b"\r", 1)[-1]
        if not redraw.strip():
            return
        self._progress_shown_at = now
        assert self.on_line is not None
        self.on_line(self.name, redraw.decode("utf-8", "surrogateescape"))

    def show_unended(self) -> None:
        """Show live the line that is still open, called by a transport while it waits for
        output. A line printed with neither "\n" nor "\r" after it (a prompt such as `read -p
        "Overwrite? "`, `printf 'Loading weights... '` before a long load, dots added to one
        line) showed nothing until it ended: --show-output looked hung, with the step's answer
        on the host's screen. Shown once quiet for QUIET_LINE_S, or, while it keeps growing,
        every PROGRESS_EVERY_S as "\r" redraws are; what follows its last "\r" only (the
        redraw on screen). The whole line still comes when it ends."""
        if self.on_line is None or not self._partial_line or len(self._partial_line) == self._unended_shown:
            return
        now = time.monotonic()
        since_shown = now - (self._progress_shown_at if self._progress_shown_at is not None else self._partial_started_at)
        if now - self._partial_grew_at < QUIET_LINE_S and since_shown < PROGRESS_EVERY_S:
            return
        shown = bytes(self._partial_line).removesuffix(b"\r").rsplit(b"\r", 1)[-1]
        self._unended_shown = len(self._partial_line)
        if not shown.strip():
            return
        self._progress_shown_at = now
        self.on_line(self.name, shown.decode("utf-8", "surrogateescape"))

    @property
    def truncated(self) -> bool:
        return self.total_bytes > self.limit_bytes

    def text(self, errors: str = "replace") -> str:
        """The captured text: whole if it fits, else head, a marker, and tail. errors as
        bytes.decode takes it: "surrogateescape" keeps a byte that is no UTF-8 (PEP 383)."""
        if not self.truncated:
            return (bytes(self._head) + bytes(self._tail)).decode("utf-8", errors)
        half = self.limit_bytes // 2
        head = _end_at_boundary(bytes(self._head))
        tail = bytes(self._tail[-half:])
        before = self._tail[-half - 1 : -half] if len(self._tail) > half else self._head[-1:]
        if before not in (b"\n", b""):  # else the tail starts a line already
            tail = _start_at_boundary(tail)
        skipped = self.total_bytes - len(head) - len(tail)
        if self.spill_error is not None:
            where = f"the full output could not be saved: {self.spill_error}"
        elif self.artifact_dropped:
            where = (f"the artifact keeps its head and end: {self.artifact_dropped} bytes dropped from its middle "
                     "at the artifact limit")
        else:
            where = "full output in artifacts"
        marker = f"\n... [{skipped} bytes truncated; {where}] ...\n"
        return head.decode("utf-8", errors) + marker + tail.decode("utf-8", errors)

    def checked_text(self, errors: str = "replace") -> str:
        """text() as expectations, captures and until read it: CRLF line ends as LF. HTTP
        headers end in CRLF (RFC 9112, `curl -si`), and `$` in `^HTTP/1.1 200 OK$` matches
        before a \n only: the line never matched, and a captured header value kept a \r."""
        return as_lines(self.text(errors))

    def host_text(self) -> str:
        """checked_text() without the truncation marker: what the host printed, as `that:`,
        `until:` and finding templates see `stdout` and `stderr`. The marker is spec-debug's note
        on the record (`... [N bytes truncated; the full output could not be saved: No space
        left on device] ...`): `that: "'No space left' not in stdout"` failed on it when the
        controller's disk filled, and `until: "'truncated' not in stdout"` never held.

        A byte that is no UTF-8 is kept as its surrogate (PEP 383), as the step's record, its
        captures and evidence keep it: `evidence: ["{{ stdout }}"]` said `caf` U+FFFD beside the
        step's `caf\\xe9` in run.json (record.carriable shows the surrogate as `\\xe9`)."""
        return without_markers(self.checked_text("surrogateescape"))

    def expression_text(self) -> str:
        """host_text() as `that:` and `until:` expressions see `stdout` and `stderr`: for a stream
        cut by the capture limit, `in` and `not in` search the whole stream (search_whole), as
        `contains` and `not_contains` do. `that: "'CUDA out of memory' not in stdout"` passed on
        a long log whose OOM line fell between the kept head and tail, while `not_contains` on
        the same step failed."""
        return _WholeStreamText(self) if self.truncated else self.host_text()

    def search_whole(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """The first match of pattern anywhere in the stream, the part cut from the record
        included: an expectation such as `not_contains: CUDA out of memory` on a long log must
        not pass because the line fell between the kept head and tail. A watched pattern was
        searched in the raw stream as it passed; any other is searched in the spilled file (masked
        when redacted) line by line (memory stays flat). A pattern spanning lines matches in the
        kept text only. Call after close()."""
        kept = pattern.search(self.host_text())
        if kept is not None or not self.truncated or anchored_to_text_ends(pattern.pattern, pattern.flags):
            return kept  # `\Z`, `\A`: only the kept head and tail hold the text's ends (output_regex)
        key = (pattern.pattern, pattern.flags)
        if any((p.pattern, p.flags) == key for p in self.watch):
            return self._watch_found.get(key)
        if self.spill_path is None or self.spill_error is not None:
            return kept
        try:
            with open(self.spill_path, "rb") as spilled:
                for raw_line in spilled:
                    found = pattern.search(as_lines(raw_line.decode("utf-8", "surrogateescape")))  # as host_text
                    if found is not None:
                        return found
        except OSError:
            return None  # the artifact was removed meanwhile: the kept text is all there is
        return None

    def whole_text(self, limit: int = WHOLE_TEXT_LIMIT) -> str | None:
        """The whole of a stream cut by the capture limit, as checked_text("surrogateescape")
        reads one that fits: as printed where it was kept (keep_whole), else from its artifact
        (masked where the run redacts); None when the stream is not cut, part of it was not
        saved, or it is over `limit` bytes. For what must be read whole (a JSON document):
        `--capture-limit 0`, which the CLI offers to keep run.json small, failed every probe
        step with "output is not JSON". Call after close()."""
        if not self.truncated or not self.whole_stream_searchable or self.total_bytes > limit or self.spill_path is None:
            return None
        if self.keep_whole and self._whole is not None:
            return as_lines(bytes(self._whole).decode("utf-8", "surrogateescape"))
        try:
            raw = self.spill_path.read_bytes()
        except OSError:
            return None  # the artifact was removed meanwhile
        return as_lines(raw.decode("utf-8", "surrogateescape"))

    @property
    def whole_stream_searchable(self) -> bool:
        """False when part of the stream is neither in the record nor on disk."""
        return not self.truncated or (self.spill_path is not None and self.spill_error is None and not self.artifact_dropped)

    def first_watched(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """The first line of the whole raw stream that a watched pattern matches (None when it
        matched none, or was not watched). Call after close()."""
        return self._watch_found.get((pattern.pattern, pattern.flags))

    def collected(self, pattern: re.Pattern[str]) -> list[SavedMatch] | None:
        """Every match of a collected pattern in the whole raw stream, line by line, in order;
        None when there were more than MAX_COLLECTED. Call after close()."""
        return self._collected.get((pattern.pattern, pattern.flags), [])

    def searched_whole(self, pattern: re.Pattern[str]) -> bool:
        """Whether search_whole(pattern) saw the whole stream (a watched pattern did, even when
        the spill failed)."""
        watched = any((p.pattern, p.flags) == (pattern.pattern, pattern.flags) for p in self.watch)
        return watched or self.whole_stream_searchable

    def close(self) -> None:
        if self.on_line is not None and self._partial_line:
            # Not twice: a last line with no end (`printf 'Overwrite? '`, then the step ended)
            # that show_unended showed as it is, nothing added since.
            if len(self._partial_line) != self._unended_shown or b"\r" in self._partial_line:
                self.on_line(self.name, self._partial_line.decode("utf-8", "surrogateescape"))
            self._partial_line.clear()
        if self._watching and self._watch_buffer:
            self._watch_lines(b"", final=True)
        with self._spill_lock:
            if self._spill is not None:
                spill = self._spill
                try:
                    if self.redactor is not None:
                        spill.write(self.redactor.close())
                    spill.close()  # flushes: on a full disk this is where the write fails
                    self.artifact_dropped = spill.dropped
                except OSError as exc:
                    self._give_up_spill(exc.strerror or str(exc))
                self._spill = None
                # Keep the spill file only when the record could not hold everything.
                if not self.truncated and self.spill_path is not None:
                    try:
                        self.spill_path.unlink(missing_ok=True)
                    except OSError:
                        # The runs folder went read-only mid-step (a remount on I/O errors, a
                        # quota): the file repeats what the record holds. Raised, it made the host
                        # an "internal error" and lost the step's result.
                        pass

    def yield_spill(self, why: str) -> bool:
        """Give up the spill being written, from any thread: the run's record could not be
        written for lack of space, and a step's artifact held it. run.json goes first: a record
        cut to its ends (or none) for an artifact that may fill the disk anyway is the worse loss.
        Its truncation marker then says the full output could not be saved, and why (`why`).

        Whether the artifact's space is free now: given up by this call, or by the spill's own
        write that met the same full disk a moment before (CI: the step's thread lost its
        artifact as the record write failed, this said "nothing to give up", and the run was
        stopped as out of space with the space already free)."""
        with self._spill_lock:
            if self._spill is not None:
                self._give_up_spill(why)
            return self.spill_error is not None

    def _give_up_spill(self, why: str) -> None:
        """Called with _spill_lock held."""
        self.spill_error = why
        if self._spill is not None:
            self._spill.discard()
            self._spill = None
        elif self.spill_path is not None:
            try:
                self.spill_path.unlink(missing_ok=True)
            except OSError:
                pass


_SURROGATE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])")
"""repr()'s escape of a surrogate for a byte that is no UTF-8 (`\\udce9`), not after an escaped
backslash (a `\\\\udce9` printed as text)."""


def shown_repr(value: Any) -> str:
    """repr(value), a byte of output that is no UTF-8 shown as run.json shows it (`'caf\\xe9'`,
    record.shown_surrogate): output, captures and stdout keep it as its surrogate (PEP 383), and
    repr() wrote `'caf\\udce9'`, a form beside the step's `caf\\xe9` that names no byte."""
    text = repr(value)
    return _SURROGATE_ESCAPE.sub(r"\1\\x\2", text) if "\\udc" in text else text


def without_markers(text: str) -> str:
    """text less the truncation markers text() put in it, each left as a line end: what the host
    printed. `not_contains: No space left on device` failed on a checkpoint save's log when the
    controller's disk filled as its artifact was saved: the marker said so, not the host."""
    return TRUNCATION_MARKER.sub("\n", text) if "bytes truncated; " in text else text


def as_lines(text: str) -> str:
    """text as expectations and captures read it (StreamCapture.checked_text): CRLF line ends
    as LF, and without colour codes: `contains: "ERROR: boom"` must hold on a log whose logger
    wrote `\x1b[1;31mERROR\x1b[0m: boom` (the report shows it without them, too)."""
    text = strip_ansi(text)
    if "\r" not in text:
        return text
    text = text.replace("\r\n", "\n")
    if "\r" not in text:
        return text
    # A line redrawn in place with a bare "\r" (tqdm, pip, a download) reads as the terminal
    # left it, its last drawing: tqdm(leave=False) clears its bar with "\r" + spaces + "\r" and
    # the summary printed next follows on that line, so `^Throughput: ...` never matched it and a
    # capture read the bar's first drawing (10%), not the last (100%).
    return "\n".join(last_drawing(line) if "\r" in line else line for line in text.split("\n"))


def last_drawing(line: str) -> str:
    """What a terminal shows of a line redrawn with "\r": its last drawing that is not blank
    (a bar cleared with spaces leaves what was drawn over it)."""
    drawn = [part for part in line.split("\r") if part.strip()]
    return drawn[-1] if drawn else ""


_WATCH_OVERLAP = 64 * 1024
MAX_COLLECTED = 100_000
"""Matches of one `all: true` capture kept from a stream cut by the capture limit: enough for
a decode log's per-batch throughput, small enough for run.json."""


class SavedMatch:
    """A match's text and groups, without the block of output it was found in (a re.Match keeps
    its whole string alive, and a collected capture keeps thousands of them)."""

    __slots__ = ("_whole", "_groups", "_named")

    def __init__(self, match: re.Match[str]) -> None:
        self._whole = match.group(0)
        self._groups = match.groups()
        self._named = match.groupdict()

    def group(self, key: int | str = 0) -> str | None:
        if isinstance(key, str):
            return self._named[key]
        return self._whole if key == 0 else self._groups[key - 1]


def _finditer_lines(pattern: re.Pattern[str], block: str) -> list[tuple[int, re.Match[str]]]:
    """(offset in block, match) of every match within one line of block, in order."""
    found = list(pattern.finditer(block))
    if all("\n" not in m.group(0).rstrip("\n") for m in found):
        return [(m.start(), m) for m in found]
    by_line: list[tuple[int, re.Match[str]]] = []
    offset = 0
    for line in block.splitlines(keepends=True):
        by_line += [(offset + m.start(), m) for m in pattern.finditer(line)]
        offset += len(line)
    return by_line


def _search_lines(pattern: re.Pattern[str], block: str) -> re.Match[str] | None:
    """The first match within one line of block (the whole block is searched at once; only a
    match that spans lines sends it back line by line)."""
    found = pattern.search(block)
    if found is None or "\n" not in found.group(0).rstrip("\n"):
        return found
    for line in block.splitlines(keepends=True):
        found = pattern.search(line)
        if found is not None:
            return found
    return None


# The cut between head and tail lands anywhere: in `password=hunter2` the tail would start with
# `hunter2`, a secret no pattern recognises once its name is cut off, and a multi-byte character
# would be split. Head and tail end and start at a line end (else a space) near the cut; what
# they drop is counted in the marker and kept in the artifact.
_WHITESPACE = re.compile(rb"[ \t\n]")


def _end_at_boundary(head: bytes) -> bytes:
    edge = len(head) - len(head) // 4
    at = head.rfind(b"\n", edge)
    if at < 0:
        spaces = [m.start() for m in _WHITESPACE.finditer(head, edge)]
        at = spaces[-1] if spaces else -1
    return head[: at + 1] if at >= 0 else head


def _start_at_boundary(tail: bytes) -> bytes:
    edge = len(tail) // 4
    at = tail.find(b"\n", 0, edge)
    if at < 0:
        space = _WHITESPACE.search(tail, 0, edge)
        at = space.start() if space else -1
    return tail[at + 1 :] if at >= 0 else tail


class _WholeStreamText(str):
    """A cut stream's kept text (StreamCapture.host_text) whose `in` also searches the part cut
    from the record. Everything else (length, slicing, filters) reads the kept text."""

    _stream: StreamCapture

    def __new__(cls, stream: StreamCapture) -> "_WholeStreamText":
        text = super().__new__(cls, stream.host_text())
        text._stream = stream
        return text

    def __contains__(self, needle: object) -> bool:
        if str.__contains__(self, needle):  # type: ignore[operator]  (a non-str raises as for str)
            return True
        assert isinstance(needle, str)
        return bool(needle) and self._stream.search_whole(re.compile(re.escape(needle))) is not None
