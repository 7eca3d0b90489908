"""Diagnostics fed what people actually pass: a claimed accuracy copied with its label from a
training log, and hand-edited configs. Each gives a finding or one 'not checked' line, and the
step's other results stand (a check that raises loses the whole step's facts: the runner reports
"checking its output failed" instead, runner/attempt.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import configs_step, eval_step
from spec_debug.probes.registry import ProbeContext

# what `spec-debug drafter eval --json` reports (keys of spec_debug.eagle3.api.evaluate_drafter)
REFERENCE = {"steps": 3, "full_accuracy": [0.12, 0.05, 0.01], "samples": 8, "tokens": 4000,
             "reference": "target_argmax", "semantics": "reference"}


def _eval_check(claimed: str) -> list:
    facts = eval_step.parse({"reference": REFERENCE, "args": {"claimed_accuracy": claimed}})
    ctx = ProbeContext(step_id="eval", host="gpu01", args={}, facts=facts, host_facts=facts)
    return eval_step.check(ctx)


@pytest.mark.parametrize("claimed", [
    "full_acc_0: 0.747",  # a speculators training log line, pasted whole
    "0.747 (val)",
    "747",  # the % sign and the point both lost
])
def test_a_claimed_accuracy_that_is_not_one_is_a_not_checked_line(claimed):
    # before: ValueError out of the check, so the runner dropped the step's accuracies
    [line] = _eval_check(claimed)
    assert line.code == "SD004"
    assert f"claimed_accuracy {claimed!r} is not an accuracy" in line.evidence[0]


@pytest.mark.parametrize("claimed", ["0.747", "74.7%", "74.7 %", " 74.7"])
def test_a_claimed_accuracy_in_any_usual_spelling_is_compared(claimed):
    [sd401] = _eval_check(claimed)
    assert sd401.code == "SD401" and "74.7" in sd401.evidence[0]


def _configs_check(draft: dict, target: dict) -> list:
    host = {"draft": {"found": True, "config": draft}, "target": {"found": True, "config": target}}
    facts = configs_step.parse(host)
    ctx = ProbeContext(step_id="configs", host="gpu01", args={}, facts=facts,
                       host_facts={**facts, "engine": {"name": "vllm", "version": "0.11.0"}})
    return configs_step.check(ctx)


DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"


def test_a_config_section_that_is_not_an_object_is_one_line_not_a_traceback():
    draft = json.loads((DEMO / "draft" / "config.json").read_text())
    target = {"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 32, "hidden_size": 4096,
              "vocab_size": 128256, "max_position_embeddings": 131072, "rope_theta": 500000.0}
    assert _configs_check(draft, target) is not None  # the demo pair is checked
    for broken_draft, broken_target in (
            (dict(draft, transformer_layer_config="see the training yaml"), target),
            (draft, dict(target, text_config=["llama"])),
            (draft, dict(target, rope_scaling={"rope_type": "linear", "factor": "four"}))):
        # before: AttributeError / ValueError from the RoPE comparison
        found = _configs_check(broken_draft, broken_target)
        assert any(f.code == "SD004" and "RoPE not compared" in f.evidence[0] for f in found), found


# sgl-project/SpecForge configs/qwen3-omni-eagle3.json: the EAGLE-3 draft SpecForge trains for
# Qwen3-Omni-30B-A3B, whose language model sits in thinker_config.text_config
QWEN3_OMNI_DRAFT = {
    "architectures": ["LlamaForCausalLMEagle3"], "bos_token_id": 151672, "eos_token_id": 151673,
    "hidden_act": "silu", "hidden_size": 2048, "initializer_range": 0.02, "intermediate_size": 6144,
    "max_position_embeddings": 65536, "model_type": "llama", "num_attention_heads": 32,
    "num_key_value_heads": 4, "num_hidden_layers": 1, "pad_token_id": 0, "rms_norm_eps": 1e-06,
    "tie_word_embeddings": False, "torch_dtype": "bfloat16", "transformers_version": "4.28.1",
    "use_cache": True, "vocab_size": 152064, "draft_vocab_size": 32000}


def test_the_draft_cost_of_an_omni_target_is_read_from_its_thinker():
    transformers = pytest.importorskip("transformers")
    from spec_debug.diagnose.steps.throughput_step import draft_cost_from_configs

    # the target's config.json as transformers writes it (Qwen3OmniMoeConfig.save_pretrained)
    target = transformers.Qwen3OmniMoeConfig().to_dict()
    thinker_text = target["thinker_config"]["text_config"]
    # before: None (no hidden_size at the top level), so no break-even accept length
    cost = draft_cost_from_configs(QWEN3_OMNI_DRAFT, target)
    assert cost is not None and cost == draft_cost_from_configs(QWEN3_OMNI_DRAFT, thinker_text)
    assert 0 < cost < 1
