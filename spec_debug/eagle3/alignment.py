"""Are a dump's token ids aligned with its hidden states? Read from the verifier's own argmax.

In a speculators/vLLM dump, hidden_states[p] is computed from token_ids[..p], so the verifier's
argmax at position p is its guess of token_ids[p + 1] (speculators' shift_batch,
src/speculators/models/eagle3/data.py, pairs them so). Where the ids were saved one position off
against the states, of the same length (a dumper saving the states of the prompt without its
last token beside ids without the first, or ids rolled with the labels), data.py's length check
passes, and eval scored the draft on embeddings of the wrong tokens: a weak accuracy with no
word of why. The verifier's argmax then agrees with the id one position further or nearer, not
the next one; this module counts those agreements (once per sample, kept by TargetCache) and
says so when the data's ids agree with it far better one or two positions off than aligned.
"""

from __future__ import annotations

import torch
from torch import Tensor

# offsets d compared: the verifier argmax at row t (position t + 1) against input_ids[t + d],
# where input_ids = token_ids[1:]; d = 1 is the aligned one (the next data token), d = 0 and
# 2 ids one position ahead / behind, d = -1 and 3 two positions (ids saved without their first
# two, as a dumper that drops BOS and then shifts for the labels writes them: with only
# (0, 1, 2) such a dump agreed with no offset and eval scored it in silence, 0.016 at step 0)
OFFSETS = (-1, 0, 1, 2, 3)
ALIGNED = 1
# the note's bar: an off-by-one rate at least this high and this many times the aligned rate,
# over at least MIN_ROWS rows (a random-token dump agrees at ~1/V at every offset: no note)
MIN_RATE = 0.2
MIN_RATIO = 3.0
MIN_ROWS = 16
# how misalignment_note begins: the layout probe finds it among evaluate's notes by it (its
# notes go on "one ahead", "two behind", ...; before two were counted: "...look one")
MISALIGNED = "the dump's token ids look "


def id_agreement(target_t: Tensor, input_ids: Tensor, scored: Tensor | None = None) -> Tensor:
    """[2, len(OFFSETS), 2] int64 on the targets' device: per offset, the rows where the
    verifier's argmax `target_t` [T] (row t: its argmax at position t + 1) equals
    input_ids[t + d], and the rows compared; [0] over the rows `scored` [T] bool selects (the
    loss mask's), [1] over every row. A tensor, so summing it over samples costs no device sync.

    The scored rows first: padding past a sample's end (SpecForge pads with zero states,
    speculators' collate with loss_mask 0; data.every_position_mask) has a constant argmax
    (the head of a zero state) beside a constant pad id, so it agrees at every offset alike
    and, long enough, drowned an off-by-one dump's offset under MIN_RATIO."""
    T = int(target_t.shape[0])
    masks = [scored, None]
    out = []
    for mask in masks:
        rows = []
        for d in OFFSETS:
            start, stop = max(0, -d), min(T, T - d)  # rows t with t + d inside input_ids
            n = max(0, stop - start)
            if not n:
                same = count = target_t.new_zeros((), dtype=torch.int64)
            else:
                hit = target_t[start:stop] == input_ids[start + d:stop + d]
                if mask is not None:
                    kept = mask[start:stop]
                    hit, count = hit & kept, kept.sum()
                else:
                    count = target_t.new_tensor(n, dtype=torch.int64)
                same = hit.sum()
            rows.append(torch.stack([same.to(torch.int64), count.to(torch.int64)]))
        out.append(torch.stack(rows))
    return torch.stack(out)


def misalignment_note(agreement: Tensor) -> list[str]:
    """The note for summed id_agreement counts, or [] when the ids look aligned (or nothing
    says either way)."""
    scored, every = agreement.tolist()
    # the loss-masked rows when they are enough to say (see id_agreement); else every row, as
    # a mask of a few rows per sample (a one-line reply) must not hide an off-by-one dump
    counts = scored if scored[OFFSETS.index(ALIGNED)][1] >= MIN_ROWS else every
    rates = {d: (same / n if n else 0.0) for d, (same, n) in zip(OFFSETS, counts)}
    if counts[OFFSETS.index(ALIGNED)][1] < MIN_ROWS:
        return []
    aligned = rates[ALIGNED]
    off = max((d for d in OFFSETS if d != ALIGNED), key=lambda d: rates[d])
    if rates[off] < MIN_RATE or rates[off] < MIN_RATIO * aligned:
        return []
    # d = 0: the id saved at p is token p + 1 (ids one ahead of the states); d = 2: one behind;
    # d = -1 and 3: two
    how = {0: "one ahead of the states (token_ids[p] is the token at p + 1: ids saved without "
              "their first, or the labels saved as the ids)",
           -1: "two ahead of the states (token_ids[p] is the token at p + 2: ids saved without "
               "their first two, or the labels of ids already one ahead)",
           2: "one behind the states (token_ids[p] is the token at p - 1: states saved without "
              "the first position, or ids rolled by one)",
           3: "two behind the states (token_ids[p] is the token at p - 2: states saved without "
              "the first two positions, or ids rolled by two)"}[off]
    at = f"p + {off}" if off >= 0 else f"p - {-off}"
    return [f"{MISALIGNED}{how}: the verifier's argmax at position p matches "
            f"token_ids[{at}] at {rates[off]:.0%} of positions but the next id "
            f"token_ids[p + 1] at {aligned:.0%}; the draft was fed the embeddings of the wrong "
            "tokens, so these accuracies say little of its weights: save each sample's ids "
            "with the states computed from them"]
