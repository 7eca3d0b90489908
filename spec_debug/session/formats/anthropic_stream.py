"""Anthropic Messages API streams saved to a file: what ``curl -N`` prints of a ``"stream": true``
request to ``/v1/messages`` (``event: message_start`` then ``data: {"type": "message_start", ...}``
and a blank line, per event), or the SDK's events dumped one JSON a line (``for event in stream:
print(event.to_json(indent=None))``). Agent loops of one's own and proxies in front of Claude log
them so; the file is read by :mod:`formats.responses_stream`'s event reader, this module puts each
message back together.

The events (Anthropic docs, "Streaming Messages"; anthropics/anthropic-sdk-python ``types/
raw_message_stream_event.py``): ``message_start{message}`` opens a message with its ``content``
empty, ``content_block_start{index, content_block}`` opens a block (``text``, ``thinking``,
``tool_use{id, name, input: {}}``, a server tool's block), ``content_block_delta{index, delta}``
adds to it (``text_delta.text``, ``thinking_delta.thinking``, ``input_json_delta.partial_json``:
pieces of the call's input as JSON text), ``content_block_stop``, ``message_delta{delta:
{stop_reason}, usage}``, ``message_stop``; ``ping`` keeps the connection open and ``error{error:
{type, message}}`` ends a failed stream. They are put together as the SDK's ``MessageStream``
does (``lib/streaming/_messages.py``, ``accumulate_event``: text and thinking concatenated, the
input's JSON pieces joined and parsed), and each message is then one assistant message read as
a chat message with Anthropic blocks (:mod:`formats.openai_chat`), at the line of its
``message_start``. A stream cut short keeps the blocks it had; a call whose input was cut is kept
with no command.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import openai_chat
from spec_debug.session.formats.common import Cursor, stream_event

_BLOCK_EVENTS = frozenset({"content_block_start", "content_block_delta", "content_block_stop"})
_QUIET = frozenset({"ping", "message_stop", "content_block_stop", "text", "thinking", "signature", "input_json",
                    "citation"})
"""Events that add nothing to the message (``content_block_stop``'s work is done at the end). The
SDK's helper (``client.messages.stream()``, ``MessageStream``) yields after each raw delta an event
of its own that repeats it with the snapshot so far (``build_events``: ``TextEvent``,
``ThinkingEvent``, ``SignatureEvent``, ``InputJsonEvent``, ``CitationEvent``): a file of its
events read the raw ones and counted each repeat as an unknown record."""
_SAID_STOPS = frozenset({"refusal", "max_tokens", "model_context_window_exceeded"})
"""A ``stop_reason`` that ends the reply before its end (Anthropic docs, "Handling stop reasons"):
said after the message, or a cut answer read as the whole one."""


def looks_like(obj: dict) -> bool:
    """One event of a Messages API stream as the API sends it: a message opened (its ``message``
    a ``{"type": "message"}``), a block's start, piece or end (with its ``index``), or the
    message's last delta."""
    kind = obj.get("type")
    if not isinstance(kind, str):
        return False  # a list or object "type" is no event's (and no set member)
    if kind == "message_start":
        message = obj.get("message")
        return isinstance(message, dict) and message.get("type") == "message"
    if kind in _BLOCK_EVENTS:
        return type(obj.get("index")) is int and ("content_block" in obj or "delta" in obj or kind.endswith("stop"))
    return kind == "message_delta" and isinstance(obj.get("delta"), dict) and "usage" in obj


class _Message:
    """The blocks of one streamed message read so far, by index, and each call's input pieces."""

    def __init__(self, message: dict, seq: int, lineno: int) -> None:
        self.seq, self.lineno = seq, lineno
        self.blocks: dict[int, dict] = {}
        self.inputs: dict[int, list[str]] = {}
        self.stopped: tuple[int, int, str] | None = None  # seq, line and stop_reason of a message cut by its end
        for i, block in enumerate(message.get("content") if isinstance(message.get("content"), list) else ()):
            if isinstance(block, dict):
                self.blocks[i] = dict(block)

    def start(self, index: int, block: dict) -> None:
        self.blocks[index] = dict(block)

    def add(self, index: int, delta: dict) -> None:
        block = self.blocks.setdefault(index, {})
        kind = delta.get("type")
        if kind == "text_delta" and isinstance(delta.get("text"), str):
            block.setdefault("type", "text")
            block["text"] = str(block.get("text") or "") + delta["text"]
        elif kind == "thinking_delta" and isinstance(delta.get("thinking"), str):
            block.setdefault("type", "thinking")
            block["thinking"] = str(block.get("thinking") or "") + delta["thinking"]
        elif kind == "input_json_delta" and isinstance(delta.get("partial_json"), str):
            self.inputs.setdefault(index, []).append(delta["partial_json"])
        # signature_delta and citations_delta: nothing the analysis reads

    def message(self) -> dict:
        content = []
        for index in sorted(self.blocks):
            block = self.blocks[index]
            pieces = "".join(self.inputs.get(index, ()))
            if pieces.strip():
                try:
                    block["input"] = json.loads(pieces)
                except (ValueError, RecursionError):
                    block["input"] = {}  # cut inside the input: the call is kept, its command is not known
            content.append(block)
        return {"role": "assistant", "content": content}


def messages_of(events: Iterable[dict]) -> list[dict]:
    """The assistant messages a stream's events make, one per ``message_start`` (a logging proxy's
    record of a streamed call keeps the stream as the text it was sent:
    :func:`formats.openai_chat.streamed_answer`)."""
    found: list[dict] = []
    current: _Message | None = None
    for obj in events:
        kind, at = obj.get("type"), obj.get("index")
        if kind == "message_start":
            found += [current.message()] if current is not None else []
            current = _Message(obj.get("message") if isinstance(obj.get("message"), dict) else {}, 0, 0)
        elif kind in ("content_block_start", "content_block_delta") and type(at) is int:
            current = current or _Message({}, 0, 0)
            if kind == "content_block_start" and isinstance(obj.get("content_block"), dict):
                current.start(at, obj["content_block"])
            elif isinstance(obj.get("delta"), dict):
                current.add(at, obj["delta"])
        elif kind == "message_stop" and current is not None:
            found.append(current.message())
            current = None
    return found + ([current.message()] if current is not None else [])


def read(records: Iterable[tuple[int, int, dict]], cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    """The events of the stream's events ``(index, line, event)``: one assistant message per
    ``message_start`` (or per run of block events with none before them: a stream saved from
    its middle), at its seq and line."""
    current: _Message | None = None

    def finished() -> Iterator[Event]:
        if current is None:
            return
        yield from openai_chat.assistant_events(current.message(), cursor, current.seq, current.lineno, stats)
        if current.stopped is not None:
            seq, lineno, reason = current.stopped
            yield stream_event(cursor, seq, lineno, "warning", text=f"message stopped: {reason}")

    for index, lineno, obj in records:
        cursor.records = index + 1
        seq = cursor.seq_base + index
        kind = obj.get("type")
        at = obj.get("index")
        if kind == "message_start":
            yield from finished()  # the one before was cut short (no message_stop)
            current = _Message(obj.get("message") if isinstance(obj.get("message"), dict) else {}, seq, lineno)
        elif kind in ("content_block_start", "content_block_delta") and type(at) is int:
            current = current or _Message({}, seq, lineno)
            if kind == "content_block_start" and isinstance(obj.get("content_block"), dict):
                current.start(at, obj["content_block"])
            elif isinstance(obj.get("delta"), dict):
                current.add(at, obj["delta"])
        elif kind == "message_stop":
            yield from finished()
            current = None
        elif kind == "message_delta":
            delta = obj.get("delta") if isinstance(obj.get("delta"), dict) else {}
            reason = delta.get("stop_reason")
            if current is not None and isinstance(reason, str) and reason in _SAID_STOPS:
                current.stopped = (seq, lineno, reason)
        elif kind == "error":
            # ErrorEvent{error: {type, message}}: overloaded_error, api_error... mid-stream
            error = obj.get("error") if isinstance(obj.get("error"), dict) else {}
            said = error.get("message") if isinstance(error.get("message"), str) else "the stream failed"
            code = error.get("type") if isinstance(error.get("type"), str) else "error"
            yield from finished()
            current = None
            yield stream_event(cursor, seq, lineno, "error", text=f"{code}: {said}")
        elif not (isinstance(kind, str) and kind in _QUIET):
            stats.unknown_types += 1
            yield stream_event(cursor, seq, lineno, str(kind), kind="other")
    yield from finished()
