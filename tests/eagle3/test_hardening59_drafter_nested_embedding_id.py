"""`spec-debug drafter eval` refused the config the layer check itself proposes for a plain HF
(EAGLE/SpecForge-format) draft trained on the embedding output: eagle_config ids starting at
-1 (SGLang's models/llama.py adds 1 to each, so -1 is the embedding output,
sgl-project/sglang python/sglang/srt/models/llama.py set_eagle3_layers_to_capture) were "not a
list of layer indices", so the user who applied the fix could no longer evaluate the draft. Now
-1 is accepted as the first nested id and read as layer-input 0. The draft and target are saved
by speculators 0.9.0 and transformers (tests/eagle3/speculators_world.py); the dump holds every
layer input and the final pre-norm state, named in its layer_ids metadata, as a wide dump."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import NL, V, save_verifier_and_draft  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    from safetensors.torch import load_file, save_file

    root = tmp_path_factory.mktemp("drafter_nested_embedding_id")
    verifier = save_verifier_and_draft(root)
    (root / "wide").mkdir()
    generator = torch.Generator().manual_seed(59)
    for n in range(2):
        ids = torch.randint(0, V, (12,), generator=generator)
        final = []
        hook = verifier.model.norm.register_forward_pre_hook(lambda _m, args: final.append(args[0]))
        with torch.no_grad():
            hidden = verifier(ids[None], output_hidden_states=True).hidden_states
        hook.remove()
        slots = [hidden[j][0] for j in range(NL)] + [final[0][0]]
        save_file({"token_ids": ids, "hidden_states": torch.stack(slots, 1).to(torch.bfloat16).contiguous()},
                  str(root / "wide" / f"hs_{n}.safetensors"),
                  metadata={"layer_ids": json.dumps(list(range(NL + 1)))})
    # the draft as SpecForge saves it: midlayer.* names, the decoder config at the top level
    eagle = root / "eagle"
    eagle.mkdir()
    state = load_file(str(root / "draft" / "model.safetensors"))
    save_file({k.replace("layers.0.", "midlayer."): v for k, v in state.items()}, str(eagle / "model.safetensors"))
    spec = json.loads((root / "draft" / "config.json").read_text())
    (eagle / "config.json").write_text(json.dumps(dict(
        spec["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
        draft_vocab_size=spec["draft_vocab_size"])))
    return root


def _with_nested(world: Path, ids: list[int], name: str) -> Path:
    draft = world / name
    if not draft.exists():
        shutil.copytree(world / "eagle", draft)
    config = json.loads((draft / "config.json").read_text())
    config["eagle_config"] = {"eagle_aux_hidden_state_layer_ids": ids}
    (draft / "config.json").write_text(json.dumps(config))
    return draft


def _eval(world: Path, draft: Path):
    return runner.invoke(drafter_app, ["eval", "--model", str(draft), "--data", str(world / "wide"),
                                       "--target", str(world / "target"), "--steps", "1", "--json"])


def test_the_proposed_embedding_fix_is_evaluated_on_the_embedding_slot(world):
    result = _eval(world, _with_nested(world, [-1, 1, 3], "fixed"))
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["layout_layer_ids"] == [0, 2, 4]


def test_minus_one_anywhere_else_is_still_refused(world):
    # only the first nested id may be -1 (the embedding output in that key's numbering)
    result = _eval(world, _with_nested(world, [1, -1, 3], "bad"))
    assert result.exit_code != 0 and "expected a list of layer indices" in result.output


def test_the_llama_path_fix_from_layer_input_1_is_evaluated_on_layer_inputs_1_3_5(world):
    # the layer check's SGLang fix for a draft trained on layer-inputs [1, 3, 5] of this Llama
    # target is eagle_config [0, 2, 4] (models/llama.py adds 1 to each); eval read the 0 as the
    # embedding and evaluated the draft on layer-inputs [0, 2, 4]
    result = _eval(world, _with_nested(world, [0, 2, 4], "from_one"))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["layout_layer_ids"] == [1, 3, 5]
