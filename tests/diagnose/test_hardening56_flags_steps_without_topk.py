"""SGLang EAGLE-3 commands that write --speculative-num-steps but not --speculative-eagle-topk
(a `docker run ... lmsysorg/sglang`, a `torchrun`, an `srun` line). SGLang auto-chooses only
when all three are unset; with the steps written the topk stays None and `_handle_eagle_family`
compares `speculative_eagle_topk > 1`: TypeError, the server does not start
(sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py at 004c82e; server_args.py
from 0.4.9 tests the topk first). The audit said only "set all three (or none)" and, beside it,
SD101 "effective: 1 step, topk None, None draft tokens verified", a cap on a server that never
runs. It now says the server does not start (SD102 as a startup refusal, no SD101). SGLang
0.4.5 .. 0.4.8 test page_size first (no comparison at page size 1): the old line stays there."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import REFUSED_AT_STARTUP
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
SERVER = (f"python3 -m sglang.launch_server --model-path {TARGET} --speculative-algorithm EAGLE3 "
          f"--speculative-draft-model-path {DRAFT} --speculative-num-steps 1 --host 0.0.0.0")
COMMANDS = [
    "docker run --gpus all --shm-size 32g -p 30000:30000 -v ~/.cache/huggingface:/root/.cache/huggingface "
    f"--ipc=host lmsysorg/sglang:latest {SERVER}",
    "torchrun --nproc_per_node 8 " + SERVER.replace("python3 ", "", 1),
    f"srun -N1 --gres=gpu:8 {SERVER}",
]


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    return launch_step.check(ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts))


@pytest.mark.parametrize("command", COMMANDS)
def test_steps_without_topk_is_a_server_that_does_not_start(command):
    found = _findings(command)
    assert [f.code for f in found] == ["SD102"], [(f.code, f.evidence) for f in found]
    [line] = found[0].evidence
    assert "--speculative-eagle-topk is not" in line and "the server does not start" in line, line
    assert found[0].title == REFUSED_AT_STARTUP
    assert not [f for f in found if "topk None" in " ".join(f.evidence)]


def test_a_release_that_skips_the_comparison_keeps_the_old_line():
    found = _findings(f"docker run --gpus all lmsysorg/sglang:v0.4.7.post1-cu124 {SERVER}")
    [budget] = [f for f in found if f.code == "SD102"]
    assert "does not start" not in budget.evidence[0], budget.evidence
    assert budget.title != REFUSED_AT_STARTUP
