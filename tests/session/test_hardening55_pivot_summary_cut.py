"""analyze: a pivot's summary cuts the error that prompted it after a word, and says it was cut.

A benchmark against a server that had died printed urllib3's 300-character ConnectionError; the
agent turned to the server's log. pivots[].summary (and the postmortem's timeline row, and the
phase's pivot line) read "After requests.exceptions.ConnectionError: HTTPConnectionPool(host=
'localhost', port=30000): Max retries exceeded with url: /v1/models (Caused by
NewConnectionError(' [msg 9], moved from ...": the error cut at column 160, inside a word and
with nothing to say so. It is now cut after a whole word, with "…".
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer, _bench

BENCH = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64"
REFUSED = ("requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=30000): Max retries "
           "exceeded with url: /v1/models (Caused by NewConnectionError('<urllib3.connection.HTTPConnection "
           "object at 0x7f2c>: Failed to establish a new connection: [Errno 111] Connection refused'))")


def test_the_error_in_a_pivot_summary_is_cut_after_a_word(tmp_path):
    w = _Writer("55550000-0000-4000-8000-0000000000a9", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 throughput on this box, please.")
    for _ in range(3):
        w.bash(BENCH, _bench(96.8, 2.9), text="Benchmark.")
    refused = w.bash(BENCH, REFUSED, exit_code=1, text="Benchmark.")[1]
    w.bash("tail -20 /tmp/server.log", "torch.OutOfMemoryError: CUDA out of memory.", text="Did the server die?")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    (pivot,) = analyze_path(path).pivots
    assert pivot.summary.startswith(
        "After requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=30000): Max retries "
        "exceeded with url: /v1/models (Caused by…"
        f" [msg {refused}], moved from benchmarking to reading logs: tail -20 /tmp/server.log"), pivot.summary
