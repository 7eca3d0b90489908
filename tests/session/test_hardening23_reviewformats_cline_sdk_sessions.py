"""The Cline CLI 3 (built on Cline's SDK) keeps a session a folder, ``~/.cline/data/sessions/<id>/``
(cline/cline ``sdk/packages/core/src/session/session-artifacts.ts``): ``<id>.messages.json``, the
talk as ``{version: 1, sessionId, agent, messages: [{role, content: [Anthropic blocks], ts}]}``
(``sdk/packages/core/docs/messages-contract-v1.md``, whose golden fixture this session follows),
a sub-agent's ``<agentId>.messages.json`` beside it, and the ``<id>.log`` transcript, the
``<id>.json`` manifest and ``<id>.hooks.jsonl`` telemetry. Before, a home scan passed
``~/.cline/data/sessions`` by (no session), and a scan of the folder read the log as a text log
besides (each command twice, the manifest and telemetry as sessions of unknown records)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"
SESSION = "1777073160794_k3x9a"


def _session(home: Path) -> Path:
    folder = home / ".cline" / "data" / "sessions" / SESSION
    folder.mkdir(parents=True)
    messages = [
        {"id": "msg_user_1", "role": "user", "content": [{"type": "text", "text": "start vllm on gpu-3"}]},
        {"id": "msg_assistant_1", "role": "assistant", "ts": 1777073170123,
         "modelInfo": {"id": "claude-sonnet-4-6", "provider": "anthropic"},
         "content": [{"type": "thinking", "thinking": "Launch it and read the log."},
                     {"type": "tool_use", "id": "tool-call-1", "name": "run_commands",
                      "input": {"commands": [LAUNCH]}}]},
        {"id": "msg_user_2", "role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "tool-call-1", "is_error": True,
             "content": "ValueError: draft vocab 32000 != target 151936"}]},
        {"id": "msg_assistant_2", "role": "assistant", "ts": 1777073175456,
         "modelInfo": {"id": "claude-sonnet-4-6", "provider": "anthropic"},
         "metrics": {"inputTokens": 21, "outputTokens": 8, "cacheReadTokens": 3, "cacheWriteTokens": 1, "cost": 0.13},
         "content": [{"type": "text", "text": "The draft's vocabulary does not match the target's."}]},
    ]
    doc = {"version": 1, "updated_at": "2026-04-24T23:26:15.456Z", "agent": "lead", "sessionId": SESSION,
           "messages": messages}
    (folder / f"{SESSION}.messages.json").write_text(json.dumps(doc, indent="\t"), encoding="utf-8")
    (folder / f"{SESSION}.log").write_text(f"[user] start vllm on gpu-3\n$ {LAUNCH}\nValueError: draft vocab\n",
                                           encoding="utf-8")
    (folder / f"{SESSION}.json").write_text(json.dumps({"version": 1, "session_id": SESSION, "status": "completed",
                                                        "source": "cli", "prompt": "start vllm on gpu-3"}))
    (folder / f"{SESSION}.hooks.jsonl").write_text(json.dumps({"hookName": "tool_call", "toolName": "run_commands",
                                                               "input": {"commands": [LAUNCH]}}) + "\n")
    (home / ".cline" / "data" / "settings").mkdir(parents=True)
    (home / ".cline" / "data" / "settings" / "providers.json").write_text("{}")
    return folder


def test_a_home_scan_finds_the_cline_cli_3_session_once(tmp_path):
    folder = _session(tmp_path / "home")
    for named in (tmp_path / "home", folder.parent, folder):
        found = discover(named)
        assert [(s.id, s.format, s.path.name) for s in found] == [
            (SESSION, "openai", f"{SESSION}.messages.json")], named


def test_its_command_is_read_once_with_its_failure(tmp_path):
    doc = analyze_path(_session(tmp_path / "home")).to_json()
    assert [s["id"] for s in doc["sessions"]] == [SESSION]
    assert [p["text"] for p in doc["prompts"]] == ["start vllm on gpu-3"]
    assert [(c["command"], c["is_error"], Path(c["file"]).name) for c in doc["commands"]] == [
        (LAUNCH, True, f"{SESSION}.messages.json")]


def test_a_sub_agent_s_messages_file_is_named_after_its_session(tmp_path):
    """``<agentId>.messages.json`` beside the session's own (``subagentArtifactPaths``): named
    ``agent-1.messages`` in every session, it said neither whose it was nor that it was one."""
    folder = _session(tmp_path / "home")
    doc = json.loads((folder / f"{SESSION}.messages.json").read_text(encoding="utf-8"))
    (folder / "agent-1.messages.json").write_text(json.dumps({**doc, "agent": "subagent"}), encoding="utf-8")
    # Read with its session it is an agent of it (test_hardening24_formats_cline_sub_agents); named
    # alone, a session named after the session it belongs to.
    assert [(s.id, [c.id for c in s.children]) for s in discover(tmp_path / "home")] == [
        (SESSION, [f"{SESSION}-agent-1"])]
    assert [s.id for s in discover(folder / "agent-1.messages.json")] == [f"{SESSION}-agent-1"]


def test_another_file_in_a_folder_named_like_a_session_is_still_read(tmp_path):
    """The rule takes Cline's own files out of the scan, not the rest of the folder."""
    folder = _session(tmp_path / "home")
    (folder / "notes").mkdir()
    (folder / "notes" / "bench.log").write_text(f"$ {LAUNCH}\nINFO accept length 1.02\n", encoding="utf-8")
    assert [s.path.name for s in discover(folder)] == [f"{SESSION}.messages.json", "bench.log"]
