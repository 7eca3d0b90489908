"""`vllm serve --served-model-name qwen qwen3 --port 8000 Qwen/Qwen3-8B ...`: several served names.

ModelConfig.served_model_name is a list field: argparse gives --served-model-name every word up to the
next flag (nargs "+"), and the positional model_tag takes the word left over, Qwen/Qwen3-8B (CPython
argparse: Namespace(model_tag='Qwen/Qwen3-8B', served_model_name=['qwen', 'qwen3'])).

Before: the audit's flag reader gave the names one word and read the second name, `qwen3`, as the
target model (and on an unknown release said "the model (qwen3) is not the first word"). Now: the
model is the positional the names leave; where they take every word (`--served-model-name a b MODEL`,
the model eaten) the last of them, the model the command was written for.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SPEC = ("--speculative-config '{\"method\": \"eagle3\", \"model\": \"AngelSlim/Qwen3-8B_eagle3\", "
        "\"num_speculative_tokens\": 3}'")


@pytest.mark.parametrize("command", [
    f"vllm serve --served-model-name qwen qwen3 --port 8000 Qwen/Qwen3-8B {SPEC}",
    f"vllm serve --served_model_name qwen qwen3 --max-model-len 8192 Qwen/Qwen3-8B {SPEC}",
    f"vllm serve --served-model-name qwen qwen3 Qwen/Qwen3-8B {SPEC}",  # eaten: the model meant
    f"vllm serve Qwen/Qwen3-8B --served-model-name qwen qwen3 {SPEC}",
])
def test_the_target_is_the_model_not_a_name(command: str) -> None:
    cfg = parse_launch_command(command)
    assert (cfg.target_model, cfg.draft_model) == ("Qwen/Qwen3-8B", "AngelSlim/Qwen3-8B_eagle3")


def test_the_release_unknown_names_the_model() -> None:
    facts = launch_step.parse({"source": "server_cmdline var",
                               "cmdline": f"vllm serve --served-model-name qwen qwen3 --port 8000 Qwen/Qwen3-8B {SPEC}"})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    findings = launch_step.check(ctx)
    assert facts["launch"]["target_model"] == "Qwen/Qwen3-8B"
    assert [f.code for f in findings] == ["SD102"]
    assert findings[0].evidence[0].startswith(
        "`vllm serve --served-model-name ...` (--served-model-name written, no --model): the model (Qwen/Qwen3-8B) "
        "is not the first word after `serve`: ")
    assert "before 0.17.0 argparse reads the model wherever it stands; write the model first: " in (
        findings[0].evidence[0])
