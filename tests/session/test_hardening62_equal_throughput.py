"""Two benchmarks that read the same throughput: the summary said "Throughput went from 94.99
tok/s [msg 2] to 94.99 tok/s [msg 6]", a change where there was none. It now says the
throughput was unchanged, with both readings' messages."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

_BENCH = ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
          "Output token throughput (tok/s):         {}\n==================================================")
_CMD = "ssh ubuntu@a100-3 'vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --port 8000 --num-prompts 100'"


def _summary(path: Path, report: str, values: list[str]) -> list[str]:
    lines: list[dict] = []

    def add(kind: str, content: list | str) -> None:
        n = len(lines) + 1
        lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                      "message": {"role": "user" if kind == "user" else "assistant", "content": content}})

    def bash(command: str, output: str) -> None:
        tid = f"toolu_{len(lines)}"
        add("assistant", [{"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}])
        add("user", [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": False}])

    add("user", report)
    for i, value in enumerate(values):
        if i:
            bash("ssh ubuntu@a100-3 'sed -i s/3/4/ /etc/spec.yaml'", "")
        bash(_CMD, _BENCH.format(value))
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return postmortem_view(analyze_path(path))["summary"]


def _throughput_line(summary: list[str]) -> str:
    return next(s for s in summary if s.startswith("Throughput"))


def test_two_equal_readings_are_unchanged_not_went_from(tmp_path: Path) -> None:
    line = _throughput_line(_summary(tmp_path / "s.jsonl", "EAGLE-3 is slow on a100-3.", ["94.99", "94.99"]))
    assert line == "Throughput was unchanged at 94.99 tok/s: [msg 2] and again [msg 6]."


def test_three_readings_equal_first_and_last(tmp_path: Path) -> None:
    line = _throughput_line(_summary(tmp_path / "s.jsonl", "EAGLE-3 is slow on a100-3.",
                                     ["94.99", "80.5", "94.99"]))
    assert line == "Throughput was unchanged at 94.99 tok/s: first [msg 2] and last [msg 10]."


def test_different_readings_still_went_from(tmp_path: Path) -> None:
    line = _throughput_line(_summary(tmp_path / "s.jsonl", "EAGLE-3 is slow on a100-3.", ["39.1", "94.99"]))
    assert line == "Throughput went from 39.1 tok/s [msg 2] to 94.99 tok/s [msg 6]."


def test_reported_then_measured_the_same(tmp_path: Path) -> None:
    from tests.session.test_hardening51_reported_before import _session

    path = tmp_path / "s.jsonl"
    _session(path, "vLLM with our EAGLE-3 drafter on a100-3 gives 94.99 tok/s; without speculation it was 61 tok/s.",
             measured_first=False)
    line = _throughput_line(postmortem_view(analyze_path(path))["summary"])
    assert line == ("Throughput was unchanged at 94.99 tok/s: as reported [msg 0] and as measured [msg 4] "
                    "against a 61 tok/s baseline [msg 0].")
