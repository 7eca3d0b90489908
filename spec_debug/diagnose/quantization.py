"""Which precision each weight of a checkpoint is stored in, from its quantization_config.

A rule takes a module (its Hugging Face name and the part of the model it belongs to) and gives
the bytes each of its weights takes, by the rules the loaders match module names with: compressed-
tensors `ignore` and `config_groups` targets, transformers' `modules_to_not_convert`, ModelOpt's
`ignore` / `exclude_modules` globs, GPTQModel's `dynamic`. Scale tensors (one per 16-128 weights)
are not counted: bits / 8 bytes per weight (MXFP4's shared exponent aside). Pure functions.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Callable
from typing import Any, Protocol

from spec_debug.probes.hostfiles import EXPERT_FORMATS_KEY, expert_formats, expert_tallies


class NamedWeight(Protocol):
    part: str  # "attention", "routed experts", "lm_head", ...
    name: str  # the Hugging Face module name quantization configs match


Rule = Callable[[NamedWeight], float]

BF16_BYTES = 2.0
# OCP Microscaling spec: MXFP4 is 4-bit E2M1 values with one 8-bit E8M0 scale per 32 of them, the
# format gpt-oss ships its experts in (openai/gpt-oss-120b config.json "quant_method": "mxfp4").
_MXFP4_BYTES = (4 + 8 / 32) / 8
# ModelOpt `quant_algo` -> bytes per weight (NVIDIA TensorRT-Model-Optimizer export; vLLM
# model_executor/layers/quantization/modelopt.py reads the same names)
_MODELOPT_BYTES = {"FP8": 1.0, "FP8_PB_WO": 1.0, "FP8_PER_CHANNEL_PER_TOKEN": 1.0, "NVFP4": 0.5,
                   "W4A16_NVFP4": 0.5, "W4A8_AWQ": 0.5, "W4A16_AWQ": 0.5, "NVFP4_AWQ": 0.5}


@functools.lru_cache(maxsize=4096)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    # cached: an FP8 checkpoint may list hundreds of modules one by one (Qwen/Qwen3-Next-80B-A3B-
    # Instruct-FP8 names every layer's linear_attn.in_proj_ba, mlp.gate, mlp.shared_expert_gate),
    # more patterns than `re`'s own cache holds, and recompiling them for every module of every
    # layer took ten seconds
    try:
        return re.compile(pattern)
    except re.error:
        return None


def _regex_match(pattern: str, name: str) -> bool:
    compiled = _compiled(pattern)
    return compiled is not None and compiled.match(name) is not None


def _compressed_tensors_name(target: str, name: str) -> bool:
    """compressed-tensors `_match_name` / `_match_class` (neuralmagic/compressed-tensors
    src/compressed_tensors/utils/match.py): "re:" + a regex re.match-ed against the module name,
    else the exact name, or the module's class ("Linear", every module counted here is one)."""
    if target.startswith("re:"):
        return _regex_match(target[3:], name)
    return target == name or target == "Linear"


def _transformers_skip(pattern: str, name: str) -> bool:
    """A `modules_to_not_convert` entry skips the module it names, the modules under it, and a
    module whose name ends with it (transformers quantizers_utils.py `should_convert_module`:
    a prefix, a regex such as gpt-oss's "model.layers.*.self_attn", or the name's end), at a
    dot: "model.layers.3.mlp.gate" is the router, not the experts' gate_proj."""
    pattern = pattern.removesuffix(".")  # "model.layers.0.": the layer
    skip = _compiled(r"(?:^|.*\.)(?:" + pattern + r")(?:\..*)?$") or _compiled(
        r"(?:^|.*\.)" + re.escape(pattern) + r"(?:\..*)?$")
    return skip is not None and skip.match(name) is not None


def _modelopt_skip(pattern: str, name: str) -> bool:
    """ModelOpt `ignore` / `exclude_modules` are fnmatch globs ("model.layers.*.self_attn*",
    vLLM modelopt.py `is_layer_excluded`)."""
    return fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(name, pattern + ".*")


def _names(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _bits_bytes(bits: Any) -> float | None:
    return bits / 8 if isinstance(bits, int) and not isinstance(bits, bool) and 0 < bits < 16 else None


def quant_method(quant: Any) -> str | None:
    """The scheme a quantization config names (an older ModelOpt hf_quant_config.json names
    none: it is ModelOpt's, by its `quantization.quant_algo`)."""
    if not isinstance(quant, dict):
        return None
    if quant.get("quant_method"):
        return str(quant["quant_method"])
    inner = quant.get("quantization")
    return "modelopt" if isinstance(inner, dict) and "quant_algo" in inner else None


def precision_rule(quant: Any) -> Rule | None:
    """A function giving each module's bytes per weight under `quantization_config`, or None
    when the config names no scheme read here (the weights are then counted bf16)."""
    if not isinstance(quant, dict):
        return None
    method = str(quant_method(quant) or "").lower()
    if not quant.get("quant_method") and method == "modelopt":
        # ModelOpt's older hf_quant_config.json: {"producer": {"name": "modelopt"}, "quantization":
        # {"quant_algo": "NVFP4", "exclude_modules": [...]}} (vLLM modelopt.py reads both forms)
        quant = quant["quantization"]
    skip = _names(quant.get("modules_to_not_convert")) + _names(quant.get("ignored_layers"))

    def skipped(module: NamedWeight) -> bool:
        # lm_head stays bf16: transformers adds the output embedding to the modules it never
        # converts (`get_keys_to_not_convert`), and the DeepSeek FP8 / AWQ / GPTQ releases store it so
        return module.part == "lm_head" or any(_transformers_skip(p, module.name) for p in skip)

    if method in ("fp8", "fbgemm_fp8"):
        # deepseek-ai/DeepSeek-V3 {"quant_method": "fp8", "weight_block_size": [128, 128]}: every
        # decoder Linear fp8; MiniMaxAI/MiniMax-M2 adds "modules_to_not_convert": ["gate",
        # "e_score_correction_bias", "lm_head"] (routers, which are not counted anyway)
        return lambda m: BF16_BYTES if skipped(m) else 1.0
    if method in ("gptq", "awq"):
        # AutoGPTQ / AutoAWQ quantize every decoder Linear to `bits` (AWQ also `w_bit`) but the
        # ones in `modules_to_not_convert`; GPTQModel's `dynamic` overrides per module: "-:regex"
        # leaves it unquantized, "+:regex" or a bare regex may give other bits (GPTQModel README,
        # "Dynamic Quantization")
        bits = _bits_bytes(quant.get("bits", quant.get("w_bit")))
        if bits is None:
            return None
        dynamic = quant.get("dynamic") if isinstance(quant.get("dynamic"), dict) else {}

        def gptq(m: NamedWeight) -> float:
            if skipped(m):
                return BF16_BYTES
            for key, override in dynamic.items():
                if not isinstance(key, str):
                    continue
                if key.startswith("-:") and _regex_match(key[2:], m.name):
                    return BF16_BYTES
                if _regex_match(key.removeprefix("+:"), m.name) and isinstance(override, dict):
                    return _bits_bytes(override.get("bits")) or bits
            return bits

        return gptq
    if method == "mxfp4":
        # transformers integrations/mxfp4.py converts only the experts (Mxfp4GptOssExperts);
        # attention, router and lm_head stay bf16 (openai/gpt-oss-* "modules_to_not_convert":
        # ["model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"])
        return lambda m: _MXFP4_BYTES if m.part == "routed experts" and not skipped(m) else BF16_BYTES
    if method == "bitsandbytes":
        per = 0.5 if quant.get("load_in_4bit") is True else 1.0 if quant.get("load_in_8bit") is True else None
        if per is None:
            return None
        skip += _names(quant.get("llm_int8_skip_modules"))
        return lambda m: BF16_BYTES if skipped(m) else per
    if method == "modelopt" and str(quant.get("quant_algo") or "").upper() == "MIXED_PRECISION":
        return _modelopt_mixed_rule(quant.get("quantized_layers"), quant.get(EXPERT_FORMATS_KEY))
    if method == "modelopt":
        per = _MODELOPT_BYTES.get(str(quant.get("quant_algo") or "").upper())
        if per is None:
            return None
        globs = _names(quant.get("ignore")) + _names(quant.get("exclude_modules"))
        return lambda m: BF16_BYTES if m.part == "lm_head" or any(_modelopt_skip(g, m.name) for g in globs) else per
    if method == "compressed-tensors":
        return _compressed_tensors_rule(quant)
    return None


# vLLM fuses q/k/v and gate/up into one module, and ModelOpt names the fused one in
# `quantized_layers` ("model.layers.0.self_attn.qkv_proj"); the Hugging Face names map to it
_FUSED = {"q_proj": "qkv_proj", "k_proj": "qkv_proj", "v_proj": "qkv_proj",
          "gate_proj": "gate_up_proj", "up_proj": "gate_up_proj"}


def _modelopt_mixed_rule(layers: Any, kept_formats: Any = None) -> Rule | None:
    """ModelOpt MIXED_PRECISION (nvidia/*-NVFP4 releases that keep attention in FP8 and the MLPs in
    NVFP4): `quantized_layers` maps a module, or the block above it ("model.layers.0.mlp.experts"),
    to its own `quant_algo`; a module it does not name stays unquantized (vLLM modelopt.py
    ModelOptMixedPrecisionConfig resolves a layer by its name, then its fused name).
    The routed experts are one module named by expert 0 (target_weights._mlp); where the experts
    of a projection differ (ModelOpt auto_quantize picks each expert's format) it reads their mean
    bytes per weight, each expert as likely to be routed to, from the whole list or from the
    counts a probe kept when it trimmed the list to expert 0's entries (`kept_formats`,
    probes/hostfiles.py trim_expert_layers). Read at expert 0's format, a Qwen3-30B-A3B export
    whose experts are 1 in 5 FP8, expert 0 among them, and 4 in 5 NVFP4 read 28% more bytes a step."""
    if not isinstance(layers, dict) or not layers:
        return None
    algos = {str(name): _MODELOPT_BYTES.get(str(entry.get("quant_algo") or "").upper())
             for name, entry in layers.items() if isinstance(entry, dict)}
    mixed = {**expert_formats(layers), **(kept_formats if isinstance(kept_formats, dict) else {})}
    mean = {projection: _mean_bytes(tally) for projection, tally in mixed.items() if isinstance(tally, dict)}

    def rule(m: NamedWeight) -> float:
        head, _, leaf = m.name.rpartition(".")
        if mean and head.endswith(".0"):
            block = head.removesuffix(".0")
            for projection in (f"{block}.{leaf}", f"{block}.{_FUSED.get(leaf)}"):
                if mean.get(projection):
                    return mean[projection]
        names = [m.name] + ([f"{head}.{_FUSED[leaf]}"] if leaf in _FUSED else [])
        parts = m.name.split(".")
        names += [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]  # the blocks above it
        for name in names:
            if algos.get(name):
                return algos[name]
        return BF16_BYTES

    return rule


def experts_in_several_formats(quant: Any) -> dict[str, dict[str, dict[str, int]]]:
    """The MoE layers of a ModelOpt MIXED_PRECISION config whose routed experts are stored in more
    than one format, each projection's formats by experts block ({"model.layers.3.mlp.experts":
    {"gate_proj": {"FP8": 64}, "down_proj": {"NVFP4": 51, "FP8": 13}}}), from the whole
    `quantized_layers` or the counts a probe kept when it trimmed it ({} otherwise; a projection
    whose experts agree counts expert 0 alone in a trimmed list).
    vLLM cannot serve such a layer: its fused MoE layer (gate, up and down of every expert) takes
    one quant method, the format of the first `quantized_layers` key under the layer's prefix
    (vllm-project/vllm vllm/model_executor/layers/quantization/modelopt.py,
    ModelOptMixedPrecisionConfig `_resolve_quant_algo`, its prefix lookup for RoutedExperts), and
    makes every expert's weights in that format, so an expert or a projection saved in another
    (NVFP4 packs two weights a byte, FP8 one) does not fit them when the checkpoint loads.
    TensorRT-LLM states the same rule for its fused MoE (NVIDIA/TensorRT-LLM#15485: "a layer's
    experts block uses a single format")."""
    if not isinstance(quant, dict):
        return {}
    if not quant.get("quant_method") and isinstance(quant.get("quantization"), dict):
        quant = quant["quantization"]  # ModelOpt's older hf_quant_config.json
    if str(quant.get("quant_algo") or "").upper() != "MIXED_PRECISION":
        return {}
    layers = quant.get("quantized_layers") if isinstance(quant.get("quantized_layers"), dict) else {}
    kept = quant.get(EXPERT_FORMATS_KEY)
    blocks: dict[str, dict[str, dict[str, int]]] = {}
    for projection, tally in {**expert_tallies(layers), **(kept if isinstance(kept, dict) else {})}.items():
        block, _, leaf = str(projection).rpartition(".")
        if block and isinstance(tally, dict):
            blocks.setdefault(block, {})[leaf] = dict(tally)
    return {block: leaves for block, leaves in blocks.items()
            if len({algo for tally in leaves.values() for algo in tally}) > 1}


def _mean_bytes(tally: dict[Any, Any]) -> float | None:
    """The mean bytes per weight of experts counted by format ({"NVFP4": 51, "FP8": 13}); a format
    no bytes are known for, or UNQUANTIZED, at bf16's (as the rule reads an entry it cannot)."""
    counts = {str(algo): n for algo, n in tally.items() if isinstance(n, int) and not isinstance(n, bool) and n > 0}
    total = sum(counts.values())
    if not total:
        return None
    return sum(n * (_MODELOPT_BYTES.get(algo.upper()) or BF16_BYTES) for algo, n in counts.items()) / total


def _compressed_tensors_rule(quant: dict[str, Any]) -> Rule | None:
    """llm-compressor: a module in `ignore` stays bf16; else the first config group whose
    `targets` match it gives its weights' `num_bits` (a group with "weights": null quantizes
    activations only); a module no group targets stays bf16. moonshotai/Kimi-K2-Thinking:
    targets ["Linear"], 4-bit int, ignore ["lm_head", "re:.*self_attn.*", "re:.*shared_experts.*",
    "re:.*mlp\\.(gate|up|gate_up|down)_proj.*"]: only the routed experts are INT4."""
    groups = quant.get("config_groups")
    if not isinstance(groups, dict) or not groups:
        return None
    ignore = _names(quant.get("ignore"))
    rules: list[tuple[list[str], float]] = []
    for group in groups.values():
        if not isinstance(group, dict):
            continue
        weights = group.get("weights")
        per = _bits_bytes(weights.get("num_bits")) if isinstance(weights, dict) else None
        rules.append((_names(group.get("targets")), per or BF16_BYTES))

    def rule(m: NamedWeight) -> float:
        if any(_compressed_tensors_name(i, m.name) for i in ignore):
            return BF16_BYTES
        for targets, per in rules:
            if any(_compressed_tensors_name(t, m.name) for t in targets):
                return per
        return BF16_BYTES

    return rule
