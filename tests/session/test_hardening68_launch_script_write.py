"""A launch script rewritten through the shell (`echo '... launch_server ... --speculative-eagle-topk
4' > launch.sh`), the server relaunched with `bash launch.sh`, throughput up: the Resolution was
empty ("No change in the session was followed by a rise"), as the write was of kind "other" and
no config file. It now credits the rewrite, as it credits a `sed -i` of the same script."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer, _bench

BENCH = "python3 -m sglang.bench_serving --backend sglang --num-prompts 50 --port 30000"


def _resolution(tmp_path, write: str, relaunch: str) -> list[str]:
    w = _Writer("s1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 throughput is low on this box, please fix it")
    w.bash(BENCH, _bench(54.8, 1.6))
    w.bash(write, "")
    w.bash(relaunch, "")
    w.bash(BENCH, _bench(91.2, 3.1))
    path = tmp_path / "s1.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    return postmortem_view(analyze_path(path))["resolution"]


@pytest.mark.parametrize("write, shown", [
    ("echo 'python3 -m sglang.launch_server --model-path m --speculative-eagle-topk 4' > launch.sh",
     "`echo 'python3 -m sglang.launch_server --model-path m --speculative-eagle-topk 4' > launch.sh`"),
    ("printf 'vllm serve m --speculative-config x\\n' | tee /root/serve.sh",
     "`printf 'vllm serve m --speculative-config x\\n' | tee /root/serve.sh`"),
])
@pytest.mark.parametrize("relaunch", ["bash launch.sh", "sudo systemctl restart sglang"])
def test_a_launch_script_written_by_echo_is_the_change(tmp_path, write, shown, relaunch):
    # a service restart is told beside the write (hardening69); the script's run is told by its writing
    restart = f", `{relaunch}` [msg 5]" if "systemctl" in relaunch else ""
    assert _resolution(tmp_path, write, relaunch) == [
        f"Throughput rose from 54.8 to 91.2 tok/s [msg 8] after {shown} [msg 3]{restart}."]


@pytest.mark.parametrize("write", ["echo 'hello' > notes.sh", "echo 'python3 -m sglang.launch_server' > notes.md",
                                   "echo 'python3 -m sglang.launch_server' > /dev/null"])
def test_a_write_that_is_no_launch_script_is_still_no_change(tmp_path, write):
    assert _resolution(tmp_path, write, "bash launch.sh") == []
