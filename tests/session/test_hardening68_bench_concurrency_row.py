"""A serving benchmark's readings keep the concurrency its result block states.

SGLang's bench_serving prints "Max request concurrency: N" under its banner (sglang 0.5.23
python/sglang/benchmark/serving.py; "not set" without --max-concurrency), `vllm bench serve`
"Maximum request concurrency: N" when it was set (vllm 0.34.0 vllm/benchmarks/serve.py). That is
the row of the block's readings, as the command's --max-concurrency flag is; a benchmark run from a
script ("ssh gpu01 'bash /work/bench.sh'") or a loop ("--max-concurrency $c") shows no flag, and
its concurrency-1 reading of 180.5 tok/s was compared with a baseline said at concurrency 16
(SD501 "180.5 tok/s measured vs 1500 tok/s baseline").
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.baselines import row_key
from spec_debug.session.metrics import scan_metrics

SID = "5d0c3a61-2b7e-4c19-9f3e-8a1b6c2d4e70"


def _line(label: str, value) -> str:
    return "{:<40} {:<10}".format(label, value if isinstance(value, (int, str)) else f"{value:.2f}")


def _sglang_block(concurrency, output_tput: float, accept_length: float | None = None) -> str:
    lines = ["", "{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="="),
             _line("Backend:", "sglang"), _line("Traffic request rate:", "inf"),
             _line("Max request concurrency:", concurrency), _line("Successful requests:", 80),
             _line("Benchmark duration (s):", 41.27), _line("Total input tokens:", 20480),
             _line("Total generated tokens:", 40960), _line("Request throughput (req/s):", 1.94),
             _line("Input token throughput (tok/s):", 496.24), _line("Output token throughput (tok/s):", output_tput),
             _line("Peak output token throughput (tok/s):", output_tput * 1.1),
             _line("Total token throughput (tok/s):", output_tput * 1.5), _line("Concurrency:", 0.96)]
    if accept_length is not None:
        lines.append(_line("Accept length:", accept_length))
    lines += ["{s:{c}^{n}}".format(s="End-to-End Latency", n=50, c="-"), _line("Mean E2E Latency (ms):", 4105.2),
              "=" * 50]
    return "\n".join(lines) + "\n"


VLLM_BLOCK = "\n".join([
    "{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="="),
    _line("Successful requests:", 80), _line("Failed requests:", 0), _line("Maximum request concurrency:", 4),
    _line("Benchmark duration (s):", 41.27), _line("Request throughput (req/s):", 1.94),
    _line("Output token throughput (tok/s):", 612.4), _line("Total token throughput (tok/s):", 918.6),
    "{s:{c}^{n}}".format(s="Speculative Decoding", n=50, c="-"), _line("Acceptance rate (%):", 70.67),
    _line("Acceptance length:", 3.12), "=" * 50]) + "\n"


def _throughputs(text: str) -> list[tuple[float, str | None]]:
    return [(m.value, row_key(m.context, m.value)) for m in scan_metrics(text) if m.name == "throughput"]


def test_the_block_states_the_row_of_its_readings():
    assert _throughputs(_sglang_block(1, 180.5, 3.1)) == [(180.5, "1")]
    assert _throughputs(VLLM_BLOCK) == [(612.4, "4")]


def test_each_block_of_a_sweep_has_its_own_row():
    sweep = _sglang_block(1, 180.5, 3.1) + _sglang_block(16, 1500.25, 3.0)
    assert _throughputs(sweep) == [(180.5, "1"), (1500.25, "16")]


def test_a_block_without_a_concurrency_takes_none_of_the_block_before():
    # "not set" (no --max-concurrency): the second block's reading has no row, not the first's 16
    sweep = _sglang_block(16, 1500.25) + _sglang_block("not set", 992.49)
    assert _throughputs(sweep) == [(1500.25, "16"), (992.49, None)]


def _entry(uuid: str, role: str, content: list, second: int) -> dict:
    return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": SID,
            "timestamp": f"2026-11-02T10:00:{second:02d}Z", "cwd": "/work", "isSidechain": False,
            "userType": "external", "version": "2.1.20",
            "message": {"id": f"msg_{uuid}", "role": role, "model": "claude-opus-4-5", "content": content}}


def _session(tmp_path: Path, said: str, output: str) -> Path:
    lines = [_entry("u0", "user", [{"type": "text", "text": "Measure EAGLE-3 on gpu01."}], 0),
             _entry("a1", "assistant", [{"type": "text", "text": said}], 2),
             _entry("a2", "assistant", [{"type": "tool_use", "id": "toolu_2", "name": "Bash",
                                         "input": {"command": "ssh gpu01 'bash /work/bench.sh'"}}], 4),
             _entry("u2", "user", [{"type": "tool_result", "tool_use_id": "toolu_2", "content": output,
                                    "is_error": False}], 5)]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_a_reading_at_concurrency_1_is_not_compared_with_a_baseline_at_16(tmp_path: Path):
    a = analyze_path(_session(tmp_path, "The baseline without speculation is 1500 tok/s at concurrency 16.",
                              _sglang_block(1, 180.5, 3.1)))
    assert [m.value for m in a.metrics if m.name == "throughput"] == [180.5]
    assert [f for f in a.findings if f.code == "SD501"] == []


def test_a_reading_at_the_baselines_concurrency_is_compared_with_it(tmp_path: Path):
    a = analyze_path(_session(tmp_path, "The baseline without speculation is 250 tok/s at concurrency 1.",
                              _sglang_block(1, 180.5, 3.1)))
    assert [f.code for f in a.findings] == ["SD501"]
