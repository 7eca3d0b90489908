"""Grok CLI sessions, ``~/.grok/sessions/<percent-encoded workdir>/<sessionId>/chat_history.jsonl``
beside ``summary.json`` and the much larger ``updates.jsonl`` (the record types as listed by
jazzyalex/agent-sessions ``AgentSessions/Services/GrokSessionParser.swift`` and
``GrokSessionDiscovery.swift``, checked there against real CLI 1.0.0 sessions). Before: read as a
Codex rollout (its ``reasoning`` line is a Codex item), every line but that one of an unknown
type, and no command at all."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "0198b2c4-0000-7000-8000-00000000f001"
LAUNCH = ("vllm serve Qwen/Qwen3-8B --speculative-config "
          "'{\"method\": \"eagle3\", \"model\": \"AngelSlim/Qwen3-8B_eagle3\", \"num_speculative_tokens\": 4}'")


def _session(root: Path) -> Path:
    folder = root / "sessions" / "%2Fwork%2Fspec" / SESSION
    folder.mkdir(parents=True)
    rows = [
        {"type": "system", "content": "You are Grok, a coding agent."},
        {"type": "user", "content": [{"type": "text", "text": "why does the eagle3 draft never get accepted?"}],
         "prompt_index": 0},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Start the server to see."}],
         "encrypted_content": "gAAAA"},
        {"type": "assistant", "content": "Starting the server.", "model_id": "grok-code-fast-1",
         "reasoning_effort": "high",
         "tool_calls": [{"id": "call_1", "name": "run_terminal_cmd", "arguments": json.dumps({"command": LAUNCH})}]},
        {"type": "tool_result", "content": "ValueError: draft vocab 32000 != target 151936\n",
         "tool_call_id": "call_1"},
        {"type": "user", "content": [{"type": "text", "text": "[Request interrupted by user]"}],
         "synthetic_reason": "interrupt"},
        {"type": "backend_tool_call", "kind": {"type": "web_search", "query": "eagle3 vocab mismatch"}},
        {"type": "assistant", "content": "The draft's vocabulary does not match the target's.",
         "model_id": "grok-code-fast-1"},
    ]
    (folder / "chat_history.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (folder / "summary.json").write_text(json.dumps({
        "info": {"id": SESSION, "cwd": "/work/spec"}, "created_at": "2026-10-02T08:00:00.000Z",
        "updated_at": "2026-10-02T08:05:00.000Z", "current_model_id": "grok-code-fast-1"}), encoding="utf-8")
    # the same talk as streamed updates: no second session
    (folder / "updates.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder / "chat_history.jsonl"


def test_a_grok_session_gives_its_commands_and_prompts(tmp_path):
    doc = analyze_path(_session(tmp_path)).to_json()
    (session,) = doc["sessions"]
    assert (session["id"], session["format"], session["unknown_types"]) == (SESSION, "grok", 0)
    assert session["first_timestamp"] == "2026-10-02T08:00:00.000Z"
    # how its shell tool reports an exit status is not known from a real session: none is made up
    assert [(c["command"], c["result_seq"]) for c in doc["commands"]] == [(LAUNCH, 4)]
    # the interrupt notice is the CLI's, not a prompt
    assert [p["text"] for p in doc["prompts"]] == ["why does the eagle3 draft never get accepted?"]


def test_a_grok_home_gives_each_session_once(tmp_path):
    grok = tmp_path / ".grok"
    _session(grok)
    (grok / "memory").mkdir()
    (grok / "memory" / "notes.md").write_text("$ ssh gpu01 nvidia-smi\nRuntimeError: boom\n", encoding="utf-8")
    for path in (tmp_path, grok, grok / "sessions"):
        doc = analyze_path(path).to_json()
        assert [(s["id"], s["format"]) for s in doc["sessions"]] == [(SESSION, "grok")], path
        assert len(doc["commands"]) == 1
