"""The draft's config.json, read into one typed `DraftConfig` whatever the format.

Two formats exist (EAGLE3.md section 1):
- speculators: `speculators_model_type: eagle3`, the decoder config nested under
  `transformer_layer_config`, aux ids top-level, the norm flags top-level
  (vllm-project/speculators src/speculators/models/eagle3/config.py);
- EAGLE / SpecForge: a flat HF llama config (`LlamaForCausalLMEagle3`) with `draft_vocab_size`,
  `target_hidden_size` and the aux ids nested in `eagle_config` (sgl-project/SpecForge
  configs/*-eagle3.json; SafeAILab/EAGLE eagle/model/cnets.py).

Pure stdlib: the controller can read a config without torch.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from spec_debug.eagle3 import engines
from spec_debug.errors import SpecDebugError

SUPPORTED_DECODERS = ("llama", "qwen3")

# What the decoder's transformers config class fills in for a key the config.json lacks
# (a hand-written or converted config; save_pretrained writes them all). transformers
# models/llama/configuration_llama.py: head_dim = hidden_size // num_attention_heads,
# max_position_embeddings 2048; models/qwen3/configuration_qwen3.py: head_dim 128 whatever
# the hidden size, num_key_value_heads 32, max_position_embeddings 32768.
_CLASS_DEFAULTS: dict[str, dict[str, int]] = {
    "llama": {"max_position_embeddings": 2048},
    "qwen3": {"head_dim": 128, "num_key_value_heads": 32, "max_position_embeddings": 32768},
}


# transformers' LlamaConfig and Qwen3Config num_hidden_layers default (configuration_llama.py,
# configuration_qwen3.py)
_ABSENT_LAYERS = 32


def _class_default(decoder: Mapping[str, Any], key: str) -> int | None:
    return _CLASS_DEFAULTS.get(str(decoder.get("model_type") or "llama"), {}).get(key)


class CheckpointError(SpecDebugError):
    """A draft or target checkpoint that cannot be read or does not make sense."""


class TargetMisfitError(CheckpointError):
    """A draft made for another target than the one given (its fc width or vocabulary against
    the target's hidden size or lm_head rows): what the configs and vocab steps report from
    the configs and headers (SD204, SD303), so the steps that load the draft say they did not
    run because of it (diagnose/steps/common.py target_misfit_line) instead of one more
    "step could not run" warning."""


class ConfigMisfitError(CheckpointError):
    """A draft whose config.json does not describe its weights (their width, layer count, a
    tensor's shape, a flag-built norm): what the configs and vocab steps report from the same
    tensor headers (SD204, SD704, SD303), so the steps that load the draft say they did not
    run because of it (diagnose/steps/common.py draft_misfit_line)."""


@dataclass(frozen=True)
class RopeConfig:
    """RoPE as HF computes it (transformers modeling_rope_utils.py); `params` keeps every key."""

    rope_type: str = "default"
    theta: float = 10000.0
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DraftConfig:
    format: str  # "speculators" | "eagle"
    model_type: str  # decoder family of the draft layers: "llama" | "qwen3"
    hidden_size: int
    target_hidden_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    intermediate_size: int
    rms_norm_eps: float
    vocab_size: int  # target vocabulary V (rows of embed_tokens, length of t2d)
    draft_vocab_size: int  # DV (rows of lm_head)
    attention_bias: bool
    mlp_bias: bool
    hidden_act: str
    rope: RopeConfig
    max_position_embeddings: int
    # as the forward applies them (transformers' config rules; raw keys stay in `raw`):
    sliding_window: int | None  # None when no layer slides
    layer_types: tuple[str, ...]  # one per draft layer: "full_attention" | "sliding_attention"
    aux_layer_ids: tuple[int, ...] | None  # as written in the config (format's own convention)
    num_aux: int  # fc fan-in in units of target_hidden_size
    use_aux_hidden_state: bool
    """eagle_config.use_aux_hidden_state (default True). False: the engines feed the draft the
    target's last hidden state alone and build no fc (see use_aux_hidden_state)."""
    norm_before_residual: bool
    norm_before_fc: bool
    fc_norm: bool
    norm_output: bool
    speculative_tokens: int | None
    verifier: str | None
    raw: Mapping[str, Any]

    @property
    def norm_flags(self) -> dict[str, bool]:
        return {flag: bool(getattr(self, flag)) for flag in engines.NORM_FLAGS}

    @property
    def names_layer_ids(self) -> bool:
        """Whether the config names the layers the draft was trained on: the engine keys
        (aux_layer_ids) or, in a plain config, AngelSlim's own key, which trained_layer_ids
        reads first (engines.ANGELSLIM_KEY) though no engine serves it. False: the trainers'
        default layers are assumed."""
        return bool(self.aux_layer_ids) or (
            self.format != "speculators"
            and engines.configured_layer_ids(self.raw, (engines.ANGELSLIM_KEY,)) is not None)

    def trained_layer_ids(self, num_target_layers: int, target_architecture: str | None = None,
                          sglang_version: str | None = None) -> list[int]:
        """The aux ids in the input-to-layer convention (see engines.trained_layer_ids). With the
        target's architecture, nested ids starting at 0 or 1 are read as SGLang reads them on
        it (output-of on the Llama path, the layer check's fix), else as on no named target."""
        if target_architecture is None:
            return engines.trained_layer_ids(self.raw, num_target_layers)
        return engines.trained_layer_ids(self.raw, num_target_layers, target_architecture=target_architecture,
                                         sglang_version=sglang_version)

    def summary(self) -> dict[str, Any]:
        return {
            "format": self.format, "model_type": self.model_type, "hidden_size": self.hidden_size,
            "num_layers": self.num_layers, "vocab_size": self.vocab_size,
            "draft_vocab_size": self.draft_vocab_size, "aux_layer_ids": self.aux_layer_ids,
            "num_aux": self.num_aux, **self.norm_flags,
            # what the forward applies (Qwen3 drafts: after Qwen3Config's rules), not raw keys
            "sliding_window": self.sliding_window, "layer_types": list(self.layer_types),
            "rope_type": self.rope.rope_type,
            "max_position_embeddings": self.max_position_embeddings,
        }


def _rope_from(decoder: Mapping[str, Any], where: str = "config.json",
               max_positions: int | None = None) -> RopeConfig:
    """`max_positions`: the max_position_embeddings the config class settles on (its default
    when the key is absent)."""
    # transformers >= 5 writes `rope_parameters`; older configs have rope_theta + rope_scaling.
    # With both, transformers takes `rope_scaling or rope_parameters` whole, not merged
    # (modeling_rope_utils.py `convert_rope_params_to_dict`): the old-name dict wins and its
    # rope_theta comes from the top-level key or 10000, never from rope_parameters.
    scaling = _mapping(decoder.get("rope_scaling"), "rope_scaling", where)
    if scaling:
        params = dict(scaling)
    else:
        params = dict(_mapping(decoder.get("rope_parameters"), "rope_parameters", where))
    if "sliding_attention" in params or "full_attention" in params:
        # Per-layer-type rope: speculators takes the sliding_attention variant
        # (src/speculators/models/utils.py flatten_rope_parameters).
        key = "sliding_attention" if params.get("sliding_attention") else "full_attention"
        params = dict(_mapping(params.get(key), f"rope_parameters.{key}", where))
    if decoder.get("partial_rotary_factor") is not None:
        # a top-level partial_rotary_factor (Phi-3/Phi-4-mini configs write it there) fills
        # the rope dict's, as convert_rope_params_to_dict does
        params.setdefault("partial_rotary_factor", decoder["partial_rotary_factor"])
    rope_type = str(params.get("rope_type") or params.get("type") or "default")
    if rope_type == "su":
        # LongRoPE under its first name: Phi-3's first releases wrote `"type": "su"`
        # (microsoft/Phi-3-mini-128k-instruct config.json before the rename), and drafts for
        # them copy the target's rope_scaling. vLLM serves it as longrope
        # (vllm transformers_utils/config.py patch_rope_parameters_dict: "Replacing legacy
        # rope_type 'su' with 'longrope'"), as transformers' Phi3Config does
        # (models/phi3/configuration_phi3.py); a Llama config class rejects the name.
        rope_type = "longrope"
    if rope_type == "mrope":
        # Qwen2/2.5-VL drafts (SpecForge configs/qwen2-5-vl-7b-eagle3.json: `{"type": "mrope",
        # "mrope_section": [16, 24, 24]}`). On text the three position rows are equal, so the
        # sections pick the same angles as plain RoPE; transformers reads it as "default" too
        # (models/qwen2_vl/configuration_qwen2_vl.py). Dumps of image tokens are not text.
        rope_type = "default"
    # a hand-edited "rope_theta": "500000" must be one clear error, not a float() traceback
    _refuse_null((params, decoder), "rope_theta", where, 10000.0)
    theta = _positive(_number(params if params.get("rope_theta") is not None else decoder,
                              "rope_theta", where, float, default=10000.0), "rope_theta", where)
    if params.get("factor") is not None:
        _positive(_number(params, "factor", where, float), "factor", where)
    if rope_type in ("llama3", "yarn", "longrope"):
        # transformers modeling_rope_utils.py `standardize_rope_params`: a top-level
        # original_max_position_embeddings (Phi-3 writes it beside rope_scaling) replaces the
        # one inside the rope dict; otherwise max_position_embeddings fills it in
        top_level = decoder.get("original_max_position_embeddings")
        if top_level is not None:
            params["original_max_position_embeddings"] = top_level
        params.setdefault("original_max_position_embeddings",
                          decoder.get("max_position_embeddings") or max_positions
                          or _class_default(decoder, "max_position_embeddings"))
    return RopeConfig(rope_type=rope_type, theta=theta, params=params)


rope_from_decoder = _rope_from  # public name (diagnose/checks/draft_config.py reads RoPE keys)


def _mapping(value: Any, key: str, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise CheckpointError(f"{where}: {key!r} is {type(value).__name__} {value!r:.60}, "
                              "expected a JSON object")
    return value


def _number(mapping: Mapping[str, Any], key: str, where: str, kind: type = int,
            default: Any = None, minimum: float | None = None) -> Any:
    """A numeric config value, or one clear error naming the key (hand-edited and converted
    configs carry strings, nulls and zeros where HF writes numbers)."""
    value = mapping.get(key)
    if value is None:
        if default is None:
            raise CheckpointError(f"{where}: no {key!r}")
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            kind is int and isinstance(value, float) and not value.is_integer()):
        raise CheckpointError(f"{where}: {key!r} is {value!r}, expected "
                              f"{'an integer' if kind is int else 'a number'}")
    if not math.isfinite(value):
        # Python's json (so transformers' from_pretrained) reads NaN and Infinity, which
        # json.dumps writes for a computed float: a NaN rms_norm_eps or rope_theta makes every
        # logit NaN and the draft score 0 with no error
        raise CheckpointError(f"{where}: {key!r} is {json.dumps(value)}, expected a finite "
                              "number", hint=f"write the {key} the model was trained with")
    value = kind(value)
    if minimum is not None and value < minimum:
        raise CheckpointError(f"{where}: {key!r} is {value}, expected at least {minimum}")
    return value


def _positive(value: float, key: str, where: str) -> float:
    """A RoPE base or scaling factor, refused at zero or below: transformers divides by it or
    raises it to fractional powers (modeling_rope_utils.py `_compute_default_rope_parameters`
    `1.0 / base ** (arange(0, dim, 2) / dim)`, `_compute_linear_scaling_rope_parameters`
    `inv_freq /= factor`), so speculators and the engines get Inf or NaN angles and every
    logit NaN; read as the default instead, the eval scored a draft no engine can run."""
    if value <= 0:
        raise CheckpointError(f"{where}: {key!r} is {value:g}, expected a positive number",
                              hint=f"write the {key} the draft was trained with (its target's "
                                   "config has it)")
    return value


def _refuse_null(mappings: tuple[Mapping[str, Any], ...], key: str, where: str,
                 default: float) -> None:
    """One clear error for a key written as null with no value beside it: read as the default
    it would give the draft another norm epsilon or RoPE base than it was trained with, and
    transformers 5 refuses it (LlamaConfig validates rms_norm_eps as a float; a null
    rope_theta fails in the rotary embedding's `base ** ...`), so speculators and vLLM, which
    build the decoder from it, cannot load the draft."""
    if any(key in m and m[key] is None for m in mappings) and all(
            m.get(key) is None for m in mappings):
        raise CheckpointError(f"{where}: {key!r} is null",
                              hint=f"write the {key} the draft was trained with (its target's "
                                   f"config has it), or remove the key for the default "
                                   f"{default:g}")


def _rms_norm_eps(decoder: Mapping[str, Any], where: str) -> float:
    _refuse_null((decoder,), "rms_norm_eps", where, 1e-6)
    return _number(decoder, "rms_norm_eps", where, float, default=1e-6)


def _int(mapping: Mapping[str, Any], key: str, where: str) -> int:
    return _number(mapping, key, where, int, minimum=1)


# Where each shape key shows in the weights. A decoder config without one is built with
# transformers' class default (LlamaConfig: hidden_size 4096, num_attention_heads 32) by
# speculators, vLLM and SGLang alike, so its layers do not fit the saved weights.
_SHAPE_KEY_WEIGHTS = {"hidden_size": "the length of norm.weight",
                      "num_attention_heads": "the rows of layers.0.self_attn.q_proj.weight "
                                             "divided by head_dim"}


def _shape_key(decoder: Mapping[str, Any], key: str, where: str) -> int:
    """`_int`, with the way out when the key is absent: the decoder section the engines build
    from (transformer_layer_config in a speculators config) needs it."""
    if decoder.get(key) is not None:
        return _int(decoder, key, where)
    raise CheckpointError(
        f"{where}: no {key!r}",
        hint=f"add {key} to the draft's decoder config (transformer_layer_config in a "
             f"speculators config): {_SHAPE_KEY_WEIGHTS[key]}; without it speculators, vLLM and "
             "SGLang build the transformers class default, which the weights do not fit")


def _layer_ids(value: Any, key: str, where: str) -> tuple[int, ...] | None:
    if value is None or value == []:
        return None
    # eagle_config's ids are read output-of (SGLang models/llama.py `[val + 1 for val in
    # layer_ids]`), where a first id of -1 is the embedding output: the spelling the layer
    # check itself proposes for a draft trained on it (engines.trained_layer_ids)
    lowest = [-1 if n == 0 and key.startswith("eagle_config.") else 0
              for n in range(len(value))] if isinstance(value, (list, tuple)) else []
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(i, int) and not isinstance(i, bool) and i >= low for i, low in zip(value, lowest)):
        # A string ("2,16,29") or digit strings: speculators refuses the first (pydantic
        # list[int]), SGLang and vLLM misread both (diagnose SD707); say how to write it
        texts = value.replace(";", ",").strip("[]() ").split(",") if isinstance(value, str) \
            else [str(i) for i in value] if isinstance(value, (list, tuple)) else []
        digits = [t.strip() for t in texts]
        hint = (f"write it as a JSON list of integers: \"{key.rsplit('.', 1)[-1]}\": "
                f"[{', '.join(digits)}]" if digits and all(d.isdigit() for d in digits) else None)
        raise CheckpointError(f"{where}: {key} is {value!r}, expected a list of layer indices "
                              "such as [2, 16, 29]", hint=hint)
    return tuple(value)


# The other draft kinds speculators 0.9.0 saves (src/speculators/models/*/config.py
# SpeculatorModelConfig.register): said before only "speculators_model_type is 'mtp', not
# 'eagle3'", nothing on what the draft is or where it runs. vLLM's speculators config reader
# registers eagle3, peagle, dflash and dspark (vllm transformers_utils/configs/speculators/
# algos.py SUPPORTED_SPECULATORS_TYPES); a type it does not register it refuses at startup.
_OTHER_SPECULATORS_TYPES = {
    "mtp": ("an MTP draft (MTPDraftModel: one multi-token-prediction layer over the "
            "verifier's full vocabulary)",
            "serve it as an MTP draft (vLLM speculative_config method \"mtp\", which reads "
            "num_nextn_predict_layers, speculators models/mtp/config.py), not as EAGLE-3"),
    "dflash": ("a DFlash block draft", "serve it with vLLM speculative_config method \"dflash\" "
               "(vLLM reads speculators dflash configs) or SGLang --speculative-algorithm DFLASH"),
    "dspark": ("a DSpark block draft (DFlash plus a Markov head)",
               "serve it with vLLM speculative_config method \"dspark\" (vLLM reads speculators "
               "dspark configs)"),
    "dflash2": ("a DFlash2 block draft (DFlash with local convolutions and a candidate "
                "selector)",
                "vLLM's speculators reader registers eagle3, peagle, dflash and dspark, not "
                "dflash2: serve it with the runtime it was trained for"),
    "xpress": ("an XPress block draft (DFlash plus a causal refiner resolved by Jacobi passes)",
               "vLLM's speculators reader registers eagle3, peagle, dflash and dspark, not "
               "xpress: serve it with the runtime it was trained for"),
}


def _refuse_other_speculators_type(raw: Mapping[str, Any], where: str) -> None:
    kind = raw.get("speculators_model_type")
    known = _OTHER_SPECULATORS_TYPES.get(kind) if isinstance(kind, str) else None
    if known is None:
        raise CheckpointError(
            f"{where}: speculators_model_type is {kind!r}, not 'eagle3'",
            hint="spec-debug's drafter runs EAGLE-3 drafts (speculators_model_type \"eagle3\"); "
                 "pass one as --model")
    what, serve = known
    raise CheckpointError(
        f"{where}: speculators_model_type is {kind!r}: {what}, not an EAGLE-3 draft; "
        "spec-debug's drafter runs EAGLE-3 drafts only, so it cannot score this one",
        hint=f"{serve}; pass an EAGLE-3 draft (speculators eagle3, or LlamaForCausalLMEagle3) "
             "as --model")


def _default_proposal(spec: Mapping[str, Any]) -> Mapping[str, Any]:
    """The proposal method speculators_config.default_proposal_method names (speculators
    validates that it is one of proposal_methods' proposal_type, src/speculators/config.py
    check_default_proposal_method), else the first: a draft listing a tree method before
    its greedy default was read with the tree's depth."""
    proposals = spec.get("proposal_methods")
    methods = [m for m in proposals if isinstance(m, Mapping)] if isinstance(proposals, list) \
        else []
    default = spec.get("default_proposal_method")
    named = [m for m in methods if default is not None and m.get("proposal_type") == default]
    return (named or methods or [{}])[0]


def parse_draft_config(raw: Mapping[str, Any], where: str = "config.json") -> DraftConfig:
    """Read either format. `where` names the file in error messages."""
    if not isinstance(raw, Mapping):
        raise CheckpointError(f"{where}: expected a JSON object, found {type(raw).__name__}")
    if (raw.get("model_type") == "eagle" and isinstance(raw.get("model"), Mapping)
            and "hidden_size" not in raw):
        # vLLM's EAGLEConfig layout (vllm transformers_utils/configs/eagle.py): the draft's
        # decoder config under "model", as the checkpoints converted for vLLM's EAGLE support
        # were saved (vllm-project/vllm#11126, docs/features/spec_decode.md). Refused before as
        # "draft decoder model_type 'eagle'"; the weights tell which EAGLE generation it is.
        raw = {**{k: v for k, v in raw.items() if k not in ("model", "model_type")},
               **raw["model"]}
    if raw.get("speculators_model_type") is None and isinstance(
            raw.get("transformer_layer_config"), Mapping) and "hidden_size" not in raw:
        # speculators' layout without the key that names it: speculators refuses it
        # ("Loading a non-speculator model config is not supported yet",
        # src/speculators/config.py SpeculatorModelConfig.from_pretrained) and vLLM reads a
        # config as speculators' only when the key is there (vllm transformers_utils/configs/
        # speculators/base.py); read as an EAGLE config it only said "no 'hidden_size'"
        raise CheckpointError(
            f"{where}: a speculators config (transformer_layer_config"
            f"{', speculators_config' if 'speculators_config' in raw else ''}) without "
            "speculators_model_type: speculators and vLLM do not load it as a draft",
            hint='add "speculators_model_type": "eagle3" to config.json (speculators writes '
                 'it; a hand edit or an older export dropped it)')
    if raw.get("speculators_model_type") is not None:
        if raw["speculators_model_type"] != "eagle3":
            _refuse_other_speculators_type(raw, where)
        fmt = "speculators"
        if raw.get("transformer_layer_config") is None:
            raise CheckpointError(f"{where}: a speculators config needs transformer_layer_config "
                                  "(the draft decoder's HF config)")
        decoder = _mapping(raw.get("transformer_layer_config"), "transformer_layer_config", where)
        aux_key = "eagle_aux_hidden_state_layer_ids"
        aux = raw.get(aux_key)
        spec = _mapping(raw.get("speculators_config"), "speculators_config", where)
        steps = _default_proposal(spec).get("speculative_tokens")
        verifier = _mapping(spec.get("verifier"), "speculators_config.verifier", where).get(
            "name_or_path")
    else:
        fmt = "eagle"
        decoder = raw
        eagle_config = _mapping(raw.get("eagle_config"), "eagle_config", where)
        aux_key = "eagle_config.eagle_aux_hidden_state_layer_ids"
        aux = eagle_config.get("eagle_aux_hidden_state_layer_ids")
        if not aux:
            aux_key, aux = "eagle_aux_hidden_state_layer_ids", raw.get(
                "eagle_aux_hidden_state_layer_ids")
        steps = raw.get("num_lookahead_tokens")
        verifier = None
    aux_ids = _layer_ids(aux, aux_key, where)
    model_type = str(decoder.get("model_type") or "llama")
    if fmt == "eagle" and model_type != "llama" and _llama_eagle3(raw):
        # SpecForge copies the target's model_type into the draft config (configs/
        # phi4-eagle3.json: "phi3", qwq-32B-eagle3.json: "qwen2") but always builds its one
        # draft class, a Llama decoder (specforge/algorithms/eagle3/providers.py
        # DRAFT_ARCHITECTURE); SGLang and vLLM pick the class by `architectures` too, and
        # speculators converts such a config into a LlamaConfig whatever its model_type
        # (convert/eagle/eagle3_converter.py `_create_transformer_config_from_eagle`), so a
        # "qwen3" here has no q_norm/k_norm either.
        model_type = "llama"
    if model_type not in SUPPORTED_DECODERS:
        raise CheckpointError(
            f"{where}: draft decoder model_type {model_type!r} is not supported "
            f"(supported: {', '.join(SUPPORTED_DECODERS)})")
    hidden = _shape_key(decoder, "hidden_size", where)
    heads = _shape_key(decoder, "num_attention_heads", where)
    defaults = _CLASS_DEFAULTS.get(model_type, {})
    # absent: the class default (Qwen3Config 32); null: num_attention_heads (__post_init__)
    kv_heads = _number(decoder, "num_key_value_heads", where, minimum=1, default=heads if (
        "num_key_value_heads" in decoder) else defaults.get("num_key_value_heads", heads))
    if heads % kv_heads:
        # vLLM's Attention asserts `num_heads % num_kv_heads == 0` at build, and speculators'
        # attention has k_proj/v_proj of num_key_value_heads x head_dim rows, which the saved
        # weights (a head count that divides) do not fill: no one serves or loads it
        raise CheckpointError(f"{where}: num_attention_heads {heads} is not a multiple of "
                              f"num_key_value_heads {kv_heads}",
                              hint="set num_key_value_heads to the rows of "
                                   "layers.0.self_attn.k_proj.weight divided by head_dim (a "
                                   f"divisor of {heads}); vLLM refuses to build this attention "
                                   "and speculators cannot load its k_proj/v_proj")
    head_dim = _number(decoder, "head_dim", where, minimum=1,
                       default=defaults.get("head_dim", hidden // heads))
    if fmt == "speculators" and decoder.get("vocab_size") is None:
        # speculators builds the decoder from transformer_layer_config alone; without the key
        # there, transformers' LlamaConfig default (32000) stands, and loading the weights
        # fails on embed_tokens' shape far from the cause
        raise CheckpointError(
            f"{where}: no 'vocab_size' in transformer_layer_config"
            + (f" (the top level has {raw['vocab_size']!r}, which speculators does not read)"
               if raw.get("vocab_size") is not None else ""),
            hint="add the target's vocab_size to transformer_layer_config (speculators writes it there)")
    vocab = _int(decoder, "vocab_size", where)
    # speculators builds transformer_layer_config as the transformers class, whose default
    # (32 for LlamaConfig and Qwen3Config) stands when the key is absent: it loads layers.0
    # and leaves 31 random layers behind it. EAGLE-format configs keep the one layer EAGLE's
    # own code always built.
    num_layers = _number(decoder, "num_hidden_layers", where, minimum=1,
                         default=_ABSENT_LAYERS if fmt == "speculators" else 1)
    sliding_window, layer_types = _attention_windows(decoder, model_type, num_layers, where)
    max_positions = _number(decoder, "max_position_embeddings", where, minimum=1,
                            default=defaults.get("max_position_embeddings", 2048))
    target_hidden = _number(raw, "target_hidden_size", where, default=hidden, minimum=1)
    draft_vocab = _number(raw, "draft_vocab_size", where, default=0, minimum=0) or _number(
        decoder, "draft_vocab_size", where, default=vocab, minimum=1)
    steps = _number({"speculative_tokens": steps}, "speculative_tokens", where, default=0,
                    minimum=0)
    return DraftConfig(
        format=fmt,
        model_type=model_type,
        hidden_size=hidden,
        target_hidden_size=int(target_hidden),
        num_layers=num_layers,
        num_heads=heads,
        num_kv_heads=kv_heads,
        head_dim=head_dim,
        intermediate_size=_int(decoder, "intermediate_size", where),
        rms_norm_eps=_rms_norm_eps(decoder, where),
        vocab_size=vocab,
        draft_vocab_size=draft_vocab,
        attention_bias=bool(decoder.get("attention_bias", False)),
        # Qwen3MLP has no biases whatever the config says (transformers modeling_qwen3.py)
        mlp_bias=model_type != "qwen3" and bool(decoder.get("mlp_bias", False)),
        hidden_act=str(decoder.get("hidden_act") or "silu"),
        rope=_rope_from(decoder, where, max_positions),
        max_position_embeddings=max_positions,
        sliding_window=sliding_window,
        layer_types=tuple(layer_types),
        aux_layer_ids=aux_ids,
        num_aux=len(aux_ids) if aux_ids else 3,  # speculators core.py: 3 when ids are absent
        use_aux_hidden_state=use_aux_hidden_state(raw),
        norm_before_residual=_norm_flag(raw, "norm_before_residual", fmt, where),
        norm_before_fc=_norm_before_fc(raw, fmt, where),
        fc_norm=_norm_flag(raw, "fc_norm", fmt, where),
        norm_output=_norm_output(raw, fmt, where),
        speculative_tokens=steps or None,
        verifier=verifier,
        raw=dict(raw),
    )


def _attention_windows(decoder: Mapping[str, Any], model_type: str, num_layers: int,
                       where: str) -> tuple[int | None, tuple[str, ...]]:
    """(window, layer_types) as the forward applies them: the config object transformers builds
    from these keys, which speculators reads (core.py `self.sliding_window`, `layer_types`).
    A layer slides only if its type says so and a window exists."""
    layer_types = decoder.get("layer_types")
    if layer_types is not None and (not isinstance(layer_types, (list, tuple)) or not all(
            isinstance(t, str) for t in layer_types)):
        raise CheckpointError(f"{where}: layer_types is {layer_types!r}, expected a list of "
                              "'full_attention' / 'sliding_attention'")
    window = decoder.get("sliding_window")
    if window is not None:
        window = _number(decoder, "sliding_window", where, minimum=1)
    if model_type == "qwen3":
        # transformers models/qwen3/configuration_qwen3.py `Qwen3Config.__post_init__`: the
        # window exists only with use_sliding_window (default False; sliding_window default
        # 4096), and absent layer_types slide from layer max_window_layers (default 28) on
        if not decoder.get("use_sliding_window", False):
            window = None
        elif "sliding_window" not in decoder:
            window = 4096
        if layer_types is None:
            first = decoder.get("max_window_layers", 28)
            first = first if isinstance(first, int) and not isinstance(first, bool) else 28
            layer_types = ["sliding_attention" if window is not None and i >= first
                           else "full_attention" for i in range(num_layers)]
    given = list(layer_types or ())
    types = tuple("sliding_attention" if i < len(given) and given[i] == "sliding_attention"
                  and window is not None else "full_attention" for i in range(num_layers))
    return (window if "sliding_attention" in types else None), types


# Draft classes that are a Llama decoder whatever the config's model_type says: SpecForge /
# SGLang `LlamaForCausalLMEagle3`, vLLM's `Eagle3LlamaForCausalLM` (registry.py).
_LLAMA_EAGLE3_ARCHITECTURES = ("LlamaForCausalLMEagle3", "Eagle3LlamaForCausalLM")


def _llama_eagle3(raw: Mapping[str, Any]) -> bool:
    architectures = raw.get("architectures")
    return isinstance(architectures, list) and any(
        name in _LLAMA_EAGLE3_ARCHITECTURES for name in architectures)


def _norm_flag(raw: Mapping[str, Any], flag: str, fmt: str, where: str) -> bool:
    """A norm flag as the checkpoint's trainer reads it: speculators' pydantic config parses a
    hand-edited "false" as False and refuses "flase" (engines.speculators_flag); EAGLE-format
    trainers read the attribute's truthiness. A null is False, as the engines read it. A flag
    set only under a misspelled key (engines.misspelled_norm_flags: a hand edit) is read from
    there: the value training used, which speculators and the engines, ignoring the key, lose."""
    key, value = flag, raw.get(flag)
    misspelled = engines.misspelled_norm_flags(raw).get(flag) if flag not in raw else None
    if misspelled:
        key, value = misspelled
    if fmt != "speculators" or value is None:
        return bool(value)
    parsed = engines.speculators_flag(value)
    if parsed is None:
        raise CheckpointError(f"{where}: {key!r} is {value!r}, expected true or false "
                              "(speculators' config refuses it)")
    return parsed


def _norm_before_fc(raw: Mapping[str, Any], fmt: str, where: str) -> bool:
    """norm_before_fc, which an EAGLE-format config may nest under eagle_config: SGLang reads
    it there since sgl-project/sglang#32334 (llama_eagle3.py, for the nvidia/gpt-oss-120b
    EAGLE-3 heads), TensorRT-LLM only there (tensorrt_llm/_torch/models/
    modeling_speculative.py Eagle3DraftModel), and engines.reference_norm_flags counts it.
    Read top-level only, the draft ran without its trained input_norm, silently."""
    eagle_config = raw.get("eagle_config")
    if fmt == "eagle" and isinstance(eagle_config, Mapping) and (
            eagle_config.get("norm_before_fc") is not None):
        return bool(eagle_config["norm_before_fc"])
    return _norm_flag(raw, "norm_before_fc", fmt, where)


def use_aux_hidden_state(raw: Any) -> bool:
    """eagle_config.use_aux_hidden_state, default True, as both engines read it from the draft's
    hf_config: SGLang's EAGLE worker and model runner (sgl-project/sglang python/sglang/srt/
    speculative/eagle_worker.py, model_executor/model_runner.py: `eagle_config.get(
    "use_aux_hidden_state", True)`; False captures no aux layers of the target) and vLLM's
    Eagle3 Llama (vllm-project/vllm vllm/model_executor/models/llama_eagle3.py LlamaModel:
    False builds no fc, skips fc.* on load, combine_hidden_states is the identity). Read in
    either format, as the aux ids under eagle_config are (engines.NESTED_KEY): SGLang takes
    config.json as written; whether vLLM's speculators conversion keeps eagle_config was not
    checked. Read from the raw config alone, so `diagnose` reads it also from a config that
    parse_draft_config refuses for another key (the engines read only this one)."""
    eagle_config = raw.get("eagle_config") if isinstance(raw, Mapping) else None
    if not isinstance(eagle_config, Mapping):
        return True
    return bool(eagle_config.get("use_aux_hidden_state", True))  # the engines test its truth


def _norm_output(raw: Mapping[str, Any], fmt: str, where: str) -> bool:
    """speculators' meaning of norm_output: carry the post-norm state to the next step.

    An EAGLE-format config's `norm_output` is SpecForge's key (commit b7ce50cd, "Eagle3.1",
    configs/qwen3-30B-A3B-eagle3.1.json sets it true), which means something else: its trainer
    always carries the pre-norm state (specforge/algorithms/eagle3/model.py) and the flag only
    chooses lm_head(norm(h)) over lm_head(h) (modeling/draft/llama3_eagle.py compute_logits,
    default true). True there is the standard EAGLE-3 path, speculators' False. (Its false,
    lm_head without the final norm, ships in no SpecForge config and is not modelled.)"""
    if fmt == "eagle":
        return False
    return _norm_flag(raw, "norm_output", fmt, where)


def read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text())
    except FileNotFoundError:
        raise CheckpointError(f"{path}: not found") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        # the line, and its usual cause (a hand edit's comment or trailing comma, a BOM), as
        # the host probe says it: the bare decoder message ("Expecting property name
        # enclosed in double quotes") points at the line after a trailing comma
        from spec_debug.probes.hostfiles import _not_json

        raise CheckpointError(_not_json(path, exc)) from None
    except OSError as exc:
        raise CheckpointError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not isinstance(value, dict):
        raise CheckpointError(f"{path}: expected a JSON object, found {type(value).__name__}")
    return value


def _checkpoints_below(path: Path, depth: int = 2) -> list[Path]:
    """Directories under `path` (at most `depth` down) that hold a config.json: the epochs of
    a training run (speculators train/checkpointer.py writes `<save_path>/<epoch>/` and a
    `checkpoint_best` link; SpecForge `epoch_{e}_step_{s}/`; HF Trainer `checkpoint-{step}/`)
    or a Hub cache entry (`models--org--name/snapshots/<hash>/`)."""
    found: list[Path] = []
    level = [path]
    for _ in range(depth):
        try:
            level = sorted((d for parent in level for d in parent.iterdir() if d.is_dir()),
                           key=lambda d: [int(t) if t.isdigit() else t
                                          for t in re.split(r"(\d+)", d.name)])
        except OSError:
            break
        found += [d for d in level if (d / "config.json").is_file()]
        if found or len(level) > 200:
            break
    return found


def _shown_checkpoints(path: Path, below: list[Path], best: Path, limit: int = 6) -> str:
    """The checkpoints named in the line: links as `name -> target` (speculators' trainer
    links checkpoint_best and epoch<e>_step<s> names to its epoch folders), the first few,
    the last and the suggested one (was: the first five and the last, so of ten epochs the
    trainer's checkpoint_best was cut and the last epoch suggested)."""
    def name(d: Path) -> str:
        shown = str(d.relative_to(path))
        return f"{shown} -> {os.readlink(d)}" if d.is_symlink() else shown

    kept = list(below) if len(below) <= limit else below[:limit - 2] + [below[-1]]
    if best not in kept:
        kept.append(best)
    more = len(below) - len(kept)
    return ", ".join(map(name, kept)) + (f" (and {more} more)" if more > 0 else "")


def _is_draft_dir(path: Path) -> bool:
    """Whether path/config.json is a draft's: speculators' (speculators_model_type), or an
    EAGLE-format one (draft_vocab_size; SpecForge's LlamaForCausalLMEagle3 architecture)."""
    try:
        raw = json.loads((path / "config.json").read_text())
    except (OSError, ValueError):
        return False
    if not isinstance(raw, dict):
        return False
    archs = raw.get("architectures")
    return ("speculators_model_type" in raw or "draft_vocab_size" in raw
            or (isinstance(archs, list) and any("eagle" in str(a).lower() for a in archs)))


def require_config(path: Path, role: str) -> None:
    """A directory without config.json that holds checkpoints below: say which to pass."""
    if (path / "config.json").exists():
        return
    below = _checkpoints_below(path)
    if not below:
        return  # read_json names the missing file
    # suggest a checkpoint of the role asked for: of out/{draft,target} the last by name
    # (target) was offered as --model, a verifier the draft commands then refuse
    fitting = [d for d in below if _is_draft_dir(d) == (role == "--model")] or below
    best = next((d for d in fitting if d.name == "checkpoint_best"), None)
    unserved = ""
    if best is None:
        # the newest save the engines can load: a save interrupted after its config.json
        # (or one whose weights are FSDP shards) was offered, and refused as "no
        # model.safetensors" when passed
        from spec_debug.eagle3.checkpoint import engines_load_weights

        loadable = [d for d in fitting if engines_load_weights(d)]
        best = loadable[-1] if loadable else fitting[-1]
        newer = [d.name for d in fitting[fitting.index(best) + 1:]]
        if newer:
            unserved = (f" (the newest with a weight file vLLM and SGLang load: "
                        f"{', '.join(newer[-3:])} {'holds' if len(newer) == 1 else 'hold'} "
                        "none)")
    raise CheckpointError(f"{path / 'config.json'}: not found; the directory holds "
                          f"checkpoints below it: {_shown_checkpoints(path, below, best)}",
                          hint=f"pass one checkpoint directory as {role}, e.g. {best}{unserved}")


def load_draft_config(model_dir: str | Path) -> DraftConfig:
    require_config(Path(model_dir), "--model")
    path = Path(model_dir) / "config.json"
    raw = read_json(path)
    _refuse_block_draft(raw, str(path))
    _refuse_parallel_draft(raw, str(path))
    return parse_draft_config(raw, where=str(path))


# Draft families SpecForge trains beside EAGLE-3 whose config.json is a flat HF config too:
# DFlash (block diffusion over `dflash_config.target_layer_ids`, `block_size` tokens per
# pass), and its DSpark / Domino variants (sgl-project/SpecForge configs/*-dflash.json,
# *-dspark.json, *-domino.json, specforge/modeling/draft/dflash.py). Read as EAGLE-3 they
# failed on an fc of 5 aux states or on layer shapes, which sent users to the aux ids.
_BLOCK_DRAFT = re.compile(r"DFlash|DSpark|Domino", re.IGNORECASE)


def _refuse_block_draft(raw: Mapping[str, Any], where: str) -> None:
    architectures = raw.get("architectures")
    names = [str(a) for a in architectures] if isinstance(architectures, list) else []
    block = next((a for a in names if _BLOCK_DRAFT.search(a)), None)
    if block is None and not isinstance(raw.get("dflash_config"), Mapping):
        return
    if raw.get("speculators_model_type") in _OTHER_SPECULATORS_TYPES:
        # a speculators-saved block draft: the hint names how that type is served (dflash2 and
        # xpress are not read by vLLM's speculators loader; the generic hint said "dflash")
        _refuse_other_speculators_type(raw, where)
    layers = (raw.get("dflash_config") or {}).get("target_layer_ids") if isinstance(
        raw.get("dflash_config"), Mapping) else None
    raise CheckpointError(
        f"{where}: a DFlash-family draft ({block or 'dflash_config'}"
        + (f", block_size {raw['block_size']}" if raw.get("block_size") else "")
        + (f", target layers {layers}" if layers else "") + "), not an EAGLE-3 one: it drafts a "
        "block of tokens per pass; spec-debug's drafter runs EAGLE-3 drafts",
        hint="serve it with SGLang --speculative-algorithm DFLASH or vLLM speculative_config "
             "method \"dflash\"; pass an EAGLE-3 draft (LlamaForCausalLMEagle3, or speculators "
             "eagle3) as --model")


# P-EAGLE (vLLM PR #32887 "parallel drafting"): EAGLE-3 weights trained to draft all K
# tokens in one pass, mask tokens standing in for the unknown ones. speculators saves it as
# `speculators_model_type: "peagle"`, architectures ["PEagleDraftModel"], `mask_token_id`
# (src/speculators/models/peagle/config.py); vLLM maps that to method "eagle3" with
# `parallel_drafting: true`, architectures ["PeagleLlamaForCausalLM"] and `pard_token`
# (vllm transformers_utils/configs/speculators/base.py and algos.py update_peagle), and reads
# the mask token from `pard_token` or `ptd_token_id` (v1/spec_decode). Scored step by step
# as EAGLE-3 its numbers mean nothing.
_PARALLEL_DRAFT = re.compile(r"PEagle", re.IGNORECASE)


def _refuse_parallel_draft(raw: Mapping[str, Any], where: str) -> None:
    architectures = raw.get("architectures")
    names = [str(a) for a in architectures] if isinstance(architectures, list) else []
    name = next((a for a in names if _PARALLEL_DRAFT.search(a)), None)
    mask_key = next((k for k in ("mask_token_id", "pard_token", "ptd_token_id")
                     if raw.get(k) is not None), None)
    # not on pard_token alone: PARD drafts (vLLM draft_model) carry it too
    if not (raw.get("speculators_model_type") == "peagle" or name
            or raw.get("parallel_drafting") is True):
        return
    spec = raw.get("speculators_config")
    proposals = spec.get("proposal_methods") if isinstance(spec, Mapping) else None
    steps = (proposals[0].get("speculative_tokens") if isinstance(proposals, list) and proposals
             and isinstance(proposals[0], Mapping) else None)
    what = name or ("speculators_model_type peagle" if raw.get("speculators_model_type")
                    == "peagle" else "parallel_drafting")
    raise CheckpointError(
        f"{where}: a P-EAGLE (parallel drafting) draft ({what}"
        + (f", {mask_key} {raw[mask_key]}" if mask_key else "")
        + (f", {steps} speculative tokens" if steps else "") + "), not an EAGLE-3 one: it "
        "drafts all positions in one pass, mask tokens standing in for the unknown ones; "
        "spec-debug's drafter runs EAGLE-3 drafts step by step, so its scores would mean "
        "nothing for this draft",
        hint="serve it with vLLM speculative_config method \"eagle3\" and "
             "\"parallel_drafting\": true (vLLM sets both itself for a speculators peagle "
             "checkpoint); pass an EAGLE-3 draft (speculators eagle3, or "
             "LlamaForCausalLMEagle3) as --model")


# Targets whose RMSNorm scales by (1 + weight), the weight stored zero-centred: transformers
# Gemma3RMSNorm (models/gemma3/modeling_gemma3.py), Qwen3NextRMSNorm, Qwen3_5(Moe)RMSNorm
# ("RMSNormZeroCentered"). SpecForge trains EAGLE-3 drafts for gemma-3, Qwen3-Next and
# Qwen3.5 (configs/gemma3-1b-eagle3.json, qwen3-next-80b-a3b-eagle3.json,
# qwen3.5-35b-a3b-eagle3.json). Read as `weight * x`, the verifier's final norm is ~0.
ZERO_CENTERED_NORM_MODEL_TYPES = frozenset({
    "gemma", "gemma2", "gemma3", "gemma3_text", "vaultgemma", "qwen3_next", "qwen3_5",
    "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text",
})


@dataclass(frozen=True)
class TargetConfig:
    """What the drafter needs to know about the target (verifier) model."""

    num_layers: int
    hidden_size: int
    vocab_size: int
    rms_norm_eps: float
    tie_word_embeddings: bool
    raw: Mapping[str, Any]
    model_type: str | None = None  # of the language model (text_config's when nested)

    @property
    def zero_centered_norm(self) -> bool:
        """True when the final norm computes norm(x) * (1 + weight)."""
        return self.model_type in ZERO_CENTERED_NORM_MODEL_TYPES

    @property
    def architecture(self) -> str | None:
        return engines.target_architecture(self.raw)


_TEXT_KEYS = ("num_hidden_layers", "hidden_size", "vocab_size", "rms_norm_eps",
              "tie_word_embeddings")


def _class_defaults(model_type: str) -> Mapping[str, Any]:
    """transformers' defaults for a config class, when transformers is importable."""
    try:
        from transformers import AutoConfig

        return AutoConfig.for_model(model_type).to_dict()
    except Exception:  # not installed, or a model_type this transformers does not know
        return {}


def _text_config(raw: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """The language model's config. Multimodal targets nest it under text_config, and
    transformers < 5 saved that sub-config as a diff against its class defaults
    (PretrainedConfig.to_diff_dict): google/gemma-3-*-it's text_config has no vocab_size,
    rms_norm_eps or tie_word_embeddings. Those come from the class, as transformers reads
    them."""
    text = _mapping(raw.get("text_config"), "text_config", where)
    if not text and isinstance(raw.get("thinker_config"), Mapping):
        # Qwen2.5-Omni / Qwen3-Omni: the language model is the thinker's, one level deeper
        # (transformers models/qwen3_omni_moe/configuration_qwen3_omni_moe.py
        # Qwen3OmniMoeConfig.thinker_config.text_config; SpecForge trains EAGLE-3 drafts for
        # it: configs/qwen3-omni-eagle3.json)
        text = _mapping(raw["thinker_config"].get("text_config"), "thinker_config.text_config",
                        where)
    if not text:
        return raw
    missing = [key for key in _TEXT_KEYS if key not in text]
    if not missing or not text.get("model_type"):
        return text
    defaults = _class_defaults(str(text["model_type"]))
    return {**{key: defaults[key] for key in missing if key in defaults}, **text}


text_config = _text_config  # public name (diagnose/steps/configs_step.py reads target keys)


def load_target_config(target_dir: str | Path) -> TargetConfig:
    require_config(Path(target_dir), "--target")
    path = Path(target_dir) / "config.json"
    raw = read_json(path)
    text = _text_config(raw, str(path))
    # absent everywhere: untied (a missing lm_head shard must not turn the embedding into
    # the head); a diff-saved text_config gets its class default above
    tied = raw.get("tie_word_embeddings", text.get("tie_word_embeddings", False))
    return TargetConfig(
        num_layers=_int(text, "num_hidden_layers", str(path)),
        hidden_size=_int(text, "hidden_size", str(path)),
        vocab_size=_int(text, "vocab_size", str(path)),
        rms_norm_eps=_number(text, "rms_norm_eps", str(path), float, default=1e-6),
        tie_word_embeddings=bool(tied),
        raw=raw,
        model_type=str(text.get("model_type") or raw.get("model_type") or "") or None,
    )
