"""Standalone drafter evaluation with reference and engine semantics (SD401, SD403)."""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.checks.drafter import (
    check_engine_semantics, check_norm_before_residual_fit, check_standalone_accuracy, normalise_accuracy,
)
from spec_debug.diagnose.checks.vocab_maps import check_vocab_report, unsaid_vocab_lines
from spec_debug.diagnose.steps.common import (draft_misfit_line, no_engine_weights_line, not_checked, raised, record,
                                              target_misfit_line, target_mtp_line, where)
from spec_debug.eagle3.engines import VERSION_PROVIDE
from spec_debug.record import Finding

NS = "eval"
KEEP = ("steps", "full_accuracy", "conditional_accuracy", "target_acceptance", "target_conditional_acceptance",
        "expected_accept_length", "samples", "tokens", "reference", "semantics", "engine_version", "norm_flags",
        "layout", "layout_layer_ids", "layout_source", "ignored_norm_flags", "string_norm_flags", "draft_vocab_coverage",
        "embed_source", "device", "dtype", "tokens_per_s", "notes", "skipped_samples", "skipped", "vocab_issues",
        "final_state_post_norm", "unscored_steps", "loss_mask_source", "norm_before_residual_check",
        "unservable_capture", "counts")
ENGINE_CAUSES = ("SD201", "SD202", "SD203", "SD204", "SD601", "SD701")
# the namespaces of the steps that come before this one where the playbook finds the engine
# (launch_flags, engine, configs, hidden_layout): drafter_accuracy has none of them
ENGINE_FINDERS = ("launch", "engine", "configs", "layout")


def _trim(metrics: dict[str, Any] | None) -> dict[str, Any] | None:
    return {k: metrics.get(k) for k in KEEP if k in metrics} if metrics else None


def parse(host: dict[str, Any]) -> dict[str, Any]:
    if host.get("skipped"):
        return {NS: {"skipped": host["skipped"]}}
    if host.get("draft_misfit"):
        return {NS: {"draft_misfit": host["draft_misfit"]}}
    if host.get("target_misfit"):
        return {NS: {"target_misfit": host["target_misfit"]}}
    if host.get("no_engine_weights"):
        return {NS: {"no_engine_weights": host["no_engine_weights"]}}
    args = host.get("args") or {}
    reference = _trim(host.get("reference"))
    facts = {NS: {"reference": reference, "engine": _trim(host.get("engine")),
                  "claimed_accuracy": args.get("claimed_accuracy") or None}}
    if reference and reference.get("full_accuracy"):
        facts["full_accuracy"] = reference["full_accuracy"]  # contract name: the report's acceptance chart
    if host.get("stopped"):
        # the probe was stopped (SIGTERM, SIGHUP) mid-evaluation and returned the scores of
        # the samples scored so far (probes/drafter_eval._stopped)
        facts[NS]["stopped"] = host["stopped"]
        facts[NS]["partial"] = host.get("partial")
    if host.get("engine_version_note"):
        facts[NS]["engine_version_note"] = host["engine_version_note"]
        # the probe says why it could not place the version; it was worked out there once
        facts[NS]["engine_version_provide"] = VERSION_PROVIDE.get(
            host.get("engine_version_problem") or "", VERSION_PROVIDE["unreadable"])
    return facts


def _provide(args: dict[str, Any]) -> str:
    """The vars a skipped evaluation needs, less one given: "Not checked: --var hidden_states=DIR
    --var draft_model=DIR" asked for the hidden states the user had passed."""
    if args.get("hidden_states"):
        return "--var draft_model=DIR (or a server command that names it)"
    return "--var hidden_states=DIR --var draft_model=DIR"


def check(ctx: Any) -> list[Finding]:
    ev = ctx.facts.get(NS, {})
    if ev.get("skipped"):
        # a server drafting with its target's MTP module(s) has no draft directory to pass:
        # the generic line sent its user after one (the configs and vocab steps say it so)
        mtp = target_mtp_line(ctx)
        return [mtp if mtp is not None else not_checked(ctx, ev["skipped"], _provide(ctx.args))]
    if ev.get("draft_misfit"):
        return [draft_misfit_line(ctx, ev["draft_misfit"], "standalone accuracy not measured")]
    if ev.get("target_misfit"):
        return [target_misfit_line(ctx, ev["target_misfit"], "standalone accuracy not measured")]
    if ev.get("no_engine_weights"):
        # recorded: an SD710 error here is said once, the steps after it say they did not run
        return record(ctx.facts, NS, [no_engine_weights_line(ctx, ev["no_engine_weights"],
                                                             "standalone accuracy not measured")])
    at = where(ctx)
    reference, engine = ev.get("reference") or {}, ev.get("engine")
    findings: list[Finding] = []
    if ev.get("engine_version_note"):
        # drafter_accuracy has no engine step: the probe's line about a version the table cannot
        # place (it ran the newest conventions) is said here, once, as the engine step says it
        findings.append(not_checked(ctx, ev["engine_version_note"], ev.get("engine_version_provide")
                                    or VERSION_PROVIDE["unreadable"]))
    if ev.get("stopped"):
        findings.append(not_checked(ctx, f"the evaluation was stopped: {ev['stopped']}",
                                    "an evaluation left to finish (a longer step timeout), or "
                                    "--var max_samples=N"))
    claimed = ev.get("claimed_accuracy") or ctx.vars.get("claimed_accuracy")
    if claimed in (None, ""):
        findings.append(not_checked(ctx, "no claimed validation accuracy to compare the standalone accuracy with",
                                    "--var claimed_accuracy=0.747 (speculators full_acc_0 at validation)"))
    else:
        try:
            claimed_value = normalise_accuracy(claimed)
        except ValueError:
            claimed_value = None
        if claimed_value is None or not 0.0 <= claimed_value <= 1.0:
            # a var such as "full_acc_0: 0.747" or "0.747 (val)" once stopped the whole step
            # ("checking its output failed: ValueError") and its accuracies were lost
            findings.append(not_checked(ctx, f"claimed_accuracy {claimed!r} is not an accuracy: the standalone "
                                             "accuracy was not compared with it",
                                        "--var claimed_accuracy=0.747 (or 74.7%)"))
        else:
            findings += check_standalone_accuracy(reference, claimed_value, at)
    findings += _vocab_findings(ctx, reference, at)
    if not raised(ctx.host_facts, ("SD704",)):
        # the weights fit the other norm_before_residual (the evaluation's check, the layout
        # step's SD704 when it ran first on this host): without it drafter_accuracy PASSED
        # over a draft scoring near zero as configured, the cause in a note alone
        # the engine step's name, else the engine the probe ran (drafter_accuracy has no engine
        # step: with None the line told an SGLang user to edit a flag SGLang never reads)
        served_by = ctx.host_facts.get("engine", {}).get("name") or (engine or {}).get("semantics")
        findings += check_norm_before_residual_fit(reference, served_by, at)
    if not engine and reference and any(ns in ctx.host_facts for ns in ENGINE_FINDERS):
        # the playbook finds the engine (perf_regression; drafter_accuracy's engine is optional):
        # with its engine step skipped or unsure the probe ran the reference only, and the step
        # said "passed: everything this step checks looks healthy", SD403 unmeasured
        findings.append(not_checked(ctx, "engine unknown: the draft was run with the reference "
                                         "semantics only, not the way the engine runs it, so the cost "
                                         "of its divergences was not measured",
                                    "--var engine=sglang|vllm"))
    if engine and not raised(ctx.host_facts, ENGINE_CAUSES):
        findings += _unservable(engine, at)
    if engine:
        engine_name = ctx.host_facts.get("engine", {}).get("name") or engine.get("semantics") or "engine"
        findings += check_engine_semantics(reference, engine, engine_name,
                                           ignored_flags=engine.get("ignored_norm_flags"),
                                           string_flags=engine.get("string_norm_flags"),
                                           root_causes=raised(ctx.host_facts, ENGINE_CAUSES), at=at)
    return record(ctx.facts, NS, findings)


# the vocab step's namespace (vocab_step.NS, whose module imports the drafter's vocab notes)
VOCAB_NS = "vocab"


def _vocab_findings(ctx: Any, reference: dict[str, Any], at: Any) -> list[Finding]:
    """SD301-SD303 from the maps the evaluation read (the probe's vocab_issues, from the same
    checks as `drafter vocab`), when no vocab step ran on this host to say them. The
    drafter_accuracy playbook has no vocab step: a d2t one entry short (vLLM refuses it) or
    sent to other tokens scored target acceptance 0 at every position beside a training-style
    full accuracy of 0.69, and the run said PASSED with no word of the maps."""
    if VOCAB_NS in ctx.host_facts:
        return []  # said there, once
    issues = [i for i in reference.get("vocab_issues") or () if isinstance(i, dict) and i.get("code")]
    if not issues:
        return []
    # less the lines a configs step on this host said from the tensor headers (a playbook with
    # configs and eval and no vocab step, or a vocab probe that failed): its SD303 for a target
    # of another vocabulary was said twice, word for word
    engine = (ctx.host_facts.get("engine") or {}).get("name") or (ctx.facts.get(NS, {}).get("engine") or {}).get(
        "semantics")
    return unsaid_vocab_lines(check_vocab_report({"checks": [{"issues": issues}]}, at, engine), ctx.host_facts)


def _unservable(engine: dict[str, Any], at: Any) -> list[Finding]:
    """SD201 for a capture the engine cannot serve (evaluate_drafter's unservable_capture):
    aux ids past the target's depth, which it never captures. The
    engine run scores the weights on the configured layout, as the reference does, so the two
    agreed and drafter_accuracy (no configs step to raise SD201) PASSED."""
    plan = engine.get("unservable_capture")
    if not isinstance(plan, dict):
        return []
    name = f"{plan.get('engine')} {plan.get('version') or 'latest'}"
    evidence = [f"the draft's aux layer ids ask {name} for layers {plan.get('requested')} (input-to-layer) "
                f"of a {plan.get('num_target_layers')}-layer target; it captures {plan.get('layer_ids')}"]
    if plan.get("unreachable"):
        evidence.append(f"layer(s) {plan['unreachable']} are never captured: a config written for "
                        "another target, or ids past the target's depth")
    fan_in = plan.get("fc_fan_in") or plan.get("num_aux")
    if fan_in is not None and len(plan.get("layer_ids") or []) != fan_in:
        evidence.append(f"its fc takes {fan_in} states and is fed {len(plan.get('layer_ids') or [])}: "
                        f"{plan.get('engine')} fails to run this draft; the accuracies above are the "
                        "weights' on the configured layout, not what it serves")
    return [at.finding("SD201", evidence, {k: plan.get(k) for k in ("requested", "layer_ids", "unreachable")})]

