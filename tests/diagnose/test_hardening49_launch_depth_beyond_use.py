"""`--speculative-num-steps 1000000000` (an extra digit, a byte count, a variable filled with the
wrong value) passed the launch-flag audit without a word, and the throughput model then built a
list of every one of the 10**9 positions to predict the chain (a hang). Such a depth, topk or
draft-token budget is now an SD102 line that says what and how to fix, and the model sums the
flat tail in closed form."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step, throughput_step
from spec_debug.diagnose.throughput import chain_accept_length
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_throughput_served_settings import DECODE

SGLANG = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
          "--speculative-num-steps {steps} --speculative-eagle-topk {topk} --speculative-num-draft-tokens {tokens}")
VLLM = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        "'{{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": {k}}}'")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts, launch_step.check(ctx)


def _sd102_lines(command: str) -> list[str]:
    _, findings = _findings(command)
    return [line for f in findings if f.code == "SD102" for line in f.evidence]


@pytest.mark.parametrize(("command", "said"), [
    (SGLANG.format(steps=10**9, topk=1, tokens=10**9 + 1), "--speculative-num-steps 1000000000 is far past any use"),
    (SGLANG.format(steps=3, topk=10**9, tokens=8), "--speculative-eagle-topk 1000000000 is far past any use"),
    (SGLANG.format(steps=5, topk=8, tokens=10**6), "--speculative-num-draft-tokens 1000000 is far past any use"),
    (VLLM.format(k=10**9), "num_speculative_tokens 1000000000 is far past any use"),
    (VLLM.format(k="1e9"), "num_speculative_tokens 1000000000 is far past any use"),
])
def test_a_depth_far_past_any_use_is_said(command, said):
    lines = _sd102_lines(command)
    [line] = [line for line in lines if line.startswith(said)]
    assert "serve the depth the draft was trained for" in line
    assert not any("--speculative-num-draft-tokens 1000000001" in other for other in lines)  # said once, as steps


@pytest.mark.parametrize("command", [SGLANG.format(steps=5, topk=8, tokens=64), SGLANG.format(steps=8, topk=1, tokens=9),
                                     VLLM.format(k=7)])
def test_ordinary_settings_say_nothing_of_it(command):
    assert not [line for line in _sd102_lines(command) if "far past any use" in line]


def test_the_throughput_model_predicts_a_huge_depth_at_once():
    assert chain_accept_length([0.8, 0.7], steps=10**9) == pytest.approx(1 + 0.8 + 0.56 + 0.56 * 0.7 / 0.3)
    assert chain_accept_length([0.8, 0.7], steps=5) == pytest.approx(1 + 0.8 + 0.56 * (1 + 0.7 + 0.49 + 0.343))
    assert chain_accept_length([1.0], steps=10) == 11.0


def test_the_throughput_step_finishes_on_such_a_launch():
    launch, _ = _findings(SGLANG.format(steps=10**9, topk=1, tokens=10**9 + 1))
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [DECODE.format(i=i) for i in range(3)], "args": {"baseline_tok_s": "90"}})
    reference = {"steps": 3, "reference": "target_argmax", "target_conditional_acceptance": [0.8, 0.7, 0.6]}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={**launch, "eval": {"reference": reference}, **facts})
    throughput_step.check(ctx)
    throughput = next(v for v in facts.values() if isinstance(v, dict) and "model" in v)
    assert throughput["predicted_accept_length_reference"] == pytest.approx(1 + 0.8 + 0.56 + 0.336 / 0.4)
