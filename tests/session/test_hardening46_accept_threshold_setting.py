"""SGLang's launch settings are no accuracy.

Every SGLang launch logs its ServerArgs (python/sglang/srt/server_args.py), among them
"speculative_accept_threshold_single=1.0, speculative_accept_threshold_acc=1.0": the bounds of
its tree acceptance. An agent that read the head of the server log got a drafter accuracy of
100 % from that line, beside the real readings."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics

SESSION = "7d1e0c5b-46aa-4f00-9d42-000000000046"

LAUNCH = """\
[2025-10-21 08:14:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', speculative_algorithm='EAGLE3', speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B', speculative_num_steps=5, speculative_eagle_topk=8, speculative_num_draft_tokens=32, speculative_accept_threshold_single=1.0, speculative_accept_threshold_acc=1.0, speculative_token_map=None, mem_fraction_static=0.7)
[2025-10-21 08:14:30 TP0] max_total_num_tokens=420000, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=48, context_len=131072, available_gpu_mem=10.21 GB
[2025-10-21 08:15:03 TP0] Decode batch, #running-req: 1, #token: 640, token usage: 0.01, accept len: 3.12, accept rate: 0.53, cuda graph: True, gen throughput (token/s): 187.45, #queue-req: 0,
"""


def _session(tmp_path: Path) -> Path:
    def line(seq: int, role: str, content: list) -> str:
        return json.dumps({"type": role, "uuid": f"u{seq}", "parentUuid": f"u{seq - 1}" if seq else None,
                           "sessionId": SESSION, "timestamp": f"2026-01-05T10:00:{seq:02d}.000Z",
                           "cwd": "/home/dev", "message": {"role": role, "content": content}})
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join([
        line(0, "user", [{"type": "text", "text": "EAGLE-3 on gpu02 is slow"}]),
        line(1, "assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                               "input": {"command": "ssh gpu02 'head -n 3 /tmp/sglang.log'"}}]),
        line(2, "user", [{"type": "tool_result", "tool_use_id": "t1", "content": LAUNCH, "is_error": False}]),
    ]) + "\n")
    return path


def test_the_server_args_line_gives_no_accuracy(tmp_path: Path) -> None:
    readings = [(m.name, m.value, m.unit, m.host) for m in analyze_path(_session(tmp_path)).metrics]
    assert readings == [("throughput", 187.45, "tok/s", "gpu02"), ("accept_length", 3.12, "tokens", "gpu02"),
                        ("accept_rate", 0.53, "ratio", "gpu02")]


def test_a_validation_accuracy_key_is_still_read() -> None:
    assert [(m.name, m.value) for m in extract_metrics("epoch 3: val_acc=0.747, train_loss=1.92")] == [
        ("validation_accuracy", 74.7)]
