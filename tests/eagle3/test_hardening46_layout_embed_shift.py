"""A dump captured one layer off the draft around the embedding output: the draft was
trained on aux layers [2, 4, 5], the dump holds [embed, 2, 4] and the final state (the
incident's cat([embed, layer3, layer31]) against layers 3, 31, 59, one side swapped). The
best order, slots [1, 2, 0], puts layers 2 and 4 where the draft learnt them and the
embedding output last, and drafter layout called that "the same layers saved in another
order", sending the user to the dumper's concatenation order. Now the verdict names the
capture one layer off."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import drafter_json, informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

from spec_debug.eagle3.data import write_hs_sample

world = informative_world("h46_embed_shift", seed=5)


def _embed_first(world: Path) -> Path:
    """world's samples as (embedding output, aux slot 0, aux slot 1, final): the capture
    moved one layer down, the draft's last aux layer lost."""
    from safetensors.torch import load_file

    embed = load_file(str(world / "target" / "model.safetensors"))["model.embed_tokens.weight"]
    out = world / "embed_first"
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids, states = tensors["token_ids"], tensors["hidden_states"]
        slots = torch.stack([embed[ids].to(states.dtype), states[:, 0], states[:, 1],
                             states[:, 3]], dim=1)
        write_hs_sample(out / f"hs_{i}.safetensors", ids, slots)
    return out


def test_a_capture_one_layer_off_around_the_embedding_is_not_called_a_reorder(world):
    out = drafter_json(world, _embed_first(world), "layout")
    assert out["best"] == [1, 2, 0], out["verdict"]
    assert out["embedding_slots"] == [0], out["verdict"]
    assert "another order" not in out["verdict"], out["verdict"]
    assert ("it reads slots [1, 2] at the draft's first 2 positions, each one slot later than "
            "configured, and the embedding output (slot 0) last: not a reorder but a capture "
            "one layer off") in out["verdict"]


def test_eval_note_names_the_capture_one_layer_off(world):
    """drafter eval's note on the same dump said only "another order"; it keeps those words
    (SD401 quotes the note by them) and adds the embedding's tell."""
    data = world / "embed_first" if (world / "embed_first").exists() else _embed_first(world)
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    notes = [n for n in json.loads(result.output)["notes"] if "another order" in n]
    assert len(notes) == 1, notes
    assert ("or rather a capture one layer off: slot 0 is exactly the embedding output "
            "(embed_tokens[ids]) and the best order reads it last, after slots [1, 2]") in notes[0]


def _slots_of(world: Path, name: str, build) -> Path:
    """world's samples with their hidden_states [T, 4, H] replaced by build(ids, states)."""
    from safetensors.torch import load_file

    out = world / name
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids = tensors["token_ids"]
        write_hs_sample(out / f"hs_{i}.safetensors", ids, build(ids, tensors["hidden_states"]))
    return out


def _later(world: Path) -> Path:
    """world's samples as (layer 4, layer 5, layer 6, final) for a draft trained on [2, 4, 5]."""
    if (world / "later").exists():
        return world / "later"
    from transformers import LlamaForCausalLM

    verifier = LlamaForCausalLM.from_pretrained(str(world / "target")).eval()

    def later(ids, states):
        with torch.no_grad():
            layer6 = verifier(ids[None], output_hidden_states=True).hidden_states[6][0]
        return torch.stack([states[:, 1], states[:, 2], layer6.to(states.dtype), states[:, 3]], 1)

    return _slots_of(world, "later", later)


def _rotated(world: Path) -> Path:
    """world's samples with the draft's layers written as [4, 5, 2], then the final state."""
    if (world / "rotated").exists():
        return world / "rotated"
    return _slots_of(world, "rotated", lambda ids, s: s[:, [1, 2, 0, 3]])


def test_a_dump_one_layer_later_than_the_draft_is_not_called_a_reorder(world):
    """The incident's direction: a draft trained on (embed, 3, 31) fed the engine's (3, 31,
    59). Here the draft's aux layers are [2, 4, 5] and the dump holds [4, 5, 6] and the
    final state: best [2, 0, 1] reads layers 4 and 5 where the draft learnt them and layer 6
    first, no better there than the final slot."""
    out = drafter_json(world, _later(world), "layout")
    assert out["best"] == [2, 0, 1], out["verdict"]
    assert "another order" not in out["verdict"], out["verdict"]
    assert ("its first position reads slot 2 no better than another slot of the dump: not a "
            "reorder but a capture one layer off - the dump lacks the draft's first aux "
            "layer") in out["verdict"]


def test_the_draft_s_layers_written_rotated_are_still_a_reorder(world):
    """The dumper wrote the draft's layers as [4, 5, 2]: best [2, 0, 1] too, but the first
    position needs slot 2 (0.690 vs 0.357 with the final slot there)."""
    out = drafter_json(world, _rotated(world), "layout")
    assert out["best"] == [2, 0, 1], out["verdict"]
    assert "it reads the configured slots in another order" in out["verdict"], out["verdict"]
    assert "one layer off" not in out["verdict"], out["verdict"]


def _eval_order_note(world: Path, data: Path) -> str:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    notes = [n for n in json.loads(result.output)["notes"] if "another order" in n]
    assert len(notes) == 1, notes
    return notes[0]


def test_eval_note_names_a_dump_one_layer_later(world):
    note = _eval_order_note(world, _later(world))
    assert ("or rather a capture one layer off: the best order reads slots [0, 1] at the "
            "draft's last 2 positions and its first reads slot 2 no better than the final "
            "slot 3") in note, note


def test_eval_note_keeps_a_rotated_dump_a_reorder(world):
    note = _eval_order_note(world, _rotated(world))
    assert "one layer off" not in note, note
