"""Round 30: the postmortem of a session that debugged two hosts, each with its own baseline.

The user reports "gpu-a: 90 tok/s baseline; gpu-b: 60 tok/s baseline"; the agent measures
EAGLE-3 on both (54.8 and 48 tok/s), fixes gpu-a, then gpu-b (96.8 and 70 tok/s). Before:
- SD501 compared gpu-a's 54.8 tok/s with gpu-b's 60 tok/s baseline (the last one said);
- the Impact table had gpu-b's rows only, and Resolution told gpu-b's rise alone, crediting it
  with gpu-a's edit as well ("rose from 48 to 70 tok/s on gpu-b after <gpu-a's sed> [msg 5],
  <gpu-b's sed> [msg 9]")."""

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import _bench, _decode_lines, _Writer

FIX = "ssh root@{} \"sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch_eagle3.sh\""
# one request at a time, as the Decode batch lines (#running-req: 1) it is compared with
BENCH = "ssh root@{} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64 --max-concurrency 1'"


def _two_hosts(tmp_path):
    m = _Writer("8a1b0000-0000-4000-8000-0000000030a2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    prompt = m.prompt("EAGLE-3 is slower than without speculation on gpu-a and gpu-b. "
                      "gpu-a: 90 tok/s baseline; gpu-b: 60 tok/s baseline.")
    seqs = {"prompt": prompt}
    _, seqs["slow_a"] = m.bash("ssh root@gpu-a 'tail -n 6 /root/sglang_server.log'", _decode_lines(6, 54.8, 1.02))
    _, seqs["slow_b"] = m.bash("ssh root@gpu-b 'tail -n 6 /root/sglang_server.log'", _decode_lines(6, 48.0, 1.05))
    seqs["fix_a"], _ = m.bash(FIX.format("gpu-a"), "")
    _, seqs["fast_a"] = m.bash(BENCH.format("gpu-a"), _bench(96.8, 3.41))
    seqs["fix_b"], _ = m.bash(FIX.format("gpu-b"), "")
    _, seqs["fast_b"] = m.bash(BENCH.format("gpu-b"), _bench(70.0, 3.2))
    m.say("Both hosts are above their baselines now.")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return analyze_path(path), seqs


def test_each_host_is_compared_with_its_own_baseline(tmp_path):
    a, s = _two_hosts(tmp_path)
    (sd501,) = [f for f in a.findings if f.code == "SD501"]
    assert sd501.evidence == [f"[msg {s['slow_a']}] 54.8 tok/s measured vs 90 tok/s baseline [msg {s['prompt']}]",
                              f"[msg {s['slow_b']}] 48 tok/s measured vs 60 tok/s baseline [msg {s['prompt']}]"]


def test_each_host_has_its_impact_rows_and_its_own_resolution(tmp_path):
    a, s = _two_hosts(tmp_path)
    view = postmortem_view(a)
    tput = [(r["host"], r["before"], r["before_seq"], r["after"], r["after_seq"])
            for r in view["impact"]["rows"] if r["name"] == "throughput"]
    assert tput == [("gpu-a", 54.8, s["slow_a"], 96.8, s["fast_a"]), ("gpu-b", 48.0, s["slow_b"], 70.0, s["fast_b"])]
    assert view["impact"]["throughput"]["host"] == "gpu-b"  # the headline: the last host read
    # which host the summary's headline is, where two were measured (was said of none)
    assert (f"Throughput on gpu-b went from 48 tok/s [msg {s['slow_b']}] to 70 tok/s [msg {s['fast_b']}] against a "
            f"60 tok/s baseline [msg {s['prompt']}].") in view["summary"]
    sed = "`sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch_eagle3.sh`"
    assert view["resolution"] == [
        f"Throughput rose from 54.8 to 96.8 tok/s on gpu-a [msg {s['fast_a']}] after {sed} [msg {s['fix_a']}].",
        f"Throughput rose from 48 to 70 tok/s on gpu-b [msg {s['fast_b']}] after {sed} [msg {s['fix_b']}]."]
    md = render_postmortem(a, "md")
    assert (f"| throughput | 54.8 tok/s [[msg {s['slow_a']}]](#msg-{s['slow_a']}) | 96.8 tok/s "
            f"[[msg {s['fast_a']}]](#msg-{s['fast_a']}) | 2 | gpu-a |") in md
    # every claim links to an entry that exists
    for ref in {int(n) for n in __import__("re").findall(r"\(#msg-(\d+)\)", md)}:
        assert f'<a id="msg-{ref}"></a>' in md
