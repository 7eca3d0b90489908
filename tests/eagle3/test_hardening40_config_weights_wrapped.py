"""A speculators draft whose weights sit under a training wrapper's prefix (SpecForge's
OnlineEagle3Model saves `draft_model.fc.weight`, DDP `module.`): the drafter reads it from
under the prefix (checkpoint.open_draft), but the configs step looked for `norm.weight` and
`layers.N.*` by their bare names, so a config edited away from these weights (SD704) or to
another width (SD204) was not said at all, and the layout and eval steps then failed on it.
The configs step now reads the probe's tensor listing under the draft's prefix. The drafts are
saved by speculators 0.9.0, then re-saved under the prefix."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.speculators_world import H  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

KEY = "transformer_layer_config."


def _wrapped(tmp_path, world, prefix):
    """A copy of the world whose draft tensors are all saved under `prefix`."""
    from safetensors.torch import load_file, save_file

    root = tmp_path / "wrapped"
    shutil.copytree(world, root)
    weights = root / "draft" / "model.safetensors"
    save_file({prefix + name: t for name, t in load_file(str(weights)).items()}, str(weights),
              metadata={"format": "pt"})
    return root


def _edit(root, **decoder):
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"].update(decoder)
    path.write_text(json.dumps(config, indent=2))


@pytest.mark.parametrize("prefix", ["draft_model.", "module.", "module.draft_model."])
def test_a_wrapped_draft_with_an_edited_config_is_sd704(tmp_path, world, prefix):
    root = _wrapped(tmp_path, world, prefix)
    # the prefix itself is SD705 (test_hardening41_wrapped_draft_unservable.py)
    assert [f.code for f in _configs(root, VLLM) if f.severity == "error"] == ["SD705"]
    _edit(root, num_key_value_heads=4)
    found = _configs(root, VLLM)
    assert sorted(f.code for f in found if f.severity == "error") == ["SD704", "SD705"]
    [finding] = [f for f in found if f.code == "SD704"]
    assert finding.evidence[0].startswith(f"{KEY}num_key_value_heads is 4, the weights imply 2 (")
    assert finding.evidence[0].endswith("): set it to 2")


def test_a_wrapped_draft_of_another_width_is_sd204(tmp_path, world):
    root = _wrapped(tmp_path, world, "draft_model.")
    _edit(root, hidden_size=2 * H)
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD204"]
    assert finding.severity == "error"
    assert any(e.startswith(f"the draft config's hidden_size is {2 * H}, its weights are {H} wide "
                            f"(norm.weight [{H}])") for e in finding.evidence)
