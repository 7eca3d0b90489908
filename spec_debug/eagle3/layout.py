"""Layout probe: which order of dump slots makes the draft work best, and is a slot the
embedding output?

A draft trained on aux states (a, b, c) is only accurate when fed (a, b, c) in that order, so
ranking candidate layouts by step-0 accuracy fingerprints what the draft was trained on. That
tells a wrong serving layout (engine captured other layers, off by one, or concatenated the
embedding, as in the incident) from bad weights.

Candidates: every ordered choice of A slots when there are few (a normal dump of A+1 slots
gives (A+1)!/1! orders); for wide dumps, a pruned search: score every slot in each position
with the other positions at the configured layout, keep the best few per position, then score
their combinations (plus every order of the configured slots).
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, replace
from typing import Any, Callable, Sequence

import torch
from torch import Tensor

from spec_debug.eagle3.alignment import MISALIGNED
from spec_debug.eagle3.data import Sample
from spec_debug.eagle3.evaluate import PrecisionError, TargetCache, evaluate
from spec_debug.eagle3.layout_report import LayoutReport, SlotCheck
from spec_debug.eagle3.loading import ZEROED_NORMS_NOTE, LoadedDraft

EXHAUSTIVE_LIMIT = 120  # ordered choices scored exhaustively up to this many candidates
# The opening of the note loading.py `_initial_norms_note` adds when some RMSNorm weights are
# still exactly 1.0 beside trained ones: modules saved freshly initialised (speculators'
# converter without its `midlayer.` -> `layers.0.` remap, vllm-project/speculators#1114)
UNTRAINED_MODULES_NOTE = "RMSNorm weights at their initial value"
BEAM = 3  # slots kept per position in the pruned search
SEARCH_ROUNDS = 3  # layouts the pruned search looks around (the configured one, then the best)
CLEAR_MARGIN = 0.02  # accuracy difference we call "clearly better"
FLAG_MARGIN = 0.05  # step-0 accuracy the other norm_before_residual must gain to be named
FLAG_MIN_GAIN = 5  # ... and at least this many more rows right (see norm_before_residual_check)
# rows the best layout must get right beyond the configured one to be called the draft's: on
# a few dozen rows CLEAR_MARGIN is one hit (42 rows: 1 = 0.024), which a draft scoring near
# chance on every layout gets by luck (a dump missing a layer read 0.026 vs 0.000 and was
# called "trained on a different layout"). 5 is also the fewest rows a one-sided sign test
# on the rows the two layouts disagree on tells from chance at 5% (0.5**5 = 3%, 0.5**4 = 6%):
# a bound that grows with the hits (2.5 sqrt(hits), as the flag check uses) would also drop
# true verdicts, since the disagreeing rows are not counted (two aux slots saved swapped, 42
# rows: 0.690 vs 0.548, 6 apart, a bound of 18)
LAYOUT_MIN_GAIN = FLAG_MIN_GAIN
# best step-0 accuracy under which the final layer is looked for in another slot (see
# final_slot_check): targets from an aux layer leave every layout near chance, and the check
# costs a pass per slot, which a dump that scores well does not need
FINAL_SLOT_CHECK_BELOW = 0.25


def untrained_draft(loaded: LoadedDraft) -> bool:
    """Modules saved freshly initialised (loading.py `_initial_norms_note`): every layout
    and flag scores by chance."""
    return any(note.startswith(UNTRAINED_MODULES_NOTE) for note in loaded.notes)


def zeroed_norms(loaded: LoadedDraft) -> bool:
    """RMSNorm weights of zeros (loading.py ZEROED_NORMS_NOTE): the norm zeroes every state
    after it, so every layout and flag scores by chance."""
    return any(note.startswith(ZEROED_NORMS_NOTE) for note in loaded.notes)


def unmapped_draft(loaded: LoadedDraft) -> bool:
    """A draft vocabulary smaller than the target's and no d2t to map it (none saved, a
    misshapen one dropped, no --vocab-mapping): draft id i is scored as target id i, so each
    layout is scored against other tokens than the draft predicts (near zero, unless its
    tokens happen to be the first ids)."""
    cfg = loaded.model.cfg
    return loaded.model.d2t is None and cfg.draft_vocab_size < cfg.vocab_size


def candidate_layouts(num_slots: int, num_aux: int, configured: Sequence[int],
                      score: Callable[[tuple[int, ...]], float],
                      excluded: frozenset[int] = frozenset(),
                      extra: Sequence[Sequence[int]] = ()) -> tuple[dict, bool]:
    """Score candidates; returns ({layout: accuracy}, exhaustive). `excluded`: slots no
    candidate reads (they hold NaN/Inf, see Sample.non_finite). `extra`: layouts scored
    whatever the search prunes (probe's `extra_layouts`); the pruned search also moves on to
    the neighbours of whichever scores best."""
    scores: dict[tuple[int, ...], float] = {}
    usable = [slot for slot in range(num_slots) if slot not in excluded]

    def run(layout: tuple[int, ...]) -> None:
        if layout not in scores:
            scores[layout] = score(layout)

    total = 1
    for i in range(num_aux):
        total *= len(usable) - i
    if total <= EXHAUSTIVE_LIMIT:
        for layout in itertools.permutations(usable, num_aux):
            run(layout)
        return scores, True
    configured = tuple(configured)
    for layout in itertools.permutations(configured):
        run(layout)
    for layout in map(tuple, extra):
        if len(set(layout)) == len(layout) == num_aux and excluded.isdisjoint(layout):
            run(layout)

    def around(anchor: tuple[int, ...]) -> None:
        """Each slot in each position with the others at `anchor` (a slot the anchor holds
        in another position trades places with it); the best few per position combined."""
        keep: list[list[int]] = []
        for position in range(num_aux):
            trial: dict[int, float] = {}
            for slot in usable:
                layout = list(anchor)
                if slot in anchor:
                    # two aux slots saved in each other's place: the swap, which a plain
                    # substitution (one slot twice) never scored, so the search could not
                    # move from [2, 4, 5] to [4, 2, 5]
                    other = anchor.index(slot)
                    layout[other] = anchor[position]
                layout[position] = slot
                layout = tuple(layout)
                run(layout)
                trial[slot] = scores[layout]
            keep.append(sorted(trial, key=lambda s: -trial[s])[:BEAM])
        for layout in itertools.product(*keep):
            if len(set(layout)) == num_aux:
                run(tuple(layout))

    # Around the configured slots first; then around the best layout so far while that is
    # another one. With the other positions at the configured slots, one position's true
    # slot need not rank in the best few: on an unnamed dump of every layer (configured: the
    # first slots) with two layers saved swapped, the config's layers [2, 4, 5] (always
    # scored) led at 0.524 and the true [2, 6, 5] (0.690) was never scored
    searched = {configured}
    around(configured)
    for _ in range(SEARCH_ROUNDS - 1):
        best = max(scores, key=lambda layout: scores[layout])
        if best in searched:
            break
        searched.add(best)
        around(best)
    return scores, False


def embedding_slot_checks(samples: Sequence[Sample], embed: Tensor,
                          layer_ids: Sequence[int] | None) -> list[SlotCheck]:
    """Exact check of each slot against embed_tokens[token_ids] (the `cat([embed, ...])` case)."""
    num_slots = samples[0].slots.shape[1]
    checks = []
    for slot in range(num_slots):
        exact, worst = True, 0.0
        for sample in samples:
            state = sample.slots[:, slot]  # [T, Ht]
            looked_up = embed[sample.token_ids].to(state.dtype)  # [T, Ht]
            if looked_up.shape != state.shape:
                exact, worst = False, float("inf")
                break
            diff = (looked_up.float() - state.float()).abs().max().item()
            worst = max(worst, diff)
            exact = exact and torch.equal(looked_up, state)
        checks.append(SlotCheck(slot, layer_ids[slot] if layer_ids else None, exact, worst))
    return checks


def probe(loaded: LoadedDraft, samples: Sequence[Sample], *, configured: Sequence[int],
          dump_layer_ids: Sequence[int] | None = None, embed: Tensor | None = None,
          device: str = "cpu", extra_layouts: Sequence[Sequence[int]] = (),
          trained_layer_ids: Sequence[int] | None = None,
          trained_ids_assumed: bool = False, all_read: bool = False,
          noted: bool | None = None,
          excluded_slots: frozenset[int] = frozenset()) -> LayoutReport:
    """Rank layouts on `samples` (already in memory, all slots read).

    `extra_layouts` (slot tuples) are always scored, whatever the search prunes: the layout an
    engine serves must be in the ranking for "is the served layout the one the draft fits?".
    `trained_layer_ids`: the layers the draft was trained on, so a dump that does not hold
    them is named as such rather than "matching" the draft; `trained_ids_assumed`: those are
    the default for a config that names no ids, and the verdict says so. `all_read`: `samples`
    are every sample of the dump, so "probe more samples" cannot help. `noted`: the report
    will carry notes (the caller's and the draft's), so the verdict may point to them; None:
    only the draft's loading notes are known to be there. `excluded_slots`: slots holding
    NaN/Inf, which no layout scored reads (`configured` must not hold any)."""
    num_aux = loaded.model.cfg.num_aux
    num_slots = samples[0].slots.shape[1]
    references: set[str] = set()
    untrained = untrained_draft(loaded)
    unmapped = unmapped_draft(loaded)
    zeroed = zeroed_norms(loaded)
    flags = loaded.model.reference_flags

    # (layout, norm_before_residual) -> step-0 accuracy: the flag check scores the configured
    # layout before the search does, and must not add a pass over the samples of its own
    scored: dict[tuple[tuple[int, ...], bool], float] = {}
    rows: list[float] = []  # step-0 rows scored (the same for every layout)
    misaligned: list[str] = []
    # each sample's targets (the target head's logits over its rows) are the same for every
    # layout and flag: computed once per sample, not once per layout scored
    targets = TargetCache()

    def score(layout: tuple[int, ...]) -> float:
        key = (tuple(layout), flags.norm_before_residual)
        if key not in scored:
            result = evaluate(loaded, samples, steps=1, flags=flags, layout_positions=layout,
                              device=device, targets=targets)
            references.add(result.reference)
            scored[key] = result.full_accuracy[0]
            # the same for every layout (it reads the targets and ids only): kept once
            misaligned[:] = misaligned or [n for n in result.notes if n.startswith(MISALIGNED)]
            rows[:] = [result.counts["full_total"][0]]
        return scored[key]

    configured = tuple(configured)
    flag_check = None
    if not (untrained or zeroed):
        flag_check = norm_before_residual_check(loaded, samples, configured, device,
                                                accuracy0=score(configured), targets=targets)
        scored[(configured, not flags.norm_before_residual)] = flag_check["flipped_accuracy0"]
        if flag_check["ranked_with"] != flags.norm_before_residual:
            flags = replace(flags, norm_before_residual=flag_check["ranked_with"])
    scores, exhaustive = candidate_layouts(num_slots, num_aux, configured, score,
                                           excluded_slots, extra_layouts)
    final_check = None
    if not (untrained or unmapped or zeroed) and max(scores.values()) < FINAL_SLOT_CHECK_BELOW:
        final_check = final_slot_check(loaded, samples, configured, device,
                                       accuracy0=score(configured), flags=flags,
                                       targets=targets, excluded=excluded_slots)
    ranked_configured = configured
    if final_check is not None:
        # rank the layouts again against the targets of the slot that holds the final layer;
        # the aux states it displaced are the slots after it
        samples = [replace(s, final=s.slots[:, final_check["final_slot"]]) for s in samples]
        scored.clear()
        ranked_configured = tuple(final_check["layout"])
        scores, exhaustive = candidate_layouts(num_slots, num_aux, ranked_configured, score,
                                               excluded_slots, extra_layouts)
    for layout in [configured, ranked_configured, *map(tuple, extra_layouts)]:
        if layout not in scores and len(set(layout)) == len(layout) == num_aux \
                and excluded_slots.isdisjoint(layout):
            scores[layout] = score(layout)
    ranked_layouts = sorted(scores, key=lambda layout: (-scores[layout],
                                                     layout != ranked_configured))

    def named(layout: Sequence[int]) -> list[int] | None:
        return [dump_layer_ids[s] for s in layout] if dump_layer_ids else None

    ranked = [{"layout": list(layout), "layer_ids": named(layout),
               "full_accuracy0": scores[layout]} for layout in ranked_layouts]
    best = ranked_layouts[0]
    # scored against other tokens than the draft predicts, every layout near zero: no ranking
    # of them says which one the weights were trained on (a few lucky rows were named
    # "unconfirmed: probe more samples", or another layout; SD402 sent the user to the layers)
    unmapped = unmapped and scores[best] < FINAL_SLOT_CHECK_BELOW
    blind = untrained or unmapped or zeroed
    checks = embedding_slot_checks(samples, embed, dump_layer_ids) if embed is not None else []
    embedding_slots = [c.slot for c in checks if c.is_embedding]
    missing = [i for i in trained_layer_ids or () if dump_layer_ids and i not in dump_layer_ids]
    foreign = _foreign_layers(best, scores, list(trained_layer_ids or ()),
                              list(dump_layer_ids or ()), named,
                              scored=not blind, assumed=trained_ids_assumed) if missing else None
    unclear = (None if blind or foreign else
               unclear_rows(best, ranked_configured, scores, rows[0] if rows else None))
    no_skill = (None if blind or foreign or not rows else
                skill_check(loaded, scores[best], targets.most_frequent_target(samples), rows[0]))
    matches = best == ranked_configured or (
        scores[best] - scores[ranked_configured] < CLEAR_MARGIN)  # _verdict's "matches" branch
    unconfirmed = (unconfirmed_rows(ranked_configured, scores, rows[0] if rows else None)
                   if matches and not (blind or foreign or unclear) else None)
    if unconfirmed is not None:
        unconfirmed["all_read"] = all_read
    if (unclear is not None or unconfirmed is not None) and not clearly_below(no_skill):
        # those verdicts already say the ranking names no layout; but a draft clearly under
        # the constant guess (a random draft: 28 of 624 rows against 72) was told to "probe
        # more samples", which more samples of a draft that predicts nothing cannot answer
        no_skill = None
    verdict = _verdict(best, ranked_configured, scores, embedding_slots, named, foreign,
                       untrained, unclear=unclear, unconfirmed=unconfirmed, all_read=all_read,
                       no_skill=no_skill,
                       unmapped=(loaded.model.cfg.draft_vocab_size, loaded.model.cfg.vocab_size)
                       if unmapped else None, zeroed=zeroed,
                       noted=bool(loaded.notes) if noted is None else noted,
                       rows=rows[0] if rows else None)
    flipped = flag_check is not None and flag_check["ranked_with"] != flag_check["config"]
    if no_skill is not None:
        # no layout beats a constant prediction with that slot and that value either: their
        # gains are noise too, not a fault to fix first (the verdict said "config.json's
        # norm_before_residual does not fit these weights; set it" ahead of "the draft
        # predicts nothing")
        verdict += _unjudged_readings(final_check, flag_check if flipped else None)
    else:
        if final_check is not None:
            verdict = final_slot_mismatch(final_check) + "; with that slot as the final one: " + verdict
        if flipped:
            verdict = flag_mismatch(flag_check) + "; with that value: " + verdict
    return LayoutReport(
        ranked=ranked, best=list(best), configured=list(configured),
        configured_accuracy0=(final_check["accuracy0"] if final_check is not None
                              else scores[configured]), verdict=verdict, exhaustive=exhaustive,
        candidates=len(scores), samples=len(samples),
        reference="target_argmax" if references == {"target_argmax"} else "data_tokens",
        dump_layer_ids=list(dump_layer_ids) if dump_layer_ids else None,
        embedding_slots=embedding_slots, slot_checks=[asdict(c) for c in checks],
        untrained_draft=untrained, unmapped_draft=unmapped, zeroed_norms=zeroed,
        norm_before_residual_check=flag_check,
        final_slot_check=final_check, unclear_rows=unclear, unconfirmed_rows=unconfirmed,
        ids_misaligned=misaligned[0] if misaligned else None, no_skill=no_skill)


def skill_check(loaded: LoadedDraft, best_accuracy0: float, most_frequent: tuple[int, int],
                rows: float) -> dict[str, Any] | None:
    """The counts for a ranking whose best layout gets fewer than LAYOUT_MIN_GAIN more step-0
    rows right than always predicting the dump's most frequent target token (`most_frequent`:
    TargetCache.most_frequent_target's draft id and rows) would; None when it gets more.

    Such a draft predicts nothing from any order of the slots, so which order scores best is
    noise; but it need not be chance between layouts: a slot holding the target's final layer
    carries its argmax to any projection. A draft saved freshly initialised (speculators'
    Eagle3DraftModel before training: every RMSNorm weight 1.0) on its verifier's own dump
    scored [3, 1, 2] 0.042 vs 0.022 for the configured [0, 1, 2], 16 more of 780 rows, and
    was called "trained on a different layout", while always predicting the most frequent
    target gets 0.078 there. `initial_norms` says which of the causes it is."""
    draft_id, constant = most_frequent
    hits = round(best_accuracy0 * rows)
    if draft_id < 0 or hits - constant >= LAYOUT_MIN_GAIN:
        return None
    model = loaded.model
    target_id = int(model.to_target_ids(torch.tensor([draft_id], device=model.fc.weight.device))[0])
    return {"best_rows": hits, "constant_rows": constant, "rows": int(rows),
            "target_id": target_id, "initial_norms": loaded.initial_norms}


def clearly_below(no_skill: dict[str, Any] | None) -> bool:
    """skill_check's counts put the best layout under the constant prediction by a margin
    no chance explains: LAYOUT_MIN_GAIN rows, and 2.5 standard deviations of a difference of
    two counts (Poisson: sqrt of their sum), as norm_before_residual_check asks of a gain.
    Within that margin the hedged "unclear"/"unconfirmed" verdicts stay (a draft one hit
    short of the constant guess on 39 rows may still have skill)."""
    if no_skill is None:
        return False
    short = no_skill["constant_rows"] - no_skill["best_rows"]
    return short >= max(LAYOUT_MIN_GAIN,
                        2.5 * (no_skill["constant_rows"] + no_skill["best_rows"]) ** 0.5)


def norm_before_residual_check(loaded: LoadedDraft, samples: Sequence[Sample],
                               layout: tuple[int, ...] | None, device: str, *,
                               accuracy0: float | None = None,
                               targets: TargetCache | None = None) -> dict[str, Any]:
    """The configured layout scored again with norm_before_residual the other way, and the
    value to rank the layouts with: the other one when it clearly fits the weights better.

    The flag changes the first layer's residual on the same weights, and config.json is often
    not what the weights were trained with: `speculators convert --algorithm eagle3` writes
    false unless given `--algorithm-kwargs '{"norm_before_residual": true}'` (speculators
    src/speculators/__main__.py; its own regression test converts
    nm-testing/Speculator-Qwen3-8B-Eagle3 with true: tests/e2e/regression/
    test_eagle3_conversion_acceptance.py), while speculators' trainer defaults to true
    (train/config/schema.py). With the wrong value every layout scores near zero, and the
    best of that noise was blamed on the layout ("trained on a different layout")."""
    ours = loaded.model.reference_flags
    flipped = replace(ours, norm_before_residual=not ours.norm_before_residual)
    if accuracy0 is None:
        accuracy0 = evaluate(loaded, samples, steps=1, flags=ours, layout_positions=layout,
                             device=device, targets=targets).full_accuracy[0]
    flipped_result = evaluate(loaded, samples, steps=1, flags=flipped, layout_positions=layout,
                              device=device, targets=targets)
    other = flipped_result.full_accuracy[0]
    # a wide margin: an untrained draft scores noise either way. On few rows a margin in
    # accuracy alone is a hit or two (13 rows: 1 hit = 0.077), which a random draft gets by
    # chance about one time in four, so the gain must also be FLAG_MIN_GAIN hits and 2.5
    # standard deviations of a difference of two counts (Poisson: sqrt of their sum)
    rows = flipped_result.counts["full_total"][0]
    gain = (other - accuracy0) * rows  # rows the other value gets right in addition
    significant = gain >= max(FLAG_MIN_GAIN, 2.5 * ((other + accuracy0) * rows) ** 0.5)
    clearly = other - accuracy0 >= FLAG_MARGIN and other >= 2 * accuracy0 and significant
    return {"config": ours.norm_before_residual, "accuracy0": accuracy0,
            "flipped_accuracy0": other,
            "ranked_with": flipped.norm_before_residual if clearly else ours.norm_before_residual,
            "rows": int(rows)}


def final_slot_check(loaded: LoadedDraft, samples: Sequence[Sample],
                     configured: tuple[int, ...], device: str, *,
                     accuracy0: float | None = None,
                     flags: Any = None,
                     targets: TargetCache | None = None,
                     excluded: frozenset[int] = frozenset()) -> dict[str, Any] | None:
    """Which slot holds the target's final layer, when it is not the last one.

    speculators' loader feeds fc every slot but the last and takes the last as the verifier's
    final state (src/speculators/train/data.py: `hidden_states[:, :-1]` / `[:, -1]`). A dump
    written with the final layer first ([final, l2, l16, l29], or HF's `hidden_states[-1]`
    put in slot 0) is then scored against targets made from an aux layer: every layout reads
    ~0 and the layout ranking "matches" at 0.0. Each other slot is tried as the final one,
    the aux states being the remaining slots in order; one whose targets the draft hits
    clearly more often (the margins of norm_before_residual_check) is named.
    None when it cannot run: targets from the data's tokens (no target head, no final slot),
    a final state already normed, or a layout the dump's layer ids chose."""
    num_slots = int(samples[0].slots.shape[1])
    num_aux = len(configured)
    if (loaded.target_head is None or num_slots <= num_aux
            or tuple(configured) != tuple(range(num_aux))
            or any(s.final is None or s.final_normed or s.layer_ids for s in samples)):
        return None
    try:
        if accuracy0 is None:
            accuracy0 = evaluate(loaded, samples, steps=1, flags=flags,
                                 layout_positions=tuple(configured),
                                 device=device, targets=targets).full_accuracy[0]
    except PrecisionError:
        return None  # the evaluation itself says so
    best = None
    for final in range(num_slots - 1):
        others = tuple(s for s in range(num_slots) if s != final)[:num_aux]
        if final in excluded or not excluded.isdisjoint(others):
            continue  # NaN/Inf there (Sample.non_finite): no reading of them scores
        moved = [replace(s, final=s.slots[:, final]) for s in samples]
        try:
            result = evaluate(loaded, moved, steps=1, flags=flags, layout_positions=others,
                              device=device)
        except PrecisionError:
            # the real final state fed as an aux one passes float16's range (a massive
            # activation, as final layers hold): that reading cannot be scored in float16
            continue
        if result.reference != "target_argmax":
            return None
        rows = result.counts["full_total"][0]
        other = result.full_accuracy[0]
        gain = (other - accuracy0) * rows
        significant = gain >= max(FLAG_MIN_GAIN, 2.5 * ((other + accuracy0) * rows) ** 0.5)
        if other - accuracy0 >= FLAG_MARGIN and other >= 2 * accuracy0 and significant \
                and (best is None or other > best["final_slot_accuracy0"]):
            order = [s for s in range(num_slots) if s != final] + [final]
            best = {"final_slot": final, "final_slot_accuracy0": other, "layout": list(others),
                    "accuracy0": accuracy0, "num_slots": num_slots, "order": order}
    return best


def _unjudged_readings(final_check: dict[str, Any] | None,
                       flag_check: dict[str, Any] | None) -> str:
    """The clause, after a no-skill verdict, for the final slot and the norm_before_residual
    value the ranking used although they scored no better than a constant prediction ("" when
    it used the dump's last slot and config.json's value)."""
    readings = []
    if final_check is not None:
        readings.append(f"slot {final_check['final_slot']}'s states as the targets (step-0 "
                        f"accuracy {final_check['final_slot_accuracy0']:.3f} vs "
                        f"{final_check['accuracy0']:.3f} with slot "
                        f"{final_check['num_slots'] - 1}'s)")
    if flag_check is not None:
        ours, other = str(flag_check["config"]).lower(), str(not flag_check["config"]).lower()
        readings.append(f"norm_before_residual={other} ({flag_check['flipped_accuracy0']:.3f} "
                        f"vs {flag_check['accuracy0']:.3f} with config.json's {ours})")
    if not readings:
        return ""
    return ("; the layouts were ranked with " + " and ".join(readings) + ", which scored "
            "better, but no better than that constant prediction: noise as well, so neither "
            "the dump's final slot nor config.json's norm_before_residual is judged from it")


def final_slot_mismatch(check: dict[str, Any]) -> str:
    """The sentence for a final_slot_check that found the final layer in another slot."""
    last = check["num_slots"] - 1
    return (f"slot {check['final_slot']} holds the target's final layer, not slot {last}: "
            f"with slot {check['final_slot']}'s states as the targets and slots "
            f"{check['layout']} as the aux states, step-0 accuracy is "
            f"{check['final_slot_accuracy0']:.3f} vs {check['accuracy0']:.3f} with slot "
            f"{last}'s; speculators' loader (and the engines' capture) put the final layer "
            f"last and feed fc the slots before it, so this dump trains and scores the draft "
            f"against an aux layer: write it again with the final layer last "
            f"(hidden_states[:, {check['order']}])")


def flag_mismatch(check: dict[str, Any]) -> str:
    """The sentence for a norm_before_residual_check whose other value fits the weights."""
    ours, other = str(check["config"]).lower(), str(not check["config"]).lower()
    how = ("speculators convert writes false unless given --algorithm-kwargs "
           "'{\"norm_before_residual\": true}'" if other == "true" else
           "drafts made for SGLang have the norm after the residual, i.e. false: SGLang "
           "llama_eagle3.py has no such flag")
    return (f"config.json's norm_before_residual={ours} does not fit these weights: the "
            f"configured layout's step-0 accuracy is {check['flipped_accuracy0']:.3f} with "
            f"{other} vs {check['accuracy0']:.3f} with {ours}; set it to {other} in "
            f"config.json ({how}), or engines that honour it (vLLM, speculators) run the "
            "draft wrong")


def _foreign_layers(best: tuple[int, ...], scores: dict, trained: list[int],
                    dump_layer_ids: list[int], named: Callable, scored: bool = True,
                    assumed: bool = False) -> str:
    """The dump lacks some of the draft's layers: no order of its slots is "the draft's
    layout". When it holds every trained layer shifted by the same few ids, that is the
    off-by-one capture of EAGLE3.md section 3 (vllm-project/vllm#43671,
    sgl-project/sglang#25454), told from the ids alone. `scored`: also name the slots that
    score best (not when the scores mean nothing, see _verdict)."""
    if assumed:
        # no ids in the config: nothing says the capture is off, only that the engines will
        # feed their default layers (EAGLE3.md section 3) and not the dump's
        text = (f"the dump holds layers {dump_layer_ids}, not the default layers {trained} "
                "that engines feed a draft whose config names no "
                "eagle_aux_hidden_state_layer_ids: if the draft was trained on this dump, "
                "write its layers into the draft's config.json")
    else:
        text = (f"the dump holds layers {dump_layer_ids}, not the draft's {trained}: it was "
                "captured at other layers than the draft was trained on")
        shifted = shifted_capture(trained, dump_layer_ids)
        if shifted:
            text += "; it " + shifted
    if not scored:
        return text
    return text + (f"; of its slots, slots {list(best)} (layers {named(best)}) score best "
                   f"(step-0 accuracy {scores[best]:.3f})")


def shifted_capture(trained: Sequence[int], dump_layer_ids: Sequence[int]) -> str | None:
    """A sentence when the dump holds every trained layer moved by the same small shift and
    not the trained layers themselves: the signature of an off-by-one capture."""
    if all(layer in dump_layer_ids for layer in trained):
        return None
    for shift in (1, -1, 2, -2):
        moved = [layer + shift for layer in trained]
        if all(layer in dump_layer_ids for layer in moved):
            return (f"holds each of the draft's layers {shift:+d} ({moved}): a capture off "
                    f"by {abs(shift)} (the dumper or engine counts layers another way: "
                    "input-to vs output-of layer numbering)")
    return None


def unclear_rows(best: tuple[int, ...], configured: tuple[int, ...], scores: dict,
                 rows: float | None) -> dict[str, int] | None:
    """{"gained", "rows"} when the best layout leads the configured one by CLEAR_MARGIN but
    gets fewer than LAYOUT_MIN_GAIN more of the `rows` scored right: too few to name it."""
    gap = scores[best] - scores[configured]
    if best == configured or gap < CLEAR_MARGIN or rows is None:
        return None
    gained = round(gap * rows)
    return {"gained": gained, "rows": int(rows)} if gained < LAYOUT_MIN_GAIN else None


def unconfirmed_rows(configured: tuple[int, ...], scores: dict,
                     rows: float | None) -> dict[str, Any] | None:
    """{"lead", "rows", "runner_up"} when the configured layout scores best (or within
    CLEAR_MARGIN of the best) but gets fewer than LAYOUT_MIN_GAIN more of the `rows` scored
    right than the next layout: "the draft matches this dump's layout" would rest on chance.
    Short samples or a loss mask that selects few positions give a few dozen rows, where one
    hit is several points (6 rows: the configured order and its swap both 1.000, and the probe
    said the draft matches); the same sign test as unclear_rows, the other way round."""
    others = [layout for layout in scores if layout != configured]
    if rows is None or not others:
        return None
    runner = max(others, key=lambda layout: scores[layout])
    lead = round((scores[configured] - scores[runner]) * rows)
    if lead >= LAYOUT_MIN_GAIN:
        return None
    return {"lead": lead, "rows": int(rows), "runner_up": list(runner)}


def _reordered(best: Sequence[int], configured: Sequence[int],
               embedding_slots: Sequence[int] = (), scores: dict | None = None,
               rows: float | None = None, named_dump: bool = True) -> str:
    """The cause to add when the best layout reads the configured slots in another order:
    the same layers were captured, so their order went wrong on one side - the dump wrote
    them in another order than its layer_ids (or the config's
    eagle_aux_hidden_state_layer_ids) name, or the draft was trained on them reordered.
    `named_dump`: the dump has layer_ids metadata; a dump without any was told it saved its
    layers "in another order than its layer_ids metadata" names, metadata it does not have."""
    if sorted(best) != sorted(configured):
        return ""
    shifted = _rotated_capture(tuple(best), tuple(configured), embedding_slots, scores, rows)
    if shifted:
        return shifted
    than = ("than its layer_ids metadata or the config's eagle_aux_hidden_state_layer_ids name"
            if named_dump else "than the config's eagle_aux_hidden_state_layer_ids lists them "
            "(the dump names no layers, so nothing in it records the order its dumper wrote)")
    return ("; it reads the configured slots in another order: the dump holds the draft's "
            f"layers but saved them in another order {than}, or the draft was trained on them "
            "in that order; check the order the dumper concatenated the layers in, then dump "
            "again in the config's order (or reorder eagle_aux_hidden_state_layer_ids)")


def _filler_position(best: tuple[int, ...], position: int, scores: dict | None,
                     rows: float | None) -> bool:
    """The slot `best` reads at `position` is no better there than another slot of the dump
    (some scored layout that differs from best only at that position gets fewer than
    LAYOUT_MIN_GAIN fewer rows right): the draft's layer for that position is in no slot."""
    if not scores or not rows:
        return False
    for layout, score in scores.items():
        if (layout != best and len(layout) == len(best) and layout[position] not in best
                and all(a == b for i, (a, b) in enumerate(zip(layout, best)) if i != position)
                and round((scores[best] - score) * rows) < LAYOUT_MIN_GAIN):
            return True
    return False


def _rotated_capture(best: tuple[int, ...], configured: tuple[int, ...],
                     embedding_slots: Sequence[int], scores: dict | None = None,
                     rows: float | None = None) -> str | None:
    """The clause for a best layout that is the configured one rotated by one position
    around an embedding slot: the dump's capture is one layer off the draft's, not reordered.
    A dump of (embed, a, b) for a draft trained on (a, b, c) (the incident's cat([embed,
    layer3, layer31]) against an engine's layers 3, 31, 59, read the other way round) scores
    best as (a, b, embed): a and b in the positions the draft learnt them, the embedding
    output filling the last one as the least bad of what is left (0.405 vs 0.286 configured,
    0.690 for the draft's own dump), which "saved them in another order" misread as a
    reorder of the draft's layers. The embedding output is the tell: no dumper concatenates
    it after target layers, and it is no engine's default (EAGLE3.md section 3)."""
    if len(configured) < 2:
        return None
    left = configured[1:] + configured[:1]  # positions 0..A-2 read slots one later
    right = configured[-1:] + configured[:-1]  # positions 1..A-1 read slots one earlier
    if best == right and not embedding_slots and _filler_position(best, 0, scores, rows):
        # the incident's direction: a draft trained on (embed, a, b) fed (a, b, c): a and b
        # score in the positions the draft learnt them, and the first reads the slot left
        # over no better than another (the draft's first layer is in no slot); a true
        # reorder (the dumper wrote (b, c, a)) needs that slot there, and loses rows without
        return (f"; it reads slots {list(configured[:-1])} at the draft's last "
                f"{len(configured) - 1} positions, each one slot earlier than configured, and "
                f"its first position reads slot {configured[-1]} no better than another slot "
                "of the dump: not a reorder but a capture one layer off - the dump lacks the "
                "draft's first aux layer (a draft trained on an earlier layer, such as the "
                "embedding output, than the engine or dumper captures); capture the layers "
                "the draft was trained on and dump again, or retrain on the served layers")
    if not embedding_slots:
        return None
    if best == left and configured[0] in embedding_slots:
        return (f"; it reads slots {list(configured[1:])} at the draft's first "
                f"{len(configured) - 1} positions, each one slot later than configured, and "
                f"the embedding output (slot {configured[0]}) last: not a reorder but a "
                "capture one layer off - the dump starts at the embedding output and lacks "
                "the draft's last aux layer (a draft trained on later layers than the engine "
                "or dumper captures); capture the layers in the draft's "
                "eagle_aux_hidden_state_layer_ids and dump again")
    if best == right and configured[-1] in embedding_slots:
        return (f"; it reads slots {list(configured[:-1])} at the draft's last "
                f"{len(configured) - 1} positions, each one slot earlier than configured, and "
                f"the embedding output (slot {configured[-1]}) first: not a reorder but a "
                "capture one layer off - the dump lacks the draft's first aux layer; capture "
                "the layers in the draft's eagle_aux_hidden_state_layer_ids and dump again")
    return None


def _near_zero_everywhere(scores: dict, ids: bool = True) -> str:
    """The clause for a ranking where no layout reaches FINAL_SLOT_CHECK_BELOW: layouts tied
    near zero are not "too few rows", and more samples will not rank them. A dump of another
    target of the same hidden size (other weights) scored 0.000 on every layout and was told
    only to probe more samples."""
    top = max(scores.values())
    if top >= FINAL_SLOT_CHECK_BELOW:
        return ""
    # ids=False (the no-skill verdict): the ids' alignment has its own check and note
    # (alignment.py), so an aligned dump's verdict does not name its ids as a suspect
    return (f"; no layout reaches {FINAL_SLOT_CHECK_BELOW:.2f} at step 0 (best {top:.3f}), far "
            "under what a trained draft scores on the states it was trained on: check that "
            "the dump is of the draft's own target (states of another model of the same "
            "hidden size fit no layout)" + (", that its token ids line up with its states, and "
                                           "the draft's weights" if ids else ""))


def _verdict(best: tuple[int, ...], configured: tuple[int, ...], scores: dict,
             embedding_slots: list[int], named: Callable, foreign: str | None = None,
             untrained: bool = False, unclear: dict[str, int] | None = None,
             unconfirmed: dict[str, Any] | None = None, all_read: bool = False,
             unmapped: tuple[int, int] | None = None, zeroed: bool = False,
             noted: bool = True, rows: float | None = None,
             no_skill: dict[str, Any] | None = None) -> str:
    """`foreign`: the sentence for a dump without the draft's layers, which replaces the
    comparison with the configured layout (then only a guess). `untrained`: the draft holds
    modules saved freshly initialised, so no accuracy says which layout it was trained on.
    `unclear`: unclear_rows' counts, when the best layout leads by too few rows to name;
    `unconfirmed`: unconfirmed_rows', when the configured one does; `all_read`: every sample
    of the dump was probed, so more samples cannot come from --max-samples. `unmapped`: (draft
    vocab, target vocab) of a draft without d2t whose layouts all score near zero.
    `zeroed`: the draft has RMSNorm weights of zeros, so every layout scores by chance.
    `noted`: the report carries notes; without any, "see the notes" would point to nothing
    (the zeroed and untrained verdicts always have theirs: the draft's loading notes).
    `no_skill`: skill_check's counts, when no layout beats a constant prediction."""
    def describe(layout: Sequence[int]) -> str:
        names = named(layout)
        return f"slots {list(layout)}" + (f" (layers {names})" if names else "")

    gap = scores[best] - scores[configured]
    if zeroed:
        # every state after that norm is zero: the ranking (ties at chance) would send the
        # user to probe more samples, when the fix is the copy of the checkpoint
        text = ("no layout can be judged with this draft: RMSNorm weights of it are all zeros "
                "(see the notes), so every layout scores by chance (best "
                f"{describe(best)} at step-0 accuracy {scores[best]:.3f}); copy the checkpoint "
                "again, then rerun drafter layout")
        if foreign:
            text += "; " + foreign
    elif untrained:
        # A layer with random weights scores every layout by chance: the ranking would send the
        # user to the layer ids or the engine's capture, when the fix is the conversion.
        text = ("no layout can be judged with this draft: its layer is untrained (RMSNorm "
                "weights still exactly 1.0 beside trained ones: saved freshly initialised by a "
                "conversion or export, see the notes), so every layout scores by chance (best "
                f"{describe(best)} at step-0 accuracy {scores[best]:.3f}); convert or export "
                "the draft again from the training checkpoint, then rerun drafter layout")
        if foreign:
            text += "; " + foreign
    elif unmapped is not None:
        text = (f"no layout can be judged with this draft: it has no d2t (draft vocab "
                f"{unmapped[0]} < target vocab {unmapped[1]}), so draft id i is scored as "
                f"target id i and every layout scores near zero (best {describe(best)} at "
                f"step-0 accuracy {scores[best]:.3f}); pass the training's vocab map "
                "(--vocab-mapping, or the playbook var vocab_mapping: SpecForge "
                "vocab_mapping.pt, speculators d2t.npy) to rank "
                "the layouts, and save d2t and t2d into the checkpoint, which engines need too")
        if foreign:
            text += "; " + foreign
    elif foreign:
        text = foreign
    elif no_skill is not None:
        # "matches" or "trained on a different layout" would rest on a draft that predicts
        # nothing from any of these layouts
        text = (f"no layout can be judged on this dump: the best, {describe(best)}, gets "
                f"{no_skill['best_rows']} of {no_skill['rows']} step-0 rows right "
                f"({scores[best]:.3f}) against {no_skill['constant_rows']} for always "
                f"predicting the dump's most frequent target token (id "
                f"{no_skill['target_id']}), not {LAYOUT_MIN_GAIN} more: the draft predicts "
                "nothing from any order of these slots, so their ranking is noise; "
                + ("every RMSNorm weight of the draft is exactly 1.0, its initial value: it "
                   "looks saved before any training (a freshly initialised draft); probe the "
                   "trained checkpoint" if no_skill["initial_norms"] else
                   "check that the dump is of the draft's own target and holds its aux "
                   "layers, then the draft's weights"))
        if no_skill["initial_norms"]:
            # the norms say "untrained", but a trained draft scored on another target's states
            # (or on ids off its states) predicts nothing either: its near-zero best says so
            text += _near_zero_everywhere(scores, ids=False)
    elif (best == configured or gap < CLEAR_MARGIN) and unconfirmed is not None:
        runner = tuple(unconfirmed["runner_up"])
        lead = unconfirmed["lead"]
        if -lead >= LAYOUT_MIN_GAIN:
            # the runner-up is the best, by enough rows but within CLEAR_MARGIN: "the configured
            # scores best, but [3, 2, 0] gets 12 more of 624 rows right than the configured, too
            # few (a sign test wants 5)" contradicted itself twice (624 rows: CLEAR_MARGIN is
            # 12.5 rows)
            text = (f"{describe(runner)} scores best (step-0 accuracy {scores[runner]:.3f}), "
                    f"close to the configured layout {describe(configured)} "
                    f"({scores[configured]:.3f}): {-lead} more of {unconfirmed['rows']} rows "
                    f"right, a lead under {CLEAR_MARGIN} in step-0 accuracy, too small to name "
                    "it the draft's, so this dump does not confirm the draft's layout; ")
        elif lead < 0:
            # the runner-up leads by a row or few: "configured layout [0, 1, 2] scores best
            # (0.494), but [0, 2, 1] scores 0.506: 2 more of 156 rows right than the
            # configured" named as best the layout that scored less; it is a tie within noise
            text = (f"configured layout {describe(configured)} (step-0 accuracy "
                    f"{scores[configured]:.3f}) and {describe(runner)} ({scores[runner]:.3f}) "
                    f"tie within noise: {describe(runner)} gets {-lead} more of "
                    f"{unconfirmed['rows']} rows right, too few to tell the layouts apart (a sign "
                    f"test wants {LAYOUT_MIN_GAIN} all one way), so this dump does not confirm "
                    "the draft's layout; ")
        else:
            text = (f"configured layout {describe(configured)} scores best "
                    f"(step-0 accuracy {scores[configured]:.3f}), but {describe(runner)} scores "
                    f"{scores[runner]:.3f}: "
                    + (f"{lead} more of {unconfirmed['rows']} rows right" if lead > 0 else
                       f"as many of {unconfirmed['rows']} rows right")
                    + f", too few to tell the layouts apart (a sign test wants {LAYOUT_MIN_GAIN} "
                    "all one way), so this dump does not confirm the draft's layout; ")
        text += (("every sample of the dump was probed: probe a dump with more samples, or "
                  "longer ones (more loss-masked positions)" if unconfirmed.get("all_read")
                  else "probe more samples (--max-samples) or longer ones (more "
                  "loss-masked positions)")
                 + _near_zero_everywhere(scores))
    elif best == configured or gap < CLEAR_MARGIN:
        text = (f"configured layout {describe(configured)} scores best "
                f"(step-0 accuracy {scores[configured]:.3f}): the draft matches this dump's "
                "layout")
    elif unclear is not None:
        text = (f"no layout is clearly the draft's: {describe(best)} scores {scores[best]:.3f} "
                f"vs {scores[configured]:.3f} for the configured {describe(configured)}, "
                f"{unclear['gained']} more of {unclear['rows']} rows right, too few to tell from "
                f"chance (a sign test wants {LAYOUT_MIN_GAIN} all one way: "
                f"0.5**{LAYOUT_MIN_GAIN} = {0.5 ** LAYOUT_MIN_GAIN:.0%}); "
                + ("every sample of the dump was probed: probe a dump with more samples, "
                   if all_read else "probe more samples (--max-samples), ")
                + "and if every layout stays near zero check the draft and the dump's targets"
                + (" (see the notes)" if noted else ""))
    else:
        text = (f"{describe(best)} scores {scores[best]:.3f} vs {scores[configured]:.3f} for the "
                f"configured {describe(configured)}: the draft was trained on a different "
                "layout than the one configured (check the aux layer ids and the engine's "
                "capture convention)" + _reordered(best, configured, embedding_slots, scores, rows,
                                                    named_dump=named(best) is not None))
    if embedding_slots:
        text += (f"; slot(s) {embedding_slots} hold the embedding output (embed_tokens[ids]) - "
                 "no engine feeds it by default")
        if any(s in configured for s in embedding_slots):
            text += ", and the configured layout uses it"
    return text
