"""Codex's ``spawn_agent`` takes the sub-agent's task as ``message`` (a string) or as ``items``, a list of
``UserInput`` (``{"type": "text", "text": ...}``, images, skills, mentions): openai/codex
``codex-rs/core/src/tools/handlers/multi_agents/spawn.rs`` ``SpawnAgentArgs {message: Option<String>,
items: Option<Vec<UserInput>>, ...}``, turned into one prompt by ``parse_collab_input`` and
``render_input_preview`` (``codex-rs/core/src/agent/control.rs``: the text items joined by new lines).
A spawn given ``items`` read as one with an empty description. Now its text items are the description."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex
from spec_debug.session.formats.common import Cursor


def _spawn(path: Path, args: dict) -> object:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.128.0"}},
             {"timestamp": "2026-01-02T03:05:01.000Z", "type": "response_item",
              "payload": {"type": "function_call", "name": "spawn_agent", "call_id": "c1",
                          "arguments": json.dumps(args)}}]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    events = list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), ReadStats()))
    (call,) = [e for e in events if e.kind == "tool_call"]
    return call.spawn


def test_a_spawn_given_items_is_described_by_their_text(tmp_path: Path) -> None:
    spawn = _spawn(tmp_path / "rollout.jsonl", {"items": [
        {"type": "text", "text": "Profile the EAGLE3 draft on gpu02", "text_elements": []},
        {"type": "image", "image_url": "data:image/png;base64,AAAA"},
        {"type": "text", "text": "and report the acceptance length."}], "agent_type": "worker"})
    # was ("", "worker"): the task given as items was lost
    assert (spawn.description, spawn.agent_type) == (
        "Profile the EAGLE3 draft on gpu02\nand report the acceptance length.", "worker")


def test_a_message_still_wins(tmp_path: Path) -> None:
    spawn = _spawn(tmp_path / "rollout.jsonl", {"message": "Check the server log", "items": None})
    assert spawn.description == "Check the server log"


def test_items_with_no_text(tmp_path: Path) -> None:
    spawn = _spawn(tmp_path / "rollout.jsonl", {"items": [{"type": "local_image", "path": "/tmp/a.png"}, "x", 3]})
    assert spawn.description == ""
