"""Codex's requests through a logging proxy: the user messages it writes in itself, its AGENTS.md
instructions and its environment context (openai/codex ``codex-rs/core/src/context/``), open every
session's input. A Codex rollout reads them as Codex's own (``codex._user_message``); read from a
proxy's record of the request they were the person's prompts, the first prompt of every session
the AGENTS.md file."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening69_codex_proxy_conversations import CALLS, _ask, _ENV, _record


def test_codex_context_messages_are_no_prompts(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (session, items, output) in enumerate(CALLS):
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(_record(session, items, output, n)))
    doc = analyze_path(logs).to_json()
    assert sorted((p["session"], p["text"]) for p in doc["prompts"]) == [
        ("logs#019a6e1c-a", "accept length dropped on gpu07"), ("logs#019a6e1c-b", "the draft model OOMs on gpu12")]
    assert sorted((s["id"], s["events"]) for s in doc["sessions"]) == [("logs#019a6e1c-a", 7), ("logs#019a6e1c-b", 7)]


def test_a_prompt_in_the_same_message_as_the_context_is_still_the_prompt(tmp_path: Path) -> None:
    both = {"type": "message", "role": "user",
            "content": [*_ENV["content"], *_ask("restart sglang on gpu07")["content"]]}
    path = tmp_path / "call.json"
    path.write_text(json.dumps(_record("019a6e1c-d", [both], [], 0)))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["restart sglang on gpu07"]
