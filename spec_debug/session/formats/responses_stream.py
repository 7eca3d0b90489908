"""OpenAI Responses API streams saved to a file: what ``curl -N`` prints of a ``"stream": true``
request (server-sent events, ``event: response.output_item.done`` then ``data: {...}`` and a
blank line), or the SDK's events dumped one JSON a line (``for ev in stream:
print(ev.model_dump_json())``). Proxies and agent loops log them so, and Codex replays such files
in its tests (openai/codex ``codex-rs/core/tests``, ``CODEX_RS_SSE_FIXTURE``).

Each event is ``{type: "response.<what>", sequence_number, ...}`` (openai/openai-python
``types/responses/response_stream_event.py``). The conversation is in the items of
``response.output_item.done{item}`` (a message, a function call, a shell call...), and again in
the last event's ``response.output`` (``response.completed``, ``.incomplete``, ``.failed``):
an item is read once, by its ``id``. The deltas spell the same text piece by piece and are
bookkeeping, except for a reply the stream was cut inside (no ``done`` for it). A failed
response's ``error`` and an ``error`` event are errors of the session.

Read as a text log or as Claude Code records, a saved stream gave no call and no command. A
Chat Completions stream saved the same ways is told apart here (:func:`layout`, one look at the
file) and its chunks put together by :mod:`formats.chat_stream`.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import anthropic_stream, chat_stream, ollama_stream, openai_chat
from spec_debug.session.formats.codex import ResponseItems
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.compressed import read_head
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import iter_json_records, iter_lines, layout as reader_layout

_SSE_HEAD = re.compile(rb'\A(?:\s|:[^\n]*\n|HTTP/[^\n]*\n(?:[A-Za-z0-9-]+:[^\n]*\n)*)*?'
                       rb'(?:event: ?response\.[a-z_.]+\r?\n|data: ?\{[^\n]*?"type":\s*"response\.'
                       rb'|(?P<chat>data: ?\{[^\n]*?"object":\s*"chat\.completion\.chunk")'
                       rb'|(?P<anthropic>event: ?message_start\r?\n|data: ?\{\s*"type":\s*"message_start"))')
"""The head of a saved event stream: optional ``curl -i`` status and header lines and ``:``
comments (keep-alives), then a Responses event's ``event:`` or ``data:`` line, a Chat
Completions chunk's ``data:`` line (:mod:`formats.chat_stream`), or an Anthropic Messages API
stream's first event (:mod:`formats.anthropic_stream`). Header lines only after a status
line: prose such as ``Summary: the proxy hangs`` is shaped like a header, and a note quoting a
stream after it is a text log (its commands were lost read as a stream)."""
_LAST = frozenset({"response.completed", "response.incomplete", "response.failed"})
"""The events that end a response, each with the whole ``response`` (``ResponseCompletedEvent``...)."""


def output_items(events: list[dict]) -> list[dict]:
    """The items a streamed response gave, each once: those of its ``response.output_item.done``
    events and of its last event's ``response.output``, in the order they came, then the text of a
    reply the stream was cut inside (its ``response.output_text.delta`` pieces). What a proxy kept
    of a streamed call as text (:func:`formats.openai_chat.streamed_answer`): Codex streams every
    call (``"stream": true``), so its answers through a logging proxy are such streams."""
    items: list[dict] = []
    seen: set[str] = set()
    cut: dict[str, list[str]] = {}  # a reply's id -> its pieces (the stream may end inside it: _Stream.cut_replies)
    for obj in events:
        kind = obj.get("type")
        if kind == "response.output_text.delta" and isinstance(obj.get("delta"), str):
            cut.setdefault(str(obj.get("item_id")), []).append(obj["delta"])
            continue
        if kind == "response.output_item.done" and isinstance(obj.get("item"), dict):
            found: list = [obj["item"]]
        elif isinstance(kind, str) and kind in _LAST and isinstance(obj.get("response"), dict) \
                and isinstance(obj["response"].get("output"), list):
            found = obj["response"]["output"]
            cut.clear()  # the response ended: its output is whole
        else:
            continue
        for item in found:
            if not isinstance(item, dict):
                continue
            key = item["id"] if isinstance(item.get("id"), str) else json.dumps(item, sort_keys=True, default=str)
            if key not in seen:
                seen.add(key)
                items.append(item)
    for key, pieces in cut.items():
        if key not in seen and (text := "".join(pieces)).strip():
            # a reply the stream was cut inside (no output_item.done): its text so far, as a saved
            # stream keeps it; what the agent was saying when the log ends
            items.append({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})
    return items


def looks_like(obj: dict) -> bool:
    """One event of the stream as the SDK dumps it: a ``response.*`` type. No other format's
    records are typed so (Codex's exec events are ``thread.*``/``item.*``/``turn.*``)."""
    kind = obj.get("type")
    return isinstance(kind, str) and kind.startswith("response.") and "payload" not in obj and "role" not in obj


def looks_like_sse(head: bytes) -> bool:
    return _SSE_HEAD.match(head) is not None


def sse_api(head: bytes) -> str | None:
    """The API whose event stream the (cleaned: :func:`head_of`) head opens, in words, or None."""
    found = _SSE_HEAD.match(head)
    return None if found is None else "OpenAI Chat Completions" if found.group("chat") \
        else "Anthropic Messages API" if found.group("anthropic") else "OpenAI Responses API"


def head_of(path: Path) -> bytes:
    """The file's first bytes as UTF-8, from its first non-blank byte: PowerShell's ``curl ... >
    out.txt`` writes UTF-16 with a byte-order mark (read so by :func:`reader.iter_lines` too); a
    Windows editor adds one to UTF-8."""
    head = read_head(path, 1 << 16)
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        head = head.decode("utf-16", "replace").encode("utf-8", "surrogatepass")
    return head.removeprefix(codecs.BOM_UTF8).lstrip()


@dataclass(frozen=True, slots=True)
class Layout:
    """How a saved stream is written: as server-sent events or one event a line; of the Chat
    Completions API (chunks) or the Responses API (events), or of another vendor's API (``api``:
    Anthropic's Messages API, Ollama's /api/chat)."""

    sse: bool
    chat: bool
    api: str = "openai"


def layout(path: Path) -> Layout | None:
    """The file's layout when it is such a stream, from one look at its head (and its first records)."""
    head = head_of(path)
    api = sse_api(head)
    if api is not None:
        return Layout(sse=True, chat=api == "OpenAI Chat Completions",
                      api="anthropic" if api.startswith("Anthropic") else "openai")
    if reader_layout(path) in ("array", "pretty"):
        # The chunks or events as one JSON array (json.dump of the SDK's list of them, jq -s .) or
        # indented one after another (jq .): read as chat messages they were unknown records.
        if not any(mark in head for mark in _MARKS):
            return None  # a conversation ({"messages": [...]} may be one object of many MB): not parsed here
        records: Iterator[dict | bytes] = (
            obj for _index, _lineno, obj in islice(iter_json_records(path, ReadStats()), _LINES_LOOKED_AT))
    else:
        records = (raw for _lineno, raw in islice(iter_lines(path, ReadStats()), _LINES_LOOKED_AT) if raw)
    # A JSONL line is parsed when it may tell: whole lines, not the head's (the SDK dumps an event's
    # type last, pydantic's field order, ResponseCreatedEvent{response, sequence_number, type}, and
    # the first events carry the whole response, its instructions and tools often past 64 KB; cut
    # there, a stream was read as chat). Chunks only from the first record on, and no chat message
    # or request among them: a log of an agent loop's requests ({"messages": [...]}) or messages
    # with the chunks of each answer beside them is read as chat (formats.openai_chat), its prompts
    # and tool results kept. A line that is no JSON object (a cut head) is no record.
    first: bool | None = None  # whether the first record is a chunk; None before it
    for record in records:
        if isinstance(record, bytes):
            if not record.strip() or (first is False and b'"response.' not in record):
                continue  # only a Responses event is looked for now
            if first is None and not any(mark in record for mark in _MARKS):
                line = record.strip()
                first = None if line[:1] != b"{" or line[-1:] != b"}" else False  # an object: not parsed (may be MBs)
                continue
            try:
                obj = json.loads(record)
            except (ValueError, RecursionError):
                continue
        else:
            obj = record
        if not isinstance(obj, dict):
            continue
        if looks_like(obj):
            return Layout(sse=False, chat=False)
        if first is None and ((anthropic := anthropic_stream.looks_like(obj)) or ollama_stream.looks_like(obj)):
            # the first record of another vendor's stream (its events are its own: no chat message among them)
            return Layout(sse=False, chat=False, api="anthropic" if anthropic else "ollama")
        if first is None:
            first = chat_stream.looks_like(obj)
        elif first and openai_chat.looks_like(obj):
            first = False
    return Layout(sse=False, chat=True) if first else None


_LINES_LOOKED_AT = 20
"""The first lines of a JSONL file looked at for a stream's event."""
_MARKS = (b'"response.', chat_stream.CHUNK.encode(), b'"content_block_', b'"message_start"', b'"done":')
"""Text one of a stream's first records shows: a Responses event's type, a chunk's object, an
Anthropic event's type, an Ollama piece's ``done`` (:func:`layout` parses only such lines)."""


def read(path: Path, cursor: Cursor, stats: ReadStats, stream: Layout | None = None) -> Iterator[Event]:
    """The events of the stream; ``stream`` its :func:`layout` when the caller has looked already."""
    stream = stream or layout(path) or Layout(sse=False, chat=False)
    records = _sse_records(path, stats, ends=stream.chat) if stream.sse else iter_json_records(path, stats)
    if stream.api == "anthropic":
        yield from anthropic_stream.read(records, cursor, stats)
        return
    if stream.api == "ollama":
        yield from ollama_stream.read(records, cursor, stats)
        return
    if stream.chat:
        yield from chat_stream.read(records, cursor, stats)
        return
    reader = _Stream(cursor, stats)
    for index, lineno, obj in records:
        cursor.records = index + 1
        yield from reader.event(obj, cursor.seq_base + index, lineno)
    yield from reader.cut_replies()


def _sse_records(path: Path, stats: ReadStats, ends: bool = False) -> Iterator[tuple[int, int, dict]]:
    """``(index, line, event)`` for each event of a server-sent stream: its ``data:`` lines joined
    (the WHATWG HTML standard, "Server-sent events": one event may spread its data over several
    lines; a blank line ends it). Data that is not a JSON object is counted as broken or not an
    object and skipped; ``data: [DONE]`` too, or given as :data:`chat_stream.STREAM_END` with
    ``ends`` (a Chat Completions stream ends there). Saved with no blank lines (``grep '^data:'``
    of a stream), a ``data:`` line opening a JSON value or an ``event:`` line after data that is a
    whole JSON object or ``[DONE]`` begins the next event (joined, the events were one broken
    JSON); that object, parsed to know it was whole, is the event (was parsed again)."""
    index = 0
    data: list[bytes] = []
    first = 0
    name = ""  # the event's name, its event: line
    for lineno, raw in iter_lines(path, stats):
        line = (raw or b"").rstrip(b"\r\n")
        if lineno == 1:
            line = line.removeprefix(codecs.BOM_UTF8)  # a Windows editor's mark (head_of drops it too)
        opens = line.startswith(b"event:") or (line.startswith(b"data:") and line[5:].lstrip()[:1] in (b"{", b"["))
        done = len(data) == 1 and data[0].strip() == b"[DONE]"  # read stripped, as _decoded reads it
        whole = _whole_object(data) if data and opens and not done else None
        if data and (not line.strip() or whole is not None or (opens and done)):
            found = _decoded(data, stats, name, whole, ends)
            data, at, first, name = [], first, 0, ""
            if found is not None:
                yield index, at, found
                index += found is not chat_stream.STREAM_END  # no event: the next one keeps its seq
        if line.startswith(b"data:"):
            first = first or lineno
            data.append(line[5:].removeprefix(b" "))
        elif line.startswith(b"event:"):
            name = line[6:].strip().decode("utf-8", "replace")
    if data and (found := _decoded(data, stats, name, None, ends)) is not None:
        yield index, first, found


def _whole_object(data: list[bytes]) -> dict | None:
    """The event's data as a JSON object when it is one whole."""
    try:
        obj = json.loads(b"\n".join(data))
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _decoded(data: list[bytes], stats: ReadStats, name: str, obj: dict | None, ends: bool) -> dict | None:
    """The event's JSON object (``obj`` when it was parsed already); its type from its ``event:``
    line when the data has none (some proxies send ``data: {"item": {...}}`` under ``event:
    response.output_item.done``)."""
    if obj is None:
        text = b"\n".join(data).strip()
        if text == b"[DONE]":
            return chat_stream.STREAM_END if ends else None
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            stats.broken_json += 1
            return None
        if not isinstance(obj, dict):
            stats.non_object += 1
            return None
    if name and "type" not in obj:
        obj["type"] = name
    return obj


class _Stream:
    """The items of the responses read so far (by id), and the text of replies not ended yet."""

    def __init__(self, cursor: Cursor, stats: ReadStats) -> None:
        self._cursor, self._stats = cursor, stats
        self._items = ResponseItems()
        self._seen: set[str] = set()
        self._replies: dict[str, tuple[int, list[str]]] = {}  # item id -> (line, deltas)
        self._ts: str | None = None
        self._last = (cursor.seq_base, 0)  # seq and line of the last event read

    def event(self, obj: dict, seq: int, lineno: int) -> Iterator[Event]:
        cursor, kind = self._cursor, obj.get("type")
        self._last = (seq, lineno)

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=self._ts, file=cursor.file, line=lineno, **kw)

        response = obj.get("response") if isinstance(obj.get("response"), dict) else {}
        self._ts = stamp(response.get("created_at")) or self._ts
        if kind == "response.output_item.done" and isinstance(obj.get("item"), dict):
            yield from self._item(obj["item"], event)
        elif kind == "response.output_text.delta" and isinstance(obj.get("delta"), str):
            self._replies.setdefault(str(obj.get("item_id")), (lineno, []))[1].append(obj["delta"])
        elif isinstance(kind, str) and kind.startswith("response.") and kind.endswith(".delta"):
            pass  # a piece of an item its output_item.done gives whole; thousands a reply: no event each
        elif kind == "response.created":
            yield event("system", "system", raw_type="session_meta",
                        text=f"response={response.get('id')} model={response.get('model')}")
        elif isinstance(kind, str) and kind in _LAST:  # a list or object "type" is no event's (was a TypeError)
            output = response.get("output")
            for item in output if isinstance(output, list) else ():
                if isinstance(item, dict):
                    yield from self._item(item, event)
            yield from self._ending(kind, response, event)
        elif kind == "error":
            # ResponseErrorEvent{code, message, param}: the stream failed
            said = obj.get("message") if isinstance(obj.get("message"), str) else "the stream failed"
            yield event("system", "system", raw_type="error", text=f"{obj.get('code') or 'error'}: {said}")
        elif isinstance(kind, str) and kind.startswith("response."):
            yield event("other", "system", raw_type=kind)  # progress and deltas: bookkeeping
        else:
            self._stats.unknown_types += 1
            yield event("other", "system", raw_type=str(kind))

    def _item(self, item: dict, event) -> Iterator[Event]:
        key = item.get("id") if isinstance(item.get("id"), str) else json.dumps(item, sort_keys=True, default=str)
        if key in self._seen:
            return  # the last event's response.output repeats the items each output_item.done gave
        self._seen.add(key)
        self._replies.pop(key, None)
        yield from self._items.events(item, event)

    def _ending(self, kind: str, response: dict, event) -> Iterator[Event]:
        error = response.get("error") if isinstance(response.get("error"), dict) else None
        if kind == "response.failed":
            said = error.get("message") if error and isinstance(error.get("message"), str) else "the response failed"
            code = error.get("code") if error and isinstance(error.get("code"), str) else "failed"
            yield event("system", "system", raw_type="error", text=f"{code}: {said}")
        elif kind == "response.incomplete":
            details = response.get("incomplete_details")
            reason = details.get("reason") if isinstance(details, dict) else None
            yield event("system", "system", raw_type="warning", text=f"response incomplete: {reason or 'unknown'}")
        else:
            yield event("other", "system", raw_type=kind)

    def cut_replies(self) -> Iterator[Event]:
        """The text of replies the stream ended inside (no ``output_item.done`` came for them), at
        the place of the stream's last event (the events stay in order) and the line of their first piece."""
        seq = self._last[0]
        for block, (lineno, deltas) in enumerate(self._replies.values(), start=1):
            text = "".join(deltas)
            if text.strip():
                yield Event(session=self._cursor.session, seq=seq, agent=self._cursor.agent, role="assistant",
                            kind="text", block=block, text=text, timestamp=self._ts, file=self._cursor.file,
                            line=lineno)
        self._replies.clear()
