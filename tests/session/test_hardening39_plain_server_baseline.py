"""analyze: a benchmark of a server launched without speculation is the baseline SD501 compares with.

The on-call story itself ("EAGLE-3 made serving slower on gpu01"): the session launches the model
without speculation, runs bench_serving (1500 tok/s), relaunches it with EAGLE-3 and runs it again
(1100 tok/s). Before, the first reading was a throughput like any other, no baseline was known
unless someone wrote one in prose, and SD501 never fired.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

MODEL = "--model-path meta-llama/Llama-3.1-8B-Instruct --port 30000"
PLAIN = f"python3 -m sglang.launch_server {MODEL}"
EAGLE3 = (f"python3 -m sglang.launch_server {MODEL} --speculative-algorithm EAGLE3 --speculative-draft-model-path "
          "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 4")
BENCH = "python3 -m sglang.bench_serving --backend sglang --num-prompts 200"
READY = "The server is fired up and ready to roll!"


def _summary(output_tps: float, accept: float | None = None) -> str:
    return ("============ Serving Benchmark Result ============\n"
            "Backend:                                 sglang\n"
            "Successful requests:                     200\n"
            f"Output token throughput (tok/s):         {output_tps:.2f}\n"
            + (f"Accept length:                           {accept:.2f}\n" if accept else "")
            + "==================================================\n")


def _analyze(tmp_path, calls):
    w = _Writer("9a1b0000-0000-4000-8000-00000000b039", None, datetime(2026, 3, 5, 9, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 made serving slower on gpu01, find out why.")
    for command, output, exit_code in calls:
        w.bash(command, output, exit_code=exit_code)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _sd501(analysis):
    return [(f.evidence, f.host) for f in analysis.findings if f.code == "SD501"]


def test_the_plain_servers_benchmark_is_the_baseline(tmp_path):
    a = _analyze(tmp_path, [(f"ssh gpu01 '{PLAIN}'", READY, 0), (f"ssh gpu01 '{BENCH}'", _summary(1500), 0),
                            (f"ssh gpu01 '{EAGLE3}'", READY, 0), (f"ssh gpu01 '{BENCH}'", _summary(1100), 0)])
    assert _sd501(a) == [(["[msg 8] 1100 tok/s measured vs 1500 tok/s baseline [msg 4]"], "gpu01")]
    # the readings keep their names: the baseline is what SD501 compares with, not a new metric
    assert [(m.name, m.value) for m in a.metrics] == [("throughput", 1500.0), ("throughput", 1100.0)]


def test_a_benchmark_sent_to_the_server_host_from_the_laptop(tmp_path):
    a = _analyze(tmp_path, [(f"ssh gpu01 '{PLAIN}'", READY, 0), (f"{BENCH} --host gpu01", _summary(1500), 0),
                            (f"ssh gpu01 '{EAGLE3}'", READY, 0), (f"{BENCH} --host gpu01", _summary(1100), 0)])
    assert [evidence for evidence, _ in _sd501(a)] == [["[msg 8] 1100 tok/s measured vs 1500 tok/s baseline [msg 4]"]]


def test_no_baseline_from_a_launch_that_failed_or_a_server_that_drafts(tmp_path):
    # the plain launch died (port taken): the benchmark measured the EAGLE-3 server still up
    a = _analyze(tmp_path, [(f"ssh gpu01 '{EAGLE3}'", READY, 0),
                            (f"ssh gpu01 '{PLAIN}'", "ERROR:    [Errno 98] address already in use", 1),
                            (f"ssh gpu01 '{BENCH}'", _summary(1500), 0), (f"ssh gpu01 '{BENCH}'", _summary(1100), 0)])
    assert _sd501(a) == []
    # an output with an accept length is a speculating server's, whatever the last launch said
    a = _analyze(tmp_path, [(f"ssh gpu01 '{PLAIN}'", READY, 0), (f"ssh gpu01 '{BENCH}'", _summary(1500, 3.1), 0),
                            (f"ssh gpu01 '{BENCH}'", _summary(1100, 2.2), 0)])
    assert _sd501(a) == []
    # a launch on another host says nothing of this one's server
    a = _analyze(tmp_path, [(f"ssh gpu02 '{PLAIN}'", READY, 0), (f"ssh gpu01 '{BENCH}'", _summary(1500), 0),
                            (f"ssh gpu01 '{BENCH}'", _summary(1100), 0)])
    assert _sd501(a) == []


def test_a_server_started_some_other_way_is_no_longer_the_plain_one(tmp_path):
    # a script put the EAGLE-3 server up: its benchmark is no baseline, and no later run is held to it
    a = _analyze(tmp_path, [(f"ssh gpu01 '{PLAIN}'", READY, 0), (f"ssh gpu01 '{BENCH}'", _summary(1500), 0),
                            ("ssh gpu01 'bash ~/start_eagle3.sh'", READY, 0), ("ssh gpu01 sleep 60", "", 0),
                            (f"ssh gpu01 '{BENCH}'", _summary(1100), 0), (f"ssh gpu01 '{BENCH}'", _summary(1050), 0)])
    assert [evidence for evidence, _ in _sd501(a)] == [["[msg 10] 1100 tok/s measured vs 1500 tok/s baseline [msg 4]",
                                                        "[msg 12] 1050 tok/s measured vs 1500 tok/s baseline [msg 4]"]]
    # waiting for the server to load changes nothing
    a = _analyze(tmp_path, [(f"ssh gpu01 '{PLAIN}'", READY, 0), ("ssh gpu01 sleep 60", "", 0),
                            (f"ssh gpu01 '{BENCH}'", _summary(1500), 0),
                            (f"ssh gpu01 '{EAGLE3}'", READY, 0), (f"ssh gpu01 '{BENCH}'", _summary(1100), 0)])
    assert [evidence for evidence, _ in _sd501(a)] == [["[msg 10] 1100 tok/s measured vs 1500 tok/s baseline [msg 6]"]]
