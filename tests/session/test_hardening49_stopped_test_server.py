"""distill: a benchmark of a test server the session started beside the slow one and stopped
again is no step.

An agent tried three draft steps without touching the server reported slow: it started a
second EAGLE-3 server on port 30001, benchmarked it (no better: that reading started its change
of approach), and killed it. The distilled playbook kept the benchmark of port 30001 as a step,
and left the launch out (it changes the host): run against the host, the step found nothing
listening there. Such a benchmark is now left out, and distill says so. A benchmark of the
server that was there before the session, or of one the session started and left running
(the fixed production server), stays a step.
"""

from __future__ import annotations

from datetime import datetime, timezone

import yaml

from tests.conftest import run_cli
from tests.session.incident_story import _bench, _Writer

SERVER = ("python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 4")
BENCH = "python -m sglang.bench_serving --backend sglang --num-prompts 50"
CONFIG = ("ssh gpu01 'cat /models/e3/config.json'", '{"eagle_aux_hidden_state_layer_ids": [2, 30, 58]}')


def _distill(tmp_path, *runs: tuple[str, str, str]):
    w = _Writer("49c30000-0000-4000-8000-0000000049c3", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 serves 55 tok/s, baseline 90 tok/s. Find out why.")
    seqs = [w.bash(command, output, text=text)[0] for command, output, text in runs]
    session = tmp_path / "s.jsonl"
    session.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    out = tmp_path / "playbook.yaml"
    result = run_cli("distill", str(session), "-o", str(out))
    assert result.code == 0, result.stderr
    steps = [step["run"] for step in yaml.safe_load(out.read_text())["steps"]]
    return [run for run in steps if "bench_serving" in run], result.stderr, seqs


PRODUCTION = (f"ssh gpu01 '{BENCH} --port 30000'", _bench(55.0, 1.1), "Measuring the production server first.")
TEST_LAUNCH = (f"ssh gpu01 'nohup {SERVER} --port 30001 > /tmp/test.log 2>&1 &'", "",
               "Starting a test server with 3 steps on port 30001.")
TEST_BENCH = (f"ssh gpu01 '{BENCH} --port 30001'", _bench(56.0, 1.1), "Benchmarking the test server.")
READ_CONFIG = (*CONFIG, "Reading the draft config instead.")


def test_the_benchmark_of_a_killed_test_server_is_no_step(tmp_path):
    steps, said, seqs = _distill(tmp_path, PRODUCTION, TEST_LAUNCH, TEST_BENCH,
                                 ("ssh gpu01 'pkill -f \"port 30001\"'", "", "No better. Stopping the test server."),
                                 READ_CONFIG)
    assert steps == [f"{BENCH} --port 30000"]
    assert "left out 1 benchmark of a server the session started and stopped again: " \
           f"`python -m sglang.bench_serving --backend sglang --num-promp…` [msg {seqs[2]}]" in said


def test_other_ways_of_stopping_it(tmp_path):
    for i, stop in enumerate(["fuser -k 30001/tcp", "kill $(lsof -t -i:30001)", "lsof -ti:30001 | xargs kill -9",
                              "pkill -f sglang.launch_server"]):
        folder = tmp_path / str(i)
        folder.mkdir()
        steps, _, _ = _distill(folder, PRODUCTION, TEST_LAUNCH, TEST_BENCH,
                               (f"ssh gpu01 '{stop}'", "", "No better. Stopping it."), READ_CONFIG)
        assert steps == [f"{BENCH} --port 30000"], stop


def test_a_test_server_left_running_is_still_measured(tmp_path):
    steps, said, _ = _distill(tmp_path, PRODUCTION, TEST_LAUNCH, TEST_BENCH, READ_CONFIG)
    assert steps == [f"{BENCH} --port 30000", f"{BENCH} --port 30001"]
    assert "started and stopped" not in said


def test_the_relaunched_server_is_measured(tmp_path):
    # the slow server killed (`pkill -f sglang`) and started again with the fix: up at the end
    steps, _, _ = _distill(tmp_path, PRODUCTION,
                           ("ssh gpu01 'pkill -f sglang'", "", "Stopping the server to relaunch it."),
                           (f"ssh gpu01 'nohup {SERVER} --port 30000 > /tmp/s.log 2>&1 &'", "", "Relaunching."),
                           (f"ssh gpu01 '{BENCH} --port 30000'", _bench(56.0, 1.1), "Measuring again."),
                           READ_CONFIG)
    assert steps == [f"{BENCH} --port 30000"]


def test_the_server_there_before_the_session_is_measured_though_killed_at_the_end(tmp_path):
    steps, said, _ = _distill(tmp_path, PRODUCTION,
                              (f"ssh gpu01 '{BENCH} --port 30000'", _bench(55.5, 1.1), "Again."),
                              READ_CONFIG,
                              ("ssh gpu01 'pkill -f sglang'", "", "Stopping it for the night."))
    assert steps == [f"{BENCH} --port 30000"]
    assert "started and stopped" not in said
