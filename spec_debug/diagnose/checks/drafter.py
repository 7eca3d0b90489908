"""SD401-SD403: the drafter measured outside the engine (spec_debug.eagle3 evaluation); SD704
for a norm_before_residual the measured weights contradict."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from spec_debug.diagnose.checks.common import Where, explained_by, pct
from spec_debug.record import Finding

# "Far below": both a relative and an absolute gap, so noise on a small eval set or a
# slightly different validation split does not fire it.
ACCURACY_RATIO = 0.9
ACCURACY_GAP = 0.10
LAYOUT_GAP = 0.05
LAYOUT_RATIO = 1.05  # with LAYOUT_GAP: 0.77 vs 0.68 at step 0 is the difference between AL 2.7 and 2.4
SEMANTICS_ACC_DROP = 0.02
# How the layout probe's verdict (eagle3/layout.py _verdict) begins when the best layout gets
# fewer than LAYOUT_MIN_GAIN more rows right than the configured one (the report's
# unclear_rows holds the counts; older records only this sentence): a sign test on so few
# rows cannot tell it from chance (5 rows all one way: 0.5**5 = 3%; 4: 6%), so SD402 on the
# same numbers is a warning that says so, not an error (a dump missing a layer, every layout
# near zero, scored 2 hits of 39 = 5.1% vs 0% and was told to fix the served layers)
UNCLEAR_LAYOUT = "no layout is clearly the draft's"
# What the evaluation's note says when another order of a dump's unnamed aux slots fits the
# weights clearly better (eagle3/api.py _slot_order_note): the cause of a low standalone
# accuracy, which SD401 then names instead of leaving the user to the export and the weights
SLOT_ORDER = "holds the draft's aux layers in another order than it was trained on"
# What its note says when a slot fed to fc is exactly the embedding output where the draft's
# config names a later layer (eagle3/api.py _fed_embedding_note): a dump one layer off, as
# much the cause of a low standalone accuracy as the order above
FED_EMBEDDING = "is exactly the embedding output (embed_tokens[token_ids]; fed slots"
# What its note says when the slots a dump's layer_ids metadata names one layer off the
# draft's fit the weights clearly better (eagle3/api.py _named_layers_note): the metadata is
# one layer off its tensors, a cause as much as the two above
NAMED_ONE_LAYER_OFF = "the metadata numbers each slot "  # one layer or 2 layers higher|lower
# How its note begins when the dump's token ids sit one or two positions off against its states
# (eagle3/alignment.py MISALIGNED, kept here so diagnose reads records without torch): the
# draft was fed the wrong tokens' embeddings, a cause of a low accuracy in the data, and every
# layout the probe ranked was scored that way (so SD402's "another layout fits" is noise)
IDS_OFF = "the dump's token ids look "
# How its note begins when the verifier the draft's config names is neither a local directory
# nor in the Hugging Face cache (eagle3/api.py _config_verifier)
NAMED_VERIFIER_MISSING = "the draft's config names its verifier "
# How its note says that config.json's norm_before_residual does not fit the weights (eagle3/
# layout.py flag_mismatch: the same layout scores far higher with the other value). SD401 said
# "4.8% against a claimed 69%: check the export, the data, retrain if the weights are bad" of a
# draft that scores 69% with the flag flipped: the config, not the weights (SD704 beside it)
NORM_FLAG_MISFIT = "does not fit these weights: the configured layout's step-0 accuracy is "
# How the evaluation's notes on the draft's weight files (eagle3/checkpoint.py store_notes) say
# that the weights it measured are not the only ones in the folder: a torch.save file or
# pytorch_model.bin beside the safetensors holding other weights (unread_pickle_note), a single
# model.safetensors over the shards the engines serve with other values (shadowed_single_note),
# two copies of a tensor that differ (duplicated_note), other *.bin files the engines load too
# (extra_pickles_note). A trained draft saved into the wrong file scores as the older save it
# sits beside: SD401 carries the note, so the user checks the files before the training.
OTHER_WEIGHTS = ("other weights than the safetensors beside it", "they hold different weights (",
                 "with different values (", "a tensor stored in both is set from the file they read last")
# How the draft's loading notes (eagle3/loading.py _cast_to_fp8_note and
# _quantized_without_scales_note) name weights stored in float8 with no scale beside them: an
# export that cast the state dict to 3 mantissa bits (every loader casts them back up as
# stored), or kept the FP8 weights and dropped their weight_scale. The weights measured are
# not the ones trained, which is why the accuracy falls short: SD401 said "check the export ...
# retrain if the weights are bad" of a draft whose export cast it, the cause in a note alone.
CAST_FP8 = " stored in float8 "
# How the draft's loading notes (eagle3/loading.py) say the weights loaded are not the draft as
# trained: modules saved freshly initialised beside trained ones (speculators' converter
# without its midlayer remap, layout.UNTRAINED_MODULES_NOTE), RMSNorm weights or weight
# matrices of zeros (an incomplete copy: loading.ZEROED_NORMS_NOTE), a pre-fc norm in the
# weights that the config does not switch on (so no loader applies it). Each scores far under
# the claim, and SD401 sent the user to retrain with the fix (copy again, convert again, set
# the flag) in a note it did not carry.
NOT_AS_TRAINED = ("RMSNorm weights at their initial value", "RMSNorm weights that are all zeros",
                  "weight matrices that are all zeros: ", " but the config does not set ")
# What SD401 says when the evaluation scored every position (its loss_mask_source "none": the
# dump's files carry no loss mask and no speculators dataset beside them was read). Training's
# full_acc_0 counts the loss-masked (assistant) tokens only (vllm-project/speculators
# src/speculators/models/metrics.py: "restricts accuracy to masked positions"), and
# speculators 0.9 keeps that mask in the prepared dataset, not in hs_*.safetensors
# (train/data.py ArrowDataset._get_raw_data takes `loss_mask` from the dataset row), so a dump
# written with generate_offline_data --output elsewhere, or copied without its dataset, was
# scored on the prompt tokens too and its lower accuracy sent to the weights as an error.
EVERY_POSITION = ("every position was scored, prompt tokens included: the dump's files carry no "
                  "loss mask and no speculators dataset (state.json, dataset_info.json) beside "
                  "them was read (the eval's notes say why when one is there), while the claimed "
                  "accuracy counts the loss-masked tokens only; "
                  "to compare like with like, evaluate a speculators dump from <prepared "
                  "dataset>/hidden_states (speculators keeps the masks in that dataset), or save "
                  "each sample's loss_mask in its file")


def normalise_accuracy(value: float | str | None) -> float | None:
    """0.747, '0.747', 74.7 and '74.7%' all mean 74.7 %."""
    if value is None or value == "":
        return None
    text = str(value).strip().rstrip("%")
    number = float(text)
    return number / 100.0 if number > 1.0 or str(value).strip().endswith("%") else number


def _acc0(metrics: Mapping[str, Any]) -> float | None:
    full = metrics.get("full_accuracy")
    if isinstance(full, Sequence) and full:
        return float(full[0])
    return None


def check_standalone_accuracy(metrics: Mapping[str, Any], claimed_accuracy: float | str | None,
                              at: Where = Where()) -> list[Finding]:
    """SD401: the reference forward on training data scores far below the claimed accuracy."""
    claimed = normalise_accuracy(claimed_accuracy)
    measured = _acc0(metrics)
    if claimed is None or measured is None:
        return []
    if not (measured < ACCURACY_RATIO * claimed and claimed - measured >= ACCURACY_GAP):
        return []
    reference = metrics.get("reference", "target_argmax")
    evidence = [f"claimed validation accuracy (position 0): {pct(claimed)}",
                f"standalone full_accuracy[0] = {pct(measured)} on {_scored_rows(metrics)} "
                f"(reference: {reference})"]
    severity = None
    if reference == "data_tokens":
        # Against the next data token, not the verifier's argmax: lower by construction.
        evidence.append("measured against the next data token (no target head given): pass the "
                        "target checkpoint to compare like with like")
        # why none was used, when the draft's config names a verifier this host lacks
        # (eagle3/api.py _config_verifier): "no target head given" alone hid the path it named
        evidence += [str(note) for note in metrics.get("notes") or ()
                     if str(note).startswith(NAMED_VERIFIER_MISSING)][:1]
        severity = "warning"
    if metrics.get("loss_mask_source") == "none":
        evidence.append(EVERY_POSITION)
        severity = "warning"
    # the evaluation itself found the dump's slots in another order, or the embedding output
    # fed as a layer: the data, not the weights; or the config's norm flag: not the weights either
    evidence += [str(note) for note in metrics.get("notes") or ()
                 if any(said in str(note) for said in (SLOT_ORDER, FED_EMBEDDING,
                                                       NAMED_ONE_LAYER_OFF, IDS_OFF,
                                                       NORM_FLAG_MISFIT))]
    # the weights measured may not be the ones trained or served: the folder holds others
    evidence += [str(note) for note in metrics.get("notes") or ()
                 if any(said in str(note) for said in OTHER_WEIGHTS + (CAST_FP8,) + NOT_AS_TRAINED)]
    return [at.finding("SD401", evidence, {"claimed": claimed, "measured": measured,
                                           "reference": reference}, severity=severity)]


def _scored_rows(metrics: Mapping[str, Any]) -> str:
    """The rows full_accuracy[0] was measured on, said as rows beside the tokens a user counts
    in the dump. The report's `tokens` counts rows (a sample of T tokens has T - 1 after
    speculators' shift_batch), and step 0 is scored on the loss-masked ones among them
    (counts.full_total[0]): "4.8% on 42 tokens from 3 samples" was said of 3 files of 45 tokens,
    and "on 42 tokens" of an accuracy over the 6 rows a loss mask kept, a figure seven times too
    large for the noise it carries. Records written before `counts` was kept say the rows."""
    rows, samples = metrics.get("tokens"), metrics.get("samples")
    if not isinstance(rows, int) or isinstance(rows, bool):
        return f"{rows if rows is not None else '?'} rows from {samples if samples is not None else '?'} samples"
    counted = (f"{samples} sample{'s' if samples != 1 else ''} of {rows + samples} tokens: a sample of T "
               "tokens has T - 1 rows" if isinstance(samples, int) and samples > 0 else "")
    totals = (metrics.get("counts") or {}).get("full_total") if isinstance(metrics.get("counts"), Mapping) else None
    scored = totals[0] if isinstance(totals, Sequence) and totals else None
    if isinstance(scored, (int, float)) and not isinstance(scored, bool) and 0 < scored < rows:
        # left out by the loss mask most often, or as padding or rows reading a lost layer
        # (the evaluation's notes say which): not named here
        return (f"the {int(scored)} rows scored at step 0 of {rows}"
                + (f" ({counted})" if counted else ""))
    return f"{rows} rows" + (f" ({counted})" if counted else "")


def _key(layout: Any) -> tuple:
    return tuple(layout) if isinstance(layout, (list, tuple)) else (layout,)


def check_layout(result: Mapping[str, Any], served_layout: Sequence[Any] | None = None, *,
                 root_causes: list[str] | None = None, at: Where = Where()) -> list[Finding]:
    """SD402: a layout ranks clearly above the served one (or the configured one)."""
    if (result.get("untrained_draft") or result.get("unmapped_draft") or result.get("zeroed_norms")
            or result.get("ids_misaligned") or result.get("no_skill")):
        # Scores of a draft whose layer was saved freshly initialised, that has no d2t for
        # its smaller vocabulary, or whose RMSNorm weights are zeros (eagle3/layout.py), rank
        # noise: "another layout fits" would send the user to re-capture hidden states. So do
        # the scores of a dump whose ids sit one position off (IDS_OFF): every row was fed the
        # wrong token, and the fix is the ids, not the layers. Nor does a ranking whose best
        # layout beats no constant prediction (no_skill): the draft predicts nothing there.
        return []
    ranked = result.get("ranked") or []
    if not ranked:
        return []
    scores = {_key(r["layout"]): float(r["full_accuracy0"]) for r in ranked}
    best = ranked[0]
    served_key = _key(served_layout) if served_layout is not None else None
    if served_key not in scores:
        # a dump of every layer that names no slots: `configured` is eval's guess of its first
        # slots, the config's layer ids are `config_slots` (SD402 said "served layout
        # [0, 1, 2]: 11.9%" of a draft the probe found fitting its config at slots 2, 4, 5)
        configured = result.get("config_slots") or result.get("configured")
        served_key = _key(configured) if configured is not None else None
    if served_key is None or served_key not in scores:
        return []
    served_acc, best_acc = scores[served_key], float(best["full_accuracy0"])
    if _key(best["layout"]) == served_key:
        return []
    if not (best_acc - served_acc >= LAYOUT_GAP and best_acc >= LAYOUT_RATIO * max(served_acc, 1e-9)):
        return []
    evidence = [f"best layout {list(_key(best['layout']))}: full_accuracy[0] {pct(best_acc)}",
                f"served layout {list(served_key)}: {pct(served_acc)}"]
    tie = _configured_tie(result, scores, best_acc, (served_key, _key(best["layout"])))
    if tie:
        evidence.append(tie)
    final = result.get("final_slot_check")
    if isinstance(final, Mapping) and final.get("final_slot") is not None:
        # the dump, not the serving path: its final layer is not in the last slot
        evidence.append(f"slot {final['final_slot']} of the data holds the target's final "
                        f"layer, not the last slot (step-0 accuracy "
                        f"{pct(float(final['final_slot_accuracy0']))} with its states as the "
                        f"targets vs {pct(float(final['accuracy0']))}): write the dump with "
                        f"the final layer last (hidden_states[:, {final.get('order')}])")
    held = _dump_slots(result)
    # In a dump of every layer (transformers' output_hidden_states puts the embedding output
    # first) that slot is one of its layers, no sign of what training fed. Otherwise the data
    # holds cat([embed, ...]): what a draft trained on it was fed (the incident), but this dump
    # need not be the training data ("training used" was said of a dump taken elsewhere).
    tail = (f", one of the {held} aux slots of a dump of more layers than the draft takes" if held > len(served_key) + 1
            else ": a draft trained on this data was fed cat([embed, ...])")
    for slot in result.get("embedding_slots") or []:
        evidence.append(f"slot {slot} of the data is exactly the embedding output (embed_tokens[token_ids]){tail}")
    facts = {"best": list(_key(best["layout"])), "best_accuracy": best_acc,
             "served": list(served_key), "served_accuracy": served_acc}
    few = _few_rows(result, served_key)
    if few and not root_causes:
        evidence.append(few)
        return [at.finding("SD402", evidence, facts, severity="warning")]
    if root_causes:
        evidence.append(explained_by(root_causes))
        return [at.finding("SD402", evidence, facts, severity="info",
                           title="Layout probe confirms: the served layout is not the one the drafter fits")]
    return [at.finding("SD402", evidence, facts)]


def check_embedding_slot(result: Mapping[str, Any], served_ids: Sequence[int], served_by: str, *,
                         root_causes: list[str] | None = None, at: Where = Where()) -> list[Finding]:
    """SD201: the draft fits its training dump best in the configured layout, and a slot of
    that layout is exactly the embedding output (embed_tokens[token_ids]): it was trained on
    cat([embed, ...]) (INCIDENT.md: cat([embed_output, layer3, layer31])), and the engine
    serves layers `served_ids`, none of which is the embedding output (id 0). check_layout
    speaks only when another layout fits better, and a dump without layer ids gives
    analyse_layers no trained ids, so the probe's verdict ("the configured layout uses it")
    was the only word of it and the step passed."""
    if (result.get("untrained_draft") or result.get("unmapped_draft") or result.get("no_skill")
            or result.get("dump_layer_ids")):
        return []  # noise, or a dump that names its layers (compared by analyse_layers)
    configured = list(_key(result["configured"])) if result.get("configured") is not None else []
    used = [slot for slot in result.get("embedding_slots") or [] if slot in configured]
    if not used or not served_ids or 0 in served_ids or _dump_slots(result) > len(configured):
        return []  # a dump of every layer holds the embedding output as one of its slots
    best = result.get("best")
    if best is None or list(_key(best)) != configured or result.get("unconfirmed_rows"):
        return []  # another layout fits better (SD402), or the fit is not confirmed
    accuracy = result.get("configured_accuracy0")
    evidence = [f"slot {used[0]} of the training dump is exactly the embedding output "
                f"(embed_tokens[token_ids]), and the draft fits the dump best in its configured "
                f"layout {configured}" + (f" (full_accuracy[0] {pct(float(accuracy))})"
                                          if isinstance(accuracy, (int, float)) else "")
                + ": it was trained on cat([embed, ...])",
                f"served {list(served_ids)} ({served_by}): none is the embedding output (id 0)"]
    facts = {"embedding_slots": used, "configured": configured, "served": list(served_ids)}
    remediation = ("Feed the draft what it was trained on: the embedding output first (layer id 0, "
                   "on an engine version that captures it), or retrain the draft on hidden states "
                   "of the layers the engine serves.")
    if root_causes:
        return [at.finding("SD201", evidence + [explained_by(root_causes)], facts, severity="info",
                           title="Layout probe confirms: the draft was trained on the embedding output",
                           remediation=remediation)]
    return [at.finding("SD201", evidence, facts, remediation=remediation)]


def _configured_tie(result: Mapping[str, Any], scores: Mapping[tuple, float], best_acc: float,
                    named: tuple) -> str | None:
    """The evidence line for the draft's configured layout when the probe found it as good as
    the best within noise (its unclear_rows or unconfirmed_rows counts) and the served layout is
    a third one: `spec-debug demo` named "best layout [1, 2, 4]" as what the drafter fits while
    its config's [0, 2, 4] scored one row of 376 less and SD201 sends the user to serve that."""
    configured = _key(result["configured"]) if result.get("configured") is not None else None
    counts = result.get("unclear_rows") or result.get("unconfirmed_rows")
    if configured is None or configured not in scores or configured in named or not isinstance(counts, Mapping):
        return None
    rows = counts.get("rows")
    if not isinstance(rows, int) or rows <= 0:
        return None
    behind = round((best_acc - scores[configured]) * rows)
    return (f"the draft's configured layout {list(configured)}: {pct(scores[configured])}, {behind} of {rows} "
            "rows behind the best: too few to tell the two apart, so the configured layout is the one to serve")


def _dump_slots(result: Mapping[str, Any]) -> int:
    """How many aux slots the probed dump holds, at least: the embedding check reads every
    slot, and the ranked layouts use them; both count the final one too."""
    used = {slot for row in result.get("ranked") or [] for slot in _key(row["layout"])}
    return max(len(result.get("slot_checks") or []), len(used)) - 1


def _few_rows(result: Mapping[str, Any], served_key: tuple) -> str | None:
    """The evidence line for a best layout the probe's verdict found too few rows to name,
    when the served layout is the configured one that verdict compared it with."""
    configured = result.get("configured")
    if configured is None or _key(configured) != served_key:
        return None
    counted = result.get("unclear_rows")
    if isinstance(counted, Mapping):
        rows = f"{counted.get('gained')} more of {counted.get('rows')} rows right"
    elif UNCLEAR_LAYOUT in str(result.get("verdict") or ""):
        rows = "a few rows more"  # a record written before the report carried the counts
    else:
        return None
    # said in a playbook run (the layout step): `spec-debug run` takes the sample count as the
    # playbooks' var (playbooks/*.yaml max_samples), not the drafter's --max-samples option
    return (f"{rows}: too few to tell the draft's layout from chance; probe more samples "
            "(--var max_samples=N) before changing the served layers")


def _num(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, (int, float)) else "n/a"


def _layers(metrics: Mapping[str, Any]) -> str:
    ids = metrics.get("layout_layer_ids")
    return f", fed layers {ids}" if ids else ""


def check_engine_semantics(reference: Mapping[str, Any], engine: Mapping[str, Any], engine_name: str,
                           *, ignored_flags: list[str] | None = None, root_causes: list[str] | None = None,
                           string_flags: Mapping[str, str] | None = None, at: Where = Where()) -> list[Finding]:
    """SD403: the same weights run as the engine does lose measurable acceptance. `string_flags`:
    norm flags config.json writes as strings ("false"), which the engine reads as true."""
    ref, eng = _acc0(reference), _acc0(engine)
    if ref is None or eng is None or ref - eng < SEMANTICS_ACC_DROP:
        return []
    evidence = [f"reference semantics: full_accuracy[0] {pct(ref)}, expected accept length "
                f"{_num(reference.get('expected_accept_length'))} at {reference.get('steps', '?')} steps"
                f"{_layers(reference)}",
                f"{engine_name} semantics: full_accuracy[0] {pct(eng)}, expected accept length "
                f"{_num(engine.get('expected_accept_length'))}{_layers(engine)}"]
    strings = {flag: value for flag, value in (string_flags or {}).items() if flag in (ignored_flags or [])}
    ignored = [flag for flag in ignored_flags or [] if flag not in strings]
    if ignored:
        evidence.append(f"{engine_name} ignores {', '.join(ignored)}")
    for flag, value in strings.items():
        evidence.append(f"config.json writes {flag}: {json.dumps(value)}, a string: the checkpoint's trainer "
                        f"(speculators) reads it as a boolean, {engine_name} as a non-empty, so true, value")
    facts = {"reference_accuracy": ref, "engine_accuracy": eng, "drop": ref - eng,
             "ignored_flags": ignored_flags or []}
    if root_causes:
        evidence.append(explained_by(root_causes))
        # Not the catalog's "upgrade to an engine version that honours the flag": the demo's
        # divergence is the layers fed (SD201), no flag at all, and a step-through printed that
        # fix under it. The root cause's own finding says what to change.
        return [at.finding("SD403", evidence, facts, severity="info",
                           title=f"Measured cost of the {engine_name} divergence",
                           remediation=f"Fix {', '.join(root_causes)} (reported for this host): this drop "
                                       "is what it costs in standalone accuracy.")]
    if strings and not ignored:
        return [at.finding("SD403", evidence, facts, remediation=(
            f"Write {', '.join(strings)} as a JSON boolean (true/false, no quotes) in the draft's config.json."))]
    return [at.finding("SD403", evidence, facts)]


def check_norm_before_residual_fit(result: Mapping[str, Any], engine: str | None,
                                   at: Where = Where()) -> list[Finding]:
    """SD704: the layout probe scored the configured layout with norm_before_residual both ways
    (eagle3/layout.py norm_before_residual_check) and the other value fits the weights clearly
    better. `speculators convert --algorithm eagle3` writes false unless told otherwise while
    speculators' trainer defaults to true (see there). The probe ranked its layouts with the
    other value and said so only in its verdict: the step raised nothing and the run PASSED
    over a draft that scores near zero as configured."""
    check = result.get("norm_before_residual_check")
    if not isinstance(check, Mapping) or check.get("ranked_with") in (None, check.get("config")):
        return []
    ours, other = str(bool(check["config"])).lower(), str(bool(check["ranked_with"])).lower()
    evidence = [f"config.json's norm_before_residual is {ours}, but the draft's weights fit {other}: "
                f"the configured layout's step-0 accuracy on the training dump is "
                f"{check['flipped_accuracy0']:.3f} with {other} vs {check['accuracy0']:.3f} with {ours}"]
    if engine == "sglang" and other == "true":
        # SGLang's llama_eagle3.py has no such flag: its midlayer takes the residual before
        # the norm, i.e. false, whatever config.json says (eagle3/engines.py)
        evidence.append("SGLang never reads norm_before_residual (llama_eagle3.py runs it as false): "
                        "editing config.json does not change what SGLang serves; serve the draft on "
                        "vLLM (which honours it) or retrain it with norm_before_residual false")
    else:
        how = (" (speculators convert writes false unless given --algorithm-kwargs "
               "'{\"norm_before_residual\": true}')" if other == "true" else "")
        evidence.append(f"set norm_before_residual to {other} in config.json{how} and restart the "
                        "server: vLLM and speculators run the flag as config.json says")
    return [at.finding("SD704", evidence, {"key": "norm_before_residual", "config": check["config"],
                                           "weights_fit": check["ranked_with"],
                                           "accuracy0": check["accuracy0"],
                                           "flipped_accuracy0": check["flipped_accuracy0"]})]
