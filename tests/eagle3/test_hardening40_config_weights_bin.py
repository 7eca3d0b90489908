"""A draft whose weights are torch pickles (pytorch_model.bin, or shards its
pytorch_model.bin.index.json names: transformers < 4.35, or a training script's
torch.save(model.state_dict())), which vLLM and SGLang load too. The model_configs probe read
tensor shapes from safetensors headers only, so the configs step compared nothing of such a
draft: a config edited away from its weights (SD704) or to another width (SD204) was said
nothing of. The probe now reads the pickle's structure without running it (no torch on the
host needed, no object the pickle names built, no tensor bytes read). The draft is saved by
speculators 0.9.0 and its state dict re-saved with torch.save."""

from __future__ import annotations

import json
import os
import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.probes import model_configs  # noqa: E402
from tests.eagle3.speculators_world import H  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

KEY = "transformer_layer_config."


def _as_bin(tmp_path, world, *, dtype=None, shards=1):
    """A copy of the world whose draft weights are torch.save pickles instead of safetensors."""
    from safetensors.torch import load_file

    root = tmp_path / "bin"
    shutil.copytree(world, root)
    weights = root / "draft" / "model.safetensors"
    tensors = {n: (t.to(dtype) if dtype is not None and t.is_floating_point() else t)
               for n, t in load_file(str(weights)).items()}
    weights.unlink()
    if shards == 1:
        torch.save(tensors, root / "draft" / "pytorch_model.bin")
        return root
    names, weight_map = sorted(tensors), {}
    for i in range(shards):
        file = f"pytorch_model-{i + 1:05d}-of-{shards:05d}.bin"
        torch.save({n: tensors[n] for n in names[i::shards]}, root / "draft" / file)
        weight_map.update({n: file for n in names[i::shards]})
    (root / "draft" / "pytorch_model.bin.index.json").write_text(
        json.dumps({"metadata": {}, "weight_map": weight_map}))
    return root


def _edit(root, **decoder):
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"].update(decoder)
    path.write_text(json.dumps(config, indent=2))


def _errors(root):
    return [f for f in _configs(root, VLLM) if f.severity == "error"]


@pytest.mark.parametrize("dtype, shards", [(None, 1), (torch.bfloat16, 1), (None, 2)],
                         ids=["f32", "bf16", "sharded"])
def test_a_bin_draft_with_an_edited_config_is_sd704(tmp_path, world, dtype, shards):
    root = _as_bin(tmp_path, world, dtype=dtype, shards=shards)
    assert _errors(root) == []
    _edit(root, num_key_value_heads=4)
    [finding] = _errors(root)
    assert finding.code == "SD704"
    assert finding.evidence[0].startswith(f"{KEY}num_key_value_heads is 4, the weights imply 2 (")


def test_a_bin_draft_of_another_width_is_sd204(tmp_path, world):
    root = _as_bin(tmp_path, world)
    _edit(root, hidden_size=2 * H)
    [finding] = _errors(root)
    assert finding.code == "SD204"
    assert any(f"its weights are {H} wide (norm.weight [{H}])" in e for e in finding.evidence)


def test_the_probe_names_each_tensor_with_its_shape_and_dtype(tmp_path, world):
    root = _as_bin(tmp_path, world, dtype=torch.bfloat16)
    tensors = model_configs.run({"draft_model": str(root / "draft")})["draft"]["tensors"]
    assert tensors["norm.weight"] == [[H], "BF16"]
    assert tensors["fc.weight"] == [[H, 3 * H], "BF16"]
    assert tensors["t2d"][1] == "BOOL" and tensors["d2t"][1] == "I64"


class _Planted:
    """An object whose unpickling would write a file (what a hostile pickle does with os.system)."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (_touch, (self.path,))


def _touch(path):
    open(path, "w").close()


def test_reading_a_bin_draft_runs_none_of_its_pickle(tmp_path, world):
    root = _as_bin(tmp_path, world)
    binary = root / "draft" / "pytorch_model.bin"
    planted = tmp_path / "ran"
    state = torch.load(binary, weights_only=True)
    torch.save({**state, "planted": _Planted(str(planted))}, binary)
    tensors = model_configs.run({"draft_model": str(root / "draft")})["draft"]["tensors"]
    assert not planted.exists()
    assert "planted" not in tensors and tensors["norm.weight"] == [[H], "F32"]
