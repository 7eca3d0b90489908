"""This round's readings through a whole session: a Claude Code transcript whose Bash results are
``kubectl logs --prefix`` of a torchrun job killed by the OOM killer, vLLM's KV-cache refusal and
an agent's note "context 4096 vs 120 tok/s". The analysis reports the SIGKILL of rank 3, the
KV cache's share and one throughput of 120 tok/s (no 4096 tok/s)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "7c2e1b9a-4f3d-4a8e-b1c2-9d0e8f7a6b51"

TORCHRUN = [
    "Traceback (most recent call last):",
    '  File "/usr/local/bin/torchrun", line 8, in <module>',
    "    sys.exit(main())",
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    "============================================================",
    "scripts/train_eagle3.py FAILED",
    "------------------------------------------------------------",
    "Root Cause (first observed failure):",
    "[0]:",
    "  time      : 2025-07-01_01:02:04",
    "  host      : train-0",
    "  rank      : 3 (local_rank: 3)",
    "  exitcode  : -9 (pid: 1234)",
    "  error_file: <N/A>",
    "  traceback : Signal 9 (SIGKILL) received by PID 1234",
    "============================================================",
]
KV = ("ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is "
      "needed, which is larger than the available KV cache memory (9.47 GiB). Try increasing "
      "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")


def _line(uuid: str, role: str, content: list, second: int) -> dict:
    return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": SID,
            "timestamp": f"2026-01-10T09:00:{second:02d}Z", "cwd": "/work", "isSidechain": False,
            "userType": "external", "version": "2.1.20",
            "message": {"id": f"msg_{uuid}", "role": role, "model": "claude-opus-4-5", "content": content}}


def _call(n: int, command: str, output: str, second: int) -> list[dict]:
    return [_line(f"a{n}", "assistant", [{"type": "tool_use", "id": f"toolu_{n}", "name": "Bash",
                                          "input": {"command": command}}], second),
            _line(f"u{n}", "user", [{"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": output,
                                     "is_error": True}], second + 1)]


def _session(tmp_path: Path) -> Path:
    logs = "".join("[pod/train-0/trainer] " + line + "\n" for line in TORCHRUN) + "Exit code 1"
    lines = [_line("u0", "user", [{"type": "text", "text": "Why did the EAGLE-3 training job die?"}], 0),
             *_call(1, "kubectl logs --prefix train-0", logs, 2),
             *_call(2, "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\":\"eagle3\"}'",
                    KV + "\nExit code 1", 10),
             _line("a3", "assistant", [{"type": "text", "text": "Measured: context 4096 vs 120 tok/s."}], 20)]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_the_session_reports_the_root_cause_the_kv_share_and_one_speed(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path))
    kinds = [(e.kind, e.exception) for e in a.errors]
    assert ("signal", "SIGKILL") in kinds
    assert any(e.message == "rank 3 exitcode -9: Signal 9 (SIGKILL) received by PID 1234" for e in a.errors)
    assert ("kv_cache_memory", "ValueError") in kinds
    speeds = sorted(m.value for m in a.metrics if m.unit == "tok/s")
    assert speeds == [120.0]
