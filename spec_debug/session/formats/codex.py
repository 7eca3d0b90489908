"""OpenAI Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Each line is ``{timestamp, type, payload}`` (openai/codex ``codex-rs/protocol``
``RolloutLine``). ``response_item`` lines are what the model saw; ``event_msg`` lines
are the UI's copy. We read messages from ``response_item`` and take ``exit_code`` from
``exec_command_end`` when the ``function_call_output`` did not carry it (txcript
``docs/formats/codex.md``: prefer ``exec_command_end`` over the duplicate output).
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor, block_text, shell_command, tool_path
from spec_debug.session.reader import iter_json_records

ROLLOUT_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
_EXIT_TEXT = re.compile(r"(?:Process exited with code|Exit code:?)\s+(-?\d+)")
_SHELL_TOOLS = frozenset({"exec_command", "shell", "local_shell", "container.exec", "bash"})
_UI_DUPLICATES = frozenset({"user_message", "agent_message", "agent_reasoning"})


def looks_like(obj: dict) -> bool:
    return obj.get("type") in ROLLOUT_TYPES and "payload" in obj


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    results_seen: OrderedDict[str, None] = OrderedDict()
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
        payload = obj.get("payload")
        if not isinstance(payload, dict):
            payload = {}
        line_type = obj.get("type")
        ptype = payload.get("type")

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=cursor.file, line=lineno, **kw)

        if line_type == "response_item":
            yield from _response_item(payload, ptype, event, results_seen)
        elif line_type == "event_msg":
            if ptype == "exec_command_end":
                call_id = payload.get("call_id")
                if call_id in results_seen:
                    continue
                _remember(results_seen, call_id)
                output = payload.get("aggregated_output") or "\n".join(
                    s for s in (payload.get("stdout"), payload.get("stderr")) if isinstance(s, str))
                code = payload.get("exit_code") if isinstance(payload.get("exit_code"), int) else None
                yield event("tool_result", "tool", call_id=call_id, text=str(output),
                            exit_code=code, is_error=bool(code))
            elif ptype in _UI_DUPLICATES or ptype == "token_count":
                yield event("other", "system", raw_type=f"event_msg:{ptype}")
            else:
                yield event("system", "system", raw_type=f"event_msg:{ptype}",
                            text=str(payload.get("message", "")) if isinstance(payload.get("message"), str) else "")
        elif line_type == "session_meta":
            yield event("system", "system", raw_type="session_meta",
                        text=f"cwd={payload.get('cwd')} cli_version={payload.get('cli_version')}")
        elif line_type == "turn_context":
            yield event("system", "system", raw_type="turn_context", text=f"model={payload.get('model')}")
        elif line_type == "compacted":
            yield event("compaction", "system", raw_type="compacted", text=str(payload.get("message", "")))
        else:
            stats.unknown_types += 1
            yield event("other", "system", raw_type=str(line_type))


def _response_item(payload: dict, ptype, event, results_seen) -> Iterator[Event]:
    if ptype == "message":
        role = payload.get("role") if isinstance(payload.get("role"), str) else "assistant"
        text = block_text(payload.get("content"))
        if role == "user":
            # Codex injects its environment and AGENTS.md as user messages.
            kind = "system" if text.lstrip().startswith(("<environment_context>", "<user_instructions>")) else "prompt"
        elif role in ("developer", "system"):
            kind = "system"
        else:
            kind = "text"
        yield event(kind, role, text=text)
    elif ptype == "reasoning":
        summary = payload.get("summary")
        text = block_text(summary) if isinstance(summary, list) else ""
        if isinstance(summary, list) and not text:
            text = "\n".join(str(s.get("text", "")) for s in summary if isinstance(s, dict))
        yield event("thinking", "assistant", text=text)
    elif ptype in ("function_call", "custom_tool_call", "local_shell_call"):
        name = payload.get("name") if isinstance(payload.get("name"), str) else ptype
        raw_args = payload.get("arguments", payload.get("input", payload.get("action")))
        command = shell_command(raw_args) if (name in _SHELL_TOOLS or ptype == "local_shell_call") else None
        args = raw_args
        if isinstance(raw_args, str):
            try:
                args = json.loads(raw_args)
            except ValueError:
                args = None
        text = command or (raw_args if isinstance(raw_args, str) else json.dumps(raw_args)[:2000])
        yield event("tool_call", "assistant", tool_name=name, call_id=payload.get("call_id"),
                    command=command, text=text, path=tool_path(args))
    elif ptype in ("function_call_output", "custom_tool_call_output"):
        call_id = payload.get("call_id")
        output = payload.get("output")
        code = None
        if isinstance(output, dict):
            output = output.get("content", output.get("output", ""))
        if isinstance(output, list):
            output = block_text(output)
        output = output if isinstance(output, str) else ""
        if output.startswith("{"):
            # Newer Codex wraps shell output as {"output": ..., "metadata": {"exit_code": N}}.
            try:
                wrapped = json.loads(output)
                if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
                    meta = wrapped.get("metadata") or {}
                    code = meta.get("exit_code") if isinstance(meta, dict) else None
                    output = wrapped["output"]
            except ValueError:
                pass
        if code is None:
            m = _EXIT_TEXT.search(output[:400])
            code = int(m.group(1)) if m else None
        _remember(results_seen, call_id)
        yield event("tool_result", "tool", call_id=call_id, text=output,
                    exit_code=code if isinstance(code, int) else None, is_error=bool(code))
    else:
        yield event("other", "assistant", raw_type=f"response_item:{ptype}")


def _remember(seen: OrderedDict, call_id) -> None:
    if isinstance(call_id, str):
        seen[call_id] = None
        if len(seen) > 4096:
            seen.popitem(last=False)
