"""The speculators draft of round 28 (a pruned vocabulary, 128 of 256 ids, saved with d2t and
no t2d): `drafter vocab` and `drafter eval` give a note that the engines serve it but
speculators' from_pretrained cannot load it, with how to rebuild t2d. `diagnose`'s vocab step
(the vocab_maps probe's report, then vocab_step.check) gave no finding at all: the note was
lost. Now it is the step's info line (SD004, the t2d check not run), in the same words: the
step finds the note by the lead vocab.t2d_missing_note writes, and raises no error."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.eagle3.test_hardening28_drafter_t2d_missing import LINE, world  # noqa: E402,F401


def test_the_diagnose_vocab_step_shows_the_t2d_note(world):
    host = vocab_maps.run({"draft_model": str(world / "draft"), "target_model": str(world / "target")})
    facts = vocab_step.parse(host)
    ctx = ProbeContext(step_id="vocab", host="h", args={}, facts=facts, host_facts=facts, vars={})
    findings = vocab_step.check(ctx)
    assert [(f.code, f.severity) for f in findings] == [("SD004", "info")]
    assert findings[0].evidence == [LINE]
    assert facts["vocab"]["raised"] == []


def test_a_draft_with_t2d_gets_no_such_line(tmp_path):
    from tests.eagle3.speculators_world import save_informative_world

    world = save_informative_world(tmp_path / "world", seed=1)
    host = vocab_maps.run({"draft_model": str(world / "draft"), "target_model": str(world / "target")})
    facts = vocab_step.parse(host)
    ctx = ProbeContext(step_id="vocab", host="h", args={}, facts=facts, host_facts=facts, vars={})
    assert vocab_step.check(ctx) == []
