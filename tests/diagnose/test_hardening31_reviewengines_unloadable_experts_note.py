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
from tests.diagnose.test_hardening31_engines_mixed_expert_formats import FP8, NVFP4, _qwen3_30b_a3b


def _run(target_config: dict, args: dict | None = None) -> tuple[list, list]:
    facts = throughput_step.parse({"args": args or {}, "lines": [], "found": False})
    host_facts = {**facts, "engine": {"name": "vllm"}, "configs": {"target_config": target_config}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    findings = throughput_step.check(ctx)
    notes = [note for note in facts[throughput_step.NS]["model"]["notes"] if "fails to load" in note]
    return findings, notes


def test_a_layer_in_two_formats_is_a_note_not_a_skipped_step_finding():
    mixed = _qwen3_30b_a3b(lambda e, p: FP8 if e % 4 == 0 else NVFP4)
    findings, [note] = _run(mixed, {"baseline_tok_s": "90", "measured_tok_s": "60"})
    assert "model.layers.0.mlp.experts: gate_proj NVFP4 on 48, FP8 on 16;" in note
    assert not [f for f in findings if "fails to load" in " ".join(f.evidence) and f.code == "SD004"]
    assert all(f.code != "SD004" for f in findings)  # was: SD004 warning "Not checked: a target whose ..."
    [slow] = [f for f in findings if f.code == "SD501"]
    assert note in slow.evidence


def test_projections_of_one_layer_in_two_formats_are_said_from_the_whole_list_and_a_trimmed_one(tmp_path):
    split = _qwen3_30b_a3b(lambda e, p: NVFP4 if p == "down_proj" else FP8)  # every expert alike
    _, [note] = _run(split)  # was: nothing
    assert "of 24 MoE layer(s)" in note and "gate_proj FP8; up_proj FP8; down_proj NVFP4" in note
    folder = tmp_path / "Qwen3-30B-A3B-split"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(split))
    sent = model_configs.run({"target_model": str(folder)})["target"]["config"]
    _, [trimmed] = _run(sent)
    assert "gate_proj FP8; up_proj FP8; down_proj NVFP4" in trimmed
    assert not _run(_qwen3_30b_a3b(lambda e, p: NVFP4))[1]
