"""`codex exec --json` writes a dropped model stream it is retrying as the same top-level
`{"type": "error", "message": "Reconnecting... 1/5 (...)"}` as a fatal error (openai/codex
codex-rs/exec/src/event_processor_with_jsonl_output.rs: EventMsg::StreamError ->
ThreadEvent::Error). A run whose retry worked reported "Reconnecting... 1/5" as an agent_error;
a retry is no failure, and a run whose retries ran out still says its own error once."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

RECONNECT = "Reconnecting... 1/5 (stream disconnected before completion: error sending request for url " \
            "(https://api.openai.com/v1/responses))"
COMMAND = {"id": "item_1", "type": "command_execution", "command": "bash -lc 'ssh gpu01 nvidia-smi'",
           "aggregated_output": "GPU 0: NVIDIA H200\n", "exit_code": 0, "status": "completed"}


def analyzed(tmp_path: Path, lines: list[dict]) -> dict:
    path = tmp_path / "exec.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return analyze_path(path).to_json()


def head() -> list[dict]:
    return [{"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"}, {"type": "turn.started"},
            {"type": "item.started", "item": {**COMMAND, "aggregated_output": "", "exit_code": None,
                                              "status": "in_progress"}},
            {"type": "item.completed", "item": COMMAND}]


def test_a_retry_that_worked_is_no_error(tmp_path):
    older = "stream error: stream disconnected before completion: Transport error: error decoding response body; " \
            "retrying 1/5 in 189ms…"  # CLIs before "Reconnecting..."
    out = analyzed(tmp_path, [*head(), {"type": "error", "message": RECONNECT},
                              {"type": "error", "message": "Reconnecting... waiting for network"},
                              {"type": "error", "message": older},
                              {"type": "item.completed", "item": {"id": "item_2", "type": "agent_message",
                                                                  "text": "GPU 0 is an H200."}},
                              {"type": "turn.completed", "usage": {"input_tokens": 10, "cached_input_tokens": 0,
                                                                   "output_tokens": 5}}])
    assert out["format"] == "codex" and [c["host"] for c in out["commands"]] == ["gpu01"]
    assert out["errors"] == [] and out["stats"]["errors"] == 0


def test_retries_that_ran_out_say_the_final_error_once(tmp_path):
    final = "stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)"
    out = analyzed(tmp_path, [*head(), *({"type": "error", "message": RECONNECT.replace("1/5", f"{n}/5")}
                                         for n in range(1, 6)),
                              {"type": "error", "message": final}, {"type": "turn.failed", "error": {"message": final}}])
    assert [(e["kind"], e["message"]) for e in out["errors"]] == [("agent_error", final)]
