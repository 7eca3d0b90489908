"""A dump whose layer_ids metadata names the draft's layers in the right order, but one layer
off its tensors (a dumper that numbers each layer's output, transformers'
output_hidden_states[i + 1], where the engines capture each layer's input). Eval feeds fc
the slots the metadata names for the draft's aux layers [2, 4, 5], which hold layers
[1, 3, 4]: the draft scored low with no word (no other order of those slots fits better, so
the slot-order check said nothing). Now, when the metadata also names the neighbouring layers
(an every-layer dump), eval scores them and says the metadata is one layer off; when it does
not, eval says the metadata could not be checked. The draft is saved by speculators 0.9.0
over a transformers Llama verifier whose every layer's input is captured here."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h53_named_off_by_one", seed=3)

OFF = "the metadata numbers each slot one layer higher than the layer it holds"
UNCHECKED = "was not checked"


def _every_layer(world: Path, name: str, keep: list[int] | None, named: list[int]) -> Path:
    """The input to each verifier layer (slot i: layer i, the embedding output first) and the
    final state, `keep` of them (None: all), the metadata naming them `named`."""
    from safetensors.torch import load_file, save_file
    from transformers import LlamaForCausalLM

    out = world / name
    if not out.exists():
        out.mkdir()
        verifier = LlamaForCausalLM.from_pretrained(str(world / "target")).eval()
        for i in range(3):
            tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
            ids = tensors["token_ids"]
            with torch.no_grad():
                every = verifier(ids[None], output_hidden_states=True).hidden_states[:-1]
            layers = [h[0].to(tensors["hidden_states"].dtype) for h in every]
            chosen = layers if keep is None else [layers[k] for k in keep]
            states = torch.stack(chosen + [tensors["hidden_states"][:, -1]], 1)
            save_file({"token_ids": ids, "hidden_states": states.contiguous()},
                      str(out / f"hs_{i}.safetensors"),
                      metadata={"layer_ids": json.dumps(named)})
    return out


def _eval(world: Path, data: Path, *extra: str) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_an_every_layer_dump_named_one_layer_up_is_said(world):
    # slot i holds the input to layer i, the metadata names it i + 1 (the final state 9)
    data = _every_layer(world, "data_every_named_up", None, list(range(1, 10)))
    out = _eval(world, data)
    assert out["layout_source"] == "layer_ids" and out["layout"] == [1, 3, 4]
    assert out["full_accuracy"][0] < 0.6, out["full_accuracy"]
    [said] = [n for n in out["notes"] if OFF in n]
    assert said.startswith("the slots [2, 4, 5] the dump's layer_ids metadata names as layers "
                           "[3, 5, 6] score ")
    assert "--layout 2,4,5 evaluates with those slots" in said
    fixed = _eval(world, data, "--layout", "2,4,5")
    assert fixed["full_accuracy"][0] > 0.6, fixed["full_accuracy"]


def test_an_every_layer_dump_named_right_gets_no_note(world):
    data = _every_layer(world, "data_every_named_right", None, list(range(0, 9)))
    out = _eval(world, data)
    assert out["layout"] == [2, 4, 5] and out["full_accuracy"][0] > 0.6
    assert not any(OFF in n or UNCHECKED in n for n in out["notes"]), out["notes"]


def test_a_dump_of_the_draft_layers_alone_says_the_metadata_was_not_checked(world):
    # layers 1, 3, 4 and the final state, named as the draft's 2, 4, 5 and 8
    data = _every_layer(world, "data_named_off_alone", [1, 3, 4], [2, 4, 5, 8])
    out = _eval(world, data)
    assert out["full_accuracy"][0] < 0.6, out["full_accuracy"]
    [said] = [n for n in out["notes"] if UNCHECKED in n]
    assert said.startswith("the draft scores ")
    assert "on the slots [0, 1, 2] the dump's layer_ids metadata names as the draft's aux " \
           "layers [2, 4, 5]" in said
    assert "its layer_ids [2, 4, 5, 8]" in said
    # the neighbours tried are one and two layers off (NAMED_LAYER_SHIFTS), and the note says so
    assert "does not hold the layers one or two below or above them" in said, said


def test_drafter_layout_ranks_the_draft_layers_of_a_metadata_one_layer_off(world):
    """`drafter layout` on the same every-layer dump: its pruned search starts from the
    configured slots and missed the draft's layers (0.690), naming slots [1, 5, 6] (0.643)
    as the layout to use. The slots the metadata names as the configured ids one layer below
    and above are now always scored."""
    data = _every_layer(world, "data_every_named_up", None, list(range(1, 10)))
    result = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["best"] == [2, 4, 5], out["ranked"][:3]


def test_sd401_carries_the_one_layer_off_note(world):
    """drafter_accuracy's SD401 on that dump blamed the weights, the export or the data; it
    now quotes the note, as it quotes the slot-order and embedding-slot ones."""
    from spec_debug.diagnose.steps import eval_step
    from spec_debug.probes.registry import ProbeContext

    data = _every_layer(world, "data_every_named_up", None, list(range(1, 10)))
    facts = eval_step.parse({"reference": _eval(world, data),
                             "args": {"claimed_accuracy": "0.69"}})
    ctx = ProbeContext(step_id="eval", host="gpu01", args={}, facts=facts, host_facts=facts)
    [finding] = [f for f in eval_step.check(ctx) if f.code == "SD401"]
    assert any(OFF in e for e in finding.evidence), finding.evidence


def test_a_final_slot_named_one_past_the_target_is_read_as_numbering_too(world):
    """That dump names its final slot 9 over an 8-layer target: the note said only "captured
    from another, deeper model"; a metadata one layer off names it so too, and now says so."""
    data = _every_layer(world, "data_every_named_up", None, list(range(1, 10)))
    [said] = [n for n in _eval(world, data)["notes"] if "beyond the target's 8 layers" in n]
    assert said.endswith("or the dump's layer_ids number each slot one layer higher than the "
                         "layer it holds (a dumper numbering each layer's output: its last "
                         "slot, named 9, the final output 8)")
