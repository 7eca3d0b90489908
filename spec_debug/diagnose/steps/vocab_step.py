"""Vocab maps: d2t offsets, t2d and embedding rows against the target vocabulary (SD301-SD303)."""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.checks.vocab_maps import check_vocab_report, unsaid_vocab_lines
from spec_debug.diagnose.steps.common import (draft_misfit_line, no_engine_weights_line, not_checked, record,
                                              target_mtp_line, where)
from spec_debug.eagle3.vocab import (FULL_VOCAB_TARGET_HEAD, HEAD_NOT_COMPARED, T2D_MISSING,
                                     TARGET_HEAD, TIED_HEAD_DROPPED, TIED_HEAD_NOT_STORED)
from spec_debug.record import Finding

NS = "vocab"

# The draft's head as the engines build it (eagle3/loading.py, api._draft_head_check): the engine
# that serves another head than the trained one for each note, and the fix. `drafter vocab` and
# `drafter eval` say these in notes; the step dropped them, so a draft vLLM serves with the
# target's lm_head in place of its tied embedding passed `diagnose` with no line at all.
_MISSERVED = {
    TIED_HEAD_NOT_STORED: ("vllm", "Save lm_head.weight (the trained head: a copy of "
                                   "embed_tokens.weight) into the draft's safetensors, so vLLM "
                                   "serves it instead of the target's lm_head."),
    TIED_HEAD_DROPPED: ("sglang", "Set tie_word_embeddings to false in the draft's config.json, "
                                  "so SGLang loads the stored lm_head.weight instead of tying "
                                  "the head to embed_tokens."),
    FULL_VOCAB_TARGET_HEAD: ("sglang", "Set \"draft_vocab_size\": null in the draft's config.json: "
                                       "SGLang then loads the target's lm_head, as vLLM serves it."),
}


# How the drafter's note begins when the verifier the draft's config names is neither a local
# directory nor in the Hugging Face cache (eagle3/api.py _config_verifier; kept here so the
# step reads records without torch)
NAMED_VERIFIER = "the draft's config names its verifier "


def parse(host: dict[str, Any]) -> dict[str, Any]:
    if host.get("skipped"):
        return {NS: {"skipped": host["skipped"]}}
    if host.get("no_engine_weights"):
        return {NS: {"no_engine_weights": host["no_engine_weights"]}}
    if host.get("draft_misfit"):
        return {NS: {"draft": host.get("draft"), "draft_misfit": host["draft_misfit"]}}
    report = host.get("report") or {}
    return {NS: {"draft": host.get("draft"), "target": host.get("target"), "ok": report.get("ok"),
                 "target_vocab_size": report.get("target_vocab_size"),
                 "draft_vocab_size": report.get("draft_vocab_size"), "report": report}}


def check(ctx: Any) -> list[Finding]:
    vocab = ctx.facts.get(NS, {})
    if vocab.get("skipped"):
        mtp = target_mtp_line(ctx)
        return [mtp if mtp is not None else
                not_checked(ctx, vocab["skipped"], "--var draft_model=DIR --var target_model=DIR")]
    if vocab.get("no_engine_weights"):
        # recorded: an SD710 error here is said once, the steps after it say they did not run
        return record(ctx.facts, NS, [no_engine_weights_line(ctx, vocab["no_engine_weights"],
                                                             "vocabulary maps not checked")])
    if vocab.get("draft_misfit"):
        # the configs step's SD704 for the same config: said there once, this step did not run
        return [draft_misfit_line(ctx, vocab["draft_misfit"], "vocabulary maps not checked")]
    report = vocab.get("report") or {}
    engine = (ctx.host_facts.get("engine") or {}).get("name")
    findings = unsaid_vocab_lines(check_vocab_report(report, where(ctx), engine), ctx.host_facts)
    # `drafter vocab` and `drafter eval` say it in a note (the engines serve the draft; the t2d
    # check is skipped): the same words, as an info line, not an SD303 serving-path error; and
    # a target shard not copied or cut (eval says its reference fell back to the data tokens):
    # the SD302 lm_head row check did not run, in the words `drafter vocab` says it
    for prefix, needs in (
            (T2D_MISSING, "t2d saved beside d2t, for speculators to load the draft and resume "
                          "training from it"),
            (HEAD_NOT_COMPARED, "a target whose lm_head reads (every shard its index names, "
                                "copied whole), for the lm_head row check")):
        findings += [not_checked(ctx, note, needs)
                     for note in report.get("notes") or [] if str(note).startswith(prefix)]
    findings += _head_findings(ctx, report.get("notes") or [])
    # the probe's `drafter vocab` finds the verifier the draft's config names when no
    # --var target_model is given (its report's target, target_source
    # "speculators_config.verifier"): the maps were then checked against that target
    if vocab.get("target") is None and not report.get("target"):
        if (ctx.host_facts.get("configs") or {}).get("draft_speculators_config_said"):
            # the configs step's SD704: the section that names the verifier the probe would have
            # found is not there, so "give a target" alone sent the user past the cause
            findings.append(not_checked(
                ctx, "no target checkpoint: the draft config's vocab_size was taken as the target "
                     "vocabulary, as the draft's config names no verifier to check against: its "
                     "speculators_config is not there (SD704, reported above)",
                "the draft's speculators_config put back (its verifier names the target), or "
                "--var target_model=DIR"))
        else:
            line = not_checked(ctx, "no target checkpoint: the draft config's vocab_size was taken as "
                                    "the target vocabulary", "--var target_model=DIR")
            # the verifier the draft's config names is not on the host: the probe's note says
            # which, where the line alone read as if the draft named none
            named = [str(note) for note in report.get("notes") or [] if str(note).startswith(NAMED_VERIFIER)]
            findings.append(line.model_copy(update={"evidence": line.evidence + named[:1]}) if named else line)
    return record(ctx.facts, NS, findings)


def _head_findings(ctx: Any, notes: list[Any]) -> list[Finding]:
    """SD303 for a draft head the served engine replaces (an error on that engine, info on the
    other or an unknown one, in the report's words), and the info line for a draft whose head
    is the target's (no head rows of its own to check)."""
    engine = (ctx.host_facts.get("engine") or {}).get("name")
    at = where(ctx)
    findings: list[Finding] = []
    for note in map(str, notes):
        if note.startswith(TARGET_HEAD):
            findings.append(not_checked(ctx, note, "lm_head.weight in the draft, for the head "
                                                   "row checks"))
            continue
        for prefix, (misserves, remediation) in _MISSERVED.items():
            if not note.startswith(prefix):
                continue
            facts = {"engine": engine, "misserved_by": misserves}
            if engine == misserves:
                findings.append(at.finding("SD303", [note], facts, remediation=remediation,
                                           title=f"{engine} serves another lm_head than the "
                                                 "draft was trained with"))
            else:
                served = (f"not a fault on {engine}" if engine in ("sglang", "vllm")
                          else "engine unknown")
                findings.append(at.finding("SD303", [note], facts, severity="info",
                                           remediation=remediation,
                                           title=f"The draft's head is served as trained only "
                                                 f"by some engines ({served})"))
    return findings
