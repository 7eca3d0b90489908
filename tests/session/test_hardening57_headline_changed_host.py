"""postmortem: the Summary's throughput headline is the host the agent changed, not the host it
read last. An agent fixes the step count on gpu01 (60 -> 96.8 tok/s) and measures gpu03, an old
build it only compares with, before and after; nothing changed there. The headline was the last
host's: "Throughput on gpu03 went from 40 tok/s to 41 tok/s", the fix nowhere in the Summary. A
session that fixed gpu-a and then gpu-b still heads with gpu-b."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer, _bench

BENCH = "ssh {h} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
LAUNCH = ("ssh {h} 'python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps {n} --port 30000'")


def _summary(tmp_path, fix_both: bool) -> str:
    w = _Writer("57570000-0000-4000-8000-0000000000d2", None, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 serving is slow on gpu01.")
    w.bash(LAUNCH.format(h="gpu01", n=1), "The server is fired up and ready to roll!")
    w.bash(BENCH.format(h="gpu01"), _bench(60.0, 1.0))
    w.bash(BENCH.format(h="gpu03"), _bench(40.0, 1.0), text="Checking gpu03, which runs an old build.")
    w.bash(LAUNCH.format(h="gpu01", n=3), "The server is fired up and ready to roll!")
    w.bash(BENCH.format(h="gpu01"), _bench(96.8, 3.2))
    if fix_both:
        w.bash(LAUNCH.format(h="gpu03", n=3), "The server is fired up and ready to roll!")
    w.bash(BENCH.format(h="gpu03"), _bench(91.0 if fix_both else 41.0, 3.0 if fix_both else 1.0))
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    md = render_postmortem(analyze_path(path), "md")
    return md.split("## Summary", 1)[1].split("## Impact", 1)[0]


def test_the_headline_is_the_changed_host(tmp_path):
    summary = _summary(tmp_path, fix_both=False)
    assert "Throughput on gpu01 went from 60 tok/s" in summary and "96.8 tok/s" in summary
    assert "gpu03" not in summary


def test_of_two_changed_hosts_the_last_read_heads(tmp_path):
    summary = _summary(tmp_path, fix_both=True)
    assert "Throughput on gpu03 went from 40 tok/s" in summary and "91 tok/s" in summary
