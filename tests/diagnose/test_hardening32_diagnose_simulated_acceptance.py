"""A server whose acceptance is a benchmark simulation: SGLang's SGLANG_SIMULATE_ACC_LEN
(python/sglang/srt/environ.py "Runtime simulations", EnvFloat(-1), on when > 0: the verify step
accepts that many tokens whatever the draft proposed) and vLLM's `"rejection_sample_method":
"synthetic"` (vllm/config/speculative.py: draft tokens accepted at synthetic_acceptance_rates).
Left on after a benchmark, an accept length of 1.0 (and the slowdown it brings) is the knob's, not
the draft's; the audit said nothing, and the playbook went on to blame layers and vocabularies.
"""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _audit(command: str, server_env: dict[str, str] | None = None) -> list[Any]:
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}, "server_env": server_env})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 3 "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
VLLM = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": \"eagle3\", \"model\": "
        "\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3%s}'")


def test_sglang_simulated_accept_length_is_said() -> None:
    (note,) = _audit("SGLANG_SIMULATE_ACC_LEN=1 " + SGLANG)
    assert note.code == "SD004"
    assert "SGLANG_SIMULATE_ACC_LEN=1: this SGLang server simulates acceptance" in note.evidence[0]
    assert "accept length of about 1 per verify round" in note.evidence[0]
    # the running server's environment (/proc/PID/environ) says it as well as the command line
    (note,) = _audit(SGLANG, server_env={"SGLANG_SIMULATE_ACC_LEN": "2.5"})
    assert "about 2.5 per verify round" in note.evidence[0]


def test_vllm_synthetic_rejection_sampling_is_said() -> None:
    (note,) = _audit(VLLM % ', "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 2.5')
    assert note.code == "SD004"
    assert "this vLLM server simulates acceptance" in note.evidence[0]
    assert "synthetic_acceptance_length 2.5" in note.evidence[0]


def test_real_acceptance_stays_clean() -> None:
    # SGLang's default (-1) and 0 keep the simulation off; vLLM's standard sampler is the real one
    assert _audit("SGLANG_SIMULATE_ACC_LEN=-1 " + SGLANG) == []
    assert _audit(SGLANG, server_env={"SGLANG_SIMULATE_ACC_LEN": "0"}) == []
    assert _audit(VLLM % ', "rejection_sample_method": "standard"') == []
    # a server that does not speculate has no acceptance to fake
    assert _audit("SGLANG_SIMULATE_ACC_LEN=2 python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B") == []
