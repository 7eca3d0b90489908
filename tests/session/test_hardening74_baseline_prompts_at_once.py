"""SD501 compared a Decode batch log read at one request (`#running-req: 1`, 61.2 tok/s) with
the baseline a plain server's `bench_serving --num-prompts 200` measured (2400.5 tok/s: all 200
prompts sent at once, no --max-concurrency): "61.2 tok/s measured vs 2400.5 tok/s baseline", a
false "EAGLE-3 is slower than no speculation". Such a baseline is of concurrency 200 and is no
baseline of a reading at another stated batch size; at --max-concurrency 1 it still is."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from tests.session.bash_session import write_bash_session

_DECODE = ("[2026-03-02 08:1{i}:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: "
           "2.10, accept rate: 0.51, cuda graph: True, gen throughput (token/s): 61.20, #queue-req: 0")
_BENCH = ("============ Serving Benchmark Result ============\nBackend:                                 sglang\n"
          "Successful requests:                     200\nOutput token throughput (tok/s):         {}\n"
          "==================================================")
_PLAIN = "ssh gpu01 'nohup python3 -m sglang.launch_server --model-path /models/llama --port 30001 > /tmp/base.log 2>&1 &'"


def _sd501(tmp_path: Path, flags: str, baseline: str) -> list[list[str]]:
    path = write_bash_session(tmp_path, "s", "EAGLE-3 on gpu01 is slow, please look.", [
        (_PLAIN, ""),
        (f"ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --port 30001 {flags}'", _BENCH.format(baseline)),
        ("ssh gpu01 'tail -n 4 /var/log/sglang/server.log'", "\n".join(_DECODE.format(i=i) for i in range(4))),
    ])
    return [f.evidence for f in analyze_path(path).findings if f.code == "SD501"]


def test_a_baseline_of_200_prompts_at_once_is_not_one_of_one_request(tmp_path: Path) -> None:
    assert _sd501(tmp_path, "--num-prompts 200", "2400.5") == []


@pytest.mark.parametrize("flags", ["--num-prompts 200 --max-concurrency 1", "--num-prompts 1"])
def test_a_baseline_of_one_request_is_compared(tmp_path: Path, flags: str) -> None:
    assert _sd501(tmp_path, flags, "90.5") == [["[msg 6] 61.2 tok/s measured vs 90.5 tok/s baseline [msg 4]"]]
