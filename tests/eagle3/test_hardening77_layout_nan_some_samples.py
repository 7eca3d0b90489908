"""`drafter layout` on a dump of every layer whose layer_ids metadata is one layer off its
tensors (a dumper numbering each layer's output), with NaN at one position of the slot named
layer 6 in one sample of eight (an fp16 dump's massive activation that passed float16's range
once). That slot holds the draft's last aux layer. The probe left the slot out of every
candidate layout for the one bad sample, so the true slots [2, 4, 5] were never scored, and
the verdict named the wrong layers with confidence: "slots [2, 4, 6] (layers [3, 5, 7])
scores 0.459 vs 0.360 ...: the draft was trained on a different layout". Now a slot bad in fewer than half of the samples stays a
candidate and those samples are left out of the ranking instead (every layout is scored on
the same rows), with a note that says so; a slot bad in most samples is still left out of
the candidates (test_hardening74_layout_non_finite_slot). The draft is saved by speculators
0.9.0 (tests/eagle3/speculators_world.py); the states are a transformers Llama verifier's."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.eagle3._world import informative_world, torch  # noqa: F401

from spec_debug.diagnose.steps.layout_step import _left_out
from spec_debug.eagle3.api import probe_layout
from tests.eagle3.speculators_world import V, make_targets_informative, vllm_style_states

world = informative_world("h77_layout_nan_some", seed=3)


def _every_layer_dump(world: Path, name: str, samples: int, nan_in: set[int],
                      nan_slot: int = 5, seed: int = 11) -> Path:
    """`samples` samples of the input to each verifier layer (slot i: layer i, the embedding
    output first) and the final state, named one layer up (1..9) as a dumper numbering each
    layer's output names them; the final states made informative for the world's draft as
    speculators_world does; NaN at position 3 of `nan_slot` in the samples `nan_in`."""
    from safetensors.torch import save_file
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from transformers import LlamaForCausalLM

    out = world / name
    out.mkdir()
    verifier = LlamaForCausalLM.from_pretrained(str(world / "target")).eval()
    config = Eagle3SpeculatorConfig.from_pretrained(str(world / "draft"))
    config.transformer_layer_config._attn_implementation = "eager"
    reference = Eagle3DraftModel.from_pretrained(str(world / "draft"), config=config).eval()
    generator = torch.Generator().manual_seed(seed)
    for i in range(samples):
        ids, captured = vllm_style_states(verifier, torch.randint(0, V, (14 + i % 3,),
                                                                  generator=generator))
        slots = captured.float()
        sample = SimpleNamespace(slots=slots, final=slots[:, -1], token_ids=ids,
                                 length=int(ids.shape[0]))
        make_targets_informative(reference, [sample])
        with torch.no_grad():
            every = verifier(ids[None], output_hidden_states=True).hidden_states[:-1]
        states = torch.stack([h[0] for h in every] + [slots[:, -1]], 1).to(torch.bfloat16)
        if i in nan_in:
            states[3, nan_slot] = float("nan")
        save_file({"token_ids": ids, "hidden_states": states.contiguous()},
                  str(out / f"hs_{i}.safetensors"),
                  metadata={"layer_ids": json.dumps(list(range(1, 10)))})
    return out


def test_a_nan_in_one_sample_of_the_drafts_layer_keeps_that_slot_a_candidate(world):
    clean = probe_layout(world / "draft", _every_layer_dump(world, "clean", 8, set()),
                         world / "target")
    data = _every_layer_dump(world, "nan_once", 8, {2})
    report = probe_layout(world / "draft", data, world / "target")
    # was: slot 5 left out of every layout; best [2, 4, 6] (layers [3, 5, 7]) at 0.459
    assert report["best"] == clean["best"] == [2, 4, 5]
    assert report["ranked"][0]["layer_ids"] == [3, 5, 6]
    assert report["samples"] == 7 and clean["samples"] == 8
    assert report["ranked"][0]["full_accuracy0"] == 67 / 96
    assert report["verdict"].startswith(
        "slots [2, 4, 5] (layers [3, 5, 6]) scores 0.698 vs 0.365 for the configured slots "
        "[1, 3, 4] (layers [2, 4, 5]): the draft was trained on a different layout")
    assert "the metadata numbers each slot one layer higher than the layer it holds" \
        in report["verdict"]
    [note] = [n for n in report["notes"] if "holds NaN or Inf" in n]
    assert note == ("slot 5 (layer 6) holds NaN or Inf in 1 of 8 samples (first "
                    "hs_2.safetensors: 1 of 16 positions, first at 3): those samples are left "
                    "out of the ranking (every layout is scored on the other 7, which are "
                    "finite in every slot ranked)")
    # the playbook's layout step says the ranking read part of the dump
    assert _left_out(report) == [note]


def test_a_slot_bad_in_most_samples_is_still_left_out_of_the_candidates(world):
    data = _every_layer_dump(world, "nan_mostly", 4, {0, 1}, nan_slot=7)
    report = probe_layout(world / "draft", data, world / "target")
    assert report["samples"] == 4
    assert not any(7 in r["layout"] for r in report["ranked"])
    [note] = [n for n in report["notes"] if "holds NaN or Inf" in n]
    assert note.startswith("slot 7 (layer 8) holds NaN or Inf in 2 of 4 samples (first "
                           "hs_0.safetensors: ")
    assert note.endswith("left out of the candidate layouts; the slots the draft is "
                         "configured to read are finite")
