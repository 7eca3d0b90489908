"""Drafter checkpoints and dumps as real trainers and exporters leave them: tied heads,
quantized weights of every kind, FP8 weights and dumps whose scales were dropped.

The world is saved by speculators 0.9.0 itself (tests/eagle3/speculators_world.py), its hidden
states captured from the verifier as vLLM captures them, and each test runs the
`spec-debug drafter` command a user would type.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.speculators_world import (
    V, make_targets_informative, save_informative_world, vllm_style_states,
)

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """target/ and draft/ as transformers and speculators save them, data/ as vLLM's
    extraction writes it, with targets the draft often hits (so a wrong weight shows)."""
    return save_informative_world(tmp_path_factory.mktemp("hardening7"), seed=7)


def _copy(world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root


def _run(*args: str):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def _eval(root: Path, data: Path | None = None) -> dict:
    result = _run("eval", "--model", str(root / "draft"), "--data", str(data or root / "data"),
                  "--target", str(root / "target"), "--steps", "2")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _eval_error(root: Path, data: Path | None = None) -> str:
    result = _run("eval", "--model", str(root / "draft"), "--data", str(data or root / "data"),
                  "--target", str(root / "target"), "--steps", "2")
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


def _rewrite_draft(root: Path, change) -> None:
    path = root / "draft" / "model.safetensors"
    state = load_file(path)
    change(state)
    save_file(state, str(path), metadata={"format": "pt"})


def _edit_config(root: Path, change) -> None:
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    change(config)
    path.write_text(json.dumps(config, indent=2))


def _linears(state: dict) -> list[str]:
    return [n for n in state if n.endswith("_proj.weight") or n == "fc.weight"]


# -- 1. a head tied to the embedding ---------------------------------------------------------

def _full_vocab_draft(root: Path, *, tie: bool, keep_head: bool) -> None:
    """The world's draft made full-vocabulary (DV = V, no vocab maps) with its head equal to
    its embedding: stored as lm_head.weight, or left to tie_word_embeddings."""
    def change(state):
        state.pop("d2t"), state.pop("t2d")
        if keep_head:
            state["lm_head.weight"] = state["embed_tokens.weight"].clone()
        else:
            state.pop("lm_head.weight")
    _rewrite_draft(root, change)
    _edit_config(root, lambda c: (c.update(draft_vocab_size=V),
                                  c["transformer_layer_config"].update(tie_word_embeddings=tie)))


def test_tied_draft_without_lm_head_scores_as_the_same_draft_with_it(world, tmp_path):
    """A draft for a tied target (Llama 3.2 1B) saved with tie_word_embeddings: the tensor is
    written once, as embed_tokens.weight. SGLang builds it with lm_head = embed_tokens
    (llama_eagle3.py); this was refused as "missing tensors: lm_head.weight"."""
    stored = _copy(world, tmp_path / "stored")
    _full_vocab_draft(stored, tie=False, keep_head=True)
    tied = _copy(world, tmp_path / "tied")
    _full_vocab_draft(tied, tie=True, keep_head=False)
    reference, out = _eval(stored), _eval(tied)
    assert out["counts"] == reference["counts"]
    assert any("tie_word_embeddings" in note for note in out["notes"]), out["notes"]


def test_tied_config_with_a_smaller_draft_vocab_and_no_head_is_one_line(world, tmp_path):
    root = _copy(world, tmp_path)
    _rewrite_draft(root, lambda s: s.pop("lm_head.weight"))
    _edit_config(root, lambda c: c["transformer_layer_config"].update(tie_word_embeddings=True))
    assert re.search(r"no lm_head.weight and the config ties it to the embedding .*"
                     r"draft_vocab_size 128 differs from vocab_size 256", _eval_error(root))


def test_tied_config_beside_a_trained_head_warns_that_sglang_drops_it(world, tmp_path):
    """SpecForge drafts for tied targets copy the target's tie_word_embeddings: true but save
    their own lm_head [DV, H]; SGLang ties anyway and its load_weights drops lm_head.weight."""
    root = _copy(world, tmp_path)
    state = load_file(root / "draft" / "model.safetensors")
    save_file({name.replace("layers.0.", "midlayer."): tensor for name, tensor in state.items()},
              str(root / "draft" / "model.safetensors"))
    speculators = json.loads((root / "draft" / "config.json").read_text())
    flat = {**speculators["transformer_layer_config"], "architectures": ["LlamaForCausalLMEagle3"],
            "draft_vocab_size": speculators["draft_vocab_size"], "tie_word_embeddings": True,
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": speculators[
                "eagle_aux_hidden_state_layer_ids"]}}
    flat.pop("rope_parameters")
    (root / "draft" / "config.json").write_text(json.dumps({**flat, "rope_theta": 10000.0}))
    (root / "draft" / "config.py").unlink()
    out, reference = _eval(root), _eval(world)
    assert out["draft"]["format"] == "eagle"
    assert out["counts"] == reference["counts"]  # the stored head is the one measured
    assert any("SGLang" in note and "drops this lm_head.weight" in note
               for note in out["notes"]), out["notes"]
    # the same flag in speculators' format (vLLM builds the draft, never tied): no note
    speculators_tied = _copy(world, tmp_path / "speculators")
    _edit_config(speculators_tied, lambda c: c["transformer_layer_config"].update(
        tie_word_embeddings=True))
    assert _eval(speculators_tied)["notes"] == []


# -- 2. quantized weights ----------------------------------------------------------------------

def _gptq(state: dict) -> None:
    """AutoGPTQ / AutoAWQ layout: qweight int32 [in/8, out], qzeros, scales, g_idx."""
    for name in _linears(state):
        out, inp = state.pop(name).shape
        stem = name[: -len("weight")]
        state[stem + "qweight"] = torch.zeros(inp // 8, out, dtype=torch.int32)
        state[stem + "qzeros"] = torch.zeros(1, out // 8, dtype=torch.int32)
        state[stem + "scales"] = torch.ones(1, out, dtype=torch.float16)
        state[stem + "g_idx"] = torch.zeros(inp, dtype=torch.int32)


def _int4_packed(state: dict) -> None:
    """compressed-tensors pack-quantized (llm-compressor W4A16)."""
    for name in _linears(state):
        out, inp = state.pop(name).shape
        stem = name[: -len("weight")]
        state[stem + "weight_packed"] = torch.zeros(out, inp // 8, dtype=torch.int32)
        state[stem + "weight_scale"] = torch.ones(out, inp // 16, dtype=torch.bfloat16)
        state[stem + "weight_shape"] = torch.tensor([out, inp])


def _bnb4(state: dict) -> None:
    """bitsandbytes 4-bit as transformers saves it: packed uint8 weight + quant state."""
    for name in _linears(state):
        out, inp = state[name].shape
        state[name] = torch.zeros(out * inp // 2, 1, dtype=torch.uint8)
        state[name + ".absmax"] = torch.ones(out * inp // 64)
        state[name + ".quant_map"] = torch.linspace(-1, 1, 16)
        state[name + ".quant_state.bitsandbytes__nf4"] = torch.zeros(8, dtype=torch.uint8)


@pytest.mark.parametrize("quantize, label", [
    (_gptq, "GPTQ/AWQ int4"), (_int4_packed, "compressed-tensors pack-quantized int4"),
    (_bnb4, "bitsandbytes 4-bit")])
def test_integer_packed_drafts_say_the_format_is_not_supported(world, tmp_path, quantize, label):
    """Before: "missing tensors: fc.weight, ..." (GPTQ, int4) or a shape error (bnb)."""
    root = _copy(world, tmp_path)
    _rewrite_draft(root, quantize)
    message = _eval_error(root)
    assert f"weights quantized as {label} (" in message and "not supported" in message, message
    assert "missing tensors" not in message


def test_int8_draft_weights_are_read_with_their_scales(world, tmp_path):
    """compressed-tensors W8A8 int8 (symmetric, one scale per output row): the int8 values were
    copied as floats, off by 1/scale, and the draft scored near zero without a word."""
    root = _copy(world, tmp_path)

    def quantize(state):
        for name in _linears(state):
            weight = state[name].float()
            scale = weight.abs().amax(1, keepdim=True) / 127  # [out, 1]
            state[name] = (weight / scale).round().clamp(-127, 127).to(torch.int8)
            state[name[: -len("weight")] + "weight_scale"] = scale
    _rewrite_draft(root, quantize)
    reference, out = _eval(world), _eval(root)
    assert reference["full_accuracy"][0] > 0.5
    assert abs(out["full_accuracy"][0] - reference["full_accuracy"][0]) <= 0.1, (out, reference)
    assert out["notes"] == []


def test_fp8_weights_whose_scales_were_dropped_say_so(world, tmp_path):
    """An export that kept only `*.weight` of an FP8 draft: the values fill the e4m3 range and
    were used as they are (a useless draft, no message)."""
    root = _copy(world, tmp_path)

    def quantize(state):
        for name in _linears(state):
            weight = state[name].float()
            scale = weight.abs().amax(1, keepdim=True) / torch.finfo(torch.float8_e4m3fn).max
            state[name] = (weight / scale).to(torch.float8_e4m3fn)  # the scale is not kept
    _rewrite_draft(root, quantize)
    assert re.search(r"fc.weight: float8_e4m3fn weight saved without its scale \(no "
                     r"weight_scale or weight_scale_inv", _eval_error(root))


def test_fp8_weights_cast_without_quantizing_still_load(world, tmp_path):
    """A plain `.to(float8)` keeps the weights' own small values: read as stored."""
    root = _copy(world, tmp_path)
    _rewrite_draft(root, lambda s: s.update(
        {name: s[name].to(torch.float8_e4m3fn) for name in _linears(s)}))
    reference, out = _eval(world), _eval(root)
    assert abs(out["full_accuracy"][0] - reference["full_accuracy"][0]) <= 0.2, (out, reference)


# -- 3. hidden-state dumps ---------------------------------------------------------------------

def test_fp8_dump_without_its_scales_is_named(world, tmp_path):
    """speculators' FP8 connector writes hidden_states / scale per token and the scales beside
    them; a copy that lost `hidden_states_scales` was scored as if the quantized values were the
    states."""
    from hs_connectors.fp8_utils import quantize_tensor_to_fp8

    root = _copy(world, tmp_path)
    for path in (root / "data").iterdir():
        sample = load_file(path)
        fp8, _scales = quantize_tensor_to_fp8(sample["hidden_states"])
        save_file({"token_ids": sample["token_ids"], "hidden_states": fp8}, str(path))
    message = _eval_error(root)
    assert re.search(r"hidden_states are float8_e4m3fn without hidden_states_scales", message), message


# -- 4. a trainer's checkpoint passed as the draft --------------------------------------------

@pytest.mark.parametrize("given", ["step", "output_dir", "state_file"])
def test_specforge_training_checkpoint_says_to_export_it(world, tmp_path, given):
    """SpecForge's CheckpointManager writes `{run_id}-step{N}/training_state.pt` (the draft's
    state dict inside the trainer state) and a `{run_id}-latest` link, no config.json
    (specforge/training/checkpoint.py). Passed as --model this read "config.json: not found"."""
    output_dir = tmp_path / "outputs"
    step = output_dir / "run1-step1000"
    step.mkdir(parents=True)
    torch.save({"draft_state_dict": load_file(world / "draft" / "model.safetensors"),
                "optimizer": {"state": {}}, "global_step": 1000}, step / "training_state.pt")
    (output_dir / "run1-latest").symlink_to("run1-step1000")
    model = {"step": step, "output_dir": output_dir, "state_file": step / "training_state.pt"}[given]
    for command in (["eval", "--model", str(model), "--data", str(world / "data"), "--target",
                     str(world / "target")], ["vocab", "--model", str(model)]):
        result = _run(*command)
        assert result.exit_code == 2, result.output
        message = " ".join(result.output.split())
        assert f"{step / 'training_state.pt'}: a SpecForge training checkpoint" in message, message
        assert f"python -m specforge.export.to_sglang --checkpoint {step}" in message


def _eval_output(world: Path, data: Path) -> str:
    result = _run("eval", "--model", str(world / "draft"), "--data", str(data),
                  "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


def test_sglang_json_output_passed_as_data_is_named(world, tmp_path):
    """SGLang's /generate with return_hidden_states answers JSON (meta_info.hidden_states);
    saved and passed as --data it read as torch's "Weights only load failed ... Re-running
    `torch.load` with `weights_only` set to `False` will likely succeed"."""
    states = load_file(world / "data" / "hs_0.safetensors")["hidden_states"][:, -1]
    path = tmp_path / "generate.json"
    path.write_text(json.dumps({"text": "hi", "meta_info": {"hidden_states": states.float().tolist()}}))
    message = _eval_output(world, path)
    assert "generate.json: JSON, not a hidden-state sample" in message, message
    assert "weights_only" not in message and "hs_*.safetensors" in message


def test_sample_pickled_with_numpy_arrays_says_to_save_tensors(world, tmp_path):
    """A hand-made data_0.pt holding numpy arrays: torch refuses the pickle and its message
    told the user to load it with weights_only=False (arbitrary code)."""
    import numpy as np

    sample = load_file(world / "data" / "hs_0.safetensors")
    path = tmp_path / "data_0.pt"
    torch.save({"input_ids": sample["token_ids"].numpy(),
                "hidden_states": [s.float().numpy() for s in sample["hidden_states"].unbind(1)]}, path)
    assert isinstance(torch.load(path, weights_only=False)["input_ids"], np.ndarray)
    message = _eval_output(world, path)
    assert re.search(r"data_0.pt: not a torch.save of tensors: it pickles other objects "
                     r"\(numpy\.[\w.]+\)", message), message
    assert "weights_only" not in message and "torch.from_numpy" in message


def test_eagle_traineagle3_save_folders_without_config_are_named(world, tmp_path):
    """EAGLE's traineagle3 saves `state_<epoch>/pytorch_model.bin` (deepspeed
    save_16bit_model) and, every 10 epochs, a DeepSpeed checkpoint beside it; neither holds a
    config.json (SafeAILab/EAGLE eagle/traineagle3/main.py). Before: "config.json: not found"."""
    savedir = tmp_path / "savedir"
    state = load_file(world / "draft" / "model.safetensors")
    for epoch in (2, 10):
        (savedir / f"state_{epoch}").mkdir(parents=True)
        torch.save(state, savedir / f"state_{epoch}" / "pytorch_model.bin")
    deepspeed = savedir / "state_10" / "global_step100"
    deepspeed.mkdir()
    torch.save({"module": state}, deepspeed / "mp_rank_00_model_states.pt")

    def error(model: Path) -> str:
        result = _run("vocab", "--model", str(model))
        assert result.exit_code == 2, result.output
        return " ".join(result.output.split())

    assert re.search(r"state_10/config.json: not found; the draft's weights \(pytorch_model.bin\) "
                     r"are there without it.* hint: put the draft config the run trained with",
                     error(savedir / "state_10"))
    assert "holds training saves with weights but no config below it: state_2, state_10" in error(savedir)
    (savedir / "state_10" / "pytorch_model.bin").unlink()
    assert "a DeepSpeed training checkpoint" in error(savedir / "state_10")
    # with the config copied beside the weights, the save is a draft like any other
    shutil.copy(world / "draft" / "config.json", savedir / "state_2" / "config.json")
    assert _run("vocab", "--model", str(savedir / "state_2"), "--target",
                str(world / "target")).exit_code == 0


# -- 5. a vocab map cast to a float type -----------------------------------------------------

BIG_V, BIG_DV = 2048, 128


@pytest.fixture(scope="module")
def big_vocab_world(tmp_path_factory) -> Path:
    """A speculators draft over a 2048-token verifier: its d2t offsets reach ~1900, more than
    bfloat16 holds exactly (256). Hidden states as vLLM captures them."""
    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig
    from transformers import LlamaConfig, LlamaForCausalLM

    from spec_debug.eagle3.data import read_sample
    from tests.eagle3.speculators_world import AUX, NL

    root = tmp_path_factory.mktemp("hardening7_big_vocab")
    torch.manual_seed(1)
    kw = {"vocab_size": BIG_V, "hidden_size": 32, "intermediate_size": 64, "num_attention_heads": 4,
          "num_key_value_heads": 2, "head_dim": 8, "max_position_embeddings": 128}
    verifier = LlamaForCausalLM(LlamaConfig(num_hidden_layers=NL, **kw)).eval()
    verifier.save_pretrained(root / "target")
    layer = LlamaConfig(num_hidden_layers=1, **kw)
    layer._attn_implementation = "eager"
    draft = Eagle3DraftModel(Eagle3SpeculatorConfig(
        transformer_layer_config=layer, draft_vocab_size=BIG_DV, eagle_aux_hidden_state_layer_ids=AUX,
        speculators_config=SpeculatorsConfig(
            algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
            default_proposal_method="greedy",
            verifier=VerifierConfig.from_pretrained(str(root / "target")))))
    selected = torch.sort(torch.randperm(BIG_V)[:BIG_DV]).values
    t2d = torch.zeros(BIG_V, dtype=torch.bool)
    t2d[selected] = True
    draft.load_vocab_mappings(t2d, selected - torch.arange(BIG_DV))
    draft.load_verifier_weights()
    draft.eval().save_pretrained(root / "draft")
    (root / "data").mkdir()
    samples = []
    for i in range(2):
        # the draft's own vocabulary, so its predictions can be right
        ids = selected[torch.randint(0, BIG_DV, (16,), generator=torch.Generator().manual_seed(i))]
        ids, hidden = vllm_style_states(verifier, ids)
        path = root / "data" / f"hs_{i}.safetensors"
        save_file({"token_ids": ids, "hidden_states": hidden}, str(path))
        sample = read_sample(path)
        sample.slots = sample.slots.float()
        sample.final = sample.slots[:, -1]
        samples.append(sample)
    make_targets_informative(draft, samples)
    for i, sample in enumerate(samples):
        save_file({"token_ids": sample.token_ids, "hidden_states": sample.slots.to(torch.bfloat16)},
                  str(root / "data" / f"hs_{i}.safetensors"))
    return root


def test_d2t_cast_to_bfloat16_is_named_and_rebuilt_from_t2d(big_vocab_world, tmp_path):
    """A conversion script that casts the whole state dict to bfloat16 rounds every d2t offset
    above 256 (vLLM then serves the rounded ids). Before, vocab and eval blamed a d2t/t2d
    mismatch "first at draft id 10" and never said the map had been cast."""
    root = _copy(big_vocab_world, tmp_path)
    _rewrite_draft(root, lambda s: s.update(d2t=s["d2t"].to(torch.bfloat16),
                                            t2d=s["t2d"].to(torch.bfloat16)))
    vocab = _run("vocab", "--model", str(root / "draft"), "--target", str(root / "target"))
    assert vocab.exit_code == 1, vocab.output
    issues = [issue for check in json.loads(vocab.output)["checks"] for issue in check["issues"]]
    rounded = next(issue for issue in issues if issue["kind"] == "d2t_float")
    assert rounded["code"] == "SD302" and rounded["facts"]["exact_up_to"] == 256
    assert rounded["facts"]["largest_offset"] > 256
    reference, out = _eval(big_vocab_world), _eval(root)
    assert reference["full_accuracy"][0] > 0.5
    assert out["counts"] == reference["counts"]
    assert any("rebuilt from t2d" in note for note in out["notes"]), out["notes"]


def test_a_weight_file_passed_for_a_checkpoint_directory(world):
    """`--model draft/model.safetensors` (tab completion) read "directory not found" for a
    file that exists."""
    for option, path in (("--model", world / "draft" / "model.safetensors"),
                         ("--target", world / "target" / "config.json")):
        args = {"--model": str(world / "draft"), "--target": str(world / "target")}
        args[option] = str(path)
        result = _run("vocab", "--model", args["--model"], "--target", args["--target"])
        assert result.exit_code == 2, result.output
        message = " ".join(result.output.split())
        assert f"{path}: a file, not the" in message and f"as {option}: {path.parent}" in message, message


def test_token_ids_cast_to_bfloat16_are_refused(world, tmp_path):
    """A dump "made smaller" by casting every tensor to bfloat16: token ids above 256 are
    rounded (to steps of 2, 4, ...) and were scored as other tokens. SpecForge-format samples
    the same way."""
    root = _copy(world, tmp_path)
    path = root / "data" / "hs_0.safetensors"
    sample = load_file(path)
    ids = sample["token_ids"] * 8 + 1  # ids in a 2048-token vocabulary, odd: not all exact
    save_file({"token_ids": ids.to(torch.bfloat16), "hidden_states": sample["hidden_states"]}, str(path))
    torch.save({"input_ids": ids.to(torch.bfloat16), "aux_hidden_state": sample["hidden_states"][:, :3].reshape(1, len(ids), -1)},
               tmp_path / "data_0.ckpt")
    from spec_debug.eagle3.data import DataError, read_sample

    for file in (path, tmp_path / "data_0.ckpt"):
        with pytest.raises(DataError, match=r"(token_ids|input_ids) stored as bfloat16, which holds integers "
                                            r"exactly only up to 256; the ids reach \d+, so they were rounded"):
            read_sample(file)
    # small float ids (within the exact range) are still read
    save_file({"token_ids": sample["token_ids"].float(), "hidden_states": sample["hidden_states"]}, str(path))
    assert torch.equal(read_sample(path).token_ids, sample["token_ids"].long())


@pytest.mark.parametrize("states_key", ["aux_hidden_state", "hidden_states"])
def test_sample_whose_input_ids_were_saved_as_none(world, tmp_path, states_key):
    """A writer that had no ids to put (`{"input_ids": None, ...}`): an AttributeError
    ("'NoneType' object has no attribute 'reshape'") reported as a spec-debug bug."""
    sample = load_file(world / "data" / "hs_0.safetensors")
    states = sample["hidden_states"]
    value = states[:, :3].reshape(1, states.shape[0], -1) if states_key == "aux_hidden_state" \
        else list(states.unbind(1))
    (tmp_path / "data").mkdir()
    torch.save({"input_ids": None, states_key: value}, tmp_path / "data" / "data_0.pt")
    message = _eval_output(world, tmp_path / "data")
    assert re.search(r"data_0.pt: (input_ids is missing|missing \['input_ids'\])", message), message
    assert "unexpected" not in message


def test_a_checkpoint_weight_file_passed_as_data(world):
    """`--data draft/model.safetensors`: the error listed every tensor name of the model."""
    message = _eval_output(world, world / "draft" / "model.safetensors")
    assert re.search(r"model.safetensors: model weights \(\d+ tensors, e.g. [\w.]+\.weight\), not a "
                     r"hidden-state sample", message), message
    assert "layers.0.mlp.down_proj.weight" not in message and "goes to --model" in message


def test_a_checkpoint_archive_passed_for_the_directory(world, tmp_path):
    """`--model draft.tar.gz` (the draft copied between hosts as one archive) was told to pass
    the archive's parent folder, which holds no config.json and fails again."""
    import tarfile

    archive = tmp_path / "draft.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(world / "draft", arcname="draft")
    result = _run("vocab", "--model", str(archive), "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    message = " ".join(result.output.split())
    assert f"{archive}: an archive, not the" in message and "extract it" in message, message
    assert f"as --model: {tmp_path}" not in message, message
