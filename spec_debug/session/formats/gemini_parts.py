"""Gemini API ``Content`` parts as events: what the model said and called, and what its tools
answered (``{role: "user" | "model", parts: [...]}``, google-genai ``types.Content``).

A part is ``{text}`` (``thought: true`` for reasoning), ``{functionCall: {id?, name, args}}``
or ``{functionResponse: {id?, name, response: {output | error}}}``. Qwen Code writes its
sessions in them (:mod:`formats.qwen_code`), and so does Gemini CLI's ``/chat save``
checkpoint (``~/.gemini/tmp/<project_hash>/checkpoint-<tag>.json``, a list of them: gemini-cli
``packages/core/src/core/logger.ts`` ``saveCheckpoint``). The API leaves ``id`` out of calls
and responses; a response without one answers the oldest open call of its name.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator

from spec_debug.session.events import Event
from spec_debug.session.formats.common import remote_host, shell_command, call_path
from spec_debug.session.formats.gemini_cli import SHELL_TOOLS, response_text, shell_result


_SETUP = re.compile(r"\s*(?:<session_context>\s*)?"
                    r"This is the (?:Gemini CLI|Qwen Code)\. We are setting up the context for our chat\.")
"""The first user turn the CLI writes itself: date, OS, working folder and its file tree
(gemini-cli ``packages/core/src/utils/environmentContext.ts`` ``getEnvironmentContext``), and
the model's "Got it. Thanks for the context!" after it; newer Gemini CLIs wrap it in
``<session_context>…</session_context>`` (gemini-cli 9178b31629, #17263). Read as the person's
report, the postmortem opened with it."""


def user_events(parts: list, event, reader: PartsReader) -> Iterator[Event]:
    """A ``user`` turn: tool responses, the CLI's own setup context, or what the person typed."""
    dicts = [p for p in parts if isinstance(p, dict)]
    if any("functionResponse" in p for p in dicts):
        yield from reader.results(dicts, event)
        return
    text = "\n".join(p["text"] for p in dicts if isinstance(p.get("text"), str))
    if _SETUP.match(text):
        yield event("system", "system", text=text, raw_type="environment_context")
    elif text.strip():
        yield event("prompt", "user", text=text)
    else:
        yield event("other", "user", raw_type="user")


class PartsReader:
    """The calls of one conversation, so that each response finds the call it answers."""

    def __init__(self) -> None:
        self._open: OrderedDict[str, str] = OrderedDict()
        """call id -> tool name, of the calls not answered yet"""
        self._shell: set[str] = set()
        self._made = 0

    def reply(self, parts: list, event) -> Iterator[Event]:
        """A ``model`` turn: its text, thoughts and calls."""
        dicts = [p for p in parts if isinstance(p, dict)]
        if not dicts:
            yield event("other", "assistant", raw_type="assistant")
        for block, part in enumerate(dicts):
            call = part.get("functionCall")
            if isinstance(call, dict) and isinstance(call.get("name"), str):
                yield self._call(call, event, block)
            elif isinstance(part.get("text"), str):
                kind = "thinking" if part.get("thought") is True else "text"
                yield event(kind, "assistant", block, text=part["text"])
            else:
                yield event("other", "assistant", block, raw_type="part")

    def results(self, parts: list, event, *, failed: bool = False, call_id: str | None = None) -> Iterator[Event]:
        """A ``user`` turn of tool responses. ``call_id``: the call a part without an id answers
        (Qwen Code's ``toolCallResult.callId``); ``failed``: the record says the call failed."""
        for block, part in enumerate(p for p in parts if isinstance(p, dict)):
            found = response_text(part)
            if found is None:
                yield event("other", "tool", block, raw_type="part")
                continue
            text, error = found
            response = part.get("functionResponse") if isinstance(part.get("functionResponse"), dict) else {}
            answered = self._answered(response, call_id)
            code = None
            if answered in self._shell or (answered is None and isinstance(response.get("name"), str) and response["name"] in SHELL_TOOLS):
                text, code = shell_result(text)
            yield event("tool_result", "tool", block, call_id=answered, text=text, exit_code=code,
                        is_error=failed or error or bool(code))

    def _call(self, call: dict, event, block: int) -> Event:
        name, args = call["name"], call.get("args")
        call_id = call.get("id") if isinstance(call.get("id"), str) and call["id"] else None
        if call_id is None:
            self._made += 1
            call_id = f"{name}-{self._made}"
        self._open[call_id] = name
        command = shell_command(args) if name in SHELL_TOOLS or remote_host(args) else None
        if command is not None:
            self._shell.add(call_id)
        description = args.get("description") if isinstance(args, dict) \
            and isinstance(args.get("description"), str) else None
        return event("tool_call", "assistant", block, tool_name=name, call_id=call_id, command=command,
                     description=description, path=call_path(name, args), host=remote_host(args),
                     text=command or str(args)[:2000])

    def _answered(self, response: dict, call_id: str | None) -> str | None:
        given = response.get("id") if isinstance(response.get("id"), str) and response["id"] else call_id
        if given is None:
            name = response.get("name")
            given = next((k for k, v in self._open.items() if v == name), None)
        if given is not None:
            self._open.pop(given, None)
        return given
