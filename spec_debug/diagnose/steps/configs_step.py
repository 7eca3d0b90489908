"""Draft and target config checks: aux layers (SD201-SD204), norm flags (SD701), context
(SD702), RoPE (SD703), the draft config against its weights' shapes (SD704) and tensor names
the engines cannot load (SD705), the vocabulary tensors' shapes (SD301-SD303), from the two
config.json files, the draft's tensor headers and the engine's conventions."""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.checks.draft_config import (check_context_length, check_decoder_model_type,
                                                      check_hidden_act, check_layer_id_types,
                                                      check_multi_layer_served, check_norm_flags, check_rope,
                                                      check_speculators_section)
from spec_debug.diagnose.checks.draft_weights import (check_draft_weights, check_sglang_layer_names,
                                                      check_wrapper_prefix, decoder_layer_names, flag_norms,
                                                      layer_shapes, unwrapped, wrapper_prefix)
from spec_debug.diagnose.checks.vocab_maps import check_vocab_report, vocab_shape_report
from spec_debug.diagnose.checks.layers import (analyse_layers, check_aux_layers, check_config_width,
                                               config_width_problem)
from spec_debug.diagnose.parallel_draft import as_eagle3_config
from spec_debug.eagle3.engines import target_architecture
from spec_debug.diagnose.steps.common import (denied_weight_files_finding, launch_quantization,
                                              missing_shards_finding, no_engine_weights_finding, not_checked, record,
                                              served_target, target_mtp_line, unreadable_weight_files_finding,
                                              where)
from spec_debug.eagle3.checkpoint import normalise_draft_name
from spec_debug.eagle3.config import CheckpointError, parse_draft_config, text_config, use_aux_hidden_state
from spec_debug.eagle3.vocab import configured_draft_vocab
from spec_debug.probes.hostfiles import TENSOR_SHAPES_LIMIT
from spec_debug.probes.playbook_words import said_in_playbook_words
from spec_debug.record import Finding

NS = "configs"


def _text(cfg: dict[str, Any] | None) -> dict[str, Any]:
    """The target's language-model config as the drafter reads it (text_config keys that
    transformers < 5 left out as defaults are filled in where transformers is importable)."""
    try:
        return dict(text_config(cfg or {}, "target config.json"))
    except CheckpointError:  # text_config not an object: read the top level
        return dict(cfg or {})


def _stated_target_width(draft_raw: Any) -> int | None:
    """The draft config's target_hidden_size when it states one (null or absent: the draft's
    own hidden_size, which the fc width check covers)."""
    value = draft_raw.get("target_hidden_size") if isinstance(draft_raw, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _size_problem(text: dict[str, Any]) -> str:
    """Why the target's layer count or width cannot be used. A num_hidden_layers of 0 (or a
    negative or boolean one) passed as a size: the serve plan of a 0-layer target captures
    nothing, and the step raised SD201 "served []" against the trained ids, sending the user
    after layer ids when the target's config.json is what is wrong (the hidden_layout step
    says the same count is unknown: probes/hidden_layout.py _num_layers)."""
    stated = [f"{key} {text[key]!r}" for key in ("num_hidden_layers", "hidden_size")
              if key in text and text[key] is not None and not _positive_int(text[key])]
    if stated:
        return (f"the target config.json's language model states {' and '.join(stated)} "
                "(expected a positive integer)")
    return "the target config.json names no num_hidden_layers / hidden_size"


def _text_problem(cfg: dict[str, Any] | None) -> str | None:
    """Why the language model's config could not be read (a text_config, or Qwen3-Omni's
    thinker_config.text_config, that is not an object): _text then falls back to the top
    level, where a multimodal target names no layer count, and the note should say why."""
    try:
        text_config(cfg or {}, "target config.json")
    except CheckpointError as exc:
        return exc.message
    return None


def weights_width(tensors: dict[str, Any] | None) -> int | None:
    """The width the draft's weights were saved at: its final norm's length (speculators
    `norm.weight`, or `model.norm.weight` as some exports prefix it)."""
    for name in ("norm.weight", "model.norm.weight"):
        entry = (tensors or {}).get(name)
        if entry and entry[0] and len(entry[0]) == 1 and isinstance(entry[0][0], int):
            return int(entry[0][0])
    return None


def fc_in_features(tensors: dict[str, Any] | None) -> int | None:
    for name in ("fc.weight", "model.fc.weight"):
        entry = (tensors or {}).get(name)
        if entry and entry[0] and len(entry[0]) == 2:
            return int(entry[0][1])
    return None


def with_quantization(model: dict[str, Any]) -> dict[str, Any] | None:
    """A model's config.json as the engine reads it: with the quantization an older ModelOpt
    export keeps in hf_quant_config.json beside it (vLLM get_config takes it from there when
    config.json has none), and an older compressed-tensors `compression_config` under its
    current name (vLLM ModelConfig._parse_quant_hf_config reads either)."""
    config = model.get("config")
    if not isinstance(config, dict) or "quantization_config" in config:
        return config
    if isinstance(model.get("hf_quant_config"), dict):
        return {**config, "quantization_config": model["hf_quant_config"]}
    if isinstance(config.get("compression_config"), dict):
        return {**config, "quantization_config": config["compression_config"]}
    return config


def _unbacked_flags_off(draft_raw: dict[str, Any], weights: list[Finding]) -> dict[str, Any]:
    """The draft config as its weights mean it, for SD701: a norm flag set over weights
    without its norm (SD704 says to unset it) is off. SD701 said the checkpoint meant the
    flag and sent the user to an engine version that runs a norm these weights do not hold."""
    unbacked = [k["key"] for f in weights for k in f.facts.get("mismatched_keys", [])
                if k.get("weights") is False
                and str(k.get("key")).split(".")[-1] in ("norm_before_fc", "fc_norm")]
    if not unbacked:
        return draft_raw
    raw = dict(draft_raw)
    for key in unbacked:
        if key.startswith("eagle_config.") and isinstance(raw.get("eagle_config"), dict):
            raw["eagle_config"] = {**raw["eagle_config"], key.split(".", 1)[1]: False}
        else:
            raw[key] = False
    return raw


def _reasons(raw: Any) -> dict[str, str] | None:
    if not isinstance(raw, dict):
        return None
    return {str(name): str(why) for name, why in raw.items() if isinstance(why, str)} or None


def _vocab_tensors(tensors: dict[str, Any] | None) -> dict[str, Any] | None:
    """The draft's d2t, t2d, embed_tokens and lm_head entries of the listing, under the
    drafter's names (EAGLE/SpecForge's `model.` prefix dropped)."""
    if not tensors:
        return None
    return {normalise_draft_name(str(name)): entry for name, entry in tensors.items()
            if normalise_draft_name(str(name)) in _VOCAB_TENSORS}


_VOCAB_TENSORS = ("d2t", "t2d", "embed_tokens.weight", "lm_head.weight")


def _vocab_findings(cfgs: dict[str, Any], draft_raw: dict[str, Any], target_raw: Any, at: Any) -> list[Finding]:
    """SD301-SD303 from the draft's tensor headers against its config and the target's
    vocab_size (checks.vocab_maps vocab_shape_report): the vocab step says the same from the
    tensors' values, but needs torch on the host; without it a draft built for another
    tokenizer passed this step."""
    summary = cfgs.get("draft")
    if not isinstance(summary, dict) or cfgs.get("draft_no_engine_weights"):
        return []
    target_vocab = _text(target_raw).get("vocab_size") if target_raw is not None else None
    if not (_positive_int(summary.get("vocab_size")) and _positive_int(summary.get("draft_vocab_size"))):
        return []
    report = vocab_shape_report(cfgs.get("draft_vocab_tensors"),
                                target_vocab_size=target_vocab if _positive_int(target_vocab) else None,
                                vocab_size=summary["vocab_size"], draft_vocab_size=summary["draft_vocab_size"],
                                configured=configured_draft_vocab(as_eagle3_config(draft_raw)),
                                complete=bool(cfgs.get("draft_listing_complete")))
    if report is None:
        return []
    # the drafter's words (`--target`) as the playbook's, as the vocab probe says them
    findings = check_vocab_report(said_in_playbook_words(report), at)
    # the lines said here, which the vocab step then does not say again (vocab_step.check)
    cfgs["vocab_lines"] = {f.code: list(f.evidence) for f in findings}
    return findings


def parse(host: dict[str, Any]) -> dict[str, Any]:
    draft, target = host.get("draft") or {}, host.get("target") or {}
    tensors = unwrapped(draft.get("tensors"))
    # shards the index names that are not here: their layers are not listed, which says
    # nothing of the config (SD704 told the user to set num_hidden_layers to the layers left)
    missing = [str(name) for name in draft.get("missing_shards") or []]
    # weight files whose header could not be read: their tensors are not in the listing either
    unreadable = [str(name) for name in draft.get("unreadable_weight_files") or []]
    # files the probe's user may not open (permission denied): not listed either
    denied = draft.get("denied_weight_files") if isinstance(draft.get("denied_weight_files"), dict) else {}
    facts: dict[str, Any] = {"draft_found": bool(draft.get("found")), "target_found": bool(target.get("found")),
                             "draft_path": draft.get("path"), "target_path": target.get("path"),
                             # the draft_model asked for, named when no checkpoint is there
                             "draft_name": draft.get("name"),
                             # "speculators_config.verifier": the target the draft's config names,
                             # found by the probe without --var target_model (model_configs.py)
                             "target_source": target.get("source"),
                             # the verifier the draft's config names, not on the host
                             "target_named_missing": target.get("named_verifier_missing"),
                             "draft_config": with_quantization(draft), "target_config": with_quantization(target),
                             "fc_in_features": fc_in_features(tensors),
                             "draft_weights_width": weights_width(tensors),
                             "draft_layer_shapes": None if missing or unreadable or denied
                             else layer_shapes(tensors),
                             "draft_flag_norms": None if missing or unreadable or denied else flag_norms(tensors),
                             "draft_missing_shards": missing or None,
                             "draft_unreadable_weight_files": unreadable or None,
                             "draft_denied_weight_files": denied or None,
                             # {file: why safetensors refuses it} of those whose header reads
                             "draft_unreadable_weight_reasons": _reasons(draft.get("unreadable_weight_reasons")),
                             "draft_index_error": draft.get("index_error"),
                             # the folder holds no weight file vLLM and SGLang load (SD710)
                             "draft_no_engine_weights": draft.get("no_engine_weights"),
                             # the vocabulary tensors' shapes, for the vocab checks the
                             # headers decide (vocab_shape_report); complete: d2t not listed
                             # is d2t absent
                             "draft_vocab_tensors": _vocab_tensors(tensors),
                             "draft_listing_complete": bool(tensors) and not (missing or unreadable or denied)
                             and len(tensors) < TENSOR_SHAPES_LIMIT,
                             "draft_wrapper_prefix": wrapper_prefix(draft.get("tensors")),
                             "draft_layer_names": decoder_layer_names(draft.get("tensors"))}
    for role, model in (("draft", draft), ("target", target)):
        if model.get("config_error"):
            # the folder was found and its config.json is not usable (hostfiles
            # config_and_problem names the line and column): that, not a missing folder
            facts[f"{role}_config_error"] = model["config_error"]
    if draft.get("config"):
        try:
            facts["draft"] = parse_draft_config(as_eagle3_config(draft["config"])).summary()
        except CheckpointError as exc:
            facts["draft_error"] = exc.message
            if exc.hint:  # how to fix it (a null rms_norm_eps: the value to write); was dropped
                facts["draft_error_hint"] = exc.hint
    if target.get("config"):
        text = _text(target["config"])
        facts["target"] = {k: text.get(k) for k in ("num_hidden_layers", "hidden_size", "vocab_size",
                                                    "max_position_embeddings", "torch_dtype")}
    return {NS: facts}


def _missing_shards_said(cfgs: dict[str, Any]) -> str:
    """The drafter's words for a shard the draft's index names that is not here
    (eagle3.checkpoint's "<index> names shard(s) that are missing: ..."), the index being
    pytorch_model.bin.index.json for .bin shards (hostfiles.list_weights reads it then)."""
    missing = [str(name) for name in cfgs.get("draft_missing_shards") or []]
    index = ("pytorch_model.bin.index.json" if all(name.endswith(".bin") for name in missing)
             else "model.safetensors.index.json")
    folder = str(cfgs.get("draft_path") or "").rstrip("/")
    return (f"{folder + '/' if folder else ''}{index} names shard(s) that are missing: "
            + ", ".join(missing[:4]) + (" ..." if len(missing) > 4 else ""))


def _layer_count_disputed(weights: list[Finding]) -> bool:
    """An SD704 says the config's num_hidden_layers is not the layers its weights hold."""
    return any(str(item.get("key", "")).endswith("num_hidden_layers")
               for finding in weights for item in finding.facts.get("mismatched_keys") or []
               if isinstance(item, dict))


# what this step checks, all from the draft's config.json (the playbook's `why` for configs)
_NONE_CHECKED = ("none of this step's checks ran (the served aux layers, the norm flags the engine "
                 "ignores, context length and RoPE against the target, the config against its weights)")


def check(ctx: Any) -> list[Finding]:
    cfgs = ctx.facts.get(NS, {})
    if not cfgs.get("draft_config"):
        mtp = target_mtp_line(ctx)
        if mtp is not None:
            return [mtp]
        # Each line says what went unchecked: every check of this step reads the draft's config
        # (`run --step` / `demo --step` with launch_flags skipped: "no draft config.json could
        # be read" alone under "configs passed; notes:" read as one side check missed).
        if cfgs.get("draft_config_error"):
            return [not_checked(ctx, f"{cfgs['draft_config_error']}: {_NONE_CHECKED}", "a readable draft config.json")]
        if cfgs.get("draft_name") and not cfgs.get("draft_path"):
            # a path given that holds no checkpoint (a typo, the folder above the draft): the
            # line said only "could not be read" and asked for the var the user had given
            return [not_checked(ctx, f"no draft config.json could be read: draft_model "
                                     f"{cfgs['draft_name']} is no checkpoint directory on this host "
                                     f"(not there, or a folder above the one holding config.json); {_NONE_CHECKED}",
                                "--var draft_model=DIR, the directory holding the draft's config.json")]
        return [not_checked(ctx, f"no draft config.json could be read: {_NONE_CHECKED}",
                            "--var draft_model=DIR (or a server command that names it)")]
    at = where(ctx)
    draft_raw = cfgs["draft_config"]
    target_raw = served_target(cfgs.get("target_config"), ctx.host_facts)
    engine = ctx.host_facts.get("engine", {})
    name, version = engine.get("name"), engine.get("version")
    launch = ctx.host_facts.get("launch", {})
    findings: list[Finding] = []
    # a decoder type speculators does not build over a Llama layer's weights: said with its fix
    # (SD704) in place of the reader's "could not be read" line
    decoder_type = check_decoder_model_type(draft_raw, cfgs.get("draft_layer_shapes"), at)
    findings += decoder_type
    if decoder_type:  # a warning: the loading steps after it name it as why they did not run
        ctx.facts.setdefault(NS, {})["draft_decoder_type_said"] = True
    if cfgs.get("draft_error") and not (decoder_type and "draft decoder model_type" in cfgs["draft_error"]):
        # parse() kept why the EAGLE-3 config reader refused it; it was dropped here, and the
        # checks below then ran on assumptions (aux count, context) without a word
        fix = f"; to fix it: {cfgs['draft_error_hint']}" if cfgs.get("draft_error_hint") else ""
        findings.append(not_checked(ctx, f"the draft config.json could not be read as an EAGLE-3 "
                                    f"config ({cfgs['draft_error']}): the aux count was taken "
                                    "from the layer ids and the draft's context length not "
                                    f"compared{fix}", "the draft's config.json with that fixed"))
    if target_raw is None and cfgs.get("target_config_error"):
        findings.append(not_checked(ctx, cfgs["target_config_error"] + ": aux layers, context "
                                    "and RoPE not compared", "a readable target config.json"))
    elif target_raw is None and cfgs.get("target_named_missing"):
        findings.append(not_checked(ctx, f"no target config.json: the draft's config names its verifier "
                                         f"{cfgs['target_named_missing']!r} (speculators_config.verifier."
                                         "name_or_path), which is neither a directory on this host nor in "
                                         "its Hugging Face cache; aux layers, context and RoPE not compared",
                                    "--var target_model=DIR (the target the draft was trained for, as "
                                    "this host holds it)"))
    elif target_raw is None:
        findings.append(not_checked(ctx, "no target config.json: aux layers, context and RoPE not compared",
                                    "--var target_model=DIR"))
    elif name not in ("sglang", "vllm"):
        findings.append(not_checked(ctx, "engine unknown: served layers and norm flags not checked",
                                    "--var engine=sglang|vllm"))
    text = _text(target_raw)
    sized = all(_positive_int(text.get(key)) for key in ("num_hidden_layers", "hidden_size"))
    if target_raw is not None and name in ("sglang", "vllm") and not sized:
        findings.append(not_checked(ctx, (_text_problem(target_raw) or _size_problem(text))
                                    + ": aux layers not compared",
                                    "--var target_model=DIR (the directory with the full config)"))
    # the config's hidden_size against the weights' width: needs neither target nor engine
    config_width = config_width_problem(cfgs.get("draft"), cfgs.get("draft_weights_width"),
                                        _stated_target_width(draft_raw))
    if target_raw is not None and name in ("sglang", "vllm") and sized:
        analysis = analyse_layers(name, version, draft_raw, int(text["num_hidden_layers"]),
                                  target_architecture=target_architecture(target_raw, launch_quantization(ctx.host_facts)))
        cfgs["layers"] = analysis.to_facts()
        try:
            parsed = parse_draft_config(as_eagle3_config(draft_raw))
            num_aux, use_aux = parsed.num_aux, parsed.use_aux_hidden_state
        except CheckpointError:
            # the engines read the flag alone from the raw config: a config refused for another
            # key (a field of an unexpected type) was taken as aux on, and the SD204 of a draft
            # that turns them off was missed (the refusal is said below)
            num_aux, use_aux = None, use_aux_hidden_state(draft_raw)
        findings += check_aux_layers(analysis, target_hidden_size=int(text["hidden_size"]),
                                     fc_in_features=cfgs.get("fc_in_features"), num_aux=num_aux,
                                     draft_target_hidden_size=_stated_target_width(draft_raw),
                                     use_aux_hidden_state=use_aux, config_width=config_width, at=at)
    else:
        findings += check_config_width(config_width, at)
    # a shard the index names is not here: SD710 as the drafter probes give it (vLLM stops at
    # the weights it never loaded); said here first, the loading steps after say "reported above"
    findings += missing_shards_finding(cfgs.get("draft_missing_shards"), at,
                                       said=_missing_shards_said(cfgs),
                                       unchecked="the draft config's shape keys and norm flags were "
                                                 "not compared with its weights")
    findings += unreadable_weight_files_finding(cfgs.get("draft_unreadable_weight_files"), at,
                                                reasons=cfgs.get("draft_unreadable_weight_reasons"))
    findings += denied_weight_files_finding(cfgs.get("draft_denied_weight_files"), cfgs.get("draft_path"), at)
    findings += no_engine_weights_finding(cfgs.get("draft_no_engine_weights"), at)
    findings += _vocab_findings(cfgs, draft_raw, target_raw, at)
    if cfgs.get("draft_index_error"):
        # vLLM and SGLang read the index's weight_map before any shard (weight_utils.py
        # filter_duplicate_safetensors_files: json.load(f)["weight_map"]); the listing above
        # read every *.safetensors file instead, so the checks below say nothing of this
        findings.append(not_checked(ctx, f"{cfgs['draft_index_error']}; the draft config was "
                                         "compared with every *.safetensors file in the folder "
                                         "instead",
                                    "the draft's model.safetensors.index.json saved again (or "
                                    "deleted, when every *.safetensors file there is a shard of "
                                    "this draft)"))
    # the names the engines look the weights up by: needs neither target nor engine (but
    # SGLang's own model.* names, which vLLM alone fails on)
    findings += check_wrapper_prefix(cfgs.get("draft_wrapper_prefix"), at, name)
    # speculators' layers.N.* names: SGLang alone does not load them
    findings += check_sglang_layer_names(cfgs.get("draft_layer_names"), draft_raw, at, name)
    # the activation both engines' Llama MLP builds: needs neither target nor engine
    findings += check_hidden_act(draft_raw, at)
    # a speculators config vLLM does not read as one (no speculators_config)
    section = check_speculators_section(draft_raw, name, at)
    findings += section
    if section:  # the vocab step's "no target" line names it: no verifier to find without it
        ctx.facts.setdefault(NS, {})["draft_speculators_config_said"] = True
    # layer ids written as strings: neither engine can use them (the reader's SD004 above
    # says only that the config was refused)
    findings += check_layer_id_types(draft_raw, at)
    if not config_width:
        # heads, KV heads, head_dim, MLP width, layer count and biases against the weights'
        # shapes (a config of another width misfits every tensor: SD204 says that one)
        weights = check_draft_weights(as_eagle3_config(draft_raw), cfgs.get("draft_layer_shapes"), at,
                                      norms=cfgs.get("draft_flag_norms"))
        findings += weights
        flags_raw = _unbacked_flags_off(draft_raw, weights)
    else:
        weights, flags_raw = [], draft_raw
    if name in ("sglang", "vllm"):
        findings += check_norm_flags(name, version, flags_raw, at)
        if not _layer_count_disputed(weights):
            # a multi-layer draft an older release builds one layer of: it does not start (a
            # count its weights do not hold is SD704's, whose fix is the config's)
            findings += check_multi_layer_served(name, version, draft_raw, at)
    if target_raw is not None:
        text = _text(target_raw)
        context = launch.get("context_length")
        source = "--context-length / --max-model-len on the server command"
        if not context:
            context, source = text.get("max_position_embeddings"), "the target's max_position_embeddings (engine default)"
        try:
            draft_positions = parse_draft_config(as_eagle3_config(draft_raw)).max_position_embeddings
        except CheckpointError:
            draft_positions = None
        findings += check_context_length(draft_positions, context, context_source=source, at=at)
        try:
            findings += check_rope(draft_raw, target_raw, at)
        except CheckpointError as exc:  # a hand-edited rope setting: the other checks stand
            findings.append(not_checked(ctx, f"RoPE not compared: {exc}",
                                        "a draft and target config whose rope_scaling / rope_parameters is an object"))
    return record(ctx.facts, NS, findings)
