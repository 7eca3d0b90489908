"""The TypeScript Codex CLI (2025) answers a command it never ran with ``{"output": "aborted",
"metadata": {...}}`` (openai/codex ``codex-cli/src/utils/agent/handle-exec-command.ts``): empty
metadata when the person said no at the approval prompt, ``{error: "command rejected", reason}``
when the approval policy refused it. Before: a command with no exit code and no error, as if it
had run; now ``rejected`` and ``denied``, not run. A call cut by an interrupt (``exit_code: 1``,
``agent-loop.ts``) is an interrupt (test_hardening26_reviewformats_ts_interrupt.py)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path


def _call(call_id: str, argv: list, output: dict) -> list:
    return [{"type": "function_call", "name": "shell", "call_id": call_id, "arguments": json.dumps({"command": argv})},
            {"type": "function_call_output", "call_id": call_id, "output": json.dumps(output)}]


def test_declined_and_policy_refused_commands_are_not_run(tmp_path):
    items = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "restart vllm"}]}]
    items += _call("c1", ["bash", "-lc", "ssh gpu-node-3 sudo systemctl restart vllm"], {"output": "aborted", "metadata": {}})
    items += _call("c2", ["rm", "-rf", "/data/ckpt"], {"output": "aborted", "metadata": {
        "error": "command rejected", "reason": "Command rejected by auto-approval system."}})
    items += _call("c3", ["python3", "bench.py"], {"output": "aborted", "metadata": {"exit_code": 1, "duration_seconds": 0}})
    path = tmp_path / "rollout-2025-05-20-abc.json"
    path.write_text(json.dumps({"session": {"timestamp": "2025-05-20T08:00:00.000Z", "id": "abc", "instructions": ""},
                                "items": items}, indent=2))
    doc = analyze_path(path).to_json()
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in doc["commands"]}
    assert got["ssh gpu-node-3 sudo systemctl restart vllm"] == (None, True)
    assert got["rm -rf /data/ckpt"] == (None, True)
    assert got["python3 bench.py"] == (None, False)  # interrupted: no refusal, no exit status
    assert doc["stats"]["interrupts"] == 1
    kinds = [(e["kind"], e["message"]) for e in doc["errors"]]
    assert kinds == [("rejected", "aborted"), ("denied", "Command rejected by auto-approval system.")]
