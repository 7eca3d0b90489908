"""SD301-SD303: the draft-to-target vocabulary maps (EAGLE3.md sections 1 and 6.7); SD710:
the draft's stale weight index the same `drafter vocab` report names.

Input: the report of spec_debug.eagle3.vocab (`VocabReport.to_dict()`: checks with issues,
each issue carrying the code it feeds). One finding per code; a missing d2t (SD301) makes the
offset checks (SD302) moot, so they are not reported twice.
"""

from __future__ import annotations

from typing import Any, Mapping

from spec_debug.diagnose.checks.common import Where
from spec_debug.eagle3.checkpoint import normalise_draft_name
from spec_debug.eagle3.vocab import (VocabCheck, VocabIssue, check_d2t_present, check_embed_rows,
                                     check_lm_head_rows, check_map_shapes, check_t2d, d2t_length_line,
                                     other_target_vocab)
from spec_debug.record import Finding


def check_vocab_report(report: Mapping[str, Any], at: Where = Where(), engine: str | None = None
                       ) -> list[Finding]:
    """`engine`: the engine the host serves with ("vllm", "sglang"), when a step found it: a d2t
    stored as an exact float type is SGLang's fault alone (_sglang_only)."""
    by_code: dict[str, list[dict[str, Any]]] = {}
    for check in report.get("checks", []):
        for issue in check.get("issues", []):
            by_code.setdefault(issue["code"], []).append(issue)
    facts = {"target_vocab_size": report.get("target_vocab_size"),
             "draft_vocab_size": report.get("draft_vocab_size"),
             "issues": sorted({i["kind"] for issues in by_code.values() for i in issues})}
    findings: list[Finding] = []
    if "SD301" in by_code:
        findings.append(at.finding("SD301", [i["message"] for i in by_code["SD301"]], facts))
    elif "SD302" in by_code:
        findings.append(_sglang_only(by_code["SD302"], facts, at, engine)
                        or at.finding("SD302", [i["message"] for i in by_code["SD302"]], facts))
    if "SD303" in by_code:
        findings.append(_sd303(by_code["SD303"], facts, at))
    if "SD710" in by_code:  # the draft's files, checked by the same `drafter vocab` run
        findings.append(at.finding("SD710", [i["message"] for i in by_code["SD710"]],
                                   {"index": by_code["SD710"][0]["facts"].get("index")}))
    return findings


def _sglang_only(issues: list[dict[str, Any]], facts: dict[str, Any], at: Where,
                 engine: str | None) -> Finding | None:
    """SD302 as info on a vLLM host when its only issue is a d2t stored as a float type that
    holds its offsets exactly (vocab.float_d2t_issue, not rounded): vLLM copies d2t into its
    int64 draft_id_to_target_id (llama_eagle3.py default_weight_loader) and serves it right, as
    the line itself says, yet the error failed a vLLM user's run over a fault only SGLang has.
    None otherwise (an error, as before: SGLang, or an engine not known)."""
    if engine != "vllm" or not all(
            i.get("kind") == "d2t_float" and isinstance(i.get("facts"), Mapping)
            and i["facts"].get("rounded") is False for i in issues):
        return None
    return at.finding("SD302", [str(i["message"]) for i in issues], {**facts, "engine": engine},
                      severity="info", title="d2t is stored as a float type: served right by vLLM, "
                                             "not by SGLang (not a fault on vllm)")


# t2d's lines: speculators' load_vocab_mappings refuses a t2d that is not [V] with DV ids set
# (src/speculators/model.py), but vLLM and SGLang never read it: their Eagle-3 load_weights skip
# every tensor named t2d (vLLM model_executor/models/llama_eagle3.py Eagle3LlamaForCausalLM,
# SGLang srt/models/llama_eagle3.py LlamaForCausalLMEagle3) and map draft ids with d2t alone
_TRAINING_ONLY_KINDS = frozenset({"t2d_length", "t2d_count"})
_TRAINING_ONLY = ("only training reads t2d (speculators' load_vocab_mappings refuses it, so "
                  "resuming training or evaluating the draft fails): vLLM and SGLang skip t2d when "
                  "they load the draft and map draft ids with d2t alone, so the server starts")


def _sd303(issues: list[dict[str, Any]], facts: dict[str, Any], at: Where) -> Finding:
    """SD303, an error where the engines size a tensor from the configs and fail to load it
    (embed_tokens, lm_head rows). A t2d of another length or count alone was an error too,
    although no engine reads t2d: a warning now, saying so, unless its line says it already."""
    lines = [str(i["message"]) for i in issues]
    if not all(i.get("kind") in _TRAINING_ONLY_KINDS for i in issues):
        return at.finding("SD303", lines, facts)
    lines = [line if "vLLM and SGLang" in line else f"{line}; {_TRAINING_ONLY}" for line in lines]
    return at.finding("SD303", lines, facts, severity="warning")


def _rows(tensors: Mapping[str, Any], *names: str, dims: int | None = None) -> list[int] | None:
    """The shape the probe's listing ({name: [shape, dtype]}) gives the first of `names` it
    holds (of `dims` dimensions when given), None when none is there or its shape is no list
    of whole numbers."""
    for name in names:
        entry = tensors.get(name)
        shape = entry[0] if isinstance(entry, (list, tuple)) and entry else None
        if isinstance(shape, list) and shape and all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
            return shape if dims is None or len(shape) == dims else None
    return None


def vocab_shape_report(tensors: Mapping[str, Any] | None, *, target_vocab_size: int | None,
                       vocab_size: int, draft_vocab_size: int, configured: bool,
                       complete: bool) -> dict[str, Any] | None:
    """The vocab checks a draft's safetensors headers decide without torch, as a report of
    the `drafter vocab` form (check_vocab_report's input), for the configs step; None when
    there is nothing to compare. The vocab step ran them alone, and needs torch on the host
    (a 3.6 s import, and a drafter venv that serving hosts often lack), so a draft whose maps
    or embedding were built for another tokenizer passed `diagnose` there without a word.

    The shapes are speculators' (EAGLE3.md section 1, src/speculators/model.py
    load_vocab_mappings): t2d [V], d2t [DV], embed_tokens [V, H], lm_head [DV, H]; the
    engines build draft_id_to_target_id as [draft_vocab_size] and the embedding from the
    config's vocab_size (vLLM model_executor/models/llama_eagle3.py). The same pure checks
    (eagle3.vocab) as `drafter vocab`, so the lines read as the vocab step's. `complete`: every
    weight file the engines load was listed (no shard missing, no header unreadable, the
    listing not cut): only then is a d2t that is not listed absent (SD301).
    `target_vocab_size` None (no target config): only the draft's own tensors against its
    own config are compared (d2t's and lm_head's rows, the maps' dimensions)."""
    if not isinstance(tensors, Mapping):
        return None
    names = {normalise_draft_name(str(name)): entry for name, entry in tensors.items()}
    d2t, t2d = _rows(names, "d2t"), _rows(names, "t2d")
    lm_head = _rows(names, "lm_head.weight", dims=2)
    embed = _rows(names, "embed_tokens.weight", dims=2)
    lm_rows, embed_rows = (lm_head[0] if lm_head else None), (embed[0] if embed else None)
    dv = lm_rows or draft_vocab_size  # as check_checkpoint_vocab sizes the maps' checks
    checks = [check_map_shapes(d2t, t2d)]
    if d2t is not None and len(d2t) == 1 and d2t[0] != dv:
        checks.append(VocabCheck("d2t_offsets", ok=False, issues=(VocabIssue(
            "d2t_length", d2t_length_line(d2t[0], dv),
            {"d2t_length": d2t[0]}),)))
    if target_vocab_size is not None:
        if (complete and lm_rows is not None) or d2t is not None:
            # a d2t not listed is absent only where every file was listed and the head whose
            # rows it maps is there (a draft with no lm_head serves the target's)
            checks.append(check_d2t_present(d2t is not None, dv, target_vocab_size))
        t2d_length = t2d[0] if t2d is not None and len(t2d) == 1 else None
        built_for = other_target_vocab(t2d_length, embed_rows, target_vocab_size)
        checks.append(check_t2d(t2d_length, None, target_vocab_size, dv, built_for=built_for))
        embed_check = check_embed_rows(embed_rows, target_vocab_size,
                                       " (the vocabulary t2d has: see that line)" if built_for else "")
        if embed_check.ok and not embed_check.skipped and embed_rows != vocab_size:
            # engines build the draft embedding from the config's vocab_size (eagle3.vocab
            # _config_vocab_check, the vocab step's line)
            embed_check = VocabCheck("embed_rows", ok=False, issues=(VocabIssue(
                "embed_rows", f"the draft config's vocab_size is {vocab_size} but embed_tokens has "
                f"{embed_rows} rows, one per target token: engines size the draft embedding from the "
                f"config and fail to load it; set vocab_size to {embed_rows}",
                {"embed_rows": embed_rows, "config_vocab_size": vocab_size}),))
        checks.append(embed_check)
    served_rows = draft_vocab_size if configured else vocab_size
    checks.append(check_lm_head_rows(lm_rows, served_rows, configured, target_vocab_size))
    return {"ok": all(check.ok for check in checks), "target_vocab_size": target_vocab_size,
            "draft_vocab_size": draft_vocab_size, "checks": [check.to_dict() for check in checks]}


def unsaid_vocab_lines(findings: list[Finding], host_facts: Any) -> list[Finding]:
    """The vocab findings less the lines the configs step said already from the tensor headers
    (configs_step._vocab_findings, same words): the root cause once, where it was found first.
    The vocab step and, with no vocab step on the host, the evaluation's map lines use it.
    A line of this step's that says more (the values' evidence) stays."""
    configs = host_facts.get("configs") if isinstance(host_facts, dict) else None
    said = configs.get("vocab_lines") if isinstance(configs, dict) else None
    if not isinstance(said, dict) or not said:
        return findings
    kept = []
    for finding in findings:
        lines = [line for line in finding.evidence if line not in (said.get(finding.code) or ())]
        if lines:
            kept.append(finding if lines == finding.evidence else finding.model_copy(update={"evidence": lines}))
    return kept
