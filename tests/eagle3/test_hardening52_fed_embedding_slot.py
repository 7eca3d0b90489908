"""A dump that does not name its slots and starts at the embedding output, fed to fc as the
draft's first aux layer (the incident's bug 2: cat([embed, layer3, layer31]) against
[layer3, layer31, layer59]).

Before: a dump of 4 aux slots [embed, 2, 4, 5] and the final one got "run `spec-debug drafter
layout`" and nothing of what slot 0 holds; [embed, 2, 4] and the final one (as many aux slots as
fc takes) scored 0.45 with no word at all (above the slot-order check's 0.4). Now eval says
which fed slot is exactly embed_tokens[token_ids] where the draft's config names a later layer.
The draft is saved by speculators 0.9.0 over a transformers Llama verifier (the draft's
embedding is the verifier's), the states captured as vLLM captures them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h52_fed_embedding", seed=3)

SAID = "is exactly the embedding output"


def _with_embedding(world: Path, name: str, keep: list[int]) -> Path:
    """world's hs samples as cat([embed_tokens[ids], hidden_states[:, keep]]): no metadata."""
    from safetensors.torch import load_file, save_file

    out = world / name
    if not out.exists():
        out.mkdir()
        table = load_file(str(world / "target" / "model.safetensors"))["model.embed_tokens.weight"]
        for i in range(3):
            tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
            ids, states = tensors["token_ids"], tensors["hidden_states"]
            embedded = table[ids].to(states.dtype)[:, None]
            save_file({"token_ids": ids,
                       "hidden_states": torch.cat([embedded, states[:, keep]], 1).contiguous()},
                      str(out / f"hs_{i}.safetensors"))
    return out


def _notes(world: Path, data: Path, *extra: str) -> list[str]:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "2", "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["notes"]


def test_a_wide_dump_fed_from_the_embedding_slot_names_it(world):
    data = _with_embedding(world, "data_embed_wide", [0, 1, 2, 3])  # embed, 2, 4, 5, final
    notes = _notes(world, data)
    [said] = [n for n in notes if SAID in n]
    assert said.startswith("slot 0 (fed to fc as layer 2) is exactly the embedding output")
    assert "the draft's aux layers are [2, 4, 5]" in said
    assert f"spec-debug drafter layout --model {world / 'draft'} --data {data}" in said
    # the wide dump's own note still stands beside it
    assert any("the dump has 4 aux slots per position" in n for n in notes), notes


def test_the_incident_shape_is_named_above_the_slot_order_threshold(world):
    data = _with_embedding(world, "data_embed_incident", [0, 1, 3])  # embed, 2, 4, final
    notes = _notes(world, data)
    [said] = [n for n in notes if SAID in n]
    assert said.startswith("slot 0 (fed to fc as layer 2)")


def test_slots_past_the_embedding_get_no_note(world):
    """The same dump fed the draft's layers (--layout 1,2,3): scored as dumped, no word."""
    data = _with_embedding(world, "data_embed_wide", [0, 1, 2, 3])
    assert not any(SAID in n for n in _notes(world, data, "--layout", "1,2,3"))
    assert not any(SAID in n for n in _notes(world, world / "data"))


def test_sd401_carries_the_note(world):
    """drafter_accuracy's SD401 on that dump blamed the weights, the export or the data with
    no word of the embedding slot; it now quotes the note, as it quotes the slot-order one."""
    from spec_debug.diagnose.steps import eval_step
    from spec_debug.probes.registry import ProbeContext

    data = _with_embedding(world, "data_embed_incident", [0, 1, 3])
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "2", "--json"])
    facts = eval_step.parse({"reference": json.loads(result.output),
                             "args": {"claimed_accuracy": "0.69"}})
    ctx = ProbeContext(step_id="eval", host="gpu01", args={}, facts=facts, host_facts=facts)
    [finding] = [f for f in eval_step.check(ctx) if f.code == "SD401"]
    assert any(e.startswith("slot 0 (fed to fc as layer 2) " + SAID) for e in finding.evidence)


def test_an_every_layer_dump_gets_the_layout_of_the_draft_layers(world):
    """transformers' output_hidden_states of every layer (slot i the input to layer i, the
    embedding output first) and the final state: not one layer off, and the draft's layers are
    the slots of their ids, which the note gives as --layout (scored as the dump as captured)."""
    from safetensors.torch import load_file, save_file
    from transformers import LlamaForCausalLM

    out = world / "data_every_layer"
    if not out.exists():
        out.mkdir()
        verifier = LlamaForCausalLM.from_pretrained(str(world / "target")).eval()
        for i in range(3):
            tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
            ids = tensors["token_ids"]
            with torch.no_grad():
                every = verifier(ids[None], output_hidden_states=True).hidden_states[:-1]
            states = torch.stack([h[0].to(torch.bfloat16) for h in every]
                                 + [tensors["hidden_states"][:, -1]], 1)
            save_file({"token_ids": ids, "hidden_states": states.contiguous()},
                      str(out / f"hs_{i}.safetensors"))
    [said] = [n for n in _notes(world, out) if SAID in n]
    assert "slot i the input to layer i" in said and "one layer off" not in said
    assert "the draft's layers are --layout 2,4,5" in said
    plain = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                        str(world / "data"), "--target", str(world / "target"),
                                        "--steps", "2", "--json"])
    fixed = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                        str(out), "--target", str(world / "target"),
                                        "--steps", "2", "--json", "--layout", "2,4,5"])
    assert json.loads(fixed.output)["full_accuracy"] == json.loads(plain.output)["full_accuracy"]
