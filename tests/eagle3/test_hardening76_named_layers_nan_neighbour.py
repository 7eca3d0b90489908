"""`drafter eval` on a dump of every layer whose layer_ids metadata is one layer off its
tensors (a dumper numbering each layer's output), with NaN in the slot of a layer just above
the draft's (slot 5, named layer 6: an fp16 dump's layer past float16's range). Eval scored
the slots the metadata names as the draft's layers (0.524) and said nothing of the metadata:
the check that scores the neighbouring layers left out every reading that touches the NaN
slot (the readings one and two layers up), found nothing in the one left (one layer down),
and dropped its note with no word, where the clean dump got "the metadata numbers each slot
one layer higher" (0.690 on slots [2, 4, 5]). Now eval says the neighbouring slot holds NaN,
in how many samples and where, so the metadata was not checked on it. A NaN in a slot no
reading needs says nothing (test_hardening75_eval_nan_unread_slot keeps the note). The draft
is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from tests.eagle3.test_hardening53_named_layers_off_by_one import _every_layer
from tests.eagle3.test_hardening75_eval_nan_unread_slot import OFF, _eval, _with_nan

world = informative_world("h76_named_nan_neighbour", seed=3)

UNCHECKED = "was not checked on the neighbouring slots that hold NaN or Inf"


def test_a_nan_in_the_slot_one_layer_up_is_said_not_dropped(world):
    clean = _every_layer(world, "data_every_named_up", None, list(range(1, 10)))
    data = _with_nan(world, clean, "data_nan_slot5", 5)
    out = _eval(world, data)
    assert out["layout"] == [1, 3, 4] and out["full_accuracy"][0] == 22 / 42
    assert not any(OFF in n for n in out["notes"]), out["notes"]
    [said] = [n for n in out["notes"] if UNCHECKED in n]  # was: no word
    assert said.startswith(
        "the draft scores 0.524 at step 0 on the slots [1, 3, 4] the dump's layer_ids metadata "
        "names as the draft's aux layers [2, 4, 5]; whether the metadata is one or two layers "
        "off its tensors was not checked on the neighbouring slots that hold NaN or Inf: slot 5 "
        "(named layer 6) in 3 of 3 samples, first hs_0.safetensors at 1 of ")
    assert ", first at 3. A dumper whose layer_ids are one layer off its tensors" in said
    assert said.endswith(f"--data {data} --target {world / 'target'}` to rank every layout")


def test_a_nan_in_a_slot_no_reading_needs_says_nothing_of_it(world):
    clean = _every_layer(world, "data_every_named_up", None, list(range(1, 10)))
    data = _with_nan(world, clean, "data_nan_slot7", 7)
    out = _eval(world, data)
    assert not any(UNCHECKED in n for n in out["notes"]), out["notes"]
    assert any(OFF in n for n in out["notes"])


def test_a_clean_dump_named_right_says_nothing_of_nan(world):
    data = _every_layer(world, "data_every_named_right", None, list(range(0, 9)))
    out = _eval(world, data)
    assert out["layout"] == [2, 4, 5] and out["full_accuracy"][0] > 0.6
    assert not any(UNCHECKED in n or OFF in n for n in out["notes"]), out["notes"]
