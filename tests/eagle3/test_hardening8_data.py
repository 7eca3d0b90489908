"""Hidden states and aux-layer configs that do not fit the draft the way real hand-made dumps
and copied configs do not: states stacked slots first, aux layer ids written for a deeper
target. The world is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py) and each
test runs the `spec-debug drafter` command a user types.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3._world import informative_world
from tests.eagle3.speculators_world import NL

runner = CliRunner()


world = informative_world("hardening8-data", seed=18)


def _copy(world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root


def _run(*args: str):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def test_states_stacked_slots_first_are_named_as_such(world, tmp_path):
    """A dumper that wrote `torch.stack(layer_states)` ([slots, tokens, hidden]). Before:
    "token_ids has 15 entries, hidden_states 4", as if a file were cut. Now the error says the
    axes are swapped and how to save them."""
    root = _copy(world, tmp_path)
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        state = load_file(path)
        state["hidden_states"] = state["hidden_states"].transpose(0, 1).contiguous()
        save_file(state, str(path))
    for command in ("eval", "layout"):
        result = _run(command, "--model", str(root / "draft"), "--data", str(root / "data"),
                      "--target", str(root / "target"))
        assert result.exit_code == 2, result.output
        text = " ".join(result.output.split())
        assert "slots first (4 states of 14 tokens); speculators' format is [tokens, slots, " \
               "hidden]" in text
        assert "hint: save hidden_states.transpose(0, 1)" in text


def test_aux_ids_of_a_deeper_target_are_named(world, tmp_path):
    """The config's ids copied from a 32-layer target's draft ([2, 16, 29], EAGLE's default
    there) onto this 8-layer one of the same width: the dump (made from layers 2, 4, 5) still
    scores, and before this nothing said the ids cannot be served on this target."""
    root = _copy(world, tmp_path)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["eagle_aux_hidden_state_layer_ids"] = [2, 16, 29]
    path.write_text(json.dumps(config))
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"))
    assert result.exit_code == 0, result.output
    notes = json.loads(result.output)["notes"]
    assert any(f"name layer(s) [16, 29] beyond the target's {NL}" in n for n in notes), notes
    clean = _run("eval", "--model", str(world / "draft"), "--data", str(world / "data"),
                 "--target", str(world / "target"))
    assert not any("beyond the target" in n for n in json.loads(clean.output)["notes"])


def _wrap_target(root: Path, prefix: str, config_of) -> None:
    """The world's target re-saved as a multimodal wrapper keeps its language model: every
    tensor under `prefix`, the config as `config_of(text_config)` makes it."""
    path = root / "target" / "model.safetensors"
    state = {prefix + name: tensor for name, tensor in load_file(path).items()}
    if prefix == "thinker.":
        # the audio talker beside the thinker has its own (codec) embedding and head
        state["talker.model.codec_embedding.weight"] = torch.zeros(16, 8)
        state["talker.codec_head.weight"] = torch.zeros(16, 8)
    save_file(state, str(path), metadata={"format": "pt"})
    config_path = root / "target" / "config.json"
    config_path.write_text(json.dumps(config_of(json.loads(config_path.read_text()))))


def _drop_draft_embedding(root: Path) -> None:
    path = root / "draft" / "model.safetensors"
    state = load_file(path)
    state.pop("embed_tokens.weight")  # the draft takes the target's, as the engines do
    save_file(state, str(path), metadata={"format": "pt"})


@pytest.mark.parametrize("prefix, config_of", [
    # openbmb/MiniCPM-V-4: MiniCPMVConfig is the LLM's config plus vision keys, the LLM is
    # `self.llm` (SpecForge configs/minicpm-v4-eagle3.json)
    ("llm.", lambda text: {**text, "architectures": ["MiniCPMV"], "model_type": "minicpmv"}),
    # Qwen/Qwen3-Omni-30B-A3B-Instruct: thinker_config.text_config, tensors thinker.model.* and
    # thinker.lm_head (SpecForge configs/qwen3-omni-eagle3.json)
    ("thinker.", lambda text: {"architectures": ["Qwen3OmniMoeForConditionalGeneration"],
                               "model_type": "qwen3_omni_moe",
                               "thinker_config": {"text_config": text},
                               "talker_config": {"text_config": {"vocab_size": 16}}}),
], ids=["minicpm-v", "qwen3-omni"])
def test_target_inside_a_multimodal_wrapper_is_the_verifier(world, tmp_path, prefix, config_of):
    """Before: MiniCPM-V's target read as "no embedding tensor" (the draft without one could not
    run) and, with one, as "target has no final norm / lm_head: reference falls back to data
    tokens" (another metric, silently); Qwen3-Omni's config as "no 'num_hidden_layers'". Now
    both score exactly as the same weights saved plainly."""
    root = _copy(world, tmp_path)
    _drop_draft_embedding(root)
    plain = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                 "--target", str(root / "target"))
    assert plain.exit_code == 0, plain.output
    _wrap_target(root, prefix, config_of)
    wrapped = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                   "--target", str(root / "target"))
    assert wrapped.exit_code == 0, wrapped.output
    expected, got = json.loads(plain.output), json.loads(wrapped.output)
    assert got["reference"] == "target_argmax" and got["embed_source"] == "target"
    for key in ("full_accuracy", "target_acceptance", "counts", "num_target_layers"):
        assert got[key] == expected[key], key


def _resave_sharded_then_whole(model, directory: Path) -> None:
    """save_pretrained sharded, then whole into the same directory: transformers removes the
    old shards and keeps model.safetensors.index.json (checked below, as it happens)."""
    model.save_pretrained(directory, max_shard_size="8KB")
    assert len(list(directory.glob("model-*-of-*.safetensors"))) > 1
    model.save_pretrained(directory)
    assert (directory / "model.safetensors.index.json").is_file()
    assert not list(directory.glob("model-*-of-*.safetensors"))


def test_index_left_by_an_earlier_sharded_save_is_named_and_the_weights_read(world, tmp_path):
    """Before: "model.safetensors.index.json names shard(s) that are missing" for a draft that
    transformers and speculators load, and for the target "shards named in the index but not
    present" with the reference silently fallen back to the data's tokens. Now the single file
    is read as transformers reads it, with a note that vLLM/SGLang would find no weights."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from transformers import LlamaForCausalLM

    root = _copy(world, tmp_path)
    expected = json.loads(_run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                               "--target", str(root / "target")).output)
    config = Eagle3SpeculatorConfig.from_pretrained(root / "draft")
    config.transformer_layer_config._attn_implementation = "eager"
    _resave_sharded_then_whole(Eagle3DraftModel.from_pretrained(root / "draft", config=config),
                               root / "draft")
    _resave_sharded_then_whole(LlamaForCausalLM.from_pretrained(root / "target"), root / "target")

    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"))
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    assert got["reference"] == "target_argmax"
    for key in ("full_accuracy", "target_acceptance", "counts"):
        assert got[key] == expected[key], key
    stale = [n for n in got["notes"] if "names no shard that is here" in n]
    assert len(stale) == 2 and "weights for this draft" in stale[0] and "target" in stale[1]
    vocab = _run("vocab", "--model", str(root / "draft"), "--target", str(root / "target"))
    # vLLM and SGLang load no weights from the draft's folder: `vocab` fails it (SD710,
    # test_hardening68_stale_index.py)
    assert vocab.exit_code == 1, vocab.output
    assert any("names no shard that is here" in n for n in json.loads(vocab.output)["notes"])


def test_draft_without_embedding_says_why_the_named_verifier_was_not_used(world, tmp_path):
    """The training host's verifier path now holds another model (48 wide): the draft's config
    still names it. With a draft that carries no embedding (SpecForge and EAGLE exports, the
    speculators converter's output) the error's hint was "the draft's config names its
    verifier: --target <that path>", the model just refused; now it says why it was refused."""
    from transformers import LlamaConfig, LlamaForCausalLM

    root = _copy(world, tmp_path)
    _drop_draft_embedding(root)
    shutil.rmtree(root / "target")
    config = json.loads((world / "target" / "config.json").read_text())
    other = {k: config[k] for k in ("vocab_size", "intermediate_size", "num_attention_heads",
                                    "num_key_value_heads", "num_hidden_layers")}
    LlamaForCausalLM(LlamaConfig(**other, hidden_size=48)).save_pretrained(root / "target")
    draft_config = json.loads((root / "draft" / "config.json").read_text())
    draft_config["speculators_config"]["verifier"]["name_or_path"] = str(root / "target")
    (root / "draft" / "config.json").write_text(json.dumps(draft_config))
    for command in ("eval", "layout"):
        result = _run(command, "--model", str(root / "draft"), "--data", str(root / "data"))
        assert result.exit_code == 2, result.output
        text = " ".join(result.output.split())
        assert "no embed_tokens.weight in the draft" in text
        assert "has hidden_size 48, the draft takes 32-wide states: not used" in text
        assert f"names its verifier: --target {root / 'target'}" not in text


def test_datagen_ids_copied_into_the_config_name_the_final_slot(world, tmp_path):
    """speculators' datagen captures [*aux, N] (scripts/launch_vllm.py --include-last-layer);
    that list pasted into a 3-aux draft's config. Before: only "fc.weight takes 96 inputs ...
    but eagle_aux_hidden_state_layer_ids is [2, 4, 5, 8]"; now also which id to drop."""
    root = _copy(world, tmp_path)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["eagle_aux_hidden_state_layer_ids"] = [2, 4, 5, NL]
    path.write_text(json.dumps(config))
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"))
    assert result.exit_code == 2, result.output
    assert (f"if {NL} is the target's last layer, it is the datagen's final slot "
            "(launch_vllm.py --include-last-layer), which training strips: drop it, [2, 4, 5]"
            in " ".join(result.output.split()))
