"""A speculators draft whose config.json was edited by hand away from its own weights: heads,
KV heads, head_dim, MLP width, layer count or biases. vLLM and SGLang build the draft's layers
from the config and then fail to load these weights (or serve another network). The configs
step said nothing about it (only a hidden_size edit was SD204), the layout and eval steps
failed as steps that could not run (SD003, a warning) and `run perf_regression` said PASSED.
The configs step now raises SD704 from the safetensors headers, naming the key, the config's
value and the value the weights imply. The drafts are saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os
import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.catalog import CATALOG  # noqa: E402
from spec_debug.diagnose.findings_cli import findings_command  # noqa: E402
from spec_debug.explain import explain_playbook  # noqa: E402
from spec_debug.playbook.loader import load_playbook  # noqa: E402
# the world (a verifier and the draft speculators saves over it) and the configs step on it
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.speculators_world import AUX, DV, H, V, save_perturbed_draft  # noqa: E402

KEY = "transformer_layer_config."


def _sd704(root, host_facts=None, target=True):
    return [f for f in _configs(root, host_facts, target) if f.code == "SD704"]


def _edited(tmp_path, world, **decoder):
    """A copy of the world whose draft config.json has the `decoder` keys set by hand."""
    root = tmp_path / "edited"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"].update(decoder)
    path.write_text(json.dumps(config, indent=2))
    return root


def test_the_draft_as_speculators_saved_it_has_no_sd704(world):
    for host_facts, target in ((VLLM, True), ({}, True), (VLLM, False)):
        assert _sd704(world, host_facts, target) == []


@pytest.mark.parametrize("layers, decoder", [
    (3, {}),
    (2, {"num_key_value_heads": 1, "attention_bias": True, "mlp_bias": True}),
    (1, {"head_dim": 12, "num_attention_heads": 2, "num_key_value_heads": 1}),
    (1, {"model_type": "qwen3"}),
], ids=["3-layers", "mqa-biases", "head_dim-not-hidden-over-heads", "qwen3"])
def test_other_speculators_drafts_as_saved_have_no_sd704(tmp_path, world, layers, decoder):
    from transformers import LlamaConfig, Qwen3Config

    kw = dict(vocab_size=V, hidden_size=H, intermediate_size=64, num_attention_heads=4,
              num_key_value_heads=2, head_dim=8, max_position_embeddings=128)
    kw.update({k: v for k, v in decoder.items() if k != "model_type"})
    config_class = Qwen3Config if decoder.get("model_type") == "qwen3" else LlamaConfig
    shutil.copytree(world / "target", tmp_path / "target")
    save_perturbed_draft(tmp_path / "draft", tmp_path / "target", config_class(num_hidden_layers=layers, **kw),
                         aux=AUX, draft_vocab=DV, vocab=V, seed_name=f"sd704-{layers}-{sorted(decoder)}")
    assert _sd704(tmp_path, VLLM) == []
    if decoder.get("head_dim") == 12:
        # the hand edit that drops head_dim: hidden_size / heads = 16 is assumed, not 12
        path = tmp_path / "draft" / "config.json"
        config = json.loads(path.read_text())
        del config["transformer_layer_config"]["head_dim"]
        path.write_text(json.dumps(config))
        [finding] = _sd704(tmp_path, VLLM)
        assert finding.evidence[0].startswith(f"{KEY}head_dim is absent (16 assumed), the weights imply 12 (")
        assert finding.evidence[0].endswith("): set it to 12")


@pytest.mark.parametrize("key, value, implied, tensor", [
    ("num_attention_heads", 8, 4, "layers.0.self_attn.q_proj.weight is [32, 64], the config implies [64, 64]"),
    ("num_key_value_heads", 4, 2, "layers.0.self_attn.k_proj.weight is [16, 64], the config implies [32, 64]"),
    ("head_dim", 16, 8, "layers.0.self_attn.q_proj.weight is [32, 64], the config implies [64, 64]"),
    ("intermediate_size", 128, 64, "layers.0.mlp.gate_proj.weight is [64, 32], the config implies [128, 32]"),
    ("attention_bias", True, "false", "the config implies layers.0.self_attn.q_proj.bias [32], the weights have none"),
    ("mlp_bias", True, "false", "the config implies layers.0.mlp.up_proj.bias [64], the weights have none"),
    ("model_type", "qwen3", "llama", "the config implies layers.0.self_attn.q_norm.weight [8], the weights have none"),
])
def test_a_shape_key_edited_away_from_the_weights_is_sd704(tmp_path, world, key, value, implied, tensor):
    root = _edited(tmp_path, world, **{key: value})
    for host_facts, target in ((VLLM, True), ({}, True), (VLLM, False)):
        [finding] = _sd704(root, host_facts, target)
        assert finding.severity == "error" and finding.title == "Draft config does not match its weights"
        [line] = finding.evidence
        said = str(value).lower() if isinstance(value, bool) else value
        assert line.startswith(f"{KEY}{key} is {said}, the weights imply {implied} (")
        assert tensor in line and line.endswith(f"): set it to {implied}")
        assert finding.facts["mismatched_keys"] == [
            {"key": KEY + key, "config": value, "weights": implied if implied != "false" else False}]
    # no other code blames the edit on the target, the engine or the aux layers
    assert [f.code for f in _configs(root, VLLM)] == ["SD704"]


def test_a_layer_count_the_weights_do_not_hold_is_sd704(tmp_path, world):
    root = _edited(tmp_path, world, num_hidden_layers=2)
    [finding] = _sd704(root, VLLM)
    assert finding.evidence == [f"{KEY}num_hidden_layers is 2, the weights hold 1 decoder layer "
                                f"(layers.0): set {KEY}num_hidden_layers to 1"]


def test_two_keys_edited_are_both_named_in_one_finding(tmp_path, world):
    root = _edited(tmp_path, world, num_attention_heads=8, intermediate_size=96)
    [finding] = _sd704(root, VLLM)
    assert [e.split(",")[0] for e in finding.evidence] == [
        f"{KEY}num_attention_heads is 8", f"{KEY}intermediate_size is 96"]


def test_a_hidden_size_edit_stays_sd204_alone(tmp_path, world):
    root = _edited(tmp_path, world, hidden_size=2 * H)
    assert [f.code for f in _configs(root, VLLM)] == ["SD204"]


def test_a_sharded_draft_with_an_index_is_read_across_its_shards(tmp_path, world):
    from safetensors.torch import load_file, save_file

    root = tmp_path / "sharded"
    shutil.copytree(world, root)
    whole = root / "draft" / "model.safetensors"
    tensors = load_file(str(whole))
    whole.unlink()
    names = sorted(tensors)
    shards = {"model-00001-of-00002.safetensors": names[::2], "model-00002-of-00002.safetensors": names[1::2]}
    weight_map = {}
    for file, part in shards.items():
        save_file({n: tensors[n].contiguous() for n in part}, str(root / "draft" / file), metadata={"format": "pt"})
        weight_map.update({n: file for n in part})
    (root / "draft" / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {}, "weight_map": weight_map}))
    assert _sd704(root, VLLM) == []
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["num_key_value_heads"] = 4
    path.write_text(json.dumps(config))
    [finding] = _sd704(root, VLLM)
    assert finding.evidence[0].startswith(f"{KEY}num_key_value_heads is 4, the weights imply 2 (")


def test_the_catalog_explain_and_the_probe_know_sd704():
    doc = CATALOG["SD704"]
    assert (doc.severity, doc.area, doc.title) == ("error", "draft config", "Draft config does not match its weights")
    import io

    from rich.console import Console

    out = io.StringIO()
    assert findings_command("SD704", False, console=Console(file=out, width=120)) == 0
    assert "Draft config does not match its weights" in out.getvalue() and "How to fix" in out.getvalue()
    walkthrough = explain_playbook(load_playbook("perf_regression"))
    [step] = [s for s in walkthrough["steps"] if s.id == "configs"]
    assert "SD704" in [c.code for c in step.codes]


def test_the_shards_an_index_names_are_read_not_a_single_file_beside_them(tmp_path, world):
    """A retrained draft (MLP 128 wide) uploaded unsharded, with its config, into a folder that
    held the sharded old one (MLP 64): vLLM and SGLang load only the files the index names
    (weight_utils.py filter_duplicate_safetensors_files), so they build the new config and load
    the old shards. The probe read every *.safetensors, the single file last, and found the
    config consistent."""
    from safetensors.torch import load_file, save_file
    from transformers import LlamaConfig

    root = tmp_path / "mixed"
    shutil.copytree(world, root)
    old = root / "draft" / "model.safetensors"
    tensors = load_file(str(old))
    old.unlink()
    save_file({n: t.contiguous() for n, t in tensors.items()},
              str(root / "draft" / "model-00001-of-00001.safetensors"), metadata={"format": "pt"})
    (root / "draft" / "model.safetensors.index.json").write_text(json.dumps(
        {"metadata": {}, "weight_map": {n: "model-00001-of-00001.safetensors" for n in tensors}}))
    kw = dict(vocab_size=V, hidden_size=H, intermediate_size=128, num_attention_heads=4,
              num_key_value_heads=2, head_dim=8, max_position_embeddings=128)
    retrained = tmp_path / "retrained"
    save_perturbed_draft(retrained, root / "target", LlamaConfig(num_hidden_layers=1, **kw),
                         aux=AUX, draft_vocab=DV, vocab=V, seed_name="sd704-retrained")
    for name in ("config.json", "model.safetensors"):
        shutil.copy(retrained / name, root / "draft" / name)
    [finding] = _sd704(root, VLLM)
    assert finding.evidence[0].startswith(f"{KEY}intermediate_size is 128, the weights imply 64 (")


def test_an_eagle_format_draft_names_its_top_level_key(tmp_path, world):
    """SpecForge naming (midlayer.*, the decoder keys at the top of config.json)."""
    from safetensors.torch import load_file, save_file

    root = tmp_path / "eagle"
    shutil.copytree(world, root)
    weights = root / "draft" / "model.safetensors"
    save_file({k.replace("layers.0.", "midlayer."): v for k, v in load_file(str(weights)).items()},
              str(weights), metadata={"format": "pt"})
    spec = json.loads((root / "draft" / "config.json").read_text())
    flat = dict(spec["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=spec["draft_vocab_size"],
                eagle_config={"eagle_aux_hidden_state_layer_ids": [1, 3, 4]})
    (root / "draft" / "config.json").write_text(json.dumps(flat))
    assert _sd704(root, VLLM) == []
    (root / "draft" / "config.json").write_text(json.dumps({**flat, "num_key_value_heads": 4}))
    [finding] = _sd704(root, VLLM)
    assert finding.evidence[0].startswith(
        "num_key_value_heads is 4, the weights imply 2 (layers.0.self_attn.k_proj.weight is [16, 64]")


def test_an_nvfp4_draft_packed_two_values_a_byte_is_not_called_a_mismatch(tmp_path, world):
    """ModelOpt NVFP4 stores each Linear weight as uint8 [out, in / 2] (two FP4 values a byte)
    beside weight_scale (float8 [out, in / 16]), weight_scale_2 and input_scale (vLLM
    model_executor/layers/quantization/modelopt.py ModelOptNvFp4LinearMethod.create_weights).
    Its halved widths are no config mismatch: an SD704 error on every projection was raised."""
    from safetensors.torch import load_file, save_file

    root = tmp_path / "nvfp4"
    shutil.copytree(world, root)
    weights = root / "draft" / "model.safetensors"
    packed = {}
    for name, tensor in load_file(str(weights)).items():
        if name.startswith("layers.") and name.endswith("_proj.weight"):
            out, inp = tensor.shape
            module = name[: -len(".weight")]
            packed[name] = torch.zeros(out, inp // 2, dtype=torch.uint8)
            packed[f"{module}.weight_scale"] = torch.ones(out, inp // 16).to(torch.float8_e4m3fn)
            packed[f"{module}.weight_scale_2"] = torch.ones((), dtype=torch.float32)
            packed[f"{module}.input_scale"] = torch.ones((), dtype=torch.float32)
        else:
            packed[name] = tensor
    save_file(packed, str(weights), metadata={"format": "pt"})
    assert _sd704(root, VLLM) == []
    # what the weights still say is compared: the layer count is no packing
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["num_hidden_layers"] = 2
    path.write_text(json.dumps(config))
    [finding] = _sd704(root, VLLM)
    assert finding.evidence[0].startswith(f"{KEY}num_hidden_layers is 2, the weights hold 1 decoder layer")
