"""A reasoning model (Qwen3, DeepSeek-R1) served by SGLang or vLLM without ``--reasoning-parser``
returns its thinking inside ``content`` (``<think>…</think>`` first, then the answer), and an agent
loop run against it saves the reply as it came: Hermes Agent's store keeps it in ``content`` (its
``reasoning`` column empty), an OpenAI chat log in the message's ``content``.

Before: the thinking was the reply's text, tags and all: the model's private guesses ("I suspect
...") were its stated hypotheses, which the same run against a server that parses reasoning (the
thinking in ``reasoning_content``) does not give. Now a reply that opens with a closed ``<think>``
block has that block as its thinking and the rest as its text; a block never closed (a reply cut
mid-thought) is kept as it came."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

from tests.session.test_hardening76_hermes_subagent_store import SCHEMA, START

GUESS = "I suspect the draft's d2t map does not match the target tokenizer."
ANSWER = "Acceptance length is 1.0: the draft is never accepted."


def _events(path: Path) -> list[tuple[str, str]]:
    [source] = discover(path)
    return [(e.kind, e.text) for e in iter_events(source, ReadStats(), AgentTree())]


def test_a_hermes_reply_from_an_unparsed_reasoning_model(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO sessions VALUES ('s1', 'cli', 'qwen3-32b', NULL, ?, NULL, NULL)", (START,))
    conn.executemany("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', ?, ?, ?)", [
        ("user", "why is the EAGLE-3 acceptance so low?", START + 1),
        ("assistant", f"<think>\n{GUESS}\n</think>\n\n{ANSWER}", START + 2)])
    conn.commit()
    conn.close()
    assert _events(path) == [("prompt", "why is the EAGLE-3 acceptance so low?"), ("thinking", GUESS),
                             ("text", ANSWER)]  # was one text, "<think>\n" + GUESS + ...
    assert analyze_path(path).to_json()["hypotheses"] == []  # was GUESS


def test_an_openai_chat_log_and_a_reply_cut_mid_thought(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": [
        {"role": "user", "content": "why is the EAGLE-3 acceptance so low?"},
        {"role": "assistant", "content": f"<think>{GUESS}</think>{ANSWER}"},
        {"role": "user", "content": "and now?"},
        {"role": "assistant", "content": "<think>\nLet me check the config"}]}))
    assert _events(path)[1:] == [("thinking", GUESS), ("text", ANSWER), ("prompt", "and now?"),
                                 ("text", "<think>\nLet me check the config")]
