"""Round 30: the postmortem of a session whose only throughput reading came after the fix.

The agent finds --speculative-num-steps 1, edits the launch script, relaunches and measures
96.8 tok/s: nothing was measured before. The postmortem said "No change in the session was
followed by a rise in measured throughput" (as if the fix did nothing) and detected the incident
by "First measured throughput: 96.8 tok/s", the fixed server's. Now both say the reading came
after the changes. A session that starts its server, then measures, is unchanged: a first
launch is no change."""

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import GPU, LAUNCH, SSH, _bench, _Writer

BENCH = f"{SSH} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
EDIT = f"{SSH} \"sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch_eagle3.sh\""


def _analyze(tmp_path, m):
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _session():
    return _Writer("8a1b0000-0000-4000-8000-0000000030a1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))


def test_a_reading_only_after_the_fix_is_said_to_be_after_it(tmp_path):
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} feels slow. Please find out why.")
    m.bash(f"{SSH} 'ps -eo pid,args | grep [l]aunch_server'", "4242 " + LAUNCH.format(steps=1, tokens=2))
    edit, _ = m.bash(EDIT, "")
    m.bash(f"{SSH} 'nohup {LAUNCH.format(steps=3, tokens=4)} > /root/sglang_server.log 2>&1 &'", "")
    _, fixed = m.bash(BENCH, _bench(96.8, 3.41))
    a = _analyze(tmp_path, m)
    view = postmortem_view(a)
    assert view["resolution"] == [
        "Throughput was first measured after `sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' "
        f"/root/launch_eagle3.sh` [msg {edit}]: 96.8 tok/s on {GPU} [msg {fixed}]; nothing was measured before the "
        "changes to compare it with."]
    assert f"First measured throughput (after the changes from [msg {edit}] on): 96.8 tok/s on {GPU} [msg {fixed}]." \
        in view["detection"]
    assert "No change in the session was followed by a rise" not in render_postmortem(a, "md")


def test_a_server_started_then_measured_is_no_change(tmp_path):
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} feels slow. Please find out why.")
    m.bash(f"{SSH} 'nohup {LAUNCH.format(steps=1, tokens=2)} > /root/sglang_server.log 2>&1 &'", "")
    _, slow = m.bash(BENCH, _bench(54.8, 1.02))
    view = postmortem_view(_analyze(tmp_path, m))
    assert view["resolution"] == []
    assert f"First measured throughput: 54.8 tok/s on {GPU} [msg {slow}]." in view["detection"]
