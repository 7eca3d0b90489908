"""Round 30 review: the postmortem's "first measured after the changes" (d0c3567b) and the
per-host baseline (bfc797ad), at their edges.

- A session that edited, measured 54.8 tok/s, edited again and measured 55 (no rise) was told
  "nothing was measured before the changes to compare it with": the second change was compared,
  and raised nothing ("No change in the session was followed by a rise" is the true line).
- gpu-a's first launch, then gpu-b's, then a reading on gpu-b: gpu-b's first launch was said a
  change ("first measured after relaunching the server"); only the session's first launch was none.
- "gpu-a: 160 tok/s baseline, gpu-b: 60 tok/s baseline": the 60's clause was found at the "60"
  inside "160", so gpu-a's 54.8 tok/s was compared with gpu-b's 60."""

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import LAUNCH, _bench, _decode_lines, _Writer

FIX = "ssh root@gpu-a \"sed -i 's/--speculative-num-steps {} /--speculative-num-steps {} /' /root/launch_eagle3.sh\""
BENCH = "ssh root@{} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
START = "ssh root@{} 'nohup " + LAUNCH.format(steps=1, tokens=2) + " > /root/sglang_server.log 2>&1 &'"


def _analyze(tmp_path, build):
    m = _Writer("8a1b0000-0000-4000-8000-0000000031a2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    seqs = build(m)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return analyze_path(path), seqs


def test_a_change_between_readings_that_raised_nothing_is_no_rise(tmp_path):
    def build(m):
        m.prompt("EAGLE-3 on gpu-a feels slow. Please find out why.")
        edit, _ = m.bash(FIX.format(1, 3), "")
        _, first = m.bash(BENCH.format("gpu-a"), _bench(54.8, 1.02))
        m.bash(FIX.format(3, 4), "")
        m.bash(BENCH.format("gpu-a"), _bench(55.0, 1.03))
        return edit, first
    a, (edit, first) = _analyze(tmp_path, build)
    view = postmortem_view(a)
    assert view["resolution"] == []
    # the first reading did come after a change
    assert f"First measured throughput (after the changes from [msg {edit}] on): 54.8 tok/s on gpu-a [msg {first}]." \
        in view["detection"]


def test_a_hosts_first_launch_is_no_change_after_another_hosts(tmp_path):
    def build(m):
        m.prompt("EAGLE-3 on gpu-a and gpu-b feels slow.")
        m.bash(START.format("gpu-a"), "")
        m.bash(START.format("gpu-b"), "")
        return m.bash(BENCH.format("gpu-b"), _bench(54.8, 1.02))[1]
    a, slow = _analyze(tmp_path, build)
    view = postmortem_view(a)
    assert view["resolution"] == []
    assert f"First measured throughput: 54.8 tok/s on gpu-b [msg {slow}]." in view["detection"]


@pytest.mark.parametrize("sep", [",", ";"])
def test_a_hosts_baseline_is_not_found_inside_a_longer_number(tmp_path, sep):
    def build(m):
        prompt = m.prompt(f"EAGLE-3 is slower than without speculation. gpu-a: 160 tok/s baseline{sep} gpu-b: 60 tok/s "
                          "baseline.")
        return prompt, m.bash("ssh root@gpu-a 'tail -n 6 /root/sglang_server.log'", _decode_lines(6, 54.8, 1.02))[1]
    a, (prompt, slow) = _analyze(tmp_path, build)
    (sd501,) = [f for f in a.findings if f.code == "SD501"]
    assert sd501.evidence == [f"[msg {slow}] 54.8 tok/s measured vs 160 tok/s baseline [msg {prompt}]"]
