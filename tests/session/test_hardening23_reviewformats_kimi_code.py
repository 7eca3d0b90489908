"""Kimi Code's wire log as Kimi Code writes it (MoonshotAI/kimi-code): a prompt's ``origin`` is an
object, ``{kind: "user"}`` (``PromptOrigin`` in ``packages/agent-core-v2/src/agent/contextMemory/
types.ts``; ``wire-manifest.d.ts`` sketches the field by its kinds alone). Compared as a string, no
prompt of a real log was the person's."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"


def _text(words: str) -> list[dict]:
    return [{"type": "text", "text": words}]


def _loop(event: dict, time: int) -> dict:
    return {"type": "context.append_loop_event", "agentId": "main", "event": event, "time": time}


def _write(folder: Path, rows: list[dict]) -> Path:
    folder.mkdir(parents=True)
    path = folder / "wire.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _main_rows() -> list[dict]:
    skill = {"kind": "skill_activation", "activationId": "a1", "skillName": "review", "trigger": "model-tool"}
    return [
        {"type": "metadata", "protocol_version": "1.5", "created_at": 1789559571387},
        {"type": "turn.prompt", "agentId": "main", "input": _text("why is the draft never accepted on gpu-3?"),
         "origin": {"kind": "user"}, "promptId": "p1", "turnId": 0, "time": 1789559572000},
        {"type": "context.append_message", "agentId": "main", "time": 1789559572001,
         "message": {"role": "user", "content": _text("why is the draft never accepted on gpu-3?"),
                     "toolCalls": [], "origin": {"kind": "user"}}},
        _loop({"type": "tool.call", "toolCallId": "tool_1", "name": "Bash", "args": {"command": LAUNCH}},
              1789559572300),
        {"type": "turn.steer", "agentId": "main", "input": _text("use the 8B target, not the 70B"),
         "origin": {"kind": "user"}, "turnId": 0, "time": 1789559573000},
        _loop({"type": "tool.result", "toolCallId": "tool_1", "result": {
            "output": "ValueError: draft vocab 32000 != target 151936\nCommand failed with exit code: 1.",
            "isError": True}}, 1789559575000),
        {"type": "turn.prompt", "agentId": "main", "input": _text("Review the change for regressions."),
         "origin": skill, "turnId": 1, "time": 1789559576000},
    ]


def test_a_prompt_whose_origin_is_kind_user_is_the_person_s(tmp_path):
    wire = _write(tmp_path / "session_c46bdf25" / "agents" / "main", _main_rows())
    doc = analyze_path(wire).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["why is the draft never accepted on gpu-3?",
                                                   "use the 8B target, not the 70B"]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [(LAUNCH, 1)]


PROBE = "ssh gpu-3 'curl -s localhost:8000/metrics | grep spec_decode'"


def _with_sub_agent(home: Path) -> Path:
    """A session whose main agent starts a sub-agent by its Agent call: the parent's log holds the
    ``subagent.spawned`` and ``subagent.failed`` records (``src/session/subagent/mirrorAgentRun.ts``),
    the sub-agent's own log is ``agents/<subagentId>/wire.jsonl`` (docs/en/guides/sessions.md)."""
    session = home / ".kimi-code" / "sessions" / "wd_spec_0123456789ab" / "session_c46bdf25"
    rows = _main_rows()[:4] + [
        _loop({"type": "tool.call", "toolCallId": "tool_2", "name": "Agent",
               "args": {"description": "probe the metrics", "prompt": "read the acceptance counters"}},
              1789559574000),
        {"type": "subagent.spawned", "subagentId": "agent-0", "subagentName": "coder", "parentToolCallId": "tool_2",
         "parentAgentId": "main", "description": "probe the metrics", "runInBackground": False,
         "time": 1789559574001},
        {"type": "subagent.failed", "subagentId": "agent-0", "error": "the probe failed", "time": 1789559579000},
    ]
    main = _write(session / "agents" / "main", rows)
    sub = [
        {"type": "metadata", "protocol_version": "1.5", "created_at": 1789559574002},
        {"type": "turn.prompt", "agentId": "agent-0", "input": _text("read the acceptance counters"),
         "origin": {"kind": "user"}, "time": 1789559574003},
        {"type": "context.append_loop_event", "agentId": "agent-0", "time": 1789559574100,
         "event": {"type": "tool.call", "toolCallId": "tool_9", "name": "Bash", "args": {"command": PROBE}}},
        {"type": "context.append_loop_event", "agentId": "agent-0", "time": 1789559578000,
         "event": {"type": "tool.result", "toolCallId": "tool_9", "result": {
             "output": "curl: (7) Failed to connect\nCommand failed with exit code: 7.", "isError": True}}},
    ]
    _write(session / "agents" / "agent-0", sub)
    (session / "state.json").write_text(json.dumps({"title": "eagle3", "agents": {
        "main": {"type": "main", "parentAgentId": None}, "agent-0": {"type": "sub", "parentAgentId": "main"}}}))
    return main


def test_a_sub_agent_s_log_is_an_agent_of_its_session_started_by_the_parent_s_call(tmp_path):
    main = _with_sub_agent(tmp_path / "home")
    for named in (tmp_path / "home", main.parents[2], main):
        doc = analyze_path(named).to_json()
        assert [s["id"] for s in doc["sessions"]] == ["session_c46bdf25"], named
        agents = {a["id"]: a for a in doc["agents"]}
        assert (agents["agent-0"]["parent"], agents["agent-0"]["spawned_by"], agents["agent-0"]["type"],
                agents["agent-0"]["status"]) == ("main", "tool_2", "coder", "failed")
        assert [(c["agent"], c["command"], c["exit_code"]) for c in doc["commands"]] == [
            ("main", LAUNCH, None), ("agent-0", PROBE, 7)]


def test_a_record_with_a_message_string_is_still_kimi_code_s(tmp_path):
    """``turn.step.interrupted{..., reason, message?: string}`` (wire-manifest.d.ts): its ``message``
    is a string, not Kimi CLI's envelope; read as Kimi CLI's record, it was a record of no known type."""
    rows = _main_rows()[:4] + [
        {"type": "turn.step.interrupted", "agentId": "main", "turnId": 0, "step": 1, "reason": "aborted",
         "message": "the user pressed Esc", "time": 1789559572400}]
    wire = _write(tmp_path / "session_c46bdf25" / "agents" / "main", rows)
    [session] = analyze_path(wire).to_json()["sessions"]
    assert session["unknown_types"] == 0
