"""SGLang's EAGLE tuning sweep: its steps=0 run is the baseline, not one more drafting speed.

sgl-project/sglang scripts/playground/bench_speculative.py launches a server for each (batch size,
steps, topk, draft tokens), prints "Finish i=N: batch_size=B, steps=S, topk=K, num_draft_tokens=D,
speed=X token/s, step_time=T ms" and appends a JSON record to its --output file. steps = topk =
num_draft_tokens = 0 is its run without speculation ("a special case for non-speculative
decoding"). Its speed was read as a drafting throughput, so a drafter slower than no drafting at
all (80.12 vs 120.4 tok/s) raised no SD501; the records gave no reading at all. The speed is
acc_length / step_time, one request's rate: the throughput at batch size 1 only.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import scan_metrics

SID = "0b6e2c4d-8a1f-4d3e-9c2b-7f5a1e3d9b82"

FINISH_LINES = """\
Start i=0: batch_size=1, steps=0, topk=0, num_draft_tokens=0
Finish i=0: batch_size=1, steps=0, topk=0, num_draft_tokens=0, speed=120.40 token/s, step_time=8.31 ms
Start i=1: batch_size=1, steps=3, topk=4, num_draft_tokens=8
Finish i=1: batch_size=1, steps=3, topk=4, num_draft_tokens=8, speed=80.12 token/s, step_time=14.98 ms
Start i=2: batch_size=4, steps=3, topk=4, num_draft_tokens=8
Finish i=2: batch_size=4, steps=3, topk=4, num_draft_tokens=8, speed=70.05 token/s, step_time=17.13 ms
"""

RECORDS = "".join(json.dumps(record) + "\n" for record in (
    {"batch_size": 1, "steps": 0, "topk": 0, "num_draft_tokens": 0, "acc_length": 1.0, "step_time": 0.00831,
     "speed": 120.4, "completion_tokens": 512.0},
    {"batch_size": 1, "steps": 3, "topk": 4, "num_draft_tokens": 8, "acc_length": 1.2, "step_time": 0.01498,
     "speed": 80.12, "completion_tokens": 512.0},
))


def _readings(text):
    return [(m.name, m.value, m.context) for m in scan_metrics(text)]


def test_the_finish_lines():
    assert _readings(FINISH_LINES) == [
        ("baseline_throughput", 120.4, "bench_speculative: batch_size=1, steps=0, topk=0, num_draft_tokens=0"),
        ("throughput", 80.12, "bench_speculative: batch_size=1, steps=3, topk=4, num_draft_tokens=8"),
        ("per_user_throughput", 70.05, "bench_speculative: batch_size=4, steps=3, topk=4, num_draft_tokens=8"),
    ]


def test_the_output_records():
    assert _readings(RECORDS) == [
        ("baseline_throughput", 120.4, "bench_speculative: batch_size=1, steps=0, topk=0, num_draft_tokens=0"),
        ("throughput", 80.12, "bench_speculative: batch_size=1, steps=3, topk=4, num_draft_tokens=8"),
        ("accept_length", 1.2, "bench_speculative: batch_size=1, steps=3, topk=4, num_draft_tokens=8"),
    ]


def _entry(uuid: str, role: str, content: list, second: int) -> dict:
    return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": SID,
            "timestamp": f"2026-11-02T10:00:{second:02d}Z", "cwd": "/work", "isSidechain": False,
            "userType": "external", "version": "2.1.20",
            "message": {"id": f"msg_{uuid}", "role": role, "model": "claude-opus-4-5", "content": content}}


def test_a_drafter_slower_than_the_sweeps_own_baseline_is_reported(tmp_path: Path):
    command = ("python3 scripts/playground/bench_speculative.py --model-path meta-llama/Llama-3.1-8B-Instruct "
               "--speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --batch-size 1 4")
    lines = [_entry("u0", "user", [{"type": "text", "text": "Tune EAGLE-3 on gpu01."}], 0),
             _entry("a1", "assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                         "input": {"command": command}}], 2),
             _entry("u1", "user", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": FINISH_LINES,
                                    "is_error": False}], 3)]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(f.code, f.evidence) for f in a.findings] == [
        ("SD501", ["[msg 2] 80.12 tok/s measured vs 120.4 tok/s baseline"])]
