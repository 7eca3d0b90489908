"""Newer Codex CLIs tell an agent of a post on the agent message board in a user-role message of their
own: ``<agent_message_board_notification>\\nNew post {id} in discussion {id}. Use
collaboration.read_post or collaboration.read_thread to read it.\\n</agent_message_board_notification>``
(openai/codex ``codex-rs/core/src/context/agent_message_board_notification.rs``, ``role() == "user"``;
its markers are among the contextual user fragments Codex's own history reader skips). It read as a
prompt the person sent. Now it is Codex's context, in a rollout and in a proxied request alike."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats import codex

BOARD = ("<agent_message_board_notification>\nNew post 0199c2d4-5e6f-7a8b-9c0d-1e2f3a4b5c6d in discussion "
         "0199c2d4-0000-7a8b-9c0d-1e2f3a4b5c6d. Use collaboration.read_post or collaboration.read_thread to read it."
         "\n</agent_message_board_notification>")


def _user(text: str) -> dict:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _prompts(path: Path, items: list[dict]) -> list[str]:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.160.0"}}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def test_a_board_notification_is_no_prompt(tmp_path: Path) -> None:
    # was ["benchmark the draft", BOARD]
    assert _prompts(tmp_path / "rollout.jsonl", [_user("benchmark the draft"), _user(BOARD)]) == ["benchmark the draft"]


def test_words_typed_with_it_stay_the_prompt(tmp_path: Path) -> None:
    item = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": BOARD},
                                                           {"type": "input_text", "text": "read the new post"}]}
    assert _prompts(tmp_path / "rollout.jsonl", [item]) == ["read the new post"]


def test_joined_on_the_chat_wire_it_is_its_own_part() -> None:
    assert codex.injects([BOARD]) is True
    assert codex.joined_parts(BOARD + "read the new post") == [BOARD, "read the new post"]


def test_words_that_only_mention_it_are_a_prompt(tmp_path: Path) -> None:
    said = "why did the <agent_message_board_notification> say nothing?"
    assert _prompts(tmp_path / "rollout.jsonl", [_user(said)]) == [said]
