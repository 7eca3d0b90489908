"""A target whose language-model config cannot be read (Qwen3-Omni's
thinker_config.text_config written as a string, a layer count that is no number): the hidden
layout probe and the layout step say why the served layers were not planned, and the configs
step names the malformed key instead of "names no num_hidden_layers"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import configs_step, layout_step
from spec_debug.probes import hidden_layout
from tests.diagnose.test_steps import context

SGLANG = {"engine": {"name": "sglang", "version": "0.5.12"}}
# sgl-project/SpecForge configs/qwen3-omni-eagle3.json (the keys the layer plan reads)
DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 2048, "model_type": "llama",
         "num_attention_heads": 32, "num_key_value_heads": 4, "num_hidden_layers": 1,
         "intermediate_size": 6144, "vocab_size": 152064, "draft_vocab_size": 32000}
OMNI = "Qwen3OmniMoeForConditionalGeneration"


def _dirs(tmp_path: Path, target: dict) -> dict:
    for name, config in (("draft", DRAFT), ("target", target)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text(json.dumps(config))
    return {"draft_model": str(tmp_path / "draft"), "target_model": str(tmp_path / "target"),
            "engine": "sglang"}


@pytest.mark.parametrize("thinker, why", [
    ({"text_config": "48 layers"}, "'thinker_config.text_config' is str '48 layers', expected a JSON object"),
    ({"text_config": {"model_type": "qwen3_omni_moe_text", "num_hidden_layers": "48"}},
     "num_hidden_layers '48' in the language model's config (expected a positive integer)"),
])
def test_an_unreadable_layer_count_is_said_not_skipped(tmp_path, thinker, why):
    out = hidden_layout.run(_dirs(tmp_path, {"architectures": [OMNI], "thinker_config": thinker}))
    assert out["num_target_layers"] is None and "plan" not in out
    assert why in out["num_target_layers_unknown"], out
    found = layout_step.check(context(layout_step.parse(out), SGLANG))
    lines = [f for f in found if "served layers not planned" in " ".join(f.evidence)]
    assert len(lines) == 1 and lines[0].code == "SD004" and lines[0].severity == "info"
    assert why in lines[0].evidence[0] and "num_hidden_layers" in lines[0].title


def test_a_readable_layer_count_adds_no_line(tmp_path):
    target = {"architectures": [OMNI], "thinker_config": {"text_config": {
        "model_type": "qwen3_omni_moe_text", "hidden_size": 2048, "num_hidden_layers": 48}}}
    out = hidden_layout.run(_dirs(tmp_path, target))
    assert out["num_target_layers"] == 48 and "num_target_layers_unknown" not in out
    found = layout_step.check(context(layout_step.parse(out), SGLANG))
    assert not any("served layers not planned" in " ".join(f.evidence) for f in found)


def test_configs_step_names_the_malformed_text_config():
    target = {"architectures": [OMNI], "thinker_config": {"text_config": "48 layers"}}
    facts = configs_step.parse({"draft": {"found": True, "config": DRAFT},
                                "target": {"found": True, "config": target}})
    found = configs_step.check(context(facts, SGLANG))
    notes = [" ".join(f.evidence) for f in found if f.code == "SD004"]
    assert any("'thinker_config.text_config' is str '48 layers', expected a JSON object: aux "
               "layers not compared" in n for n in notes), notes
