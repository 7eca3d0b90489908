"""A speculators draft whose transformer_layer_config lost num_hidden_layers (a hand-trimmed
config). speculators builds that section as transformers' LlamaConfig, whose default of 32
layers stands: from_pretrained loads layers.0 and reports layers 1-31 MISSING, left random.
The config reader assumed 1 layer, so eval scored the trained layer alone and the configs step
compared 1 with the 1 stored layer: both said nothing of a draft nobody runs as trained. Both
now take the class default, so the configs step says SD704 with the fix and eval refuses with
it. EAGLE-format configs keep their 1-layer default. Saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.config import ConfigMisfitError  # noqa: E402
from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401


@pytest.fixture
def trimmed(tmp_path, world):
    root = tmp_path / "trimmed"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    del config["transformer_layer_config"]["num_hidden_layers"]
    path.write_text(json.dumps(config, indent=2))
    return root


def test_speculators_builds_the_class_default(trimmed):
    from speculators.models.eagle3 import Eagle3DraftModel

    model = Eagle3DraftModel.from_pretrained(str(trimmed / "draft"))
    assert len(model.layers) == 32  # the reference: what the finding says it builds


def test_the_configs_step_says_sd704_with_the_fix(trimmed):
    [finding] = [f for f in _configs(trimmed, VLLM) if f.code == "SD704"]
    assert finding.severity == "error"
    assert ("transformer_layer_config.num_hidden_layers is absent (32 assumed), the weights "
            "hold 1 decoder layer (layers.0): set transformer_layer_config.num_hidden_layers "
            "to 1") in finding.evidence


def test_eval_refuses_with_the_fix(trimmed):
    with pytest.raises(ConfigMisfitError) as refused:
        load_draft(trimmed / "draft", trimmed / "target")
    assert refused.value.message == (
        f"{trimmed / 'draft'}: transformer_layer_config has no num_hidden_layers, so speculators "
        "builds transformers' default of 32 decoder layers, loads the weights' [0] and leaves "
        "the rest random")
    assert refused.value.hint == 'add "num_hidden_layers": 1 to transformer_layer_config'


def test_the_draft_as_saved_loads(world):
    assert load_draft(world / "draft", world / "target").checkpoint.config.num_layers == 1
