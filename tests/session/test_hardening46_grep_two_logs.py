"""`grep` over two runs' logs reads each file as its own run.

An agent compares the run without speculation and the EAGLE-3 run with one grep over both logs
(``grep "gen throughput" /tmp/base.log /tmp/eagle.log``); grep puts each line's file name before
it. The lines were read as one server's: the mean of 181 and 141 tok/s was the reading of neither
run, the slowdown was lost (no SD501), and the same grep over two benchmark results gave no reading
at all. Each file's lines are now read on their own, a file named as the baseline run ("base",
"baseline", "vanilla", "no_spec") giving baselines."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import scan_metrics

SESSION = "7d1e0c5b-46aa-4f00-9d42-000000000046"


def _decode(file: str, second: int, tput: float, spec: bool) -> str:
    accept = "accept len: 1.20, accept rate: 0.05, " if spec else ""
    return (f"{file}:[2026-01-10 08:15:{second:02d} TP0] Decode batch, #running-req: 1, #token: 640, "
            f"token usage: 0.01, {accept}cuda graph: True, gen throughput (token/s): {tput:.2f}, #queue-req: 0,\n")


GREP = (_decode("/tmp/base.log", 3, 180.45, False) + _decode("/tmp/base.log", 5, 182.11, False)
        + _decode("/tmp/eagle.log", 3, 140.45, True) + _decode("/tmp/eagle.log", 5, 142.11, True))


def _session(tmp_path: Path, output: str) -> Path:
    def line(seq: int, role: str, content: list) -> str:
        return json.dumps({"type": role, "uuid": f"u{seq}", "parentUuid": f"u{seq - 1}" if seq else None,
                           "sessionId": SESSION, "timestamp": f"2026-01-05T10:00:{seq:02d}.000Z",
                           "cwd": "/home/dev", "message": {"role": role, "content": content}})
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join([
        line(0, "user", [{"type": "text", "text": "EAGLE-3 made serving slower on gpu01"}]),
        line(1, "assistant", [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {
            "command": "ssh gpu01 \"grep 'gen throughput' /tmp/base.log /tmp/eagle.log\""}}]),
        line(2, "user", [{"type": "tool_result", "tool_use_id": "t1", "content": output, "is_error": False}]),
    ]) + "\n")
    return path


def test_each_log_is_its_own_run_and_the_slowdown_is_found(tmp_path: Path) -> None:
    analysis = analyze_path(_session(tmp_path, GREP))
    assert [(m.name, m.value, m.context) for m in analysis.metrics] == [
        ("baseline_throughput", 181.28, "/tmp/base.log: SGLang Decode batch, mean of 2 lines, batch size 1"),
        ("throughput", 141.28, "/tmp/eagle.log: SGLang Decode batch, mean of 2 lines, batch size 1"),
        ("accept_length", 1.2, "/tmp/eagle.log: SGLang Decode batch, mean of 2 lines, batch size 1"),
        ("accept_rate", 0.05, "/tmp/eagle.log: SGLang Decode batch, mean of 2 lines, batch size 1")]
    assert {m.host for m in analysis.metrics} == {"gpu01"}
    assert "SD501" in [f.code for f in analysis.findings]


def test_two_benchmark_results_with_line_numbers() -> None:
    text = ("results/baseline.txt:7:Output token throughput (tok/s):         900.10\n"
            "results/eagle3.txt:7:Output token throughput (tok/s):         700.50\n")
    assert [(m.name, m.value) for m in scan_metrics(text)] == [("baseline_throughput", 900.1), ("throughput", 700.5)]


def test_one_file_or_unprefixed_lines_are_read_whole() -> None:
    one = _decode("/tmp/eagle.log", 3, 140.45, True) + _decode("/tmp/eagle.log", 5, 142.11, True)
    assert [(m.name, m.value) for m in scan_metrics(one)][:1] == [("throughput", 141.28)]
    mixed = GREP + "INFO: done\n"
    assert [(m.name, m.value) for m in scan_metrics(mixed)][:1] == [("throughput", 161.28)]


def test_tail_over_two_logs_reads_each_under_its_header() -> None:
    # GNU tail (and head) over several files: "==> FILE <==" over each file's lines
    text = ("==> /tmp/base.log <==\n" + _decode("", 3, 180.45, False)[1:] + _decode("", 5, 182.11, False)[1:]
            + "\n==> /tmp/eagle.log <==\n" + _decode("", 3, 140.45, True)[1:] + _decode("", 5, 142.11, True)[1:])
    assert [(m.name, m.value, m.context) for m in scan_metrics(text)][:2] == [
        ("baseline_throughput", 181.28, "/tmp/base.log: SGLang Decode batch, mean of 2 lines, batch size 1"),
        ("throughput", 141.28, "/tmp/eagle.log: SGLang Decode batch, mean of 2 lines, batch size 1")]
