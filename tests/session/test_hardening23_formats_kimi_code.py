"""Kimi Code's wire log (MoonshotAI/kimi-code ``packages/agent-core-v2/docs/wire-manifest.d.ts``,
protocol 1.5): the metadata line Kimi CLI writes, then ``{"type", ...payload, "time"}`` records:
``turn.prompt``, ``context.append_message``, ``context.append_loop_event`` (``tool.call``,
``tool.result``, ``content.part``; ``src/agent/contextMemory/loopEventFold.ts``), ``turn.ended``. The
Bash tool ends a failure ``Command failed with exit code: N.`` (``src/tool/result-builder.ts``).
Before: read as Kimi CLI's wire log, every record an unknown type, no prompt, no command, and the
session named ``main`` after its agent's folder; a home scan passed ``~/.kimi-code`` by."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"


def _loop(event: dict, time: int) -> dict:
    return {"type": "context.append_loop_event", "agentId": "main", "event": event, "time": time}


def _session(home: Path) -> Path:
    wire = home / ".kimi-code" / "sessions" / "wd_spec_0123456789ab" / "session_c46bdf25" / "agents" / "main"
    wire.mkdir(parents=True)
    question = [{"type": "text", "text": "why is the draft never accepted on gpu-3?"}]
    rows = [
        {"type": "metadata", "protocol_version": "1.5", "created_at": 1789559571387},
        {"type": "config.update", "agentId": "main", "modelAlias": "kimi-code/k3", "time": 1789559571400},
        {"type": "turn.prompt", "agentId": "main", "input": question, "origin": "user", "time": 1789559572000},
        {"type": "context.append_message", "agentId": "main", "time": 1789559572001,
         "message": {"role": "user", "content": question, "toolCalls": [], "origin": "user"}},
        _loop({"type": "step.begin", "uuid": "s1", "turnId": "0", "step": 1}, 1789559572100),
        _loop({"type": "content.part", "stepUuid": "s1", "part": {"type": "think", "think": "Start it, read it."}},
              1789559572200),
        _loop({"type": "tool.call", "stepUuid": "s1", "toolCallId": "tool_1", "name": "Bash",
               "args": {"command": LAUNCH, "description": "start the server"}}, 1789559572300),
        _loop({"type": "tool.result", "toolCallId": "tool_1", "result": {
            "output": "ValueError: draft vocab 32000 != target 151936\nCommand failed with exit code: 1.",
            "isError": True}}, 1789559575000),
        _loop({"type": "step.end", "uuid": "s1", "finishReason": "tool_calls"}, 1789559575100),
        {"type": "turn.ended", "agentId": "main", "turnId": 0, "reason": "failed", "time": 1789559576000,
         "error": {"code": "provider.rate_limited", "message": "429 Too Many Requests", "retryable": True}},
    ]
    path = wire / "wire.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (home / ".kimi-code" / "config.toml").write_text('default_model = "k3"\n', encoding="utf-8")
    return path


def test_a_kimi_code_wire_log_gives_its_prompt_command_exit_code_and_failure(tmp_path):
    doc = analyze_path(_session(tmp_path / "home")).to_json()
    [session] = doc["sessions"]
    assert (session["id"], session["unknown_types"]) == ("session_c46bdf25", 0)
    assert [p["text"] for p in doc["prompts"]] == ["why is the draft never accepted on gpu-3?"]
    assert [(c["command"], c["host"], c["exit_code"], c["is_error"], c["timestamp"]) for c in doc["commands"]] == [
        (LAUNCH, "gpu-3", 1, True, "2026-09-16T11:52:52.300Z")]
    assert ("agent_error", "429 Too Many Requests") in [(e["kind"], e["message"]) for e in doc["errors"]]


def test_a_home_scan_finds_kimi_code_s_sessions_and_not_their_plans(tmp_path):
    """An agent's plans (``agents/<agent>/plans/<id>.md``, ``src/features/plan/planService.ts``) are
    Markdown the model wrote, no session: read as text logs, their example commands were commands."""
    home = tmp_path / "home"
    wire = _session(home)
    plans = wire.parent / "plans"
    plans.mkdir()
    (plans / "plan-1.md").write_text("# Plan\n\n$ ssh gpu-3 'pkill -f vllm'\n", encoding="utf-8")
    assert [s.id for s in discover(home)] == ["session_c46bdf25"]
    assert [s.id for s in discover(wire.parents[2])] == ["session_c46bdf25"]


def test_a_wire_log_copied_without_its_metadata_line_is_still_kimi_code_s(tmp_path):
    """``tail -n +2`` of a long log, or a copy cut at its head: the records alone tell the format
    (before, no record looked like any format's and the file was refused)."""
    lines = _session(tmp_path / "home").read_text(encoding="utf-8").splitlines()[1:]
    path = tmp_path / "tail.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert (doc["sessions"][0]["format"], doc["sessions"][0]["unknown_types"]) == ("kimi", 0)
    assert [c["exit_code"] for c in doc["commands"]] == [1]
