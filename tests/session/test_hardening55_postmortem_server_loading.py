"""postmortem: a benchmark refused by the server the agent had just launched is waiting, not a failure.

The agent starts its server in the background and runs the benchmark at once (or retries it with
a `sleep 30;` before it) while the weights load: "Connection refused", "Cannot connect to host".
The postmortem named that refusal the incident's "First error" (before the real crash), listed
it under "What went wrong", and a retried benchmark was "The same failing command ran 3 times"
with the action item "Read the error before re-running". Health polls had been told apart
already; a refusal with the agent's launch among its last few other commands now is too: a
"poll failed" in the timeline, a loop of them "A poll failed 3 times while waiting", and the
first error is the first other one. A refusal long after the launch (the server died) is still
an error.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import OOM, _Writer, _bench

LAUNCH = ("nohup python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --port 30000 > /tmp/s.log 2>&1 &")
BENCH = "sleep 30; python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64"
REFUSED = ("aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host localhost:30000 ssl:default "
           "[Connect call failed ('127.0.0.1', 30000)]")


def _analyze(tmp_path, tries: int, *, between: int = 0, crash: bool = False):
    w = _Writer("55550000-0000-4000-8000-0000000000e1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Measure EAGLE-3 throughput on this box.")
    w.bash(LAUNCH, "", text="Launching the server.")
    for i in range(between):
        w.bash(BENCH, _bench(96.0 + i, 2.9), text="Benchmark.")
    refused = [w.bash(BENCH, REFUSED, exit_code=1, text="Benchmark.")[1] for _ in range(tries)]
    w.bash(BENCH, _bench(96.8, 2.9), text="Benchmark again.")
    crashed = w.bash("python /root/dump_hidden.py", OOM, exit_code=1, text="Dumping hidden states.")[1] if crash else None
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path), refused, crashed


def test_a_benchmark_refused_while_the_server_loads_is_no_first_error(tmp_path):
    a, (refused,), crashed = _analyze(tmp_path, 1, crash=True)
    view = postmortem_view(a)
    assert [line for line in view["detection"] if line.startswith("First error")] == \
        [f"First error: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total "
         f"capacity of 79.11 GiB [msg {crashed}] (main)."]
    assert not any("ClientConnectorError" in line for line in view["went_wrong"]), view["went_wrong"]
    md = render_postmortem(a, "md", redact=False)
    assert f"| [[msg {refused}]](#msg-{refused}) | " in md
    assert "| main | poll failed | aiohttp.client_exceptions.ClientConnectorError" in md


def test_a_benchmark_retried_while_the_server_loads_is_a_wait(tmp_path):
    a, refused, _ = _analyze(tmp_path, 3)
    view = postmortem_view(a)
    (loop,) = a.loops
    assert view["went_wrong"] == [
        f"A poll failed 3 times while waiting [msg {loop.first_seq}]…[msg {loop.last_seq}] (main): `{BENCH}` — "
        "aiohttp.client_exceptions.ClientConnectorError"]
    assert [i["action"] for i in view["action_items"] if i["source"].startswith("loop")] == \
        ["Wait on a condition instead of retrying `sleep 30; python -m sglang.bench_serving --backend sglang "
         "--port 30000…`"]


def test_a_refusal_long_after_the_launch_is_still_an_error(tmp_path):
    a, (refused,), _ = _analyze(tmp_path, 1, between=5)
    view = postmortem_view(a)
    assert [line for line in view["detection"] if line.startswith("First error")] == \
        [f"First error: aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host localhost:30000 "
         f"ssl:default [Connect call failed ('127.0.0.1', 30000)] [msg {refused}] (main)."]
    assert f"1× aiohttp.client_exceptions.ClientConnectorError [msg {refused}]" in view["went_wrong"]


def test_a_refusal_on_another_host_than_the_launch_is_still_an_error(tmp_path):
    w = _Writer("55550000-0000-4000-8000-0000000000e2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Measure EAGLE-3 throughput on gpu02.")
    w.bash(f"ssh gpu02 '{LAUNCH}'", "", text="Launching the server on gpu02.")
    refused = w.bash(f"ssh gpu01 '{BENCH}'", REFUSED, exit_code=1, text="Benchmark.")[1]
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    view = postmortem_view(analyze_path(path))
    assert [line for line in view["detection"] if line.startswith("First error")] == \
        [f"First error: aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host localhost:30000 "
         f"ssl:default [Connect call failed ('127.0.0.1', 30000)] [msg {refused}] (main)."]
