"""Gemini CLI chat recordings (``~/.gemini/tmp/<project_hash>/chats/session-*.json``).

Gemini CLI records each session (google-gemini/gemini-cli
``packages/core/src/services/chatRecordingService.ts``, ``chatRecordingTypes.ts``) as one JSON
document ``{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`` written with
two-space indents, and in newer releases as JSONL: that header on the first line, then one
message a line, with ``{"$set": {...}}`` metadata updates and ``{"$rewindTo": id}`` markers;
a message is appended again, whole, each time it changes (:func:`_folded`).
A message is ``{id, timestamp, type: user|gemini|info|error|warning, content}``; a ``gemini``
message adds ``thoughts[{subject, description}]``, ``tokens`` and ``toolCalls[{id, name, args,
result, status, timestamp, displayName}]``, the result being Gemini API parts
``[{functionResponse: {id, name, response: {output | error}}}]``. A shell call
(``run_shell_command``) reports ``Command: … Directory: … Output: … Error: … Exit Code: N``.

Read as OpenAI chat (its ``messages`` key) or Claude Code (its JSONL), such a session showed no
command and no error at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import (
    Cursor,
    block_text,
    call_path,
    remote_host,
    shell_command,
)
from spec_debug.session.formats.compressed import read_head
from spec_debug.session.reader import iter_json_array, iter_json_records

SHELL_TOOLS = frozenset({"run_shell_command"})
"""Gemini CLI's shell tool, Qwen Code's too (gemini-cli ``packages/core/src/tools/shell.ts``)."""
_EXIT_CODE = re.compile(r"^Exit Code: (-?\d+)\s*$", re.MULTILINE)
_SHELL_REPORT = re.compile(r"\ACommand: .*?^Output: (?P<output>.*?)(?:^Error: (?P<error>.*?))?(?=^Exit Code: |^Signal: |\Z)",
                           re.DOTALL | re.MULTILINE)
_NOTHING = frozenset({"(empty)", "(none)", ""})


_SESSION_ID = re.compile(rb'"sessionId"\s*:\s*"')
_PROJECT_HASH = re.compile(rb'"projectHash"\s*:\s*"')
"""A recording opens with ``sessionId`` and ``projectHash`` (``ConversationRecord``), compact
(the JSONL header) or indented (the JSON document); no other transcript has a project hash."""
_MESSAGES = re.compile(rb'"messages"\s*:\s*\[')


def looks_like_head(head: bytes) -> bool:
    start = head.lstrip()[:1024]
    return start[:1] == b"{" and bool(_SESSION_ID.search(start)) and bool(_PROJECT_HASH.search(start))


def is_prompt_log_entry(obj: dict) -> bool:
    """An entry of ``~/.gemini/tmp/<project_hash>/logs.json``: ``{sessionId, messageId, type:
    "user", message, timestamp}``, the prompts typed (for the CLI's up-arrow history), not a
    session (gemini-cli ``packages/core/src/core/logger.ts`` ``LogEntry``)."""
    return isinstance(obj.get("sessionId"), str) and isinstance(obj.get("messageId"), int) \
        and isinstance(obj.get("message"), str) and "content" not in obj


def looks_like(obj: dict) -> bool:
    """The session header (or the whole document): ``sessionId`` and ``projectHash``."""
    return isinstance(obj.get("sessionId"), str) and isinstance(obj.get("projectHash"), str)


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    first = read_head(path, 1 << 16).lstrip().split(b"\n", 1)[0]
    # The JSON document's messages are read one at a time (a session of many MB); the JSONL
    # layout's first line is the header alone.
    document = _MESSAGES.search(first) is not None or first.strip() == b"{"
    records = iter_json_array(path, stats, key="messages") if document else iter_json_records(path, stats)
    for index, lineno, obj in _folded(records, stats, document, cursor):
        seq = cursor.seq_base + index
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=kw.pop("timestamp", ts), file=cursor.file, line=lineno, **kw)

        kind = obj.get("type")
        if looks_like(obj) and "messages" not in obj:
            yield event("system", "system", raw_type="session_meta", timestamp=obj.get("startTime")
                        if isinstance(obj.get("startTime"), str) else None, text=f"sessionId={obj.get('sessionId')}")
        elif "$set" in obj or "$rewindTo" in obj:
            # Bookkeeping: a title or directory list, or a rewind. The calls after a rewind point
            # did run on their hosts, so nothing is dropped for it.
            yield event("other", "system", raw_type="$set" if "$set" in obj else "$rewindTo")
        elif kind == "user":
            text = block_text(obj.get("content"))
            yield event("prompt", "user", text=text) if text.strip() else event("other", "user", raw_type="user")
        elif kind == "gemini":
            yield from _reply(obj, event)
        elif kind in ("info", "error", "warning"):
            yield event("system", "system", raw_type=kind, text=block_text(obj.get("content")))
        else:
            stats.unknown_types += 1
            yield event("other", "system", raw_type=str(kind))


def _folded(records, stats: ReadStats, document: bool, cursor: Cursor) -> list[tuple[int, int, dict]]:
    """The records with each message once, as last written, in the place it was first written.
    The JSONL layout is an upsert log: Gemini CLI appends a message again, whole, each time its
    tool calls, their results or its tokens change (gemini-cli ``packages/core/src/services/
    chatRecordingService.ts``, JSONL layout),
    so a call read line by line ran two or three times."""
    kept: list[tuple[int, int, dict]] = []
    where: dict[str, int] = {}
    for index, lineno, obj in records:
        cursor.records = index + 1
        if document:
            stats.records += 1  # as iter_json_records counts an array's elements
        message_id = obj.get("id") if isinstance(obj.get("id"), str) and "type" in obj else None
        if message_id is not None and message_id in where:
            at = where[message_id]
            kept[at] = (kept[at][0], lineno, obj)
            continue
        if message_id is not None:
            where[message_id] = len(kept)
        kept.append((index, lineno, obj))
    return kept


def _reply(obj: dict, event) -> Iterator[Event]:
    block = 0
    thoughts = obj.get("thoughts")
    for thought in thoughts if isinstance(thoughts, list) else ():
        if isinstance(thought, dict):
            # Gemini CLI parsed "**Subject**\n\ndescription" out of the model's thought
            # (packages/core/src/utils/thoughtUtils.ts); put back, the subject reads as a title.
            subject, description = (thought.get(k) if isinstance(thought.get(k), str) else "" for k in
                                    ("subject", "description"))
            text = "\n\n".join(p for p in (f"**{subject}**" if subject.strip() else "", description) if p.strip())
            if text.strip():
                yield event("thinking", "assistant", block, text=text)
                block += 1
    text = block_text(obj.get("content"))
    if text.strip():
        yield event("text", "assistant", block, text=text)
        block += 1
    calls = obj.get("toolCalls")
    for call in calls if isinstance(calls, list) else ():
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            continue
        name, args = call["name"], call.get("args")
        call_id = call.get("id") if isinstance(call.get("id"), str) else f"{obj.get('id')}-{block}"
        when = call.get("timestamp") if isinstance(call.get("timestamp"), str) else None
        command = shell_command(args) if name in SHELL_TOOLS or remote_host(args) else None
        description = args.get("description") if isinstance(args, dict) and isinstance(args.get("description"), str) \
            else None
        # A sub-agent's call names the agent it ran (formats.gemini_agents)
        agent = call.get("agentId") if isinstance(call.get("agentId"), str) and call["agentId"] else None
        yield event("tool_call", "assistant", block, tool_name=name, call_id=call_id, command=command,
                    description=description, path=call_path(name, args), host=remote_host(args),
                    text=command or str(args)[:2000], agent_ref=agent)
        block += 1
        result = _result(call)
        if result is not None:
            output, failed = result
            code = _exit_code(output) if command is not None else None
            if command is not None:
                output = _shell_output(output)
            yield event("tool_result", "tool", block, call_id=call_id, text=output, exit_code=code,
                        is_error=failed or bool(code), timestamp=when)
            block += 1


def _result(call: dict) -> tuple[str, bool] | None:
    """The call's output and whether it failed; None for a call still running (no result and a
    status of ``scheduled``/``executing``)."""
    status = call.get("status") if isinstance(call.get("status"), str) else ""
    failed = status in ("error", "cancelled")
    parts = call.get("result")
    texts = []
    for part in parts if isinstance(parts, list) else [parts] if isinstance(parts, dict) else ():
        found = response_text(part)
        if found is not None:
            texts.append(found[0])
            failed = failed or found[1]
    if not texts and isinstance(call.get("resultDisplay"), str):
        texts.append(call["resultDisplay"])
    if not texts and status not in ("success", "error", "cancelled"):
        return None
    return "\n".join(texts), failed


def response_text(part) -> tuple[str, bool] | None:
    """The text of one Gemini API result part and whether it reports a failure:
    ``{functionResponse: {response: {output} | {error}}}`` (a failed call answers with
    ``error``), or a plain ``{text}`` part."""
    if not isinstance(part, dict):
        return None
    call = part.get("functionResponse")
    response = call.get("response") if isinstance(call, dict) else None
    if isinstance(response, dict):
        for key in ("output", "error", "content"):
            if isinstance(response.get(key), str):
                return response[key], key == "error"
        return None
    if isinstance(response, str):
        return response, False
    if isinstance(part.get("text"), str):
        return part["text"], False
    return None


def shell_result(report: str) -> tuple[str, int | None]:
    """A shell call's output and exit code, out of the report the shell tool gives the model."""
    return _shell_output(report), _exit_code(report)


def _exit_code(output: str) -> int | None:
    found = _EXIT_CODE.findall(output[-2000:])
    return int(found[-1]) if found else None


def _shell_output(report: str) -> str:
    """What the command printed, out of the shell tool's report: its ``Output:`` and ``Error:``
    fields (``(empty)`` and ``(none)`` are nothing). A report in another shape is kept whole."""
    m = _SHELL_REPORT.match(report)
    if m is None:
        return report
    parts = [(m.group("output") or "").strip("\n"), (m.group("error") or "").strip("\n")]
    return "\n".join(p for p in parts if p.strip() not in _NOTHING)
