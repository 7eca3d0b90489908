"""A dump whose layer_ids metadata names the draft's layers over states stacked in another
order (a dumper that wrote [2, 4, 5, 8] but cat'ed the aux states as [5, 4, 2]).

Eval maps the draft's aux ids to slots through that metadata and fed fc slots [0, 1, 2]: the
draft scored like weak weights (0.31 at step 0 against 0.69 as dumped) with no word, while the
same states with no metadata got the note that names the order the weights fit. The metadata
is now checked the same way: the other orders of the slots it names are tried on a low score,
and the note says the metadata does not match the tensors. Saved by speculators 0.9.0 (the
draft), written as vLLM's extraction writes hs files, with the layer_ids metadata spec-debug's
data reader documents (spec_debug/eagle3/data.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h52_named_order", seed=3)

NAMED = [2, 4, 5, 8]  # the world's AUX and its final layer, input-to numbering


def _named(world: Path, name: str, order: list[int], named: list[int] = NAMED,
           first: bool = False) -> Path:
    """world's hs samples with their slots in `order`, the metadata naming them `named`;
    `first`: a slot before them, layer 1 (half the final state: some other layer's)."""
    from safetensors.torch import load_file, save_file

    out = world / name
    if not out.exists():
        out.mkdir()
        for i in range(3):
            tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
            states = tensors["hidden_states"][:, order]
            if first:
                states = torch.cat([tensors["hidden_states"][:, -1:] * 0.5, states], dim=1)
            save_file({"token_ids": tensors["token_ids"], "hidden_states": states.contiguous()},
                      str(out / f"hs_{i}.safetensors"),
                      metadata={"layer_ids": json.dumps(named)})
    return out


def _eval(world: Path, data: Path, *extra: str) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_metadata_that_names_slots_in_another_order_is_said(world):
    data = _named(world, "data_named_wrong", [2, 1, 0, 3])
    out = _eval(world, data)
    assert out["layout_source"] == "layer_ids" and out["layout"] == [0, 1, 2]
    assert out["full_accuracy"][0] < 0.4, out["full_accuracy"]
    hints = [n for n in out["notes"] if "in another order than it was trained on" in n]
    assert len(hints) == 1, out["notes"]
    hint = hints[0]
    assert hint.startswith("aux slots [2, 1, 0] score ") and "--layout 2,1,0" in hint
    assert "by its layer_ids metadata, the dump holds the draft's aux layers in another order" in hint
    assert "layer_ids metadata does not match its tensors" in hint
    assert "or the draft was trained on these layers in that order" in hint
    assert "named layers [2, 4, 5] by the dump's layer_ids metadata" in hint
    # the order it names is the weights': evaluated with it, the score is the dump's as trained
    fixed = _eval(world, data, "--layout", "2,1,0")
    plain = _eval(world, world / "data")
    assert fixed["full_accuracy"] == plain["full_accuracy"]


def test_metadata_that_matches_its_tensors_gets_no_note(world):
    data = _named(world, "data_named_right", [0, 1, 2, 3])
    out = _eval(world, data)
    assert out["layout_source"] == "layer_ids"
    assert out["full_accuracy"][0] > 0.6, out["full_accuracy"]
    assert not any("another order" in n for n in out["notes"]), out["notes"]


def test_sd401_carries_the_metadata_note(world):
    """drafter_accuracy's SD401 quotes the note, so the finding names the data, not the
    weights."""
    from spec_debug.diagnose.steps import eval_step
    from spec_debug.probes.registry import ProbeContext

    out = _eval(world, _named(world, "data_named_wrong", [2, 1, 0, 3]), "--steps", "2")
    facts = eval_step.parse({"reference": out, "args": {"claimed_accuracy": "0.69"}})
    ctx = ProbeContext(step_id="eval", host="gpu01", args={}, facts=facts, host_facts=facts)
    [finding] = [f for f in eval_step.check(ctx) if f.code == "SD401"]
    assert any("layer_ids metadata does not match its tensors" in e for e in finding.evidence)


def test_the_note_names_file_slots_of_a_wider_named_dump(world):
    """Metadata [1, 2, 4, 5, 8]: the draft's layers are slots 1-3, fed as such; the states
    there rotated (file slot 1 holds layer 4's state, 2 layer 5's, 3 layer 2's). The note
    names the file's slots, the ones --layout takes."""
    data = _named(world, "data_named_wide", [1, 2, 0, 3], named=[1, *NAMED], first=True)
    out = _eval(world, data)
    assert out["layout"] == [1, 2, 3], out["layout"]
    hints = [n for n in out["notes"] if "in another order than it was trained on" in n]
    assert len(hints) == 1, out["notes"]
    assert hints[0].startswith("aux slots [3, 1, 2] score ") and "--layout 3,1,2" in hints[0]
    fixed = _eval(world, data, "--layout", "3,1,2")
    assert fixed["full_accuracy"] == _eval(world, world / "data")["full_accuracy"]
