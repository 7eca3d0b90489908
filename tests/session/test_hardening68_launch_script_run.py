"""A launch script written at the start (`cat > /root/launch_eagle.sh <<'EOF'` with `python -m
sglang.launch_server ... --speculative-algorithm EAGLE3`), a first EAGLE-3 server and its benchmark, then
`bash /root/launch_eagle.sh` and a benchmark that read twice as much: the Resolution was empty
(or credited the script's writing, before the first reading, as if nothing were read before it),
since running a script is of kind "other" (or "stop_process" behind a `pkill`), no change. A
script the session wrote with a server launch in it is a relaunch when run, as a typed
`launch_server` is; one that launches nothing, or one never seen written, stays no change."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.test_hardening67_install_folder import _BENCH, _BENCH_CMD, _session

_EAGLE = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --port 30000")
_WRITE = f"cat > /root/launch_eagle.sh <<'EOF'\n#!/bin/bash\n{_EAGLE} --speculative-eagle-topk 4\nEOF"
_FIRST = f"{_EAGLE} --speculative-eagle-topk 1 > /tmp/s.log 2>&1 &"


def _resolution(tmp_path: Path, write: str, run: str) -> list[str]:
    path = _session(tmp_path / "s.jsonl", [(write, "", "/root"), (_FIRST, "", "/root"),
                                           (_BENCH_CMD, _BENCH.format("60.5"), "/root"), (run, "", "/root"),
                                           (_BENCH_CMD, _BENCH.format("120.3"), "/root")])
    return postmortem_view(analyze_path(path))["resolution"]


@pytest.mark.parametrize("run", [
    "bash /root/launch_eagle.sh > /tmp/e.log 2>&1 &",
    "nohup ./launch_eagle.sh > /tmp/e.log 2>&1 &",
    "pkill -f sglang; sleep 5; bash launch_eagle.sh > /tmp/e.log 2>&1 &",
])
def test_running_a_launch_script_the_session_wrote_is_the_change(tmp_path: Path, run: str) -> None:
    assert _resolution(tmp_path, _WRITE, run) == [f"Throughput rose from 60.5 to 120.3 tok/s [msg 10] after `{run}` [msg 7]."]


@pytest.mark.parametrize("write, run", [
    ("cat > /root/launch_eagle.sh <<'EOF'\n#!/bin/bash\nnvidia-smi\nEOF", "bash /root/launch_eagle.sh"),  # no launch
    (_WRITE, "bash /root/other.sh"),  # another script, never seen
    (_WRITE, "bash -c 'echo launch_eagle.sh'"),  # runs no script
])
def test_a_script_not_seen_launching_a_server_is_no_change(tmp_path: Path, write: str, run: str) -> None:
    # no rise told: what the Resolution has is the sentence on the first reading, the run not in it
    [said] = _resolution(tmp_path, write, run)
    assert said.startswith("Throughput was first measured after `cat > /root/launch_eagle.sh") and "[msg 7]" not in said
