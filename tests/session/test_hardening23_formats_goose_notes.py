"""Goose's message parts other than text and tool calls (``MessageContent`` in block/goose
``crates/goose/src/conversation/message/content_types.rs``): ``actionRequired`` (a confirmation
asked of the person), ``systemNotification`` (Goose's own notice; ``creditsExhausted`` when the
account ran out), ``redactedThinking``, ``frontendToolRequest``. Before, a user message of such
parts alone was an empty prompt (a phase opened by nothing the person said), the credits notice
no failure, the redacted thinking and the desktop app's tool call dropped."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

REAL = Path(__file__).parent / "data_hardening20_formats" / "goose_session.jsonl"


def _session(path: Path) -> Path:
    meta, *messages = REAL.read_text(encoding="utf-8").splitlines()
    notes = [
        {"role": "assistant", "created": 1747178340, "content": [
            {"type": "redactedThinking", "data": "EqQBCkgIARABGAIiQL..."},
            {"type": "frontendToolRequest", "id": "fe_1", "toolCall": {"status": "success", "value": {
                "name": "open_url", "arguments": {"url": "http://gpu-3:8000/metrics"}}}}]},
        {"role": "user", "created": 1747178341, "content": [
            {"type": "actionRequired", "data": {"actionType": "toolConfirmation", "id": "c2",
                                                "toolName": "developer__shell",
                                                "arguments": {"command": "rm -rf /models/eagle3"}, "prompt": None}}]},
        {"role": "assistant", "created": 1747178342, "content": [
            {"type": "systemNotification", "notificationType": "creditsExhausted",
             "msg": "Your credits have run out. Add credits to continue."}]},
    ]
    path.write_text("\n".join([meta, *messages, *(json.dumps(m) for m in notes)]) + "\n", encoding="utf-8")
    return path


def test_goose_s_notes_are_no_prompt_and_its_credits_notice_is_a_failure(tmp_path):
    doc = analyze_path(_session(tmp_path / "s.jsonl")).to_json()
    assert [p["text"] for p in doc["prompts"]] == [
        "I'm seeing a memory leak in my worker process. Can you help me investigate?"]
    assert doc["sessions"][0]["unknown_types"] == 0
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("agent_error", "Your credits have run out. Add credits to continue.")]
    assert [c["command"] for c in doc["commands"]] == ["ps aux | grep worker"]


def test_the_summary_goose_s_compaction_writes_for_the_model_is_no_prompt(tmp_path):
    """Compaction keeps the history for the person (``agentVisible: false``) and adds a user
    message for the model alone (``MessageMetadata::agent_only``, block/goose
    ``crates/goose/src/context_mgmt``): read as a prompt, it opened a phase with words nobody typed.
    The same in the store, where the metadata is its own column (``metadata_json``)."""
    from tests.session.test_hardening23_formats_goose_store import _add, _store

    meta, *messages = REAL.read_text(encoding="utf-8").splitlines()
    summary = {"role": "user", "created": 1747178400, "metadata": {"userVisible": False, "agentVisible": True},
               "content": [{"type": "text", "text": "Summary of the conversation so far: the worker leaks."}]}
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join([meta, *messages, json.dumps(summary)]) + "\n", encoding="utf-8")
    first = "I'm seeing a memory leak in my worker process. Can you help me investigate?"
    assert [p["text"] for p in analyze_path(path).to_json()["prompts"]] == [first]

    db = _store(tmp_path / "sessions")
    import sqlite3

    conn = sqlite3.connect(db)
    _add(conn, "20250513_1", "user", summary["content"], 1747178400, "2025-05-13 23:20:00")
    conn.execute("UPDATE messages SET metadata_json = ? WHERE id = (SELECT MAX(id) FROM messages)",
                 (json.dumps(summary["metadata"]),))
    conn.commit()
    conn.close()
    prompts = [p["text"] for p in analyze_path(db).to_json()["prompts"]]
    assert prompts == [first, "why is the draft never accepted?"]
