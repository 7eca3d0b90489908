"""The layout step planned the served layers with the target's architecture from config.json
as the file holds it; an `architectures` given on the launch line (vLLM --hf-overrides) is
the class the server builds, and it picks the engine's capture rules. The step now reads the
target config as the configs step does (steps.common.served_target)."""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import layout_step
from spec_debug.probes.registry import ProbeContext

DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 64,
         "num_hidden_layers": 1, "vocab_size": 128, "draft_vocab_size": 64,
         "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 15, 28]}}
TARGET = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
          "num_hidden_layers": 32, "vocab_size": 128}


def _architecture(argv: list[str]) -> str | None:
    facts = {"layout": {"num_target_layers": 32, "serving_dump": {"layer_ids": [2, 16, 29, 32]}}}
    host_facts = {"engine": {"name": "vllm", "version": "0.11.0"}, "launch": {"argv": argv},
                  "configs": {"draft_config": DRAFT, "target_config": TARGET}}
    layout_step.check(ProbeContext(step_id="s", host="h", args={}, facts=facts,
                                   host_facts=host_facts, vars={}))
    return str(facts["layout"]["layers"]["target_architecture"])


def test_an_architectures_override_on_the_launch_line_is_the_served_class():
    override = json.dumps({"architectures": ["Qwen3ForCausalLM"]})
    assert _architecture(["vllm", "serve", "/m", "--hf-overrides", override]) == "Qwen3ForCausalLM"
    assert _architecture(["vllm", "serve", "/m"]) == "LlamaForCausalLM"
