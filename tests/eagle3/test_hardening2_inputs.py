"""Real inputs the drafter commands met wrongly before: speculators' earlier `data_*.pt` dumps,
a draft saved from a training wrapper (tensors under `draft_model.`), the target passed as
--model, a training run's root or a Hub cache entry passed instead of one checkpoint, a cut
pytorch_model.bin.

Each input is written by the tool that writes it in the field (speculators 0.9.0 saves the
draft, transformers the verifier, torch.save the v1 samples as speculators' old
scripts/data_generation_offline.py did), and each command must score it as the engines and
trainers read it, or end in one clear line that says what to pass instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
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
def spec_world(tmp_path_factory) -> Path:
    """target/ and draft/ as transformers and speculators save them, and data/ as vLLM's
    extraction writes it (hs_{i}.safetensors)."""
    root = tmp_path_factory.mktemp("hardening2")
    verifier = save_verifier_and_draft(root, draft_flags={"norm_before_residual": True,
                                                          "norm_before_fc": True})
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(3)
    for i in range(3):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (12 + i,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def _eval(model: Path, data: Path, target: Path | str) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(model), "--data", str(data),
                                         "--target", str(target), "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _one_line_error(result, pattern: str) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and lines[0].startswith("error: ") and re.search(pattern, lines[0]), result.output
    assert all(line.startswith("  hint: ") for line in lines[1:]), result.output
    return result.output


def _write_v1_dump(hs_dir: Path, out: Path) -> None:
    """speculators' v1 samples: torch.save of VllmHiddenStatesGenerator.generate's dict, a
    list of [T, H] states (aux layers, then the final layer) and the HF dataset row's
    loss_mask, a python list (speculators scripts/data_generation_offline.py)."""
    out.mkdir()
    for i, path in enumerate(sorted(hs_dir.glob("hs_*.safetensors"))):
        sample = load_file(path)
        T = sample["token_ids"].shape[0]
        mask = sample["loss_mask"].tolist() if "loss_mask" in sample else [1] * T
        torch.save({"input_ids": sample["token_ids"].long(),
                    "hidden_states": [s.clone() for s in sample["hidden_states"].unbind(1)],
                    "loss_mask": [int(v) for v in mask]}, out / f"data_{i}.pt")


# ------------------------------------------------------------------------------------------
# Hidden-state dumps
# ------------------------------------------------------------------------------------------
def test_speculators_v1_pt_dump_scores_like_the_same_states_in_hs_files(world, tmp_path):
    """Before: "no hs_*.safetensors or data_*.ckpt files" for a dump the speculators trainer
    of its time read (train/data.py standardize_data_v1)."""
    _write_v1_dump(world.data, tmp_path / "v1")
    reference = _eval(world.draft, world.data, world.target)
    v1 = _eval(world.draft, tmp_path / "v1", world.target)
    assert reference["full_accuracy"][0] > 0.2  # a trained draft: equal numbers mean something
    assert v1["counts"] == reference["counts"]
    assert (v1["samples"], v1["skipped_samples"]) == (reference["samples"], 0)
    assert v1["data_format"] == "speculators_v1" and v1["reference"] == "target_argmax"

    layout = runner.invoke(drafter_app, ["layout", "--model", str(world.draft), "--data",
                                         str(tmp_path / "v1"), "--target", str(world.target),
                                         "--json"])
    assert layout.exit_code == 0, layout.output
    assert json.loads(layout.output)["ranked"]


def test_v1_dump_with_a_cut_file_and_a_dump_of_lists(world, tmp_path):
    _write_v1_dump(world.data, tmp_path / "v1")
    cut = tmp_path / "v1" / "data_1.pt"
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    out = _eval(world.draft, tmp_path / "v1", world.target)
    assert out["skipped_samples"] == 1
    assert "data_1.pt" in out["skipped"][0]["file"]
    assert re.search(r"truncated", out["skipped"][0]["reason"]), out["skipped"]

    # torch.save of a list (the states without their keys): no sample can be read
    lists = tmp_path / "lists"
    lists.mkdir()
    for i in range(2):
        torch.save([torch.arange(8), torch.zeros(8, 32)], lists / f"data_{i}.pt")
    result = runner.invoke(drafter_app, ["eval", "--model", str(world.draft), "--data",
                                         str(lists), "--target", str(world.target), "--json"])
    _one_line_error(result, r"expected a dict of tensors .*found a list of 2")


# ------------------------------------------------------------------------------------------
# Draft checkpoints
# ------------------------------------------------------------------------------------------
def _copy(spec_world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "case"
    shutil.copytree(spec_world, root, symlinks=True)
    return root


def test_draft_saved_from_a_training_wrapper(spec_world, tmp_path):
    """A wrapper's state dict (SpecForge's OnlineEagle3Model holds the draft as
    `draft_model`, next to the target head). Before: `vocab` said SD301 "no d2t" and `eval`
    said "norm_before_fc is set but the checkpoint has no input_norm.weight"."""
    root = _copy(spec_world, tmp_path)
    weights = root / "draft" / "model.safetensors"
    state = load_file(weights)
    wrapped = {f"draft_model.{name}": tensor for name, tensor in state.items()}
    wrapped["target_lm_head.weight"] = torch.zeros(V, 32)
    save_file(wrapped, str(weights), metadata={"format": "pt"})

    vocab = runner.invoke(drafter_app, ["vocab", "--model", str(root / "draft"), "--target",
                                        str(root / "target"), "--json"])
    assert vocab.exit_code == 0 and json.loads(vocab.output)["ok"], vocab.output

    plain = _eval(spec_world / "draft", spec_world / "data", spec_world / "target")
    out = _eval(root / "draft", root / "data", root / "target")
    assert out["counts"] == plain["counts"]
    assert out["vocab_issues"] == []
    assert any("'draft_model.'" in note and "re-save" in note for note in out["notes"]), out["notes"]


def test_target_passed_as_model(spec_world):
    """Before: `vocab` passed (exit 0, ok) and `eval` blamed a q_proj shape on the config."""
    for command in (["vocab"], ["eval", "--data", str(spec_world / "data")]):
        result = runner.invoke(drafter_app, [*command, "--model", str(spec_world / "target"),
                                             "--target", str(spec_world / "target"), "--json"])
        output = _one_line_error(result, r"not an EAGLE-3 draft: no fc\.weight, and 8 decoder "
                                         r"layers \(LlamaForCausalLM\)")
        assert "--model" in output and "--target" in output


def test_a_training_run_or_hub_cache_directory_names_the_checkpoint_to_pass(spec_world, tmp_path):
    """speculators' trainer writes <save_path>/<epoch>/ and a checkpoint_best link
    (train/checkpointer.py); the Hub cache keeps models--org--name/snapshots/<hash>/. Before:
    "<dir>/config.json: not found" and nothing more."""
    run = tmp_path / "run"
    for epoch in ("0", "1", "2"):
        shutil.copytree(spec_world / "draft", run / epoch)
    (run / "checkpoint_best").symlink_to(run / "1")
    result = runner.invoke(drafter_app, ["vocab", "--model", str(run), "--json"])
    output = _one_line_error(result, r"config\.json: not found; the directory holds checkpoints "
                                     r"below it: 0, 1, 2, checkpoint_best")
    assert f"--model, e.g. {run / 'checkpoint_best'}" in output

    cache = tmp_path / "hub" / "models--meta-llama--Tiny"
    snapshot = cache / "snapshots" / "0123abcd"
    shutil.copytree(spec_world / "target", snapshot)
    (cache / "refs").mkdir()
    (cache / "refs" / "main").write_text("0123abcd")
    result = runner.invoke(drafter_app, ["vocab", "--model", str(spec_world / "draft"),
                                         "--target", str(cache), "--json"])
    output = _one_line_error(result, r"holds checkpoints below it: snapshots/0123abcd")
    assert f"--target, e.g. {snapshot}" in output

    result = runner.invoke(drafter_app, ["vocab", "--model", str(tmp_path / "hub"), "--json"])
    _one_line_error(result, r"config\.json: not found$")  # nothing below: the plain message


def test_cut_pytorch_model_bin_says_so(spec_world, tmp_path):
    """Original EAGLE drafts ship pytorch_model.bin; a cut copy failed with "[Errno 22]
    Invalid argument" (mmap) and nothing else."""
    root = _copy(spec_world, tmp_path)
    weights = root / "draft" / "model.safetensors"
    binary = root / "draft" / "pytorch_model.bin"
    torch.save(load_file(weights), binary)
    weights.unlink()
    binary.write_bytes(binary.read_bytes()[: binary.stat().st_size // 2])
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--json"])
    output = _one_line_error(result, r"pytorch_model\.bin: cannot read")
    assert "truncated" in output


def test_rope_parameters_that_are_not_an_object(spec_world, tmp_path):
    """A hand-merged config with `rope_parameters` as a list (or a per-layer-type entry that
    is not an object). Before: "unexpected TypeError: cannot convert dictionary update
    sequence element #0 to a sequence", reported as a spec-debug bug."""
    root = _copy(spec_world, tmp_path)
    config_path = root / "draft" / "config.json"
    for value, pattern in (([10000.0, "default"], r"'rope_parameters' is list"),
                           ({"sliding_attention": 10000.0},
                            r"'rope_parameters\.sliding_attention' is float")):
        config = json.loads((spec_world / "draft" / "config.json").read_text())
        config["transformer_layer_config"]["rope_parameters"] = value
        config_path.write_text(json.dumps(config))
        result = runner.invoke(drafter_app, ["vocab", "--model", str(root / "draft"), "--json"])
        _one_line_error(result, pattern)


def _reshard_as_pickles(target: Path) -> None:
    """The target as transformers < 4.35 saved it (and lmsys/vicuna-*-v1.3, EAGLE's original
    targets, ship): pytorch_model-0000i-of-0000n.bin torch pickles named by
    pytorch_model.bin.index.json, no safetensors."""
    weights = target / "model.safetensors"
    state = load_file(weights)
    weights.unlink()
    names = sorted(state)
    halves = {"pytorch_model-00001-of-00002.bin": names[: len(names) // 2],
              "pytorch_model-00002-of-00002.bin": names[len(names) // 2:]}
    weight_map = {}
    for shard, part in halves.items():
        torch.save({name: state[name] for name in part}, target / shard)
        weight_map.update(dict.fromkeys(part, shard))
    (target / "pytorch_model.bin.index.json").write_text(json.dumps(
        {"metadata": {"total_size": sum(t.numel() * t.element_size() for t in state.values())},
         "weight_map": weight_map}))


def test_target_in_sharded_pytorch_bins(spec_world, tmp_path):
    """Before: the target counted as "no weight files, only config.json": a draft without
    its own embedding (SpecForge saves none) could not be run, and the reference fell back
    to the data's tokens."""
    root = _copy(spec_world, tmp_path)
    _reshard_as_pickles(root / "target")
    weights = root / "draft" / "model.safetensors"
    state = load_file(weights)
    del state["embed_tokens.weight"]
    save_file(state, str(weights), metadata={"format": "pt"})

    plain = _eval(spec_world / "draft", spec_world / "data", spec_world / "target")
    out = _eval(root / "draft", root / "data", root / "target")
    assert out["embed_source"] == "target" and out["reference"] == "target_argmax"
    assert out["counts"] == plain["counts"]
    # the one note: the draft has no embedding of its own (test_hardening44_shared_embedding.py)
    assert [note[:38] for note in out["notes"]] == ["the draft has no embed_tokens.weight: "]

    # one shard not copied: named, not "no weight files"
    (root / "target" / "pytorch_model-00001-of-00002.bin").unlink()
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--target", str(root / "target"),
                                         "--json"])
    _one_line_error(result, r"no embedding tensor either \(shards named in the index but not "
                            r"present: pytorch_model-00001-of-00002\.bin\)")


def test_a_directory_without_samples_says_what_it_holds(spec_world, tmp_path):
    """The usual wrong --data: the draft itself, the tokenized dataset (the step before the
    hidden states), a dump still zstd-compressed. Before: only "no hs_*.safetensors or
    data_*.ckpt files"."""
    from datasets import Dataset

    def data_error(data: Path) -> str:
        result = runner.invoke(drafter_app, ["eval", "--model", str(spec_world / "draft"),
                                             "--data", str(data), "--json"])
        return _one_line_error(result, r"no hs_.*safetensors or data_.*ckpt files")

    assert re.search(r"holds a model checkpoint.*\n  hint: pass the checkpoint as --model",
                     data_error(spec_world / "draft"))

    # speculators prepare_data's output: an HF datasets directory (input_ids, loss_mask)
    Dataset.from_dict({"input_ids": [[1, 2, 3]], "loss_mask": [[0, 1, 1]]}).save_to_disk(
        str(tmp_path / "tokenized"))
    assert re.search(r"tokenized dataset .*\n  hint: generate the hidden states first",
                     data_error(tmp_path / "tokenized"))

    if shutil.which("zstd") is None:
        return
    compressed = tmp_path / "zst"
    compressed.mkdir()
    shutil.copy(spec_world / "data" / "hs_0.safetensors", compressed / "req-1.safetensors")
    subprocess.run(["zstd", "-q", "--rm", str(compressed / "req-1.safetensors")], check=True)
    assert re.search(r"1 zstd-compressed file\(s\), e\.g\. req-1\.safetensors\.zst.*\n  hint: "
                     r"decompress them", data_error(compressed))


def test_target_given_as_a_hub_id_is_read_from_the_local_cache(spec_world, tmp_path, monkeypatch):
    """`--target meta-llama/...` as the engines take it and as the draft's
    speculators_config.verifier.name_or_path writes it. Before: "target checkpoint directory
    not found", though the cache held the model."""
    cache = tmp_path / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    entry = cache / "models--acme--Tiny-Verifier"
    shutil.copytree(spec_world / "target", entry / "snapshots" / "0123abcd")
    shutil.copytree(spec_world / "target", entry / "snapshots" / "stale0000")
    (entry / "snapshots" / "stale0000" / "model.safetensors").unlink()
    (entry / "refs").mkdir()
    (entry / "refs" / "main").write_text("0123abcd\n")
    monkeypatch.chdir(tmp_path)  # no local directory named acme/Tiny-Verifier

    plain = _eval(spec_world / "draft", spec_world / "data", spec_world / "target")
    out = _eval(spec_world / "draft", spec_world / "data", "acme/Tiny-Verifier")
    assert out["counts"] == plain["counts"] and out["reference"] == "target_argmax"

    result = runner.invoke(drafter_app, ["eval", "--model", str(spec_world / "draft"), "--data",
                                         str(spec_world / "data"), "--target", "acme/Other",
                                         "--json"])
    output = _one_line_error(result, rf"acme/Other: no local directory of that name, and the "
                                     rf"Hugging Face cache {re.escape(str(cache))} holds no "
                                     r"snapshot")
    assert "huggingface-cli download acme/Other" in output


def test_t2d_stored_as_the_selected_ids_does_not_blame_d2t(spec_world, tmp_path):
    """t2d written as the DV selected target ids (what a hand-written exporter keeps) instead
    of speculators' [V] mask. d2t is right and engines never read t2d. Before: SD302 "arange(DV)
    + d2t differs from t2d.nonzero() first at draft id 0" on a correct d2t."""
    root = _copy(spec_world, tmp_path)
    weights = root / "draft" / "model.safetensors"
    state = load_file(weights)
    state["t2d"] = state["t2d"].nonzero().reshape(-1).contiguous()
    save_file(state, str(weights), metadata={"format": "pt"})

    vocab = runner.invoke(drafter_app, ["vocab", "--model", str(root / "draft"), "--target",
                                        str(root / "target"), "--json"])
    report = json.loads(vocab.output)
    issues = [issue for check in report["checks"] for issue in check["issues"]]
    assert [(i["code"], i["kind"]) for i in issues] == [("SD303", "t2d_length")], issues
    assert "holds 128 target ids" in issues[0]["message"] and vocab.exit_code == 1


def test_a_float16_dump_whose_first_token_overflowed(spec_world, tmp_path):
    """Targets keep "massive activations" (thousands to ~1e5) at the first token; a dump cast
    to float16 turns them into Inf, in every sample. Before: "NaN or Inf in the
    hidden_states" and nothing on where or why."""
    root = _copy(spec_world, tmp_path)
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        sample = load_file(path)
        states = sample["hidden_states"].float()
        states[0, 1, 3] = 1.0e5  # first token, slot 1
        sample["hidden_states"] = states.to(torch.float16)
        save_file(sample, str(path))
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--json"])
    _one_line_error(result, r"no usable samples .*NaN or Inf in the hidden_states \(slot 1, 1 "
                            r"of 12 positions, first at 0; float16 holds at most 65504.*bfloat16")


def test_a_draft_without_embedding_and_no_target_names_its_verifier(spec_world, tmp_path):
    """speculators writes the verifier's path into speculators_config.verifier.name_or_path;
    when --target is missing and the draft has no embedding, that verifier gives it when it is
    on this host, and the error says it is not when it is not."""
    root = _copy(spec_world, tmp_path)
    weights = root / "draft" / "model.safetensors"
    state = load_file(weights)
    del state["embed_tokens.weight"]
    save_file(state, str(weights), metadata={"format": "pt"})
    config = json.loads((root / "draft" / "config.json").read_text())
    assert config["speculators_config"]["verifier"]["name_or_path"] == str(spec_world / "target")

    def run_eval() -> str:
        result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                             str(root / "data"), "--json"])
        return _one_line_error(result, r"no embed_tokens\.weight in the draft; pass --target")

    found = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data", str(root / "data"), "--json"])
    assert found.exit_code == 0, found.output
    result = json.loads(found.output)
    assert result["embed_source"] == "target" and result["target_source"] == "speculators_config.verifier"
    config["speculators_config"]["verifier"]["name_or_path"] = "/models/gone/Llama-3.1-8B"
    (root / "draft" / "config.json").write_text(json.dumps(config))
    assert "'/models/gone/Llama-3.1-8B', which is not here" in run_eval()


def test_v1_samples_with_the_states_stacked_either_way(world, tmp_path):
    """Hand-made data_*.pt files stack the layer states into one tensor, slot-major [S, T, H]
    or in the hs layout [T, S, H]; both are the same sample."""
    reference = _eval(world.draft, world.data, world.target)
    for name, dim in (("slot_major", 0), ("token_major", 1)):
        out = tmp_path / name
        out.mkdir()
        for i, path in enumerate(sorted(world.data.glob("hs_*.safetensors"))):
            sample = load_file(path)
            states = sample["hidden_states"]  # [T, S, H]
            torch.save({"input_ids": sample["token_ids"],
                        "hidden_states": states.transpose(0, 1).contiguous() if dim == 0 else states,
                        "loss_mask": sample.get("loss_mask")}, out / f"data_{i}.pt")
        assert _eval(world.draft, out, world.target)["counts"] == reference["counts"], name
