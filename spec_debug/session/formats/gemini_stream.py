"""Gemini CLI's headless output, ``gemini -p … --output-format stream-json``: one JSON event a line.

The events (google-gemini/gemini-cli ``packages/core/src/output/types.ts``, ``JsonStreamEvent``;
``docs/cli/headless.md``) are ``init{session_id, model}``, ``message{role: user|assistant,
content, delta?}`` (the reply comes in many ``delta`` chunks), ``tool_use{tool_name, tool_id,
parameters}``, ``tool_result{tool_id, status: success|error, output?, error?{type, message}}``,
``error{severity: warning|error, message}`` and ``result{status, error?, stats}``, each with its
``timestamp``. CI jobs and evaluation harnesses save this stream as the run's transcript (often
with a field of their own added to each line, and several runs appended to one file).

It is neither a chat recording (:mod:`formats.gemini_cli`) nor OpenAI chat: read as the latter,
a real run's 68 calls and 4 failed ones were 138 lines of an unknown type, and no command at all.
"""

from __future__ import annotations

import json

from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.claude_code import RESULT_ERROR
from spec_debug.session.formats.common import Cursor, remote_host, shell_command, call_path
from spec_debug.session.formats.compressed import read_head
from spec_debug.session.formats.gemini_cli import SHELL_TOOLS, shell_result
from spec_debug.session.reader import iter_json_records, pretty_objects


def looks_like(obj: dict) -> bool:
    """A stream event only this stream writes: ``init`` with ``session_id`` and ``model``, a
    ``tool_use`` with ``tool_name``/``tool_id``/``parameters``, a ``tool_result`` with
    ``tool_id``/``status``. (Its ``message`` events alone could be a Responses API item.)"""
    kind = obj.get("type")
    if kind == "init":
        return isinstance(obj.get("session_id"), str) and isinstance(obj.get("model"), str)
    if kind == "tool_use":
        return isinstance(obj.get("tool_name"), str) and "tool_id" in obj and "parameters" in obj
    if kind == "tool_result":
        return "tool_id" in obj and obj.get("status") in ("success", "error")
    return False


def looks_like_result(obj: dict) -> bool:
    """``gemini -p … --output-format json``: one document, ``{session_id?, response, stats,
    error?}`` (``JsonOutput`` in the same ``types.ts``), the run's final answer and its counts
    (``stats.models``, ``stats.tools``), with no ``type`` of its own."""
    stats = obj.get("stats")
    return "type" not in obj and ("response" in obj or "error" in obj) and isinstance(stats, dict) \
        and ("models" in stats or "tools" in stats) and set(obj) <= _RESULT_KEYS


_RESULT_KEYS = frozenset({"session_id", "response", "stats", "error", "auth_method", "user_tier"})
"""``JsonOutput``'s fields; later releases add the login's ``auth_method`` and ``user_tier``
(the same interface in a newer ``packages/core/src/output/types.ts``, which gives ``InitEvent``
them too): an output with them was not the run's and read as one unknown Claude Code record."""


def is_stream(path: Path) -> bool:
    """The file's first lines hold one of this stream's own events (:func:`looks_like`), or it
    is the one-document ``json`` output (:func:`looks_like_result`)."""
    head = read_head(path, 1 << 18)
    for raw in head.splitlines()[:50]:
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than json recurses
            continue
        if isinstance(obj, dict) and (looks_like(obj) or looks_like_result(obj)):
            return True
    return any(looks_like_result(obj) for obj in pretty_objects(head.lstrip(), 1))


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    shell_calls: set[str] = set()
    reply: list = []  # the assistant's delta chunks not handed on yet: (seq, lineno, ts, text)
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
        kind = obj.get("type")
        if kind == "message" and obj.get("role") == "assistant" and isinstance(obj.get("content"), str):
            reply.append((seq, lineno, ts, obj["content"]))
            if obj.get("delta") is True:
                continue  # the next chunk may continue this sentence
        yield from _reply(reply, cursor)
        if kind == "message" and obj.get("role") == "assistant" and isinstance(obj.get("content"), str):
            continue

        def event(kind, role, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         timestamp=kw.pop("timestamp", ts), file=cursor.file, line=lineno, **kw)

        yield from _event(obj, kind, event, shell_calls, stats)
    yield from _reply(reply, cursor)


def _reply(chunks: list, cursor: Cursor) -> Iterator[Event]:
    """The reply's chunks as one text, at the place and time of its first chunk."""
    if not chunks:
        return
    seq, lineno, ts, _ = chunks[0]
    text = "".join(c[3] for c in chunks)
    chunks.clear()
    if text.strip():
        yield Event(session=cursor.session, seq=seq, agent=cursor.agent, role="assistant", kind="text",
                    text=text, timestamp=ts, file=cursor.file, line=lineno)


def _event(obj: dict, kind, event, shell_calls: set[str], stats: ReadStats) -> Iterator[Event]:
    if kind == "init":
        yield event("system", "system", raw_type="session_meta",
                    text=f"sessionId={obj.get('session_id')} model={obj.get('model')}")
    elif kind == "message":
        text = obj.get("content") if isinstance(obj.get("content"), str) else ""
        yield event("prompt", "user", text=text) if text.strip() else event("other", "user", raw_type="user")
    elif kind == "tool_use" and isinstance(obj.get("tool_name"), str):
        yield _call(obj, event, shell_calls)
    elif kind == "tool_result":
        yield _result(obj, event, shell_calls)
    elif kind == "error":
        # A warning (a loop detected, a retried request) is no failure; an error ends the turn.
        said = obj.get("message") if isinstance(obj.get("message"), str) else ""
        yield event("system", "system", text=said, raw_type="error" if obj.get("severity") == "error" else "warning")
    elif kind in ("retry", "loop_detected"):
        yield event("system", "system", raw_type="warning", text=_notice(obj, kind))
    elif kind is None and looks_like_result(obj):
        yield from _final_answer(obj, event)
    elif kind == "result":
        failed = obj.get("status") == "error"
        error = obj.get("error") if isinstance(obj.get("error"), dict) else {}
        said = error.get("message") if isinstance(error.get("message"), str) else ""
        yield event("system", "system", text=said or ("the run failed" if failed else ""),
                    raw_type=RESULT_ERROR if failed else "result:success")
    else:
        stats.unknown_types += 1
        yield event("other", "system", raw_type=str(kind))


def _notice(obj: dict, kind: str) -> str:
    """Later releases' ``retry{attempt, max_attempts, delay_ms, error?, model}`` (a model request
    retried) and ``loop_detected{loop_type?}`` (the CLI stopped a repeating turn), as a newer
    ``packages/core/src/output/types.ts`` gives them: warnings, not records of an unknown type."""
    if kind == "retry":
        said = obj.get("error") if isinstance(obj.get("error"), str) else ""
        return f"retry {obj.get('attempt')}/{obj.get('max_attempts')} of a {obj.get('model')} request: {said}".rstrip(": ")
    loop = obj.get("loop_type") if isinstance(obj.get("loop_type"), str) else ""
    return f"loop detected: {loop}".rstrip(": ")


def _final_answer(obj: dict, event) -> Iterator[Event]:
    """The ``json`` output: the answer, the tools' counts (which calls ran is not in it), and
    the error that ended the run, if one did."""
    if isinstance(obj.get("response"), str) and obj["response"].strip():
        yield event("text", "assistant", text=obj["response"])
    tools = obj["stats"].get("tools") if isinstance(obj["stats"].get("tools"), dict) else {}
    by_name = tools.get("byName") if isinstance(tools.get("byName"), dict) else {}
    counts = ", ".join(f"{name}: {v.get('count')} ({v.get('fail')} failed)" for name, v in by_name.items()
                       if isinstance(v, dict))
    if counts:
        yield event("system", "system", raw_type="stats", text=f"tool calls (not in this output one by one): {counts}")
    error = obj.get("error") if isinstance(obj.get("error"), dict) else {}
    if isinstance(error.get("message"), str) and error["message"].strip():
        yield event("system", "system", raw_type=RESULT_ERROR, text=error["message"])


def _call(obj: dict, event, shell_calls: set[str]) -> Event:
    name, args = obj["tool_name"], obj.get("parameters")
    call_id = str(obj.get("tool_id"))
    command = shell_command(args) if name in SHELL_TOOLS or remote_host(args) else None
    if command is not None:
        shell_calls.add(call_id)
    description = args.get("description") if isinstance(args, dict) and isinstance(args.get("description"), str) \
        else None
    return event("tool_call", "assistant", tool_name=name, call_id=call_id, command=command,
                 description=description, path=call_path(name, args), host=remote_host(args),
                 text=command or str(args)[:2000])


def _result(obj: dict, event, shell_calls: set[str]) -> Event:
    """The stream gives the tool's display text (``resultDisplay``), and for a failed call the
    error's message; a shell call's exit code only where that text is the shell tool's report."""
    call_id = str(obj.get("tool_id"))
    error = obj.get("error") if isinstance(obj.get("error"), dict) else {}
    output = obj.get("output") if isinstance(obj.get("output"), str) else ""
    said = error.get("message") if isinstance(error.get("message"), str) else ""
    text = output if said in ("", output) else "\n".join(p for p in (output, said) if p)
    code = None
    if call_id in shell_calls:
        text, code = shell_result(text)
    return event("tool_result", "tool", call_id=call_id, text=text, exit_code=code,
                 is_error=obj.get("status") == "error" or bool(code))
