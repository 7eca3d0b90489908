"""A dump of every layer's hidden state that does not name its slots (speculators' hs files
carry no layer ids), for a speculators draft whose config is right (aux ids [2, 4, 5]). Eval
reads its first 3 slots and sends the user to `drafter layout`; layout's pruned search starts
from those slots and, on all 9 hidden states of the 8-layer verifier (embedding output first,
as transformers' output_hidden_states returns them), never scored slots [2, 4, 5] (0.690): it
named [3, 5, 4] (0.452) "a different layout than the one configured". Now the config's ids
are scored as slot numbers in both numberings of such a dump (embedding output included,
or left out: every id one lower), and the verdict says which one and the --layout to pass;
eval's note names both."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from tests.eagle3.speculators_world import AUX, NL, save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """(root, the verifier, the step-0 accuracy of the world's own dump of layers [2, 4, 5])."""
    from transformers import LlamaForCausalLM

    root = save_informative_world(tmp_path_factory.mktemp("every_layer"), seed=1)
    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    sound = evaluate_drafter(root / "draft", root / "data", root / "target", steps=1)
    return root, verifier, sound["full_accuracy"][0]


def _every_layer_dump(world: Path, verifier, out: Path, layers: range) -> Path:
    """The world's samples with hidden_states [T, len(layers) + 1, H]: transformers'
    hidden_states[j] for j in ``layers`` (j = 0 the embedding output, j the input to layer
    j), then the file's own final slot. Layers AUX are the file's own slots, byte for byte
    (a forward here may round differently from the one that wrote them)."""
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        with torch.no_grad():
            hidden = verifier(tensors["token_ids"][None], output_hidden_states=True).hidden_states
        slots = [tensors["hidden_states"][:, AUX.index(j)] if j in AUX
                 else hidden[j][0].to(torch.bfloat16) for j in layers]
        slots.append(tensors["hidden_states"][:, -1])
        save_file({"token_ids": tensors["token_ids"],
                   "hidden_states": torch.stack(slots, dim=1).contiguous()}, str(out / path.name))
    return out


@pytest.mark.parametrize("layers, slots, numbering", [
    (range(0, NL + 1), [2, 4, 5], "with the embedding output first"),
    (range(1, NL + 1), [1, 3, 4], "without the embedding output"),
])
def test_an_unnamed_dump_of_every_layer_is_read_by_the_configured_ids(world, tmp_path, layers,
                                                                     slots, numbering):
    root, verifier, sound = world
    data = _every_layer_dump(root, verifier, tmp_path / "data", layers)
    guessed = evaluate_drafter(root / "draft", data, root / "target", steps=1, max_samples=1)
    [note] = [n for n in guessed["notes"] if "does not name their layers" in n]
    assert note.endswith("if it holds every layer, the configured ids [2, 4, 5] are slots "
                         "2,4,5 (with the embedding output first) or 1,3,4 (without the "
                         "embedding output)")

    report = probe_layout(root / "draft", data, root / "target")
    assert report["configured"] == [0, 1, 2]  # eval's guess for slots it cannot name
    assert report["best"] == slots
    assert report["ranked"][0]["full_accuracy0"] == sound  # the configured layers, exactly
    verdict = report["verdict"]
    assert verdict.startswith(f"slots {slots} score ")
    assert "trained on a different layout" not in verdict
    assert f"they are the config's layer ids [2, 4, 5] in a dump of every layer {numbering}" in verdict
    assert verdict.endswith(f"so the draft fits its config; pass --layout {','.join(map(str, slots))}")
