"""The first releases of `codex exec --json` tagged each item `item_type` (not `type`), named the
model's answer `assistant_message` and opened with `session.created` (openai/codex
codex-rs/exec/src/exec_events.rs of then: ConversationItemDetails `#[serde(tag = "item_type")]`).
Every item of such a capture was an unknown `other`: the run's commands, their failures and the
agent's answer were not in its analysis. They are read as the newer items are."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LINES = [
    {"type": "session.created", "session_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"},
    {"type": "item.completed", "item": {"id": "itm_0", "item_type": "reasoning", "text": "**Checking the draft**"}},
    {"type": "item.completed", "item": {
        "id": "itm_1", "item_type": "command_execution",
        "command": "bash -lc 'ssh gpu01 python3 -m sglang.launch_server --speculative-algorithm EAGLE3'",
        "aggregated_output": "Traceback (most recent call last):\n  File \"<frozen runpy>\", line 198, in _run_module_as_main\n"
                             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
        "exit_code": 1, "status": "failed"}},
    {"type": "item.completed", "item": {"id": "itm_2", "item_type": "command_execution",
                                        "command": "bash -lc 'ssh gpu01 nvidia-smi -L'",
                                        "aggregated_output": "GPU 0: NVIDIA H100 80GB HBM3\n", "exit_code": 0,
                                        "status": "completed"}},
    {"type": "item.completed", "item": {"id": "itm_3", "item_type": "assistant_message",
                                        "text": "The server ran out of GPU memory on gpu01."}},
]


def test_an_item_type_capture_gives_its_commands_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "exec.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    a = analyze_path(path)
    out = a.to_json()
    assert out["format"] == "codex" and out["stats"]["unknown_types"] == 0
    assert [(c.inner, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("python3 -m sglang.launch_server --speculative-algorithm EAGLE3", "gpu01", 1, True),
        ("nvidia-smi -L", "gpu01", 0, False),
    ]
    assert [(e.kind, e.host) for e in a.errors] == [("cuda_oom", "gpu01")]
