"""SD704: a draft config.json whose shape keys do not describe its own weights.

vLLM and SGLang build the draft's decoder layers from its config.json (heads, KV heads,
head_dim, MLP width, layer count, biases: vllm and sglang models/llama_eagle3.py) and then load
the weights into them; a config edited by hand, or copied from another draft, either fails
that load on a shape or serves another network (a layer or bias the config leaves out is
skipped). The shapes come from the safetensors headers the model_configs probe already sends:
no tensor is loaded for this. The hidden size itself is SD204 (layers.config_width_problem).
The norms before fc that a flag alone builds (norm_before_fc, fc_norm) are compared too.
SD705: the same headers name the tensors as a training wrapper held them, which neither
engine can load. SD709: they name the decoder layers as speculators saves them (`layers.N.*`),
which SGLang does not load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from spec_debug.diagnose.checks.common import Where
from spec_debug.eagle3.checkpoint import draft_prefix, normalise_draft_name, packed_weight_format
from spec_debug.eagle3.config import SUPPORTED_DECODERS, CheckpointError, DraftConfig, parse_draft_config
from spec_debug.probes.hostfiles import TENSOR_SHAPES_LIMIT
from spec_debug.record import Finding

# The decoder-layer tensors whose shapes the config's shape keys decide (norms are hidden_size
# wide: SD204's). Names as speculators saves them (EAGLE/SpecForge midlayer.* and a `model.`
# prefix read as checkpoint.normalise_draft_name reads them).
_LAYER_TENSOR = re.compile(r"^layers\.(\d+)\.(self_attn\.(?:[qkvo]_proj\.(?:weight|bias)|[qk]_norm\.weight)"
                           r"|mlp\.(?:gate|up|down)_proj\.(?:weight|bias))$")

# Which keys decide which tensors: a fix is looked for per group, so a config with two groups
# edited gets both keys named.
_GROUPS = {"self_attn": ("num_attention_heads", "num_key_value_heads", "head_dim", "attention_bias",
                         "model_type"),
           "mlp": ("intermediate_size", "mlp_bias")}


# safetensors dtypes that hold one value an element: a weight stored in any other (ModelOpt
# NVFP4 / MXFP4 uint8 with two FP4 values a byte, vLLM modelopt.py and mxfp4.py
# create_weights) has a packed shape the config does not give.
_ONE_VALUE_AN_ELEMENT = ("F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2", "I8")


def unwrapped(tensors: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The probe's {name: [shape, dtype]} of a draft saved from a training wrapper's state dict
    (SpecForge's `draft_model.fc.weight`, DDP's `module.`) under the draft's own names, as the
    drafter reads it (checkpoint.open_draft keep_under); as given for any other. Without this
    the width (SD204) and shape (SD704) checks found no `norm.weight` or `layers.N.*` and said
    nothing of a config that does not fit the weights."""
    if not isinstance(tensors, Mapping):
        return None
    if len(tensors) >= TENSOR_SHAPES_LIMIT:
        return dict(tensors)  # a listing cut at its limit: layer_shapes compares none of it
    prefix = draft_prefix([str(name) for name in tensors])
    if prefix is None:
        return dict(tensors)
    kept = {str(name)[len(prefix):]: entry for name, entry in tensors.items() if str(name).startswith(prefix)}
    for name in ("d2t", "t2d"):  # a wrapper may keep the vocab maps at the top
        if name in tensors and name not in kept:
            kept[name] = tensors[name]
    return kept


# SGLang's own parameter names: its LlamaForCausalLMEagle3.load_weights takes a name as is or
# with `model.` added, so `model.fc.weight` loads there; vLLM's Eagle3LlamaForCausalLM adds
# `model.` itself and hands `model.fc.weight` to the inner LlamaModel.load_weights, whose
# params_dict has `fc.weight` alone: a KeyError at startup (vllm
# model_executor/models/llama_eagle3.py, commit 00bd1493). Unservable on vLLM only.
_ENGINE_PREFIX = "model."
_FC_WEIGHT = "fc.weight"


def wrapper_prefix(tensors: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """{stored_prefix, example, tensors} of a draft whose tensors sit under a prefix (a training
    wrapper's `draft_model.`, `module.`, `_orig_mod.`, or SGLang's own `model.`;
    checkpoint.draft_prefix), from the probe's listing; None for bare names, or a listing cut
    at its limit (the bare fc.weight may be among the names left out). Whether the engine
    serving it can load them is check_wrapper_prefix's."""
    if not isinstance(tensors, Mapping) or len(tensors) >= TENSOR_SHAPES_LIMIT:
        return None
    names = [str(name) for name in tensors]
    prefix = draft_prefix(names)
    if prefix is None:
        return _engine_names_beside_bare_fc(names)
    return {"stored_prefix": prefix, "example": prefix + "fc.weight",  # draft_prefix found it
            "tensors": sum(name.startswith(prefix) for name in names)}


def _engine_names_beside_bare_fc(names: list[str]) -> dict[str, Any] | None:
    """{stored_prefix, example, tensors, bare_fc} of a draft whose fc.weight is stored bare
    but whose other tensors carry SGLang's `model.` (a draft whose fc alone was renamed by
    hand, or merged from two state dicts): draft_prefix goes by fc.weight and saw bare names,
    so vLLM's KeyError on the model.model.* ones was not said. None otherwise."""
    if _FC_WEIGHT not in names:
        return None
    prefixed = sorted(name for name in names if name.startswith(_ENGINE_PREFIX))
    if not prefixed:
        return None
    return {"stored_prefix": _ENGINE_PREFIX, "example": prefixed[0], "tensors": len(prefixed),
            "bare_fc": True}


def _rename_command(prefix: str) -> str:
    """One shell line that rewrites each safetensors shard in place under the bare names."""
    return ("python -c \"import glob; from safetensors.torch import load_file, save_file; "
            "[save_file({k.removeprefix('%s'): v for k, v in load_file(f).items()}, f, "
            "metadata={'format': 'pt'}) for f in glob.glob('*.safetensors')]\"" % prefix)


def check_wrapper_prefix(stored: Mapping[str, Any] | None, at: Where = Where(),
                         engine: str | None = None) -> list[Finding]:
    """SD705: the draft's tensors are named as a training wrapper held them. vLLM's
    Eagle3LlamaForCausalLM.load_weights adds `model.` to each name (but lm_head and d2t) and
    its AutoWeightsLoader, or the inner model's params_dict, fails on `model.draft_model.*`
    (vllm model_executor/models/llama_eagle3.py, commit 00bd1493); SGLang's
    LlamaForCausalLMEagle3.load_weights loads a name only when it, or `model.` + it, is a
    parameter and skips the rest without a word (sglang srt/models/llama_eagle3.py, commit
    03d5a777), so it serves a draft none of whose weights were loaded. SGLang's own `model.`
    names are SD705 only when vLLM serves the draft (`engine`): SGLang loads them."""
    if not stored:
        return []
    prefix = stored["stored_prefix"]
    if prefix == _ENGINE_PREFIX:
        if engine != "vllm":
            return []  # SGLang loads them; an unknown engine: the drafter eval's note says it
        beside = " beside a bare fc.weight" if stored.get("bare_fc") else ""
        evidence = [f"the draft's tensors are stored as {prefix}* ({stored['example']}, ... "
                    f"{stored['tensors']} tensors: SGLang's parameter names){beside}: vLLM adds "
                    "'model.' to each name itself and fails to load the draft on model.model.* names"]
    else:
        evidence = [f"the draft's tensors are stored under {prefix!r} ({stored['example']}, ... "
                    f"{stored['tensors']} tensors: a training wrapper's state dict): vLLM fails "
                    "to load them, SGLang skips every name it does not know and serves the "
                    "draft without its weights"]
    remediation = (f"Rename the tensors without {prefix!r}: in the draft directory run "
                   f"`{_rename_command(prefix)}` (a model.safetensors.index.json lists the "
                   "names too: rename them there the same way; pytorch_model*.bin weights: the "
                   "same with torch.load and torch.save), restart the server, and check the "
                   "acceptance rate again.")
    return [at.finding("SD705", evidence, dict(stored), remediation=remediation)]


# SGLang's LlamaForCausalLMEagle3 holds the first draft layer as `model.midlayer.*` and the
# next ones as `model.additional_layers.{i-1}.*` (whose pre-attention norm is `hidden_norm`);
# its load_weights takes a name as is or with `model.` added and skips every other name without
# a word (sglang python/sglang/srt/models/llama_eagle3.py, commits 03d5a777 and d737979c).
# speculators saves the layers as `layers.{i}.*` (EAGLE3.md section 1): vLLM loads them (its
# load_weights renames `midlayer.` to `layers.0.`), SGLang serves those layers untrained.
_DECODER_LAYER = re.compile(r"^(?:model\.)?layers\.(\d+)\.")
_SGLANG_FIRST_LAYER = re.compile(r"^(?:model\.)?midlayer\.")


def decoder_layer_names(tensors: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """{example, tensors, layers} of a draft whose decoder layers are stored as `layers.N.*`
    (bare or under SGLang's `model.`) with no `midlayer.*` beside them, from the probe's
    listing; None otherwise, for a listing cut at its limit, and for a wrapper's prefix
    (SD705 says that one)."""
    if not isinstance(tensors, Mapping) or len(tensors) >= TENSOR_SHAPES_LIMIT:
        return None
    names = [str(name) for name in tensors]
    if draft_prefix(names) not in (None, _ENGINE_PREFIX) or any(
            _SGLANG_FIRST_LAYER.match(name) for name in names):
        return None
    layered = sorted(name for name in names if _DECODER_LAYER.match(name))
    if not layered:
        return None
    layers = sorted({int(_DECODER_LAYER.match(name).group(1)) for name in layered})
    return {"example": layered[0], "tensors": len(layered), "layers": layers}


def _names_sglang_eagle3(draft_raw: Any) -> bool:
    architectures = draft_raw.get("architectures") if isinstance(draft_raw, Mapping) else None
    return isinstance(architectures, list) and "LlamaForCausalLMEagle3" in architectures


def _sglang_rename_command() -> str:
    """One shell line that renames the first layer as SGLang holds it, in place, in every
    safetensors shard (vLLM loads either name: its load_weights maps midlayer. to layers.0.)."""
    return ("python -c \"import glob; from safetensors.torch import load_file, save_file; "
            "[save_file({k.replace('layers.0.', 'midlayer.', 1): v for k, v in "
            "load_file(f).items()}, f, metadata={'format': 'pt'}) for f in "
            "glob.glob('*.safetensors')]\"")


def check_sglang_layer_names(stored: Mapping[str, Any] | None, draft_raw: Any,
                             at: Where = Where(), engine: str | None = None) -> list[Finding]:
    """SD709: SGLang serves, as LlamaForCausalLMEagle3, a draft whose decoder layers are stored
    as `layers.N.*`; it loads fc, norm, lm_head and embed_tokens and leaves every layer at its
    initial weights. SGLang picks the draft's class by the config's `architectures`: a
    speculators config (`Eagle3DraftModel`) does not reach this load_weights, so it is not
    said here (the silent drop is the EAGLE-format config's, converted by hand from one)."""
    if not stored or engine != "sglang" or not _names_sglang_eagle3(draft_raw):
        return []
    evidence = [f"the draft's decoder layers are stored as layers.N.* ({stored['example']}, ... "
                f"{stored['tensors']} tensors: speculators' names); SGLang's "
                "LlamaForCausalLMEagle3 holds them as midlayer.* (and additional_layers.*) and "
                "skips every name it does not know, so it serves the draft with untrained "
                "layers and says nothing"]
    remediation = (f"Rename the first layer as SGLang holds it: in the draft directory run "
                   f"`{_sglang_rename_command()}` (a model.safetensors.index.json lists the "
                   "names too: rename them there the same way). vLLM loads the renamed draft "
                   "too. Restart the server and check the acceptance rate again.")
    if any(layer > 0 for layer in stored["layers"]):
        remediation += (" The layers after the first: layers.{i}.* becomes "
                        "additional_layers.{i-1}.*, and their input_layernorm is hidden_norm "
                        "there.")
    return [at.finding("SD709", evidence, dict(stored), remediation=remediation)]


def layer_shapes(tensors: Mapping[str, Any] | None) -> dict[str, list[int] | None] | None:
    """{normalised name: shape} of the decoder layers' projections, from the probe's
    {name: [shape, dtype]} (shape None for a packed dtype: the layer is there, its shape says
    nothing); None when there are none, or when the weights are integer-packed (a GPTQ qweight
    or bitsandbytes weight has no float shape to compare), or when the probe stopped listing at
    its limit (a layer left out of the listing is not missing from the file)."""
    if (not tensors or len(tensors) >= TENSOR_SHAPES_LIMIT
            or packed_weight_format(list(tensors)) is not None):
        return None
    shapes: dict[str, list[int] | None] = {}
    for name, entry in tensors.items():
        name = normalise_draft_name(str(name))
        shape = entry[0] if isinstance(entry, (list, tuple)) and entry else None
        dtype = entry[1] if isinstance(entry, (list, tuple)) and len(entry) > 1 else None
        if _LAYER_TENSOR.match(name) and isinstance(shape, list) and all(
                isinstance(n, int) and not isinstance(n, bool) for n in shape):
            shapes[name] = shape if dtype in _ONE_VALUE_AN_ELEMENT else None
    return shapes or None


# The norms before fc that speculators builds only under a flag (models/eagle3/core.py
# __init__; EAGLE3.md section 1): input_norm [num_aux x H] under norm_before_fc, fc_norm.{i}
# [H] per aux state under fc_norm.
_FLAG_NORMS = (("norm_before_fc", "input_norm.weight"), ("fc_norm", "fc_norm.0.weight"))
_FLAG_NORM = re.compile(r"^(?:input_norm|fc_norm\.\d+)\.weight$")


def flag_norms(tensors: Mapping[str, Any] | None) -> dict[str, list[int] | None] | None:
    """{normalised name: shape} of the flag-built norms (input_norm, fc_norm.N) the probe's
    {name: [shape, dtype]} lists ({} for none); None when it lists nothing or stopped at its
    limit (a norm left out of the listing is not missing from the file)."""
    if not tensors or len(tensors) >= TENSOR_SHAPES_LIMIT:
        return None
    held: dict[str, list[int] | None] = {}
    for name, entry in tensors.items():
        name = normalise_draft_name(str(name))
        if _FLAG_NORM.match(name):
            shape = entry[0] if isinstance(entry, (list, tuple)) and entry else None
            held[name] = shape if isinstance(shape, list) else None
    return held


def _flag_key(raw: Mapping[str, Any], flag: str) -> str:
    """How a person names the flag in config.json: an EAGLE-format config may nest
    norm_before_fc under eagle_config (config._norm_before_fc reads it there first)."""
    nested = raw.get("eagle_config")
    if "transformer_layer_config" not in raw and isinstance(nested, Mapping) and nested.get(flag) is not None:
        return f"eagle_config.{flag}"
    return flag


def _norm_flag_problems(raw: Mapping[str, Any], cfg: DraftConfig, held: Mapping[str, list[int] | None]
                        ) -> tuple[list[str], list[dict[str, Any]]]:
    """A norm flag the weights contradict. Held but not set (a config regenerated or copied
    without the flag: the flag-built norm is the one thing no shape key shows): speculators and
    an engine that reads the flag run the draft without a norm it was trained with, silently
    (EAGLE3.md section 7, incidents 4 and 6). Set but not held: they build a norm these
    weights do not fill, and the drafter refuses the draft."""
    lines: list[str] = []
    keys: list[dict[str, Any]] = []
    for flag, weight in _FLAG_NORMS:
        on, has = bool(getattr(cfg, flag)), weight in held
        if on == has:
            continue
        key = _flag_key(raw, flag)
        value = raw.get(flag) if "." not in key else raw["eagle_config"].get(flag)
        if has:
            shape = held[weight]
            said = _shown(value) if value is not None else "absent (false assumed)"
            lines.append(f"{key} is {said}, the weights hold {weight}"
                         + (f" {list(shape)}" if shape else "")
                         + f" (the norm before fc speculators builds only under {flag}): the "
                         f"draft runs without a norm it was trained with wherever {flag} is read "
                         f"from this config: set {key} to true")
        else:
            lines.append(f"{key} is {_shown(value)}, the weights hold no {weight}: the draft was "
                         f"saved without the norm that {flag} builds, and speculators and an "
                         f"engine that reads {flag} build it and find no weights for it: set "
                         f"{key} to false")
        keys.append({"key": key, "config": value, "weights": has})
    return lines, keys


def expected_shapes(cfg: DraftConfig, layers: Iterable[int]) -> dict[str, tuple[int, ...]]:
    """The shapes the engines (and speculators) build for draft layers `layers` from `cfg`:
    layer 0 attends over cat([embeds, hidden]), 2H wide; later layers are plain H-wide decoder
    layers (EAGLE3.md section 1; eagle3/model.py FirstLayer / DecoderLayer)."""
    H, I = cfg.hidden_size, cfg.intermediate_size
    q, kv = cfg.num_heads * cfg.head_dim, cfg.num_kv_heads * cfg.head_dim
    shapes: dict[str, tuple[int, ...]] = {}
    for i in layers:
        p, width = f"layers.{i}.", 2 * H if i == 0 else H
        for proj, out, inp in (("q_proj", q, width), ("k_proj", kv, width), ("v_proj", kv, width),
                               ("o_proj", H, q)):
            shapes[f"{p}self_attn.{proj}.weight"] = (out, inp)
            if cfg.attention_bias:
                shapes[f"{p}self_attn.{proj}.bias"] = (out,)
        if cfg.model_type == "qwen3":  # Qwen3Attention's per-head q_norm / k_norm
            shapes[f"{p}self_attn.q_norm.weight"] = shapes[f"{p}self_attn.k_norm.weight"] = (cfg.head_dim,)
        for proj, out, inp in (("gate_proj", I, H), ("up_proj", I, H), ("down_proj", H, I)):
            shapes[f"{p}mlp.{proj}.weight"] = (out, inp)
            if cfg.mlp_bias:
                shapes[f"{p}mlp.{proj}.bias"] = (out,)
    return shapes


@dataclass(frozen=True)
class Misfit:
    name: str
    stored: tuple[int, ...] | None  # None: the config implies a tensor the weights lack
    implied: tuple[int, ...] | None  # None: the weights hold a tensor the config leaves out

    def line(self) -> str:
        if self.stored is None:
            return f"the config implies {self.name} {list(self.implied or ())}, the weights have none"
        if self.implied is None:
            return f"the weights hold {self.name} {list(self.stored)}, which the config leaves out"
        return f"{self.name} is {list(self.stored)}, the config implies {list(self.implied)}"


def _misfits(cfg: DraftConfig, stored: Mapping[str, list[int] | None], group: str) -> list[Misfit]:
    """Tensors of `group` ("self_attn" | "mlp") whose shape the config gets wrong. A weight
    absent from the file is not the config's fault (the drafter's loading says so); a bias
    or Qwen3 q/k norm the config implies and the file lacks, or holds and the config leaves
    out (the engines skip it: another network), is."""
    layers = _layers_held(stored)
    implied = {n: s for n, s in expected_shapes(cfg, layers).items() if f".{group}." in n}
    found = {n: tuple(s) for n, s in stored.items() if f".{group}." in n and s is not None}
    out = [Misfit(n, found[n], s) for n, s in implied.items() if n in found and found[n] != s]
    out += [Misfit(n, None, s) for n, s in implied.items()
            if n not in found and (n.endswith(".bias") or "_norm." in n)]
    out += [Misfit(n, s, None) for n, s in found.items()
            if n not in implied and (n.endswith(".bias") or "_norm." in n)]
    return sorted(out, key=lambda m: m.name)


def _layers_held(stored: Mapping[str, list[int] | None]) -> list[int]:
    """The decoder layer indices the weights hold (names are normalised `layers.N.…`)."""
    return sorted({int(name.split(".")[1]) for name in stored})


def _decoder(raw: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The decoder keys' object and how a person names a key in it."""
    if isinstance(raw.get("transformer_layer_config"), Mapping):
        return dict(raw["transformer_layer_config"]), "transformer_layer_config."
    return dict(raw), ""


def _with(raw: Mapping[str, Any], key: str, value: Any) -> DraftConfig | None:
    decoder, prefix = _decoder(raw)
    decoder[key] = value
    edited = {**raw, "transformer_layer_config": decoder} if prefix else decoder
    try:
        return parse_draft_config(edited)
    except CheckpointError:
        return None


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0] if 0 < n <= 1 << 20 else []


def _candidates(key: str, cfg: DraftConfig, stored: Mapping[str, list[int] | None]) -> list[Any]:
    """Values of `key` the weights could have been saved with (checked by rebuilding the
    config, so GQA, an absent head_dim's hidden_size / heads and Qwen3's defaults are the
    config reader's own)."""
    def rows(proj: str) -> int:
        shape = stored.get(f"layers.0.self_attn.{proj}.weight") or [0]
        return shape[0]
    if key in ("attention_bias", "mlp_bias"):
        return [not getattr(cfg, key)]
    if key == "model_type":  # Qwen3's q_norm / k_norm are the only shapes it changes
        return [t for t in SUPPORTED_DECODERS if t != cfg.model_type]
    if key == "intermediate_size":
        shape = stored.get("layers.0.mlp.gate_proj.weight") or stored.get("layers.0.mlp.up_proj.weight")
        return [shape[0]] if shape else []
    if key == "num_key_value_heads":
        return _divisors(rows("k_proj") or rows("v_proj"))
    return _divisors(rows("q_proj"))


def _value(decoder: Mapping[str, Any], key: str, cfg: DraftConfig) -> str:
    """The config's value as a person reads it, or what was assumed for an absent key."""
    if key in decoder and decoder[key] is not None:
        return _shown(decoder[key])
    assumed = {"num_key_value_heads": cfg.num_kv_heads, "head_dim": cfg.head_dim,
               "num_hidden_layers": cfg.num_layers, "model_type": cfg.model_type,
               "attention_bias": "false", "mlp_bias": "false"}.get(key)
    return f"absent ({assumed} assumed)"


def _layer_count(cfg: DraftConfig, decoder: Mapping[str, Any], prefix: str,
                 stored: Mapping[str, list[int] | None]) -> tuple[str, dict[str, Any]] | None:
    """The config's num_hidden_layers against the decoder layers the weights hold: vLLM builds
    that many layers (a missing one fails the load; an extra stored one is skipped, so a
    trained layer is not served)."""
    held = _layers_held(stored)
    if not held or held == list(range(cfg.num_layers)):
        return None
    key = f"{prefix}num_hidden_layers"
    said = _value(decoder, "num_hidden_layers", cfg)
    contiguous = held == list(range(len(held)))
    fix = (f"set {key} to {len(held)}" if contiguous else
           "the weights skip layers, so no num_hidden_layers describes them: re-export the draft")
    line = (f"{key} is {said}, the weights hold {len(held)} decoder layer"
            f"{'s' if len(held) != 1 else ''} ({', '.join(f'layers.{i}' for i in held)}): {fix}")
    return line, {"key": key, "config": decoder.get("num_hidden_layers"),
                  "weights": len(held) if contiguous else held}


def weights_problems(raw: Mapping[str, Any], stored: Mapping[str, list[int] | None] | None,
                     norms: Mapping[str, list[int] | None] | None = None
                     ) -> tuple[list[str], list[dict[str, Any]]]:
    """(evidence lines, [{key, config, weights}]) for every shape key (and flag-built norm,
    from `norms`: flag_norms) of the draft config that its weights contradict; empty when they
    agree or cannot be compared (no tensors listed, a config the EAGLE-3 reader refuses: the
    configs step says that separately)."""
    if (not stored and norms is None) or not isinstance(raw, Mapping):
        return [], []
    try:
        cfg = parse_draft_config(raw)
    except CheckpointError:
        return [], []
    lines: list[str] = []
    keys: list[dict[str, Any]] = []
    if norms is not None:
        lines, keys = _norm_flag_problems(raw, cfg, norms)
    if not stored:
        return lines, keys
    decoder, prefix = _decoder(raw)
    count = _layer_count(cfg, decoder, prefix, stored)
    if count is not None:
        lines.append(count[0])
        keys.append(count[1])
    for group, group_keys in _GROUPS.items():
        misfits = _misfits(cfg, stored, group)
        if not misfits:
            continue
        fixes = []
        for key in group_keys:
            for value in _candidates(key, cfg, stored):
                fixed = _with(raw, key, value)
                if fixed is not None and not _misfits(fixed, stored, group):
                    fixes.append((key, value))
        shown = "; ".join(m.line() for m in misfits[:3]) + (
            f" (and {len(misfits) - 3} more)" if len(misfits) > 3 else "")
        for key, value in fixes:
            keys.append({"key": f"{prefix}{key}", "config": decoder.get(key), "weights": value})
        if len(fixes) == 1:
            [(key, value)] = fixes
            lines.append(f"{prefix}{key} is {_value(decoder, key, cfg)}, the weights imply "
                         f"{_shown(value)} ({shown}): set it to {_shown(value)}")
        elif fixes:
            # q rows are heads x head_dim: the shapes alone may not tell which key was edited
            said = " or ".join(f"{prefix}{key} = {_shown(value)}" for key, value in fixes)
            lines.append(f"{shown}: the weights fit {said} (the shapes alone cannot tell "
                         "which; the config saved with these weights can)")
        else:
            named = ", ".join(f"{prefix}{k} = {_value(decoder, k, cfg)}" for k in group_keys)
            lines.append(f"{shown}: no single change of {named} fits these weights")
            keys.append({"key": f"{prefix}{group}", "config": None, "weights": None})
    return lines, keys


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def check_draft_weights(raw: Mapping[str, Any] | None, stored: Mapping[str, list[int] | None] | None,
                        at: Where = Where(), norms: Mapping[str, list[int] | None] | None = None
                        ) -> list[Finding]:
    """SD704, one per draft, naming each key, its value and the value the weights imply."""
    lines, keys = weights_problems(raw or {}, stored, norms)
    if not lines:
        return []
    return [at.finding("SD704", lines, {"mismatched_keys": keys})]
