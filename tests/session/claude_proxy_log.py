"""Logs of Claude Code's Messages API calls as logging proxies write them, for the tests of how its
side calls, forks and notes are read (test_hardening71_claude_proxy_*)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

CLAUDE = {"type": "text", "text": "You are Claude Code, Anthropic's official CLI for Claude."}
MAIN = [CLAUDE, {"type": "text", "text": "You are an interactive CLI tool that helps users with software "
                                         "engineering tasks." + " Be careful." * 500}]
"""The conversation's system prompt: Claude Code's identity, then its long instructions."""


def record(n: int, system, messages: list, answer: dict, model: str, max_tokens: int) -> dict:
    """One call as llm-debug writes it (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``)."""
    body = {"model": model, "max_tokens": max_tokens, "messages": messages, "stream": True}
    if system is not None:
        body["system"] = system
    return {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages?beta=true",
                        "headers": {"anthropic-version": "2023-06-01"}, "body": body},
            "response": {"status_code": 200, "headers": {}, "error": None, "body": {
                "id": f"msg_{n:02d}", "type": "message", "role": "assistant", "model": model,
                "content": answer["content"], "stop_reason": "end_turn"}}}


def write_records(tmp_path: Path, calls: list) -> Path:
    """A folder of llm-debug records, one per call ``(system, messages, answer, model, max_tokens)``."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, call in enumerate(calls):
        (logs / f"2025-12-05_10-21-{n:02d}-000000.json").write_text(json.dumps(record(n, *call)))
    return logs


def write_requests(path: Path, calls: list, model: str, answers: bool = False) -> Path:
    """A JSONL log of the requests ``(messages, answer)`` on the conversation's system prompt, each
    answer saved whole on the line after its request when ``answers``."""
    lines = []
    for n, (messages, answer) in enumerate(calls):
        lines.append(json.dumps({"model": model, "max_tokens": 32000, "system": MAIN, "messages": messages}))
        if answers:
            lines.append(json.dumps({"id": f"msg_{n:02d}", "type": "message", "role": "assistant", "model": model,
                                     "content": answer["content"], "stop_reason": "end_turn"}))
    path.write_text("\n".join(lines) + "\n")
    return path


def said(path: Path, notes: bool = False) -> list[tuple[str, str]]:
    """The events read from ``path`` as ``(kind, text)``; the system notes too when ``notes``."""
    (source,) = discover(path)
    return [(e.kind, e.text) for e in iter_events(source, ReadStats(), AgentTree()) if notes or e.kind != "system"]
