"""A Codex rollout whose session_meta has ``history_base{thread_id, end_ordinal_exclusive,
end_byte_offset}`` holds none of the history it inherited: ``end_ordinal_exclusive`` counts the
lines of the base's rollout, and the file's own lines go on from it (codex-cli 0.154 forks). It
was taken as a span of this file to skip, so a sub-agent's own first lines, its commands and its
failure, were lost."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

PARENT = "019b0000-0000-7000-8000-000000000001"
CHILD = "019b0000-0000-7000-8000-000000000002"


def _line(ordinal: int, kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": f"2026-10-04T10:00:{ordinal:02d}.000Z", "ordinal": ordinal, "type": kind,
                       "payload": payload}) + "\n"


def test_a_rollout_with_a_history_base_is_read_whole(tmp_path):
    meta = {"id": CHILD, "cwd": "/w", "cli_version": "0.154.0", "history_mode": "paginated",
            "history_base": {"thread_id": PARENT, "end_ordinal_exclusive": 9, "end_byte_offset": 4096},
            "source": {"subagent": {"thread_spawn": {"parent_thread_id": PARENT, "depth": 1}}}}
    call = {"type": "function_call", "name": "exec_command", "call_id": "c1",
            "arguments": json.dumps({"cmd": "python3 -m sglang.launch_server --speculative-algorithm EAGLE3"})}
    output = {"type": "function_call_output", "call_id": "c1",
              "output": "Process exited with code 1\nOutput:\nRuntimeError: CUDA error: out of memory"}
    path = tmp_path / f"rollout-2026-10-04T10-00-00-{CHILD}.jsonl"
    path.write_text(_line(0, "session_meta", meta) + _line(9, "response_item", call) + _line(10, "response_item", output))
    doc = analyze_path(path).to_json()
    assert [(c["command"].split()[0], c["is_error"]) for c in doc["commands"]] == [("python3", True)]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_oom"]
