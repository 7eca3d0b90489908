"""An engineer's shell log that read the server's flags, relaunched it with the steps the
draft was trained for and benchmarked it again: the postmortem's "What went well" said
"(nothing recognised)" (a shell log states no hypothesis to confirm), though the fix was
measured, not assumed. The last rise the Resolution tells is named there."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

_DECODE = ("[2026-11-28 09:12:0{i} TP0] Decode batch, #running-req: 1, #token: 812, token usage: 0.01, accept len: "
           "1.41, accept rate: 0.41, cuda graph: True, gen throughput (token/s): 41.20, #queue-req: 0")
_LAUNCH = ("python3 -m sglang.launch_server --model-path /models/target --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path /models/draft --speculative-num-steps {steps} --port 30000")


def _log(path: Path, after: str) -> None:
    path.write_text(
        "root@h100-07:~# tail -n 2 /var/log/sglang/server.log\n" + "\n".join(_DECODE.format(i=i) for i in (1, 5)) + "\n"
        "root@h100-07:~# pkill -f sglang.launch_server\n"
        f"root@h100-07:~# nohup {_LAUNCH.format(steps=3)} > /var/log/sglang/server.log 2>&1 &\n[1] 48213\n"
        "root@h100-07:~# python3 -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 50 --max-concurrency 1\n"
        "============ Serving Benchmark Result ============\n"
        f"Output token throughput (tok/s):         {after}\n"
        "==================================================\n", encoding="utf-8")


def test_a_fix_measured_again_went_well(tmp_path: Path) -> None:
    path = tmp_path / "h100-07.log"
    _log(path, "73.44")
    view = postmortem_view(analyze_path(path))
    assert view["went_well"] == [
        "The change was measured again: throughput rose from 41.2 to 73.44 tok/s on h100-07 [msg 3] after "
        "relaunching the server with `--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/draft "
        "--speculative-num-steps 3` [msg 2]."]


def test_a_change_that_raised_nothing_is_no_success(tmp_path: Path) -> None:
    path = tmp_path / "h100-07.log"
    _log(path, "41.00")
    assert postmortem_view(analyze_path(path))["went_well"] == []
