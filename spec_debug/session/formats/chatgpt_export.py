"""ChatGPT's data export: ``conversations.json``, one JSON array of every conversation of the
account, each ``{id, conversation_id, title, create_time, mapping, current_node, …}`` (the schema
as mitkury/chatgpt-export-parser ``docs/chatgpt-data-export-format.md`` documents it; the
messages of one are read by :func:`openai_chat.chatgpt_messages`).

An export holds hundreds of unrelated conversations, months apart: read as one session, their
prompts, errors and metrics were one timeline and one postmortem. Each conversation is a
session of its own, named by its id, with its title.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import openai_chat
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import iter_json_array


@dataclass(slots=True)
class Conversation:
    """One conversation of an export, its messages already taken out of the file (the file is
    read once for all of them, not once each)."""

    id: str
    title: str
    line: int
    """Line of the file where the conversation begins."""
    messages: list[dict]
    started: str | None = None
    """The conversation's ``create_time``, for messages without a time of their own."""
    file_stats: ReadStats = field(default_factory=ReadStats)
    """What reading the file skipped (a cut last element, elements that are no conversation):
    reported with the export's last conversation."""


def is_export(path: Path) -> bool:
    """The file is a JSON array whose first element is a ChatGPT conversation."""
    elements = iter_json_array(path, ReadStats())
    try:
        first = next(elements, None)
    finally:
        elements.close()
    return first is not None and openai_chat.is_chatgpt_conversation(first[2])


def conversations(path: Path, fallback_id: str) -> list[Conversation]:
    """Every conversation of the export at ``path``, in the file's order; one without an id is
    named ``<fallback_id>#<n>`` (n counts from 1)."""
    stats = ReadStats()
    found: list[Conversation] = []
    for index, line, obj in iter_json_array(path, stats):
        if not openai_chat.is_chatgpt_conversation(obj):
            stats.unknown_types += 1
            continue
        conv_id = next((obj[key] for key in ("conversation_id", "id")
                        if isinstance(obj.get(key), str) and obj[key].strip()), f"{fallback_id}#{index + 1}")
        title = obj.get("title") if isinstance(obj.get("title"), str) else ""
        found.append(Conversation(conv_id, title, line, openai_chat.chatgpt_messages(obj),
                                  stamp(obj.get("create_time")) or None))
    if found:
        found[-1].file_stats = stats
    return found


def read(conversation: Conversation, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    stats.lines += 1  # the conversation is one element of the file's array
    stats.add_skipped(conversation.file_stats)
    yield from openai_chat.read_conversation(conversation.messages, conversation.line, cursor, stats,
                                             conversation.started)
