"""What a Stop or SubagentStop hook that blocked the stop told the model: a user line
``"Stop hook feedback:\\n[cmd]: reason"`` (``"SubagentStop hook feedback: …"``). The CLI's own
transcript marks it ``isMeta``; ``claude -p --output-format stream-json`` writes it as
``{"type": "user", "message": {"role": "user", "content": "Stop hook feedback: …"},
"parent_tool_use_id": null, "session_id": …}`` without. Before: in stream-json it was the person's
prompt (a new phase of the postmortem, a prompt in ``prompts``); now it is the CLI's note, as the
isMeta line already was (simonw/claude-code-transcripts leaves these lines out of its prompts)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

SESSION = "3f1e2d4c-aaaa-4bbb-8ccc-ddddeeeeffff"
LAUNCH = "python -m sglang.launch_server --speculative-algorithm EAGLE3 --speculative-draft-model-path /m/draft"
PROMPT = "launch the eagle3 server and check accept length"
STOP = "Stop hook feedback:\n[bash .claude/hooks/verify.sh]: the server is not up; fix the launch before stopping"
SUBAGENT_STOP = "SubagentStop hook feedback:\n[verifier]: summary names files that do not exist"


def _line(kind: str, uuid: str, message: dict) -> dict:
    return {"type": kind, "message": message, "parent_tool_use_id": None, "session_id": SESSION, "uuid": uuid}


def _assistant(uuid: str, content: list) -> dict:
    return _line("assistant", uuid, {"id": f"msg_{uuid}", "type": "message", "role": "assistant",
                                     "model": "claude-opus-4-5", "content": content, "stop_reason": None})


LINES = [
    {"type": "system", "subtype": "init", "cwd": "/work/spec", "session_id": SESSION, "tools": ["Bash"],
     "model": "claude-opus-4-5", "permissionMode": "bypassPermissions", "apiKeySource": "none",
     "claude_code_version": "2.1.118", "uuid": "i1"},
    _line("user", "u1", {"role": "user", "content": PROMPT}),
    _assistant("a1", [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": LAUNCH}}]),
    _line("user", "u2", {"role": "user", "content": [{"tool_use_id": "toolu_1", "type": "tool_result", "is_error": True,
                                                      "content": "RuntimeError: draft hidden size 4096 != 5120"}]}),
    _assistant("a2", [{"type": "text", "text": "The draft does not fit this target."}]),
    _line("user", "h1", {"role": "user", "content": STOP}),
    _assistant("a3", [{"type": "text", "text": "The launch cannot work with this draft."}]),
    _line("user", "h2", {"role": "user", "content": [{"type": "text", "text": SUBAGENT_STOP}]}),
    {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 9000, "num_turns": 3,
     "result": "The launch cannot work with this draft.", "session_id": SESSION, "total_cost_usd": 0.2, "uuid": "r1"},
]


def test_a_stop_hooks_feedback_in_stream_json_is_no_prompt_of_the_persons(tmp_path):
    path = tmp_path / "stream.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in LINES) + "\n", encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert doc["sessions"][0]["format"] == "claude-code"
    assert [p["text"] for p in doc["prompts"]] == [PROMPT]
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [(LAUNCH, True)]
    # no phase of the postmortem begins at (or is titled by) a hook's nudge
    assert not any("hook feedback" in s["title"] for s in doc["segments"])
