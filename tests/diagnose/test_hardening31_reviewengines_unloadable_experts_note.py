"""Review of round 31 (b14c1b63): a ModelOpt MIXED_PRECISION target whose experts of one MoE layer
are stored in more than one format, which vLLM cannot load (its fused MoE layer takes the format of
the first quantized_layers key under it: vllm modelopt.py ModelOptMixedPrecisionConfig
`_resolve_quant_algo`, step 3, the prefix lookup for RoutedExperts).
- It was said as SD004, whose catalog title is "Steps were skipped because an input was not
  provided": a code against its catalog meaning. It is read from vLLM's source, not seen on the
  host, so it is a note of the throughput step's model, and a line of a throughput finding's evidence.
- Only a projection whose experts differ was seen: a layer whose gate/up are FP8 in every expert and
  whose down_proj is NVFP4 in every expert is one fused layer in two formats all the same (the
  first key, gate_proj's FP8, is taken for down_proj too), and was said to load."""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes import model_configs
from spec_debug.probes.registry import ProbeContext

FP8, NVFP4 = {"quant_algo": "FP8"}, {"quant_algo": "NVFP4", "group_size": 16}


def _target(expert) -> dict:
    """Qwen3-30B-A3B's shapes cut to 4 layers and 8 experts, attention FP8, each expert's
    projections as `expert` picks."""
    layers = {f"model.layers.{i}.self_attn.{p}": FP8 for i in range(4) for p in ("q_proj", "k_proj", "v_proj", "o_proj")}
    layers.update({f"model.layers.{i}.mlp.experts.{e}.{p}": expert(e, p)
                   for i in range(4) for e in range(8) for p in ("gate_proj", "up_proj", "down_proj")})
    return {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
            "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 4,
            "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 8,
            "num_experts_per_tok": 8, "vocab_size": 151936,
            "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                    "kv_cache_quant_algo": "FP8", "quantized_layers": layers}}


def _run(target_config: dict, args: dict | None = None) -> tuple[list, list]:
    facts = throughput_step.parse({"args": args or {}, "lines": [], "found": False})
    host_facts = {**facts, "engine": {"name": "vllm"}, "configs": {"target_config": target_config}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    findings = throughput_step.check(ctx)
    notes = [note for note in facts[throughput_step.NS]["model"]["notes"] if "fails to load" in note]
    return findings, notes


def test_a_layer_in_two_formats_is_a_note_not_a_skipped_step_finding():
    mixed = _target(lambda e, p: FP8 if e % 4 == 0 else NVFP4)
    findings, [note] = _run(mixed, {"baseline_tok_s": "90", "measured_tok_s": "60"})
    assert "model.layers.0.mlp.experts: gate_proj NVFP4 on 6, FP8 on 2;" in note
    assert not [f for f in findings if "fails to load" in " ".join(f.evidence) and f.code == "SD004"]
    assert all(f.code != "SD004" for f in findings)  # was: SD004 warning "Not checked: a target whose ..."
    [slow] = [f for f in findings if f.code == "SD501"]
    assert note in slow.evidence


def test_projections_of_one_layer_in_two_formats_are_said_from_the_whole_list_and_a_trimmed_one(tmp_path):
    split = _target(lambda e, p: NVFP4 if p == "down_proj" else FP8)  # every expert alike
    _, [note] = _run(split)  # was: nothing
    assert "of 4 MoE layer(s)" in note and "gate_proj FP8; up_proj FP8; down_proj NVFP4" in note
    folder = tmp_path / "Qwen3-30B-A3B-split"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(split))
    sent = model_configs.run({"target_model": str(folder)})["target"]["config"]
    _, [trimmed] = _run(sent)
    assert "gate_proj FP8; up_proj FP8; down_proj NVFP4" in trimmed
    assert not _run(_target(lambda e, p: NVFP4))[1]
