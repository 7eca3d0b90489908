"""SWE-agent trajectories (``<instance_id>.traj``): one JSON document, written with ``indent=2``,
``{"trajectory": [...], "history": [...], "info": {...}}`` (SWE-agent/SWE-agent
``sweagent/agent/agents.py`` ``get_trajectory_data``/``save_trajectory``). Each trajectory step is
``{action, observation, response, thought, execution_time, state, query, extra_info}``: the
command the model chose, run in the environment's shell, and what it printed (no exit status is
kept); ``history`` holds the messages, the first user one the task; ``info.exit_status`` says how
the run ended (``sweagent/types.py``; TRANSCRIPTS.md section 1c).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor, block_text
from spec_debug.session.reader import iter_json_array, iter_json_records

_HEAD = re.compile(rb'^\{\s*(?:"environment"\s*:\s*"[^"\\]*"\s*,\s*)?'
                   rb'"trajectory"\s*:\s*\[\s*(?:\]|\{\s*"(?:action|observation|response|thought|state)"\s*:)')
"""The head of a trajectory: ``trajectory`` first (SWE-agent 1.x, ``environment`` last), or after
the ``"environment": "swe_main"`` that SWE-agent 0.x wrote first (princeton-nlp/SWE-agent
``tests/test_data/trajectories/``, ``trajectories/demonstrations/``: read as Claude Code, such a
file was one event and no command)."""


_HISTORY_HEAD = re.compile(rb'^\{\s*"history"\s*:\s*\[\s*\{\s*"role"\s*:')
_MESSAGE_TYPE = re.compile(rb'"message_type"\s*:\s*"(?:system_prompt|observation|action|thought|demonstration)"')


def looks_like(obj: dict) -> bool:
    steps = obj.get("trajectory")
    if steps is None:
        return _is_history(obj.get("history")) and not ({"messages", "trajectory"} & obj.keys())
    return isinstance(steps, list) and (isinstance(obj.get("history"), list) or isinstance(obj.get("info"), dict)) \
        and all(isinstance(s, dict) and ("action" in s or "observation" in s) for s in steps[:4])


def _is_history(history) -> bool:
    """SWE-agent's messages: ``{role, content, message_type, agent, …}``."""
    return isinstance(history, list) and bool(history) and all(
        isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("message_type"), str)
        for m in history[:4])


def looks_like_head(head: bytes) -> bool:
    """The start of a trajectory file, whose first step may be longer than the sniff window; or
    of a demonstration, ``{"history": [...]}`` alone (SWE-agent/SWE-agent
    ``trajectories/demonstrations/function_calling_simple.traj``, what its ``demonstrations``
    setting points at): read as Claude Code, it was one event."""
    if _HEAD.match(head) is not None:
        return True
    return _HISTORY_HEAD.match(head) is not None and _MESSAGE_TYPE.search(head, 0, 65536) is not None


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    whole = ReadStats()
    for _index, lineno, doc in iter_json_records(path, whole):  # the whole document, one record
        if not looks_like(doc):
            whole.unknown_types += 1
            continue
        yield from _document(doc, cursor, lineno)
    if whole.too_long:
        # Past the longest record read whole: SWE-agent 1.x keeps the messages sent at each step
        # in the step, so a long run's file passes 32 MB, and was read as nothing at all. Its
        # steps are read one at a time instead; the task comes from the first step's messages.
        yield from _streamed_steps(path, cursor, stats)
        return
    stats.add(whole)


def _document(doc: dict, cursor: Cursor, lineno: int) -> Iterator[Event]:
    if not isinstance(doc.get("trajectory"), list):
        yield from _history(doc["history"], cursor, lineno)
        return
    history = doc.get("history") if isinstance(doc.get("history"), list) else []
    info = doc.get("info") if isinstance(doc.get("info"), dict) else {}
    yield from _steps(((lineno, step) for step in doc["trajectory"]), _task(history), info.get("exit_status"),
                      cursor, lineno)


def _streamed_steps(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    steps = ((lineno, step) for _index, lineno, step in iter_json_array(path, stats, key="trajectory"))
    first = next(steps, None)
    if first is None:
        return
    sent = next((first[1].get(key) for key in ("messages", "query") if isinstance(first[1].get(key), list)), [])
    yield from _steps(chain([first], steps), _task(sent), None, cursor, first[0])


def _task(messages: list) -> dict | None:
    """The task: the first user message that is no demonstration."""
    return next((m for m in messages if isinstance(m, dict) and m.get("role") == "user" and not m.get("is_demo")),
                None)


def _steps(steps: Iterable[tuple[int, dict]], task: dict | None, exit_status, cursor: Cursor,
           first_line: int) -> Iterator[Event]:
    seq = cursor.seq_base
    lineno = first_line  # each step's own where it was read one at a time

    def event(kind, role, block=0, **kw) -> Event:
        return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind, block=block,
                     file=cursor.file, line=lineno, **kw)

    if task is not None:
        yield event("prompt", "user", text=block_text(task.get("content")))
        seq += 1
    for lineno, step in steps:  # the events below take the step's line
        if not isinstance(step, dict):
            continue
        thought = step.get("thought") if isinstance(step.get("thought"), str) else ""
        action = step.get("action") if isinstance(step.get("action"), str) else ""
        observation = step.get("observation") if isinstance(step.get("observation"), str) else ""
        block = 0
        if thought.strip():
            yield event("text", "assistant", text=thought.strip())
            block = 1
        command = action.strip()
        if command:
            call_id = f"step-{seq}"
            yield event("tool_call", "assistant", block, tool_name="bash", call_id=call_id, command=command,
                        text=command)
            yield event("tool_result", "tool", block + 1, call_id=call_id, text=observation)
        seq += 1
    if isinstance(exit_status, str):
        yield event("system", "system", raw_type="exit_status", text=f"exit status: {exit_status}")
        seq += 1
    cursor.records = seq - cursor.seq_base


def _history(history: list, cursor: Cursor, lineno: int) -> Iterator[Event]:
    """A trajectory kept as its messages only: each assistant message's ``action`` is the command
    it ran, the observation message after it (``role`` user or tool) its output; ``seq`` is the
    message's index."""
    call_id: str | None = None
    prompted = False
    seq = cursor.seq_base

    def event(kind, role, block=0, **kw) -> Event:
        return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind, block=block,
                     file=cursor.file, line=lineno, **kw)

    for seq, message in enumerate(history, cursor.seq_base):  # read by event()
        if not isinstance(message, dict) or message.get("is_demo") or message.get("role") == "system":
            continue
        text = block_text(message.get("content"))
        action = message.get("action") if isinstance(message.get("action"), str) else ""
        if message.get("role") == "assistant":
            block = 0
            thought = message.get("thought") if isinstance(message.get("thought"), str) else text
            if thought.strip():
                yield event("text", "assistant", text=thought.strip())
                block = 1
            call_id = None
            if action.strip():
                call_id = f"step-{seq}"
                yield event("tool_call", "assistant", block, tool_name="bash", call_id=call_id,
                            command=action.strip(), text=action.strip())
        elif call_id is not None:
            yield event("tool_result", "tool", call_id=call_id, text=text)
            call_id = None
        elif not prompted and message.get("role") == "user":
            yield event("prompt", "user", text=text)
            prompted = True
        else:
            yield event("system", "system", raw_type=str(message.get("message_type")), text=text)
    cursor.records = len(history)
