"""The Llama-layer rule (a q_proj, no projection bias, no q_norm/k_norm) behind SD704 for a
speculators draft retyped to the target's decoder ("mistral", "qwen2") was written twice: once
in diagnose.checks.draft_config.check_decoder_model_type (over the configs step's layer shapes)
and once in eagle3.checkpoint._refuse_retyped_decoder (over the weights' names). Now both ask
eagle3.checkpoint.retyped_llama_decoder, so the configs step and the drafter steps cannot
disagree on the same draft."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.draft_config import check_decoder_model_type
from spec_debug.eagle3.checkpoint import retyped_llama_decoder

LLAMA = ["layers.0.self_attn.q_proj.weight", "layers.0.self_attn.k_proj.weight",
         "layers.0.self_attn.v_proj.weight", "layers.0.self_attn.o_proj.weight",
         "layers.0.mlp.gate_proj.weight", "layers.0.mlp.up_proj.weight",
         "layers.0.mlp.down_proj.weight"]


def _raw(model_type, kind="eagle3"):
    return {"speculators_model_type": kind, "transformer_layer_config": {"model_type": model_type}}


@pytest.mark.parametrize("raw, names, said", [
    (_raw("mistral"), LLAMA, "mistral"),
    (_raw("qwen2"), LLAMA, "qwen2"),
    (_raw("qwen2"), LLAMA + ["layers.0.self_attn.q_proj.bias"], None),  # a real Qwen2 layer
    (_raw("qwen2"), LLAMA + ["layers.0.mlp.up_proj.bias"], None),
    (_raw("mistral"), LLAMA + ["layers.0.self_attn.k_norm.weight"], None),  # a Qwen3 layer
    (_raw("llama"), LLAMA, None),  # a type speculators builds
    (_raw("qwen3"), LLAMA, None),  # ConfigMisfitError's other case, answered by loading
    (_raw("mistral", kind="mtp"), LLAMA, None),  # vLLM builds another class for it
    (_raw("mistral"), LLAMA[1:], None),  # no q_proj: no decoder layer to judge
    ({"transformer_layer_config": "mistral"}, LLAMA, None),
])
def test_the_configs_check_and_the_drafter_share_one_rule(raw, names, said):
    assert retyped_llama_decoder(raw, names) == said
    shapes = {name: [8, 8] for name in names}
    found = check_decoder_model_type(raw, shapes)
    assert [(f.code, f.facts["config"]) for f in found] == ([("SD704", said)] if said else [])
