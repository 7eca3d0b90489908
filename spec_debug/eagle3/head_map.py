"""Whether a speculators draft's vocab map sends its ids to the target tokens its lm_head rows
were copied from.

speculators 0.9.0 copies lm_head from the verifier's rows that t2d selects and freezes it
(src/speculators/model.py DraftVocabMixin: `lm_head.weight.requires_grad = False`,
_load_verifier_weights), so in its saves draft row i is the target's row i + d2t[i]. A map
built for another tokenizer or another selection of ids (or a --vocab-mapping of another run)
fits every shape and bijection check and makes every proposal another token. Used by eval
(loading.py, on the loaded head) and by `drafter vocab` (api.py, reading only sampled rows
unless the map's rows differ).
"""

from __future__ import annotations

from typing import Callable

import torch
from torch import Tensor

# Rows of the draft's lm_head compared with the target's: enough to tell a map of the rows it
# was copied from from one of another vocabulary, few enough to search the target's head for
SAMPLE_ROWS = 32
# How the message starts: eval reports it as the SD302 vocab issue it is (api.py)
HEAD_MAP_NOTE = "the draft's lm_head rows are copies of the target's"
# Relative row difference still read as a copy: a bf16 save of an fp32 row differs by about
# 2^-9 per element (0.2-0.3% of the row's norm); an FP8 (e4m3, 3 mantissa bits) target head
# dequantized with its scales by about 2^-5 (3-4%), so a quantized head gets more room
COPY_TOLERANCE = 1e-2
QUANTIZED_COPY_TOLERANCE = 0.1
_CHUNK = 16384  # target rows per distance block: [n, 16k] distances, one float32 chunk
_SEARCH_COLUMNS = 256  # columns of the head searched for the nearest rows
_CANDIDATES = 8  # nearest rows on those columns, then measured on the full rows


def sample_ids(draft_rows: int) -> Tensor:
    """Draft ids spread over the whole draft vocab (maps from other selections differ
    everywhere, not only at the start)."""
    count = min(SAMPLE_ROWS, draft_rows)
    return torch.tensor(sorted({(i * draft_rows) // count for i in range(count)}),
                        dtype=torch.long)


def relative_difference(rows: Tensor, target_rows: Tensor) -> Tensor:
    """|row - target row| / |target row| per row ([n, H] each, float32)."""
    return ((rows - target_rows).norm(dim=1)
            / target_rows.norm(dim=1).clamp_min(1e-12))


def _two_nearest(rows: Tensor, target_head: Tensor) -> tuple[Tensor, Tensor]:
    """(ids [n, 2], distances [n, 2]) of the two target rows nearest each of `rows`. The
    whole head is searched on a few hundred spread columns (a copy is as close there as on
    the full row; 32 rows against a 152k x 4096 head took 13 s on the full rows, 2 cores),
    in chunks so it is never held twice in float32; the best candidates are then measured on
    the full rows."""
    n, width = rows.shape
    columns = torch.arange(0, width, max(1, width // _SEARCH_COLUMNS))
    probe = rows[:, columns]
    found_id = torch.zeros(n, 0, dtype=torch.long)
    found = torch.zeros(n, 0)
    for start in range(0, target_head.shape[0], _CHUNK):
        chunk = target_head[start:start + _CHUNK][:, columns].float()  # [c, k]
        distance = torch.cdist(probe, chunk)  # [n, c]
        value, index = distance.topk(min(_CANDIDATES, chunk.shape[0]), dim=1, largest=False)
        both, both_id = torch.cat([found, value], dim=1), torch.cat([found_id, index + start], dim=1)
        order = both.argsort(dim=1)[:, :_CANDIDATES]
        found, found_id = both.gather(1, order), both_id.gather(1, order)
    full = (rows[:, None, :] - target_head[found_id].float()).norm(dim=2)  # [n, candidates]
    if full.shape[1] < 2:  # a one-row head: no second row to be as near
        full = torch.cat([full, torch.full_like(full, float("inf"))], dim=1)
        found_id = torch.cat([found_id, found_id], dim=1)
    order = full.argsort(dim=1)[:, :2]
    return found_id.gather(1, order), full.gather(1, order)


def head_map_message(draft_ids: Tensor, rows: Tensor, mapped: Tensor, mapped_rows: Tensor,
                     target_head: Callable[[], Tensor], source: str,
                     tolerance: float = COPY_TOLERANCE) -> str | None:
    """The message when most sampled draft rows (`rows`, [n, H] float32) are not the target
    rows their map sends them to (`mapped_rows`) but each a copy of one other target row.
    `target_head()` gives the whole [V, H] head, read only when the map's rows differ.
    `source`: what holds the map, for the message."""
    relative = relative_difference(rows, mapped_rows)
    if float(relative.median()) <= tolerance:
        return None  # the map's rows, up to the cast the save did
    head = target_head()
    nearest_id, nearest = _two_nearest(rows, head)
    copied_from = nearest_id[:, 0]
    # exact difference for the match (cdist's matrix form loses digits at small distances)
    difference = relative_difference(rows, head[copied_from].float())
    scale = head[copied_from].float().norm(dim=1).clamp_min(1e-12)
    # a row equally near two target rows (identical rows of unused or special tokens; zero
    # rows) says nothing about which token it was copied from, nor does an all-zero row
    unique = (nearest[:, 1] / scale > tolerance) & (rows.norm(dim=1) > 0)
    elsewhere = ((relative > tolerance) & (difference <= tolerance) & unique
                 & (copied_from != mapped))
    if int(elsewhere.sum()) * 2 < len(draft_ids):
        return None  # not copies of the target's rows: nothing to say which map is right
    first = int(elsewhere.nonzero()[0, 0])
    return (f"{HEAD_MAP_NOTE}, at other token ids than "
            f"{source} maps them to ({int(elsewhere.sum())} of {len(draft_ids)} sampled rows; "
            f"draft id {int(draft_ids[first])} is target token {int(copied_from[first])} by its "
            f"lm_head, {int(mapped[first])} by the map): speculators copies and freezes lm_head "
            "from the verifier rows t2d selects, so this map was built for another tokenizer "
            "or another selection of ids and the draft's proposals become other tokens; use "
            "the d2t/t2d saved with these weights")


def copy_tolerance(tensors, name: str) -> float:
    """The row difference a copy may show against target head `name` of a TensorStore: more
    when it is stored quantized (FP8 "F8_E4M3" / "F8_E5M2", int8 "I8") and read dequantized."""
    info = tensors.infos.get(name)
    stored = info.dtype if info is not None else ""
    return QUANTIZED_COPY_TOLERANCE if stored.startswith("F8") or stored == "I8" else COPY_TOLERANCE


def mapped_ids(draft_ids: Tensor, d2t: Tensor, target_rows: int) -> Tensor | None:
    """Target ids the map sends `draft_ids` to; None when any is outside the target's head
    (vocab.py reports such offsets as SD302)."""
    offsets = d2t.reshape(-1).cpu()
    if offsets.numel() <= int(draft_ids.max()):
        return None  # a map of another draft vocab size: vocab.py reports it (SD302)
    # float64 first: torch has no round() for FP8 (a draft cast whole to float8_e4m3fn)
    offsets = offsets.double().round().long() if offsets.is_floating_point() else offsets.long()
    mapped = draft_ids + offsets[draft_ids]
    if bool(((mapped < 0) | (mapped >= target_rows)).any()):
        return None
    return mapped


def _is_quantized(tensors, name: str) -> bool:
    return copy_tolerance(tensors, name) != COPY_TOLERANCE


def checkpoint_head_map_message(checkpoint, target, d2t: Tensor | None,
                                from_file: bool) -> str | None:
    """head_map_message for a draft checkpoint and a `checkpoint.TargetCheckpoint` as stored
    (`drafter vocab`): the sampled draft rows and the rows their map names are read alone; the
    target's whole head only when those differ (a 152k x 4096 head is 1.2 GB in bf16)."""
    from spec_debug.eagle3.checkpoint import fp8_block_size

    if checkpoint.config.format != "speculators" or d2t is None or target is None:
        return None
    name, head_name = "lm_head.weight", target.lm_head_name
    draft_shape = checkpoint.shape(name)
    target_shape = target.tensors.shape(head_name) if head_name in target.tensors else None
    if (not draft_shape or not target_shape or len(draft_shape) != 2 or len(target_shape) != 2
            or draft_shape[1] != target_shape[1]):
        return None  # tied or absent heads, or widths the shape checks report
    draft_ids = sample_ids(draft_shape[0])
    mapped = mapped_ids(draft_ids, d2t, target_shape[0])
    if mapped is None:
        return None

    def whole_head() -> Tensor:
        return target.tensors.weight(head_name, fp8_block_size(target.config.raw))

    rows = (checkpoint.tensors.weight(name)[draft_ids] if _is_quantized(checkpoint.tensors, name)
            else checkpoint.tensors.rows(name, draft_ids.tolist()))
    quantized = _is_quantized(target.tensors, head_name)
    mapped_rows = (whole_head()[mapped] if quantized  # scales apply to blocks, not rows
                   else target.tensors.rows(head_name, mapped.tolist()))
    source = "the --vocab-mapping file" if from_file else "its d2t/t2d"
    return head_map_message(draft_ids, rows.float(), mapped, mapped_rows.float(), whole_head,
                            source, copy_tolerance(target.tensors, head_name))
