"""Context a hook or an app adds to a turn is handed to the model in a user-role message of Codex's own,
one part per key: ``<external_{key}>{value}</external_{key}>`` (openai/codex ``codex-rs/core/src/context/
fragments.rs`` ``AdditionalContextFragment``: ``role() == "user"``, markers ``<external_`` ... ``>``; the
core suite's additional-context test sends ``<external_browser_info>tab one</external_browser_info>``
then the typed ``inspect the active tab``). It read as a prompt the person sent (the typed words beside it
joined to it). Now it is Codex's context; only a part that closes its own tag is one."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats import codex

CONTEXT = "<external_browser_info>tab one: sglang dashboard, accept length 2.1</external_browser_info>"


def _prompts(path: Path, parts: list[str]) -> list[str]:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.160.0"}},
             {"timestamp": "2026-01-02T03:05:01.000Z", "type": "response_item",
              "payload": {"type": "message", "role": "user",
                          "content": [{"type": "input_text", "text": t} for t in parts]}}]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def test_external_context_is_no_prompt(tmp_path: Path) -> None:
    # was [CONTEXT + "\ninspect the active tab"]
    assert _prompts(tmp_path / "rollout.jsonl", [CONTEXT, "inspect the active tab"]) == ["inspect the active tab"]


def test_external_context_alone_is_no_prompt(tmp_path: Path) -> None:
    assert _prompts(tmp_path / "rollout.jsonl", ["\n" + CONTEXT + "\n"]) == []


def test_a_tag_that_does_not_close_itself_is_words(tmp_path: Path) -> None:
    said = "<external_browser_info> is empty, why?"
    assert _prompts(tmp_path / "rollout.jsonl", [said]) == [said]
    other = "<external_a>x</external_b>"
    assert _prompts(tmp_path / "rollout.jsonl", [other]) == [other]


def test_on_the_chat_wire() -> None:
    assert codex.injects([CONTEXT]) is True
    assert codex.injects(["<external_browser_info> is empty"]) is False
    assert codex.joined_parts(CONTEXT + "inspect the active tab") == [CONTEXT, "inspect the active tab"]
