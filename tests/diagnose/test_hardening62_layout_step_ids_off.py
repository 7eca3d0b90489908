"""The playbook's layout step reads the probe's report through layout_step._layout_summary,
which kept a fixed list of keys without `ids_misaligned`: check_layout's rule that a ranking
scored on ids one position off names no layout (tests/diagnose/test_hardening59_ids_off_findings)
held for `drafter layout` and never in a playbook run, where such a dump still raised SD402
"another layout fits" and sent the user to the served layers instead of the ids."""

from __future__ import annotations

from spec_debug.diagnose.steps import layout_step
from spec_debug.eagle3.alignment import MISALIGNED
from tests.diagnose.test_steps import context

# the probe's report as eagle3/api.probe_layout writes it (the keys the step reads)
REPORT = {"ranked": [{"layout": [1, 0, 2], "layer_ids": None, "full_accuracy0": 0.40},
                     {"layout": [0, 1, 2], "layer_ids": None, "full_accuracy0": 0.10}],
          "best": [1, 0, 2], "configured": [0, 1, 2], "configured_accuracy0": 0.10,
          "verdict": "slots [1, 0, 2] scores 0.400 vs 0.100 ...; but the dump's token ids sit "
                     "one position off against its states (see the notes), so every layout "
                     "was scored on the wrong tokens",
          "samples": 3, "reference": "target_argmax", "embedding_slots": [], "slot_checks": [],
          "notes": [], "untrained_draft": False, "unmapped_draft": False,
          "zeroed_norms": False}
VLLM = {"engine": {"name": "vllm", "version": "0.11.0"}}


def _codes(report: dict) -> list[str]:
    return [f.code for f in layout_step.check(context(layout_step.parse({"layout": report}), VLLM))]


def test_a_ranking_scored_on_misaligned_ids_raises_no_sd402_in_the_step():
    note = f"{MISALIGNED}one ahead of the states (token_ids[p] is the token at p + 1: ...)"
    assert layout_step.parse({"layout": {**REPORT, "ids_misaligned": note}})[
        layout_step.NS]["training"]["ids_misaligned"] == note
    assert "SD402" not in _codes({**REPORT, "ids_misaligned": note})


def test_the_same_ranking_on_aligned_ids_is_still_sd402():
    assert "SD402" in _codes({**REPORT, "ids_misaligned": None})
