"""The postmortem's Detection names the session's first throughput reading, whichever host
it was read on.

Without a baseline, Detection says "First measured throughput: ..." from the headline impact
row, which is the row of the host read last. A session that measured the slow gpu-a first and
then a healthy gpu-b said "First measured throughput: 96.8 tok/s on gpu-b": the reading that
detected the incident (54.8 tok/s on gpu-a, read first) was not the one named, and the
number named was the one that looked healthy.
"""

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _bench, _Writer

BENCH = "ssh root@{} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"


def _analyze(tmp_path, build):
    m = _Writer("8a1b0000-0000-4000-8000-0000000038a1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    seqs = build(m)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return analyze_path(path), seqs


def test_detection_names_the_first_hosts_reading_not_the_last_hosts(tmp_path):
    def build(m):
        m.prompt("EAGLE-3 on gpu-a feels slow. Please find out why.")
        _, slow = m.bash(BENCH.format("gpu-a"), _bench(54.8, 1.02))
        _, healthy = m.bash(BENCH.format("gpu-b"), _bench(96.8, 3.1))
        return slow, healthy
    a, (slow, healthy) = _analyze(tmp_path, build)
    view = postmortem_view(a)
    firsts = [line for line in view["detection"] if line.startswith("First measured throughput")]
    assert firsts == [f"First measured throughput: 54.8 tok/s on gpu-a [msg {slow}]."]


def test_one_host_read_twice_still_names_its_first_reading(tmp_path):
    def build(m):
        m.prompt("EAGLE-3 on gpu-a feels slow. Please find out why.")
        _, first = m.bash(BENCH.format("gpu-a"), _bench(54.8, 1.02))
        m.bash(BENCH.format("gpu-a"), _bench(55.1, 1.03))
        return first
    a, first = _analyze(tmp_path, build)
    firsts = [line for line in postmortem_view(a)["detection"] if line.startswith("First measured throughput")]
    assert firsts == [f"First measured throughput: 54.8 tok/s on gpu-a [msg {first}]."]
