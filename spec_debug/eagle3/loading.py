"""Checkpoint -> ready-to-run `Eagle3Draft` (+ the target head used for reference targets).

Tensors are read one at a time into a module built on the meta device, so a large draft is
never held twice. Draft embeddings absent from the checkpoint come from the target, as the
engines do (SGLang eagle_worker.py `set_embed`; vLLM llama_eagle3.py load_weights skips a
missing embed_tokens and shares the target's).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping
from typing import Any

import torch
from torch import Tensor

from spec_debug.eagle3.checkpoint import (
    CheckpointError, DraftCheckpoint, TargetCheckpoint, fp8_block_size, index_misplaces, open_draft, open_target,
    fp4_weight_format, packed_weight_format, store_notes,
)
from spec_debug.eagle3.config import ConfigMisfitError, TargetMisfitError
from spec_debug.eagle3.head_map import copy_tolerance, head_map_message, mapped_ids, sample_ids
from spec_debug.eagle3.model import Eagle3Draft
from spec_debug.eagle3.vocab import (FULL_VOCAB_TARGET_HEAD, TARGET_HEAD, TIED_HEAD_DROPPED,
                                     TIED_HEAD_NOT_STORED, configured_draft_vocab)
from spec_debug.eagle3.vocab_mapping import VocabMapping, mapping_note
from spec_debug.errors import UsageError

DTYPES = {"float32": torch.float32, "fp32": torch.float32, "bfloat16": torch.bfloat16,
          "bf16": torch.bfloat16, "float16": torch.float16, "fp16": torch.float16,
          # torch's own aliases (torch.half, torch.float), as engines' --dtype takes them
          # (vLLM and SGLang accept "half" and "float")
          "half": torch.float16, "float": torch.float32}


def resolve_device(name: str | torch.device) -> torch.device:
    """--device as torch reads it, or one clear error (a typo, or CUDA on a CPU-only torch)."""
    try:
        device = torch.device(name)
    except (RuntimeError, TypeError):
        raise UsageError(f"--device {name!r}: use cpu, cuda or cuda:N") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise UsageError(f"--device {name}: torch {torch.__version__} sees no CUDA device",
                         hint="run on the GPU host, or use --device cpu")
    if device.type == "cuda" and device.index is not None and (
            device.index >= torch.cuda.device_count()):
        raise UsageError(f"--device {name}: only {torch.cuda.device_count()} CUDA device(s)")
    if device.type not in ("cpu", "cuda"):
        # mps, xpu, ...: torch names them whether or not this build or machine has one, and the
        # first allocation fails with a dispatcher error that does not say so; meta holds no data
        try:
            torch.empty(1, device=device).cpu()
        except (RuntimeError, NotImplementedError, AssertionError):
            raise UsageError(f"--device {name}: torch {torch.__version__} cannot use a {device.type} "
                             "device here", hint="use --device cpu, or cuda on a GPU host") from None
    return device


def resolve_dtype(name: str | torch.dtype) -> torch.dtype:
    if isinstance(name, torch.dtype):
        return name
    try:
        return DTYPES[name.lower()]
    except KeyError:
        raise CheckpointError(f"unknown dtype {name!r}; use one of {', '.join(DTYPES)}") from None


def _model_prefixed(checkpoint: DraftCheckpoint) -> str | None:
    """The note for a draft stored under SGLang's own parameter names (`model.fc.weight`,
    `model.midlayer.*`). SGLang's LlamaForCausalLMEagle3.load_weights takes a name as is or
    with `model.` added and skips every other name without a word (sglang
    srt/models/llama_eagle3.py, commit 03d5a777): it holds the first decoder layer as
    `model.midlayer.*`, so `model.layers.0.*` (speculators' layer names under `model.`) is
    skipped and the layer served untrained (SD709 in the configs step). vLLM's
    Eagle3LlamaForCausalLM.load_weights prefixes every name but lm_head and d2t with `model.`
    itself (vllm model_executor/models/llama_eagle3.py, commit 00bd1493), so it looks for
    `model.model.fc.weight` and fails to load the draft."""
    if checkpoint.stored_prefix:
        return None  # a wrapper's prefix has its own note
    stored = [info.stored_name for info in checkpoint.tensors.infos.values()]
    prefixed = [n for n in stored if n.startswith("model.") and not n.startswith("model.lm_head")]
    if not prefixed:
        return None
    vllm = "vLLM adds 'model.' to each name itself and fails on model.model.*"
    layers = sorted(n for n in prefixed if n.startswith("model.layers."))
    if not layers:
        return (f"the draft's tensors are stored as model.* ({prefixed[0]}, ...: SGLang's "
                f"parameter names), read here without it; SGLang loads either form, but {vllm}: "
                "re-save the draft without 'model.' to serve it with vLLM")
    return (f"the draft's tensors are stored as model.* ({prefixed[0]}, ...), read here without "
            f"it; {vllm}, and SGLang, which loads model.fc and model.norm as they are, holds the "
            f"decoder layers as model.midlayer.* (and model.additional_layers.*) and skips {layers[0]}, ... without a word, "
            "serving the layers untrained: re-save the draft without 'model.' for vLLM, and "
            "with layers.0. renamed midlayer. for SGLang (vLLM loads that name too)")


def fc_state_width(cfg, fc_shape: tuple[int, ...] | None) -> int | None:
    """The target-state width fc.weight [H, num_aux x width] was trained on, when it is not
    the config's target_hidden_size: the aux count fits the fan-in and the stated width cannot
    (or fc is num_aux x the draft's own width). target_hidden_size was then set by hand or
    copied from another target; speculators sizes fc as num_aux x it (src/speculators/models/
    eagle3/core.py), vLLM as target_hidden_size x 3. A fan-in that the stated width divides
    is an aux count that does not fit (None: the config's width stands)."""
    if fc_shape is None or len(fc_shape) != 2 or not cfg.num_aux:
        return None
    fan_in = fc_shape[1]
    if fan_in == cfg.num_aux * cfg.target_hidden_size or fan_in % cfg.num_aux:
        return None
    width = fan_in // cfg.num_aux
    return width if fan_in % cfg.target_hidden_size or width == cfg.hidden_size else None


def _shape_reason(name: str, got: tuple[int, ...], cfg) -> str:
    """Which config field a tensor's shape contradicts (the usual hand-edit and export faults)."""
    if name == "fc.weight" and len(got) == 2 and got[1] != cfg.num_aux * cfg.target_hidden_size:
        stated = cfg.raw.get("target_hidden_size")
        width = fc_state_width(cfg, got)
        if stated is not None and width is not None:
            return (f"fc.weight takes {got[1]} inputs = {cfg.num_aux} aux states of {width}, "
                    f"but the config's target_hidden_size is {cfg.target_hidden_size} "
                    f"({cfg.num_aux} x {cfg.target_hidden_size} = "
                    f"{cfg.num_aux * cfg.target_hidden_size}): the draft was trained on "
                    f"{width}-wide target states; set target_hidden_size to {width}"
                    + (" (or null: it is the draft's own hidden_size)"
                       if width == cfg.hidden_size else ""))
        ids = list(cfg.aux_layer_ids) if cfg.aux_layer_ids else "absent (3 assumed)"
        fan_in = (f" = {got[1] // cfg.target_hidden_size} aux states of {cfg.target_hidden_size}"
                  if got[1] % cfg.target_hidden_size == 0 else "")
        text = (f"fc.weight takes {got[1]} inputs{fan_in}, but eagle_aux_hidden_state_layer_ids "
                f"is {ids} ({cfg.num_aux} x {cfg.target_hidden_size} = "
                f"{cfg.num_aux * cfg.target_hidden_size})")
        ids = list(cfg.aux_layer_ids or ())
        if len(ids) > 1 and got[1] == (len(ids) - 1) * cfg.target_hidden_size and (
                ids[-1] == max(ids)):
            # speculators' datagen captures [*aux, N] (scripts/launch_vllm.py
            # --include-last-layer) and training feeds all but the last slot to fc
            # (src/speculators/train/data.py): that list copied into the draft config
            text += (f"; if {ids[-1]} is the target's last layer, it is the datagen's final "
                     "slot (launch_vllm.py --include-last-layer), which training strips: "
                     f"drop it, {ids[:-1]}")
        return text
    if name == "lm_head.weight" and got[:1] != (cfg.draft_vocab_size,):
        if not (cfg.raw.get("draft_vocab_size")
                or (cfg.raw.get("transformer_layer_config") or {}).get("draft_vocab_size")):
            return (f"lm_head.weight has {got[0]} rows but the config has no draft_vocab_size "
                    f"(so the vocab size {cfg.draft_vocab_size} is assumed)")
        return (f"lm_head.weight has {got[0]} rows but the config's draft_vocab_size is "
                f"{cfg.draft_vocab_size}")
    projection = name.rsplit(".", 2)[-2] if name.endswith(".weight") else ""
    if projection in ("q_proj", "k_proj", "v_proj") and got:
        heads, key = ((cfg.num_heads, "num_attention_heads") if projection == "q_proj"
                      else (cfg.num_kv_heads, "num_key_value_heads"))
        if got[0] != heads * cfg.head_dim:
            # HF decoders default an absent num_key_value_heads to num_attention_heads and an
            # absent head_dim to hidden_size / num_attention_heads (transformers
            # LlamaConfig.__init__): a hand-written config that drops them says something else
            decoder = cfg.raw.get("transformer_layer_config") or cfg.raw
            absent = [k for k in (key, "head_dim") if hasattr(decoder, "get")
                      and decoder.get(k) is None]
            return (f"{name} has {got[0]} rows, the config's {key} {heads} x head_dim "
                    f"{cfg.head_dim} = {heads * cfg.head_dim}"
                    + (f" ({' and '.join(absent)} absent from config.json: the HF default "
                       "was assumed)" if absent else ""))
    if name == "embed_tokens.weight" and got[:1] != (cfg.vocab_size,):
        return (f"embed_tokens.weight has {got[0]} rows but the config's vocab_size is "
                f"{cfg.vocab_size}")
    return ""


def _layer_count_absent(cfg) -> bool:
    """A speculators config whose transformer_layer_config names no num_hidden_layers (the
    config reader then assumed the transformers class default)."""
    decoder = cfg.raw.get("transformer_layer_config") if hasattr(cfg.raw, "get") else None
    return hasattr(decoder, "get") and decoder.get("num_hidden_layers") is None


def _integer_weight(checkpoint: DraftCheckpoint, name: str, tensor: Tensor) -> None:
    """Refuse a draft parameter stored as integers or bools (after TensorStore.weight has
    dequantized FP8 and int8 ones that carry their scales, and refused int8 without one): a
    float weight cast by an export script (`.long()`, `.to(torch.int32)`), or a quantized
    format with scales the drafter does not dequantize (only FP8 and int8 are). vLLM and
    SGLang copy it into their float parameters as stored (model_loader/weight_utils.py
    default_weight_loader: `param.data.copy_(loaded_weight)` casts silently), so the draft
    they serve is wrong with no error; scored as stored here it read as a merely bad draft."""
    if tensor.is_floating_point():
        return
    kind = str(tensor.dtype).replace("torch.", "")
    scale = checkpoint.tensors.scale_name(name)
    why = (f"stored as {kind} beside its {scale.rsplit('.', 1)[-1]}: a quantized format the "
           "drafter does not read (it dequantizes FP8 and int8)" if scale is not None else
           f"stored as {kind}, not a float type, and no scale beside it: a float weight cast "
           "to integers (or bools) by an export, every value rounded; vLLM and SGLang copy it "
           "into their float parameters as stored and serve it so")
    raise CheckpointError(f"{checkpoint.tensors.infos[name].file}: {name} is {why}",
                          hint="re-export the draft from the float weights training saved "
                               "(save_pretrained), or dequantize it to bfloat16")


def _non_finite(name: str, tensor: Tensor) -> str | None:
    if not tensor.is_floating_point():
        return None
    bad = int((~torch.isfinite(tensor.float() if tensor.element_size() < 2 else tensor)).sum())
    return f"{name} ({bad} of {tensor.numel()})" if bad else None


# the tensors speculators fills from the verifier (load_verifier_weights)
_VERIFIER_COPIED = ("embed_tokens.weight", "lm_head.weight")
_TARGET_EMBEDDING = "target "  # build_draft's name for the target's embedding copied in


def _non_finite_hint(non_finite: list[str]) -> str:
    """Why tensors hold NaN/Inf, by which ones: speculators initialises embed_tokens and
    lm_head to NaN until load_verifier_weights() copies the verifier's (EAGLE3.md section 8),
    so only those mean a draft saved before that step; NaN/Inf in the trained modules (fc,
    the decoder layer, norms) are a diverged run (a NaN loss, a bf16 overflow), which that
    hint sent to the wrong fix. The target's own embedding (--target, read as the engines
    read it) is neither: its file is damaged, as _refuse_non_finite_head says of its head."""
    if any(entry.startswith(_TARGET_EMBEDDING) for entry in non_finite):
        return ("the target's embedding holds NaN/Inf: its file is corrupt or was not fully "
                "written: copy (download) the target checkpoint again")
    if all(entry.startswith(_VERIFIER_COPIED) for entry in non_finite):
        return ("the weights are broken; speculators leaves embed_tokens and lm_head NaN "
                "until load_verifier_weights() is called")
    return ("the trained weights hold NaN/Inf: the training diverged (a NaN loss, or an "
            "overflow in bf16/fp16) before this checkpoint was saved; use an earlier "
            "checkpoint of the run, from before its loss went NaN")


def _refuse_non_finite_head(target: TargetCheckpoint, named: tuple) -> None:
    """The verifier's final norm and lm_head give every target token: one NaN/Inf weight (a
    corrupt or half-written shard) makes those rows' argmax an arbitrary id, so the accuracy
    reads low with no sign of why. Named with the file it came from, to copy again."""
    for name, tensor in named:
        if not tensor.is_floating_point():
            continue
        # row blocks: a [V, H] head's whole isfinite mask is V*H bytes (2 GB at 256k x 8k)
        rows = tensor.reshape(tensor.shape[0] if tensor.dim() else 1, -1)
        bad = sum(int((~torch.isfinite(block.float() if block.element_size() < 2 else block)).sum())
                  for block in rows.split(4096))
        if not bad:
            continue
        info = target.tensors.infos.get(name)
        where = info.file if info is not None else target.path
        raise CheckpointError(
            f"{where}: NaN or Inf in the target's {name} ({bad} of {tensor.numel()}): the "
            "verifier's argmax, which the draft is scored against, would be arbitrary",
            hint="that file is corrupt or was not fully written: copy (download) it again")


def _verifier_hint(cfg) -> str | None:
    """Where the draft's own config says its verifier is (speculators_config.verifier
    .name_or_path), resolved as --target would resolve it."""
    if not cfg.verifier:
        return None
    from spec_debug.eagle3.checkpoint import resolve_checkpoint_dir

    try:
        found = resolve_checkpoint_dir(cfg.verifier, "--target", "verifier")
    except CheckpointError:
        return (f"the draft's config names its verifier {cfg.verifier!r}, which is not here: "
                "pass a local copy of it as --target")
    return f"the draft's config names its verifier: --target {found}"


# Tensors a checkpoint may hold that the draft forward rightly does not read: the vocab maps
# (read apart), speculators' verifier copies (`_keys_to_ignore_on_save` in its Eagle3 model,
# kept by older exports) and HF's old rotary buffers.
_NOT_WEIGHTS = ("d2t", "t2d", "verifier_lm_head.weight", "verifier_norm.weight")


def _no_architectures_note(cfg) -> str | None:
    """An EAGLE-format draft config without `architectures` (a hand-written export, a config
    rebuilt from a dict). vLLM names the draft's class from it (transformers_utils/configs/
    eagle.py EAGLEConfig: `for arch in self.model.architectures`, None when the key is
    absent) and stops at startup; SGLang also picks the draft's class by it. speculators'
    configs name the class by speculators_model_type, so only the EAGLE format needs it."""
    architectures = cfg.raw.get("architectures")
    if cfg.format != "eagle":
        return None
    if isinstance(architectures, list) and architectures:
        return _speculators_class_note(architectures)
    written = "has no architectures" if architectures is None else (
        f"has architectures {json.dumps(architectures)}")
    # absent, EAGLEConfig iterates None; an empty list gives vLLM's model registry no class
    # to resolve, and it stops with its own 'no architectures' error instead
    error = ("'NoneType' object is not iterable" if architectures is None
             else "no model class to load")
    return (f"the draft's config.json {written}: scored here, but vLLM builds the draft's "
            f"class name from it and fails to start ({error}), and "
            "SGLang picks the draft's model class by it; add \"architectures\": "
            "[\"LlamaForCausalLMEagle3\"] (what SpecForge writes)")


# The class names speculators writes into a draft's `architectures`: Eagle3SpeculatorConfig's
# default and, on save_pretrained, the model class (speculators models/eagle3/config.py,
# core.py). vLLM and SGLang read them only beside speculators_model_type.
_SPECULATORS_CLASSES = ("Eagle3Speculator", "Eagle3DraftModel")


def _speculators_class_note(architectures: list) -> str | None:
    """An EAGLE-format config (no speculators_model_type: a speculators config flattened by
    hand) that still names speculators' class. vLLM's EAGLEConfig keeps a name that starts
    with "Eagle3" as the draft's class (transformers_utils/configs/eagle.py: `arch if
    arch.startswith("Eagle3") or arch.endswith("Eagle3") else f"Eagle3{arch}"`) and its model
    registry has no such class; SGLang resolves the name as it is, and has none either: both
    stop at startup ("Model architectures [...] are not supported")."""
    if not all(str(name) in _SPECULATORS_CLASSES for name in architectures):
        return None
    return (f"the draft's config.json has architectures {json.dumps(architectures)}, "
            "speculators' class, but no speculators_model_type: scored here as an EAGLE-format "
            "draft, but vLLM keeps a name starting with Eagle3 as the draft's class and SGLang "
            "takes it as it is, and neither has that class (\"Model architectures [...] are not "
            "supported\"): write \"architectures\": [\"LlamaForCausalLMEagle3\"], or serve the "
            "config speculators saved (with speculators_model_type \"eagle3\")")


def _layer_without_model_type_note(checkpoint: DraftCheckpoint) -> str | None:
    """A speculators config whose transformer_layer_config has no model_type (hand-written,
    or rebuilt from a dict). speculators 0.9.0 then builds a Qwen3Config there
    (models/eagle3/config.py validate_transformer_config: Qwen3Config unless "model_type" is
    in the dict), with q_norm/k_norm; vLLM serves an Eagle3LlamaForCausalLM
    (transformers_utils/configs/speculators/algos.py update_eagle3), as this evaluation
    does. The weights tell which one the draft was trained as."""
    cfg = checkpoint.config
    layer = cfg.raw.get("transformer_layer_config")
    if cfg.format != "speculators" or not isinstance(layer, Mapping) or "model_type" in layer:
        return None
    head = ("the draft config's transformer_layer_config has no model_type: evaluated as a "
            "Llama decoder, as vLLM serves it, but speculators builds a Qwen3 decoder there "
            "(Qwen3Config)")
    if any(name.endswith(("q_norm.weight", "k_norm.weight")) for name in checkpoint.tensors.infos):
        return (f"{head}, which the weights' q_norm/k_norm fit: vLLM drops them, and so does "
                "this evaluation; write \"model_type\": \"qwen3\" in "
                "transformer_layer_config if the draft was trained as one")
    return (f"{head} whose q_norm/k_norm are not in the weights and stay at their initial "
            "values, so speculators' forward, training and metrics differ from these; write "
            "\"model_type\": \"llama\" in transformer_layer_config (what speculators saves "
            "from a LlamaConfig)")

_FP8_STORED = {"F8_E4M3", "F8_E5M2"}  # safetensors dtype strings of torch's float8 types


def _cast_to_fp8_note(checkpoint: DraftCheckpoint, used: set[str]) -> str | None:
    """Weights stored in float8 with no scale beside them and no quantization_config: an
    export cast them (state_dict cast, or one tensor converted by hand) to 3 mantissa bits.
    Their values pass as stored (checkpoint._unscaled refuses only a tensor that fills the
    fp8 range), and every loader casts them up as they are: speculators' from_pretrained
    (checked with speculators 0.9.0) and vLLM's default_weight_loader (param.data.copy_), so
    the draft served is the cast one, less accurate than the one trained (fc.weight cast:
    step-0 accuracy 0.690 -> 0.667), with no word anywhere. With a quantization_config the
    engines read them otherwise: _quantized_without_scales_note."""
    store = checkpoint.tensors
    cast = sorted(name for name, info in store.infos.items()
                  if info.dtype in _FP8_STORED and name in used and store.scale_name(name) is None)
    if not cast:
        return None
    named = f"{', '.join(cast[:4])}{' ...' if len(cast) > 4 else ''}"
    quantization = _quantization_config(checkpoint.config.raw)
    if quantization is not None:
        return _quantized_without_scales_note(named, quantization)
    others = sorted({info.dtype for name, info in store.infos.items()
                     if name in used and info.dtype not in _FP8_STORED})
    return (f"{named} stored in float8 ({store.infos[cast[0]].dtype}) with no scale and no "
            "quantization_config"
            + (f", beside {'/'.join(others)} weights" if others else "")
            + ": cast in the export, and every loader (speculators, vLLM) casts it back up "
            "as stored, so the draft scored and served is the cast one, not the one trained; "
            "export the weights in the training dtype")


def _quantization_config(raw: Any) -> Any:
    """config.json's quantization_config (compression_config, compressed-tensors' older key,
    as vLLM reads it: config/model.py _parse_quant_hf_config); None when absent or empty."""
    if not isinstance(raw, dict):
        return None
    return raw.get("quantization_config") or raw.get("compression_config") or None


def _quantized_without_scales_note(named: str, quantization: Any) -> str:
    """FP8 weights with no weight_scale beside them under a quantization_config (an export
    that kept `*.weight` and dropped `*.weight_scale`, or a cast draft given a copied
    quantization_config). Scored here as stored, that is with a scale of 1. The engines build
    the draft's linear layers quantized from this config: vLLM's and SGLang's
    Fp8LinearMethod.create_weights (and vLLM's compressed-tensors FP8 scheme) fill each
    weight_scale with float32's lowest value (-3.4e38) and the load leaves it there when the
    checkpoint has none: vLLM checks for weights it did not load only in unquantized models
    (model_loader/default_loader.py, `model_config.quantization is None`), SGLang's
    llama_eagle3.py load_weights skips unknown and absent names alike. Every served
    projection is then off by -3.4e38 (inf, NaN): nothing is accepted, with no error."""
    method = quantization.get("quant_method") if isinstance(quantization, dict) else None
    config = f"quantization_config (quant_method {method})" if method else "quantization_config"
    return (f"{named} stored in float8 with no weight_scale beside them, under config.json's "
            f"{config}: scored here as stored (a scale of 1), but vLLM and SGLang build the "
            "draft's decoder-layer projections quantized from that config and keep each missing weight_scale at "
            "its initial value, float32's lowest (-3.4e38), without an error: the served draft's "
            "outputs overflow and nearly nothing is accepted; export the weight_scale tensors "
            "with the weights, or save the weights in the training dtype without "
            "quantization_config")


def _unused_tensors(checkpoint: DraftCheckpoint, used: set[str]) -> list[str]:
    """Notes on weights the config leaves out: most often decoder layers beyond
    `num_hidden_layers` (a config edited or written for another draft); they are not run
    here, nor by an engine that builds the draft from the config, so the draft measured is
    not the one trained."""
    store = checkpoint.tensors
    used = used | set(_NOT_WEIGHTS) | store.runtime_scales()
    used |= {scale for name in used if (scale := store.scale_name(name))}
    unused = sorted(name for name in store.infos
                    if name not in used and not name.endswith("rotary_emb.inv_freq"))
    if not unused:
        return []
    num_layers = checkpoint.config.num_layers
    extra_layers = sorted({int(m.group(1)) for name in unused
                           if (m := re.match(r"layers\.(\d+)\.", name))
                           and int(m.group(1)) >= num_layers})
    notes = []
    if extra_layers:
        notes.append(f"the weights hold draft layer(s) {extra_layers} beyond the config's "
                     f"num_hidden_layers {num_layers}: they are not run (an engine builds "
                     "the draft from the config too); fix transformer_layer_config."
                     "num_hidden_layers if the draft was trained with them")
        unused = [n for n in unused if not (re.match(r"layers\.(\d+)\.", n)
                                            and int(n.split(".")[1]) >= num_layers)]
    if unused:
        notes.append(f"{len(unused)} tensor(s) in the checkpoint are not used by the draft "
                     f"this config describes: {', '.join(unused[:6])}"
                     + (" ..." if len(unused) > 6 else ""))
    return notes


def _tie_word_embeddings(cfg) -> bool:
    """tie_word_embeddings where each format writes it: speculators' transformer_layer_config
    (the decoder config vLLM builds the draft from: transformers_utils/configs/speculators/
    base.py; the top-level key there is PretrainedConfig's default, always written), else the
    top level (EAGLE / SpecForge flat llama configs)."""
    layer = cfg.raw.get("transformer_layer_config")
    if isinstance(layer, dict) and "tie_word_embeddings" in layer:
        return bool(layer["tie_word_embeddings"])
    return bool(cfg.raw.get("tie_word_embeddings", False))


def _head_tied_to_embedding(checkpoint: DraftCheckpoint, notes: list[str]) -> bool:
    """True when the draft's head is its embedding: the config ties them and no
    lm_head.weight is stored. SGLang builds such a draft with `lm_head = model.embed_tokens`
    (python/sglang/srt/models/llama_eagle3.py LlamaForCausalLMEagle3.__init__; the comment
    there: Llama 3.2 1B ties, 3.1 8B does not), as transformers' tie_weights does, and saving
    a tied module writes the shared tensor once (safetensors drops the alias), so the file has
    no lm_head.weight. With lm_head.weight stored SGLang still ties, and the trained head is
    dropped by its load_weights (no parameter of that name): said in a note. vLLM does not
    tie (see the note below)."""
    cfg = checkpoint.config
    if not _tie_word_embeddings(cfg):
        return False
    if checkpoint.has("lm_head.weight"):
        if cfg.format != "eagle":
            return False  # speculators' format: vLLM reads it and never ties the draft's head
        notes.append(f"{TIED_HEAD_DROPPED} (used here): SGLang (llama_eagle3.py) ties the head to "
                     "embed_tokens and drops this lm_head.weight; set tie_word_embeddings "
                     "to false in the draft's config.json")
        return False
    if cfg.draft_vocab_size != cfg.vocab_size:
        raise CheckpointError(
            f"{checkpoint.path}: no lm_head.weight and the config ties it to the embedding "
            f"(tie_word_embeddings), but draft_vocab_size {cfg.draft_vocab_size} differs from "
            f"vocab_size {cfg.vocab_size}: a tied head has one row per target token",
            hint="the export dropped lm_head.weight: re-export it, or fix draft_vocab_size")
    # vLLM's Eagle3LlamaForCausalLM always builds its own ParallelLMHead(draft_vocab_size) and
    # never ties it (vllm model_executor/models/llama_eagle3.py); a checkpoint without
    # lm_head.weight leaves has_own_lm_head False (load_weights -> models/utils.py
    # process_eagle_weight) and the proposer puts the TARGET's lm_head in its place
    # (v1/spec_decode: "Detected EAGLE model without its own lm_head in the checkpoint.
    # Sharing target model lm_head weights"), not this embedding: it needs the tensor
    # speculators 0.9.0's Eagle3DraftModel.from_pretrained does not tie it either: it reports
    # lm_head.weight MISSING and leaves a newly initialized (random) head
    resume = ("; speculators' from_pretrained does not tie it either (lm_head.weight "
              "MISSING: a random head), so training cannot resume from this checkpoint"
              if cfg.format == "speculators" else "")
    notes.append(f"{TIED_HEAD_NOT_STORED}, as SGLang builds this draft; vLLM "
                 "(llama_eagle3.py) never ties the draft's head: "
                 "without lm_head.weight it serves the target's lm_head in its place (\"Sharing "
                 "target model lm_head weights\"), not this embedding; save it too to serve the "
                 f"draft there{resume}")
    return True


# A draft saved without some of its weights (norm.weight dropped by an export that kept only
# the linear layers): vLLM refuses it at load ("Following weights were not initialized from
# checkpoint", vllm model_executor/model_loader/default_loader.py load_weights), speculators'
# from_pretrained starts the tensor fresh (a norm at 1.0) with only a transformers load-report
# line (checked with speculators 0.9.0): neither runs the draft that was trained.
# A linear layer (fc.weight) starts at random there (std 0.02, checked with speculators 0.9.0).


def _missing_weights_hint(missing: list[str]) -> str:
    norms = [name for name in missing if name.endswith("norm.weight")]
    fresh = ", ".join((["at random"] if len(norms) < len(missing) else [])
                      + (["a norm at 1.0"] if norms else []))
    return ("the checkpoint lacks these weights: vLLM refuses such a draft (weights not "
            f"initialized from checkpoint) and speculators' from_pretrained starts them fresh "
            f"({fresh}); save the trained draft again with every weight (save_pretrained)")


def _missing_head_hint(cfg) -> str:
    """The fix for a draft whose only missing tensor is its head. A head tied to embed_tokens
    is saved once (safetensors drops the alias), so an export from a model whose head was tied
    writes no lm_head.weight; speculators' drafts never tie (SpeculatorModel.__init__ sets
    tie_word_embeddings False, src/speculators/model.py), so they need the tensor."""
    if cfg.draft_vocab_size != cfg.vocab_size:
        return (f"save the draft again with its lm_head.weight [{cfg.draft_vocab_size}, "
                f"{cfg.hidden_size}] (one row per draft token: a head tied to the "
                f"{cfg.vocab_size}-row embedding cannot be it)")
    return ("save the draft again with its lm_head.weight; if it was trained with the head tied "
            "to embed_tokens, set \"tie_word_embeddings\": true in transformer_layer_config")


def _target_head_for_draft(checkpoint: DraftCheckpoint, tied_head: bool,
                           target: TargetCheckpoint | None, notes: list[str],
                           no_target_reason: str | None) -> Tensor | None:
    """The target's lm_head [V, H] when the draft ships none, is not tied, and its config sets
    no draft_vocab_size: SGLang then builds a full-vocab head and loads the target's into it
    (python/sglang/srt/models/llama_eagle3.py `load_lm_head_from_target`, eagle_worker.py
    `set_embed_and_head`), for drafts published that way: nvidia/gpt-oss-120b-Eagle3 has no
    lm_head and "draft_vocab_size": null (sgl-project/sglang PR #9739). None otherwise."""
    cfg = checkpoint.config
    # a full-vocab draft_vocab_size (nvidia/Kimi-K2.6-Eagle3: draft_vocab_size == vocab_size,
    # no lm_head) is served the same way by vLLM, whose proposer shares the target's head
    # with a draft that loaded none (vllm-project/vllm#28549, models/utils.py
    # process_eagle_weight); SGLang then allocates a head of its own and leaves it unloaded
    # (sgl-project/sglang#27829: accept length 1.00), said in the note
    full_vocab = configured_draft_vocab(cfg.raw) and cfg.draft_vocab_size == cfg.vocab_size
    if tied_head or checkpoint.has("lm_head.weight") or (
            configured_draft_vocab(cfg.raw) and not full_vocab):
        return None
    why = (f"{checkpoint.path}: no lm_head.weight and " + (
        f"draft_vocab_size {cfg.draft_vocab_size} is the whole vocabulary: this draft uses the "
        "target's lm_head (as vLLM shares it)" if full_vocab else
        "no draft_vocab_size: this draft uses the target's lm_head (as SGLang loads it: "
        "load_lm_head_from_target)"))
    if target is None:
        raise CheckpointError(why + "; pass --target DIR", hint=no_target_reason or _verifier_hint(cfg))
    head = target.head()
    if head is None:
        raise CheckpointError(why + f", and the target {target.path} has no lm_head / final norm"
                              + target.absent_because(),
                              hint="pass the full target checkpoint (the shard holding lm_head.weight) "
                                   "as --target")
    lm_head = head[1]
    if lm_head.dim() != 2 or lm_head.shape[0] < cfg.vocab_size or lm_head.shape[1] != cfg.hidden_size:
        raise CheckpointError(why + f", but the target's lm_head {list(lm_head.shape)} does not fit the "
                              f"draft (vocab {cfg.vocab_size}, hidden {cfg.hidden_size})",
                              hint="--target must be the model the draft was trained for")
    notes.append(FULL_VOCAB_TARGET_HEAD if full_vocab else
                 f"{TARGET_HEAD}, as SGLang loads this draft (load_lm_head_from_target)")
    return lm_head[: cfg.vocab_size]  # [V, H]; a padded target head has extra rows


def _exact_d2t(d2t: Tensor, t2d: Tensor | None, notes: list[str]) -> Tensor:
    """A d2t saved as floats (a whole-state-dict dtype cast): exact when the type holds every
    offset; else rounded, and rebuilt from t2d where t2d is there (target ids ascending, so
    d2t = t2d.nonzero() - arange(DV): EAGLE3.md section 1)."""
    from spec_debug.eagle3.vocab import float_d2t_issue

    # the offsets as float64 (exact for every float type d2t is stored in): torch has no
    # round() for FP8, and a draft cast whole to float8_e4m3fn stopped every command with
    # "NotImplementedError: round_vml_cpu not implemented for 'Float8_e4m3fn'"
    rounded = d2t.double().round().long()
    issue = float_d2t_issue(str(d2t.dtype), rounded.tolist())
    if issue is None or not issue.facts["rounded"]:  # exact: the vocab issue says the rest
        return rounded
    if t2d is not None:
        selected = t2d.bool().nonzero().reshape(-1)  # [DV] ascending target ids
        notes.append(issue.message.split(": save")[0] + "; the offsets were rebuilt from t2d "
                     "for this run, but engines read the rounded d2t: save it as int64")
        return selected - torch.arange(selected.numel())
    notes.append(issue.message)
    return rounded


# RMSNorm weights (LlamaRMSNorm, Qwen3 q_norm/k_norm, speculators' input_norm and
# fc_norm.{i}), which every draft class initialises to ones
_NORM_WEIGHT = re.compile(r"norm(\.\d+)?\.weight$")

# The opening of the note load_draft adds for RMSNorm weights of zeros (layout.py reads it)
ZEROED_NORMS_NOTE = "RMSNorm weights that are all zeros"


# How far from 1.0 a norm weight must have moved to count as trained here: a bfloat16 save
# rounds anything within 2**-8 of 1.0 to 1.0, so norms early in training can read as
# untouched; only beside clearly trained ones is an untouched norm a sign of a lost load
_TRAINED_NORM_DEVIATION = 0.05


def _initial_norms_note(deviation: dict[str, float]) -> str | None:
    """A note when some RMSNorm weights are exactly 1.0, their initial value, while others
    are clearly trained (`deviation`: name -> max |w - 1|): those modules were never given
    trained weights. A converter or exporter that loads with `load_state_dict(strict=False)`
    and saves anyway leaves them so when a name does not match: speculators' Eagle3Converter
    (convert/eagle/eagle3_converter.py _save_converted_checkpoint) lost its `midlayer.` ->
    `layers.0.` remap that way and wrote a draft with zero acceptance
    (vllm-project/speculators#358, #1114). The layers beside such a norm are random too; no
    error is raised anywhere."""
    initial = sorted(name for name, moved in deviation.items() if moved == 0.0)
    trained = sorted(name for name, moved in deviation.items()
                     if moved > _TRAINED_NORM_DEVIATION)
    if not initial or not trained:
        return None  # all trained, or an untrained draft saved as a whole
    return (f"RMSNorm weights at their initial value (every entry exactly 1.0): "
            f"{', '.join(initial[:4])}" + (" ..." if len(initial) > 4 else "") + f", while "
            f"{trained[0]} is trained: these modules were saved freshly initialised, by a "
            "conversion or export whose tensor names did not match and that loaded with "
            "strict=False (vllm-project/speculators#1114); the draft runs with random weights "
            "there: convert or export it again from the training checkpoint")


# Rows of the embedding compared with the target's: enough to tell a copy from another
# tensor, few enough to read from a GB-sized embedding in no time
_EMBED_SAMPLE_ROWS = 64
# Float dtypes as safetensors headers and torch name them (TensorInfo.dtype)
_FLOAT_DTYPES = frozenset({"F16", "BF16", "F32", "F64", "torch.float16", "torch.bfloat16",
                           "torch.float32", "torch.float64"})


def _embedding_differs_note(checkpoint: DraftCheckpoint,
                            target: TargetCheckpoint | None) -> str | None:
    """A note when the draft ships an embed_tokens that is not the target's. Every recipe
    copies the target's embedding into the draft and freezes it (speculators
    `embed_requires_grad` false by default, SpecForge, EAGLE traineagle3), so a different one
    is an export that saved a freshly initialised embedding (lightseekorg/TorchSpec#38) or a
    target that is not the model the draft was trained on. The engines differ here: SGLang
    always replaces the draft's embedding with the target's (eagle_worker.py set_embed); vLLM
    keeps a draft embedding that differs from the target's ("Detected EAGLE model with
    distinct embed_tokens weights", vllm-project/vllm#28549, #50158)."""
    cfg = checkpoint.config
    if target is None or not checkpoint.has("embed_tokens.weight") or cfg.raw.get(
            "embed_requires_grad") is True:
        return None
    name = target.embed_name
    if name is None:
        return None
    info, other = checkpoint.tensors.infos["embed_tokens.weight"], target.tensors.infos[name]
    if info.shape != other.shape or len(info.shape) != 2:
        return None  # reported as a shape fault where the embedding is used
    if info.dtype not in _FLOAT_DTYPES or other.dtype not in _FLOAT_DTYPES:
        return None  # quantized: the raw values are off by their scales
    vocab = info.shape[0]
    count = min(_EMBED_SAMPLE_ROWS, vocab)
    indices = sorted({(i * vocab) // count for i in range(count)})
    draft_rows = checkpoint.tensors.rows("embed_tokens.weight", indices).float()  # [n, H]
    target_rows = target.tensors.rows(name, indices).float()  # [n, H]
    relative = float((draft_rows - target_rows).norm() / target_rows.norm().clamp_min(1e-12))
    if relative <= 1e-2:  # equal up to a bf16 / fp16 cast
        return None
    cosine = float(torch.nn.functional.cosine_similarity(draft_rows, target_rows, dim=-1).mean())
    what = ("unrelated to it: a freshly initialised embedding an export saved "
            "(lightseekorg/TorchSpec#38), or another model's" if cosine < 0.5 else
            "close to it: the target is not the exact model the draft was trained on "
            "(another revision, or base vs instruct)")
    return (f"the draft's embed_tokens is not the target's ({len(indices)} sampled rows: "
            f"cosine {cosine:.2f}, relative difference {relative:.2f}), {what}; training "
            "freezes the target's embedding, so they should be equal. Scored with the "
            "draft's, as vLLM serves it since #28549 (it keeps a distinct draft embedding; "
            "before, it used the target's); SGLang uses the target's: compare with "
            "--semantics sglang, and re-export the draft with the target's embedding")


def _head_map_note(model: Eagle3Draft, head: TargetHead | None, fmt: str,
                   from_file: bool, tolerance: float) -> str | None:
    """A note when the draft's vocab map sends its ids to other target tokens than the ones
    its lm_head rows were copied from (head_map.py). SpecForge and EAGLE train their lm_head,
    so only speculators' saves are compared."""
    if head is None or fmt != "speculators" or model.d2t is None:
        return None  # no map: SD301 and the no-d2t note say how draft ids are read
    weight = model.lm_head.weight.detach()  # [DV, H]
    target_head = head.lm_head.detach().cpu()  # [V, Ht]
    if weight.shape[1] != target_head.shape[1]:
        return None
    draft_ids = sample_ids(weight.shape[0])
    mapped = mapped_ids(draft_ids, model.d2t, target_head.shape[0])
    if mapped is None:
        return None
    source = "the --vocab-mapping file" if from_file else "its d2t/t2d"
    # only the sampled rows in float32: the whole draft head is GBs at 128k-row vocabularies
    return head_map_message(draft_ids, weight[draft_ids.to(weight.device)].float().cpu(),
                            mapped, target_head[mapped].float(), lambda: target_head, source,
                            tolerance)


@dataclass
class TargetHead:
    """The verifier's final norm and lm_head: targets = lm_head(norm(last_hidden))."""

    norm_weight: Tensor  # [Ht]
    lm_head: Tensor  # [V, Ht]
    eps: float
    zero_centered: bool = False  # norm(x) * (1 + weight): gemma, Qwen3-Next, Qwen3.5

    def already_normed(self, last_hidden: Tensor) -> bool:
        """True when every row is w * x / rms(x), i.e. past this norm already: dividing by the
        weight leaves RMS 1. HF `output_hidden_states` ends with that state (transformers 5
        records it after model.norm), so hand-made dumps often hold it; vLLM's capture and
        the engines' aux states are pre-norm, with RMS far from 1 after the division."""
        scale = self.norm_weight.float() + (1.0 if self.zero_centered else 0.0)  # [Ht]
        if last_hidden.shape[0] == 0 or bool((scale.abs() < 1e-3).any()):
            return False
        unscaled = last_hidden.float() / scale  # [rows, Ht]
        rms = unscaled.pow(2).mean(-1).sqrt()  # [rows]
        return bool(((rms - 1.0).abs() < 0.02).all())

    def logits(self, last_hidden: Tensor, normed: bool = False) -> Tensor:
        # last_hidden [..., Ht] -> [..., V], computed like the HF RMSNorm of the target + Linear;
        # `normed`: the state is already past the final norm (SpecForge dumps)
        x = last_hidden.to(self.lm_head.dtype)
        if normed:
            return x @ self.lm_head.T
        x32 = x.float()
        if not bool(torch.isfinite(x32).all()):
            # --dtype float16 and a final state past 65504 (a bf16 dump; the target ran in
            # bf16, where it was finite): norm the dump's own values, whose normed result fits
            x32 = last_hidden.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        if self.zero_centered:  # Gemma3RMSNorm: (x * (1 + w)) in fp32, then the input dtype
            normed = (x32 * (1.0 + self.norm_weight.float())).to(x.dtype)
        else:  # LlamaRMSNorm: w * x.to(input dtype)
            normed = self.norm_weight * x32.to(x.dtype)
        return normed @ self.lm_head.T


@dataclass
class LoadedDraft:
    model: Eagle3Draft
    checkpoint: DraftCheckpoint
    target: TargetCheckpoint | None
    target_head: TargetHead | None
    embed_source: str  # "draft" | "target"
    notes: list[str] = field(default_factory=list)
    # every RMSNorm weight read is exactly 1.0, its initial value: a draft saved before any
    # training (_initial_norms_note speaks only of such norms beside trained ones)
    initial_norms: bool = False


def _meta_draft(checkpoint: DraftCheckpoint) -> Eagle3Draft:
    try:
        with torch.device("meta"):
            return Eagle3Draft(checkpoint.config, fc_bias=checkpoint.has("fc.bias"),
                               has_input_norm=checkpoint.has("input_norm.weight"),
                               has_fc_norm=checkpoint.has("fc_norm.0.weight"))
    except ValueError as exc:  # a config the forward cannot run (RoPE kind, activation)
        raise CheckpointError(f"{checkpoint.path / 'config.json'}: {exc}") from None


_CONFIG_OF_ANOTHER_DRAFT = ("config.json describes another draft than these weights (a config "
                            "copied from another size, or weights from another run): put the "
                            "config saved with the weights beside them")


def check_weights_fit_config(checkpoint: DraftCheckpoint) -> Eagle3Draft:
    """The draft the config describes (on the meta device), once the tensor headers agree
    with it. Reads no tensor data, so it runs before the hidden states are looked at: a
    config of another draft must be named as such, not as a dump "of another target"."""
    cfg = checkpoint.config
    packed = (packed_weight_format(checkpoint.tensors.infos)
              or fp4_weight_format(checkpoint.tensors.infos))
    if packed is not None:
        label, names = packed
        raise CheckpointError(
            f"{checkpoint.path}: weights quantized as {label} ({', '.join(names[:3])}"
            + (" ..." if len(names) > 3 else "") + "): this format is not supported; the "
            "drafter reads float weights, and FP8 or int8 ones with their scales",
            hint="evaluate the unquantized draft training saved (the engines serve the same "
                 "architecture), or dequantize this one to bfloat16")
    model = _meta_draft(checkpoint)
    norm = checkpoint.shape("norm.weight")
    if norm is not None and norm != (cfg.hidden_size,):
        raise ConfigMisfitError(f"{checkpoint.path}: the weights are {norm[0]} wide (norm.weight "
                                f"{list(norm)}), the config's hidden_size is {cfg.hidden_size}",
                                hint=_CONFIG_OF_ANOTHER_DRAFT)
    stored_layers = sorted({int(m.group(1)) for name in checkpoint.tensors.infos
                            if (m := re.match(r"layers\.(\d+)\.", name))})
    if stored_layers and len(stored_layers) < cfg.num_layers:
        if _layer_count_absent(cfg):
            raise ConfigMisfitError(
                f"{checkpoint.path}: transformer_layer_config has no num_hidden_layers, so "
                f"speculators builds transformers' default of {cfg.num_layers} decoder layers, "
                f"loads the weights' {stored_layers} and leaves the rest random", hint=f"add \"num_hidden_layers\": {len(stored_layers)} to "
                                    "transformer_layer_config")
        raise ConfigMisfitError(f"{checkpoint.path}: the config's num_hidden_layers is "
                                f"{cfg.num_layers}, the weights hold decoder layer(s) "
                                f"{stored_layers}", hint=_CONFIG_OF_ANOTHER_DRAFT)
    for name, param in model.state_dict().items():
        got = checkpoint.shape(name)
        if name == "embed_tokens.weight" or got is None or got == tuple(param.shape):
            continue  # the embedding may come from the target (build_draft checks it)
        reason = _shape_reason(name, got, cfg)
        raise ConfigMisfitError(f"{checkpoint.path}: " + (reason or (
            f"{name} has shape {got}, the config implies {tuple(param.shape)}")),
            hint="the config.json does not describe these weights: fix the config or "
                 "re-export the checkpoint")
    if cfg.draft_vocab_size > cfg.vocab_size:
        # draft ids past the target vocabulary map to no token: the scoring indexed past the
        # target's logits (a bare IndexError), vLLM and SGLang fail on them too (vocab.py
        # check_lm_head_rows)
        raise CheckpointError(
            f"{checkpoint.path}: draft_vocab_size {cfg.draft_vocab_size} (lm_head rows) is "
            f"larger than the target vocabulary, vocab_size {cfg.vocab_size}: draft ids "
            f"{cfg.vocab_size}..{cfg.draft_vocab_size - 1} map to no target token",
            hint="the draft head or config comes from another vocabulary: set draft_vocab_size "
                 "to the rows training selected (at most vocab_size) and vocab_size to the "
                 "target's, or re-export the draft")
    return model


def _shared_embedding_note(checkpoint: DraftCheckpoint, embed_source: str) -> str | None:
    """The note for a draft saved without embed_tokens (SpecForge leaves the frozen embedding
    out of what it saves, tests/eagle3/test_hardening2_inputs.py; a hand-made export drops it)
    whose target embedding stands in. Said, so the reader knows the numbers are the target embedding's and that the engines
    serve the same: SGLang always replaces the draft's embedding with the target's
    (python/sglang/srt/speculative/eagle_worker.py set_embed), vLLM shares the target's when the
    draft has none (model_executor/models/llama_eagle3.py load_weights, commit 00bd1493)."""
    if embed_source != "target" or checkpoint.has("embed_tokens.weight"):
        return None
    return ("the draft has no embed_tokens.weight: the target's embedding is used here, as the "
            "engines serve it (SGLang always replaces the draft's embedding with the target's; "
            "vLLM shares the target's when the draft has none); a draft trained with an "
            "embedding of its own needs it saved with the draft")


# The float dtypes a config.json's "dtype" (transformers v5) or "torch_dtype" (v4) may name
_CONFIG_DTYPES = ("float32", "bfloat16", "float16")


def config_dtype(raw: Mapping[str, Any]) -> torch.dtype | None:
    """The dtype the draft's config.json declares, or None when it names none (or a type
    this loader does not take). speculators' from_pretrained builds the draft in it:
    transformers 5 modeling_utils.py _get_dtype resolves its default dtype="auto" to the
    config's dtype, and the weights are cast into parameters of that type when loaded."""
    name = raw.get("dtype") or raw.get("torch_dtype")
    name = str(name).replace("torch.", "") if name is not None else None
    return getattr(torch, name) if name in _CONFIG_DTYPES else None


class _AsServed:
    """Weights as speculators holds them after from_pretrained: rounded to the config's dtype
    first, then to the evaluation dtype. vLLM does the same rounding for a draft whose config
    dtype is the target's (vllm/config/speculative.py, commit 73029d42: the draft's
    ModelConfig takes dtype=self.target_model_config.dtype, and default_weight_loader copies
    into parameters of that type). Without it, float16 weights under a bfloat16 config were
    evaluated at float16 precision: logits ~1e-3 off speculators' own forward."""

    def __init__(self, declared: torch.dtype | None):
        self.declared = declared
        self.rounded: dict[str, str] = {}  # stored dtype -> the first name rounded from it
        self.overflowed: list[str] = []  # names whose values the declared dtype cannot hold

    def __call__(self, name: str, tensor: torch.Tensor, quantized: bool = False) -> torch.Tensor:
        if (self.declared is None or quantized or not tensor.is_floating_point()
                or tensor.dtype == self.declared):
            return tensor
        rounded = tensor.to(self.declared)
        if not bool(torch.isfinite(rounded).all()) and bool(torch.isfinite(tensor).all()):
            # bfloat16/float32 values past float16's 65504 under a float16 config: kept as
            # stored, so the scores are not all NaN; the note names them
            self.overflowed.append(name)
            return tensor
        if self.declared != torch.float32:  # float32 holds every 16-bit value exactly
            self.rounded.setdefault(str(tensor.dtype).replace("torch.", ""), name)
        return rounded

    def note(self) -> str | None:
        if not self.rounded and not self.overflowed:
            return None
        declared = str(self.declared).replace("torch.", "")
        stored = ", ".join(sorted(self.rounded))
        rounded = (f"weights stored in {stored} under a config whose dtype is {declared}: "
                   f"rounded to {declared} before evaluation, as speculators' from_pretrained "
                   f"and an engine serving in {declared} load them; an engine serving in "
                   "another dtype (vLLM runs the draft in the target's --dtype) rounds them "
                   "to that one") if self.rounded else ""
        overflowed = (f"{', '.join(self.overflowed[:4])} hold values past {declared}'s range "
                      f"(the config's dtype): kept as stored here, but speculators and an "
                      f"engine serving in {declared} load Inf there; set the config's dtype "
                      "to the one the draft was trained in") if self.overflowed else ""
        return "; ".join(part for part in (rounded, overflowed) if part)


def build_draft(checkpoint: DraftCheckpoint, *, target: TargetCheckpoint | None = None,
                device: str | torch.device = "cpu", dtype: str | torch.dtype = "float32",
                use_target_embedding: bool = False, load_target_head: bool = True,
                vocab_mapping: VocabMapping | None = None,
                no_target_reason: str | None = None) -> LoadedDraft:
    """`vocab_mapping`: the training's map file (--vocab-mapping), used instead of the
    checkpoint's d2t/t2d, with a note on how they compare. `no_target_reason`: why no target
    is used (the verifier the config names was found but refused), for the error a draft
    without an embedding gives: without it the hint sends the user back to that verifier."""
    cfg = checkpoint.config
    dtype = resolve_dtype(dtype)
    device = resolve_device(device)
    as_served = _AsServed(config_dtype(cfg.raw))
    model = check_weights_fit_config(checkpoint).to_empty(device=device)
    notes = store_notes(checkpoint.tensors, target.tensors if target is not None else None)
    if checkpoint.stored_prefix:
        # vLLM llama_eagle3.py load_weights and SGLang llama_eagle3.py look tensors up by their
        # bare names; SGLang skips the names it does not know, so it would serve random weights
        notes.append(f"the draft's tensors are stored under {checkpoint.stored_prefix!r} (a "
                     "training wrapper's state dict) and were read without it; vLLM and SGLang "
                     "look up the bare names: re-save the draft without the prefix")
    model_prefixed = _model_prefixed(checkpoint)
    if model_prefixed:
        notes.append(model_prefixed)
    if checkpoint.tensors.nested_in:
        # vLLM (weight_utils.py pt_weights_iterator) and SGLang iterate the pickle's top-level
        # items as (name, tensor): a dict there is no weight they can load
        notes.append(f"the draft's weights are nested under {checkpoint.tensors.nested_in!r} in "
                     "its pickle (a training checkpoint beside its optimizer state) and were "
                     "read from there; engines read top-level tensors: re-save "
                     f"checkpoint[{checkpoint.tensors.nested_in!r}] alone, or with "
                     "save_pretrained")
    if cfg.norm_before_fc and model.input_norm is None:
        raise ConfigMisfitError(f"{checkpoint.path}: norm_before_fc is set but the checkpoint has "
                                "no input_norm.weight")
    if cfg.fc_norm and model.fc_norm is None:
        raise ConfigMisfitError(f"{checkpoint.path}: fc_norm is set but the checkpoint has no "
                                "fc_norm.0.weight")
    for flag, weight, present in (("norm_before_fc", "input_norm.weight", model.input_norm),
                                  ("fc_norm", "fc_norm.0.weight", model.fc_norm)):
        if present is not None and not getattr(cfg, flag):
            # trained with the pre-fc norm (speculators creates the module only under the
            # flag: models/eagle3/core.py), but the config does not switch it on: speculators
            # and vLLM, which read the flag, run the draft without it
            notes.append(f"the checkpoint has {weight} but the config does not set {flag}: "
                         f"it is not applied here, nor by an engine that reads {flag} from "
                         f"the config; if the draft was trained with it, set \"{flag}\": true")

    tied_head = _head_tied_to_embedding(checkpoint, notes)
    target_head = _target_head_for_draft(checkpoint, tied_head, target, notes, no_target_reason)
    embed_source = "draft"
    missing: list[str] = []
    non_finite: list[str] = []
    zero: list[str] = []  # weight matrices of zeros: no trained draft has one
    zero_norms: list[str] = []  # RMSNorm weights of zeros: the norm's output is zero
    norm_deviation: dict[str, float] = {}  # RMSNorm weight -> max |w - 1|
    with torch.no_grad():
        for name, param in model.state_dict().items():
            if name == "embed_tokens.weight" and (use_target_embedding
                                                  or not checkpoint.has(name)):
                if not checkpoint.has(name) and cfg.hidden_size != cfg.target_hidden_size:
                    # a draft of its own width (speculators target_hidden_size, EAGLE3.md
                    # section 1) embeds into hidden_size: the target's [vocab,
                    # target_hidden_size] embedding cannot stand in for the missing one
                    raise CheckpointError(
                        f"{checkpoint.path}: no embed_tokens.weight in the draft, and the "
                        f"draft's hidden_size {cfg.hidden_size} differs from its "
                        f"target_hidden_size {cfg.target_hidden_size}: it needs its own "
                        f"[{cfg.vocab_size}, {cfg.hidden_size}] embedding, which the "
                        "target's cannot replace",
                        hint="re-export the draft with its embed_tokens.weight (the tensor "
                             "the trainer saved)")
                embed = target.embed() if target is not None else None
                if embed is None:
                    if checkpoint.has(name):
                        notes.append("target embedding requested but unavailable; using the "
                                     "draft's")
                    elif target is not None:
                        raise CheckpointError(
                            f"{checkpoint.path}: no embed_tokens.weight in the draft, and the "
                            f"target {target.path} has no embedding tensor either"
                            + target.absent_because(),
                            hint="pass the full target checkpoint (the shard holding "
                                 "model.embed_tokens.weight) as --target")
                    else:
                        raise CheckpointError(
                            f"{checkpoint.path}: no embed_tokens.weight in the draft; pass "
                            "--target DIR so the target's embedding can be used (the engines "
                            "do the same)", hint=no_target_reason or _verifier_hint(cfg))
                else:
                    if tuple(embed.shape) != tuple(param.shape):
                        raise CheckpointError(
                            f"target embedding {tuple(embed.shape)} does not fit the draft "
                            f"{tuple(param.shape)} [vocab, hidden]: {target.path} is not the "
                            "model this draft was trained for")
                    bad = _non_finite(f"target {target.embed_name}", embed)
                    if bad:
                        non_finite.append(bad)
                    param.copy_(as_served(name, embed).to(dtype))
                    embed_source = "target"
                    continue
            if name == "lm_head.weight" and tied_head:
                continue  # copied from the embedding once that is loaded (below)
            if name == "lm_head.weight" and target_head is not None:
                param.copy_(as_served(name, target_head).to(device=device, dtype=dtype))
                continue
            if not checkpoint.has(name):
                missing.append(name)
                continue
            tensor = checkpoint.tensors.weight(name, fp8_block_size(cfg.raw))
            _integer_weight(checkpoint, name, tensor)
            if tuple(tensor.shape) != tuple(param.shape):
                reason = _shape_reason(name, tuple(tensor.shape), cfg)
                raise ConfigMisfitError(f"{checkpoint.path}: " + (reason or (
                    f"{name} has shape {tuple(tensor.shape)}, the config implies "
                    f"{tuple(param.shape)}")), hint="the config.json does not describe these "
                    "weights: fix the config or re-export the checkpoint")
            bad = _non_finite(name, tensor)
            if bad:
                non_finite.append(bad)
            elif tensor.dim() >= 2 and not bool(tensor.any()):
                zero.append(name)
            elif _NORM_WEIGHT.search(name) and not bool(tensor.any()):
                # all zeros is no trained norm (nor an initial one): counted as "moved" from
                # 1.0 it called the untouched norms beside it the lost ones, and said nothing
                # of this one, which zeroes every state it normalises
                zero_norms.append(name)
            elif _NORM_WEIGHT.search(name):
                norm_deviation[name] = float((tensor.float() - 1).abs().max())
            quantized = checkpoint.tensors.scale_name(name) is not None
            param.copy_(as_served(name, tensor, quantized).to(device=device, dtype=dtype))
    if tied_head and not missing:
        with torch.no_grad():
            model.lm_head.weight.copy_(model.embed_tokens.weight)  # [V, H] = [DV, H] here
    if missing:
        qk_norms = all(name.endswith(("q_norm.weight", "k_norm.weight")) for name in missing)
        misplaced = index_misplaces(Path(checkpoint.path), missing)
        # a Qwen3 decoder config over a Llama decoder's weights is the config not describing
        # them, which the configs step says (SD704, model_type): the steps that load the draft
        # say they did not run because of it, not one more "step could not run" (SD003)
        refusal = ConfigMisfitError if qk_norms and cfg.model_type == "qwen3" else CheckpointError
        raise refusal(f"{checkpoint.path}: missing tensors: {', '.join(missing[:8])}"
                              + (" ..." if len(missing) > 8 else "") + misplaced,
                              # only a Qwen3 decoder has them (transformers modeling_qwen3.py)
                              hint=(f"the config's decoder model_type is {cfg.model_type!r} but the weights are "
                                    "a Llama decoder's (no q_norm/k_norm): set model_type to \"llama\" if the "
                                    "draft was trained as one" if qk_norms and cfg.model_type == "qwen3"
                                    else _missing_head_hint(cfg) if missing == ["lm_head.weight"]
                                    else None if misplaced else _missing_weights_hint(missing)))
    used = set(model.state_dict())
    notes += _unused_tensors(checkpoint, used)
    notes += [note for note in (_no_architectures_note(cfg),
                                _layer_without_model_type_note(checkpoint),
                                _cast_to_fp8_note(checkpoint, used), as_served.note()) if note]
    notes += [note for note in (
        _initial_norms_note(norm_deviation),
        _embedding_differs_note(checkpoint, target) if embed_source == "draft" else None,
        _shared_embedding_note(checkpoint, embed_source))
        if note]
    if zero:
        # a copy whose end was never written reads as zeros when the file was preallocated
        # (parallel downloaders write into a full-size file); an export can drop a module too
        notes.append(f"weight matrices that are all zeros: {', '.join(zero[:4])}"
                     + (" ..." if len(zero) > 4 else "") + ": an incomplete copy of the "
                     "checkpoint, or an export that left them out; copy it again")
    if zero_norms:
        # a copy whose end was never written reads as zeros (see above), and norm.weight is
        # among the last tensors safetensors writes (names in sorted order)
        notes.append(f"{ZEROED_NORMS_NOTE}: {', '.join(zero_norms[:4])}"
                     + (" ..." if len(zero_norms) > 4 else "") + ": the norm's output is zero, "
                     "so every state after it is lost and the draft predicts nothing; an "
                     "incomplete copy of the checkpoint, or an export that left them out; copy "
                     "it again")
    if non_finite:
        # speculators initialises embed_tokens and lm_head to NaN until load_verifier_weights
        # runs (EAGLE3.md section 8), so a draft saved before that step looks like this.
        raise CheckpointError(f"{checkpoint.path}: NaN or Inf in {', '.join(non_finite[:4])}"
                              + (" ..." if len(non_finite) > 4 else ""),
                              hint=_non_finite_hint(non_finite))
    model.to(dtype=dtype)
    d2t, t2d = checkpoint.vocab_maps()
    if vocab_mapping is not None:
        notes.append(mapping_note(d2t, vocab_mapping))
        d2t, t2d = vocab_mapping.d2t, vocab_mapping.t2d
    DV, V = cfg.draft_vocab_size, cfg.vocab_size
    # A map of the wrong length cannot be applied at all (vocab.py reports it as SD302/SD303);
    # one of the right length is applied as stored, so wrong offsets cost what they cost an
    # engine (target ids that never match).
    if d2t is not None and d2t.numel() == DV:
        d2t = d2t.reshape(DV)  # [1, DV] from hand-written exporters (vocab.py reads it so too)
    if t2d is not None and t2d.numel() == V:
        t2d = t2d.reshape(V)
    misshapen = d2t is not None and tuple(d2t.shape) != (DV,)
    if misshapen:
        # vLLM copies d2t into its [DV] draft_id_to_target_id with default_weight_loader,
        # which asserts equal sizes (vllm model_executor/model_loader/weight_utils.py): the
        # draft does not load; scored here as if it had none
        notes.append(f"d2t has shape {list(d2t.shape)}, not [{DV}] (one offset per lm_head "
                     "row): vLLM refuses to load it; scored with draft id i read as target "
                     "id i")
        d2t = None
    if t2d is not None and (tuple(t2d.shape) != (V,) or int(t2d.bool().sum()) != DV):
        notes.append(f"t2d has shape {list(t2d.shape)} with {int(t2d.bool().sum())} ids set, "
                     f"not [{V}] with {DV}: not used to select the verifier rows")
        t2d = None
    if d2t is not None and d2t.is_floating_point():
        d2t = _exact_d2t(d2t, t2d, notes)
    model.d2t = d2t.to(device=device, dtype=torch.long) if d2t is not None else None
    model.t2d = t2d.to(device=device, dtype=torch.bool) if t2d is not None else None
    if d2t is None and cfg.draft_vocab_size < cfg.vocab_size and not misshapen:
        notes.append("no d2t although draft vocab < target vocab: draft id i is read as target "
                     "id i (what vLLM does with its zero-initialised map)")
    model.eval()

    head = None
    if target is not None and load_target_head:
        pair = target.head()
        if pair is not None:
            norm_w, lm_w = pair
            Ht = cfg.target_hidden_size
            if (lm_w.dim() != 2 or lm_w.shape[0] < cfg.vocab_size or lm_w.shape[1] != Ht
                    or tuple(norm_w.shape) != (Ht,)):
                raise TargetMisfitError(
                    f"{target.path}: target lm_head {list(lm_w.shape)} / final norm "
                    f"{list(norm_w.shape)} do not fit the draft (vocab {cfg.vocab_size}, "
                    f"hidden {Ht})", hint="--target must be the model the draft was trained for")
            _refuse_non_finite_head(target, ((target.norm_name, norm_w),
                                             (target.lm_head_name, lm_w)))
            head = TargetHead(norm_w.to(device=device, dtype=dtype),
                              lm_w.to(device=device, dtype=dtype), target.config.rms_norm_eps,
                              target.config.zero_centered_norm)
        else:
            notes.append("target has no final norm / lm_head" + target.absent_because()
                         + ": reference falls back to data tokens")
    if head is not None:
        tolerance = copy_tolerance(target.tensors, target.lm_head_name)
        notes += [note for note in [_head_map_note(model, head, cfg.format,
                                                   vocab_mapping is not None, tolerance)] if note]
    return LoadedDraft(model, checkpoint, target, head, embed_source, notes,
                       initial_norms=bool(norm_deviation) and not zero_norms
                       and all(moved == 0.0 for moved in norm_deviation.values()))


def load_draft(model_dir: str | Path, target_dir: str | Path | None = None, *,
               device: str = "cpu", dtype: str | torch.dtype = "float32",
               use_target_embedding: bool = False) -> LoadedDraft:
    checkpoint = open_draft(model_dir)
    target = open_target(target_dir) if target_dir else None
    return build_draft(checkpoint, target=target, device=device, dtype=dtype,
                       use_target_embedding=use_target_embedding)
