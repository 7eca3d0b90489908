"""postmortem: the Resolution tells the repair script run on the served draft, not only the relaunch.

An agent finds d2t holds absolute ids, runs `python /root/fix_d2t.py --draft /models/l31-eagle3
--to-offsets`, relaunches the server with that draft and measures 118.2 -> 201.5 tok/s. The
Resolution said the rise came "after relaunching the server with ..." only: the rewrite of the
draft that raised it was left out (a python command is no edit or launch). A script named for a
repair (fix_, set_, convert_, patch_, ...) run on a checkpoint path a later launch serves is now
one of the changes told; a read of that checkpoint (`python -c 'torch.load(...)'`) and a repair
script on a path the server does not load are not.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer, _bench

H = "ssh ubuntu@gpu07"
BENCH = f"{H} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 32'"
LAUNCH = ("python -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/l31-eagle3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 4 --port 30000")
FIX = "python /root/fix_d2t.py --draft /models/l31-eagle3 --to-offsets"


def _resolution(tmp_path, script: str) -> str:
    w = _Writer("59590000-0000-4000-8000-0000000000e2", None, datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu07 gives accept length ~1.1 with our new draft; baseline is 140 tok/s.")
    w.bash(BENCH, _bench(118.2, 1.12))
    w.bash(f"{H} \"python -c 'import torch; print(torch.load(\\\"/models/l31-eagle3/d2t.pt\\\")[:8])'\"",
           "tensor([0, 0, 0, 1, 1, 1, 2, 2])")
    w.bash(f"{H} '{script}'", "rewrote d2t.pt")
    w.bash(f"{H} 'pkill -f sglang.launch_server; nohup {LAUNCH} > /root/sglang.log 2>&1 &'", "")
    w.bash(BENCH, _bench(201.5, 3.05))
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    md = render_postmortem(analyze_path(path), "md")
    return md[md.index("## Resolution"):md.index("## Lessons learned")]


def test_the_repair_script_is_told_before_the_relaunch(tmp_path):
    said = _resolution(tmp_path, FIX)
    assert "rose from 118.2 to 201.5 tok/s" in said
    assert f"`{FIX}`" in said and said.index("fix_d2t.py") < said.index("relaunching the server"), said
    assert "torch.load" not in said


def test_a_repair_script_on_another_path_is_not(tmp_path):
    said = _resolution(tmp_path, "python /root/fix_d2t.py --draft /scratch/old-draft --to-offsets")
    assert "rose from 118.2 to 201.5 tok/s" in said and "fix_d2t.py" not in said
