"""Hidden-state layout: the engine's capture convention, then (with data) the layout probe and
the embedding-slot check, and (with a serving dump) the layers the server really captured."""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.checks.common import explained_by
from spec_debug.diagnose.checks.drafter import check_embedding_slot, check_layout, check_norm_before_residual_fit
from spec_debug.diagnose.checks.layers import analyse_layers, check_aux_layers
from spec_debug.eagle3.engines import target_architecture
from spec_debug.diagnose.steps.common import (draft_misfit_line, launch_quantization, no_engine_weights_line,
                                              not_checked, raised, record, served_target, target_misfit_line,
                                              target_mtp_line, where)
from spec_debug.eagle3.config import use_aux_hidden_state
from spec_debug.eagle3.layout_report import SERVED_FIELDS, report_fields
from spec_debug.record import Finding
from spec_debug.runner.runner_findings import runner_finding

NS = "layout"
LAYER_CODES = ("SD201", "SD202", "SD203")
TOP = 8


# How the layout verdict says two aux slots of the configured layout hold one layer
# (eagle3/api.py REPEATED_SLOTS, not imported: that module needs torch)
REPEATED_SLOTS = "one layer captured twice"


def _convention_lines(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for row in rows:
        span = f"{row.get('since') or '...'} to {row.get('until') or 'now'}"
        est = " (version estimated)" if row.get("version_estimated") else ""
        lines.append(f"{row['aspect']}: {row['value']} [{span}{est}] source: {row['source']}")
    return lines


def _layout_summary(report: dict[str, Any] | None) -> dict[str, Any] | None:
    if not report:
        return None
    ranked = report.get("ranked") or []
    # Keep the top of the ranking, plus the configured and served layouts wherever they rank:
    # the checks compare against them.
    keep = [r for i, r in enumerate(ranked)
            if i < TOP or r["layout"] in (report.get("configured"), report.get("served"))]
    # every field of the report (typed, from eagle3/layout_report.py) and the served layout's:
    # a hand-kept list of keys here dropped each field added later (ids_misaligned)
    return {k: report.get(k) for k in (*report_fields(), *SERVED_FIELDS) if k != "ranked"} | {"ranked": keep}


def parse(host: dict[str, Any]) -> dict[str, Any]:
    facts = {"num_target_layers": host.get("num_target_layers"),
             "num_target_layers_unknown": host.get("num_target_layers_unknown"),
             # "speculators_config.verifier": the target the draft's config names, taken by the
             # probe without --var target_model (hidden_layout.py)
             "target_source": host.get("target_source"),
             "plan": host.get("plan"),
             "conventions": _convention_lines(host.get("conventions") or []),
             "training": _layout_summary(host.get("layout")),
             "serving_dump": host.get("serving_dump"),
             "serving_dump_error": host.get("serving_dump_error"),
             "serving_checkpoint_error": host.get("serving_checkpoint_error"),
             "draft_misfit": host.get("draft_misfit"),
             "target_misfit": host.get("target_misfit"),
             "layout_error": host.get("layout_error"),
             "no_engine_weights": host.get("no_engine_weights"),
             "serving": _layout_summary(host.get("serving_layout"))}
    return {NS: facts}


def _by_layer_ids(report: dict[str, Any]) -> dict[str, Any] | None:
    ranked = report.get("ranked") or []
    if not ranked or any(r.get("layer_ids") is None for r in ranked):
        return None
    ids = report.get("dump_layer_ids") or []
    configured = [ids[s] for s in report.get("configured") or []] if ids else None
    # the verdict goes with them: SD402 reads whether the probe found enough rows to name a layout;
    # so do the slot checks, which say how many aux slots the dump holds (its layer ids, not the
    # few the ranked layouts use) and whether its final layer sits in another slot
    return {"ranked": [{"layout": r["layer_ids"], "full_accuracy0": r["full_accuracy0"]} for r in ranked],
            "configured": configured, "embedding_slots": report.get("embedding_slots"),
            "verdict": report.get("verdict"), "unclear_rows": report.get("unclear_rows"),
            "slot_checks": report.get("slot_checks"), "final_slot_check": report.get("final_slot_check"),
            "unconfirmed_rows": _unconfirmed_by_layer_ids(report.get("unconfirmed_rows"), ids)}


def _unconfirmed_by_layer_ids(unconfirmed: Any, ids: list[int]) -> Any:
    """The probe's unconfirmed_rows with its runner-up layout in layer ids, as the ranking above."""
    if not isinstance(unconfirmed, dict) or not ids or not isinstance(unconfirmed.get("runner_up"), list):
        return unconfirmed
    return {**unconfirmed, "runner_up": [ids[s] for s in unconfirmed["runner_up"]]}


def _demote(findings: list[Finding], causes: list[str]) -> list[Finding]:
    return [f.model_copy(update={"severity": "info", "evidence": [*f.evidence, explained_by(causes)],
                                 "title": f"Measured: {f.title}"}) for f in findings]


def check(ctx: Any) -> list[Finding]:
    layout = ctx.facts.get(NS, {})
    at = where(ctx)
    engine = ctx.host_facts.get("engine", {})
    name, version = engine.get("name"), engine.get("version")
    draft_raw = ctx.host_facts.get("configs", {}).get("draft_config")
    n = layout.get("num_target_layers")
    findings: list[Finding] = []
    earlier = raised(ctx.host_facts, LAYER_CODES)
    causes = list(earlier)
    training = layout.get("training")
    serving = layout.get("serving_dump")
    if layout.get("draft_misfit"):
        findings.append(draft_misfit_line(ctx, layout["draft_misfit"], "layout probe not run"))
    elif layout.get("target_misfit"):
        findings.append(target_misfit_line(ctx, layout["target_misfit"], "layout probe not run"))
    elif layout.get("no_engine_weights"):
        # a draft no engine loads: the configs step's SD710 (else SD710 here), not an SD003
        findings.append(no_engine_weights_line(ctx, layout["no_engine_weights"], "layout probe not run"))
    elif layout.get("layout_error"):
        # the probe could not read a checkpoint or the dump: the step could not run its probe
        # (SD003, as when the probe raised), said beside the conventions table it still made
        error = layout["layout_error"]
        evidence = [f"layout probe not run: {error.get('message')}"]
        if _same_checkpoint_error(layout, error):
            # one cause, one finding: the serving dump's scoring failed on the same checkpoint
            # (a target_model typo), and was a second line (SD004) naming it again
            evidence.append(f"the serving dump {(serving or {}).get('path')} was read but not scored "
                            "either: scoring it needs the same checkpoint")
        if _same_config_error(layout, error):
            # a target config.json the probe refused (num_hidden_layers 0) also left the serve
            # plan without a layer count: said here once, not again as an SD004 naming the file
            evidence.append(f"served layers not planned or compared either: {layout['num_target_layers_unknown']}")
        findings.append(runner_finding("SD003", host=ctx.host, step=ctx.step_id, evidence=evidence,
                                       hint=error.get("hint")))
    elif not training and not serving and not draft_raw and target_mtp_line(ctx) is not None:
        # MTP serving: no EAGLE-3 draft whose layers a dump could rank ("--var hidden_states"
        # was asked for even when it was given: the probe had no draft to run it on)
        findings.append(target_mtp_line(ctx))
    elif not training and not serving and ctx.args.get("hidden_states"):
        # the hidden states given, no draft to score them with (no --var draft_model, the
        # launch_flags step skipped, a server command naming none): the line below said "no
        # hidden states" and asked for the var the user had passed
        findings.append(not_checked(ctx, "conventions table only: no draft checkpoint to run the layout probe "
                                         "and the embedding check with on the training hidden states",
                                    "--var draft_model=DIR (or a server command that names it)"))
    elif not training and not serving:
        findings.append(not_checked(ctx, "conventions table only: no hidden states to run the layout probe "
                                         "and the embedding check on", "--var hidden_states=DIR (training dump)"))
    if layout.get("serving_dump_error"):
        findings.append(not_checked(ctx, "served layers not measured: the serving dump could not be "
                                         f"read: {layout['serving_dump_error']}",
                                    "a readable serving-path dump (--var serving_dump=DIR)"))
    elif layout.get("serving_checkpoint_error") and not _same_checkpoint_error(layout, layout.get("layout_error")):
        # the dump was read; the draft or the target it was scored with was not (a target_model
        # typo): said as the serving dump's fault, the line asked for a dump the user had given
        findings.append(not_checked(ctx, f"served layers not measured: the serving dump {serving.get('path')} "
                                         "was read, but the checkpoint to score it with could not be "
                                         f"loaded: {layout['serving_checkpoint_error']}",
                                    "the draft and target checkpoints the line names "
                                    "(--var draft_model=DIR, --var target_model=DIR)"))
    elif serving and not serving.get("layer_ids"):
        # vLLM's hidden-state extraction writes hs_<i>.safetensors without layer_ids metadata:
        # the dump was read and then nothing was said, as if the served layers had been
        # measured and found right
        findings.append(not_checked(ctx, f"served layers not measured: the serving dump "
                                         f"{serving.get('path')} names no layer ids (no layer_ids "
                                         "in its files' metadata), so its slots cannot be matched "
                                         "to target layers",
                                    "a serving-path dump whose files name their layers "
                                    "(layer_ids in the safetensors metadata)"))
    if n is None and layout.get("num_target_layers_unknown") and not _same_config_error(layout, layout.get("layout_error")):
        findings.append(not_checked(ctx, f"served layers not planned or compared: "
                                         f"{layout['num_target_layers_unknown']}",
                                    "a target config.json whose language model names "
                                    "num_hidden_layers (--var target_model=DIR)"))
    served_ids = list((layout.get("plan") or {}).get("layer_ids") or [])
    if draft_raw and not use_aux_hidden_state(draft_raw):
        # eagle_config.use_aux_hidden_state = false: SGLang captures no aux layer and vLLM
        # builds no fc (diagnose/checks/layers.py _aux_off, SD204 in the configs step), so the
        # planned ids are not what the engine feeds; compared with the training dump they
        # raised SD201/SD202/SD203 and sent the user to change layer ids that nothing reads
        served_ids = []
        findings.append(not_checked(ctx, "served aux layers not compared with the training "
                                         "dump: the draft config sets "
                                         "eagle_config.use_aux_hidden_state = false, so the "
                                         "engine feeds the draft no aux layers (SD204)",
                                    "eagle_config.use_aux_hidden_state removed or true in the "
                                    "draft's config.json"))
    measured = None
    if serving and serving.get("layer_ids"):
        ids = list(serving["layer_ids"])
        measured = ids[:-1] if n and ids and ids[-1] == n else ids  # the final slot is not an aux input
        served_ids = measured
    # The training dump names the layers the draft was trained on (when it is not a wide dump).
    trained_from_data = None
    if training and training.get("dump_layer_ids"):
        ids = list(training["dump_layer_ids"])
        aux = len(training.get("configured") or [])
        if aux and len(ids) == aux + 1:
            trained_from_data = ids[:-1]
    if draft_raw and n and name in ("sglang", "vllm") and (measured is not None or trained_from_data is not None) \
            and use_aux_hidden_state(draft_raw):
        # as the server loads it: an `architectures` given on --hf-overrides is the class it builds
        target_raw = served_target(ctx.host_facts.get("configs", {}).get("target_config"), ctx.host_facts)
        analysis = analyse_layers(name, version, draft_raw, int(n), trained_layer_ids=trained_from_data,
                                  measured_served_ids=measured, target_architecture=target_architecture(target_raw, launch_quantization(ctx.host_facts)))
        layer_findings = check_aux_layers(analysis, at=at)
        layout["layers"] = analysis.to_facts()
        # the configs step compares the same fc fan-in with the same aux count: an SD204 it
        # raised is this one, said once as the root cause (this step raised it a second time,
        # as an error, when no SD201-SD203 came before it)
        width_earlier = raised(ctx.host_facts, ("SD204",))
        if width_earlier and not earlier:
            layer_findings = [*[f for f in layer_findings if f.code != "SD204"],
                              *_demote([f for f in layer_findings if f.code == "SD204"],
                                       width_earlier)]
        findings += _demote(layer_findings, earlier) if earlier else layer_findings
        causes += [f.code for f in layer_findings if f.severity == "error" and f.code not in causes]
    if training and training.get("untrained_draft"):
        findings.append(not_checked(ctx, "layout not judged: the draft's layer is untrained (RMSNorm weights at "
                                         "their initial value), so every layout scores noise",
                                    "a draft converted or exported again with its trained layer"))
    elif training and training.get("zeroed_norms"):
        findings.append(not_checked(ctx, "layout not judged: RMSNorm weights of the draft are all "
                                         "zeros (an incomplete copy of the checkpoint), so every "
                                         "layout scores noise",
                                    "a complete copy of the draft checkpoint"))
    elif training and training.get("no_skill"):
        findings.append(not_checked(ctx, "layout not judged: no layout of the training dump scores "
                                         "better than always predicting its most frequent target "
                                         "token, so every layout scores noise"
                                         + (" (every RMSNorm weight of the draft is 1.0: saved "
                                            "before training)" if training["no_skill"].get(
                                                "initial_norms") else ""),
                                    "the trained draft, and a dump of its own target"))
    elif training and training.get("unmapped_draft"):
        findings.append(not_checked(ctx, "layout not judged: the draft has no d2t for its smaller "
                                         "vocabulary, so every layout scores near zero against "
                                         "other tokens than it predicts",
                                    "the training's vocab map (var vocab_mapping), or d2t and "
                                    "t2d saved into the checkpoint"))
    elif training and REPEATED_SLOTS in str(training.get("verdict") or ""):
        # eval refuses such a dump; the probe ranks it, but every layout that reads the
        # repeated slots scores noise, and the step passed with no word of it
        clause = str(training["verdict"]).split("; but ")[-1]
        findings.append(not_checked(ctx, "layout not judged: " + clause,
                                    "a training dump whose aux slots each hold their own layer"))
    elif training:
        # the probe ranked with the value the weights fit; the config's value is its own fault
        findings += check_norm_before_residual_fit(training, name, at)
        keyed = _by_layer_ids(training)
        if keyed is not None and served_ids:
            findings += check_layout(keyed, served_ids, root_causes=causes, at=at)
        else:
            findings += check_layout(training, None, root_causes=causes, at=at)
        if name not in ("sglang", "vllm") and measured is None:
            # no engine (its step skipped, or not found): no capture convention names the served
            # layers, so SD402 and the embedding slot were not judged, and the step said
            # "passed: everything this step checks looks healthy" over the incident's layout
            findings.append(not_checked(ctx, "engine unknown: the layouts were ranked, but the served "
                                             "layout was not compared with the one the drafter fits, "
                                             "nor its embedding slot checked",
                                        "--var engine=sglang|vllm"))
        if name in ("sglang", "vllm"):
            served_by = ("measured (serving dump)" if measured is not None
                         else f"{name} {version or 'latest'} convention")
            findings += check_embedding_slot(training, served_ids, served_by, root_causes=causes, at=at)
    for which, report in (("training", training), ("serving", layout.get("serving"))):
        left = _left_out(report)
        if left:
            findings.append(not_checked(ctx, f"the layout probe on the {which} dump ranked part of it: "
                                             + "; ".join(left),
                                        "hidden states whose sample files all read, with finite "
                                        "states in every slot (dump in bfloat16 or float32)"))
    return record(ctx.facts, NS, findings)


# How the layout probe's notes say part of the dump was not scored (eagle3/data.py
# SkippedFiles.summary, eagle3/api.py _non_finite_slots); not imported: those modules need torch
SKIPPED_FILES = " sample file(s) skipped; first: "
NON_FINITE_SLOT = "left out of the candidate layouts"
NON_FINITE_SAMPLES = "those samples are left out of the ranking"  # api.SAMPLES_LEFT_OUT


def _left_out(report: Any) -> list[str]:
    """The probe's notes that say sample files were skipped or a slot holding NaN/Inf was left
    out of the ranking: they reached the step's facts and no report line, so a ranking of part
    of the dump read as one of all of it."""
    if not isinstance(report, dict):
        return []
    return [str(n) for n in report.get("notes") or ()
            if isinstance(n, str) and (SKIPPED_FILES in n or NON_FINITE_SLOT in n
                                           or NON_FINITE_SAMPLES in n)]


def _same_checkpoint_error(layout: dict[str, Any], error: Any) -> bool:
    """Whether the serving dump's scoring failed on the checkpoint the layout probe could not
    read (its error's message is the layout error's, the hint line aside)."""
    said = layout.get("serving_checkpoint_error")
    message = error.get("message") if isinstance(error, dict) else None
    return isinstance(said, str) and isinstance(message, str) and bool(message) and said.startswith(message)


def _same_config_error(layout: dict[str, Any], error: Any) -> bool:
    """Whether the layout probe's error and the unknown layer count name the same config.json
    (both begin with its path: "DIR/config.json: 'num_hidden_layers' is 0 ...")."""
    unknown = layout.get("num_target_layers_unknown")
    message = error.get("message") if isinstance(error, dict) else None
    if not isinstance(unknown, str) or not isinstance(message, str) or "config.json: " not in unknown:
        return False
    path = unknown.split("config.json: ", 1)[0] + "config.json: "
    return message.startswith(path)
