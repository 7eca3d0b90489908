"""Hardening 12: the draft cost c of a draft served next to a mixed-precision target.

The INT4 Kimi-K2 releases quantize only the routed experts: attention, the shared expert, the
first dense MLP and lm_head stay bf16. gpt-oss ships MXFP4 experts next to bf16 attention; ModelOpt
and FP8 checkpoints skip modules by name. Before, such a target was counted all-bf16 (the
quantization config was 'not modelled'), which halved c for Kimi-K2 and gave an optimistic
break-even accept length and predicted throughput. Each weight is now counted at the bytes its own
module is stored in, from config.json alone.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import throughput_step
from spec_debug.diagnose.steps.throughput_step import (
    draft_cost_from_configs,
    target_weights_line,
)
from spec_debug.diagnose.target_weights import decode_weight_parts
from spec_debug.diagnose.throughput import (
    draft_params_from_config,
    target_params_from_config,
)
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_hardening6_diagnostics import DEEPSEEK_V3_CONFIG
from tests.diagnose.test_hardening8_throughput import GPT_OSS_120B
from tests.diagnose.test_hardening11_throughput import EAGLE3_DRAFT
from tests.diagnose.test_throughput_served_settings import DECODE, STARTUP

# https://huggingface.co/moonshotai/Kimi-K2-Thinking/blob/main/config.json, the keys the cost reads:
# DeepSeek-V3 layout with 64 MLA heads, 384 routed experts (8 per token), one shared expert, one
# dense first layer; its quantization_config is llm-compressor's W4A16 with everything but the
# routed experts ignored
KIMI_K2_INT4_QUANT = {
    "quant_method": "compressed-tensors", "format": "pack-quantized", "quantization_status": "compressed",
    "kv_cache_scheme": None,
    "config_groups": {"group_0": {"targets": ["Linear"], "input_activations": None, "output_activations": None,
                                  "weights": {"num_bits": 4, "type": "int", "group_size": 32, "strategy": "group",
                                              "symmetric": True, "dynamic": False, "actorder": None,
                                              "observer": "minmax", "observer_kwargs": {},
                                              "block_structure": None}}},
    "ignore": ["lm_head", "re:.*self_attn.*", "re:.*shared_experts.*", "re:.*mlp\\.(gate|up|gate_up|down)_proj.*"],
}
KIMI_K2_BF16 = {
    "architectures": ["DeepseekV3ForCausalLM"], "model_type": "kimi_k2", "hidden_size": 7168,
    "intermediate_size": 18432, "moe_intermediate_size": 2048, "n_routed_experts": 384, "n_shared_experts": 1,
    "num_experts_per_tok": 8, "first_k_dense_replace": 1, "num_hidden_layers": 61, "num_attention_heads": 64,
    "num_key_value_heads": 64, "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64, "v_head_dim": 128, "vocab_size": 163840, "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
}
KIMI_K2_THINKING = {**KIMI_K2_BF16, "quantization_config": KIMI_K2_INT4_QUANT}

# the routed experts a token reads: 60 MoE layers x 8 experts x gate/up/down of 7168 x 2048
ROUTED = 60 * 8 * 3 * 7168 * 2048


def test_kimi_k2_reads_its_32b_active_parameters():
    # Moonshot's model card: "32 billion activated parameters". Before, MLA was counted as llama
    # attention of 64 heads x 112 (twice its size): 37.9B
    assert target_params_from_config(KIMI_K2_THINKING) == pytest.approx(32e9, rel=0.02)


def test_only_the_routed_experts_of_an_int4_kimi_k2_are_counted_at_half_a_byte():
    parts = {(p.part, p.bytes_per_weight): p.params for p in decode_weight_parts(KIMI_K2_THINKING)}
    assert parts[("routed experts", 0.5)] == ROUTED
    assert {part for part, per in parts if per == 2.0} == {"attention", "dense MLP", "shared experts", "lm_head"}


def test_the_draft_cost_of_an_int4_kimi_k2_target_counts_its_bf16_attention_and_shared_expert():
    total = target_params_from_config(KIMI_K2_BF16)
    int4 = draft_cost_from_configs(EAGLE3_DRAFT, KIMI_K2_THINKING)
    bf16 = draft_cost_from_configs(EAGLE3_DRAFT, KIMI_K2_BF16)
    assert int4 is not None and bf16 is not None
    # the step reads the routed experts at a quarter of their bf16 bytes, everything else at full:
    # before, int4 == bf16 (the ignore list was 'not modelled'); all-INT4 would give 4x
    assert int4 / bf16 == pytest.approx(total / (total - ROUTED * 3 / 4), rel=1e-9)
    assert 1.9 < int4 / bf16 < 2.1


def test_a_kimi_k25_wrapper_with_the_quantization_config_on_top_is_counted_alike():
    # Kimi-K2.5 nests the language model under text_config and keeps quantization_config on top
    wrapper = {"architectures": ["KimiK25ForConditionalGeneration"], "model_type": "kimi_k25",
               "quantization_config": KIMI_K2_INT4_QUANT, "text_config": KIMI_K2_BF16}
    assert draft_cost_from_configs(EAGLE3_DRAFT, wrapper) == draft_cost_from_configs(EAGLE3_DRAFT, KIMI_K2_THINKING)


def test_gpt_oss_reads_mxfp4_experts_and_bf16_attention():
    # openai/gpt-oss-120b config.json quantization_config
    mxfp4 = {**GPT_OSS_120B, "quantization_config": {
        "quant_method": "mxfp4",
        "modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens",
                                   "lm_head"]}}
    parts = {p.part: p.bytes_per_weight for p in decode_weight_parts(mxfp4)}
    # MXFP4: 4-bit values and one 8-bit scale per 32 (OCP MX spec)
    assert parts == {"attention": 2.0, "routed experts": 4.25 / 8, "lm_head": 2.0}
    experts = 36 * 4 * 3 * 2880 * 2880
    total = target_params_from_config(GPT_OSS_120B)
    draft = EAGLE3_DRAFT | {"hidden_size": 2880, "intermediate_size": 17280, "num_attention_heads": 64,
                            "head_dim": 64, "draft_vocab_size": 201088, "vocab_size": 201088}
    ratio, plain = draft_cost_from_configs(draft, mxfp4), draft_cost_from_configs(draft, GPT_OSS_120B)
    assert ratio / plain == pytest.approx(total / (total - experts * (1 - 4.25 / 16)), rel=1e-9)


def test_modelopt_nvfp4_with_attention_excluded_and_fp8_with_skipped_modules():
    # ModelOpt NVFP4 exports keep attention in bf16 by glob ("model.layers.*.self_attn*", as
    # MiniMax-M2's NVFP4 config.json does; vLLM modelopt.py matches `ignore` with fnmatch)
    nvfp4 = {**DEEPSEEK_V3_CONFIG, "quantization_config": {
        "quant_method": "modelopt", "quant_algo": "NVFP4", "kv_cache_quant_algo": None, "group_size": 16,
        "ignore": ["lm_head", "model.layers.*.mlp.gate", "model.layers.*.self_attn*"]}}
    parts = {(p.part, p.bytes_per_weight) for p in decode_weight_parts(nvfp4)}
    assert parts == {("attention", 2.0), ("dense MLP", 0.5), ("routed experts", 0.5), ("shared experts", 0.5),
                     ("lm_head", 2.0)}
    # transformers' FP8 `modules_to_not_convert` (should_convert_module: a prefix, a regex, or the
    # name's end): the attention of the first layers kept bf16, the routers named by their end
    fp8 = {**DEEPSEEK_V3_CONFIG, "quantization_config": {
        **DEEPSEEK_V3_CONFIG["quantization_config"],
        "modules_to_not_convert": ["gate", "lm_head", "model.layers.0.self_attn", "model.layers.1.self_attn"]}}
    bf16_attention = sum(p.params for p in decode_weight_parts(fp8) if p.part == "attention" and p.bytes_per_weight == 2)
    all_attention = sum(p.params for p in decode_weight_parts(fp8) if p.part == "attention")
    assert bf16_attention * 61 == all_attention * 2  # two of 61 layers; "gate" spares the experts' gate_proj
    assert {p.bytes_per_weight for p in decode_weight_parts(fp8) if p.part == "routed experts"} == {1.0}


@pytest.mark.parametrize("quantization", [
    {"quant_method": "compressed-tensors", "ignore": ["re:([bad"],
     "config_groups": {"g": {"targets": ["re:(("], "weights": {"num_bits": 4}}}},
    {"quant_method": "compressed-tensors", "config_groups": {"g": "int4"}, "ignore": "lm_head"},
    {"quant_method": "gptq", "bits": 4, "dynamic": {"-:[": {}, 3: None}},
    {"quant_method": "modelopt", "quant_algo": "INT2_MAGIC"},
])
def test_a_hand_edited_quantization_config_costs_no_traceback(quantization):
    target = {**DEEPSEEK_V3_CONFIG, "quantization_config": quantization}
    c = draft_cost_from_configs(EAGLE3_DRAFT, target)
    assert c is not None and c > 0


def test_the_incident_report_names_the_bytes_of_each_part_of_a_mixed_target():
    facts = throughput_step.parse({"found": True, "path": "server.log", "args": {"baseline_tok_s": "90"},
                                   "lines": [STARTUP] + [DECODE.format(i=i) for i in range(3)]})
    host = {"configs": {"draft_config": EAGLE3_DRAFT, "target_config": KIMI_K2_THINKING},
            "eval": {"reference": {"steps": 3, "reference": "target_argmax",
                                   "target_conditional_acceptance": [0.75, 0.7, 0.6]}}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**host, **facts})
    [slow] = [f for f in throughput_step.check(ctx) if f.code == "SD501"]
    [line] = [e for e in slow.evidence if "a draft pass costs" in e]
    c = draft_cost_from_configs(EAGLE3_DRAFT, KIMI_K2_THINKING)
    assert f"c = {c:.2f} target steps" in line
    assert "routed experts 0.5" in line and "attention 2" in line and "shared experts 2" in line
    assert target_weights_line({"configs": {"target_config": KIMI_K2_BF16}}) is None


# ---------------------------------------------------------------------------------------------
# A quantized draft reads fewer bytes too
# ---------------------------------------------------------------------------------------------
def test_an_fp8_draft_costs_about_half_a_bf16_one():
    # vLLM serves ModelOpt static-FP8 EAGLE-3 drafts, fc included (vllm-project/vllm#28435);
    # ModelOpt writes its quantization_config at the top of config.json and leaves lm_head bf16
    fp8_draft = {**EAGLE3_DRAFT, "quantization_config": {"quant_method": "modelopt", "quant_algo": "FP8",
                                                         "ignore": ["lm_head"]}}
    bf16 = draft_cost_from_configs(EAGLE3_DRAFT, DEEPSEEK_V3_CONFIG)
    fp8 = draft_cost_from_configs(fp8_draft, DEEPSEEK_V3_CONFIG)
    assert bf16 is not None and fp8 is not None
    # the draft's weights by hand (H 7168, 56 heads / 8 kv heads of 128, MLP 18432, 32000-token head)
    h = 7168
    body = 3 * h * h + 2 * h * (56 + 8 + 8) * 128 + 56 * 128 * h + 3 * h * 18432
    head = 32000 * h
    # before: fp8 == bf16 (the draft was always counted bf16, c twice too high for its body)
    assert fp8 / bf16 == pytest.approx((body / 2 + head) / (body + head), rel=1e-9)
    # Mistral Large 3's block-FP8 draft (NVIDIA/TensorRT-LLM#9971): the same, by its fp8 config
    block = {**EAGLE3_DRAFT, "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}
    assert draft_cost_from_configs(block, DEEPSEEK_V3_CONFIG) == pytest.approx(fp8, rel=1e-9)


def test_the_evidence_says_the_draft_was_counted_at_its_own_bytes():
    fp8_draft = {**EAGLE3_DRAFT, "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}
    line = target_weights_line({"configs": {"draft_config": fp8_draft, "target_config": DEEPSEEK_V3_CONFIG}})
    assert line is not None and "the draft's fp8 weights at their own bytes" in line and "bf16 draft" not in line
    line = target_weights_line({"configs": {"draft_config": fp8_draft, "target_config": KIMI_K2_BF16}})
    assert line is not None and "the draft's fp8 weights" in line


# ---------------------------------------------------------------------------------------------
# The quantization config where older exporters put it
# ---------------------------------------------------------------------------------------------
# ModelOpt 0.29 and before (the early nvidia/*-FP4 and -FP8 releases) wrote config.json without a
# quantization_config and this file beside it; vLLM get_config reads it from there
LEGACY_HF_QUANT_CONFIG = {"producer": {"name": "modelopt", "version": "0.23.0"},
                          "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": None, "group_size": 16,
                                           "exclude_modules": ["lm_head", "model.layers.*.self_attn*"]}}


def _configs_facts(tmp_path, target_config: dict, extra_files: dict | None = None) -> dict:
    import json

    from spec_debug.diagnose.steps import configs_step
    from spec_debug.probes import model_configs

    draft_dir, target_dir = tmp_path / "draft", tmp_path / "target"
    for directory, config in ((draft_dir, EAGLE3_DRAFT), (target_dir, target_config)):
        directory.mkdir()
        (directory / "config.json").write_text(json.dumps(config))
    for name, content in (extra_files or {}).items():
        (target_dir / name).write_text(json.dumps(content))
    # the probe as it runs on the host, its output through JSON as it travels
    host = json.loads(json.dumps(model_configs.run({"draft_model": str(draft_dir), "target_model": str(target_dir)})))
    return configs_step.parse(host)["configs"]


def test_a_modelopt_export_with_hf_quant_config_beside_config_json_is_counted_quantized(tmp_path):
    bf16_target = {k: v for k, v in DEEPSEEK_V3_CONFIG.items() if k != "quantization_config"}
    facts = _configs_facts(tmp_path, bf16_target, {"hf_quant_config.json": LEGACY_HF_QUANT_CONFIG})
    c = draft_cost_from_configs(facts["draft_config"], facts["target_config"])
    bf16 = draft_cost_from_configs(EAGLE3_DRAFT, bf16_target)
    parts = {(p.part, p.bytes_per_weight) for p in decode_weight_parts(facts["target_config"])}
    assert ("routed experts", 0.5) in parts and ("attention", 2.0) in parts
    # before: the file was never read and the NVFP4 target counted as bf16 (c == bf16)
    assert c is not None and c > 1.8 * bf16
    line = target_weights_line({"configs": facts})
    assert line is not None and "modelopt" in line


def test_an_older_compressed_tensors_compression_config_is_the_quantization_config(tmp_path):
    # llm-compressor's first releases wrote "compression_config" (vLLM reads either key)
    bf16_target = {k: v for k, v in DEEPSEEK_V3_CONFIG.items() if k != "quantization_config"}
    old = {**bf16_target, "compression_config": {
        "quant_method": "compressed-tensors", "ignore": ["lm_head"],
        "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 8, "type": "float"}}}}}
    facts = _configs_facts(tmp_path, old)
    assert draft_cost_from_configs(facts["draft_config"], facts["target_config"]) == pytest.approx(
        draft_cost_from_configs(EAGLE3_DRAFT, DEEPSEEK_V3_CONFIG), rel=1e-9)  # the same as fp8


def test_a_config_json_with_its_own_quantization_config_ignores_a_stale_hf_quant_config(tmp_path):
    facts = _configs_facts(tmp_path, DEEPSEEK_V3_CONFIG, {"hf_quant_config.json": LEGACY_HF_QUANT_CONFIG})
    assert facts["target_config"]["quantization_config"] == DEEPSEEK_V3_CONFIG["quantization_config"]


def test_an_fp8_skip_list_of_every_layers_modules_is_read_quickly_and_names_only_those(monkeypatch):
    # Qwen/Qwen3-Next-80B-A3B-Instruct-FP8 lists its unquantized modules one per layer
    # (linear_attn.in_proj_ba, mlp.gate, mlp.shared_expert_gate, ...): hundreds of names. Here
    # the DeepSeek-V3 shape with its MLA down-projections and routers listed per layer, as
    # llm-compressor's Kimi FP8 recipe leaves them (ignore re:.*kv_a_proj_with_mqa$, re:.*q_a_proj$)
    import re
    import time

    from spec_debug.diagnose import quantization

    skip = ["lm_head"] + [f"model.layers.{i}.{module}" for i in range(61)
                          for module in ("self_attn.kv_a_proj_with_mqa", "self_attn.q_a_proj", "mlp.gate",
                                         "mlp.shared_expert_gate", "linear_attn.in_proj_ba")]
    target = {**DEEPSEEK_V3_CONFIG, "quantization_config": {**DEEPSEEK_V3_CONFIG["quantization_config"],
                                                            "modules_to_not_convert": skip}}
    # This thread's CPU time, not the wall clock: on a loaded machine the worker waits off the CPU
    # for seconds around this call (0.13 s of CPU took 13-53 s of wall time here at load 11).
    # And what made it slow, counted: each pattern is compiled once, not once per module.
    compiled: list[str] = []
    real_compile = re.compile
    quantization._compiled.cache_clear()
    with monkeypatch.context() as patched:
        patched.setattr(re, "compile", lambda pattern, *rest: compiled.append(pattern) or real_compile(pattern, *rest))
        started = time.thread_time()
        parts = decode_weight_parts(target)
        spent = time.thread_time() - started
    # before: every pattern recompiled for every module of every layer, ten seconds
    assert spent < 2.0
    assert len(compiled) <= 2 * len(skip) + 50, f"{len(compiled)} regex compilations for {len(skip)} patterns"
    bf16 = {p.part: p.params for p in parts if p.bytes_per_weight == 2.0}
    h = 7168
    assert bf16 == {"attention": 61 * (h * 1536 + h * (512 + 64)), "lm_head": 129280 * h}
    # "model.layers.1.mlp.gate" is layer 1's router, not the dense gate_proj beside it, and
    # "model.layers.1" is not layer 10 (a match must end at a dot)
    assert {p.part for p in parts if p.bytes_per_weight == 1.0} == {"attention", "dense MLP", "routed experts",
                                                                     "shared experts"}


def test_the_cost_of_an_mla_eagle3_head_for_kimi_k25_is_known():
    # the Kimi-K2.5/K2.6 eagle3-mla heads: vLLM Eagle3DeepseekV2ForCausalLM (deepseek_eagle3.py),
    # one MLA layer whose q_a/kv_a projections read 2H, a dense MLP, the full 163840-token head.
    # The drafter runs llama/qwen3 drafts only, and before, the throughput step had no c at all
    mla_draft = {**KIMI_K2_BF16, "architectures": ["Eagle3DeepseekV2ForCausalLM"], "model_type": "deepseek_v3",
                 "num_hidden_layers": 1, "draft_vocab_size": 163840,
                 "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 29, 57], "use_aux_hidden_state": True}}
    target = {"architectures": ["KimiK25ForConditionalGeneration"], "model_type": "kimi_k25",
              "quantization_config": KIMI_K2_INT4_QUANT, "text_config": KIMI_K2_BF16}
    c = draft_cost_from_configs(mla_draft, target)
    h = 7168
    draft = (3 * h * h + 2 * h * 1536 + 1536 * 64 * 192 + 2 * h * 576 + 512 * 64 * 256 + 64 * 128 * h
             + 3 * h * 18432 + 163840 * h)
    total = target_params_from_config(KIMI_K2_BF16)
    assert c == pytest.approx(draft / (total - ROUTED * 3 / 4), rel=1e-9)
    # four aux states named by the config: a wider fc
    four = {**mla_draft, "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 20, 40, 57]}}
    assert draft_cost_from_configs(four, target) == pytest.approx((draft + h * h) / (total - ROUTED * 3 / 4), rel=1e-9)
    # a DeepSeek config that is not a draft has no draft cost
    assert draft_cost_from_configs(KIMI_K2_BF16, target) is None
    # hand-edited: a count that is no number is not read (3 aux, as vLLM defaults), no traceback
    edited = {**mla_draft, "num_aux_hidden_states": "three", "eagle_config": "[1, 29, 57]"}
    assert draft_cost_from_configs(edited, target) == pytest.approx(c, rel=1e-9)
    assert draft_cost_from_configs({**mla_draft, "hidden_size": "7168px"}, target) is None


# meta-llama/Llama-4-Scout-17B-16E config.json text_config (the keys the cost reads): every layer
# MoE (interleave_moe_layer_step 1), one routed expert per token plus a shared one, both 8192 wide;
# Maverick (128 experts) alternates MoE layers with dense MLPs of intermediate_size_mlp 16384
LLAMA4_SCOUT_TEXT = {"model_type": "llama4_text", "hidden_size": 5120, "num_hidden_layers": 48,
                     "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
                     "intermediate_size": 8192, "intermediate_size_mlp": 16384, "num_local_experts": 16,
                     "num_experts_per_tok": 1, "interleave_moe_layer_step": 1, "vocab_size": 202048,
                     "moe_layers": list(range(48))}
LLAMA4_MAVERICK_TEXT = {k: v for k, v in LLAMA4_SCOUT_TEXT.items() if k != "moe_layers"} | {
    "num_local_experts": 128, "interleave_moe_layer_step": 2}


@pytest.mark.parametrize("text", [LLAMA4_SCOUT_TEXT, LLAMA4_MAVERICK_TEXT])
def test_llama4_targets_read_their_shared_expert_and_dense_layers(text):
    wrapper = {"architectures": ["Llama4ForConditionalGeneration"], "model_type": "llama4", "text_config": text}
    # Meta's model cards: 17B active parameters (the input embedding counted, 202048 x 5120);
    # before, the shared expert and intermediate_size_mlp were missed: 10.1B (+1.0B)
    embedding = 202048 * 5120
    assert target_params_from_config(text) + embedding == pytest.approx(17e9, rel=0.02)
    draft = EAGLE3_DRAFT | {"hidden_size": 5120, "num_attention_heads": 40, "num_key_value_heads": 8,
                            "intermediate_size": 32768, "vocab_size": 202048}
    c = draft_cost_from_configs(draft, wrapper)
    # the bf16 draft over the wrapper's language model
    assert c == pytest.approx(draft_params_from_config(draft, 3, 5120) / target_params_from_config(text), rel=1e-12)
    parts = {p.part for p in decode_weight_parts(text)}
    assert parts >= {"attention", "routed experts", "shared experts", "lm_head"}
    assert ("dense MLP" in parts) == (text is LLAMA4_MAVERICK_TEXT)


# ---------------------------------------------------------------------------------------------
# A bf16 checkpoint the server quantizes as it loads it
# ---------------------------------------------------------------------------------------------
QWEN3_32B = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 5120,
             "intermediate_size": 25600, "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128,
             "num_hidden_layers": 64, "vocab_size": 151936, "torch_dtype": "bfloat16"}
QWEN3_32B_DRAFT = EAGLE3_DRAFT | {"hidden_size": 5120, "num_attention_heads": 32, "num_key_value_heads": 8,
                                  "intermediate_size": 25600, "vocab_size": 151936}


def _served_cost(argv: list[str]) -> tuple[float | None, str | None]:
    from spec_debug.diagnose.steps.launch_step import parse as parse_launch

    host = {"configs": {"draft_config": QWEN3_32B_DRAFT, "target_config": QWEN3_32B},
            "launch": parse_launch({"argv": argv}).get("launch", {})}
    return throughput_step.draft_cost(host), target_weights_line(host)


def test_a_bf16_target_served_with_online_fp8_reads_one_byte_a_weight():
    # vllm-project/vllm#40849's command: the target quantized online, the draft left bf16
    vllm = ["vllm", "serve", "Qwen/Qwen3-32B", "--quantization", "fp8", "--speculative-config",
            '{"method":"eagle3","model":"thoughtworks/Qwen3-32B-Eagle3","num_speculative_tokens":3}']
    bf16 = draft_cost_from_configs(QWEN3_32B_DRAFT, QWEN3_32B)
    online, line = _served_cost(vllm)
    assert bf16 is not None and online is not None
    # before: the flag was not read and c was that of the bf16 target, about half
    assert 1.8 * bf16 < online < 2.0 * bf16
    assert line is not None and "fp8 (online: --quantization fp8)" in line and "the bf16 draft's at 2" in line
    # SGLang can quantize the draft too (--speculative-draft-model-quantization): c falls back
    sglang = ["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-32B", "--quantization=fp8",
              "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "thoughtworks/Qwen3-32B-Eagle3",
              "--speculative-draft-model-quantization", "fp8", "--speculative-num-steps", "3",
              "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4"]
    both, line = _served_cost(sglang)
    assert both is not None and both < online and line is not None and "the draft's fp8 (online:" in line
    # a pre-quantized checkpoint keeps its own quantization_config whatever the flag says
    assert throughput_step.draft_cost({"configs": {"draft_config": EAGLE3_DRAFT, "target_config": KIMI_K2_THINKING},
                                       "launch": {"argv": ["vllm", "serve", "x", "-q", "fp8"]}}) == pytest.approx(
        draft_cost_from_configs(EAGLE3_DRAFT, KIMI_K2_THINKING))


@pytest.mark.parametrize("quantization, expected", [
    # AutoAWQ with attention kept in half precision by name (transformers AwqConfig
    # `modules_to_not_convert`, a name anywhere in the module path)
    ({"quant_method": "awq", "bits": 4, "group_size": 128, "modules_to_not_convert": ["self_attn"]},
     {"attention": {2.0}, "routed experts": {0.5}, "shared experts": {0.5}, "dense MLP": {0.5}}),
    # GPTQModel `dynamic`: the first layers' MLPs at 8 bits, every shared expert unquantized
    ({"quant_method": "gptq", "bits": 4, "dynamic": {r"+:model\.layers\.[0-2]\.mlp\..*": {"bits": 8},
                                                      r"-:.*shared_experts.*": {}}},
     {"attention": {0.5}, "routed experts": {0.5}, "shared experts": {2.0}, "dense MLP": {1.0}}),
    # bitsandbytes 4-bit with its skip list (transformers BitsAndBytesConfig llm_int8_skip_modules)
    ({"quant_method": "bitsandbytes", "load_in_4bit": True, "llm_int8_skip_modules": ["lm_head", "shared_experts"]},
     {"attention": {0.5}, "routed experts": {0.5}, "shared experts": {2.0}, "dense MLP": {0.5}}),
])
def test_skip_lists_and_overrides_of_awq_gptq_and_bitsandbytes(quantization, expected):
    parts: dict[str, set[float]] = {}
    for p in decode_weight_parts({**DEEPSEEK_V3_CONFIG, "quantization_config": quantization}):
        parts.setdefault(p.part, set()).add(p.bytes_per_weight)
    assert parts == {**expected, "lm_head": {2.0}}


def test_a_modelopt_mixed_precision_export_counts_each_named_layer_at_its_algo():
    # nvidia's MIXED_PRECISION NVFP4 exports (config.json quantization_config, as vLLM's
    # ModelOpt tests quote nvidia/Qwen3.6-27B-NVFP4): MLPs NVFP4, attention FP8 under its fused
    # qkv_proj name, the experts named by their block; what is not listed stays bf16
    layers = {}
    for i in range(61):
        at = f"model.layers.{i}"
        layers |= {f"{at}.self_attn.q_a_proj": {"quant_algo": "FP8"}, f"{at}.self_attn.o_proj": {"quant_algo": "FP8"},
                   f"{at}.mlp.experts": {"quant_algo": "NVFP4", "group_size": 16},
                   f"{at}.mlp.shared_experts.gate_up_proj": {"quant_algo": "NVFP4", "group_size": 16},
                   f"{at}.mlp.shared_experts.down_proj": {"quant_algo": "NVFP4", "group_size": 16}}
    mixed = {**DEEPSEEK_V3_CONFIG, "quantization_config": {
        "quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "kv_cache_quant_algo": "FP8",
        "quantized_layers": layers}}
    parts = {(p.part, p.bytes_per_weight): p.params for p in decode_weight_parts(mixed)}
    h = 7168
    assert parts[("routed experts", 0.5)] == 58 * 8 * 3 * h * 2048
    assert parts[("shared experts", 0.5)] == 58 * 3 * h * 2048
    assert parts[("attention", 1.0)] == 61 * (h * 1536 + 128 * 128 * h)  # q_a_proj and o_proj
    assert ("dense MLP", 2.0) in parts and ("lm_head", 2.0) in parts  # not listed: bf16
    # before: MIXED_PRECISION was no scheme read, the whole target counted bf16
    bf16 = {k: v for k, v in DEEPSEEK_V3_CONFIG.items() if k != "quantization_config"}
    assert draft_cost_from_configs(EAGLE3_DRAFT, mixed) > 2 * draft_cost_from_configs(EAGLE3_DRAFT, bf16)
