"""`codex exec --json` writes its warnings as `error` items: a Warning ("Heads up: Long threads and
multiple compactions can cause the model to be less accurate..."), a config or deprecation notice,
a model reroute (openai/codex codex-rs/exec/src/event_processor_with_jsonl_output.rs
collect_warning / collect_thread_events -> ThreadItemDetails::Error). A failed turn is the
top-level `error` and `turn.failed`. Every such warning was an agent_error: a clean run that
compacted its context said it had errors. They are no failure now; a failed turn still is."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

HEADS_UP = ("Heads up: Long threads and multiple compactions can cause the model to be less accurate. "
            "Start a new thread when possible to keep threads small and targeted.")
COMMAND = {"id": "item_1", "type": "command_execution", "command": "bash -lc 'ssh gpu01 nvidia-smi -L'",
           "aggregated_output": "GPU 0: NVIDIA H100 80GB HBM3\n", "exit_code": 0, "status": "completed"}


def analyzed(tmp_path: Path, tail: list[dict]) -> dict:
    lines = [{"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"}, {"type": "turn.started"},
             {"type": "item.completed", "item": {"id": "item_0", "type": "error",
                                                 "message": "model rerouted: gpt-5.2-codex -> gpt-5.2 (HighRiskCyberActivity)"}},
             {"type": "item.started", "item": {**COMMAND, "aggregated_output": "", "exit_code": None,
                                               "status": "in_progress"}},
             {"type": "item.completed", "item": COMMAND},
             {"type": "item.completed", "item": {"id": "item_2", "type": "error", "message": HEADS_UP}}, *tail]
    path = tmp_path / "exec.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return analyze_path(path).to_json()


def test_warning_items_of_a_clean_run_are_no_errors(tmp_path):
    out = analyzed(tmp_path, [{"type": "item.completed", "item": {"id": "item_3", "type": "agent_message",
                                                                   "text": "gpu01 has one H100."}},
                              {"type": "turn.completed", "usage": {"input_tokens": 9, "cached_input_tokens": 0,
                                                                   "output_tokens": 4}}])
    assert out["format"] == "codex" and [c["host"] for c in out["commands"]] == ["gpu01"]
    assert out["errors"] == [] and out["stats"]["errors"] == 0


def test_a_failed_turn_after_warnings_is_the_one_error(tmp_path):
    said = "Your input exceeds the context window of this model. Please adjust your input and try again."
    out = analyzed(tmp_path, [{"type": "error", "message": said}, {"type": "turn.failed", "error": {"message": said}}])
    assert [(e["kind"], e["message"]) for e in out["errors"]] == [("agent_error", said)]
