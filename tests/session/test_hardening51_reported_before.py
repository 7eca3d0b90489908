"""A session that starts from the user's report ("EAGLE-3 on a100-3 gives 38 tok/s; without
speculation it was 61 tok/s"), fixes the server without measuring it first, then benchmarks
it: the postmortem said "Throughput was measured once: 94.99 tok/s", showed 94.99 before and
after in the Impact table, and "No change in the session was followed by a rise in measured
throughput", for a session that took the reported 38 tok/s to 95. The report is the before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

_BENCH = ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
          "Request throughput (req/s):              0.47\nOutput token throughput (tok/s):         94.99\n"
          "Total Token throughput (tok/s):          197.58\n==================================================")
_LAUNCH = ("ssh ubuntu@a100-3 'pkill -f \"vllm serve\"; sleep 5; nohup vllm serve meta-llama/Llama-3.1-8B-Instruct "
           "--port 8000 --speculative-config \"{\\\"method\\\": \\\"eagle3\\\", \\\"model\\\": \\\"/ckpt/drafter\\\", "
           "\\\"num_speculative_tokens\\\": 3}\" > /var/log/vllm/server.log 2>&1 &'")


def _session(path: Path, report: str, measured_first: bool) -> None:
    lines: list[dict] = []

    def add(kind: str, content: list | str, **extra) -> None:
        n = len(lines) + 1
        lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                      "message": {"role": "user" if kind == "user" else "assistant", "content": content}, **extra})

    def bash(command: str, output: str) -> None:
        tid = f"toolu_{len(lines)}"
        add("assistant", [{"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}])
        add("user", [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": False}])

    add("user", report)
    bench = "ssh ubuntu@a100-3 'vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --port 8000 --num-prompts 100'"
    if measured_first:
        bash(bench, _BENCH.replace("94.99", "39.10"))
    bash(_LAUNCH, "")
    bash(bench, _BENCH)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_the_reported_throughput_is_the_before_of_a_server_fixed_unmeasured(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _session(path, "vLLM with our EAGLE-3 drafter on a100-3 gives 38 tok/s; without speculation it was 61 tok/s.",
             measured_first=False)
    view = postmortem_view(analyze_path(path))
    row = next(r for r in view["impact"]["rows"] if r["name"] == "throughput")
    assert (row["before"], row["before_seq"], row["before_reported"], row["after"], row["after_seq"]) == \
        (38.0, 0, True, 94.99, 4)
    assert "Throughput went from 38 tok/s as reported [msg 0] to 94.99 tok/s [msg 4] against a 61 tok/s " \
           "baseline [msg 0]." in view["summary"]
    assert view["resolution"] == [
        'Throughput rose from 38 tok/s as reported [msg 0] to 94.99 tok/s on a100-3 [msg 4] after relaunching '
        'the server with `"num_speculative_tokens": 3` [msg 1].']


def test_a_measurement_before_the_change_stays_the_before(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _session(path, "vLLM with our EAGLE-3 drafter on a100-3 gives 38 tok/s; without speculation it was 61 tok/s.",
             measured_first=True)
    view = postmortem_view(analyze_path(path))
    row = next(r for r in view["impact"]["rows"] if r["name"] == "throughput")
    assert (row["before"], row["before_seq"], row["before_reported"], row["after"]) == (39.1, 2, False, 94.99)
    assert [line for line in view["resolution"] if "as reported" in line] == []


def test_a_report_that_states_no_throughput_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _session(path, "EAGLE-3 on a100-3 is slow, please fix it.", measured_first=False)
    view = postmortem_view(analyze_path(path))
    row = next(r for r in view["impact"]["rows"] if r["name"] == "throughput")
    assert (row["before"], row["before_reported"], row["readings"]) == (94.99, False, 1)
    assert "Throughput was measured once: 94.99 tok/s [msg 4]." in view["summary"]
