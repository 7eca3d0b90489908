"""Ollama's native chat streams saved to a file: what ``curl http://localhost:11434/api/chat``
prints (streaming is its default), one JSON object a line: ``{"model", "created_at", "message":
{"role": "assistant", "content": "The"}, "done": false}`` per piece, and a last ``"done": true``
object with the timings (``total_duration``, ``eval_count``...) and ``done_reason`` (ollama/ollama
``docs/api.md``, "Generate a chat completion"). A thinking model's pieces carry
``message.thinking``; a call comes whole in one piece's ``message.tool_calls`` (``{"function":
{"name", "arguments": {...}}}``, an object, often no ``id``); a failure is ``{"error": "..."}``.
The file is read by :mod:`formats.responses_stream`'s event reader.

The pieces of one answer (up to its ``done``) are put together, text and thinking concatenated
and the calls kept in order, and read as one assistant chat message (:mod:`formats.openai_chat`,
which takes Ollama's object arguments and missing ids), at the line of its first piece.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import openai_chat
from spec_debug.session.formats.common import Cursor, stream_event
from spec_debug.session.formats.instants import stamp


def looks_like(obj: dict) -> bool:
    """One piece of an ``/api/chat`` answer: a ``message`` and a boolean ``done`` beside the
    model's name and the piece's time, and none of a session record's ``type``."""
    return isinstance(obj.get("done"), bool) and isinstance(obj.get("message"), dict) \
        and isinstance(obj.get("model"), str) and "created_at" in obj and "type" not in obj


def _is_last(obj: dict) -> bool:
    """The last object of an answer: ``done`` (older servers send it with no ``message``)."""
    return obj.get("done") is True and isinstance(obj.get("model"), str) and "type" not in obj


class _Answer:
    def __init__(self, seq: int, lineno: int, created: object) -> None:
        self.seq, self.lineno, self.created = seq, lineno, created
        self.content: list[str] = []
        self.thinking: list[str] = []
        self.calls: list = []

    def add(self, message: dict) -> None:
        for key, parts in (("content", self.content), ("thinking", self.thinking)):
            if isinstance(message.get(key), str):
                parts.append(message[key])
        if isinstance(message.get("tool_calls"), list):
            self.calls.extend(message["tool_calls"])

    def message(self) -> dict:
        message: dict = {"role": "assistant", "content": "".join(self.content), "created_at": self.created}
        if self.thinking:
            message["thinking"] = "".join(self.thinking)
        if self.calls:
            message["tool_calls"] = self.calls
        return message


def read(records: Iterable[tuple[int, int, dict]], cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    """The events of the pieces ``(index, line, piece)``: one assistant message per answer."""
    current: _Answer | None = None

    def finished() -> Iterator[Event]:
        if current is not None:
            yield from openai_chat.assistant_events(current.message(), cursor, current.seq, current.lineno, stats)

    for index, lineno, obj in records:
        cursor.records = index + 1
        seq = cursor.seq_base + index
        if looks_like(obj) or _is_last(obj):
            if isinstance(obj.get("message"), dict):
                current = current or _Answer(seq, lineno, obj.get("created_at"))
                current.add(obj["message"])
            if obj.get("done") is True:
                yield from finished()
                current = None
                reason = obj.get("done_reason")
                if reason == "length":  # num_predict reached: the answer was cut
                    yield stream_event(cursor, seq, lineno, "warning", text="answer stopped: length",
                                timestamp=stamp(obj.get("created_at")))
            continue
        yield from finished()
        current = None
        if isinstance(obj.get("error"), str):
            yield stream_event(cursor, seq, lineno, "error", text=f"error: {obj['error']}")
        else:
            stats.unknown_types += 1
            yield stream_event(cursor, seq, lineno, str(obj.get("type")), kind="other")
    yield from finished()
