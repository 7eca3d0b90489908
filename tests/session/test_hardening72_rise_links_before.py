"""The Resolution links the reading a rise was from, not only the one it rose to.

"Throughput rose from 54.8 to 96.8 tok/s on 10.1.230.174 [msg 16] after ..." linked the after
reading alone: where 54.8 tok/s was read, a reviewer had to find in the timeline (every claim of
the postmortem links its message). The rendered line now says where: "... 54.8 tok/s was read at
[msg 9]." (the line itself, pinned by many tests, is as it was; the rise from a throughput the
user reported links that report already, and gets nothing more)."""

from __future__ import annotations

import re

from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.test_hardening7_postmortem import GPU, _analyze, _bench, _session

LAUNCH = ("nohup python -m sglang.launch_server --model-path /models/Kimi-K2.5 --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/kimi-k2.5-eagle3 --speculative-num-steps {} "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens {} --tp 8 --port 30000 > /root/sglang.log 2>&1 &")
BENCH = f"ssh root@{GPU} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"


def _story(tmp_path, readings: tuple[float, ...]):
    m = _session()
    m.prompt("EAGLE-3 for Kimi-K2.5 on 10.1.230.174 is slow against a 90 tok/s baseline.")
    seqs = [m.bash(BENCH, _bench(value, 1.02))[1] for value in readings]
    m.bash(f"ssh root@{GPU} \"sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' "
           "/root/launch_eagle3.sh\"", "")
    m.bash(f"ssh root@{GPU} '{LAUNCH.format(3, 4)}'", "")
    _, risen = m.bash(BENCH, _bench(96.8, 3.41))
    return _analyze(tmp_path, m), seqs, risen


def test_the_reading_it_rose_from_is_linked(tmp_path) -> None:
    analysis, (before,), risen = _story(tmp_path, (54.8,))
    view = postmortem_view(analysis)
    assert view["resolution_read_before"] == [f"54.8 tok/s was read at [msg {before}]."]
    md = render_postmortem(analysis, "md")
    (line,) = [x for x in md.split("## Resolution\n\n")[1].split("\n\n")[0].splitlines()]
    assert line.startswith(f"- Throughput rose from 54.8 to 96.8 tok/s on {GPU} [[msg {risen}]](#msg-{risen}) after "), line
    assert line.endswith(f"). 54.8 tok/s was read at [[msg {before}]](#msg-{before}).")
    assert f'<a id="msg-{before}"></a>' in md  # its supporting entry
    html = render_postmortem(analysis, "html")
    assert f' 54.8 tok/s was read at <a href="#msg-{before}">[msg {before}]</a>.</li>' in html, re.findall(
        r"<li>Throughput rose.*?</li>", html)


def test_the_best_reading_before_is_the_one_linked(tmp_path) -> None:
    # a rise is from the best reading before it (_rises: best_before), not the last
    analysis, (first, second), _ = _story(tmp_path, (60.5, 54.8))
    assert postmortem_view(analysis)["resolution_read_before"] == [f"60.5 tok/s was read at [msg {first}]."]
    assert f"60.5 tok/s was read at [[msg {first}]](#msg-{first})." in render_postmortem(analysis, "md")
    assert second != first
