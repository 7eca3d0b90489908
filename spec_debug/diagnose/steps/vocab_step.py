"""Vocab maps: d2t offsets, t2d and embedding rows against the target vocabulary (SD301-SD303)."""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.checks.vocab_maps import check_vocab_report
from spec_debug.diagnose.steps.common import not_checked, record, target_mtp_line, where
from spec_debug.eagle3.vocab import HEAD_NOT_COMPARED, T2D_MISSING
from spec_debug.record import Finding

NS = "vocab"


def parse(host: dict[str, Any]) -> dict[str, Any]:
    if host.get("skipped"):
        return {NS: {"skipped": host["skipped"]}}
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
    report = vocab.get("report") or {}
    findings = check_vocab_report(report, where(ctx))
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
    if vocab.get("target") is None:
        findings.append(not_checked(ctx, "no target checkpoint: the draft config's vocab_size was "
                                         "taken as the target vocabulary", "--var target_model=DIR"))
    return record(ctx.facts, NS, findings)
