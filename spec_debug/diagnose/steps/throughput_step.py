"""Throughput model: measured vs baseline (SD501), observed vs predicted accept length (SD502),
and whether speculation can pay off at all with this draft (SD503)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from spec_debug.diagnose.checks.perf import (
    DATA_TOKENS_PREDICTION, EVERY_POSITION_PREDICTION, check_accept_length_gap, check_payoff,
    check_throughput,
)
from spec_debug.diagnose.quantization import experts_in_several_formats, precision_rule, quant_method
from spec_debug.diagnose.serverlog import accept_length_from_counts, parse_server_log
from spec_debug.diagnose.steps.common import (
    EVAL_ACCEPTANCE_CAUSES, QUANTIZATION_FLAGS, SERVING_PATH_CAUSES, launch_flag_value, not_checked,
    per_token_time, raised, record, served_target, tok_s_var, where,
)
from spec_debug.diagnose.throughput import (
    build_model,
    chain_accept_length,
    estimate_draft_cost_ratio,
    quantized_weight_bytes,
)
from spec_debug.diagnose.target_weights import decode_weight_parts, describe
from spec_debug.diagnose.parallel_draft import as_eagle3_config
from spec_debug.eagle3.config import CheckpointError, parse_draft_config, text_config
from spec_debug.record import Finding

NS = "throughput"
# Logs print the accept length rounded to two places (SGLang `accept len: 2.00`).
_LOG_ROUNDING = 0.01


def parse(host: dict[str, Any]) -> dict[str, Any]:
    args = host.get("args") or {}
    stats = parse_server_log("\n".join(host.get("lines") or []))
    baseline, baseline_problem = tok_s_var(args.get("baseline_tok_s"), "baseline_tok_s")
    measured, measured_problem = tok_s_var(args.get("measured_tok_s"), "measured_tok_s")
    source = "--var measured_tok_s" if measured is not None else None
    if measured is None and stats.measured_tok_s:
        measured = stats.measured_tok_s
        source = ("benchmark summary in the server log" if stats.bench.get("output_tok_s")
                  else f"median of {stats.decode_lines} decode lines in the server log")
        if stats.negative_gen_tok_s_lines and not stats.bench.get("output_tok_s"):
            source += "; " + negative_rates_note(asdict(stats))
    scope_problem = None
    if baseline is not None and measured is not None and per_token_time(args.get("baseline_tok_s")):
        if source == "benchmark summary in the server log":
            measured, source, scope_problem = _per_request_measured(stats.bench, measured, source, baseline)
        elif source != "--var measured_tok_s":
            scope_problem = _decode_lines_scope(stats.running_req_mean, measured, baseline)
    facts: dict[str, Any] = {NS: {"server_log": host.get("path"), "server_log_found": bool(host.get("found")),
                                  "server_log_errors": list(host.get("errors") or []),
                                  "server_log_unreadable": host.get("unreadable"),
                                  "log": stats.to_facts(), "baseline_tok_s": baseline,
                                  "measured_tok_s": measured, "measured_source": source,
                                  "var_problems": {k: v for k, v in (("baseline_tok_s", baseline_problem),
                                                                     ("measured_tok_s", measured_problem),
                                                                     ("scope", scope_problem)) if v}}}
    if scope_problem:
        facts[NS]["measured_tok_s"] = measured = None  # no ratio between the two is right
    # Contract names the report's throughput chart reads (spec_debug/report/views.py).
    if measured is not None and baseline is not None:
        facts.update({"measured_tok_s": measured, "baseline_tok_s": baseline})
    return facts


def _per_request_measured(bench: dict[str, Any], measured: float, source: str,
                          baseline: float) -> tuple[float, str, str | None]:
    """The benchmark's measured rate on the scale of a TPOT baseline (one request's decode rate).

    `Output token throughput (tok/s)` of vllm bench serve / sglang.bench_serving counts every
    request's output tokens over the run, about concurrency x one stream's rate, while
    1000 / TPOT is one stream's; the incident's 54.8 vs 90 tok/s set against 16 streams would
    read as a loss or a win that is neither. The summary's own Mean TPOT is the like number;
    without it a run of one request at a time is the same number, and anything else is said,
    not compared. Returns (measured, source, problem)."""
    tpot = bench.get("mean_tpot_ms")
    if isinstance(tpot, (int, float)) and tpot > 0:
        return (1000.0 / tpot, f"1000 / Mean TPOT {tpot:g} ms of the benchmark summary in the server log "
                "(one request's rate, as the TPOT baseline)", None)
    concurrency = bench.get("max_concurrency")
    if _one_stream(bench):
        return measured, source, None
    ran = (f"{concurrency:g} requests at once" if isinstance(concurrency, (int, float))
           else "an unstated number of requests at once")
    return measured, source, (
        f"the baseline is a time per output token (one request's rate, {baseline:.1f} tok/s) while the "
        f"log's benchmark summary gives {measured:.1f} tok/s over all requests ({ran}) and no Mean TPOT: "
        "the two are not compared")


def _one_stream(bench: dict[str, Any]) -> bool:
    """The summary's run decoded one request at a time, so its output throughput is one stream's
    rate: `--max-concurrency 1`, a single request (`--num-prompts 1` at `--request-rate inf`:
    vllm bench serve prints `Maximum request concurrency: None`, vllm/benchmarks/serve.py), or
    sglang bench_one_batch_server's `batch size: 1` (python/sglang/bench_one_batch_server.py,
    whose output throughput is that batch's decode rate)."""
    return 1 in (bench.get("max_concurrency"), bench.get("successful_requests"), bench.get("batch_size"))


# A log whose decode lines ran this many requests at once on average (#running-req, vLLM's
# "Running: N reqs") gives their sum, not one stream's rate.
_ONE_STREAM = 1.5


def _decode_lines_scope(running: float | None, measured: float, baseline: float) -> str | None:
    """SGLang's `gen throughput (token/s)` and vLLM's `Avg generation throughput` count the
    tokens of every running request (sglang scheduler_metrics_mixin.py log_decode_stats, vllm
    v1/metrics/loggers.py): against a TPOT baseline, one request's rate, only a log of one
    request at a time compares. Unknown concurrency compares as before."""
    if running is None or running < _ONE_STREAM:
        return None
    return (f"the baseline is a time per output token (one request's rate, {baseline:.1f} tok/s) while the "
            f"log's decode lines give {measured:.1f} tok/s over all running requests ({running:g} at once on "
            "average): the two are not compared")


def acceptance_rates(metrics: dict[str, Any] | None) -> list[float]:
    """Per-position conditional acceptance against the target's own argmax (what a server
    verifies), falling back to the draft-vocabulary accuracy when the target head was absent."""
    if not metrics:
        return []
    if metrics.get("reference") == "target_argmax" and metrics.get("target_conditional_acceptance"):
        rates = list(metrics["target_conditional_acceptance"])
    else:
        rates = list(metrics.get("conditional_accuracy") or [])
    # Steps deeper than every sample hold 0.0 meaning "not scored" (evaluate.unscored_steps):
    # read as rates they cut the predicted chain there; the scored ones end the list instead,
    # and chain_accept_length carries the last of them on.
    unscored = [k for k in metrics.get("unscored_steps") or () if isinstance(k, int) and k >= 0]
    return rates[:min(unscored)] if unscored else rates


def _valid_rates(rates: list[float], whose: str) -> tuple[list[float], str | None]:
    """`rates` if every one is a probability, else none and the line that says which is not
    (a NaN once read as 0 and predicted a draft that never hits; now the model is not fed it)."""
    bad = [f"step {k}: {rate!r}" for k, rate in enumerate(rates)
           if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 <= rate <= 1.0]
    if not bad:
        return rates, None
    return [], (f"the {whose} acceptance rates are not all probabilities ({', '.join(bad[:3])}): no accept "
                "length is predicted from them")


def verified_depth(effective: dict[str, Any]) -> int | None:
    """How deep an accepted path can go: the drafted steps, unless the verify budget is smaller.

    SGLang verifies the (draft tokens - 1) best tree nodes, a set closed under ancestors, so
    no path longer than draft tokens - 1 is ever verified (launch.effective_spec says so as an
    SD102 problem); the chain prediction must stop there too, or a healthy tree server is
    reported as losing acceptance (SD502). The best (draft tokens - 1) nodes hold at least as
    much acceptance as the chain of that many nodes, so the chain of that depth stays a lower
    bound for the tree. One draft token is the root alone (SGLang topk > 1 keeps it as written):
    depth 0, nothing drafted is ever verified."""
    steps, tokens = effective.get("num_steps"), effective.get("num_draft_tokens")
    if not steps:
        return steps
    if isinstance(tokens, int) and tokens >= 1:
        return min(steps, tokens - 1)
    return steps


# SGLang's block drafters run the draft model once per round over the whole verify block
# (`self.draft_model_runner.forward(forward_batch)` once in DFlashWorkerV2.forward_batch_generation,
# sgl-project/sglang python/sglang/srt/speculative/dflash_worker_v2.py; once in
# dspark_components/dspark_draft.py) and propose its (draft tokens - 1) positions from it;
# `--speculative-num-steps` is forced to 1 (arg_groups/speculative_hook.py `_handle_dflash`,
# `_handle_dspark`, 0.5.23).
SGLANG_BLOCK_DRAFTERS = ("DFLASH", "DSPARK")


# vLLM drafts in parallel, one draft forward pass per round for all K tokens, with method dflash
# or dspark (SpeculativeConfig.__post_init__ sets `parallel_drafting = True` for them) and with
# `"parallel_drafting": true` on any method: P-EAGLE for eagle3, PARD for draft_model
# (vllm-project/vllm PR #32887 "Unified Parallel Drafting", v0.16.0; the table of
# vllm/config/speculative.py `max_num_new_slots_for_drafting`). A speculators checkpoint of type
# `peagle` is served as eagle3 with parallel_drafting on
# (vllm/transformers_utils/configs/speculators/base.py `build_vllm_speculative_config`).
VLLM_PARALLEL_METHODS = ("DFLASH", "DSPARK")


def _vllm_parallel_drafting(launch: dict[str, Any]) -> bool:
    spec = launch.get("speculative_config") or {}
    flag = spec.get("parallel_drafting") if isinstance(spec, dict) else None
    # pydantic's lax bool, as SpeculativeConfig validates it: true, 1, "true", "1", "yes", "on"
    if flag is True or (isinstance(flag, (int, float)) and flag == 1) or (
            isinstance(flag, str) and flag.strip().lower() in ("true", "1", "yes", "on", "t", "y")):
        return True
    draft = launch.get("draft_config") or {}
    return isinstance(draft, dict) and draft.get("speculators_model_type") == "peagle"


def block_drafter(launch: dict[str, Any], log: dict[str, Any]) -> bool:
    """The served drafter proposes its whole block in one draft pass (SGLang DFLASH/DSPARK, vLLM
    dflash/dspark and parallel drafting), by the launch command or else by the algorithm the
    server printed at startup."""
    served = log.get("served") or {}
    engine = launch.get("engine") if launch.get("algorithm") else served.get("engine")
    algorithm = str(launch.get("algorithm") or served.get("algorithm") or "").upper()
    if engine == "sglang":
        return algorithm in SGLANG_BLOCK_DRAFTERS
    if engine == "vllm" and algorithm in VLLM_PARALLEL_METHODS:
        return True
    # `vllm serve <peagle speculator>` names no method on its command line
    return launch.get("engine") == "vllm" and _vllm_parallel_drafting(launch)


def draft_cost(host_facts: dict[str, Any]) -> float | None:
    return draft_cost_from_configs(*served_configs(host_facts))


# Online FP8: a bf16 checkpoint served with `--quantization fp8` is quantized as it loads, its
# Linear weights read at one byte (SGLang docs "Quantization", online quantization; vLLM
# `--quantization fp8`, `-q`, and ROCm's `ptpc_fp8`). The target takes --quantization; the draft
# keeps bf16 unless SGLang's --speculative-draft-model-quantization names one
# (model_config.py `from_server_args`: the draft's quantization is that flag; vLLM loads the
# draft unquantized, vllm-project/vllm#40849).
_ONLINE_FP8 = ("fp8", "fp8_per_tensor", "ptpc_fp8")


def served_configs(host_facts: dict[str, Any]) -> tuple[Any, Any]:
    """(draft config, target config) as the server loads them: the launch line's
    --hf-overrides / --json-model-override-args merged into the target's (a GLM-5 or
    DeepSeek-V3.2 index_topk_pattern given there decides which layers run an indexer), and a
    bf16 checkpoint the launch command quantizes online gets that quantization_config."""
    configs = host_facts.get("configs", {})
    draft, target = configs.get("draft_config"), configs.get("target_config")
    argv = (host_facts.get("launch") or {}).get("argv") or []
    target = served_target(target, host_facts)  # the vLLM release decides whether `32K` is a number
    online = (("target", QUANTIZATION_FLAGS), ("draft", ("--speculative-draft-model-quantization",)))
    served = {"draft": draft, "target": target}
    for role, names in online:
        method = (launch_flag_value(list(argv), names) or "").lower()
        config = served[role]
        if method in _ONLINE_FP8 and isinstance(config, dict) and not isinstance(config.get("quantization_config"), dict):
            served[role] = {**config, "quantization_config": {"quant_method": "fp8", "online": f"{names[0]} {method}"}}
    return served["draft"], served["target"]


def _method_label(quant: Any) -> str | None:
    """'fp8', or 'fp8 (online: --quantization fp8)' for a checkpoint the server quantizes."""
    method = quant_method(quant)
    return f"{method} (online: {quant['online']})" if isinstance(quant, dict) and quant.get("online") else method


def target_weights_line(host_facts: dict[str, Any]) -> str | None:
    """How c counted a quantized target's weights, for the evidence (None: bf16 like the draft)."""
    draft_raw, target_raw = served_configs(host_facts)
    target = _target_text(target_raw) if isinstance(target_raw, dict) else None
    quant = draft_quantization(draft_raw)
    draft = (f"the draft's {_method_label(quant)} weights at their own bytes" if quant
             else "the bf16 draft's at 2")
    per_weight = quantized_weight_bytes(target) if target else None
    if per_weight is not None:
        method = _method_label(target["quantization_config"])
        return (f"the target's {method} decoder weights counted at {per_weight:g} byte(s) each, {draft} "
                "(decode reads bytes)")
    try:
        # mixed precision (INT4 routed experts next to bf16 attention, MXFP4 gpt-oss experts):
        # each part at its own bytes, named so the reader can check c against the checkpoint
        parts = describe(decode_weight_parts(target)) if target else None
    except (KeyError, TypeError, ValueError):
        parts = None
    if parts is None:
        return f"the bf16 target's weights at 2 bytes each, {draft} (decode reads bytes)" if quant else None
    method = _method_label(target.get("quantization_config"))
    return f"the target's {method} weights counted part by part, in bytes per weight: {parts}; {draft} (decode reads bytes)"


def experts_vllm_cannot_load(host_facts: dict[str, Any]) -> str | None:
    """A note for a vLLM server's ModelOpt MIXED_PRECISION target whose experts of one MoE layer are
    stored in more than one format (ModelOpt auto_quantize picks each expert's, or each
    projection's): vLLM makes a fused MoE layer's experts in one format and cannot load the others
    (quantization.experts_in_several_formats), so the throughput model's numbers, which count the
    experts at their bytes, are for a server that vLLM as its source reads does not start. A note
    of the step, not a finding: it is read from vLLM's source, not seen on the host (a server that
    runs loaded it, a fork or a version of its own), and no catalog code says it."""
    engine = (host_facts.get("engine") or {}).get("name") or (host_facts.get("launch") or {}).get("engine")
    _, target_raw = served_configs(host_facts)
    if engine != "vllm" or not isinstance(target_raw, dict):
        return None
    target = _target_text(target_raw) or target_raw
    mixed = experts_in_several_formats(target.get("quantization_config"))
    if not mixed:
        return None
    block, leaves = next(iter(mixed.items()))

    def formats(tally: dict[str, int]) -> str:
        if len(tally) == 1:
            return next(iter(tally))
        return ", ".join(f"{algo} on {count:,}" for algo, count in sorted(tally.items(), key=lambda kv: -kv[1]))

    said = "; ".join(f"{leaf} {formats(tally)}" for leaf, tally in leaves.items())
    return (f"the target's routed experts of {len(mixed):,} MoE layer(s) are stored in more than one format "
            f"({block}: {said}): vLLM makes a MoE layer's experts in one format, that of the first "
            "quantized_layers entry under the layer (modelopt.py ModelOptMixedPrecisionConfig), and cannot load "
            "an expert or projection saved in another, so this checkpoint fails to load there as exported; "
            "the throughput numbers count the experts at their mean bytes per weight as if it loaded")


def _target_text(target_raw: dict[str, Any]) -> dict[str, Any] | None:
    """The target's language-model config as the cost model reads it, with the wrapper's
    quantization_config where only the top level has one."""
    try:
        # the language model's config as the drafter reads it: nested one level deeper in
        # Qwen2.5/3-Omni (thinker_config.text_config), with the class defaults a diff-saved
        # text_config left out (config.text_config)
        target = dict(text_config(target_raw, "target config.json"))
    except CheckpointError:
        return None
    if "quantization_config" not in target and isinstance(target_raw.get("quantization_config"), dict):
        # a multimodal wrapper's quantization_config sits at its top level and covers the
        # language model too (the weights read per step: throughput.quantized_weight_bytes)
        target["quantization_config"] = target_raw["quantization_config"]
    return target


def draft_quantization(draft_raw: dict[str, Any] | None) -> dict[str, Any] | None:
    """A quantized draft's quantization_config: at the top of its config.json (as ModelOpt and
    llm-compressor write it), or in a speculators config's transformer_layer_config."""
    if not isinstance(draft_raw, dict):
        return None
    layer = draft_raw.get("transformer_layer_config")
    for quant in (draft_raw.get("quantization_config"),
                  layer.get("quantization_config") if isinstance(layer, dict) else None):
        if isinstance(quant, dict) and precision_rule(quant) is not None:
            return quant
    return None


def draft_cost_from_configs(draft_raw: dict[str, Any] | None, target_raw: dict[str, Any] | None) -> float | None:
    """c = T_draft / T_target estimated from the two config.json files (weights read per pass)."""
    if not draft_raw or not target_raw:
        return None
    try:
        cfg = parse_draft_config(as_eagle3_config(draft_raw))  # a P-EAGLE draft has EAGLE-3's shapes
        decoder: dict[str, Any] | None = {
            "hidden_size": cfg.hidden_size, "intermediate_size": cfg.intermediate_size,
            "num_attention_heads": cfg.num_heads, "num_key_value_heads": cfg.num_kv_heads,
            "head_dim": cfg.head_dim, "num_hidden_layers": cfg.num_layers, "draft_vocab_size": cfg.draft_vocab_size}
        num_aux = cfg.num_aux
    except CheckpointError:
        # the drafter runs llama/qwen3 drafts only, but the cost needs only the shapes
        decoder, num_aux = mla_draft_decoder(draft_raw)
    target = _target_text(target_raw)
    if target is None or decoder is None:
        return None
    try:
        return estimate_draft_cost_ratio(draft_config=decoder, target_config=target, num_aux=num_aux,
                                         draft_quantization=draft_quantization(draft_raw))
    except (KeyError, TypeError, ValueError):
        return None


def mla_draft_decoder(draft_raw: dict[str, Any]) -> tuple[dict[str, Any] | None, int]:
    """(decoder shapes, aux count) of an MLA EAGLE-3 draft, else (None, 3).

    vLLM's Eagle3DeepseekV2ForCausalLM (model_executor/models/deepseek_eagle3.py; the
    Kimi-K2.5/K2.6 eagle3-mla heads, `model_type` deepseek_v3) is a DeepSeek-V3 config with one
    or more MLA layers and a dense MLP of `intermediate_size`; fc takes `num_aux_hidden_states`
    (else as many as eagle_config.eagle_aux_hidden_state_layer_ids, else 3) states of
    `target_hidden_size`; lm_head has `draft_vocab_size` rows, else `vocab_size`."""
    archs = " ".join(str(a) for a in draft_raw.get("architectures") or [])
    if not draft_raw.get("kv_lora_rank") or "Eagle3" not in archs:
        return None, 3
    eagle = draft_raw.get("eagle_config") if isinstance(draft_raw.get("eagle_config"), dict) else {}
    ids = eagle.get("eagle_aux_hidden_state_layer_ids")
    num_aux = draft_raw.get("num_aux_hidden_states")
    if not isinstance(num_aux, int) or isinstance(num_aux, bool) or num_aux < 1:
        num_aux = len(ids) if isinstance(ids, list) and ids else 3
    keys = ("hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers", "kv_lora_rank",
            "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "vocab_size", "draft_vocab_size")
    return {key: draft_raw.get(key) for key in keys if draft_raw.get(key) is not None}, num_aux


def _at_served_steps(served_steps: int | None) -> str:
    """What the served step count says beside the log's accept length. None: neither the
    launch command nor the log's startup line was read ("at None step(s)" read as a number);
    0: the settings read draft nothing, yet the log measured rounds that did ("at 0 step(s)"
    read as if the accept length were of zero drafted tokens)."""
    if served_steps is None:
        return " (served steps unknown: no launch command or startup line of the server says them)"
    if served_steps == 0:
        return (" (the settings read say 0 draft steps, i.e. speculation off, yet the log measured "
                "speculative rounds: the log is of another run or settings than the command read)")
    return f" at {served_steps} step(s)"


def numbers(observed: float | None, predicted: float | None, served_steps: int | None, best: float | None,
            best_steps: int | None, model: dict[str, Any], weights: str | None = None,
            depth: int | None = None) -> list[str]:
    """The acceptance side of a throughput finding, in one place for the report. `depth`: the
    verified depth `predicted` is computed for, when the verify budget cuts it below the served
    steps (verified_depth)."""
    lines = []
    if observed is not None:
        lines.append(f"accept length in the server log: {observed:.2f}{_at_served_steps(served_steps)}")
    if predicted is not None:
        # the chain stops at the verified depth: "at the served 5 step(s)" of a 2-deep
        # prediction read as the drafter's whole worth at 5 steps
        at = (f"for the {depth} verified depth(s) of the served {served_steps} step(s)"
              if depth is not None and depth != served_steps else f"at the served {served_steps} step(s)")
        lines.append(f"standalone drafter predicts {predicted:.2f} {at}"
                     + (f" and {best:.2f} at its trained {best_steps} steps" if best is not None else ""))
    if model.get("break_even_accept_length") is not None:
        lines.append(f"throughput model: a draft pass costs c = {model['draft_cost_ratio']:.2f} target steps "
                     f"(from the configs{'; ' + weights if weights else ''})"
                     + (f", each round {model['round_overhead']:.2f} more (measured)"
                        if model.get("round_overhead") is not None else "")
                     + f"; break-even accept length {model['break_even_accept_length']:.2f}")
    if model.get("predicted_tok_s_best") is not None and model.get("baseline_tok_s"):
        lines.append(f"fixed (trained {model['best_steps']} steps, the drafter's standalone acceptance): "
                     f"predicted {model['predicted_tok_s_best']:.1f} tok/s = "
                     f"{model['predicted_tok_s_best'] / model['baseline_tok_s']:.2f}x the baseline")
    return lines


# sgl-project/sglang server_args.py `_handle_speculative_decoding` (arg_groups/
# speculative_hook.py in newer releases): with EAGLE/EAGLE3/STANDALONE and no
# --max-running-requests, "Max running requests is reset to 48 for speculative decoding"
# (32 in early 0.4.x, sgl-project/sglang issue #4286: only concurrency above 48 is called out).
SGLANG_SPEC_MAX_RUNNING = 48


def _names_max_running(tok: str) -> bool:
    """`--max-running-requests N`, `=N`, or an abbreviation argparse expands to it
    (`--max-running 128`; SGLang's parser keeps allow_abbrev on)."""
    name = tok[2:].partition("=")[0] if tok.startswith("--") else ""
    return len(name) >= len("max-running") and "max-running-requests".startswith(name)


def request_cap_line(launch: dict[str, Any], log: dict[str, Any]) -> str | None:
    """Why a speculative SGLang server can lose to its baseline at high concurrency: it runs at
    most 48 requests at once unless told otherwise, while the baseline runs them all."""
    argv = launch.get("argv") or []
    if launch.get("engine") != "sglang" or not (launch.get("effective") or {}).get("num_steps"):
        return None
    if any(_names_max_running(tok) for tok in argv):
        return None
    concurrency = (log.get("bench") or {}).get("max_concurrency")
    running = log.get("running_req_mean")
    seen = (f"the benchmark ran {concurrency:g} requests at once" if concurrency and concurrency > SGLANG_SPEC_MAX_RUNNING
            else f"the server log shows {running:g} running requests on average"
            if running and running >= SGLANG_SPEC_MAX_RUNNING - 0.5 else None)
    if seen is None:
        return None
    return (f"SGLang caps a speculative server at {SGLANG_SPEC_MAX_RUNNING} running requests when "
            f"--max-running-requests is not given, and {seen}: the rest queue, which a baseline without "
            "speculation does not do (set --max-running-requests, or compare at the same concurrency)")


def served_settings(launch: dict[str, Any], log: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The speculative settings the model is computed for: the audited launch command's, or,
    when no command was read, the ones the server printed at startup (SGLang's
    ``server_args=ServerArgs(...)``, vLLM's ``speculative_config=SpeculativeConfig(...)``, read
    by :func:`spec_debug.diagnose.serverlog.served_settings`); the second value says so."""
    effective = launch.get("effective") or {}
    served = log.get("served") or {}
    # a DFLASH command that sets no block leaves it to the draft's config at startup, which the
    # log's startup line prints (launch.draft_block_size): the command alone does not say it
    unknown_block = (launch.get("engine") == "sglang" and launch.get("algorithm") in SGLANG_BLOCK_DRAFTERS
                     and not effective.get("num_draft_tokens") and served.get("num_draft_tokens"))
    if (effective.get("num_steps") and not unknown_block) or not served.get("num_steps"):
        return effective, None
    settings = {key: served.get(key) for key in ("num_steps", "topk", "num_draft_tokens")}
    return settings, (f"speculative settings from the server log's startup line ({served.get('engine')}: "
                      f"{served['num_steps']} step(s), topk {served.get('topk')}, "
                      f"{served.get('num_draft_tokens')} draft tokens): "
                      + ("the launch command leaves the verify block to the draft's config" if unknown_block
                         and effective.get("num_steps") else "no launch command was read"))


def launch_spec_tokens(launch: dict[str, Any], log: dict[str, Any]) -> int | None:
    """K (num_speculative_tokens) of the audited vLLM launch command, for a log whose metric
    lines give only counts (vLLM 0.8.x) and which has no startup line of its own to say K (the
    startup line wins: the log's counts were made at its K). None for a K schedule
    (num_speculative_tokens_per_batch_size), whose K varies with the batch."""
    served = log.get("served") or {}
    if log.get("engine") != "vllm" or launch.get("engine") != "vllm" or served.get("engine") == "vllm":
        return None
    if "num_speculative_tokens_per_batch_size" in (launch.get("speculative_config") or {}):
        return None
    k = launch.get("num_steps")
    return k if isinstance(k, int) and k > 0 else None


def _missing_log(tp: dict[str, Any]) -> str | None:
    """Why a server log the user named was not read, when it is no file on the host (a typo, a
    path on another host, a directory): the step said "Not checked: --var measured_tok_s=N or
    --var server_log=PATH" to a user who had passed --var server_log. None otherwise."""
    path = tp.get("server_log")
    if not path or tp.get("server_log_found") or tp.get("server_log_unreadable"):
        return None
    return f"the server log {path} is no file on this host"


def _no_numbers_in_log(tp: dict[str, Any]) -> str | None:
    """Why a server log that was read gave no throughput: it ends in an error (the server did not
    load its draft, or died), or it has no decode/metric lines at all. Asking for a server log the
    user already gave sent them looking for the wrong thing."""
    log = tp.get("log") or {}
    if not tp.get("server_log_found") or log.get("decode_lines") or log.get("spec_metric_lines"):
        return None
    errors = tp.get("server_log_errors") or []
    if errors:
        # the last few: vLLM's last line is the generic "Engine core initialization failed. See root
        # cause above", the cause a line or two before it
        shown = " / ".join(f"`{line}`" for line in dict.fromkeys(errors))
        return (f"the server log {tp.get('server_log')} has no throughput numbers and ends in an error: {shown}: "
                "the server failed to start (often loading the draft) or died before serving")
    return (f"the server log {tp.get('server_log')} has no throughput numbers (no SGLang `Decode batch` or vLLM "
            "`Avg generation throughput` lines, no benchmark summary): is it the speculative server's own log, "
            "at the default log level?")


def negative_rates_note(log: dict[str, Any]) -> str | None:
    """The sentence for a log whose lines gave negative gen throughputs (left out by
    serverlog.parse_server_log); None when it has none."""
    count = log.get("negative_gen_tok_s_lines")
    if not count:
        return None
    shown = ", ".join(f"{v:g}" for v in log.get("negative_gen_tok_s") or [])
    lines = "Decode batch" if log.get("engine") == "sglang" else "throughput"
    return (f"{count} {lines} line(s) of the server log give a negative gen throughput ({shown} tok/s): "
            "no decode rate is negative (a clock step between log intervals, or a corrupted line), "
            "so they are left out of the measured throughput")


def check(ctx: Any) -> list[Finding]:
    tp = ctx.facts.get(NS, {})
    at = where(ctx)
    log = tp.get("log") or {}
    findings: list[Finding] = []
    baseline, measured, source = tp.get("baseline_tok_s"), tp.get("measured_tok_s"), tp.get("measured_source")
    problems = tp.get("var_problems") or {}
    if baseline is None:
        findings.append(not_checked(ctx, problems.get("baseline_tok_s") or "no baseline throughput without speculation",
                                    "--var baseline_tok_s=N (decode tok/s of the same server without speculation)"))
    if problems.get("scope") and baseline is not None:
        findings.append(not_checked(ctx, problems["scope"],
                                    "--var baseline_tok_s=N (the benchmark's Output token throughput without "
                                    "speculation, at the same concurrency) or --var measured_tok_s=\"T ms/tok\" "
                                    "(its Mean TPOT with speculation)"))
    elif measured is None:
        unreadable = tp.get("server_log_unreadable") or _missing_log(tp)
        negative = None if tp.get("log", {}).get("gen_tok_s_median") is not None else negative_rates_note(log)
        findings.append(not_checked(ctx, problems.get("measured_tok_s") or _no_numbers_in_log(tp) or
                                    (f"no measured throughput with speculation: {negative}" if negative else None) or
                                    (f"no measured throughput with speculation: {unreadable}" if unreadable
                                     else "no measured throughput with speculation"),
                                    "--var server_log=PATH (a file on this host) or --var measured_tok_s=N"
                                    if _missing_log(tp) else "--var measured_tok_s=N or --var server_log=PATH"))
    elif _missing_log(tp):
        findings.append(not_checked(ctx, f"{_missing_log(tp)}: the accept length it logs is not compared",
                                    "--var server_log=PATH (a file on this host)"))
    elif tp.get("server_log_unreadable"):
        # the throughput came from --var measured_tok_s, but the log named beside it was not
        # read: the accept length and settings it logs go unchecked, which is said, not skipped
        findings.append(not_checked(ctx, f"{tp['server_log_unreadable']}: the accept length it logs is not compared",
                                    "run as the user that can read the log (or copy it where this one can)"))
    launch = ctx.host_facts.get("launch", {})
    evals = ctx.host_facts.get("eval", {})
    effective, settings_source = served_settings(launch, log)
    block = block_drafter(launch, log)
    served_steps = effective.get("num_steps")
    depth = verified_depth(effective)
    if block:
        # its num_steps is 1 by rule; what a round drafts is the block after the anchor token
        tokens = effective.get("num_draft_tokens")
        served_steps = depth = tokens - 1 if isinstance(tokens, int) and tokens >= 2 else None
    reference = evals.get("reference")
    rates, bad_rates = _valid_rates(acceptance_rates(reference), "standalone evaluation's")
    engine_rates, bad_engine = _valid_rates(acceptance_rates(evals.get("engine")), "engine-semantics evaluation's")
    for bad in (bad_rates, bad_engine):
        if bad:
            findings.append(not_checked(ctx, bad, "rerun the drafter evaluation (drafter_accuracy) on this host"))
    best_steps = (reference or {}).get("steps") or len(rates) or None
    # depth 0 with steps served (a verify budget of the root alone) predicts 1.00, not nothing
    predicted = chain_accept_length(rates, steps=depth) if rates and (depth or served_steps) else None
    best = chain_accept_length(rates, steps=best_steps) if rates and best_steps else None
    engine_predicted = (chain_accept_length(engine_rates, steps=depth)
                        if engine_rates and (depth or served_steps) else None)
    observed = log.get("accept_length")
    observed_note = None
    if observed is None and (launch_k := launch_spec_tokens(launch, log)) is not None:
        observed = accept_length_from_counts(log.get("accepted_tokens") or 0, log.get("drafted_tokens") or 0,
                                             launch_k)
        if observed is not None:
            observed_note = (f"accept length from the log's accepted/drafted token counts with K = {launch_k} "
                             "(num_speculative_tokens) of the launch command: the log has no startup line "
                             "that says K")
    if observed is not None and observed < 1:
        # every verify round emits at least the target's own token, so an accept length below 1
        # is no accept length: a log of rounds that drafted nothing, or another number
        findings.append(not_checked(ctx, f"the log's accept length {observed:g} is below 1, which no speculative "
                                         "round produces (the target always adds its own token): not used",
                                    "--var server_log=PATH of the speculative server's own log"))
        observed = None
    if observed is not None and depth and observed > depth + 1 + _LOG_ROUNDING:
        # (0 steps drafted, or the root alone verified, have their own lines below)
        # a round accepts at most the verified depth of drafted tokens plus the target's own
        # token (EAGLE3.md section 7), so a larger number was measured on other settings: a log
        # of another run or another server than the settings audited (was: "3.40 at 1 step(s)",
        # and a draft cost inferred from it)
        findings.append(not_checked(ctx, f"the log's accept length {observed:g} is above {depth + 1}, the most a "
                                         f"round verifying {depth} drafted token(s) can give: the log and the "
                                         "audited settings are not of the same server; not used",
                                    "--var server_log=PATH of the log of the server the launch command started"))
        observed = None
    model = build_model(steps=served_steps or best_steps or 1, draft_cost_ratio=draft_cost(ctx.host_facts),
                        predicted_accept_length=predicted, observed_accept_length=observed,
                        baseline_tok_s=baseline, measured_tok_s=measured,
                        best_accept_length=best, best_steps=best_steps, block_drafter=block,
                        steps_known=bool(served_steps))
    if block:
        model.notes.append("block drafter (SGLang DFLASH/DSPARK, vLLM dflash/dspark or parallel_drafting): the "
                           "whole block is drafted in one draft pass, so a round costs 1 + c target steps, not 1 + K*c")
    if settings_source:
        model.notes.append(settings_source)
    if log.get("earlier_runs_skipped"):
        # serverlog.parse_server_log: a log appended to across restarts
        model.notes.append(f"the server log holds {log.get('server_starts')} server startups: only the numbers of the "
                           f"last run that logged any are read ({log['earlier_runs_skipped']} earlier run(s) with "
                           "numbers of their own are left out, their servers may have run other settings)")
    if observed_note:
        model.notes.append(observed_note)
    # acceptance scored at every position (the eval read no loss mask), or against the data's
    # next tokens (no target head): not what a server verifies, said wherever the prediction
    # is used (SD502 is a warning then)
    unlike = [line for line, why in (
        (EVERY_POSITION_PREDICTION, (reference or {}).get("loss_mask_source") == "none"),
        (DATA_TOKENS_PREDICTION, (reference or {}).get("reference") == "data_tokens")) if why and rates]
    model.notes += unlike
    unloadable = experts_vllm_cannot_load(ctx.host_facts)
    if unloadable:
        model.notes.append(unloadable)
    topk = effective.get("topk")
    if topk and topk > 1:
        # Siblings add acceptance a chain does not have (EAGLE3.md section 7): with topk > 1 the
        # chain prediction is a lower bound, so a gap below it is still a real gap.
        model.notes.append(f"topk {topk}: the served tree accepts at least the chain prediction"
                           + (f" over the {depth} verified depth(s)" if depth != served_steps else ""))
    if not block and depth == 0 and served_steps:
        model.notes.append(f"{served_steps} steps are drafted but only the root is verified (1 draft token): no "
                           "round accepts a drafted token, so the prediction is an accept length of 1")
    elif not block and depth is not None and served_steps is not None and depth < served_steps:
        model.notes.append(f"{served_steps} steps are drafted but only {depth + 1} draft tokens are verified: "
                           f"no round accepts more than {depth} drafted token(s), so the prediction is "
                           f"for a chain of {depth}")
    tp["model"] = model.to_facts()
    tp.update({"served_steps": served_steps, "best_steps": best_steps,
               "predicted_accept_length_reference": predicted, "predicted_accept_length_engine": engine_predicted,
               "best_accept_length": best, "observed_accept_length": observed})
    if model.predicted_tok_s_best is not None:
        ctx.facts["predicted_tok_s"] = round(model.predicted_tok_s_best, 2)  # the report's "predicted (fixed)"
    all_causes = raised(ctx.host_facts, SERVING_PATH_CAUSES)
    context = numbers(observed, predicted, served_steps, best, best_steps, model.to_facts(),
                      weights=target_weights_line(ctx.host_facts), depth=depth)
    cap = request_cap_line(launch, log)
    if cap is not None:
        context.append(cap)
    if unloadable:
        context.append(unloadable)
    if predicted is not None:
        context += unlike
    findings += check_throughput(measured, baseline, source=source, at=at, root_causes=all_causes, context=context)
    causes = [c for c in all_causes if c != "SD101"]
    findings += check_accept_length_gap(observed, predicted, depth, root_causes=causes,
                                        unlike=unlike, at=at)
    candidates = [x for x in (best, observed) if x is not None]
    # The causes that lower the acceptance payoff is judged at: the standalone evaluation's (best)
    # runs the checkpoint as configured, on the served layout, with its vocab map, so a config its
    # weights contradict (SD704: the layout probe's norm_before_residual measurement), a better
    # layout (SD402) or a wrong map (SD302/SD303) lowers it; the server's (observed) is lowered by
    # every serving-path cause. Was an SD503 warning, "no amount of debugging will make it pay",
    # beside the SD704 that explained the low acceptance.
    judged = max(candidates) if candidates else None
    payoff_causes = raised(ctx.host_facts, EVAL_ACCEPTANCE_CAUSES if judged == best else SERVING_PATH_CAUSES)
    # judged at the steps it was measured at: the log's accept length at the served steps (was:
    # at the evaluation's trained steps, so 1.50 measured at 1 step read "at 7 step(s)
    # break-even needs 1.70" and SD503 said a draft that pays off at 1 step never can)
    payoff_steps = best_steps if judged == best else (served_steps or best_steps)
    findings += check_payoff(model, judged, payoff_steps, root_causes=payoff_causes, at=at)
    return record(ctx.facts, NS, findings)
