"""Faults in drafts and dumps saved by the reference library (speculators 0.9.0 over a
transformers Llama verifier), each named in one clear line:

- a speculators config.json that lost `speculators_model_type` (speculators itself refuses
  it) said only "no 'hidden_size'";
- NaN/Inf in a trained module (fc, the decoder layer: a diverged run) got the hint for a draft
  saved before load_verifier_weights(), which only explains embed_tokens / lm_head;
- samples whose loss_mask selects nothing were counted in `samples` and silently added
  nothing;
- --target another kind of model than speculators_config.verifier names got no word."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import V, save_verifier_and_draft, vllm_style_states  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """target/, draft/ as speculators saves them, data/ with three samples captured from the
    verifier as vLLM captures them."""
    root = tmp_path_factory.mktemp("h22_inputs")
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(22)
    for i in range(3):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (14 + i,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def _invoke(*args: str):
    return runner.invoke(drafter_app, list(args))


def _eval(root: Path, model: Path, data: Path) -> dict:
    result = _invoke("eval", "--model", str(model), "--data", str(data), "--target",
                     str(root / "target"), "--steps", "1", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _edited_config(root: Path, tmp_path: Path, edit) -> Path:
    draft = tmp_path / "draft"
    shutil.copytree(root / "draft", draft)
    config = json.loads((draft / "config.json").read_text())
    edit(config)
    (draft / "config.json").write_text(json.dumps(config))
    return draft


def test_a_config_without_speculators_model_type_is_named(world, tmp_path):
    from speculators.models.eagle3 import Eagle3SpeculatorConfig

    draft = _edited_config(world, tmp_path, lambda c: c.pop("speculators_model_type"))
    with pytest.raises(Exception, match="non-speculator model config"):
        Eagle3SpeculatorConfig.from_pretrained(str(draft))  # the reference refuses it too
    result = _invoke("eval", "--model", str(draft), "--data", str(world / "data"),
                     "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    assert "without speculators_model_type" in result.output
    assert "no 'hidden_size'" not in result.output
    assert '"speculators_model_type": "eagle3"' in result.output  # the fix
    assert "Traceback" not in result.output


def _save_with(world: Path, out: Path, name: str, value: float) -> Path:
    """The draft loaded by speculators, one weight set to `value`, saved by speculators."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(str(world / "draft"))
    model = Eagle3DraftModel.from_pretrained(str(world / "draft"), config=config)
    with torch.no_grad():
        dict(model.named_parameters())[name].view(-1)[0] = value
    model.save_pretrained(out)
    return out


@pytest.mark.parametrize("name, value", [("fc.weight", float("nan")),
                                         ("layers.0.mlp.down_proj.weight", float("inf"))])
def test_nan_in_a_trained_module_is_called_a_diverged_run(world, tmp_path, name, value):
    draft = _save_with(world, tmp_path / "draft", name, value)
    result = _invoke("eval", "--model", str(draft), "--data", str(world / "data"),
                     "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    assert f"NaN or Inf in {name} (1 of" in result.output
    assert "training diverged" in result.output
    assert "load_verifier_weights" not in result.output  # not the untied-head case


def test_nan_in_the_verifier_copied_head_keeps_the_load_verifier_weights_hint(world, tmp_path):
    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    tensors["lm_head.weight"][:] = float("nan")  # as Eagle3DraftModel initialises it
    save_file(tensors, str(draft / "model.safetensors"))
    result = _invoke("eval", "--model", str(draft), "--data", str(world / "data"))
    assert result.exit_code == 2, result.output
    assert "NaN or Inf in lm_head.weight" in result.output
    assert "load_verifier_weights() is called" in result.output


def test_samples_whose_loss_mask_selects_nothing_are_counted_in_a_note(world, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for i, path in enumerate(sorted((world / "data").glob("*.safetensors"))):
        tensors = load_file(str(path))
        mask = torch.ones_like(tensors["token_ids"])
        if i == 0:
            mask[:] = 0  # no assistant turn found
        tensors["loss_mask"] = mask
        save_file(tensors, str(data / path.name))
    out = _eval(world, world / "draft", data)
    notes = [n for n in out["notes"] if "selects no position" in n]
    assert notes == ["1 of 3 samples (hs_0.safetensors) have a loss mask that selects no position to score (all "
                     "zero, or only the first token): they add nothing to the accuracies; a "
                     "chat template whose assistant turns were not found writes such masks"]
    whole = _eval(world, world / "draft", world / "data")
    assert not [n for n in whole["notes"] if "selects no position" in n]
    assert out["tokens"] == whole["tokens"]  # counted, not scored
    assert out["counts"]["full_total"][0] == whole["counts"]["full_total"][0] - 13


def test_a_target_of_another_architecture_than_the_named_verifier_is_named(world, tmp_path):
    def qwen(config):
        config["speculators_config"]["verifier"] = {"name_or_path": "Qwen/Qwen3-8B",
                                                    "architectures": ["Qwen3ForCausalLM"]}
    draft = _edited_config(world, tmp_path, qwen)
    out = _eval(world, draft, world / "data")
    notes = [n for n in out["notes"] if "speculators_config.verifier" in n]
    assert len(notes) == 1, out["notes"]
    assert "is a LlamaForCausalLM, but the draft's config names the verifier Qwen/Qwen3-8B " \
           "(Qwen3ForCausalLM" in notes[0]
    same = _eval(world, world / "draft", world / "data")
    assert not [n for n in same["notes"] if "config names the verifier" in n]


def test_aux_ids_nested_in_transformer_layer_config_are_named(world, tmp_path):
    """vLLM reads eagle_aux_hidden_state_layer_ids at the top level of a speculators config
    only (transformers_utils/configs/speculators/algos.py): nested in the decoder's config,
    the engines feed their default layers [2, 4, 5] of this 8-layer target."""
    def nest(config, ids):
        config.pop("eagle_aux_hidden_state_layer_ids")
        config["transformer_layer_config"]["eagle_aux_hidden_state_layer_ids"] = ids
    draft = _edited_config(world, tmp_path, lambda c: nest(c, [1, 3, 6]))
    out = _eval(world, draft, world / "data")
    notes = [n for n in out["notes"] if "inside transformer_layer_config" in n]
    assert notes == ["config.json has eagle_aux_hidden_state_layer_ids [1, 3, 6] inside "
                     "transformer_layer_config, where neither vLLM nor speculators reads it: "
                     "the engines feed the draft their default layers [2, 4, 5]; move the key "
                     "to the top level of config.json"]
    same = _edited_config(world, tmp_path / "same", lambda c: nest(c, [2, 4, 5]))
    assert not [n for n in _eval(world, same, world / "data")["notes"]
                if "inside transformer_layer_config" in n]


def test_the_default_proposal_method_gives_the_draft_depth(world):
    """speculators_config.default_proposal_method names the method in use (speculators
    validates it is one of proposal_methods); a config listing another method first (a newer
    schema's tree proposal) was read with that method's depth."""
    from spec_debug.eagle3.config import parse_draft_config

    config = json.loads((world / "draft" / "config.json").read_text())
    assert parse_draft_config(config).speculative_tokens == 3  # speculators' save, as is
    spec = config["speculators_config"]
    spec["proposal_methods"] = [{"proposal_type": "tree", "speculative_tokens": 5},
                                *spec["proposal_methods"]]
    assert spec["default_proposal_method"] == "greedy"
    assert parse_draft_config(config).speculative_tokens == 3
    spec["default_proposal_method"] = "tree"
    assert parse_draft_config(config).speculative_tokens == 5
