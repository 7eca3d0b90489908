"""Review of the day's launch-audit rules on the inputs they did not meet.

1. `--enable-multi-layer-eagle` on an SGLang build before 0.5.7 is refused ('unrecognized
   arguments'). A release candidate of 0.5.7 (0.5.7rc1) and a build from the source tree after the
   0.5.6.post2 tag (setuptools_scm's 0.5.6.post3.dev120+g...) may hold the option: they were told
   the server does not start; now only a build that surely predates 0.5.7 is.
2. 'the target config names no MTP modules' (an MTP launch whose target config was read): a
   dots3_note target (vLLM counts one MTP layer by default, vllm/config/speculative.py
   hf_config_override), a Mistral Large 3 (SGLang loads its EAGLE draft from the target path) and
   a key naming MTP two sections deep were told they have none; now they stay 'unknown'. A config
   that counts 0 (Kimi-K2.5's num_nextn_predict_layers: 0) was 'unknown'; now it has none.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# the MiMo-V2-Flash command of SGLang's docs: a chain, which every release from 0.5.7 starts
CHAIN = ("python -m sglang.launch_server --model-path XiaomiMiMo/MiMo-V2-Flash --speculative-algorithm EAGLE "
         "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 "
         "--enable-multi-layer-eagle")


def _problems(version):
    eff = effective_spec(parse_launch_command(CHAIN), target_architecture="MiMoV2FlashForCausalLM",
                         engine_version=version)
    return [p for p in eff.problems if "multi-layer" in p]


@pytest.mark.parametrize("version", ["0.5.7rc1", "0.5.6.post3.dev120+g1234abc", "0.5.7.dev4", "0.5.7",
                                     "0.5.12.post1", "0.5.14+cu128", "abc1234"])
def test_a_build_that_may_hold_the_option_is_not_refused(version):
    assert _problems(version) == []


@pytest.mark.parametrize("version", ["0.5.6.post2", "0.5.6", "0.5.5.dev3"])
def test_a_build_that_surely_predates_it_is_refused(version):
    (problem,) = _problems(version)
    assert "has no such option (added in 0.5.7)" in problem


COMMAND = ("vllm serve some-org/target --speculative-config "
           "'{\"method\":\"mtp\",\"num_speculative_tokens\":1}'")


def _sd101(config):
    facts = launch_step.parse({"source": "var", "cmdline": COMMAND,
                               "models": {"some-org/target": {"path": "/hf/target", "config": config}}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    (finding,) = [f for f in launch_step.check(ctx) if f.code == "SD101"]
    return finding.evidence[-1]


@pytest.mark.parametrize("config", [
    {"architectures": ["Dots3NoteForCausalLM"], "model_type": "dots3_note", "num_hidden_layers": 40},
    {"architectures": ["MistralLarge3ForCausalLM"], "model_type": "mistral_large_3"},
    {"architectures": ["X"], "model_type": "x", "thinker_config": {"text_config": {"mtp_num_hidden_layers": 1,
                                                                                   "num_hidden_layers": 48}}},
], ids=["dots3_note", "mistral_large_3", "two_deep"])
def test_targets_with_modules_not_under_the_top_keys_stay_unknown(config):
    line = _sd101(config)
    assert "unknown (not in the target config" in line and "names no MTP modules" not in line


def test_a_plain_target_is_still_said_to_have_none():
    # a Qwen3 target is refused at startup (SD102, round 27): that one finding says it has none,
    # not SD101 beside it (a server that does not start serves no depth)
    facts = launch_step.parse({"source": "var", "cmdline": COMMAND, "models": {"some-org/target": {
        "path": "/hf/target", "config": {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3",
                                         "text_config": {"num_hidden_layers": 36}}}}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    findings = launch_step.check(ctx)
    assert "has none" in " ".join(e for f in findings if f.code == "SD102" for e in f.evidence)
    assert not [f for f in findings if f.code == "SD101"]


def test_a_target_config_counting_zero_modules_is_said_to_have_none():
    # Kimi-K2.5's config.json keeps its DeepSeek-V3 text model in text_config, with
    # num_nextn_predict_layers 0: it ships no MTP layer (its drafts are separate EAGLE-3 heads)
    kimi = {"architectures": ["KimiK25ForConditionalGeneration"], "model_type": "kimi_k25",
            "text_config": {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "kimi_k2",
                            "num_hidden_layers": 61, "num_nextn_predict_layers": 0, "n_routed_experts": 384}}
    line = _sd101(kimi)
    assert "names no MTP modules" in line and "absent or 0" in line
