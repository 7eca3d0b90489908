"""OpenAI Chat Completions streams saved to a file: what ``curl -N`` prints of a ``"stream": true``
request to ``/v1/chat/completions`` (``data: {"object": "chat.completion.chunk", ...}`` lines, a
blank line after each, ``data: [DONE]`` last), or the SDK's chunks dumped one JSON a line
(``for chunk in stream: print(chunk.model_dump_json())``). OpenAI, vLLM, SGLang, Ollama and the
proxies in front of them all stream so; the server sides are read by :mod:`formats.responses_stream`'s
event reader, this module assembles the chunks.

A chunk carries pieces of one completion's message: ``choices[i].delta.content`` (text),
``delta.tool_calls[j]`` (a call's ``id`` and ``function.name`` in its first piece, then pieces of
``function.arguments``, all under the call's ``index``; the deprecated ``delta.function_call`` of a
request made with ``functions=``, one call so), ``delta.refusal``, a spoken reply's
``delta.audio.transcript`` and a reasoning server's ``reasoning_content``. They are put back
together as the openai-python SDK's ``ChatCompletionStreamState`` does (openai/openai-python
``src/openai/lib/streaming/chat/_completions.py`` and ``_deltas.py``: choices by ``index``, tool
calls by ``index``, string pieces concatenated), except that a call's ``id`` and ``name`` are
taken from their first piece, not concatenated: some servers repeat them in every piece. Each
completion is then one assistant message, read as a chat message (:mod:`formats.openai_chat`), at
the line of its first chunk.

A completion ends where the next one (another chunk ``id``) begins, at ``data: [DONE]`` (the
SDK stops reading a stream there: openai/openai-python ``src/openai/_streaming.py``), or with the
file: a stream cut short keeps the text and calls it had. Two completions under one ``id`` (a
server or proxy that numbers none, ``chatcmpl-123`` in every answer, saved into one file) are two
streams to the SDK: the second begins where a finished choice gets a piece again.
``{"error": {...}}`` (a stream failed midway: OpenAI and vLLM send it as a ``data:`` line) is an
error of the session; the last chunk of ``stream_options.include_usage`` (no choices) is bookkeeping.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import openai_chat
from spec_debug.session.formats.common import Cursor, stream_event
from spec_debug.session.formats.instants import stamp

CHUNK = "chat.completion.chunk"
STREAM_END: dict = {}
"""What the reader of a saved event stream gives for its ``data: [DONE]`` (compared by identity)."""


def looks_like(obj: dict) -> bool:
    """One chunk of a Chat Completions stream (openai/openai-python ``types/chat/chat_completion_chunk.py``)."""
    return obj.get("object") == CHUNK and isinstance(obj.get("choices"), list)


@dataclass
class _Call:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)

    def take(self, fn: dict) -> None:
        """A piece of the call's ``function``: its name from the first piece that has one, its
        arguments concatenated."""
        if isinstance(fn.get("name"), str) and not self.name:
            self.name = fn["name"]
        if isinstance(fn.get("arguments"), str):
            self.arguments.append(fn["arguments"])

    def whole(self) -> bool:
        """The arguments read so far are one whole JSON object."""
        try:
            return isinstance(json.loads("".join(self.arguments)), dict)
        except ValueError:
            return False


@dataclass
class _Choice:
    content: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    refusal: list[str] = field(default_factory=list)
    transcript: list[str] = field(default_factory=list)  # a spoken reply's words (delta.audio.transcript)
    calls: dict[int, _Call] = field(default_factory=dict)
    _split: dict[int, int] = field(default_factory=dict)
    """A server's call index -> the call its pieces now go to, where it gave several calls one index."""
    legacy: _Call | None = None  # the deprecated delta.function_call (a request made with functions=)
    finished: bool = False

    def add(self, delta: dict) -> None:
        for key, parts in (("content", self.content), ("refusal", self.refusal)):
            if isinstance(delta.get(key), str):
                parts.append(delta[key])
        for key in openai_chat.REASONING_FIELDS:
            if isinstance(delta.get(key), str):
                self.reasoning.append(delta[key])
                break
        audio = delta.get("audio")
        if isinstance(audio, dict) and isinstance(audio.get("transcript"), str):
            self.transcript.append(audio["transcript"])
        pieces = delta.get("tool_calls")
        for piece in pieces if isinstance(pieces, list) else ():
            if isinstance(piece, dict):
                self._call(piece)
        if isinstance(delta.get("function_call"), dict):
            self.legacy = self.legacy or _Call()
            self.legacy.take(delta["function_call"])

    def _call(self, piece: dict) -> None:
        index = piece.get("index")
        given = piece.get("id") if isinstance(piece.get("id"), str) and piece["id"] else None
        fn = piece.get("function") if isinstance(piece.get("function"), dict) else {}
        if type(index) is not int:
            # No index (some OpenAI-compatible servers): a new id opens a call, else the last one goes on
            known = any(c.id == given for c in self.calls.values())
            index = len(self.calls) if (given and not known) or not self.calls else next(reversed(self.calls))
        else:
            index = self._split.get(index, index)
            current = self.calls.get(index)
            if given and current is not None and current.id and current.id != given \
                    and isinstance(fn.get("name"), str) and fn["name"] and current.whole():
                # Parallel calls all streamed under index 0, each under its own id (Ollama,
                # ollama/ollama#15457; LiteLLM's and Plexus' Responses bridges, BerriAI/litellm#21331,
                # mcowger/plexus#691): a new id with a name after a call whose arguments are whole
                # opens the next call. Joined by index, as the SDK does, the calls were one, its
                # arguments two objects back to back, and every call but the first was lost.
                server_index, index = piece["index"], max(self.calls) + 1
                self._split[server_index] = index
        call = self.calls.setdefault(index, _Call())
        call.id = call.id or given or ""
        call.take(fn)

    def message(self, created: object) -> dict:
        message: dict = {"role": "assistant", "content": "".join(self.content) or None, "created": created}
        if self.reasoning:
            message["reasoning_content"] = "".join(self.reasoning)
        if self.refusal:
            message["refusal"] = "".join(self.refusal)
        if self.transcript:
            message["audio"] = {"transcript": "".join(self.transcript)}
        if self.calls:
            message["tool_calls"] = [
                {"id": call.id or None, "type": "function",
                 "function": {"name": call.name, "arguments": "".join(call.arguments)}}
                for _, call in sorted(self.calls.items())]
        if self.legacy is not None and self.legacy.name:
            message["function_call"] = {"name": self.legacy.name, "arguments": "".join(self.legacy.arguments)}
        return message


class _Completion:
    """The pieces of one streamed completion read so far: its choices by index."""

    def __init__(self, chunk: dict, lineno: int) -> None:
        self.id = chunk.get("id")
        self.created = chunk.get("created")
        self.lineno = lineno
        self.choices: dict[int, _Choice] = {}

    def takes(self, chunk: dict) -> bool:
        """The chunk goes on this completion: the same id, and no choice it names has finished
        (a finished choice's next piece opens the next completion; under an id, a piece that
        says something: Azure's content-filter chunks after the end carry an empty delta)."""
        if chunk.get("id") != self.id:
            return False
        return not any((seen := self.choices.get(_index(c))) is not None and seen.finished
                       and (not self.id or _says_something(c.get("delta")))
                       for c in chunk["choices"] if isinstance(c, dict))

    def add(self, chunk: dict) -> None:
        for choice in chunk["choices"]:
            if not isinstance(choice, dict):
                continue
            state = self.choices.setdefault(_index(choice), _Choice())
            if isinstance(choice.get("delta"), dict):
                state.add(choice["delta"])
            state.finished = state.finished or choice.get("finish_reason") is not None

    def messages(self) -> list[dict]:
        return [self.choices[i].message(self.created) for i in sorted(self.choices)]


def messages_of(chunks: Iterable[dict]) -> list[dict]:
    """The assistant messages a stream's chunks make, the completions one after another (a
    logging proxy's record of a streamed call keeps the stream as the text it was sent:
    :func:`formats.openai_chat.streamed_answer`)."""
    found: list[dict] = []
    current: _Completion | None = None
    for chunk in chunks:
        if not looks_like(chunk):
            continue
        if current is None or not current.takes(chunk):
            found += current.messages() if current is not None else []
            current = _Completion(chunk, 0)
        current.add(chunk)
    return found + (current.messages() if current is not None else [])


def _index(choice: dict) -> int:
    return choice["index"] if type(choice.get("index")) is int else 0


def _says_something(delta: object) -> bool:
    """The delta carries a role, text or a call (the first piece of a completion says its role)."""
    return isinstance(delta, dict) and bool(openai_chat.filled(delta))


def read(records: Iterable[tuple[int, int, dict]], cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    """The events of the chunks ``(index, line, chunk)``: one assistant message per completion (per
    choice), each at the seq of its first chunk, in the order they began."""
    current: _Completion | None = None
    first_seq = cursor.seq_base
    ts: str | None = None

    def finished() -> Iterator[Event]:
        for message in current.messages() if current is not None else ():
            yield from openai_chat.assistant_events(message, cursor, first_seq, current.lineno, stats)

    for index, lineno, obj in records:
        if obj is STREAM_END:
            yield from finished()
            current = None
            continue
        cursor.records = index + 1
        seq = cursor.seq_base + index
        ts = stamp(obj.get("created")) or ts
        if looks_like(obj):
            if current is None or not current.takes(obj):
                yield from finished()
                current, first_seq = _Completion(obj, lineno), seq
            current.add(obj)
            continue
        yield from finished()
        current = None
        error = obj.get("error")
        if isinstance(error, (dict, str)) and "choices" not in obj:
            said = error.get("message") if isinstance(error, dict) else error
            code = error.get("code") or error.get("type") if isinstance(error, dict) else None
            yield stream_event(cursor, seq, lineno, "error", text=f"{code or 'error'}: {said or 'the stream failed'}",
                               timestamp=ts)
        else:
            stats.unknown_types += 1
            kind = obj.get("object") or obj.get("type")
            yield stream_event(cursor, seq, lineno, str(kind), kind="other", timestamp=ts)
    yield from finished()
