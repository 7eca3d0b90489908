"""Continue's saved sessions (continuedev/continue): ``~/.continue/sessions/<sessionId>.json``, one
JSON document a session, its keys written in a fixed order, ``sessionId``, ``title``,
``workspaceDirectory``, ``history`` (``HistoryManager.save`` in ``core/util/history.ts``; the folder
in ``core/util/paths.ts``; ``sessions.json`` beside them is the list of sessions, no session).

Each ``history`` item is ``{message, contextItems, toolCallStates?, reasoning?}`` (``ChatHistoryItem``
in ``core/index.d.ts``): ``message`` an OpenAI-like chat message (``role`` user, assistant with
``toolCalls`` of ``{id, function: {name, arguments}}``, ``tool`` with ``toolCallId``, thinking), and an
assistant item's ``toolCallStates`` each call's ``status`` and ``output`` (context items whose
``status`` the terminal tool sets: ``Command completed``, ``Command failed with exit code N``,
``core/tools/implementations/runTerminalCommand.ts``). The tool message saved is the output's
content alone (``renderContextItems``, ``gui/src/redux/thunks/streamResponseAfterToolCall.ts``);
the model was sent it with each item's status after it, ``[Status: …]``
(``renderContextItemsWithStatus``, ``gui/src/redux/util/constructMessages.ts``), and so is it read
here. Read before as a Claude Code session: one unknown record, no prompt, no command.
"""

from __future__ import annotations

import re

from spec_debug.session.formats.common import block_text

HEAD = re.compile(rb'\A\{\s*"sessionId"\s*:\s*"[^"]*"\s*,\s*"title"\s*:\s*"(?:[^"\\]|\\.)*"\s*,'
                  rb'\s*"workspaceDirectory"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"history"\s*:\s*\[')
"""The head of a session file: its first keys as ``HistoryManager.save`` orders them."""


INDEX = re.compile(rb'\A\[\s*\{\s*"sessionId"\s*:\s*"[^"]*"\s*,\s*"title"\s*:\s*"(?:[^"\\]|\\.)*"\s*,'
                   rb'\s*"dateCreated"\s*:')
"""The head of ``sessions.json``, the list of sessions beside them (``SessionMetadata`` entries as
``HistoryManager.save`` appends them: ``sessionId``, ``title``, ``dateCreated``, ...): no session."""


def looks_like_index(head: bytes) -> bool:
    return INDEX.match(head) is not None


def looks_like_head(head: bytes) -> bool:
    return HEAD.match(head) is not None


def is_session(obj: dict) -> bool:
    return isinstance(obj.get("history"), list) and isinstance(obj.get("sessionId"), str) \
        and "workspaceDirectory" in obj


def messages(obj: dict) -> list:
    """The session's messages in the shape the OpenAI chat reader reads (:mod:`formats.openai_chat`):
    a tool message answers its call by ``tool_call_id`` with the output's status after it, a
    failed call (its state ``errored``) is an error, an item's reasoning is the reply's thinking.
    A call known only by its state (a reply saved without ``toolCalls``, a call no tool message
    answers) is read from the state: its call, and its output as the result."""
    history = obj["history"]
    answered = {item["message"].get("toolCallId") for item in history if isinstance(item, dict)
                and isinstance(item.get("message"), dict) and item["message"].get("role") == "tool"}
    found: list = []
    states: dict[str, dict] = {}
    for item in history:
        message = item.get("message") if isinstance(item, dict) else None
        if not isinstance(message, dict):
            found.append(item)  # counted as a record of no known shape, not dropped
            continue
        own = _states(item)
        for state in own:
            if isinstance(state.get("toolCallId"), str):
                states[state["toolCallId"]] = state
        found.append(_message(message, item, states, own))
        if message.get("role") == "assistant":
            found.extend(_result(state.get("toolCallId"), state, "") for state in own
                         if state.get("toolCallId") not in answered and state.get("output"))
    return found


def _states(item: dict) -> list[dict]:
    """The item's call states: ``toolCallStates`` since Continue runs calls in parallel (July 2025),
    ``toolCallState``, one, before (continuedev/continue ``core/index.d.ts`` history)."""
    states = item.get("toolCallStates")
    if not isinstance(states, list):
        states = [item.get("toolCallState")]
    return [s for s in states if isinstance(s, dict)]


def _message(message: dict, item: dict, states: dict[str, dict], own: list[dict]) -> dict:
    role = message.get("role")
    if role == "thinking":
        return {**message, "role": "assistant", "content": "", "reasoning_content": block_text(message.get("content"))}
    if role == "assistant":
        reasoning = item.get("reasoning")
        text = reasoning.get("text") if isinstance(reasoning, dict) else None
        tool_calls = message.get("toolCalls")
        if not isinstance(tool_calls, list) or not tool_calls:
            tool_calls = [_call(state) for state in own if isinstance(state.get("toolCall"), dict)] or None
        return {**message, **({"tool_calls": tool_calls} if tool_calls else {}),
                **({"reasoning_content": text} if isinstance(text, str) and text else {})}
    if role != "tool":
        return message
    call_id = message.get("toolCallId")
    state = states.get(call_id) if isinstance(call_id, str) else None
    return {**message, **_result(call_id, state, block_text(message.get("content")))}


def _call(state: dict) -> dict:
    call = state["toolCall"]
    return {**call, "id": call.get("id") if isinstance(call.get("id"), str) else state.get("toolCallId")}


def _result(call_id, state: dict | None, content: str) -> dict:
    """A tool message's fields: the content (the state's output when the message has none) with
    each output item's status after it, as Continue sends the model its terminal output."""
    output = (state or {}).get("output")
    if not content:
        content = output if isinstance(output, str) else "\n\n".join(
            o["content"] for o in output or () if isinstance(o, dict) and isinstance(o.get("content"), str)) \
            if isinstance(output, list) else ""
    statuses = [o["status"] for o in output if isinstance(o, dict) and isinstance(o.get("status"), str)
                and o["status"]] if isinstance(output, list) else []
    content += "".join(f"\n[Status: {s}]" for s in statuses)
    failed = (state is not None and state.get("status") == "errored") or any(
        s.startswith("Command failed") for s in statuses)  # "Command failed with: <error>" names no code
    return {"role": "tool", "content": content, "tool_call_id": call_id, **({"is_error": True} if failed else {})}

