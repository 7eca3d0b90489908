"""Which dump slots feed the draft's fc, in which order (a "layout").

A layout is a tuple of slot indices into a sample's `hidden_states [T, S, Ht]`. The configured
layout maps the checkpoint's aux layer ids to slots through the dump's `layer_ids` metadata
when it has one; otherwise the first A slots, which is how speculators' loader reads a normal
dump (`hidden_states[:, :-1]`, vllm-project/speculators src/speculators/train/data.py).
Pure stdlib.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from spec_debug.errors import UsageError


@dataclass(frozen=True)
class ResolvedLayout:
    slots: tuple[int, ...]
    layer_ids: tuple[int, ...] | None  # the target layer in each chosen slot, when known
    how: str  # "layer_ids" | "first_slots" | "user" | "engine"
    note: str = ""


def parse_layout(text: str) -> tuple[int, ...]:
    """'0,1,2' -> (0, 1, 2); also '0 1 2' and '[0, 1, 2]', the form `drafter layout` prints its
    layouts in (its verdict says to pass them as --layout). Spaces once were dropped, so
    '0 1 2' read as the one slot 12."""
    body = text.strip()
    if body[:1] + body[-1:] in ("[]", "()"):
        body = body[1:-1]
    try:
        slots = tuple(int(part) for part in re.split(r"[,\s]+", body) if part != "")
    except ValueError:
        raise UsageError(
            f"--layout {text!r}: expected comma-separated slot indices, e.g. 0,1,2") from None
    if not slots:
        raise UsageError("--layout is empty")
    return slots


def slots_for_layer_ids(wanted: Sequence[int], dump_layer_ids: Sequence[int] | None
                        ) -> tuple[int, ...] | None:
    """Slot index of each wanted layer id, or None if the dump does not hold them all."""
    if dump_layer_ids is None:
        return None
    position = {layer: slot for slot, layer in enumerate(dump_layer_ids)}
    if not all(layer in position for layer in wanted):
        return None
    return tuple(position[layer] for layer in wanted)


def configured_layout(num_aux: int, trained_ids: Sequence[int] | None,
                      dump_layer_ids: Sequence[int] | None, num_slots: int, *,
                      assumed: bool = False) -> ResolvedLayout:
    """`assumed`: `trained_ids` are the default for a config that names none, which the note
    then says (the fix is to name the ids, not to capture again)."""
    if trained_ids is not None:
        mapped = slots_for_layer_ids(trained_ids, dump_layer_ids)
        if mapped is not None:
            return ResolvedLayout(mapped, tuple(trained_ids), "layer_ids")
    if num_slots < num_aux:
        raise UsageError(f"the dump has {num_slots} slot{'' if num_slots == 1 else 's'} per "
                         f"position, the draft needs {num_aux} aux states",
                         hint="capture the hidden states again with one slot per layer of the "
                              "draft's eagle_aux_hidden_state_layer_ids (speculators and vLLM "
                              "also store the final layer's state after them)")
    slots = tuple(range(num_aux))
    named = tuple(dump_layer_ids[s] for s in slots) if dump_layer_ids else None
    note = ""
    if dump_layer_ids is not None and trained_ids is not None:
        which = (f"the default ids {list(trained_ids)} (the draft's config names no "
                 "eagle_aux_hidden_state_layer_ids)" if assumed
                 else f"the configured ids {list(trained_ids)}")
        note = (f"dump layer_ids {list(dump_layer_ids)} do not contain {which}; using the "
                f"first {num_aux} slots")
    return ResolvedLayout(slots, named, "first_slots", note)


def check_layout(slots: Sequence[int], num_aux: int, num_slots: int) -> None:
    if len(slots) != num_aux:
        raise UsageError(f"layout {list(slots)} has {len(slots)} slots; the draft's fc takes "
                         f"{num_aux}")
    if len(set(slots)) != len(slots):
        raise UsageError(f"layout {list(slots)} uses a slot twice; give {num_aux} different "
                         "slots")
    bad = [s for s in slots if not 0 <= s < num_slots]
    if bad:
        raise UsageError(f"layout slots {bad} out of range: the dump has {num_slots} slots")
