"""This round's readings through a whole session: a Claude Code transcript whose Bash results are
SGLang's send_one table and a curl of its /metrics gauges, and an agent's note "EAGLE3 gives ~60%
higher throughput, acceptance rate 1.8". The analysis has the send_one accept length and speed, the
gauges, the speedup of 1.6 and an accept length of 1.8 (no acceptance rate above 1)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "3b9d2f4e-8a61-4c7e-9f10-2d5e6a7b8c90"

SEND_ONE = """Here is a FastAPI server.

+-------------+--------+------------+-----------------+
| Latency (s) | Tokens | Acc Length | Speed (token/s) |
+-------------+--------+------------+-----------------+
|    1.572    |  512   |   3.281    |     325.66      |
+-------------+--------+------------+-----------------+"""
GAUGES = """# HELP sglang:spec_accept_length The average acceptance length of speculative decoding.
# TYPE sglang:spec_accept_length gauge
sglang:spec_accept_length{model_name="meta-llama/Llama-3.1-8B-Instruct"} 3.1
# HELP sglang:gen_throughput The generation throughput (token/s).
# TYPE sglang:gen_throughput gauge
sglang:gen_throughput{model_name="meta-llama/Llama-3.1-8B-Instruct"} 310.5"""


def _line(uuid: str, role: str, content: list, second: int) -> dict:
    return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": SID,
            "timestamp": f"2026-01-10T09:00:{second:02d}Z", "cwd": "/work", "isSidechain": False,
            "userType": "external", "version": "2.1.20",
            "message": {"id": f"msg_{uuid}", "role": role, "model": "claude-opus-4-5", "content": content}}


def _call(n: int, command: str, output: str, second: int) -> list[dict]:
    return [_line(f"a{n}", "assistant", [{"type": "tool_use", "id": f"toolu_{n}", "name": "Bash",
                                          "input": {"command": command}}], second),
            _line(f"u{n}", "user", [{"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": output,
                                     "is_error": False}], second + 1)]


def _session(tmp_path: Path) -> Path:
    lines = [_line("u0", "user", [{"type": "text", "text": "Is the EAGLE-3 draft helping?"}], 0),
             *_call(1, "python3 -m sglang.test.send_one", SEND_ONE, 2),
             *_call(2, "curl -s localhost:30000/metrics | grep -E 'spec_accept|gen_throughput'", GAUGES, 10),
             _line("a3", "assistant", [{"type": "text", "text": "EAGLE3 gives ~60% higher throughput, "
                                                                 "acceptance rate 1.8."}], 20)]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_the_session_has_each_reading(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path))
    got = sorted((m.name, m.value) for m in a.metrics)
    assert ("accept_length", 3.281) in got and ("throughput", 325.66) in got
    assert ("accept_length", 3.1) in got and ("throughput", 310.5) in got
    assert ("speedup", 1.6) in got
    assert ("accept_length", 1.8) in got
    assert not any(m.name == "accept_rate" and m.unit == "ratio" and m.value > 1 for m in a.metrics)
