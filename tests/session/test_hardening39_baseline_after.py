"""The benchmark with EAGLE-3 often runs before the one without speculation, or the baseline is
said later ("without it we had 520 tok/s"): the slower reading is SD501 then too, with the
benchmark that measured it as evidence, so distill keeps the benchmark as a step."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

BENCH = "============ Serving Benchmark Result ============\nSuccessful requests: 32\n" \
        "Output token throughput (tok/s): {tput}\nMean TPOT (ms): 21.3\n"
BENCH_CMD = "ssh ubuntu@gpu03 'vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --num-prompts 32'"


def _call(call_id: str, command: str) -> dict:
    return {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}


def _session(tmp_path: Path, tput: str, said: str, flags: str = "") -> Path:
    """An OpenAI chat session: the benchmark (with ``flags``) prints ``tput``, then the agent says ``said``."""
    messages = [
        {"role": "user", "content": "vLLM with EAGLE-3 on gpu03 feels slow. Find out why."},
        {"role": "assistant", "content": "First a benchmark.",
         "tool_calls": [_call("c1", BENCH_CMD[:-1] + flags + "'")]},
        {"role": "tool", "tool_call_id": "c1", "content": BENCH.format(tput=tput)},
        {"role": "assistant", "content": said, "tool_calls": [_call("c2", "ssh ubuntu@gpu03 nvidia-smi -L")]},
        {"role": "tool", "tool_call_id": "c2", "content": "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)"},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    return path


def test_a_reading_is_compared_with_the_baseline_said_after_it(tmp_path):
    """Before: no SD501 (the reading came before any baseline and was compared with none), while
    the postmortem's summary said "410.22 tok/s against a 520 tok/s baseline"; the playbook had no
    benchmark step."""
    analysis = analyze_path(_session(tmp_path, "410.22", "The baseline without speculation was 520 tok/s."))
    (sd501,) = [f for f in analysis.findings if f.code == "SD501"]
    bench = next(c for c in analysis.commands if "bench serve" in c.command)
    assert (sd501.seq, sd501.host) == (bench.result_seq, "gpu03")
    assert sd501.evidence == [f"[msg {bench.result_seq}] 410.22 tok/s measured vs 520 tok/s baseline [msg 3]"]
    (step,) = [s for s in distill_playbook(analysis)["steps"] if "bench serve" in s.get("run", "")]
    assert "evidence for SD501" in step["why"], step


ROWS = "At bs=64 the baseline without speculation was 1520 tok/s, at bs=1 it was 380 tok/s."


def test_a_later_baseline_is_the_one_of_the_readings_own_row(tmp_path):
    """The benchmark ran at concurrency 64, the baselines said after it are per batch size: it is
    compared with bs=64's, not with the first one said."""
    analysis = analyze_path(_session(tmp_path, "410.22", ROWS, flags=" --max-concurrency 64"))
    (sd501,) = [f for f in analysis.findings if f.code == "SD501"]
    assert sd501.evidence[0].endswith("410.22 tok/s measured vs 1520 tok/s baseline [msg 3]"), sd501.evidence
    at_one = analyze_path(_session(tmp_path, "410.22", ROWS, flags=" --max-concurrency 1"))
    assert not [f for f in at_one.findings if f.code == "SD501"], at_one.findings


def test_a_reading_at_the_later_baseline_or_of_no_stated_row_is_no_slowdown(tmp_path):
    """Within the noise band of the baseline; or a reading that states no row while the baselines
    said after it are each of a row: which one it is compared with is not known."""
    level = analyze_path(_session(tmp_path, "515.0", "The baseline without speculation was 520 tok/s."))
    assert not [f for f in level.findings if f.code == "SD501"]
    unknown = analyze_path(_session(tmp_path, "410.22", ROWS))
    assert not [f for f in unknown.findings if f.code == "SD501"], unknown.findings
