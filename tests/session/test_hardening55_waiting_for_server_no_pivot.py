"""analyze: waiting for a server the agent just launched is no change of approach.

An agent starts its server in the background and runs the benchmark at once; the port refuses
the connection (the weights are still loading). It polls /health, or reads the log until "ready
to roll", then runs the benchmark again. pivots[] said "After ... Connection refused, moved from
benchmarking to probing the server", and the postmortem's segments opened a "Probing the server
(pivot after ...)" phase for the wait. A refused connection within a few commands of the agent's
own launch, followed by a look at the server (health, logs, its process, the GPUs), is now no
pivot. A refusal long after the launch (the server died) still is, as is any other error.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer, _bench

LAUNCH = ("nohup python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --port 30000 > /tmp/server.log 2>&1 &")
BENCH = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64"
REQUESTS = ("requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=30000): Max retries "
            "exceeded with url: /v1/models (Caused by NewConnectionError('<urllib3.connection.HTTPConnection "
            "object at 0x7f2c>: Failed to establish a new connection: [Errno 111] Connection refused'))")
AIOHTTP = ("aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host localhost:30000 ssl:default "
           "[Connect call failed ('127.0.0.1', 30000)]")
HEALTH = ("until curl -sf localhost:30000/health > /dev/null; do sleep 5; done; echo up", "up")
LOG = ("tail -5 /tmp/server.log", "[2026-03-02 08:01:10] INFO:     The server is fired up and ready to roll!")
PS = ("ps aux | grep [s]glang.launch_server", "root 4242 98.0 3.1 python -m sglang.launch_server --port 30000")


def _session(tmp_path, refused: str, wait: tuple[str, str], *, between: int = 0):
    w = _Writer("55550000-0000-4000-8000-0000000000b1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Measure EAGLE-3 throughput on this box.")
    w.bash(LAUNCH, "", text="Launching the server.")
    for i in range(between):
        w.bash(BENCH, _bench(96.0 + i, 2.9))
    w.bash(BENCH, refused, exit_code=1, text="Running the benchmark.")
    w.bash(*wait, text="The server is still loading the weights; waiting for it.")
    w.bash(BENCH, _bench(96.8, 2.9), text="Running the benchmark again.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("refused", [REQUESTS, AIOHTTP])
@pytest.mark.parametrize("wait", [HEALTH, LOG, PS])
def test_waiting_after_a_refused_benchmark_is_no_pivot(tmp_path, refused, wait):
    a = _session(tmp_path, refused, wait)
    assert [e.kind for e in a.errors] == ["connection"]
    assert a.pivots == []
    assert not any("pivot" in s.title for s in a.segments)


def test_a_refusal_long_after_the_launch_is_still_a_pivot(tmp_path):
    # five benchmarks ran against the server: the refusal says it died, and reading its log is
    # the agent turning from benchmarking to finding out why
    a = _session(tmp_path, REQUESTS, LOG, between=5)
    assert [p.to_category for p in a.pivots] == ["logs"]


def test_another_error_then_the_log_is_still_a_pivot(tmp_path):
    a = _session(tmp_path, "RuntimeError: CUDA error: an illegal memory access was encountered", LOG)
    assert [p.to_category for p in a.pivots] == ["logs"]


def test_a_refusal_on_another_host_than_the_launch_is_still_a_pivot(tmp_path):
    # the server launched on gpu02; gpu01's refused the health check: no wait for the new one
    # (test_hardening29_extract_launch_host: distill keeps gpu01's steps for it)
    w = _Writer("55550000-0000-4000-8000-0000000000b2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accepts almost nothing.")
    w.bash(f"ssh gpu02 '{LAUNCH}'", "", text="Launching the server on gpu02.")
    w.bash("ssh gpu01 'curl -sf http://localhost:30000/health'",
           "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused", exit_code=7)
    w.bash("ssh gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [p.to_category for p in analyze_path(path).pivots] == ["logs"]


def test_a_log_that_shows_the_server_died_loading_is_still_a_pivot(tmp_path):
    # the refused benchmark was no wait after all: the log the agent read ends in the server's
    # OOM; the pivot is kept, its phase starting at the log read with that read and its error in it
    w = _Writer("55550000-0000-4000-8000-0000000000b3", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Measure EAGLE-3 throughput on this box.")
    w.bash(LAUNCH, "", text="Launching the server.")
    refused = w.bash(BENCH, REQUESTS, exit_code=1, text="Running the benchmark.")[1]
    tail = w.bash("tail -5 /tmp/server.log", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
                  "GPU 0 has a total capacity of 79.11 GiB", text="Checking the server log.")[0]
    w.bash(LAUNCH.replace("--port", "--mem-fraction-static 0.8 --port"), "", text="Relaunching with less memory.")
    w.bash(BENCH, _bench(96.8, 2.9), text="Running the benchmark again.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(p.seq, p.trigger_seq, p.to_category) for p in a.pivots] == [(tail, refused, "logs")]
    first, second = a.segments
    assert (first.end_seq, first.commands, first.errors) == (tail - 1, 2, 1)
    assert (second.start_seq, second.title, second.commands, second.errors) == \
        (tail, f"Reading logs (pivot after [msg {refused}])", 3, 1)
