"""Round 31: the throughput model counted a ModelOpt MIXED_PRECISION target whose experts of one
MoE layer are stored in different formats (ModelOpt auto_quantize picks each expert's: here 13 of
64 FP8, 51 NVFP4) at the experts' mean bytes, and said nothing more, as if vLLM served it. vLLM
gives a fused MoE layer one quant method, the format of the first `quantized_layers` key under the
layer (vllm-project/vllm vllm/model_executor/layers/quantization/modelopt.py,
ModelOptMixedPrecisionConfig._resolve_quant_algo), and makes every expert's weights in it, so the
experts saved in the other format do not fit them and the checkpoint fails to load. Now the
throughput step says so, in a note of its throughput model (and in the evidence of a throughput
finding), from the whole list and from a probe's trimmed config alike."""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes import model_configs
from spec_debug.probes.registry import ProbeContext
# Qwen3-30B-A3B's shapes cut to 24 layers and 64 experts, attention FP8, each expert's projections
# as `expert` picks (ModelOpt's export names every expert's projections)
from tests.diagnose.test_hardening30_engines_expert_formats import FP8, NVFP4, _qwen3_30b_a3b


def _findings(target_config: dict, engine: str = "vllm") -> list:
    """The notes of the throughput model the step records (a list of strings)."""
    facts = throughput_step.parse({"args": {}, "lines": [], "found": False})
    host_facts = {**facts, "engine": {"name": engine}, "configs": {"target_config": target_config}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    throughput_step.check(ctx)
    return facts[throughput_step.NS]["model"]["notes"]


def _refusals(notes: list) -> list:
    return [note for note in notes if "fails to load" in note]


def test_experts_of_one_layer_in_two_formats_are_said_to_fail_to_load_on_vllm():
    [line] = _refusals(_findings(_qwen3_30b_a3b(lambda e, p: FP8 if e % 5 == 0 else NVFP4)))
    assert "of 24 MoE layer(s)" in line and "model.layers.0.mlp.experts: gate_proj NVFP4 on 51, FP8 on 13;" in line
    assert "ModelOptMixedPrecisionConfig" in line


def test_the_counts_a_probe_kept_when_it_trimmed_the_list_say_the_same(tmp_path):
    target = tmp_path / "Qwen3-30B-A3B-AutoQuantize"
    target.mkdir()
    (target / "config.json").write_text(json.dumps(_qwen3_30b_a3b(lambda e, p: FP8 if e % 5 == 0 else NVFP4)))
    sent = model_configs.run({"target_model": str(target)})["target"]
    assert sent["quantized_layers_trimmed"]  # only expert 0's entries (FP8) are sent, and the counts
    [refusal] = _refusals(_findings(sent["config"]))
    assert "NVFP4 on 51, FP8 on 13" in refusal


def test_one_format_per_layer_or_another_engine_says_nothing():
    # formats that differ across layers, not within one, vLLM loads (layer 3 FP8, the rest NVFP4)
    assert not _refusals(_findings(_qwen3_30b_a3b(lambda e, p: NVFP4)))
    by_layer = _qwen3_30b_a3b(lambda e, p: NVFP4)
    layers = by_layer["quantization_config"]["quantized_layers"]
    layers.update({name: FP8 for name in layers if name.startswith("model.layers.3.mlp.experts.")})
    assert not _refusals(_findings(by_layer))
    assert not _refusals(_findings(_qwen3_30b_a3b(lambda e, p: FP8 if e % 5 == 0 else NVFP4), engine="sglang"))
