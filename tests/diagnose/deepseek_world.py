"""A tiny DeepSeek-V3 world: a real transformers DeepseekV3ForCausalLM target (the class the
Kimi-K2.5 / DeepSeek-V3 family names in config.json `architectures`, whose SGLang capture rule
differs from the Llama path: sgl-project/sglang python/sglang/srt/models/deepseek_v2.py
set_eagle3_layers_to_capture) and an EAGLE-3 draft over it saved by speculators 0.9.0
(tests/eagle3/speculators_world.save_perturbed_draft)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NL = 8


def save_deepseek_world(root: Path, aux: list[int]) -> Path:
    """target/ (DeepseekV3ForCausalLM, NL layers) and draft/ trained on `aux` (input-to ids)."""
    import torch
    from transformers import DeepseekV3Config, DeepseekV3ForCausalLM, LlamaConfig

    from tests.eagle3.speculators_world import save_perturbed_draft

    torch.manual_seed(0)
    config = DeepseekV3Config(
        vocab_size=256, hidden_size=32, intermediate_size=64, moe_intermediate_size=16,
        num_hidden_layers=NL, num_attention_heads=4, num_key_value_heads=4, n_routed_experts=4,
        n_shared_experts=1, num_experts_per_tok=2, n_group=1, topk_group=1, first_k_dense_replace=1,
        kv_lora_rank=16, q_lora_rank=16, qk_rope_head_dim=8, qk_nope_head_dim=8, v_head_dim=8,
        max_position_embeddings=128)
    DeepseekV3ForCausalLM(config).eval().save_pretrained(root / "target")
    layer = LlamaConfig(vocab_size=256, hidden_size=32, intermediate_size=64, num_attention_heads=4,
                        num_key_value_heads=2, head_dim=8, max_position_embeddings=128,
                        num_hidden_layers=1)
    save_perturbed_draft(root / "draft", root / "target", layer, aux=aux, draft_vocab=128, vocab=256,
                         seed_name=f"deepseek-{aux}")
    return root


def headers(path: Path) -> dict[str, Any]:
    """The safetensors headers as the model_configs probe reports them: {name: [shape, dtype]}."""
    from safetensors import safe_open

    with safe_open(str(path), "pt") as f:
        return {name: [list(f.get_slice(name).get_shape()), f.get_slice(name).get_dtype()]
                for name in f.keys()}


def configs_facts(world: Path, draft: dict | None = None) -> dict:
    """The configs step's host JSON for this world (the draft config may be replaced)."""
    from spec_debug.diagnose.steps import configs_step

    return configs_step.parse({
        "draft": {"found": True, "path": "draft",
                  "config": draft or json.loads((world / "draft" / "config.json").read_text()),
                  "tensors": headers(world / "draft" / "model.safetensors")},
        "target": {"found": True, "path": "target",
                   "config": json.loads((world / "target" / "config.json").read_text())}})


def layer_findings(world: Path, engine: str, version: str) -> tuple[list, dict]:
    """The configs step's SD201-SD203 for this world's draft served by `engine` `version`, and
    the layer facts it recorded (served, unreachable ...)."""
    from spec_debug.diagnose.steps import configs_step
    from spec_debug.probes.registry import ProbeContext

    facts = configs_facts(world, json.loads((world / "draft" / "config.json").read_text()))
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": engine, "version": version}, **facts}, vars={})
    return [f for f in configs_step.check(ctx) if f.code in ("SD201", "SD202", "SD203")], facts["configs"]["layers"]
