"""Drafter inputs as speculators 0.9.0 saves them, damaged the way the field damages them.

Each world is saved by the reference library itself (`save_verifier_and_draft`: a transformers
Llama verifier and speculators' Eagle3DraftModel.save_pretrained over it) with hidden states
captured from that verifier as vLLM captures them. Each test runs the `spec-debug drafter`
command a user would type and checks the answer is the right one, or one clear line.
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

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import (  # noqa: E402
    save_informative_world,
)

runner = CliRunner()


@pytest.fixture(scope="module")
def spec_world(tmp_path_factory) -> Path:
    """target/ and draft/ as transformers and speculators save them (the draft's config names
    target/ as its verifier, as speculators writes it), data/ as vLLM's extraction writes it."""
    return save_informative_world(tmp_path_factory.mktemp("hardening6"), seed=5, draft_flags={"norm_before_residual": True})


def _copy(spec_world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(spec_world, root)
    return root


def _invoke(*args: str) -> dict:
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    return json.loads(result.output)


def _eval(model: Path, data: Path, *extra: str) -> dict:
    return _invoke("eval", "--model", str(model), "--data", str(data), "--steps", "2", *extra)


def _edit_config(draft: Path, change) -> None:
    path = draft / "config.json"
    config = json.loads(path.read_text())
    change(config)
    path.write_text(json.dumps(config, indent=2))


# -- 1. `drafter eval` without --target: the verifier the draft's config names -----------------

def test_eval_without_target_uses_the_verifier_the_config_names(spec_world):
    """speculators writes speculators_config.verifier.name_or_path (here the local directory
    training used); `vllm serve <draft>` takes the verifier from it. Without --target the
    evaluation must score against that verifier's argmax, not the data's next tokens, and say
    which target it used."""
    config = json.loads((spec_world / "draft" / "config.json").read_text())
    assert config["speculators_config"]["verifier"]["name_or_path"] == str(spec_world / "target")
    given = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    found = _eval(spec_world / "draft", spec_world / "data")
    assert found["reference"] == given["reference"] == "target_argmax"
    assert found["counts"] == given["counts"]
    assert (found["target"], found["target_source"]) == (str(spec_world / "target"),
                                                         "speculators_config.verifier")
    assert given["target_source"] == "--target"
    assert any(n.startswith(f"target: {spec_world / 'target'}") for n in found["notes"])
    # the table says it too
    table = runner.invoke(drafter_app, ["eval", "--model", str(spec_world / "draft"), "--data",
                                        str(spec_world / "data"), "--steps", "2"])
    assert table.exit_code == 0 and "the draft's config names" in " ".join(table.output.split())
    # and the user can still ask for the data's tokens
    plain = _eval(spec_world / "draft", spec_world / "data", "--no-verifier")
    assert plain["reference"] == "data_tokens" and plain["target"] is None


def test_verifier_named_by_hub_id_is_read_from_the_local_cache(spec_world, tmp_path, monkeypatch):
    """A draft published on the Hub names its verifier by Hub id; on the serving host that
    verifier sits in the Hugging Face cache (models--org--name/snapshots/<refs/main>)."""
    root = _copy(spec_world, tmp_path)
    _edit_config(root / "draft", lambda c: c["speculators_config"]["verifier"].update(
        name_or_path="acme-ai/Tiny-Llama-Verifier"))
    cache = tmp_path / "hub"
    entry = cache / "models--acme-ai--Tiny-Llama-Verifier"
    (entry / "refs").mkdir(parents=True)
    (entry / "refs" / "main").write_text("0123abcd")
    shutil.copytree(root / "target", entry / "snapshots" / "0123abcd")
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    out = _eval(root / "draft", root / "data")
    assert out["reference"] == "target_argmax"
    assert out["target"] == str(entry / "snapshots" / "0123abcd")
    assert any("'acme-ai/Tiny-Llama-Verifier'" in n for n in out["notes"])
    vocab = _invoke("vocab", "--model", str(root / "draft"))
    assert vocab["ok"] and vocab["target_source"] == "speculators_config.verifier"


def test_verifier_not_here_says_so_and_scores_the_data(spec_world, tmp_path, monkeypatch):
    root = _copy(spec_world, tmp_path)
    _edit_config(root / "draft", lambda c: c["speculators_config"]["verifier"].update(
        name_or_path="meta-llama/Llama-3.1-8B-Instruct"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    out = _eval(root / "draft", root / "data")
    assert out["reference"] == "data_tokens" and out["target"] is None
    assert any(re.search(r"names its verifier 'meta-llama/Llama-3.1-8B-Instruct'.*neither a "
                         r"local directory nor in the Hugging Face cache.*--target", n)
               for n in out["notes"]), out["notes"]


def test_verifier_path_reused_for_another_model_is_not_scored(spec_world, tmp_path):
    """The training host's path now holds another model (other width): it must not be used
    silently, nor end the evaluation."""
    root = _copy(spec_world, tmp_path)
    _edit_config(root / "target", lambda c: c.update(hidden_size=48))
    _edit_config(root / "draft", lambda c: c["speculators_config"]["verifier"].update(
        name_or_path=str(root / "target")))
    out = _eval(root / "draft", root / "data")
    assert out["reference"] == "data_tokens" and out["target"] is None
    assert any("hidden_size 48, the draft takes 32-wide states: not used" in n
               for n in out["notes"]), out["notes"]
    _edit_config(root / "target", lambda c: c.update(vocab_size=300))  # its vocab is not ours
    vocab = _invoke("vocab", "--model", str(root / "draft"))
    assert vocab["ok"] and vocab["target"] is None
    assert any("hidden_size 48" in n for n in vocab["notes"])


def _rewrite_samples(data: Path, change) -> None:
    for path in sorted(data.glob("hs_*.safetensors")):
        sample = load_file(path)
        change(sample)
        save_file(sample, str(path))


# -- 3. hidden-state dumps --------------------------------------------------------------------

def test_loss_masks_that_select_nothing_are_not_a_zero_accuracy(spec_world, tmp_path):
    """A chat template whose assistant turns were not found writes all-zero loss masks (the
    failure NVIDIA-NeMo/Megatron-Bridge#4169 warns about; speculators' own preparation drops
    such rows as "no supervised tokens"). Scoring 0 of 0 positions read as accuracy 0.0, a
    draft that looks broken; now every position is scored, with a note that says why."""
    root = _copy(spec_world, tmp_path)
    _rewrite_samples(root / "data", lambda s: s.update(
        loss_mask=torch.zeros(s["token_ids"].shape[0], dtype=torch.long)))
    unmasked = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert out["counts"] == unmasked["counts"] and out["full_accuracy"][0] > 0
    assert any("loss_mask selects no position to score in any of the 3 samples" in n
               for n in out["notes"]), out["notes"]
    layout = _invoke("layout", "--model", str(root / "draft"), "--data", str(root / "data"),
                     "--target", str(root / "target"))
    plain = _invoke("layout", "--model", str(spec_world / "draft"), "--data",
                    str(spec_world / "data"), "--target", str(spec_world / "target"))
    assert layout["ranked"] == plain["ranked"]
    # one sample with a real mask among empty ones: the masks are honoured as they are
    _rewrite_samples(root / "data", lambda s: s.update(
        loss_mask=torch.arange(s["token_ids"].shape[0]) % 2) if s["token_ids"].shape[0] == 14 else None)
    mixed = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert not any("loss_mask" in n for n in mixed["notes"])
    assert mixed["counts"]["full_total"][0] == 7


# -- 2. checkpoint faults ---------------------------------------------------------------------

def _rewrite_draft(draft: Path, change) -> None:
    path = draft / "model.safetensors"
    state = load_file(path)
    change(state)
    save_file(state, str(path), metadata={"format": "pt"})


def _quantize_fp8(state: dict, *, block: int | None = None) -> None:
    """FP8 as llm-compressor / ModelOpt store it (`weight` float8_e4m3fn, `weight_scale` per
    output row, static `input_scale`), or as DeepSeek-V3 / Mistral FP8 releases do
    (`weight_scale_inv`, one per block x block tile) for every Linear of the draft."""
    fp8_max = torch.finfo(torch.float8_e4m3fn).max
    for name in [n for n in state if n.endswith("_proj.weight") or n == "fc.weight"]:
        weight = state[name].float()
        stem = name[: -len("weight")]
        if block is None:
            scale = weight.abs().amax(1, keepdim=True) / fp8_max  # [out, 1]
            state[name] = (weight / scale).to(torch.float8_e4m3fn)
            state[stem + "weight_scale"] = scale
            state[stem + "input_scale"] = torch.ones(1)
        else:
            out, inp = weight.shape
            tiles = weight.reshape(out // block, block, inp // block, block)
            scale = tiles.abs().amax((1, 3)) / fp8_max  # [out/b, in/b]
            full = scale.repeat_interleave(block, 0).repeat_interleave(block, 1)
            state[name] = (weight / full).to(torch.float8_e4m3fn)
            state[stem + "weight_scale_inv"] = scale


@pytest.mark.parametrize("block", [None, 8])
def test_fp8_draft_weights_are_read_with_their_scales(spec_world, tmp_path, block):
    """vLLM serves FP8-quantized EAGLE-3 drafts (vllm-project/vllm#28435: ModelOpt static
    fp8, `weight_scale` and `input_scale`; TensorRT-LLM#9971: Mistral Large 3's block-scaled
    FP8 draft). Read without the scales every weight is off by its scale and the draft looked
    useless; read with them it scores as the bfloat16 draft does (to FP8 rounding)."""
    root = _copy(spec_world, tmp_path)
    _rewrite_draft(root / "draft", lambda s: _quantize_fp8(s, block=block))
    if block:
        _edit_config(root / "draft", lambda c: c.update(quantization_config={
            "quant_method": "fp8", "weight_block_size": [block, block]}))
    assert load_file(root / "draft" / "model.safetensors")["fc.weight"].dtype == torch.float8_e4m3fn
    reference = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert reference["full_accuracy"][0] > 0.5
    assert abs(out["full_accuracy"][0] - reference["full_accuracy"][0]) <= 0.1, (out, reference)
    assert out["notes"] == []  # the scales are used, not "unused tensors"


def test_fp8_target_lm_head_is_read_with_its_scale(spec_world, tmp_path):
    """A target saved in FP8 with its lm_head quantized too: the verifier's argmax must come
    from the real values."""
    root = _copy(spec_world, tmp_path)
    path = root / "target" / "model.safetensors"
    state = load_file(path)
    head = state["lm_head.weight"].float()
    scale = head.abs().amax(1, keepdim=True) / torch.finfo(torch.float8_e4m3fn).max
    state["lm_head.weight"] = (head / scale).to(torch.float8_e4m3fn)
    state["lm_head.weight_scale"] = scale
    save_file(state, str(path), metadata={"format": "pt"})
    reference = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert abs(out["full_accuracy"][0] - reference["full_accuracy"][0]) <= 0.1, (out, reference)


def test_fp8_scale_of_an_unknown_shape_is_one_line(spec_world, tmp_path):
    root = _copy(spec_world, tmp_path)
    _rewrite_draft(root / "draft", lambda s: (_quantize_fp8(s), s.update(
        {"fc.weight_scale": torch.ones(3, 5)})))
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--json"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert re.search(r"error: .*fc.weight: FP8 weight \[32, 96\] with a scale of shape \[3, 5\]",
                     " ".join(result.output.split())), result.output


def test_weights_with_more_layers_than_the_config_says(spec_world, tmp_path):
    """A two-layer draft whose config says one layer (speculators writes num_hidden_layers
    into transformer_layer_config; a config copied from another draft says 1): the second
    layer was silently never run."""
    root = _copy(spec_world, tmp_path)

    def add_layer(state):
        for name in [n for n in state if n.startswith("layers.0.")]:
            state["layers.1." + name[len("layers.0."):]] = state[name].clone()
    _rewrite_draft(root / "draft", add_layer)
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert any("draft layer(s) [1] beyond the config's num_hidden_layers 1: they are not run"
               in n for n in out["notes"]), out["notes"]


def test_dump_with_more_aux_slots_than_the_draft_takes_says_the_layout_is_a_guess(spec_world, tmp_path):
    """A dump generated for a 4-aux draft (speculators' datagen names no slots) fed to this
    3-aux draft: the slots used are a guess and the answer said nothing. The layout probe
    finds the right ones, and `--layout` scores them as the unmodified dump does."""
    root = _copy(spec_world, tmp_path)
    _rewrite_samples(root / "data", lambda s: s.update(hidden_states=torch.cat(
        [s["hidden_states"][:, 3:4], s["hidden_states"]], dim=1).contiguous()))  # 5 slots
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert out["layout"] == [0, 1, 2] and out["layout_source"] == "first_slots"
    assert any(re.search(r"4 aux slots per position .* the draft's fc takes 3: the first 3 "
                         r"were used .*drafter layout", n) for n in out["notes"]), out["notes"]
    layout = _invoke("layout", "--model", str(root / "draft"), "--data", str(root / "data"),
                     "--target", str(root / "target"))
    assert layout["best"] == [1, 2, 3]
    chosen = _eval(root / "draft", root / "data", "--target", str(root / "target"), "--layout", "1,2,3")
    plain = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    assert chosen["counts"] == plain["counts"]
    assert not any("aux slots" in n for n in chosen["notes"] + plain["notes"])


def test_shard_the_index_does_not_name(spec_world, tmp_path):
    """A draft re-sharded into two files (as save_pretrained(max_shard_size=...) writes them)
    with the index of one shard kept: every tensor of the second shard was reported missing
    one by one (eval), or not looked at (`vocab` said ok). Now the stale index is named."""
    root = _copy(spec_world, tmp_path)
    draft = root / "draft"
    state = load_file(draft / "model.safetensors")
    (draft / "model.safetensors").unlink()
    names = sorted(state)
    first, second = names[: len(names) // 2], names[len(names) // 2:]
    for i, part in enumerate((first, second), start=1):
        save_file({n: state[n] for n in part}, str(draft / f"model-0000{i}-of-00002.safetensors"),
                  metadata={"format": "pt"})
    (draft / "model.safetensors.index.json").write_text(json.dumps({
        "metadata": {}, "weight_map": {n: "model-00001-of-00002.safetensors" for n in first}}))
    for command in (["eval", "--data", str(root / "data")], ["vocab"]):
        result = runner.invoke(drafter_app, [command[0], "--model", str(draft), *command[1:]])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert re.search(r"index.json does not name shard\(s\) model-00002-of-00002.safetensors "
                         r"that sit beside it: a stale index", " ".join(result.output.split()))
    # the complete index reads both shards as one checkpoint
    (draft / "model.safetensors.index.json").write_text(json.dumps({
        "metadata": {}, "weight_map": {n: f"model-0000{1 + (n in second)}-of-00002.safetensors"
                                       for n in names}}))
    out = _eval(draft, root / "data", "--target", str(root / "target"))
    plain = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    assert out["counts"] == plain["counts"]


def test_gemma_target_config_saved_as_a_diff_ties_its_head(spec_world, tmp_path):
    """google/gemma-2-9b's config.json (transformers 4, saved as a diff against the class
    defaults) has no tie_word_embeddings key and the checkpoint no lm_head.weight: Gemma ties
    them by default. The verifier's argmax was dropped ("target has no final norm /
    lm_head") and the draft scored against the data's tokens instead.

    The world's Llama target is rewritten as that Gemma checkpoint: head = embedding, the
    final norm zero-centred (Gemma computes norm(x) * (1 + w)), model_type gemma2."""
    root = _copy(spec_world, tmp_path)
    path = root / "target" / "model.safetensors"
    state = load_file(path)
    state["model.embed_tokens.weight"] = state.pop("lm_head.weight")
    state["model.norm.weight"] = state["model.norm.weight"] - 1.0
    save_file(state, str(path), metadata={"format": "pt"})

    def as_gemma(config):
        config.pop("tie_word_embeddings", None)
        config.update(model_type="gemma2", architectures=["Gemma2ForCausalLM"])
    _edit_config(root / "target", as_gemma)
    # the draft keeps its own embedding: only the verifier's head changed form
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    plain = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    assert out["reference"] == "target_argmax", out["notes"]
    assert out["counts"] == plain["counts"]


def _speculators_training_data(spec_world: Path, out: Path) -> list[list[int]]:
    """speculators 0.9.0's data layout: `prepare_data` saves an HF dataset with input_ids,
    loss_mask and seq_len per row (data_generation/preprocessing.py _append_row), and
    `generate_offline_data` writes row i's states to <dataset>/hidden_states/hs_{i}
    (cli/generate_offline_data.py), token_ids and hidden_states only. The masks mark the
    second half of each row (the assistant turn)."""
    from datasets import Dataset

    (out / "hidden_states").mkdir(parents=True)
    rows: dict[str, list] = {"input_ids": [], "loss_mask": [], "seq_len": []}
    for i, path in enumerate(sorted((spec_world / "data").glob("hs_*.safetensors"))):
        shutil.copy(path, out / "hidden_states" / f"hs_{i}.safetensors")
        ids = load_file(path)["token_ids"].tolist()
        rows["input_ids"].append(ids)
        rows["loss_mask"].append([int(t >= len(ids) // 2) for t in range(len(ids))])
        rows["seq_len"].append(len(ids))
    Dataset.from_dict(rows).save_to_disk(str(out))
    return rows["loss_mask"]


def test_speculators_dataset_loss_masks_are_read_beside_the_hidden_states(spec_world, tmp_path):
    """The masks were ignored (the hs files carry none), so every prompt token was scored and
    the accuracies were not the ones speculators' validation reports on the same data."""
    data = tmp_path / "training_data"
    masks = _speculators_training_data(spec_world, data)
    # the same samples with the masks written into the files: what the numbers must be
    inline = tmp_path / "inline"
    inline.mkdir()
    for i, mask in enumerate(masks):
        sample = load_file(data / "hidden_states" / f"hs_{i}.safetensors")
        save_file({**sample, "loss_mask": torch.tensor(mask)}, str(inline / f"hs_{i}.safetensors"))
    target = ("--target", str(spec_world / "target"))
    expected = _eval(spec_world / "draft", inline, *target)
    for given in (data, data / "hidden_states"):
        out = _eval(spec_world / "draft", given, *target)
        assert out["counts"] == expected["counts"], given
        assert any(f"loss masks from speculators' dataset {data}" in n for n in out["notes"])
    assert expected["counts"]["full_total"][0] < sum(len(m) for m in masks) - len(masks)
    layout = _invoke("layout", "--model", str(spec_world / "draft"), "--data", str(data), *target)
    assert layout["ranked"] == _invoke("layout", "--model", str(spec_world / "draft"), "--data",
                                       str(inline), *target)["ranked"]


def test_hidden_states_of_another_dataset_row_are_skipped_as_speculators_skips_them(spec_world, tmp_path):
    data = tmp_path / "training_data"
    _speculators_training_data(spec_world, data)
    # hs_0 and hs_1 swapped (a re-generation with another order): their tokens differ from rows
    first, second = (data / "hidden_states" / f"hs_{i}.safetensors" for i in (0, 1))
    first.rename(tmp_path / "swap")
    second.rename(first)
    (tmp_path / "swap").rename(second)
    out = _eval(spec_world / "draft", data, "--target", str(spec_world / "target"))
    assert out["samples"] == 1 and out["skipped_samples"] == 2
    assert re.search(r"hs_0.safetensors: its token_ids differ from row 0 of the dataset",
                     out["skipped"][0]["reason"])


def test_a_copy_whose_end_reads_as_zeros_is_named(spec_world, tmp_path):
    """A preallocated file whose last third was never written (a parallel download or copy
    cut short) keeps a valid header and full size: the zeros read as weights, the accuracy
    collapsed and the only hints were vocab-map issues about a t2d of zeros."""
    root = _copy(spec_world, tmp_path)
    path = root / "draft" / "model.safetensors"
    content = bytearray(path.read_bytes())
    tail = len(content) // 3
    content[len(content) - tail:] = bytes(tail)
    path.write_bytes(bytes(content))
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert any(re.search(r"weight matrices that are all zeros: .*lm_head.weight.*incomplete copy", n)
               for n in out["notes"]), out["notes"]
    assert not any("all zeros" in n for n in _eval(spec_world / "draft", spec_world / "data")["notes"])


def test_dump_short_of_one_aux_state_says_it_was_made_for_another_draft(spec_world, tmp_path):
    """A speculators dump of 2 aux layers + the final one (3 slots) given to this 3-aux draft:
    read as 3 aux states without a final layer, with nothing to say it may be the other."""
    root = _copy(spec_world, tmp_path)
    _rewrite_samples(root / "data", lambda s: s.update(
        hidden_states=s["hidden_states"][:, 1:].contiguous()))
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert out["reference"] == "data_tokens" and out["loss_mask_source"] == "none"
    assert any("if this is one, it holds 2 aux states and was made for another draft" in n
               for n in out["notes"]), out["notes"]


@pytest.mark.parametrize("change, message", [
    # a config of a wider draft beside these weights: the dump was blamed ("comes from another
    # target model") because the data was checked against the config before the weights were
    ({"hidden_size": 64}, r"the weights are 32 wide \(norm.weight \[32\]\), the config's "
                          r"hidden_size is 64"),
    # a two-layer draft's config beside one-layer weights: eight "missing tensors" were listed
    ({"num_hidden_layers": 2}, r"the config's num_hidden_layers is 2, the weights hold decoder "
                               r"layer\(s\) \[0\]"),
])
def test_config_of_another_draft_is_named_before_the_data_is_blamed(spec_world, tmp_path, change, message):
    root = _copy(spec_world, tmp_path)
    _edit_config(root / "draft", lambda c: c["transformer_layer_config"].update(change))
    for command in ("eval", "layout"):
        result = runner.invoke(drafter_app, [command, "--model", str(root / "draft"), "--data",
                                             str(root / "data"), "--target", str(root / "target")])
        assert result.exit_code == 2 and "Traceback" not in result.output
        text = " ".join(result.output.split())
        assert re.search(f"error: .*{message}", text), text
        assert "hint: config.json describes another draft than these weights" in text


def test_decoder_config_without_kv_heads_says_the_default_was_assumed(spec_world, tmp_path):
    """A hand-trimmed transformer_layer_config without num_key_value_heads: HF assumes
    num_attention_heads (4) where the weights have 2; the error blamed a value the file does
    not contain."""
    root = _copy(spec_world, tmp_path)
    _edit_config(root / "draft", lambda c: c["transformer_layer_config"].pop("num_key_value_heads"))
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert ("num_key_value_heads 4 x head_dim 8 = 32 (num_key_value_heads absent from "
            "config.json: the HF default was assumed)") in " ".join(result.output.split())


def _shard_target(target: Path, parts: int = 3) -> list[Path]:
    """The target re-saved in `parts` shards with its index, the embedding in the first and
    the final norm and lm_head in the last (as transformers orders them)."""
    state = load_file(target / "model.safetensors")
    (target / "model.safetensors").unlink()
    head = ["model.norm.weight", "lm_head.weight"]
    layers = [n for n in state if n not in head and n != "model.embed_tokens.weight"]
    groups = [layers[i::parts - 1] for i in range(parts - 1)] + [head]
    groups[0].insert(0, "model.embed_tokens.weight")
    paths, weight_map = [], {}
    for i, group in enumerate(groups, start=1):
        path = target / f"model-{i:05d}-of-{parts:05d}.safetensors"
        save_file({n: state[n] for n in group}, str(path), metadata={"format": "pt"})
        weight_map.update({n: path.name for n in group})
        paths.append(path)
    (target / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    return paths


def test_target_shard_cut_short_that_the_draft_does_not_need(spec_world, tmp_path):
    """A large target copied to the debug host with one layer shard cut short by an
    interrupted copy: only the embedding and the head are read, but the whole evaluation
    ended on that shard's header."""
    root = _copy(spec_world, tmp_path)
    shards = _shard_target(root / "target")
    middle = shards[1]
    middle.write_bytes(middle.read_bytes()[: middle.stat().st_size // 2])
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    plain = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    assert out["reference"] == "target_argmax" and out["counts"] == plain["counts"]
    # the head's shard cut short: said so, and scored on the data's tokens
    last = shards[-1]
    last.write_bytes(last.read_bytes()[: last.stat().st_size // 2])
    out = _eval(root / "draft", root / "data", "--target", str(root / "target"))
    assert out["reference"] == "data_tokens"
    assert any(re.search(r"target has no final norm / lm_head .*not readable: "
                         r".*model-00003-of-00003.safetensors \(truncated", n)
               for n in out["notes"]), out["notes"]


def test_two_dumps_under_one_data_directory_are_named(spec_world, tmp_path):
    """speculators' dataset with an earlier generation kept beside the new one
    (hidden_states/ and hidden_states.old/, both hs_0..): every position was scored twice,
    silently."""
    data = tmp_path / "training_data"
    _speculators_training_data(spec_world, data)
    shutil.copytree(data / "hidden_states", data / "hidden_states.old")
    out = _eval(spec_world / "draft", data, "--target", str(spec_world / "target"))
    assert out["samples"] == 6
    assert any(re.search(r"3 sample file name\(s\) appear in several folders .*2 dumps under one "
                         r"--data", n) for n in out["notes"]), out["notes"]
    alone = _eval(spec_world / "draft", data / "hidden_states", "--target", str(spec_world / "target"))
    assert alone["samples"] == 3 and not any("several folders" in n for n in alone["notes"])


def test_the_draft_passed_as_target_is_named(spec_world):
    """`--target` given the draft directory (both are "a checkpoint"): the error was "config.json:
    no 'num_hidden_layers'", about a key the draft's config nests elsewhere."""
    draft = str(spec_world / "draft")
    for command in (["eval", "--data", str(spec_world / "data")], ["vocab"]):
        result = runner.invoke(drafter_app, [command[0], "--model", draft, *command[1:],
                                             "--target", draft])
        assert result.exit_code == 2 and "Traceback" not in result.output
        text = " ".join(result.output.split())
        assert f"error: {draft}: a draft checkpoint (eagle3), not the target model" in text
        assert f"its config names {spec_world / 'target'}" in text
