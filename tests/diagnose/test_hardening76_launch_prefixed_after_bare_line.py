"""An engine variable on a bare line above the server that the server's own command sets again.

A pasted snippet often carries both: `SGLANG_ENABLE_SPEC_V2=1` on a line of its own (as a README
shows it) and the same variable as a prefix of the server command (`SGLANG_ENABLE_SPEC_V2=1 python3 -m
sglang.launch_server ...`), or given by `env A=1` or `docker run -e A=1`. bash passes a prefix
assignment to that command's environment whether or not the name is exported (bash(1) SIMPLE
COMMAND EXPANSION / ENVIRONMENT). Before: the bare line's "set on a line of its own above the server
and not exported" note was still told of the variable, and the user was sent to check
/proc/PID/environ for a value the command itself gives. Now the note is only told of a variable the
server's command does not set itself; the value the server runs with is the command's own.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVER = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
          "--speculative-eagle-topk 2 --speculative-num-draft-tokens 8\n")
NOTE = "(set on a line of its own above the server and not exported"


def _spec_v2_evidence(text: str) -> list[str]:
    facts = launch_step.parse({"source": "var", "cmdline": text, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return [e for f in launch_step.check(ctx) for e in f.evidence if e.startswith("SGLANG_ENABLE_SPEC_V2=1 with topk 2")]


@pytest.mark.parametrize("prefix", [
    "SGLANG_ENABLE_SPEC_V2=1 ",
    "env SGLANG_ENABLE_SPEC_V2=1 ",
    "docker run --gpus all -e SGLANG_ENABLE_SPEC_V2=1 lmsysorg/sglang:v0.5.6 ",
])
def test_the_server_command_sets_it_again_no_note(prefix: str) -> None:
    text = "SGLANG_ENABLE_SPEC_V2=1\n" + prefix + SERVER
    cfg = parse_launch_command(text)
    assert (cfg.env["SGLANG_ENABLE_SPEC_V2"], cfg.unexported) == ("1", ())
    (evidence,) = _spec_v2_evidence(text)
    assert NOTE not in evidence


def test_the_command_own_value_wins_over_the_bare_line() -> None:
    text = "SGLANG_ENABLE_SPEC_V2=0\nSGLANG_ENABLE_SPEC_V2=1 " + SERVER
    cfg = parse_launch_command(text)
    assert (cfg.env["SGLANG_ENABLE_SPEC_V2"], cfg.unexported) == ("1", ())
    (evidence,) = _spec_v2_evidence(text)
    assert NOTE not in evidence


def test_another_variable_on_the_prefix_keeps_the_note() -> None:
    # the prefix sets CUDA_VISIBLE_DEVICES only: SGLANG_ENABLE_SPEC_V2 still comes from the bare line
    text = "SGLANG_ENABLE_SPEC_V2=1\nCUDA_VISIBLE_DEVICES=0 " + SERVER
    cfg = parse_launch_command(text)
    assert cfg.unexported == ("SGLANG_ENABLE_SPEC_V2",)
    (evidence,) = _spec_v2_evidence(text)
    assert evidence.startswith("SGLANG_ENABLE_SPEC_V2=1 with topk 2 " + NOTE)
