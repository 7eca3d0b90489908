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
