"""Review of round 27's vLLM startup refusals on the inputs they did not meet.

1. A plain draft LM on vLLM 0.10.x: vllm-project/vllm PR #22047 ran the docs' draft-model example
   (`--speculative_config '{"model": "./facebook-opt-125m", "num_speculative_tokens": 5}'`), which
   "can be ran in v0.9.2, but in v0.10.0 it will get a NotImplementedError". The refusal began at
   0.11.0, so 0.10.x was told nothing; now it is refused from 0.10.0.
2. vLLM method mtp on a target with no MTP layer at K 1 gave two findings for one cause: SD102 (the
   server does not start) and SD101 (no MTP module of its own, a cap at one token). A server that
   does not start serves no depth: SD102 alone now.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

OPT_EXAMPLE = ("python -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port 8000 --model ./facebook-opt-6.7b "
               "--seed 42 -tp 1 --gpu_memory_utilization 0.8 "
               "--speculative_config '{\"model\": \"./facebook-opt-125m\", \"num_speculative_tokens\": 5}'")
OPT_125M = {"architectures": ["OPTForCausalLM"], "model_type": "opt", "num_hidden_layers": 12}


def _draft_model_problems(version):
    cfg = parse_launch_command(OPT_EXAMPLE)
    return [p for p in effective_spec(cfg, engine_version=version, draft_config=OPT_125M).problems
            if "plain draft model" in p]


@pytest.mark.parametrize("version", ["0.10.0", "0.10.1.1", "0.10.2"])
def test_a_plain_draft_lm_on_0_10_is_refused(version):
    (line,) = _draft_model_problems(version)
    assert "not supported yet" in line and "does not start" in line


@pytest.mark.parametrize("version", ["0.9.2", "0.9.3.dev12"])
def test_v0_releases_still_serve_it(version):
    # 0.9.2 ran the example (PR #22047); a nightly after 0.9.2 may be any build up to 0.10
    assert _draft_model_problems(version) == []


def _codes(config, k=1):
    command = f"vllm serve some-org/target --speculative-config '{{\"method\":\"mtp\",\"num_speculative_tokens\":{k}}}'"
    facts = launch_step.parse({"source": "var", "cmdline": command,
                               "models": {"some-org/target": {"path": "/hf/target", "config": config}}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return [f.code for f in launch_step.check(ctx)]


def test_a_target_refused_at_startup_gets_no_depth_finding_beside_it():
    codes = _codes({"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36})
    assert "SD102" in codes and "SD101" not in codes


def test_a_family_vllm_drafts_from_keeps_its_depth_finding():
    # Kimi-K2.5 counts 0 MTP layers but is a family vLLM rewrites (no SD102 claimed): SD101 still says it
    kimi = {"architectures": ["KimiK25ForConditionalGeneration"], "model_type": "kimi_k25",
            "text_config": {"model_type": "kimi_k2", "num_hidden_layers": 61, "num_nextn_predict_layers": 0}}
    codes = _codes(kimi)
    assert "SD101" in codes and "SD102" not in codes


def test_a_draft_of_a_family_vllm_turns_into_its_mtp_is_no_plain_draft_lm():
    # vLLM applies hf_config_override to the draft's config too: a DeepSeek-V3 checkpoint given as
    # the draft becomes deepseek_mtp and runs as method mtp, not draft_model
    cfg = parse_launch_command("vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --speculative-config "
                               "'{\"model\": \"deepseek-ai/DeepSeek-V3\", \"num_speculative_tokens\": 1}'")
    deepseek = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "num_nextn_predict_layers": 1}
    problems = effective_spec(cfg, engine_version="0.13.0", draft_config=deepseek).problems
    assert not [p for p in problems if "plain draft model" in p]
