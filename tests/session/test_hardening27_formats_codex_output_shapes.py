"""Two shapes of a Codex function_call_output that hid a command's exit status: the payload written
whole, ``{"content_items": [{type: input_text, text}]}`` (``FunctionCallOutputPayload``, its text in
the items alone), and unified exec's JSON ``{"output", "exit_code", "wall_time_seconds"}`` (the
exit code beside the output, not under ``metadata``). Both read as commands with no exit code."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path


def _line(n: int, kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": "2026-09-17T08:22:53.411Z", "ordinal": n, "type": kind, "payload": payload})


def test_exit_codes_in_items_and_beside_the_output_are_read(tmp_path):
    outputs = [json.dumps({"output": "FAILED 3 tests", "exit_code": 3, "wall_time_seconds": 1.2}),
               {"content_items": [{"type": "input_text", "text": "Process exited with code 1\nOutput:\n"}]}]
    lines = [_line(0, "session_meta", {"id": "019a0000-0000-7000-8000-00000000000b", "cwd": "/w", "cli_version": "0.149.1"})]
    for n, (cmd, output) in enumerate(zip(["make test", "false"], outputs)):
        lines += [_line(2 * n + 1, "response_item", {"type": "function_call", "name": "exec_command", "call_id": f"c{n}",
                                                     "arguments": json.dumps({"cmd": cmd})}),
                  _line(2 * n + 2, "response_item", {"type": "function_call_output", "call_id": f"c{n}", "output": output})]
    path = tmp_path / "rollout-2026-09-17T08-22-53-019a0000-0000-7000-8000-00000000000b.jsonl"
    path.write_text("\n".join(lines) + "\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [("make test", 3, True),
                                                                                    ("false", 1, True)]
