"""The layout probe's report (layout.probe), in a module without torch: the controller's layout
step (diagnose/steps/layout_step.py) keeps its fields by name, read from here, so a field added
to the report reaches the playbook's checks (a hand-kept list of keys there dropped
`ids_misaligned`, and SD402 fired on a ranking scored on ids one position off)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

# what eagle3/api.probe_layout adds for `served_layer_ids` (the layers the engine feeds)
SERVED_FIELDS = ("served", "served_layer_ids", "served_accuracy0")


@dataclass(frozen=True)
class SlotCheck:
    slot: int
    layer_id: int | None
    is_embedding: bool  # exactly embed_tokens[token_ids] on every probed sample
    max_abs_diff: float


@dataclass
class LayoutReport:
    ranked: list[dict[str, Any]]  # [{layout, layer_ids, full_accuracy0}], best first
    best: list[int]
    configured: list[int]
    configured_accuracy0: float
    verdict: str
    exhaustive: bool
    candidates: int
    samples: int
    reference: str
    dump_layer_ids: list[int] | None = None
    embedding_slots: list[int] = field(default_factory=list)
    slot_checks: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    untrained_draft: bool = False  # modules saved freshly initialised: no layout was judged
    # no d2t for a smaller draft vocabulary and every layout near zero: none was judged
    unmapped_draft: bool = False
    # RMSNorm weights of zeros (an incomplete copy): every layout scores by chance, none judged
    zeroed_norms: bool = False
    # the configured layout scored with config.json's norm_before_residual and the other
    # value; `ranked_with` is the value the ranking used (see norm_before_residual_check)
    norm_before_residual_check: dict[str, Any] | None = None
    # another slot than the last holds the final layer (final_slot_check): the ranking then
    # scores against that slot's targets
    final_slot_check: dict[str, Any] | None = None
    # the best layout's lead when the verdict finds it too few rows to name ({"gained": rows
    # it gets right beyond the configured one, "rows": step-0 rows scored}; see
    # unclear_rows): SD402 (diagnose/checks/drafter.py) reads the counts from here
    unclear_rows: dict[str, int] | None = None
    # the configured layout's lead when it scores best by too few rows to confirm it
    # ({"lead", "rows", "runner_up", "all_read": no sample of the dump was left}; see
    # unconfirmed_rows)
    unconfirmed_rows: dict[str, Any] | None = None
    # evaluate's note that the dump's ids sit one position off against its states
    # (alignment.misalignment_note): every layout was scored on the wrong tokens' embeddings
    ids_misaligned: str | None = None
    # no layout gets LAYOUT_MIN_GAIN more rows right than always predicting the dump's most
    # frequent target token ({"best_rows", "constant_rows", "rows", "target_id",
    # "initial_norms"}; see skill_check): the ranking is noise, no layout was judged
    no_skill: dict[str, Any] | None = None
    # the slots holding the config's layer ids in a dump of every layer that does not name its
    # slots (api._every_layer_layouts; the better-scoring numbering): `configured` is then
    # only eval's guess of the first slots, and SD402 compares the best layout with these
    config_slots: list[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def report_fields() -> tuple[str, ...]:
    """The names of LayoutReport's fields, in their order."""
    return tuple(f.name for f in fields(LayoutReport))
