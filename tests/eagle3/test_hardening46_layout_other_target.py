"""A dump captured from another target of the same hidden size (other weights): every
layout scores 0.000 at step 0, and drafter layout said only that 42 rows were too few to
tell the layouts apart, "probe a dump with more samples" - advice that cannot help. Now a
verdict where no layout reaches 0.25 says the draft fits no layout of the dump and to check
that the dump is of the draft's own target."""

from __future__ import annotations

from pathlib import Path

from tests.eagle3._world import drafter_json, informative_world, torch  # noqa: F401

from spec_debug.eagle3.data import write_hs_sample

world = informative_world("h46_other_target", seed=5)


def _other_target_dump(world: Path) -> Path:
    from safetensors.torch import load_file
    from transformers import LlamaConfig, LlamaForCausalLM

    from tests.eagle3.speculators_world import vllm_style_states

    torch.manual_seed(123)
    other = LlamaForCausalLM(LlamaConfig.from_pretrained(str(world / "target"))).eval()
    out = world / "other_target"
    out.mkdir()
    for i in range(3):
        ids = load_file(str(world / "data" / f"hs_{i}.safetensors"))["token_ids"]
        write_hs_sample(out / f"hs_{i}.safetensors", *vllm_style_states(other, ids))
    return out


def test_states_of_another_target_are_not_sent_to_more_samples_only(world):
    out = drafter_json(world, _other_target_dump(world), "layout")
    assert out["ranked"][0]["full_accuracy0"] < 0.05, out["ranked"][:3]
    assert ("no layout reaches 0.25 at step 0 (best 0.000), far under what a trained draft "
            "scores on the states it was trained on: check that the dump is of the draft's "
            "own target") in out["verdict"], out["verdict"]
    assert "matches this dump" not in out["verdict"]


def test_the_draft_s_own_dump_has_no_near_zero_clause(world):
    out = drafter_json(world, world / "data", "layout")
    assert "no layout reaches" not in out["verdict"], out["verdict"]
