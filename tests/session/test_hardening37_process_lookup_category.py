"""A check that the server still runs names its launch command without running it
(``ps aux | grep [s]glang.launch_server``, ``pgrep -af launch_server``). Any mention of the launch
module made the command a ``launch_server``: the pivot to it said "moved from probing the server to
launching the server", and distill, which leaves launches out of a playbook (they change the host),
dropped the very check the session pivoted to. A line is a launch only when a command of it that
runs something other than a lookup or a read names the server."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.shell import categorize
from tests.session.incident_story import _Writer

SID = "ab370000-0000-4000-8000-000000000001"


@pytest.mark.parametrize("command, kind", [
    ("ssh gpu01 'ps aux | grep [s]glang.launch_server'", "process"),
    ("ps -eo pid,args | grep sglang.launch_server", "process"),
    ("pgrep -af sglang.launch_server", "process"),
    ("kill $(pgrep -f launch_server)", "stop_process"),
    ("tail -f /var/log/sglang.log | grep launch_server", "logs"),
    ("cat launch_server.sh", "inspect_config"),
    # launches stay launches, wrapped or after a stop of the old server
    ("pkill -f sglang.launch_server; sleep 5; nohup python -m sglang.launch_server --model-path /m > s.log 2>&1 &",
     "launch_server"),
    ("CUDA_VISIBLE_DEVICES=0 python3 -m sglang.launch_server --model-path /m", "launch_server"),
    ("sudo -u svc bash -c 'python -m sglang.launch_server --model-path /m'", "launch_server"),
    ("docker run --gpus all lmsysorg/sglang python3 -m sglang.launch_server --model-path /m", "launch_server"),
    ("bash launch_server.sh", "launch_server"),
    ("vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000", "launch_server"),
])
def test_a_process_lookup_is_no_launch(command: str, kind: str) -> None:
    assert categorize(command) == kind


def test_the_check_a_session_pivoted_to_is_kept_by_distill(tmp_path: Path) -> None:
    w = _Writer(SID, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("The EAGLE-3 server on gpu01 stopped answering")
    w.bash("ssh gpu01 curl -sf localhost:30000/health",
           "curl: (7) Failed to connect to localhost port 30000: Connection refused", exit_code=7)
    w.bash("ssh gpu01 'ps aux | grep [s]glang.launch_server'", "", exit_code=1,
           text="Connection refused. Let me check whether the server process is still running.")
    w.bash("ssh gpu01 tail -n 3 /var/log/sglang.log", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
           text="No server process. Its log says why it died.")
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    analysis = analyze_path(path)
    doc = analysis.to_json()
    assert [(c["seq"], c["category"], c["host"]) for c in doc["commands"]] == [
        (1, "health", "gpu01"), (3, "process", "gpu01"), (5, "logs", "gpu01")]
    assert [(p["seq"], p["from_category"], p["to_category"]) for p in doc["pivots"]] == [(3, "health", "process")]
    steps = distill_playbook(analysis)["steps"]
    assert [(s["run"], s["provenance"]["seq"]) for s in steps] == [
        ("curl -sf localhost:30000/health", 1), ("ps aux | grep [s]glang.launch_server", 3)]
