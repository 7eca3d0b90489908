"""OpenHands evaluation output: the ``output.jsonl`` its benchmark runners write
(``evaluation/benchmarks/*/run_infer.py``), one line per benchmark instance, ``{instance_id,
instruction, metadata, history, metrics, error, test_result, …}``, ``history`` being the
instance's event stream (All-Hands-AI/OpenHands ``evaluation/utils/shared.py`` ``EvalOutput``;
``evaluation/benchmarks/multi_swe_bench/examples/output.jsonl``). Outputs from before the event
stream hold ``[action, observation]`` pairs instead. The GitHub resolver writes the same,
keyed by the issue it worked on: ``{issue: {owner, repo, number, …}, issue_type, instruction,
history, git_patch, success, …}`` (``openhands/resolver/resolver_output.py``; its older outputs
hold flat events, the arguments beside ``action`` and the result beside ``observation``:
``tests/unit/resolver/mock_output/output.jsonl``).

Instances are unrelated runs, each on its own repository: each is a session of its own, named by
its ``instance_id``, its events read as an OpenHands trajectory's (:mod:`formats.openhands`).
Before, the file was "not a session transcript" (exit 2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import openhands
from spec_debug.session.formats.common import Cursor
from spec_debug.session.reader import iter_json_records

_HEAD = re.compile(rb'^\{\s*(?:"instance_id"\s*:\s*(?:"|\d)|"issue"\s*:\s*\{\s*"owner"\s*:)')
_HISTORY = re.compile(rb'"history"\s*:\s*\[\s*(?:\]|\[|\{\s*")')


def looks_like_head(head: bytes) -> bool:
    """The first line of an output: ``instance_id`` first (the model's first field), and a
    ``history`` of events within the head (the line itself is often longer than the sniff
    window)."""
    return _HEAD.match(head) is not None and _HISTORY.search(head, 0, 1 << 20) is not None


def looks_like(obj: dict) -> bool:
    return (isinstance(obj.get("instance_id"), (str, int)) or _issue_name(obj) is not None) \
        and isinstance(obj.get("history"), list)


def _issue_name(obj: dict) -> str | None:
    """A resolver output's session: ``owner__repo-number``, as SWE-bench names an instance."""
    issue = obj.get("issue")
    if not isinstance(issue, dict) or not isinstance(issue.get("number"), int):
        return None
    return f"{issue.get('owner')}__{issue.get('repo')}-{issue['number']}"


@dataclass(slots=True)
class Instance:
    """One instance of an output, its events already taken out of the file (the file is read
    once for all of them)."""

    id: str
    line: int
    events: list[dict]
    file_stats: ReadStats = field(default_factory=ReadStats)
    """What reading the file skipped (broken lines, lines of no instance): reported with the
    output's last instance."""


def instances(path: Path, fallback_id: str) -> list[Instance]:
    """Every instance of the output at ``path``, in the file's order; one without an id is
    named ``<fallback_id>#<n>`` (n counts from 1)."""
    stats = ReadStats()
    found: list[Instance] = []
    for index, lineno, obj in iter_json_records(path, stats):
        if not looks_like(obj):
            stats.unknown_types += 1
            continue
        given = obj.get("instance_id")
        name = (str(given).strip() if given is not None else _issue_name(obj)) or f"{fallback_id}#{index + 1}"
        found.append(Instance(name, lineno, _events(obj["history"])))
    if found:
        found[-1].file_stats = stats
    return found


def _events(history: list) -> list[dict]:
    """The history's events, a pair ``[action, observation]`` as its two events: pairs carry no
    ``id`` and ``cause``, so the observation is tied to its action here."""
    events: list[dict] = []
    for item in history:
        if isinstance(item, dict):
            events.append(item if "id" in item else _flat(item, events))
        elif isinstance(item, list) and len(item) == 2 and all(isinstance(part, dict) for part in item):
            action, observation = item
            if not isinstance(action.get("id"), int):
                action = {**action, "id": len(events), "source": action.get("source") or "agent"}
                observation = {**observation, "id": len(events) + 1, "cause": len(events),
                               "source": observation.get("source") or "environment"}
            events += (action, observation)
    return events


_EVENT_KEYS = frozenset({"id", "timestamp", "source", "message", "action", "observation", "cause", "content"})


def _flat(event: dict, before: list[dict]) -> dict:
    """An event of an older output, whose arguments (or result) sit beside ``action`` (or
    ``observation``) with no ``id``, ``source`` or ``cause``: as the event stream writes it. The
    first message is the task; an observation answers the action before it."""
    rest = {k: v for k, v in event.items() if k not in _EVENT_KEYS}
    shaped = {k: v for k, v in event.items() if k in _EVENT_KEYS}
    shaped["id"] = len(before)
    if isinstance(event.get("action"), str):
        if "content" in shaped:
            rest["content"] = shaped.pop("content")  # a message's text is an argument
        first_message = event["action"] == "message" and not any("action" in e for e in before)
        shaped.setdefault("source", "user" if first_message else "agent")
        shaped["args"] = rest
    elif isinstance(event.get("observation"), str):
        shaped.setdefault("source", "environment")
        shaped["extras"] = rest
        cause = next((e["id"] for e in reversed(before) if "action" in e), None)
        if cause is not None:
            shaped.setdefault("cause", cause)
    return shaped


def read(instance: Instance, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    stats.lines += 1  # the instance is one line of the file
    stats.add_skipped(instance.file_stats)
    for index, obj in enumerate(instance.events):
        cursor.records = index + 1
        yield from openhands.record_events(obj, cursor, cursor.seq_base + index, cursor.file, instance.line, stats)
