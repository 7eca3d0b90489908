"""Launch-flag audit: parse the server command, apply the engine's rules, check SD101-SD104 (and
SD201 for a vLLM EAGLE-3 launch whose pipeline stages keep their aux layers from the drafter)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import asdict, replace
from typing import Any

from spec_debug.diagnose.checks.launch_flags import (NO_MTP_MODULES, REFUSED_AT_STARTUP, as_written, check_algorithm,
                                                     check_draft_budget, check_dtype, check_num_steps,
                                                     check_pipeline_aux_states, refused_by_every_release,
                                                     untrained_drafter)
from spec_debug.diagnose.config_file import config_file_path, ignored_config, merge_config
from spec_debug.diagnose.launch import (RUNS_WITHOUT_SPECULATION, VLLM_MTP_FAMILIES, EffectiveSpec, LaunchConfig,
                                       LaunchParseError, detect_engine, draft_block_size, effective_spec, image_release, read_flags, image_rolling_tag,
                                       config_architectures, models_named, names_a_kind, parse_launch_command,
                                       refused_draft_word, sglang_said_of_call, split_command, sglang_target_refused, _sglang_surely_before, vllm_surely_before,
                                       vllm_model_not_first, vllm_model_option_refused,
                                       VLLM_DEFAULT_MODEL_TITLE, vllm_default_model_served)
from spec_debug.diagnose.parallel_draft import as_eagle3_config, speculators_tokens, vllm_served_tokens
from spec_debug.diagnose.serverlog import served_settings
from spec_debug.eagle3 import engines
from spec_debug.eagle3.engines import target_architecture
from spec_debug.diagnose.steps.common import (QUANTIZATION_FLAGS, launch_flag_value, not_checked, record,
                                               served_config, where)
from spec_debug.eagle3.config import CheckpointError, parse_draft_config
from spec_debug.diagnose.checks.common import Where
from spec_debug.record import Finding

NS = "launch"


def _config(models: dict[str, Any], ref: str | None) -> tuple[str | None, dict[str, Any] | None]:
    info = models.get(ref or "") or {}
    return info.get("path"), info.get("config")


def sglang_speculators_draft(cfg: LaunchConfig, draft_raw: Any, drafts: bool, at: Where) -> list[Finding]:
    """SD711: SGLang given a draft whose config.json is speculators' (speculators_model_type eagle3,
    the decoder under transformer_layer_config, no top-level model_type). No SGLang release reads
    the format (sgl-project/sglang#18216, closed unfixed): it builds the draft's config with
    transformers' AutoConfig (python/sglang/srt/utils/hf_transformers_utils.py get_config), which
    raises "Unrecognized model in <dir>. Should have a `model_type` key in its config.json"
    (transformers models/auto/configuration_auto.py; transformers 4 first matches the model types
    named in the path), and picks the class by `architectures`, where it has LlamaForCausalLMEagle3
    and not speculators' Eagle3DraftModel / Eagle3Speculator. A server log with decode lines says
    the server drafted with it (a release that reads the format): then nothing is said."""
    if (cfg.engine != "sglang" or not cfg.draft_model or drafts or not isinstance(draft_raw, dict)
            or draft_raw.get("speculators_model_type") != "eagle3" or draft_raw.get("model_type") is not None):
        return []
    named = ", ".join(str(a) for a in draft_raw.get("architectures") or []
                      if isinstance(draft_raw.get("architectures"), list)) or "none"
    evidence = [f"the draft ({cfg.draft_model}) is in speculators' format: its config.json has speculators_model_type "
                "eagle3 and the decoder's config under transformer_layer_config, and no top-level model_type",
                "no SGLang release reads that format: SGLang builds the draft's config with transformers' AutoConfig, "
                f"which stops (\"ValueError: Unrecognized model in {cfg.draft_model}. Should have a `model_type` key in "
                "its config.json\"), and picks the draft's class by architectures, where it has LlamaForCausalLMEagle3 "
                f"and not speculators' ({named}): the server does not start"]
    facts = {"draft_model": cfg.draft_model, "format": "speculators", "architectures": draft_raw.get("architectures")}
    return [at.finding("SD711", evidence, facts)]


def _trained_steps_key(draft_raw: Any) -> str | None:
    """Where an EAGLE-format draft config (no speculators_model_type) says its depth: its
    num_lookahead_tokens (parse_draft_config), the key vLLM fills from a speculators proposal
    (transformers_utils/configs/speculators/algos.py update_eagle3). Was: SD101 said the depth came
    from "speculative_tokens of its speculators_config.default_proposal_method" of a config with
    no speculators_config."""
    if (isinstance(draft_raw, dict) and not engines.is_speculators_format(draft_raw)
            and draft_raw.get("num_lookahead_tokens") is not None):
        return "num_lookahead_tokens of its config.json"
    return None


def trained_steps(draft_raw: dict[str, Any] | None) -> int | None:
    if not draft_raw:
        return None
    try:
        steps = parse_draft_config(as_eagle3_config(draft_raw)).speculative_tokens
    except (CheckpointError, KeyError, TypeError, ValueError):
        # a speculators draft the EAGLE-3 reader does not take (dflash, ...) still says its K
        steps = speculators_tokens(draft_raw)
    # A NextN checkpoint split out of its target (e.g. DeepSeek-R1-NextN given as
    # --speculative-draft-model-path) is a target-family config: its MTP depth is the count.
    return steps if steps is not None else mtp_layers(draft_raw)


# The keys a target config counts its MTP (next-n) modules by, the ones vLLM reads as the
# draft's n_predict: `num_nextn_predict_layers` (DeepSeek-V3, GLM-4.5, MiMo, Qwen3-Next, Ernie)
# and `mtp_num_hidden_layers` (Qwen3.5), at the top level or in text_config
# (vllm-project/vllm vllm/config/speculative.py `hf_config_override`).
_MTP_KEYS = ("num_nextn_predict_layers", "mtp_num_hidden_layers")


def mtp_layers(config: dict[str, Any] | None) -> int | None:
    """How many MTP modules the checkpoint ships (each trained to predict one token further)."""
    if not isinstance(config, dict):
        return None
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else {}
    for section in (config, text):
        for key in _MTP_KEYS:
            value = section.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
    return None


# Targets whose MTP modules the engines count without the keys above: vLLM's
# SpeculativeConfig.hf_config_override (vllm-project/vllm vllm/config/speculative.py) gives
# Step-3.5/3.7, LongCat-Flash, dots3_note and MiniMax-M3 one by default (or num_mtp_modules),
# MiMo-V2 a fixed count, a Gemma 4 assistant one, Inkling its mtp_config's. SGLang loads the draft
# of a Mistral Large 3 (MistralLarge3ForCausalLM, PixtralForConditionalGeneration) from the target's
# own path under EAGLE (python/sglang/srt/server_args.py `_handle_speculative_decoding`), with no
# MTP key in its config: not said to have none either.
_MTP_COUNTED_OTHERWISE = re.compile(r"step3p|longcat|mimo|minimax|gemma4|inkling|dots3|mistrallarge3|"
                                    r"mistral_large_3|pixtral", re.I)


def _config_items(config: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every key of a config with its value, nested sections at any depth (Qwen3-Omni's
    thinker_config.text_config, where vLLM's get_hf_text_config reads a text model's fields)."""
    for key, value in config.items():
        yield str(key), value
        if isinstance(value, dict):
            yield from _config_items(value)


def names_no_mtp(config: Any) -> bool:
    """A target config that was read and says nothing of MTP modules: no key naming mtp or nextn
    (at the top or in a nested section, at any depth) and not a family whose engines count
    them otherwise. False when the config was not read."""
    if not isinstance(config, dict):
        return False
    if names_a_kind(config, _MTP_COUNTED_OTHERWISE):
        return False
    return not any(re.search(r"mtp|nextn", key, re.I) and not _counts_none(key, value)
                   for key, value in _config_items(config))


def _counts_none(key: str, value: Any) -> bool:
    """`num_nextn_predict_layers: 0` (Kimi-K2, a DeepSeek-V3 architecture shipped without its MTP
    layer): the count vLLM reads as n_predict says there are none, as its absence does."""
    return key in _MTP_KEYS and value == 0 and not isinstance(value, bool)


def serves_own_mtp(cfg: LaunchConfig) -> bool:
    """The draft is the target's own MTP module, loaded from the target checkpoint.

    SGLang: `--speculative-algorithm NEXTN` is EAGLE, and for MTP targets (DeepSeek-V3/V3.2,
    GLM-4.5, Bailing, ...) a missing --speculative-draft-model-path is set to --model-path
    (sgl-project/sglang python/sglang/srt/server_args.py `_handle_speculative_decoding`; the
    DeepSeek docs launch it with no draft path). vLLM: method `mtp` (and the deprecated
    `deepseek_mtp`-style names) with no draft model loads it from the target
    (vllm/config/speculative.py `__post_init__`)."""
    own_checkpoint = cfg.draft_model is None or cfg.draft_model == cfg.target_model
    if cfg.engine == "sglang":
        return own_checkpoint and cfg.algorithm in ("NEXTN", "EAGLE")
    method = (cfg.algorithm or "").lower()
    return own_checkpoint and (method == "mtp" or method.endswith("_mtp"))


# vllm-project/vllm PR #42376 (the written --speculative-config laid over a served speculator's):
# in the 0.29.0 sdist's vllm/transformers_utils/config.py maybe_override_with_speculators
# (`speculative_config.update(vllm_speculative_config)`), not in 0.28.0's, which returns the
# speculator's config alone.
VLLM_SPECULATOR_OVERRIDES_SINCE = "0.29.0"


def served_speculator(cfg: LaunchConfig, served_raw: Any, engine_version: str | None = None) -> LaunchConfig:
    """`vllm serve <speculator>` (the speculators README's way to serve a draft) as vLLM runs it:
    the verifier named in the speculator's config is the target, and the speculative config is
    the speculator's own, {"method": speculators_model_type, "num_speculative_tokens":
    proposal_methods[0].speculative_tokens, "model": the speculator} (peagle: method eagle3 with
    parallel_drafting) (vllm/transformers_utils/config.py `maybe_override_with_speculators`,
    configs/speculators/base.py `build_vllm_speculative_config`). A --speculative-config written
    with it does not replace that: vLLM asks the served model first whatever the command says
    (vllm/engine/arg_utils.py `create_engine_config` calls maybe_override_with_speculators with it
    as `vllm_speculative_config`), and since vllm-project/vllm PR #42376 lays the written keys over
    the speculator's own, `model` and `method` kept the speculator's (tests/transformers_utils/
    test_speculators_override.py); the releases before it drop the written config whole, so there
    a written num_speculative_tokens is the speculator's instead. Was: a command that wrote one was
    read as written, the speculator taken for the target, and `'{"attention_backend": ...}'` alone
    refused for lacking num_speculative_tokens. `engine_version` before
    VLLM_SPECULATOR_OVERRIDES_SINCE: the written config is dropped (was: laid over on every
    release, so `"num_speculative_tokens": 5` beside a 3-token speculator was read as K 5 on 0.28,
    which runs 3); unknown: the newest release's rule."""
    if cfg.engine != "vllm" or not isinstance(served_raw, dict):
        return cfg
    kind, k = served_raw.get("speculators_model_type"), vllm_served_tokens(served_raw)
    if not isinstance(kind, str) or not kind or k is None:
        return cfg
    spec_section = served_raw.get("speculators_config")
    verifier_section = spec_section.get("verifier") if isinstance(spec_section, dict) else None
    verifier = verifier_section.get("name_or_path") if isinstance(verifier_section, dict) else None
    method = "eagle3" if kind == "peagle" else kind
    spec: dict[str, Any] = {"method": method, "model": cfg.target_model, "num_speculative_tokens": k}
    if kind == "peagle":
        spec["parallel_drafting"] = True
    written = cfg.speculative_config or {}
    if engine_version is not None and vllm_surely_before(engine_version, VLLM_SPECULATOR_OVERRIDES_SINCE):
        written = {}
    spec = {**spec, **{key: value for key, value in written.items() if key not in ("model", "method")}}
    if "num_speculative_tokens" in written and cfg.num_steps is not None:
        k = cfg.num_steps
    spec["num_speculative_tokens"] = k
    return replace(cfg, target_model=verifier if isinstance(verifier, str) and verifier else cfg.target_model,
                   draft_model=cfg.target_model, algorithm=method.upper(), num_steps=k, topk=1,
                   num_draft_tokens=k + 1, speculative_config=spec)


def with_server_env(cfg: LaunchConfig, server_env: dict[str, str] | None) -> LaunchConfig:
    """The running server's environment (/proc/PID/environ, engine variables only) under the
    `VAR=value` words of the command line: for a process read from /proc they are the same."""
    if not server_env:
        return cfg
    return replace(cfg, env={**server_env, **cfg.env})


def parse(host: dict[str, Any]) -> dict[str, Any]:
    command = host.get("cmdline") or host.get("argv")
    if not command:
        return {NS: {"found": False, "processes": host.get("processes", [])}}
    config_file = host.get("config_file") or {}
    try:
        if config_file.get("text") is not None:
            # the engine's argv: the file's flags first, the command line's after (they win)
            command = merge_config(split_command(command), config_file["text"], refuse=True)
        cfg = with_server_env(parse_launch_command(command), host.get("server_env"))
        config_file_path(list(cfg.argv))  # two --config, or none after it: the engine refuses
    except LaunchParseError as exc:
        where_ = (f" (with the flags of --config {config_file['path']})" if config_file.get("text") is not None
                  and f"--config {config_file['path']}" not in exc.message else "")
        # one line: the SD004 evidence and the report quote it inside a sentence, where the
        # exception's own "\n  hint:" line would break it in two
        hint = f"; {exc.hint}" if exc.hint else ""
        return {NS: {"found": False, "error": f"{exc.message}{where_}{hint}", "hint": exc.hint,
                     "source": host.get("source"), "refused": _refused(exc)}, **_named_resolved(command, host)}
    models = host.get("models") or {}
    draft_path, draft_raw = _config(models, cfg.draft_model)
    target_path, target_raw = _config(models, cfg.target_model)
    if (cfg.draft_model is None or cfg.engine == "vllm") and target_raw and target_raw.get("speculators_model_type"):
        # `vllm serve <speculator>`: the served model is the draft; its config names the
        # verifier (speculators README; vLLM configs/speculators/base.py), whatever draft a
        # --speculative-config written with it names (served_speculator).
        draft_path, draft_raw = target_path, target_raw
        verifier = ((target_raw.get("speculators_config") or {}).get("verifier") or {}).get("name_or_path")
        target_path, target_raw = _config(models, verifier)
        target_path = target_path or verifier
        cfg = served_speculator(cfg, draft_raw)
    quantization = launch_flag_value(list(cfg.argv), QUANTIZATION_FLAGS)
    # What the engine loads ("target_config" keeps the file's): an `architectures` given on
    # --hf-overrides is the model the engine builds, and SGLang's auto-chosen steps follow it
    # (auto_choose_speculative_params reads the overridden hf_config).
    served = served_config(target_raw, cfg.argv)
    eff = effective_spec(cfg, target_architecture=target_architecture(served, quantization),
                         draft_block_size=draft_block_size(draft_raw), draft_config=draft_raw)
    # a plain draft LM (STANDALONE) is not an EAGLE checkpoint: its config says no depth
    steps, steps_source = (None if untrained_drafter(cfg) else trained_steps(draft_raw)), None
    if serves_own_mtp(cfg):
        # MTP: the target's own next-n module drafts; it was trained for as many tokens
        # as it has modules (DeepSeek-V3: 1, so the DeepSeek docs' `--speculative-num-steps 1`
        # serves it as trained).
        steps = mtp_layers(served)
        steps_source = "the target's MTP modules (num_nextn_predict_layers / mtp_num_hidden_layers)"
        if steps is None and names_no_mtp(served):
            # its config.json was read and names none: say so, not "unknown" (was: "not in the
            # target config, or its config.json was not found", for Qwen3-4B-Instruct-2507 served
            # with method qwen3_next_mtp, a target with no MTP module)
            steps_source = NO_MTP_MODULES
    launch = {
        "found": True, "source": host.get("source"), "engine": cfg.engine,
        "target_model": cfg.target_model, "draft_model": cfg.draft_model, "algorithm": cfg.algorithm,
        "num_steps": cfg.num_steps, "topk": cfg.topk, "num_draft_tokens": cfg.num_draft_tokens,
        "dtype": cfg.dtype, "context_length": cfg.context_length, "tp": cfg.tp, "pp": cfg.pp, "page_size": cfg.page_size,
        "attention_backend": cfg.attention_backend, "speculative_config": cfg.speculative_config,
        "env": cfg.env, "effective": asdict(eff), "draft_path": draft_path, "target_path": target_path,
        "trained_steps": steps, "trained_steps_source": steps_source,
        "draft_is_target_mtp": serves_own_mtp(cfg) and (served is None or mtp_layers(served) is not None),
        "draft_config": draft_raw, "target_config": target_raw,
        "argv": list(cfg.argv),
        # (engine variables read from a bare `NAME=value` line above the server, not exported:
        # check() reads the argv again, which no longer says where they came from)
        "unexported": list(cfg.unexported),
        "excerpt": not cfg.python_call and _flags_excerpt(host.get("cmdline") or host.get("argv"), cfg.argv),
        # a Python script's engine call: check() reads the script again, as its argv alone loses the
        # call (a keyword's refusal is Python's TypeError, not argparse's) and the engines it builds first
        "python_source": command if cfg.python_call and isinstance(command, str) else None,
        "config_file": config_file.get("path"), "config_file_error": config_file.get("error"),
        "server_env": host.get("server_env") or {},
        "server_log": (host.get("server_log") or {}).get("path"),
        "served": served_settings("\n".join((host.get("server_log") or {}).get("lines") or [])),
        # the server's log shows it drafting (SGLang's decode lines): it loaded its draft (SD711)
        "server_log_drafts": any("accept len" in line for line in (host.get("server_log") or {}).get("lines") or []),
    }
    return {NS: launch, "resolved_draft_model": draft_path or cfg.draft_model or "",
            "resolved_target_model": target_path or cfg.target_model or "", "launch_engine": cfg.engine}


def _flags_excerpt(text: Any, argv: tuple[str, ...]) -> bool:
    """The text is an SGLang command's flags alone (continuation lines cut from a script, an issue's
    "key launch parameters"), to which split_command supplied the program: what the text does not
    hold (the algorithm) may be in the lines above it. Not a Python script's engine call
    (`sgl.Engine(speculative_num_steps=3, ...)`), read whole, whose argv the reader builds with that
    program (was: taken for a fragment, so a call with no speculative_algorithm was "not checked")."""
    return isinstance(text, str) and list(argv[:3]) == ["python3", "-m", "sglang.launch_server"] and (
        "sglang.launch_server" not in text)


def _named_resolved(command: Any, host: dict[str, Any]) -> dict[str, str]:
    """The facts the later steps take their draft, target and engine from, for a command the audit
    refuses: what it names (was: none, so every later step asked for `--var draft_model=DIR (or a
    server command that names it)` of a command that names it)."""
    named = models_named(command)
    models = host.get("models") or {}
    resolved = {f"resolved_{role}": _config(models, named[role])[0] or named[role]
                for role in ("draft_model", "target_model") if role in named}
    return {**resolved, "launch_engine": named["engine"]} if named else {}


def _same_checkpoint(launch: dict[str, Any]) -> str | None:
    """The folder both the draft and the target name resolved to on the host (a Hub id and its
    snapshot path, `/models/llama` and `/models/llama/`), when they name one checkpoint."""
    draft, target = launch.get("draft_path"), launch.get("target_path")
    if not isinstance(draft, str) or not isinstance(target, str) or not draft or not target:
        return None
    return draft if posixpath.normpath(draft) == posixpath.normpath(target) else None


def served_mismatch(cfg: LaunchConfig, eff: EffectiveSpec, served: dict[str, Any] | None,
                    log_path: str | None) -> str | None:
    """The line saying the server log was written by a server started with other speculative
    settings than the audited command's (after the engine's rules on both sides: the log's
    startup line is printed once they ran, spec_debug.diagnose.serverlog.served_settings)."""
    if not served or not served.get("num_steps") or eff.adaptive:
        return None  # adaptive SGLang logs where it starts, then moves
    if cfg.engine == "vllm" and "num_speculative_tokens_per_batch_size" in (cfg.speculative_config or {}):
        # vLLM logs the static num_speculative_tokens, the most its K schedule may run
        eff = EffectiveSpec(cfg.num_steps, cfg.topk, cfg.num_draft_tokens)
    pairs = (("steps", eff.num_steps, served.get("num_steps")), ("topk", eff.topk, served.get("topk")),
             ("draft tokens", eff.num_draft_tokens, served.get("num_draft_tokens")))
    if cfg.engine == "sglang" and cfg.algorithm in ("DFLASH", "DSPARK"):
        pairs = pairs[2:]  # SGLang sets their steps and topk to 1 whatever is written (`_handle_dflash`)
    differ = [(name, ours, theirs) for name, ours, theirs in pairs
              if ours is not None and theirs is not None and ours != theirs]
    algorithm, logged = (cfg.algorithm or "").upper(), str(served.get("algorithm") or "").upper()
    if algorithm and logged and algorithm != logged and not {algorithm, logged} <= {"EAGLE", "NEXTN"}:
        differ.insert(0, ("algorithm", algorithm, logged))  # SGLang runs NEXTN as EAGLE
    if served.get("engine") and served["engine"] != cfg.engine:
        differ.insert(0, ("engine", cfg.engine, served["engine"]))
    if not differ:
        return None
    log = f"the server log {log_path}" if log_path else "the server log"
    return (f"the audited command runs {', '.join(f'{n} {ours}' for n, ours, _ in differ)}, but {log} says its "
            f"server runs {', '.join(f'{n} {theirs}' for n, _, theirs in differ)} (its startup line): that "
            "server was started with another command, so this audit and the log's numbers are about "
            "different servers")


def vllm_draft_format_problem(cfg: LaunchConfig, draft_raw: Any, version: str | None) -> str | None:
    """A speculators-format draft (`speculators_model_type`, no top-level model_type) given to a
    vLLM without its speculators loader (vllm/transformers_utils/configs/speculators, from 0.10.1,
    vllm-project/vllm PR #21345; the PyPI sdists of 0.10.0 and older have none): transformers'
    AutoConfig finds no model_type in the draft's config.json and the server does not start."""
    if cfg.engine != "vllm" or version is None or not isinstance(draft_raw, dict):
        return None
    if not engines.is_speculators_format(draft_raw) or not vllm_surely_before(version, engines.VLLM_SPECULATORS_CONFIG):
        return None
    return (f"the draft is in speculators' format ({cfg.draft_model}), which vLLM {version} cannot load: its "
            f"speculators config reader arrived in {engines.VLLM_SPECULATORS_CONFIG}, and transformers finds no "
            f"model_type in the draft's config.json, so the server does not start (upgrade vLLM to "
            f"{engines.VLLM_SPECULATORS_CONFIG} or later)")



def vllm_mtp_target_refused(cfg: LaunchConfig, target_raw: Any, steps_source: str | None) -> str | None:
    """A vLLM MTP launch with no draft (method mtp or a *_mtp name) on a target whose config was
    read, names no MTP layer, and is no family vLLM makes an MTP draft of (Qwen3-4B, a Llama).
    SpeculativeConfig `__post_init__` takes the target as the draft, `hf_config_override` leaves
    its model_type as it is, and the method check finds no MTP model type: it raises
    NotImplementedError ("Unsupported speculative method: 'mtp'"; older releases, whose chain ended
    in draft_model: "Speculative decoding with draft model is not supported yet"), whatever num_speculative_tokens is. The
    warning "num_speculative_tokens > 1 will run multiple times of forward on same MTP layer" is
    for targets with an MTP layer. Was: said only at K 1, as a cap of one token per round."""
    if cfg.engine != "vllm" or steps_source != NO_MTP_MODULES or not isinstance(target_raw, dict):
        return None
    if names_a_kind(target_raw, VLLM_MTP_FAMILIES, text_config=True):
        return None
    named = target_raw.get("model_type") or next(iter(config_architectures(target_raw)), "?")
    return (f"method {(cfg.algorithm or 'mtp').lower()} with no draft model drafts with the target's own MTP layers, but "
            f"the target ({named}) has none and is no model vLLM makes an MTP draft of (vllm/config/speculative.py "
            "hf_config_override): SpeculativeConfig raises NotImplementedError (\"Unsupported speculative method: "
            "'mtp'\") and the server does not start (serve the model's MTP checkpoint, or give a trained draft with "
            "method eagle3)")


# SGLang serves an EAGLE / NEXTN launch with no draft path on a DeepseekV3ForCausalLM target with the
# target itself as the draft (python/sglang/srt/server_args.py `_handle_eagle_family`: draft path =
# model path), loaded as its NextN model, whose load_weights(is_nextn=True) asserts exactly one
# nextn layer (python/sglang/srt/models/deepseek_v2.py: "Only 1 nextn layer is supported"). Kimi-K2 is a
# DeepSeek-V3 model with num_nextn_predict_layers 0. A config.json without the count is left alone: what the
# loaded config holds then is its config class's (no attribute: ValueError "num_nextn_predict_layers is
# not in the config"; a class default of 1 loads on), not read here.
_SGLANG_NEXTN_ASSERTED = ("DeepseekV3ForCausalLM",)


def sglang_mtp_target_refused(cfg: LaunchConfig, target_raw: Any, steps_source: str | None) -> str | None:
    """An SGLang EAGLE/NEXTN launch with no draft path on a DeepSeek-V3-architecture target whose
    config was read and names no MTP layer: the server does not start (see _SGLANG_NEXTN_ASSERTED).
    Was: nothing said at --speculative-num-steps > 1, a one-token cap at 1."""
    if (cfg.engine != "sglang" or cfg.algorithm not in ("EAGLE", "NEXTN") or cfg.draft_model is not None
            or steps_source != NO_MTP_MODULES or not isinstance(target_raw, dict)):
        return None
    architectures = config_architectures(target_raw)
    if not architectures or architectures[0] not in _SGLANG_NEXTN_ASSERTED:
        return None
    layers = target_raw.get("num_nextn_predict_layers")
    if layers is None:
        return None
    return (f"--speculative-algorithm {cfg.algorithm} with no draft path: SGLang loads the target itself as the NextN "
            f"(MTP) draft of a {architectures[0]} model, but the target ({target_raw.get('model_type') or '?'}) has no "
            f"MTP layer (num_nextn_predict_layers {layers}): loading it fails (\"Only 1 nextn layer is supported\", "
            "sglang/srt/models/deepseek_v2.py) and the server does not start (serve a checkpoint with its MTP layer, "
            "or give a trained draft: --speculative-algorithm EAGLE3 --speculative-draft-model-path DRAFT)")


# A whole word that is a shell expansion bash would have replaced (`$SPEC_ARGS`, `${MTP_ARGS}`,
# `${EXTRA_ARGS:-}`, `"${ARGS[@]}"`), or a wrapper script's own arguments passed on (`"$@"`,
# `$*`: the flags its caller gives): its value is not in the text.
_EXPANSION_WORD = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[@*]|\{(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[@*]\])?|[@*])(?::?[-=+?][^}]*)?\})"
                             r"|\$\{\{[A-Za-z_][\w.]*\}\}"  # dstack's ${{ run.args }} (launch_pastes._dstack_commands)
                             # an Argo Workflow parameter the file gives no value (launch_pastes._argo_filled)
                             r"|\{\{\s*(?:inputs|workflow)\.parameters\.[\w-]+\s*\}\}")
# Flags that take several values (argparse nargs): vLLM `--served-model-name NAME [NAME ...]`,
# `--lora-modules`, SGLang `--lora-paths` (vllm/entrypoints/openai/cli_args.py, sglang
# python/sglang/srt/server_args.py): the words after the first value are still its values.
_SEVERAL_VALUES = ("served-model-name", "lora-modules", "lora-paths", "lora-target-modules")


def unread_flag_words(cfg: LaunchConfig) -> list[str]:
    """The server's arguments that stand where flags go (not a flag's value, not vLLM's model)
    but are a shell expansion left as written: the flags they hold are unknown."""
    try:
        start = detect_engine(list(cfg.argv))[1]
    except LaunchParseError:
        return []
    args = list(cfg.argv[start:])
    _, positionals = read_flags(args)
    values = _several_values(args)
    return [word for word in positionals
            if _EXPANSION_WORD.fullmatch(word) and word != cfg.target_model and word not in values]


def _several_values(args: list[str]) -> set[str]:
    """The words given to a flag of _SEVERAL_VALUES after its first value."""
    found: set[str] = set()
    owner = None
    for i, word in enumerate(args):
        if word.startswith("-"):
            owner = word.lstrip("-").split("=", 1)[0].replace("_", "-") if "=" not in word else None
            continue
        if owner in _SEVERAL_VALUES and i >= 2 and not args[i - 1].startswith("-"):
            found.add(word)
    return found


def _refused(error: LaunchParseError) -> bool:
    """The reader stopped where the engine stops: its message (or the fix it names) says the
    server does not start, and not on what the text may have lost, a value a `ps` line cut at
    the terminal width (the hint then asks for the whole line)."""
    said = f"{error.message} {error.hint or ''}"
    return refused_by_every_release(said) and "ps -ww" not in said


# SD102's title for a server that starts but drops the speculative settings written
WITHOUT_SPECULATION_TITLE = "The server runs this launch command without speculative decoding"


def check(ctx: Any) -> list[Finding]:
    launch = ctx.facts.get(NS, {})
    if not launch.get("found"):
        if launch.get("refused") and launch.get("error"):
            # a server that does not start, as SD102 says of the refusals found once the command
            # is read (an algorithm the release lacks): an error, not a check that did not run (it
            # was SD004 info, so `spec-debug run` of `sglang.launch_server ... -tp 2` exited 0)
            fix = launch.get("hint")
            return record(ctx.facts, NS, [where(ctx).finding(
                "SD102", [launch["error"]], {"source": launch.get("source"), "fix": fix}, title=REFUSED_AT_STARTUP,
                severity="error", remediation="Make the change the evidence names" + (f" ({fix})" if fix else "")
                + ": the server stops at startup on it; then audit the command again.")])
        if RUNS_WITHOUT_SPECULATION in (launch.get("error") or ""):
            # it starts, and serves every request without a draft: the speculation the command
            # asks for is lost without a word from the server, as SD102 says of the settings an
            # engine rewrites (was SD004 info "Not checked", a clean partial diagnosis)
            fix = launch.get("hint")
            return record(ctx.facts, NS, [where(ctx).finding(
                "SD102", [launch["error"]], {"source": launch.get("source"), "fix": fix},
                title=WITHOUT_SPECULATION_TITLE,
                remediation="Make the change the evidence names" + (f" ({fix})" if fix else "")
                + " so the server speculates; then audit the command again.")])
        if launch.get("error"):
            # the way out is the fix the parse error names (an SGLang example command was
            # offered for every engine, also for a vLLM command that was read whole and refused)
            return [not_checked(ctx, f"the server command could not be read: {launch['error']}",
                                launch.get("hint") or "--var server_cmdline='...' (the server's full command line)")]
        seen = len(launch.get("processes", []))
        return [not_checked(ctx, f"no SGLang or vLLM server process found on the host ({seen} candidates)",
                            "--var server_cmdline='...' (the server's full command line)")]
    command = launch.get("python_source") or launch["argv"]
    cfg = with_server_env(parse_launch_command(command), launch.get("server_env"))
    if launch.get("unexported"):
        cfg = replace(cfg, unexported=tuple(launch["unexported"]))
    speculator_k = None
    if launch.get("draft_model") and (cfg.draft_model is None or cfg.target_model == launch["draft_model"]):
        # parse() read the served speculator
        written_k = cfg.num_steps if "num_speculative_tokens" in (cfg.speculative_config or {}) else None
        cfg = served_speculator(cfg, launch.get("draft_config"), _engine_release(ctx, cfg))
        speculator_k = speculator_k_by_release(cfg, written_k, launch.get("draft_config"), _engine_release(ctx, cfg))
    notes: list[Finding] = []
    unread = config_file_path(list(cfg.argv))
    if unread is not None:
        # Both engines merge a YAML file's flags into argv (spec_debug.diagnose.config_file):
        # the speculative settings may live there, and this command line alone looks plain.
        why = launch.get("config_file_error") or "the probe did not ship its text"
        line = not_checked(ctx, f"the server reads more flags from --config {unread}, which could not be "
                                f"read on the host ({why}); " + ("the command line has no speculative settings"
                                if not cfg.speculative else "audited the command line alone"),
                           f"--var server_cmdline='...' with the flags of {unread} written out")
        if not cfg.speculative:
            return [line]
        notes.append(line)
    ignored = ignored_config(list(cfg.argv))
    if ignored is not None:
        notes.append(not_checked(ctx, f"--config={ignored} is never opened: SGLang and vLLM only read a "
                                      "config file given as `--config FILE` (two words), so none of its "
                                      "flags apply; audited the command line alone",
                                 f"--config {ignored} (a space, not `=`) if its flags are meant to apply"))
    hidden = unread_flag_words(cfg)
    if hidden and not cfg.speculative:
        # a script's `${SPEC_ARGS}` given in the branches of an `if`/`case` (or by the caller's
        # environment): the flags it holds are the speculative settings, and they are not in this
        # text; an audit that says nothing would read as "no speculation, nothing wrong"
        dstack = any(word.startswith("${{") for word in hidden)
        return notes + [not_checked(ctx, f"the server command has {', '.join(hidden)} where its flags go, "
                                         "left as written (" + ("dstack fills ${{ run.args }} in with the arguments "
                                         "the run was started with, after the configuration file" if dstack else "a script variable "
                                         "given more than one value, set by the environment, or the script's own "
                                         "arguments") + "): the speculative flags it may hold were not read",
                                    "--var server_cmdline='...' with the server's flags written out "
                                    "(e.g. `ps -ww -o args -p PID` of the running server)")]
    version = _engine_release(ctx, cfg)
    # a bf16 target served with --quantization / -q is a quantized one to vLLM (its runner choice)
    quantization = launch_flag_value(list(cfg.argv), QUANTIZATION_FLAGS)
    target = served_config(launch.get("target_config"), cfg.argv, version if cfg.engine == "vllm" else None)
    arch = target_architecture(target, quantization)
    eff = effective_spec(cfg, target_architecture=arch,
                         engine_version=version, draft_block_size=draft_block_size(launch.get("draft_config")),
                         draft_config=launch.get("draft_config"))
    unloadable = vllm_draft_format_problem(cfg, launch.get("draft_config"), version)
    if unloadable:
        eff = replace(eff, problems=[*eff.problems, unloadable])
    if speculator_k:
        eff = replace(eff, overrides=[*eff.overrides, speculator_k])
    # (a --config file merged into argv: vLLM skips its model-first check where --config is written)
    model_not_first = [] if launch.get("config_file") else (
        vllm_model_not_first(cfg, version) + vllm_model_option_refused(cfg, version))
    if model_not_first:
        # vLLM raises before argparse reads a word: said first
        eff = replace(eff, problems=[*model_not_first, *eff.problems])
    default_model = None if launch.get("config_file") else vllm_default_model_served(cfg, version)
    if default_model is not None:
        # it starts, with a target the command does not name: every measurement and every check of
        # the written target is of another model than the one that runs (an error: the server the
        # user meant is not the one serving)
        fix = "write the model first, right after `serve`"
        notes.append(where(ctx).finding(
            "SD102", [default_model], {"source": launch.get("source"), "fix": fix,
                                       "target_written": cfg.target_model},
            title=VLLM_DEFAULT_MODEL_TITLE, severity="error",
            remediation="Write the model right after `vllm serve` (before --served-model-name and its names), "
                        "restart the server, then audit the command again."))
    refused_target = (vllm_mtp_target_refused(cfg, target, launch.get("trained_steps_source"))
                      or sglang_mtp_target_refused(cfg, target, launch.get("trained_steps_source"))
                      or sglang_target_refused(cfg, arch, version, launch.get("draft_config")))
    if refused_target:
        eff = replace(eff, problems=[*eff.problems, sglang_said_of_call(refused_target, cfg)
                                     if cfg.engine == "sglang" else refused_target])
    at = where(ctx)
    mismatch = served_mismatch(cfg, eff, launch.get("served"), launch.get("server_log"))
    if mismatch is not None:
        notes.append(not_checked(ctx, mismatch, "--var server_cmdline='...' of the server that wrote the log "
                                                "(or the log of this command's server)"))
    simulated = simulated_acceptance(cfg, version)
    if simulated is not None:
        notes.append(not_checked(ctx, simulated, "the server restarted without the benchmark's acceptance "
                                                 "simulation, then its accept length and throughput re-measured"))
    if cfg.engine == "vllm" and cfg.algorithm == "EXTRACT_HIDDEN_STATES":
        # speculators' datagen server (scripts/launch_vllm.py: method extract_hidden_states with
        # num_speculative_tokens 1 and the layers to save in draft_model_config): it runs the
        # target to save hidden states for training and proposes no draft to accept, so the
        # served depth and the draft checks are not about it (only the engine's refusals are)
        extra = (cfg.speculative_config or {}).get("draft_model_config")
        hf_config = extra.get("hf_config") if isinstance(extra, dict) else None
        layers = hf_config.get("eagle_aux_hidden_state_layer_ids") if isinstance(hf_config, dict) else None
        notes.append(not_checked(ctx, "this vLLM server extracts the target's hidden states for draft training "
                                      f"(method extract_hidden_states{f', layers {layers}' if layers else ''}): it "
                                      "does not speculate, so the served depth and the draft checks do not apply",
                                 "--var server_cmdline='...' of the server that serves the draft"))
        return notes + record(ctx.facts, NS, check_draft_budget(cfg, eff, at))
    unused = _sglang_knobs_without_algorithm(cfg)
    if unused and (launch.get("excerpt") or unread is not None or hidden):
        # the algorithm may be above the lines given, in the --config file not read, or in the
        # expansion left as written
        return notes + [not_checked(
            ctx, f"the SGLang command sets {', '.join(unused)} but no --speculative-algorithm: SGLang speculates "
                 "only with one (server_args.py runs its draft rules for EAGLE, EAGLE3 and STANDALONE alone), so "
                 "this server decodes without speculation and ignores them; a fragment of a command may have the "
                 "algorithm above the lines given",
            "--var server_cmdline='...' with the whole command (and --speculative-algorithm EAGLE3, or the "
            "algorithm the draft was trained for, if it is missing)")]
    if unused:
        # the whole command: the server starts and serves every request without a draft, and
        # says nothing of the flags it ignores, SD102's "silently runs a different configuration"
        # (was SD004 info "Not checked", a clean partial diagnosis of a misconfigured server)
        fix = sglang_said_of_call("add --speculative-algorithm EAGLE3 (EAGLE for an EAGLE-2 draft, NEXTN for the "
                                  "target's own MTP layers)", cfg)
        return notes + record(ctx.facts, NS, as_written(cfg, [where(ctx).finding(
            "SD102", [f"the SGLang command sets {', '.join(unused)} but no --speculative-algorithm: SGLang's "
                      "speculative_algorithm defaults to None, and only an algorithm starts a draft worker and "
                      "reads these flags (server_args.py), so " + RUNS_WITHOUT_SPECULATION + " and ignores them"],
            {"source": launch.get("source"), "fix": fix}, title=WITHOUT_SPECULATION_TITLE,
            remediation=f"Make the change the evidence names ({fix}) so the server speculates; then audit the "
                        "command again.")]))
    findings = check_num_steps(cfg, eff, launch.get("trained_steps"), at,
                               trained_source=launch.get("trained_steps_source"),
                               draft_unread=_draft_path_unset(cfg, launch.get("draft_config")),
                               trained_key=_trained_steps_key(launch.get("draft_config")))
    if refused_target:
        # one cause, one finding: a server that does not start (SD102) serves no depth, so SD101's
        # "no MTP module of its own" beside it (at K 1) told of a cap that never runs
        findings = [f for f in findings if f.code != "SD101"]
    unloadable_draft = sglang_speculators_draft(cfg, launch.get("draft_config"), bool(launch.get("server_log_drafts")), at)
    if unloadable_draft:
        # a server that does not start drafts nothing: SD101's cap of its K 1 never runs
        findings = [f for f in findings if f.code != "SD101"] + unloadable_draft
    budget = check_draft_budget(cfg, eff, at)
    if any(f.title == REFUSED_AT_STARTUP or f.severity == "error" for f in budget):
        # the same rule for every refusal (an error one also beside a budget line): a server that
        # does not start drafts nothing, so SD101's "at most one drafted token per round" of its K 1
        # is a cap that never runs
        findings = [f for f in findings if f.code != "SD101"]
    findings += budget
    if refused_draft_word(cfg, version):
        # argparse exits on the draft path's abbreviation (SD102): no draft is loaded to judge
        findings += check_algorithm(replace(cfg, draft_model=None), None, at)
        findings += check_dtype(replace(cfg, draft_model=None), None, target, at)
    else:
        findings += check_algorithm(cfg, launch.get("draft_config"), at, same_checkpoint=_same_checkpoint(launch))
        findings += check_dtype(cfg, launch.get("draft_config"), target, at)
    if not eff.problems:
        # a command the engine refuses at startup (SD102) serves no draft to lose aux states
        findings += check_pipeline_aux_states(cfg, version, launch.get("draft_config"), at)
    return notes + record(ctx.facts, NS, findings)


def speculator_k_by_release(cfg: LaunchConfig, written_k: int | None, served_raw: Any,
                            engine_version: str | None) -> str | None:
    """The line saying that a release before VLLM_SPECULATOR_OVERRIDES_SINCE runs the served
    speculator's own K, not the one the command writes beside it (`vllm serve <speculator>
    --speculative-config '{"num_speculative_tokens": 5}'`, served_speculator). Was: the written K
    was read as run on every release, and nothing said the older ones drop it."""
    own = vllm_served_tokens(served_raw) if isinstance(served_raw, dict) else None
    if cfg.engine != "vllm" or written_k is None or own is None or written_k == own:
        return None
    since = VLLM_SPECULATOR_OVERRIDES_SINCE
    said = f"num_speculative_tokens {written_k} written beside the served speculator {cfg.draft_model}"
    how = ("vllm/transformers_utils/config.py maybe_override_with_speculators; the written keys are laid over the "
           f"speculator's from {since}, vllm-project/vllm#42376")
    if engine_version is None or not vllm_surely_before(engine_version, since):
        # (the release unknown: judged as the newest, which runs the written K, as before)
        return None
    return (f"{said}: vLLM {engine_version} serves the speculator's own speculative config and drops the "
            f"--speculative-config written with it, so it runs {own} speculative tokens, not {written_k} ({how})")


def _engine_release(ctx: Any, cfg: LaunchConfig) -> str | None:
    """The release of the engine that runs the command, None when not known: the host's (the
    engine's auto-chosen defaults and backend rules changed between releases), or a container
    image's tag."""
    engine = ctx.host_facts.get("engine", {})
    version = engine.get("version") if engine.get("name") == cfg.engine else None
    in_image = image_release(cfg.argv, cfg.engine)
    if in_image is None and version is None:
        # vllm/vllm-openai:latest or :nightly: no release number, but no release from before
        # the flags vLLM dropped long ago either (SGLang's rules already take the newest)
        in_image = image_rolling_tag(cfg.argv, cfg.engine)
    if in_image is not None and (version is None or (
            engine.get("server_read") is False and not str(engine.get("version_source") or "").startswith("--var"))):
        # a containerised server: the release is the image's tag, not what the host's Python has
        # (the probe's Python, when the server's own interpreter was not read: a client venv's
        # older vllm judged a vllm/vllm-openai:v0.10.1 server by that release's rules)
        version = in_image
    return version


# "synthetic" came with vllm-project/vllm#38045 (Model Runner V2, opened 2026-03-24; both runners from
# #40662), after 0.17: an older release never simulates (0.9 to 0.13 drop the unknown key and accept for
# real, the others refuse it).
_VLLM_SYNTHETIC_SINCE = "0.18.0"
# SGLang read `SIMULATE_ACC_LEN` (speculative/eagle_utils.py os.environ) until sgl-project/sglang#10771
# moved it to sglang.environ as SGLANG_SIMULATE_ACC_LEN, after 0.5.2: an older release ignores the new name.
_SGLANG_SIMULATE_ENV_SINCE = "0.5.3"
# DFLASH ignored it until sgl-project/sglang#32595 (merged 2026-07-29; 0.5.17 is the first release after).
_SGLANG_DFLASH_SIMULATE_SINCE = "0.5.17"


def simulated_acceptance(cfg: LaunchConfig, engine_version: str | None = None) -> str | None:
    """The line saying this server fakes its acceptance, a benchmark knob left on: what it logs as
    accept length (and the throughput it serves) is the knob's, not the draft's, so an accept length
    of 1 there, or a slowdown, says nothing of the draft, its layers or its vocabulary.

    - SGLang `SGLANG_SIMULATE_ACC_LEN` (python/sglang/srt/environ.py "Runtime simulations":
      EnvFloat(-1), on when > 0): the verify step accepts that many tokens whatever the draft
      proposed (speculative/spec_utils.py `generate_simulated_accept_index`; DFLASH too from
      sgl-project/sglang#32595). Not n-gram speculation (NGRAM, earlier LOOKAHEAD): its verify
      (speculative/ngram_info.py NgramVerifyInput.verify) accepts on the target's logits and never
      reads the variable.
    - vLLM `"rejection_sample_method": "synthetic"` (vllm/config/speculative.py): draft tokens are
      accepted with the probabilities of synthetic_acceptance_rates / synthetic_acceptance_length."""
    since = _SGLANG_DFLASH_SIMULATE_SINCE if cfg.algorithm == "DFLASH" else _SGLANG_SIMULATE_ENV_SINCE
    if cfg.engine == "sglang" and cfg.algorithm not in (None, "NGRAM", "LOOKAHEAD") and (
            engine_version is None or not _sglang_surely_before(engine_version, since)):
        value = cfg.env.get("SGLANG_SIMULATE_ACC_LEN")
        try:
            length = float(value) if value is not None else -1.0
        except ValueError:
            return None  # SGLang's EnvFloat warns and keeps its default, -1: no simulation
        if length > 0:
            return (f"SGLANG_SIMULATE_ACC_LEN={value}: this SGLang server simulates acceptance (a benchmark knob, "
                    f"sglang/srt/environ.py): it forces an accept length of about {length:g} per verify round "
                    "whatever the draft proposes, so the accept length it logs and the speed it serves are the knob's, not the draft's")
    spec = cfg.speculative_config or {}
    if cfg.engine == "vllm" and spec.get("rejection_sample_method") == "synthetic" and (
            engine_version is None or not vllm_surely_before(engine_version, _VLLM_SYNTHETIC_SINCE)):
        given = next((f"{key} {spec[key]}" for key in ("synthetic_acceptance_length", "synthetic_acceptance_rates")
                      if spec.get(key) is not None), "no rate given")
        return ("\"rejection_sample_method\": \"synthetic\": this vLLM server simulates acceptance (a benchmark "
                f"setting, vllm/config/speculative.py; {given}): draft tokens are accepted at the set rates whatever "
                "the draft proposes, so the accept length it logs and the speed it serves are the setting's, not the draft's")
    return None


def _draft_path_unset(cfg: LaunchConfig, draft_raw: Any) -> str | None:
    """Why the draft config was not read when its path holds a variable left as written
    (`--speculative-draft-model-path $DRAFT_MODEL_ID` under a dstack `env: - DRAFT_MODEL_ID`, which
    dstack fills in from `dstack apply -e`; a script's variable set by the caller; `$MODELS/eagle3`,
    a path under one): not "the draft config does not say", which reads as a config read and found
    wanting. Not "unset" either: a one-line `DRAFT=...; vllm serve ...` sets it, and the audit reads
    through only the assignments on lines of their own (launch._with_script_variables).

    A written path whose config.json was not read either (a Hub id the host's caches do not hold, a
    folder the probe could not see, a command audited with no host): that it was not read, not
    "the draft config does not say" (was: said of every draft whose config no one had read)."""
    if draft_raw is not None or not cfg.draft_model:
        return None
    if not _EXPANSION_WORD.search(cfg.draft_model):
        return (f"the draft config of {cfg.draft_model} was not read (its config.json was not found on the host, "
                "or the command was audited without a host), so how many steps the draft was trained for is not known")
    what = "a variable" if _EXPANSION_WORD.fullmatch(cfg.draft_model) else "a path under a variable"
    return (f"the draft path is {cfg.draft_model}, {what} left as written (its value is given where the "
            "server starts: a dstack or compose env entry with no value, the caller of a script, an Argo "
            "parameter the workflow file gives no value, or an assignment the audit does not read through), so "
            "the draft config, which says how many steps it was trained for, was not read")


def _sglang_knobs_without_algorithm(cfg: LaunchConfig) -> list[str]:
    """The speculative flags of an SGLang command with no --speculative-algorithm. SGLang's
    speculative_algorithm defaults to None, and only an algorithm selects a drafter: the EAGLE
    family's rules (auto-choose, the all-three-or-none assertion, the topk 1 rewrite) run under
    `if self.speculative_algorithm in ("EAGLE", "EAGLE3", "STANDALONE")` (sgl-project/sglang
    python/sglang/srt/server_args.py `_handle_speculative_decoding`; arg_groups/speculative_hook.py
    from 0.5.16), so an SD101 or SD102 about their values describes a server that does not run."""
    if cfg.engine != "sglang" or cfg.algorithm is not None:
        return []
    named = (("--speculative-num-steps", cfg.num_steps), ("--speculative-eagle-topk", cfg.topk),
             ("--speculative-num-draft-tokens", cfg.num_draft_tokens),
             ("--speculative-draft-model-path", cfg.draft_model))
    return [flag for flag, value in named if value is not None]
