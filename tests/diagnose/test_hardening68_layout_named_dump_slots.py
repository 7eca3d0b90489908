"""SD402 on a training dump that names its layers (layer_ids metadata), as `spec-debug demo`
shows it: the layout step re-keys the probe's ranking by layer id (layout_step._by_layer_ids)
and dropped the embedding check's slot_checks on the way, so the finding counted the dump's
aux slots from the ranked layouts alone. The demo's 9-layer target, dumped at every layer id
0..9 (9 aux slots and the final one), read "one of the 6 aux slots", a number found nowhere in
the run record; the final-slot check of such a dump was dropped the same way."""

from __future__ import annotations

from spec_debug.diagnose.checks.drafter import check_layout
from spec_debug.diagnose.steps.layout_step import _by_layer_ids


def _demo_report(final_slot_check=None):
    """The hidden_layout probe's training report of `spec-debug demo` (run.json facts.layout.training), cut down."""
    ids = list(range(10))
    ranked = [([1, 2, 4], 0.769), ([0, 2, 4], 0.766), ([0, 1, 4], 0.766), ([1, 3, 4], 0.753),
              ([0, 1, 5], 0.753), ([0, 2, 6], 0.747), ([2, 4, 6], 0.684)]
    return {"ranked": [{"layout": slots, "layer_ids": [ids[s] for s in slots], "full_accuracy0": acc}
                       for slots, acc in ranked],
            "best": [1, 2, 4], "configured": [0, 2, 4], "dump_layer_ids": ids, "embedding_slots": [0],
            "slot_checks": [{"slot": s, "layer_id": s, "is_embedding": s == 0, "max_abs_diff": float(s)}
                            for s in ids],
            "final_slot_check": final_slot_check, "verdict": "", "unclear_rows": None}


def test_the_demo_dump_counts_its_nine_aux_slots():
    [finding] = check_layout(_by_layer_ids(_demo_report()), [2, 4, 6], root_causes=["SD201"])
    [line] = [e for e in finding.evidence if "embedding output" in e]
    assert line == ("slot 0 of the data is exactly the embedding output (embed_tokens[token_ids]), "
                    "one of the 9 aux slots of a dump of more layers than the draft takes")


def test_a_named_dump_keeps_its_final_slot_evidence():
    final = {"final_slot": 3, "final_slot_accuracy0": 0.91, "accuracy0": 0.40, "order": "[0, 1, 2, 4, 3]"}
    [finding] = check_layout(_by_layer_ids(_demo_report(final)), [2, 4, 6])
    assert any(e.startswith("slot 3 of the data holds the target's final layer, not the last slot")
               for e in finding.evidence)
