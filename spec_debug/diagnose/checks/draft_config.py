"""SD701-SD703, SD706-SD708 (and SD704 for a missing speculators_config or a decoder type
speculators does not build): draft config fields the serving engine or the target disagree with."""

from __future__ import annotations

import json
import math
from typing import Any, Mapping

from spec_debug.diagnose.catalog import CATALOG
from spec_debug.diagnose.checks.common import Where
from spec_debug.eagle3 import engines
from spec_debug.eagle3.checkpoint import retyped_llama_decoder
# _rope_from: the drafter's own reading of RoPE keys
from spec_debug.eagle3.config import SUPPORTED_DECODERS, CheckpointError, _rope_from
from spec_debug.record import Finding


def check_norm_flags(engine: str, engine_version: str | None, draft_raw: Mapping[str, Any],
                     at: Where = Where()) -> list[Finding]:
    """SD701: a norm flag the checkpoint relies on that this engine version does not run; and,
    as info, a misspelled flag (engines.misspelled_norm_flags) whose value the engine's
    default happens to match."""
    if draft_raw.get("speculators_model_type") not in (None, "eagle3", "peagle"):
        # another kind speculators saves (mtp, dflash, dflash2, dspark, xpress: models/*/
        # config.py): the EAGLE-3 norm flags are not its, and the engines do not build it
        # with llama_eagle3 (vLLM's update_eagle3, whose copy of norm_before_residual this
        # weighs, reads eagle3 configs alone). An MTP draft got SD701 "vllm runs True" at
        # error beside SD004, which says what the draft is and how it is served.
        return []
    ignored = engines.ignored_norm_flags(engine, engine_version, draft_raw)
    misspelled = engines.misspelled_norm_flags(draft_raw)
    spelling = [f"config.json writes {key} = {json.dumps(value)}, a misspelling of {flag}: speculators "
                f"and {engine} look the flag up by its exact name and ignore this key"
                for flag, (key, value) in misspelled.items()]
    rename = (f"Rename {', '.join(f'{key} to {flag}' for flag, (key, _) in misspelled.items())} "
              "in the draft's config.json.")
    if not ignored:
        if not misspelled:
            return []
        served = engines.effective_norm_flags(engine, engine_version, draft_raw)
        return [at.finding("SD701", spelling + [
            f"{engine} {engine_version or 'latest'} runs {flag} = {served[flag]}, what the misspelled "
            "key says" + (", but speculators reads the flag as false: training resumed from this "
                          "config would change the draft" if served[flag] else "")
            for flag in misspelled],
            {"misspelled_flags": {flag: key for flag, (key, _) in misspelled.items()}},
            severity="info", remediation=rename)]
    meant = engines.reference_norm_flags(draft_raw)
    served = engines.effective_norm_flags(engine, engine_version, draft_raw)
    fmt = "speculators" if engines.is_speculators_format(draft_raw) else "eagle"
    row = engines.convention_row(engine, f"honoured_flags_{fmt}", engine_version)
    # a string flag the engine honours reads as true there; one it ignores is just ignored
    strings = {flag: value for flag, value in engines.string_norm_flags(draft_raw).items()
               if served[flag] and not meant[flag]}
    evidence = [f"{flag}: checkpoint means {meant[flag]}, {engine} {engine_version or 'latest'} runs {served[flag]}"
                + (f" (config.json writes {json.dumps(strings[flag])}, a string: speculators reads it as a "
                   f"boolean, {engine} as a non-empty, so true, value)" if flag in strings else "")
                for flag in ignored]
    evidence += [line for flag, line in zip(misspelled, spelling) if flag in ignored]
    evidence.append(f"source: {row.source}" + (" (version boundary estimated)" if row.version_estimated else ""))
    facts = {"ignored_flags": ignored, "checkpoint": meant, "engine": served}
    if any(flag in misspelled for flag in ignored):
        # renamed, the flag may still be one this engine version never reads (SGLang and
        # norm_before_residual): then the catalog's fix is needed too
        renamed = {k: v for k, v in draft_raw.items() if k not in {key for key, _ in misspelled.values()}}
        renamed.update({flag: value for flag, (key, value) in misspelled.items() if "." not in key})
        still = engines.ignored_norm_flags(engine, engine_version, renamed)
        return [at.finding("SD701", evidence, facts,
                           remediation=rename + (f" {CATALOG['SD701'].fix}" if still else ""))]
    if all(flag in strings for flag in ignored):
        return [at.finding("SD701", evidence, facts, remediation=(
            f"Write {', '.join(ignored)} as a JSON boolean (true/false, no quotes) in the draft's config.json."))]
    return [at.finding("SD701", evidence, facts)]


def check_context_length(draft_max_positions: int | None, context_length: int | None, *,
                         context_source: str = "", at: Where = Where()) -> list[Finding]:
    """SD702: the server may run the draft past the positions it was built for."""
    if not draft_max_positions or not context_length or draft_max_positions >= context_length:
        return []
    evidence = [f"draft max_position_embeddings = {draft_max_positions}",
                f"serving context length = {context_length}{f' ({context_source})' if context_source else ''}"]
    return [at.finding("SD702", evidence, {"draft_max_position_embeddings": draft_max_positions,
                                           "context_length": context_length})]


def _layer_key(cfg: Mapping[str, Any]) -> str | None:
    """Where a config keeps its layers' settings: a speculators draft's transformer_layer_config,
    a multimodal target's text_config; None: the config itself."""
    return next((k for k in ("transformer_layer_config", "text_config") if cfg.get(k)), None)


def _layer_config(cfg: Mapping[str, Any]) -> Any:
    key = _layer_key(cfg)
    return cfg[key] if key else cfg


def rope_signature(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """(type, theta, factor) of a draft or target config, whichever HF spelling it uses
    (transformers >= 5 `rope_parameters`, older `rope_theta` + `rope_scaling`); read the way
    spec_debug.eagle3 builds the draft's rotary embedding."""
    key = _layer_key(cfg)
    text = cfg[key] if key else cfg
    if not isinstance(text, Mapping):
        # a hand-edited config: one line in the report (configs_step), not a traceback
        raise CheckpointError(f"config.json: {key!r} is {type(text).__name__} {text!r:.40}, expected a JSON object")
    rope = _rope_from(text)
    factor = rope.params.get("factor")
    try:
        factor = float(factor) if factor is not None else None
    except (TypeError, ValueError):
        raise CheckpointError(f"config.json: rope factor is {factor!r:.40}, expected a number") from None
    return {"type": rope.rope_type, "theta": rope.theta, "factor": factor}


# The keys besides factor that shape each scaled RoPE's frequencies, with the value
# transformers takes when one is absent (transformers modeling_rope_utils.py
# `_compute_llama3_parameters`, `_compute_yarn_parameters`, `_compute_longrope_parameters`;
# original_max_position_embeddings is filled in by config.rope_from_decoder as transformers'
# standardize_rope_params does). A draft whose llama3 scaling copies the factor but keeps
# another original_max_position_embeddings (a Llama 3.1 draft at 2048 for a target at 8192)
# rotates every position but the first differently from the states the target captured.
_SHAPING = {
    "llama3": {"low_freq_factor": None, "high_freq_factor": None,
               "original_max_position_embeddings": None},
    # yarn's attention_factor, mscale and mscale_all_dim are compared as the one factor they
    # give (_yarn_attention_factor), and beta_fast/beta_slow as read (`or 32`, `or 1`)
    "yarn": {"original_max_position_embeddings": None, "beta_fast": 32.0, "beta_slow": 1.0,
             "truncate": True},
    # longrope's factor and attention_factor are compared as the one attention factor they
    # give (_longrope_attention_factor): the frequencies come from short/long_factor alone
    "longrope": {"original_max_position_embeddings": None, "short_factor": None,
                 "long_factor": None},
}


def _scaling_diffs(draft_raw: Mapping[str, Any], target_raw: Mapping[str, Any],
                   rope_type: str) -> list[str]:
    """Evidence lines for the shaping keys of one rope type that draft and target set apart."""
    defaults = _SHAPING.get(rope_type)
    if not defaults:
        return []
    draft, target = _rope_params(draft_raw), _rope_params(target_raw)
    lines = []
    for key, default in defaults.items():
        ours, theirs = _shaping_value(draft, key, default), _shaping_value(target, key, default)
        if _as_number(ours) != _as_number(theirs):
            lines.append(f"{rope_type} {key}: draft {ours}, target {theirs}")
    if rope_type == "yarn":
        ours, theirs = _yarn_attention_factor(draft), _yarn_attention_factor(target)
        if ours is not None and theirs is not None and abs(ours - theirs) > 1e-6:
            lines.append(f"yarn attention factor (attention_factor, or from factor, mscale and "
                         f"mscale_all_dim): draft {ours:.6g}, target {theirs:.6g}")
    if rope_type == "longrope":
        ours = _longrope_attention_factor(draft, _max_positions(draft_raw))
        theirs = _longrope_attention_factor(target, _max_positions(target_raw))
        if ours is not None and theirs is not None and abs(ours - theirs) > 1e-6:
            lines.append(f"longrope attention factor (attention_factor, or from factor or "
                         f"max_position_embeddings / original_max_position_embeddings): draft "
                         f"{ours:.6g}, target {theirs:.6g}")
    return lines


def _max_positions(cfg: Mapping[str, Any]) -> Any:
    return _layer_config(cfg).get("max_position_embeddings")


def _longrope_attention_factor(params: Mapping[str, Any], max_positions: Any) -> float | None:
    """The factor longrope scales cos/sin by, as transformers _compute_longrope_parameters
    (modeling_rope_utils.py, 5.19) settles it: attention_factor when set, else from factor,
    or max_position_embeddings / original_max_position_embeddings when factor is absent (as
    Phi-3's configs leave it): 1 at or below 1, else sqrt(1 + ln(factor) / ln(original)).
    A draft writing the computed value builds the target's scaling; one at another
    max_position_embeddings does not. None when a value is missing or not a number."""
    try:
        if params.get("attention_factor") is not None:
            return float(params["attention_factor"])
        original = float(params["original_max_position_embeddings"])
        factor = params.get("factor")
        factor = float(factor) if factor is not None else float(max_positions) / original
        return 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))
    except (TypeError, ValueError, KeyError, ZeroDivisionError):
        return None


def _shaping_value(params: Mapping[str, Any], key: str, default: Any) -> Any:
    """A key as transformers reads it: yarn's beta_fast/beta_slow are `get(key) or default`,
    so a null (a converter writing every field) is the default too."""
    value = params.get(key, default)
    return default if value is None and key in ("beta_fast", "beta_slow") else value


def _yarn_attention_factor(params: Mapping[str, Any]) -> float | None:
    """The factor yarn scales cos/sin by, as transformers _compute_yarn_parameters settles it:
    attention_factor when set, else 0.1*mscale*ln(factor)+1 over the same with mscale_all_dim
    when both are set, else 0.1*ln(factor)+1. A draft writing the value transformers computes
    (or an mscale without mscale_all_dim, which it ignores) builds the target's rotation; None
    when a value is not a number (the type/factor lines say so)."""
    def mscale(factor: float, scale: float = 1.0) -> float:
        return 1.0 if factor <= 1 else 0.1 * scale * math.log(factor) + 1.0

    try:
        if params.get("attention_factor") is not None:
            return float(params["attention_factor"])
        factor = float(params.get("factor") or 1.0)
        high, low = params.get("mscale"), params.get("mscale_all_dim")
        if high and low:
            return mscale(factor, float(high)) / mscale(factor, float(low))
        return mscale(factor)
    except (TypeError, ValueError):
        return None


def _rope_params(cfg: Mapping[str, Any]) -> dict[str, Any]:
    return dict(_rope_from(_layer_config(cfg)).params)


def _as_number(value: Any) -> Any:
    """1 and 1.0, "8192" and 8192 are the same setting; lists (longrope) compare whole."""
    if isinstance(value, bool) or value is None or isinstance(value, (list, dict)):
        return value
    try:
        return float(value)
    except (TypeError, ValueError):
        return value


def check_rope(draft_raw: Mapping[str, Any], target_raw: Mapping[str, Any],
               at: Where = Where()) -> list[Finding]:
    """SD703: draft RoPE theta or scaling differs from the target's."""
    draft, target = rope_signature(draft_raw), rope_signature(target_raw)
    # a longrope factor only sets the attention factor (compared in _scaling_diffs), which
    # transformers computes from the positions when it is absent
    keys = ("type", "theta") if draft["type"] == target["type"] == "longrope" else (
        "type", "theta", "factor")
    diffs = [f"{key}: draft {draft[key]}, target {target[key]}"
             for key in keys if draft[key] != target[key]]
    if draft["type"] == target["type"]:
        diffs += _scaling_diffs(draft_raw, target_raw, draft["type"])
    if not diffs:
        return []
    return [at.finding("SD703", diffs, {"draft": draft, "target": target})]


def check_hidden_act(draft_raw: Mapping[str, Any] | None, at: Where = Where()) -> list[Finding]:
    """SD706: the draft decoder's hidden_act is not silu. vLLM's and SGLang's EAGLE-3 drafts
    are built from their Llama decoder layer, whose LlamaMLP raises "Unsupported activation:
    {hidden_act}. Only silu is supported for now." for any other value (vllm
    model_executor/models/llama.py, sglang srt/models/llama.py LlamaMLP), while speculators
    and SpecForge train it with transformers' ACT2FN[hidden_act]. Absent: LlamaConfig's
    default, silu."""
    if not isinstance(draft_raw, Mapping):
        return []
    layer = draft_raw.get("transformer_layer_config")
    decoder, key = ((layer, "transformer_layer_config.hidden_act") if isinstance(layer, Mapping)
                    else (draft_raw, "hidden_act"))
    act = decoder.get("hidden_act")
    if act is None or act == "silu":
        return []
    evidence = [f"{key} is {act!r}: vLLM's and SGLang's LlamaMLP build only silu and refuse to "
                "load the draft (\"Unsupported activation\")"]
    return [at.finding("SD706", evidence, {"hidden_act": act, "key": key})]


def check_speculators_section(draft_raw: Mapping[str, Any] | None, engine: str | None = None,
                              at: Where = Where()) -> list[Finding]:
    """SD704: a speculators config (speculators_model_type, transformer_layer_config) with no
    `speculators_config`, as a hand edit that took out the training host's verifier path, or
    an older export, leaves it. speculators writes no top-level model_type; vLLM reads a
    config.json as speculators' only when model_type is absent and speculators_config is not
    None (vllm/transformers_utils/config.py HFConfigParser.parse), and otherwise hands it to
    transformers' AutoConfig, which stops with "Unrecognized model in <dir>. Should have a
    `model_type` key in its config.json" (recorded with transformers 5.19). speculators 0.9.0's
    from_pretrained stops in load_verifier_weights (models/eagle3/core.py:
    `self.config.speculators_config.verifier` on None, AttributeError). Not said for SGLang,
    whose reading of a speculators config was not checked."""
    if (not isinstance(draft_raw, Mapping) or engine == "sglang"
            or draft_raw.get("speculators_model_type") is None
            or not isinstance(draft_raw.get("transformer_layer_config"), Mapping)
            or draft_raw.get("model_type") is not None
            or draft_raw.get("speculators_config") is not None):
        return []
    said = "is null" if "speculators_config" in draft_raw else "is not there"
    evidence = [f"the draft's config.json is a speculators config (speculators_model_type "
                f"{draft_raw['speculators_model_type']!r}, transformer_layer_config) whose "
                f"speculators_config {said}: vLLM reads a config as speculators' only by that "
                "key and hands this one to transformers, which stops with \"Unrecognized model "
                "in <draft dir>. Should have a `model_type` key in its config.json\"; "
                "speculators' from_pretrained stops too (no speculators_config.verifier)"]
    remediation = ("Put back the draft's speculators_config (the config.json saved with these "
                   "weights has it: {\"algorithm\": \"eagle3\", \"proposal_methods\": "
                   "[{\"proposal_type\": \"greedy\", \"speculative_tokens\": 3, ...}], "
                   "\"default_proposal_method\": \"greedy\", \"verifier\": {\"name_or_path\": "
                   "<target>, \"architectures\": [...]}}), restart the server, and check the "
                   "acceptance rate again.")
    return [at.finding("SD704", evidence, {"key": "speculators_config", "speculators_config": None},
                       title="The draft config has no speculators_config: vLLM does not load it",
                       remediation=remediation)]


def check_decoder_model_type(draft_raw: Mapping[str, Any] | None,
                             layer_shapes: Mapping[str, Any] | None, at: Where = Where()) -> list[Finding]:
    """SD704 (a warning): a speculators config whose transformer_layer_config.model_type names
    a decoder speculators builds no EAGLE-3 layer for ("mistral", "qwen2": the target's type
    copied in by hand) over weights that hold a Llama layer (no q/k/v/o or MLP bias, no
    q_norm/k_norm). speculators 0.9.0 builds llama and qwen3 draft layers only
    (models/eagle3/model_definitions.py) and stops loading it with KeyError on the type
    (recorded); spec-debug's drafter refuses it (eagle3.config SUPPORTED_DECODERS), so the
    steps that load the draft could not run. vLLM builds Eagle3LlamaForCausalLM whatever the
    key says (transformers_utils/configs/speculators/algos.py update_eagle3 sets the
    architecture), so it serves these weights as they are: a warning, with the value they
    fit. Weights that are not a Llama layer's are left to the config reader's SD004."""
    model_type = retyped_llama_decoder(draft_raw, layer_shapes or ())
    if model_type is None:
        return []
    evidence = [f"transformer_layer_config.model_type is {model_type!r}, a decoder speculators "
                f"builds no EAGLE-3 layer for (only {', '.join(SUPPORTED_DECODERS)}: loading the draft "
                f"stops with KeyError {model_type!r}, and the drafter steps cannot load it either); "
                "vLLM builds its Llama EAGLE-3 layer whatever the key says, and the weights hold a "
                "Llama layer (no projection bias, no q_norm/k_norm): set it to llama"]
    return [at.finding("SD704", evidence, {"key": "transformer_layer_config.model_type",
                                           "config": model_type, "weights": "llama"},
                       severity="warning",
                       title="The draft config names a decoder type speculators does not build",
                       remediation=("Set transformer_layer_config.model_type to \"llama\" in the "
                                    "draft's config.json (the layer these weights hold, and the one "
                                    "vLLM builds), then run the drafter steps again."))]


_AUX_KEY = "eagle_aux_hidden_state_layer_ids"


def _written_layer_ids(draft_raw: Mapping[str, Any]) -> tuple[str, Any] | None:
    """(key as written, value) of the draft's aux layer ids: top level (speculators, what
    vLLM reads) or SpecForge's nested eagle_config."""
    nested = draft_raw.get("eagle_config")
    for key, value in ((_AUX_KEY, draft_raw.get(_AUX_KEY)),
                       (f"eagle_config.{_AUX_KEY}",
                        nested.get(_AUX_KEY) if isinstance(nested, Mapping) else None)):
        if value:
            return key, value
    return None


def check_layer_id_types(draft_raw: Mapping[str, Any] | None, at: Where = Where()) -> list[Finding]:
    """SD707: the draft's aux layer ids are written as strings ("2", as a config generated by
    a template or a shell script leaves them). SGLang's set_eagle3_layers_to_capture computes
    `[val + 1 for val in layer_ids]` (sglang srt/models/llama.py): a TypeError at startup;
    vLLM passes them on as tuple(layer_ids) (v1/worker/gpu/spec_decode/eagle/eagle3_utils.py
    get_eagle3_aux_layers_from_config) and captures a layer when its int index is `in` them:
    never, so the draft gets no aux hidden states. The drafter's own reader refuses them too
    (eagle3.config._layer_ids), which alone said only SD004, with no fix."""
    if not isinstance(draft_raw, Mapping):
        return []
    written = _written_layer_ids(draft_raw)
    if written is None:
        return []
    key, ids = written
    if isinstance(ids, str):
        return _layer_ids_in_one_string(key, ids, at)
    if not isinstance(ids, (list, tuple)) or not any(isinstance(i, str) for i in ids):
        return []
    as_ints = [int(i) if isinstance(i, str) and i.strip().isdigit() else i for i in ids]
    evidence = [f"{key} is {json.dumps(list(ids))}, strings: SGLang adds 1 to each and does not "
                "start (TypeError), vLLM compares each target layer's index with them and "
                "captures none, so the draft gets no aux hidden states"]
    fix = (f"Write the ids as JSON integers in the draft's config.json: \"{key.rsplit('.', 1)[-1]}\": "
           f"{json.dumps(as_ints)}" + (" (under eagle_config)" if key.startswith("eagle_config.") else "")
           + ", then restart the server.")
    return [at.finding("SD707", evidence, {"key": key, "layer_ids": list(ids)}, remediation=fix)]


def _layer_ids_in_one_string(key: str, written: str, at: Where) -> list[Finding]:
    """SD707 for ids written as one string ("2,4,5", a shell variable pasted in): speculators'
    Eagle3SpeculatorConfig refuses it (pydantic `list[int] | None`: "Input should be a valid
    list"; it does coerce ["2", "4"] element by element, not a comma-joined string), SGLang's
    `[val + 1 for val in layer_ids]` walks its characters (TypeError), vLLM's tuple(layer_ids)
    is its characters, none an int layer index. Said before as SD004 "could not be read", whose
    fix was to pass a --var."""
    parts = [p.strip() for p in written.strip().strip("[]()").replace(";", ",").split(",")]
    as_ints = [int(p) for p in parts if p.isdigit()] if all(p.isdigit() for p in parts) else None
    name = key.rsplit(".", 1)[-1]
    evidence = [f"{key} is the string {json.dumps(written)}, not a JSON list: speculators refuses "
                "the config (\"Input should be a valid list\"), SGLang adds 1 to each character "
                "and does not start (TypeError), vLLM reads its characters as the layer ids and "
                "captures no target layer"]
    fix = ((f"Write the ids as a JSON list of integers in the draft's config.json: \"{name}\": "
            f"{json.dumps(as_ints)}" if as_ints else
            f"Write {name} as a JSON list of integers (such as [2, 16, 29]) in the draft's "
            "config.json")
           + (" (under eagle_config)" if key.startswith("eagle_config.") else "")
           + ", then restart the server.")
    return [at.finding("SD707", evidence, {"key": key, "layer_ids": written}, remediation=fix)]


# The first release of each engine whose llama_eagle3.py builds more than one decoder layer.
_MULTI_LAYER_SINCE = {"sglang": engines.SGLANG_MULTI_LAYER_DRAFT, "vllm": engines.VLLM_MULTI_LAYER_DRAFT}
# What the older release does with such a draft at startup.
_ONE_LAYER_FAILURE = {
    "sglang": "LlamaForCausalLMEagle3 raises \"EAGLE3 currently only supports 1 layer\"",
    "vllm": "no parameter is there for layers.1.*: a KeyError while loading the weights",
}


def _decoder_layer_count(draft_raw: Mapping[str, Any]) -> tuple[str, Any]:
    """(key as written, value) of the draft decoder's layer count: speculators'
    transformer_layer_config, else the top-level key (EAGLE/SpecForge configs)."""
    layer = draft_raw.get("transformer_layer_config")
    if isinstance(layer, Mapping):
        return "transformer_layer_config.num_hidden_layers", layer.get("num_hidden_layers")
    return "num_hidden_layers", draft_raw.get("num_hidden_layers")


def check_multi_layer_served(engine: str | None, engine_version: str | None,
                             draft_raw: Mapping[str, Any] | None, at: Where = Where()) -> list[Finding]:
    """SD708: a draft of more than one decoder layer (speculators trains them:
    Eagle3DraftModel builds `range(num_hidden_layers)` layers) served by an engine release
    whose llama_eagle3.py builds one: SGLang before 0.5.12 refuses it at startup, vLLM before
    0.11.1 fails loading layers.1.*. Only the drafts the engine runs with llama_eagle3.py; a
    version the table cannot place counts as the newest, as everywhere."""
    if engine not in _MULTI_LAYER_SINCE or not isinstance(draft_raw, Mapping):
        return []
    key, count = _decoder_layer_count(draft_raw)
    if not isinstance(count, int) or isinstance(count, bool) or count <= 1:
        return []
    since = _MULTI_LAYER_SINCE[engine]
    if not engines.builds_one_draft_layer(engine, engine_version) or \
            engines.drafter_module(engine, draft_raw, engine_version) != "llama_eagle3":
        return []
    evidence = [f"{key} is {count}: {engine} {engine_version} builds one EAGLE-3 decoder layer and "
                f"does not start with this draft ({_ONE_LAYER_FAILURE[engine]}); {engine} {since} "
                "is the first release that builds more"]
    fix = (f"Serve the draft with {engine} >= {since} (SGLang >= {engines.SGLANG_MULTI_LAYER_DRAFT}, "
           f"vLLM >= {engines.VLLM_MULTI_LAYER_DRAFT} build every layer), or train a one-layer draft; "
           "setting num_hidden_layers to 1 drops the trained layers after the first.")
    return [at.finding("SD708", evidence, {"key": key, "num_hidden_layers": count, "engine": engine,
                                           "engine_version": engine_version, "first_release": since},
                       remediation=fix)]
