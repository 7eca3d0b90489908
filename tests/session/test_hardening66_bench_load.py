"""Readings taken under different load are no before and after. The postmortem's Impact row
compared a bench_serving run at one request a second with one at eight ("Throughput went from
60.5 tok/s to 140.2 tok/s"), and likewise runs of 10 and 200 prompts sent at once, or of 128 and
4096 token prompts: only --max-concurrency split them."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.baselines import run_load
from spec_debug.session.postmortem import postmortem_view

_BENCH = ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
          "Output token throughput (tok/s):         {}\n==================================================")
_BENCH_CMD = "python -m sglang.bench_serving --backend sglang --port 30000 {}"
_SED = "sudo sed -i 's/num_steps: 3/num_steps: 5/' /etc/sglang/spec.yaml && sudo systemctl restart sglang"


class _Session:
    def __init__(self) -> None:
        self.lines: list[dict] = []

    def add(self, kind: str, content: list | str) -> None:
        n = len(self.lines) + 1
        self.lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                           "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                           "message": {"role": "user" if kind == "user" else "assistant", "content": content}})

    def bash(self, command: str, output: str = "") -> None:
        tid = f"toolu_{len(self.lines)}"
        self.add("assistant", [{"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}])
        self.add("user", [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": False}])

    def bench(self, flags: str, value: str) -> None:
        self.bash(_BENCH_CMD.format(flags), _BENCH.format(value))


def _throughput(tmp_path: Path, *runs: tuple[str, str], change_after: int = -1) -> str:
    s = _Session()
    s.add("user", "EAGLE-3 on gpu01 is slow, please fix it.")
    for i, (flags, value) in enumerate(runs):
        s.bench(flags, value)
        if i == change_after:
            s.bash(_SED)
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in s.lines), encoding="utf-8")
    view = postmortem_view(analyze_path(path))
    return next(x for x in view["summary"] if x.startswith("Throughput"))


def test_runs_under_different_load_are_not_compared(tmp_path: Path) -> None:
    for before, after in [("--request-rate 1", "--request-rate 8"),
                          ("--num-prompts 10", "--num-prompts 200"),
                          ("--dataset-name random --random-input 128", "--dataset-name random --random-input-len 4096"),
                          ("--random-output-len 128", "--random-output-len 1024"),
                          ("--dataset-name sharegpt", "--dataset-name random")]:
        # (round 74: was "Throughput was measured once: 140.2 tok/s [msg 4].", though it was read twice)
        assert _throughput(tmp_path, (before, "60.5"), (after, "140.2")) == (
            "Throughput was measured once at the load of its last reading: 140.2 tok/s [msg 4]; 1 other reading "
            "(60.5 tok/s [msg 2]) was at another batch size or load, so no before and after is told."), (before, after)


def test_runs_under_one_load_are_compared(tmp_path: Path) -> None:
    for before, after in [("--request-rate 8", "--request-rate=8.0"),
                          # the prompts are no load where --max-concurrency bounds the requests in flight
                          ("--max-concurrency 4 --num-prompts 10", "--max-concurrency 4 --num-prompts 100"),
                          ("--request-rate 2 --num-prompts 10", "--request-rate 2 --num-prompts 100"),
                          ("--request-rate 4", "--request-rate 4 --output-file out.jsonl"),
                          ("", "--request-rate 4")]:  # a load one run states and the other not: not told apart
        assert _throughput(tmp_path, (before, "60.5"), (after, "140.2")) == \
            "Throughput went from 60.5 tok/s [msg 2] to 140.2 tok/s [msg 4].", (before, after)


def test_a_change_is_measured_at_the_load_it_was_measured_before(tmp_path: Path) -> None:
    # at 1 req/s before and after the change, then once at 8 req/s: the change went from 60.5 to 80.1
    got = _throughput(tmp_path, ("--request-rate 1", "60.5"), ("--request-rate 1", "80.1"),
                      ("--request-rate 8", "210.0"), change_after=0)
    assert got.startswith("Throughput went from 60.5 tok/s [msg 2] to 80.1 tok/s [msg 6]"), got


def test_run_load() -> None:
    assert run_load("python -m sglang.bench_serving --backend sglang --dataset-name random --random-input 1024 "
                    "--random-output 512 --num-prompt 300 --request-rate 1") == (
        ("dataset-name", "random"), ("random-input-len", "1024"), ("random-output-len", "512"), ("request-rate", "1"))
    assert run_load("vllm bench serve --model m --num-prompts 50 --request-rate inf") == (
        ("num-prompts", "50"), ("request-rate", "inf"))
    assert run_load("vllm bench serve --num_prompts 50 --max-concurrency 8") == ()
    assert run_load("python bench.py") == ()
