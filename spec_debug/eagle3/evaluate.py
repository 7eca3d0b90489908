"""Acceptance evaluation of a draft on hidden-state samples (teacher forcing).

Per sample, the data is aligned as speculators' `shift_batch` does
(src/speculators/models/eagle3/data.py): row t sees input_ids[t+1] with the aux states of
position t and is scored against the verifier at position t+1. Step k compares the draft's
row-t logits with the targets of row t+k and keeps a running "all previous steps correct"
chain, exactly like speculators metrics.py `align_for_step` + models/metrics.py
`compute_accuracy_single_step`:

  full_accuracy[k]        = #(loss rows where steps 0..k were all right) / #(loss rows at k)
  conditional_accuracy[k] = same numerator / #(rows right at steps 0..k-1)

Targets are the verifier argmax restricted to the draft vocabulary (speculators
`verifier_lm_head = lm_head[t2d]`). `target_acceptance[k]` uses the same chain against the
unrestricted argmax after mapping draft ids through d2t, i.e. what greedy verification in an
engine accepts. Counts are summed over samples before dividing (speculators sums `_sum` and
`_total` the same way).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

import torch
from torch import Tensor

from spec_debug.eagle3.alignment import OFFSETS, id_agreement, misalignment_note
from spec_debug.eagle3.data import Sample, every_position_padding, lost_layer_positions
from spec_debug.eagle3.loading import LoadedDraft, TargetHead
from spec_debug.eagle3.model import Eagle3Draft, NormFlags
from spec_debug.errors import SpecDebugError

_ROW_CHUNK = 1024  # rows of target logits computed at once (bounds the [rows, V] tensor)
# Draft logits per chunk of rows, in elements (256 MiB in fp32): a sample of up to 2048 tokens of
# a 32k-vocab draft is one chunk, a 100k-token one no longer holds [T, DV] logits per step.
DRAFT_LOGITS_BUDGET = 1 << 26


@dataclass
class EvalResult:
    steps: int
    full_accuracy: list[float]
    conditional_accuracy: list[float]
    target_acceptance: list[float]
    target_conditional_acceptance: list[float]
    expected_accept_length: float
    samples: int
    tokens: int
    reference: str  # "target_argmax" | "data_tokens"
    semantics: str = "reference"
    engine_version: str | None = None
    norm_flags: dict[str, bool] = field(default_factory=dict)
    layout: list[int] = field(default_factory=list)
    layout_layer_ids: list[int] | None = None
    draft_vocab_coverage: float | None = None  # share of target tokens inside the draft vocab
    embed_source: str = "draft"
    device: str = "cpu"
    dtype: str = "float32"
    elapsed_s: float = 0.0
    tokens_per_s: float = 0.0  # sequence positions per second, each run through all steps
    notes: list[str] = field(default_factory=list)
    # samples whose final slot was found past the target's norm (HF output_hidden_states ends
    # with that state; vLLM captures it before): scored on lm_head of it, not normed again
    final_state_post_norm: int = 0
    # raw per-step sums, so results from several hosts or shards can be added up (and
    # draft_vocab_rows / draft_vocab_hits: one entry each, draft_vocab_coverage's sums)
    counts: dict[str, list[float]] = field(default_factory=dict)
    # steps k with no row to score (--steps deeper than every sample): their accuracies above
    # stay 0.0 (the lists are floats for the diagnose and report readers) but mean "not
    # scored", as `notes` says and the table prints n/a
    unscored_steps: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Counts:
    """Raw sums per step, like speculators' `*_sum` / `*_total` metrics."""

    steps: int
    device: torch.device

    def __post_init__(self) -> None:
        zeros = lambda: torch.zeros(self.steps, dtype=torch.float64, device=self.device)  # noqa: E731
        self.full_correct, self.full_total, self.cond_total = zeros(), zeros(), zeros()
        self.target_correct, self.target_cond_total = zeros(), zeros()
        self.in_vocab = torch.zeros((), dtype=torch.float64, device=self.device)
        self.scored = torch.zeros((), dtype=torch.float64, device=self.device)
        self.samples = 0
        self.tokens = 0
        self.longest = 0  # tokens of the longest sample scored: step k needs k+2 of them
        self.final_normed_detected = 0  # samples whose final slot was found past the norm
        self.past_max_positions = 0  # samples longer than the draft's max_position_embeddings
        # samples whose loss_mask leaves no row to score: counted in `samples`, adding nothing
        self.unsupervised = torch.zeros((), dtype=torch.int64, device=self.device)
        # and their names (the first few), read on the CPU copy of the mask: the note names
        # the files to open, not only how many there are
        self.unsupervised_names: list[str] = []
        # samples read with and without a loss_mask of their own: a folder mixing two dumps
        # scores some samples at every position and others only where their mask is set
        self.masked_samples = 0
        self.unmasked_samples = 0
        self.unmasked_names: list[str] = []
        self.padded_samples = 0  # samples read without the pad rows their attention_mask marked
        self.padding_rows = 0
        # samples in scale with hidden_states_scales kept beside them (data.Sample.scales_kept),
        # and the first few names
        self.scales_kept = 0
        self.scales_kept_names: list[str] = []
        # the every-position rerun's rows left out: zero in every slot at a sample's tail
        # (data.every_position_mask), counted from SampleTargets' ints (no device tensor)
        self.tail_padded = 0
        self.tail_padding_rows = 0
        # and those before a sample's last written row: zero rows inside it, and the row after
        self.inner_gapped = 0
        self.inner_gap_rows = 0
        # positions where an aux slot is zero and the others are not (data.lost_layer_positions):
        # samples, positions, the scored rows left out for reading them, and the file slots
        self.lost_layer_samples = 0
        self.lost_layer_positions = 0
        self.lost_layer_rows = torch.zeros((), dtype=torch.int64, device=self.device)
        self.lost_layer_slots: set[int] = set()
        # the verifier's argmax against the data's ids per offset (alignment.id_agreement):
        # ids saved one position off against the states, said rather than scored as weak weights
        self.id_agreement = torch.zeros((2, len(OFFSETS), 2), dtype=torch.int64, device=self.device)


def chain_step(pred: Tensor, target: Tensor, loss_mask: Tensor, prev_correct: Tensor,
               step: int, reads_lost: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """One TTT step of speculators' accuracy bookkeeping.

    pred [T-k] (row t's prediction), target/loss_mask [T] (aligned to rows t+k),
    prev_correct [T] updated in place on its first T-k rows; reads_lost [T] (row t itself):
    the rows whose own input state is lost (data.lost_layer_positions), left out at every
    step (their chain reads it, whatever position it predicts).
    Returns (correct_sum, full_total, cond_total).
    """
    T = target.shape[0]
    rows = T - step
    target_k, mask_k = target[step:], loss_mask[step:]  # rows t+k
    if reads_lost is not None:
        mask_k = mask_k & ~reads_lost[:rows]
    chain = prev_correct[:rows]
    cond_total = chain.sum()
    chain &= pred[:rows] == target_k
    return (chain & mask_k).sum(), mask_k.sum(), cond_total


def _target_ids(head: TargetHead | None, model: Eagle3Draft, sample_last: Tensor | None,
                input_ids: Tensor, loss_mask: Tensor,
                last_normed: bool = False) -> tuple[Tensor, Tensor, Tensor, str, Tensor]:
    """(draft-vocab targets [T], target-vocab targets [T], usable loss mask [T], reference,
    [T] whether the target-vocab target is a token of the draft vocabulary)."""
    V = model.cfg.vocab_size
    device = input_ids.device
    draft_of = _draft_index(model, V, device)  # [V] draft id or -1
    if head is not None and sample_last is not None:
        selected = _selected_target_ids(model, device)  # [DV] target ids (or -1), ascending
        full, restricted = [], []
        for start in range(0, sample_last.shape[0], _ROW_CHUNK):
            logits = head.logits(sample_last[start:start + _ROW_CHUNK],
                                 normed=last_normed)  # [rows, V]
            full.append(logits.argmax(-1))
            restricted.append(_draft_rows(logits, selected))  # draft ids
        target_t = torch.cat(full)
        # the restricted argmax is a draft id at every row: whether the target's own greedy
        # token is one the draft can propose is read from the unrestricted one (a target head
        # with more rows than the draft's vocabulary, SD303, picks ids past draft_of)
        inside = target_t < V
        in_vocab = inside & (draft_of[torch.where(inside, target_t, 0)] >= 0)
        return torch.cat(restricted), target_t, loss_mask, "target_argmax", in_vocab
    # Data tokens: the token after input_ids[t]; the last row has no target.
    nxt = torch.cat([input_ids[1:], input_ids.new_full((1,), -1)])
    valid = nxt >= 0
    draft_targets = torch.where(valid, draft_of[nxt.clamp(min=0)], torch.full_like(nxt, -1))
    return draft_targets, nxt, loss_mask & valid, "data_tokens", draft_targets >= 0


def _selected_target_ids(model: Eagle3Draft, device: torch.device) -> Tensor:
    """The target ids of the draft vocabulary rows, as speculators' verifier_lm_head selects them
    (t2d when present, else arange(DV) + d2t, else the first DV ids); -1 for a draft id whose
    offset leaves the target vocabulary."""
    if model.t2d is not None:
        return model.t2d.to(device).nonzero().reshape(-1)
    mapped = model.to_target_ids(torch.arange(model.cfg.draft_vocab_size, device=device))
    outside = (mapped < 0) | (mapped >= model.cfg.vocab_size)
    if not bool(outside.any()):
        return mapped
    offsets = model.d2t.to(device)
    if bool(((offsets >= 0) & (offsets < model.cfg.vocab_size)).all()) and bool(
            (offsets[1:] > offsets[:-1]).all()):
        # absolute ids stored as offsets (vocab.py d2t_not_offsets): i + d2t[i] names other
        # rows, so score against the first DV rows; those drafts' target acceptance is still
        # what an engine would see (mapped ids never match)
        return torch.arange(model.cfg.draft_vocab_size, device=device)
    # a few stray offsets (d2t_out_of_range): the verifier has no row for those draft ids
    # (_draft_rows leaves them out), the others keep theirs. Read as the first DV rows, one
    # offset past the vocabulary made a draft of step-0 accuracy 0.69 read 0.0.
    return torch.where(outside, torch.full_like(mapped, -1), mapped)


def _draft_rows(logits: Tensor, selected: Tensor) -> Tensor:
    """The argmax over the draft vocabulary's rows of target `logits` [rows, V]: draft ids; a
    draft id with no target row (selected -1) is never the target."""
    restricted = logits[:, selected.clamp(min=0)]
    if bool((selected < 0).any()):
        restricted = restricted.masked_fill(selected < 0, float("-inf"))
    return restricted.argmax(-1)


def _draft_index(model: Eagle3Draft, V: int, device: torch.device) -> Tensor:
    index = torch.full((V,), -1, dtype=torch.long, device=device)
    selected = _selected_target_ids(model, device)
    keep = (selected >= 0) & (selected < V)
    index[selected[keep]] = torch.arange(selected.shape[0], device=device)[keep]
    return index


@dataclass
class SampleTargets:
    """What score_sample scores one sample against: it depends on the sample, the target head
    and the draft's vocab maps, never on the layout or the norm flags."""

    draft_t: Tensor  # [T] draft-vocab targets (-1: outside the draft vocab)
    target_t: Tensor  # [T] target-vocab targets
    loss_mask: Tensor  # [T] rows to score
    reference: str
    normed_detected: bool  # the final slot was found past the target's norm
    # [T] target_t is a token of the draft vocabulary (None: draft_t >= 0 says it)
    in_draft_vocab: Tensor | None = None
    # the every-position rerun's rows left out past the last written position and before it
    # (data.every_position_padding); 0 when the loss mask is used
    tail_rows: int = 0
    inner_rows: int = 0
    # the positions read with a lost layer (data.lost_layer_positions) and the file slots zero
    # there (score_sample counts the rows it leaves out for reading them, at every step)
    lost_positions: int = 0
    lost_slots: tuple[int, ...] = ()
    reads_lost: Tensor | None = None  # [T] the rows reading a lost state (None: none)
    id_agreement: Tensor | None = None  # alignment.id_agreement (None: no verifier argmax)


class TargetCache:
    """Per-sample targets kept across evaluate() calls on the same Sample objects.

    The layout probe scores tens of layouts (and the norm_before_residual check) on the same
    samples: the target head's [rows, V] logits were computed again for each, about a fifth
    of the probe's time. Keyed by the Sample object (kept alive here, so its id is not reused),
    the device and the use_target / use_loss_mask switches."""

    def __init__(self) -> None:
        self._kept: dict[tuple, tuple[Sample, SampleTargets]] = {}
        self.computed = 0  # targets computed (not taken from the cache)

    def get(self, sample: Sample, key: tuple, make) -> SampleTargets:
        full_key = (id(sample), *key)
        kept = self._kept.get(full_key)
        if kept is not None:  # the sample is kept alive with its targets: its id names it still
            return kept[1]
        targets = make()
        self.computed += 1
        self._kept[full_key] = (sample, targets)
        return targets

    def most_frequent_target(self, samples: Iterable[Sample]) -> tuple[int, int]:
        """(draft id, rows): the draft-vocab target most frequent among the step-0 rows of
        `samples` scored through this cache, and how many rows it takes: what a draft that
        always predicts that one token gets right at step 0 (the rows chain_step scores there:
        the loss mask, less the rows reading a lost state). (-1, 0) when none was scored."""
        wanted = {id(sample) for sample in samples}
        seen: set[int] = set()
        ids = []
        for key, (_, found) in self._kept.items():
            if key[0] not in wanted or key[0] in seen:
                continue
            seen.add(key[0])
            rows = found.loss_mask if found.reads_lost is None else found.loss_mask & ~found.reads_lost
            ids.append(found.draft_t[rows & (found.draft_t >= 0)].cpu())
        counted = torch.cat(ids) if ids else torch.zeros(0, dtype=torch.long)
        if not counted.numel():
            return -1, 0
        frequency = torch.bincount(counted)
        return int(frequency.argmax()), int(frequency.max())


def _sample_targets(loaded: LoadedDraft, sample: Sample, *, device: torch.device,
                    use_target: bool, use_loss_mask: bool) -> SampleTargets:
    """The targets of `sample` as speculators' shift_batch aligns them (row t: position t+1)."""
    model = loaded.model
    input_ids = sample.token_ids[1:].to(device)  # [T]
    loss_mask = sample.loss_mask[1:].to(device)  # [T]
    tail = inner = 0
    if not use_loss_mask:
        mask, tail, inner = every_position_padding(sample)  # once per sample (kept by TargetCache)
        loss_mask = mask[1:].to(device)
    lost, lost_slots = lost_layer_positions(sample, lambda: _zero_embedding_ids(model))
    lost = lost[:-1]  # [T] row t reads position t's state
    lost_positions = int(lost.sum())  # counted on the CPU, where the sample was loaded: no device sync
    lost = lost.to(device)
    # left out at every TTT step by score_sample (the row's chain reads the zeros), not
    # through the loss mask: that one is aligned to the predicted position (row t + k at step
    # k), and would leave out row t - k there while scoring the row that reads the zeros
    last = sample.final[1:].to(device) if (sample.final is not None and use_target) else None
    head = loaded.target_head if use_target else None
    last_normed, detected = sample.final_normed, False
    if head is not None and last is not None and not last_normed and head.already_normed(last):
        last_normed = detected = True  # norming it again would change the argmax
    draft_t, target_t, loss_mask, reference, in_draft_vocab = _target_ids(
        head, model, last, input_ids, loss_mask, last_normed)
    # passed on whenever a row reads a lost state, not only when one is in step 0's mask: a
    # row outside it still predicts a masked position at step k >= 1, and its chain (never
    # started) was counted there as a miss
    agreement = (id_agreement(target_t, input_ids, loss_mask) if reference == "target_argmax"
                 else None)
    return SampleTargets(draft_t, target_t, loss_mask, reference, detected, in_draft_vocab, tail,
                         inner, lost_positions, lost_slots, lost if lost_positions else None,
                         agreement)


def _zero_embedding_ids(model: Eagle3Draft) -> Tensor:
    """[V] bool: the token ids whose row of the draft's embedding (speculators copies the
    verifier's) is all zeros; found once per draft, and only for a sample with a zero slot."""
    found = getattr(model, "_zero_embedding_ids", None)
    if found is None:
        found = ~model.embed_tokens.weight.detach().any(-1)
        object.__setattr__(model, "_zero_embedding_ids", found)
    return found


class PrecisionError(SpecDebugError):
    """The evaluation dtype cannot hold the inputs or activations (float16 overflow)."""


_FLOAT16_MAX = 65504.0


def _aux_float16_holds(name: str, states: Tensor, cast: Tensor, loss_mask: Tensor) -> Tensor:
    """The float16 aux states `cast` [T, A*Ht] to run, or one clear error. Rows that overflow
    past the last scored row (an unscored tail: the end-of-turn tokens after the reply) are
    zeroed: attention is causal, and a row t past the last scored one never enters any count
    (its chain starts from loss_mask[t], false), so every count stays what float32 gives.

    States that are finite in the dump (check_sample refuses NaN/Inf ones) but pass
    float16's range become Inf once cast for `--dtype float16`; through fc and attention
    one such row turns the whole sample's logits into NaN, whose argmax is an arbitrary id,
    so every accuracy would read ~0 with no warning. bf16 dumps of targets whose activations
    pass float16's range hold such values (Qwen2 in float16 turns NaN after layer 1:
    https://github.com/QwenLM/Qwen3/issues/826, /761; vLLM Qwen2.5 overflow:
    https://github.com/vllm-project/vllm/issues/14126)."""
    finite_rows = torch.isfinite(cast).all(-1)  # [T]
    if bool(finite_rows.all()):
        return cast
    scored = loss_mask.nonzero().reshape(-1)
    first_bad = int((~finite_rows).nonzero()[0])
    if scored.numel() and first_bad > int(scored[-1]):
        return torch.where(finite_rows[:, None], cast, torch.zeros_like(cast))
    peak = float(states.float().abs().max())
    raise PrecisionError(
        f"{name}: hidden states reach {peak:.4g}, beyond float16's {_FLOAT16_MAX:.0f}: cast "
        "for --dtype float16 they become Inf and the draft's logits NaN",
        hint="evaluate with --dtype bfloat16 (what such targets are served in) or float32")


def score_sample(loaded: LoadedDraft, sample: Sample, counts: Counts, *, flags: NormFlags,
                 layout_positions: tuple[int, ...] | None = None, device: torch.device,
                 use_target: bool = True, use_loss_mask: bool = True,
                 targets: TargetCache | None = None) -> str | None:
    """Add one sample's counts. `layout_positions` index into `sample.slots` (default: all);
    `use_loss_mask=False` scores every position; `targets` keeps the sample's targets for the
    next call on it. Returns the reference used, or None when the sample is too short."""
    model = loaded.model
    T0 = sample.length
    if T0 < 2:
        return None
    slots = sample.slots if layout_positions is None else sample.slots[:, list(layout_positions)]
    dtype = model.fc.weight.dtype
    # shift_batch: input_ids[1:], hidden_states[:-1], verifier_last[1:], loss_mask[1:]
    input_ids = sample.token_ids[1:].to(device)  # [T]
    aux = slots[:-1].reshape(T0 - 1, -1).to(device=device, dtype=dtype)  # [T, A*Ht]

    def make() -> SampleTargets:
        return _sample_targets(loaded, sample, device=device, use_target=use_target,
                               use_loss_mask=use_loss_mask)

    found = (targets.get(sample, (str(device), use_target, use_loss_mask), make)
             if targets is not None else make())
    draft_t, target_t, loss_mask, reference = (found.draft_t, found.target_t, found.loss_mask,
                                               found.reference)
    counts.final_normed_detected += found.normed_detected
    if dtype == torch.float16:
        aux = _aux_float16_holds(sample.name, slots[:-1], aux, loss_mask)

    reads_lost = found.reads_lost
    scored_rows = loss_mask if reads_lost is None else loss_mask & ~reads_lost  # step 0's
    prev = scored_rows.clone()
    prev_target = scored_rows.clone()
    # the rows reading a lost state that some step would have scored (loss-masked at row t + k):
    # step 0's alone said "the 0 scored row(s)" of rows left out at step 1
    lost_scored = None if reads_lost is None else torch.zeros_like(reads_lost)
    with torch.inference_mode():
        # a step k >= T has no row left to score (short samples, --steps beyond the length)
        for k, head_input in enumerate(model.ttt_head_inputs(
                aux[None], input_ids[None], min(counts.steps, input_ids.shape[0]), flags=flags)):
            pred = _draft_argmax(model, head_input[0, : input_ids.shape[0] - k], k,
                                 sample.name)  # [T-k] draft ids
            c, total, cond = chain_step(pred, draft_t, loss_mask, prev, k, reads_lost)
            if lost_scored is not None:
                rows = input_ids.shape[0] - k
                lost_scored[:rows] |= reads_lost[:rows] & loss_mask[k:]
            counts.full_correct[k] += c
            counts.full_total[k] += total
            counts.cond_total[k] += cond
            tc, _, tcond = chain_step(model.to_target_ids(pred), target_t, loss_mask,
                                      prev_target, k, reads_lost)
            counts.target_correct[k] += tc
            counts.target_cond_total[k] += tcond
    in_draft_vocab = found.in_draft_vocab if found.in_draft_vocab is not None else draft_t >= 0
    counts.in_vocab += (scored_rows & in_draft_vocab).sum()
    counts.scored += scored_rows.sum()
    if use_loss_mask:  # the every-position rerun's empty rows are padding, not the mask's
        counts.unsupervised += ~loss_mask.any()  # a tensor: no device sync per sample
        _name_mask_kind(counts, sample)
    else:  # every row but the zero rows every_position_mask leaves out
        # counted from the zero rows, not from the rows left unscored: the data-token
        # reference leaves the last row out (it has no next token), which was said as
        # padding ("3 of 3 samples end in 3 position(s) zero" of a dump with none)
        counts.tail_padded += found.tail_rows > 0
        counts.tail_padding_rows += found.tail_rows
        counts.inner_gapped += found.inner_rows > 0
        counts.inner_gap_rows += found.inner_rows
    counts.lost_layer_samples += found.lost_positions > 0
    counts.lost_layer_positions += found.lost_positions
    if lost_scored is not None:
        counts.lost_layer_rows += lost_scored.sum()  # a tensor: no device sync per sample
    counts.lost_layer_slots.update(found.lost_slots)
    if found.id_agreement is not None:
        counts.id_agreement += found.id_agreement
    if sample.scales_kept:  # rare: a dequantized copy of an FP8 dump
        counts.scales_kept += 1
        if len(counts.scales_kept_names) < 3:
            counts.scales_kept_names.append(sample.name)
    counts.padded_samples += sample.padding > 0
    counts.padding_rows += sample.padding
    counts.samples += 1
    counts.tokens += int(input_ids.shape[0])
    counts.longest = max(counts.longest, T0)
    counts.past_max_positions += T0 > model.cfg.max_position_embeddings
    return reference


def _draft_argmax(model: Eagle3Draft, head_input: Tensor, step: int, name: str) -> Tensor:
    """The draft's argmax id of each row of `head_input` [rows, H], the head applied to as many
    rows at a time as DRAFT_LOGITS_BUDGET allows."""
    DV = model.lm_head.weight.shape[0]
    chunk = max(1, DRAFT_LOGITS_BUDGET // max(1, DV))
    float16 = model.fc.weight.dtype == torch.float16  # the dtype the draft runs in
    preds = []
    for start in range(0, head_input.shape[0], chunk):
        logits = model.lm_head(head_input[start:start + chunk])  # [rows, DV]
        if float16 and not bool(torch.isfinite(logits).all()):
            # argmax of NaN rows is an arbitrary id: every accuracy would read ~0, silently
            raise PrecisionError(
                f"{name}: the draft's logits are NaN/Inf at step {step} under float16 "
                "(an activation inside the draft passes float16's 65504)",
                hint="evaluate with --dtype bfloat16 or float32")
        preds.append(logits.argmax(-1))
    return torch.cat(preds) if len(preds) != 1 else preds[0]


def _ratio(num: Tensor, den: Tensor) -> list[float]:
    return [float(n / d) if d > 0 else 0.0 for n, d in zip(num.tolist(), den.tolist())]


def _unscored_steps_note(unscored: list[int], longest: int) -> list[str]:
    """Why steps had no row to score: a chain of depth k needs k+2 tokens in a sample (one
    more against data tokens), and a loss-masked row at k."""
    if not unscored:
        return []
    steps = (f"step {unscored[0]}" if len(unscored) == 1
             else f"steps {', '.join(map(str, unscored))}")
    return [f"{steps} not scored (their 0.0 accuracies mean n/a): no sample has a loss-masked "
            f"row that deep (the longest has {longest} tokens); pass --steps {unscored[0]}, or "
            "longer samples"]


NAMED = 3  # sample names a note lists before "..."


def _name_mask_kind(counts: Counts, sample: Sample) -> None:
    """Keep the names of the samples the mask notes point at (CPU tensors: no device sync)."""
    if not sample.loss_mask_given:
        counts.unmasked_samples += 1
        if len(counts.unmasked_names) <= NAMED:
            counts.unmasked_names.append(sample.name)
        return
    counts.masked_samples += 1
    if len(counts.unsupervised_names) <= NAMED and not bool(sample.loss_mask[1:].any()):
        counts.unsupervised_names.append(sample.name)


def _names(names: list[str]) -> str:
    """The first NAMED names, and "..." when there were more."""
    return ", ".join(names[:NAMED]) + (", ..." if len(names) > NAMED else "")


def _mixed_mask_note(counts: Counts) -> list[str]:
    """Some samples carry a loss_mask and others none: the ones without are scored at every
    position (prompt tokens too), the others only at their assistant tokens, and the
    accuracies mix the two. speculators writes a loss_mask into every file of a dump (and
    SpecForge none), so such a folder holds two dumps."""
    if not counts.masked_samples or not counts.unmasked_samples:
        return []
    return [f"{counts.unmasked_samples} of {counts.samples} samples have no loss_mask ({_names(counts.unmasked_names)}) "
            f"while the other {counts.masked_samples} have one: those are scored at every "
            "position, the others only where their mask is set (a folder mixing two dumps?); "
            "keep one dump per --data folder, or dump them again with the same tool"]


def _unsupervised_note(unsupervised: int, samples: int, names: list[str] | None = None
                       ) -> list[str]:
    """Samples whose loss_mask selects no row: they are in `samples` but add nothing to the
    accuracies, as speculators' data preparation drops them ("no supervised tokens",
    src/speculators/data_generation/preprocessing.py). Said, so a sample count that does not
    match the tokens scored is not read as a fault of the draft. When every sample is like
    that, api.evaluate_drafter scores every position instead and says so."""
    if not unsupervised or unsupervised == samples:
        return []
    which = f" ({_names(names)})" if names else ""
    return [f"{unsupervised} of {samples} samples{which} have a loss mask that selects no position "
            "to score (all zero, or only the first token): they add nothing to the "
            "accuracies; a chat template whose assistant turns were not found writes such "
            "masks"]


# the fewest step-0 rows an accuracy is read from without a word: over n rows its 95%
# binomial interval is +-1.96 * sqrt(p(1-p)/n), +-10 points at p = 0.5 and n = 100, the
# size of the differences between two drafts (or two layouts) a user compares
MIN_SCORED_ROWS = 100


def _rows_of(tokens: int, samples: int, padding: int = 0) -> str:
    """`tokens` (the report's, Counts.tokens) counts rows: after shift_batch a sample of T
    tokens has T - 1 (its last token predicts nothing in it). Said beside the tokens a user
    counts in the dump, which the notes' "of 39 positions" of 3 samples of 14 tokens (42)
    contradicted. `padding`: the pad positions an attention_mask marked, cut off before the
    rows were counted (Counts.padding_rows): "3 samples of 45 tokens" of files holding 120
    (each padded to 40) read as rows lost, so the positions the files hold are said too."""
    if not samples:
        return f"{tokens} rows"
    plural = "s" if samples != 1 else ""
    if padding:
        return (f"{tokens} rows ({samples} sample{plural} of {tokens + samples} tokens once the "
                f"{padding} pad position(s) their attention_mask marks were cut from the "
                f"{tokens + samples + padding} the files hold: a sample of T tokens has T - 1 rows)")
    return f"{tokens} rows ({samples} sample{plural} of {tokens + samples} tokens: a sample of T tokens has T - 1 rows)"


def _few_rows_note(scored: int, tokens: int, masked: int, samples: int = 0, padding: int = 0) -> list[str]:
    """The loss_mask left few rows to score (only the last token of each sample, say): the
    report's `tokens` counts every row read, so accuracies resting on a handful of rows
    read as if they rested on all of them. Said with the count when the mask keeps half of
    the rows or fewer (above that `tokens` reads within 2x of the rows: a small dump
    says so itself); samples whose mask selects nothing at all have their own note
    (_unsupervised_note), every sample so is rescored."""
    if not masked or not 0 < scored < MIN_SCORED_ROWS or 2 * scored > tokens:
        return []
    half = round(100 * 1.96 * 0.5 / scored ** 0.5)  # points, at an accuracy of 0.5
    return [f"the loss mask leaves {scored} of {_rows_of(tokens, samples, padding)} scored at step 0: an "
            f"accuracy over so few rows is uncertain by up to +-{half} points (95% binomial "
            f"interval; under {MIN_SCORED_ROWS} rows it passes +-10); evaluate on more samples "
            "before comparing drafts or layouts"]


def _few_deep_rows_note(totals: list[int], tokens: int, samples: int = 0, padding: int = 0) -> list[str]:
    """Deeper steps resting on few rows while step 0 does not: TTT step k scores row t at
    position t + k (chain_step reads loss_mask[k:]), so each step drops a position of every
    sample, and a dump of many short samples (or a mask on their first tokens) leaves a deep
    step a handful of rows. The per-step table shows no row counts, so its accuracy there
    read as sure as step 0's. Steps no row reached have their own note
    (_unscored_steps_note); a step 0 under MIN_SCORED_ROWS has _few_rows_note or is a
    small dump, where every step is few."""
    if not totals or totals[0] < MIN_SCORED_ROWS:
        return []
    few = [k for k, total in enumerate(totals) if 0 < total < MIN_SCORED_ROWS]
    if not few:
        return []
    rows = [totals[k] for k in few]
    half = round(100 * 1.96 * 0.5 / min(rows) ** 0.5)  # points, at an accuracy of 0.5
    steps = f"step {few[0]}" if len(few) == 1 else f"steps {', '.join(map(str, few))}"
    return [f"{steps} {'rests' if len(few) == 1 else 'rest'} on {', '.join(map(str, rows))} "
            f"scored rows (step 0 on {totals[0]} of {_rows_of(tokens, samples, padding)}): each step "
            "drops a row of every sample; an accuracy over so few rows is uncertain by up to "
            f"+-{half} points (95% binomial interval; under {MIN_SCORED_ROWS} rows it passes "
            "+-10); evaluate on more or longer samples before comparing drafts or layouts at that "
            "depth"]


def _scales_kept_note(kept: int, samples: int, names: list[str]) -> list[str]:
    """Samples whose hidden_states are already in scale (a bfloat16 copy dequantized with
    hs_connectors.fp8_utils.dequantize_fp8_tensor) with hidden_states_scales kept beside
    them: scored as they are (data._payload_needs_scales), but training reads them otherwise.
    hs_connectors' fp8 backend (transfer.py FP8Transfer._dequantize, 0.9.0) multiplies the
    states by the scales whenever the key is there, whatever their dtype, so a draft trained
    on these files saw every state shrunk by its token's amax / 448: an evaluation here
    cannot show it, and a draft that scores badly against them may be that training's."""
    if not kept:
        return []
    first = ", ".join(names) + (", ..." if kept > len(names) else "")
    return [f"{kept} of {samples} samples hold hidden_states already in scale with "
            f"hidden_states_scales kept beside them ({first}): scored as they are, but "
            "speculators' training through the hs_connectors fp8 backend multiplies them by "
            "the scales again (FP8Transfer._dequantize does whenever the scales are there), "
            "each state shrunk by its token's amax / 448; drop hidden_states_scales from these "
            "files, or train with the file backend"]


def _padding_note(padded: int, rows: int, samples: int) -> list[str]:
    """Samples saved from a padded batch (data._unpadded_rows cut their pad rows off)."""
    if not padded:
        return []
    return [f"{padded} of {samples} samples carry an attention_mask marking {rows} pad "
            "position(s) in all: scored without them; speculators' loader ignores "
            "attention_mask (src/speculators/train/data.py) and would train on the padding "
            "as tokens: write one unpadded sample per sequence"]


def _tail_padding_note(padded: int, rows: int, samples: int) -> list[str]:
    """The every-position rerun (no loss mask selects any row) leaves out the rows zero in
    every slot at a sample's tail (data.every_position_mask): batch padding saved without its
    attention_mask. Said, so the rows scored are not read as the dump's tokens, and since the
    same file with no loss_mask at all is refused for those rows (data._refuse_unwritten_rows)."""
    if not padded:
        return []
    return [f"{padded} of {samples} samples end in {rows} position(s) zero in every slot in "
            "all (batch padding saved without its attention_mask): scoring every position, "
            "they were left out, as a loss mask leaves padding out; save the attention_mask "
            "beside padded samples"]


def _inner_gap_note(gapped: int, rows: int, samples: int) -> list[str]:
    """The every-position rerun's rows left out before a sample's last written row
    (data.every_position_mask): zero in every slot inside the sequence, or right after such
    zeros. Said apart from the tail's note: the rows after the gap still attend to the zeros
    (eval reads each file as one sequence), which packing in speculators keeps apart."""
    if not gapped:
        return []
    return [f"{gapped} of {samples} samples have positions zero in every slot before their "
            f"last written one (a packed batch's padding between documents, or rows the "
            f"capture never wrote): scoring every position, the {rows} row(s) that read those "
            "zeros or predict them were left out, as a loss mask leaves padding out and "
            "speculators never predicts a document's first token; the rows after them still "
            "attend to the zeros: save one sample per document"]


def _lost_layer_note(counts: Counts) -> list[str]:
    """Positions where an aux slot holds all zeros and the others do not
    (data.lost_layer_positions): a capture that lost one layer there. The rows reading them
    were left out at every TTT step (not through the loss mask, as the zero rows are); said, with
    what training would have done with them."""
    if not counts.lost_layer_samples:
        return []
    slots = ", ".join(map(str, sorted(counts.lost_layer_slots)))
    return [f"{counts.lost_layer_samples} of {counts.samples} samples have "
            f"{counts.lost_layer_positions} position(s) where slot(s) {slots} of the "
            "hidden_states are all zeros while their other slots are not (a capture that lost "
            f"a layer there): the {int(counts.lost_layer_rows)} scored row(s) that read them were "
            "left out of the accuracies, and later rows still attend to them; speculators' "
            "loader checks only for NaN/Inf (data_generation/offline.py check_hidden_states) "
            "and would train on those zeros as the layer's output: dump the hidden states "
            "again"]


def _past_max_positions_note(past: int, samples: int, longest: int, max_positions: int) -> list[str]:
    """Samples longer than the draft's max_position_embeddings: speculators' rotary embedding
    has no cap, so their rows are scored as the reference computes them, but the config says
    the draft was not built for those positions, and vLLM lowers the draft's max_model_len to
    it (vllm/config/speculative.py _maybe_override_draft_max_model_len takes the lower of the
    draft's and the target's). Said, so a low accuracy on long samples is not read as a fault
    of the weights or of the capture."""
    if not past:
        return []
    return [f"{past} of {samples} samples are longer than the draft's max_position_embeddings "
            f"{max_positions} (the longest has {longest} tokens): their rows past position "
            f"{max_positions} were scored, though the draft's config says it was not built for "
            "them; compare with samples within it, or use a draft whose config covers the "
            "served context length"]


def expected_accept_length(conditional: list[float]) -> float:
    """Chain drafting: E[AL] = 1 + sum_k prod_{i<=k} p_i (EAGLE3.md section 7; the 1 is the
    bonus token, as vLLM counts it)."""
    total, joint = 1.0, 1.0
    for p in conditional:
        joint *= p
        total += joint
    return total


def _partial_scores(kept: tuple, use_loss_mask: bool) -> dict[str, Any]:
    """The scores of the samples an evaluation scored in full before it was stopped, as the
    stop's `partial` (commands.eval_command says them): an evaluation of a large dump runs for
    hours on a CPU, and a stop near its end kept none of them (the rerun --max-samples N asked
    for scored those hours again)."""
    samples, rows, correct, total, target = kept
    return {"samples": samples, "rows": rows, "full_correct": [int(c) for c in correct.tolist()],
            "full_total": [int(t) for t in total.tolist()],
            "target_correct": [int(c) for c in target.tolist()],
            "every_position": not use_loss_mask}


def so_far(partial: dict) -> str:
    """The partial scores of a stopped evaluation (_partial_scores), in the table's
    words: full accuracy per step, over the rows each step scored."""
    correct, total = partial["full_correct"], partial["full_total"]
    steps = ", ".join(f"{c / t:.4f} ({c} of {t})" if t else "n/a"
                      for c, t in zip(correct, total))
    target = (f"; target accept at step 0 {partial['target_correct'][0] / total[0]:.4f}"
              if total and total[0] else "")
    every = (", every position scored: the loss masks selected none" if partial.get("every_position")
             else "")
    return (f"full acc per step {steps}{target} ({partial['rows']} rows of "
            f"{partial['samples']} sample{'' if partial['samples'] == 1 else 's'}{every})")


def evaluate(loaded: LoadedDraft, samples: Iterable[Sample], *, steps: int,
             flags: NormFlags | None = None, layout_positions: tuple[int, ...] | None = None,
             device: str | torch.device = "cpu", use_target: bool = True,
             use_loss_mask: bool = True, progress=None,
             targets: TargetCache | None = None) -> EvalResult:
    """Score every sample; `progress(samples_done)` is called after each one; `targets`
    (a TargetCache) reuses each sample's targets across calls on the same samples."""
    device = torch.device(device)
    flags = flags or loaded.model.reference_flags
    counts = Counts(steps, device)
    references: set[str] = set()
    started = time.perf_counter()
    # the counts of the samples scored in full, kept for a stop (Ctrl-C, SIGTERM) when someone
    # watches the progress (`drafter eval`): a stop mid-sample leaves that sample half counted
    kept: tuple | None = None
    try:
        for sample in samples:
            ref = score_sample(loaded, sample, counts, flags=flags,
                               layout_positions=layout_positions, device=device,
                               use_target=use_target, use_loss_mask=use_loss_mask,
                               targets=targets)
            if ref:
                references.add(ref)
            if progress is not None:
                # device-side copies of a few [steps] tensors: no sync on the per-sample path
                kept = (counts.samples, counts.tokens, counts.full_correct.clone(),
                        counts.full_total.clone(), counts.target_correct.clone())
                progress(counts.samples)
    except KeyboardInterrupt as stop:
        if kept is not None:
            stop.partial = _partial_scores(kept, use_loss_mask)  # type: ignore[attr-defined]
        raise
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elapsed = time.perf_counter() - started
    # a step no scored row reached (--steps deeper than every sample) has no accuracy: its
    # 0.0 alone read as a draft that never hits at that depth
    unscored = [k for k, total in enumerate(counts.full_total.tolist()) if total == 0]
    target_cond = _ratio(counts.target_correct, counts.target_cond_total)
    reference = "target_argmax" if references == {"target_argmax"} else (
        "data_tokens" if references else ("target_argmax" if loaded.target_head else "data_tokens"))
    scored = float(counts.scored)
    return EvalResult(
        steps=steps,
        full_accuracy=_ratio(counts.full_correct, counts.full_total),
        conditional_accuracy=_ratio(counts.full_correct, counts.cond_total),
        target_acceptance=_ratio(counts.target_correct, counts.full_total),
        target_conditional_acceptance=target_cond,
        expected_accept_length=expected_accept_length(target_cond),
        samples=counts.samples,
        tokens=counts.tokens,
        reference=reference,
        norm_flags=asdict(flags),
        draft_vocab_coverage=float(counts.in_vocab) / scored if scored else None,
        embed_source=loaded.embed_source,
        device=str(device),
        dtype=str(loaded.model.fc.weight.dtype).replace("torch.", ""),
        elapsed_s=elapsed,
        tokens_per_s=counts.tokens / elapsed if elapsed > 0 else 0.0,
        notes=list(loaded.notes) + (["samples mixed target_argmax and data_tokens references"]
                                    if len(references) > 1 else [])
        + _unscored_steps_note(unscored, counts.longest)
        + _unsupervised_note(int(counts.unsupervised), counts.samples, counts.unsupervised_names)
        + _mixed_mask_note(counts)
        + _few_rows_note(int(scored), counts.tokens, counts.masked_samples, counts.samples,
                         counts.padding_rows)
        + _few_deep_rows_note([int(t) for t in counts.full_total.tolist()], counts.tokens,
                              counts.samples, counts.padding_rows)
        + _scales_kept_note(counts.scales_kept, counts.samples, counts.scales_kept_names)
        + _padding_note(counts.padded_samples, counts.padding_rows, counts.samples)
        + _tail_padding_note(counts.tail_padded, counts.tail_padding_rows, counts.samples)
        + _inner_gap_note(counts.inner_gapped, counts.inner_gap_rows, counts.samples)
        + _lost_layer_note(counts)
        + misalignment_note(counts.id_agreement)
        + _past_max_positions_note(counts.past_max_positions, counts.samples, counts.longest,
                                   loaded.model.cfg.max_position_embeddings),
        final_state_post_norm=counts.final_normed_detected,
        counts={"full_correct": counts.full_correct.tolist(),
                "full_total": counts.full_total.tolist(),
                "cond_total": counts.cond_total.tolist(),
                "target_correct": counts.target_correct.tolist(),
                "target_cond_total": counts.target_cond_total.tolist(),
                # draft_vocab_coverage's own sums (one entry each, not per step): the step-0
                # rows scored and those whose reference token the draft vocab holds, so the
                # coverage of several hosts or shards adds up as the accuracies do
                "draft_vocab_rows": [scored],
                "draft_vocab_hits": [float(counts.in_vocab)]},
        unscored_steps=unscored,
    )
