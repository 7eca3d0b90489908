"""distill: a command typed at a container's prompt (a terminal log's ``docker exec -it sglang bash``,
then the command) became ``ssh root@gpu01 'CMD'``, run on the host outside the container: the
config it read, the packages it listed, the GPU it saw were the host's. The step now runs it in
the container again, from the host: ``docker exec sglang CMD``, through ``sh -c`` where the line
has shell syntax (the container's shell read it; exec runs its words with no shell in between)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.playbook.loader import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from spec_debug.session.records import CommandRecord

LOG = """me@laptop:~$ ssh root@gpu01
Last login: Sat Nov 15 09:12:01 2025 from 10.0.0.5
root@gpu01:~# docker exec -it sglang bash
root@5e6f7a8b9c0d:/sgl-workspace# nvidia-smi --query-gpu=name,memory.used --format=csv
name, memory.used [MiB]
NVIDIA A100-SXM4-80GB, 0 MiB
root@5e6f7a8b9c0d:/sgl-workspace# python -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct \
--port 30000 --speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B \
--speculative-num-steps 5 --speculative-num-draft-tokens 8 --speculative-eagle-topk 4
  File "/sgl-workspace/sglang/python/sglang/srt/models/llama_eagle3.py", line 88, in forward
    hidden_states = torch.cat([embeds, hidden_states], dim=-1)
RuntimeError: Sizes of tensors must match except in dimension 1. Expected size 6 but got size 8 for tensor number 1.
root@5e6f7a8b9c0d:/sgl-workspace# cat /models/Llama-3.1-8B-Instruct/config.json | grep hidden_size
  "hidden_size": 4096,
root@5e6f7a8b9c0d:/sgl-workspace# exit
exit
root@gpu01:~# exit
logout
Connection to gpu01 closed.
"""


def test_a_command_typed_in_a_container_runs_in_it_again(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    assert [s["run"] for s in doc["steps"]] == ["docker exec sglang sh -c 'cat {{ config_json }} | grep hidden_size'"]
    assert doc["vars"]["config_json"] == "/models/Llama-3.1-8B-Instruct/config.json"


def _record(command: str, container: str | None, inner: str | None = None) -> CommandRecord:
    return CommandRecord(session="s", seq=1, agent="main", host="gpu01", command=command, exit_code=0,
                         is_error=False, category="other", inner=inner or command, container=container)


@pytest.mark.parametrize(("command", "container", "run"), [
    ("nvidia-smi -L", "docker:sglang", "docker exec sglang nvidia-smi -L"),
    ("pip list | grep sglang", "docker:sglang", "docker exec sglang sh -c 'pip list | grep sglang'"),
    ("echo $CUDA_VISIBLE_DEVICES", "docker:5e6f7a8b9c0d", "docker exec 5e6f7a8b9c0d sh -c 'echo $CUDA_VISIBLE_DEVICES'"),
    ("docker exec sglang nvidia-smi", "docker:sglang", None),  # it reaches the container itself
    ("nvidia-smi", "pod:sglang-0", None),
])
def test_the_exec_line(command: str, container: str, run: str | None) -> None:
    from spec_debug.session.distill import _typed_in_container

    assert _typed_in_container(_record(command, container)) == run
