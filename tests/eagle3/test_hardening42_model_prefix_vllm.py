"""A draft whose tensors are all stored under `model.` (`model.fc.weight`, `model.layers.0.*`,
`model.norm.weight`; SGLang's LlamaForCausalLMEagle3 loads model.fc and model.norm under these
names, but holds the layer as model.midlayer.* and skips model.layers.0.*: SD709) fails in
vLLM: Eagle3LlamaForCausalLM.load_weights adds
`model.` to every name but lm_head and d2t and hands `model.fc.weight` to the inner
LlamaModel.load_weights, whose params_dict holds `fc.weight` alone (KeyError at startup;
vllm model_executor/models/llama_eagle3.py, commit 00bd1493). Only the drafter eval's notes
said so; the configs step now raises SD705 when vLLM serves the draft, and the fix it gives
clears it. The draft is saved by speculators, then re-saved under `model.`."""

from __future__ import annotations

import os
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening40_config_weights_wrapped import _wrapped  # noqa: E402
from tests.eagle3.test_hardening41_wrapped_draft_unservable import SGLANG, _rename_command  # noqa: E402


def test_model_prefixed_draft_served_by_vllm_is_sd705(tmp_path, world):
    root = _wrapped(tmp_path, world, "model.")
    found = _configs(root, VLLM)
    assert [f.code for f in found if f.severity == "error"] == ["SD705"]
    [finding] = [f for f in found if f.code == "SD705"]
    assert finding.facts["stored_prefix"] == "model."
    assert finding.evidence[0].startswith("the draft's tensors are stored as model.* (model.fc.weight, ")
    assert "SGLang's parameter names" in finding.evidence[0]
    assert "model.model.*" in finding.evidence[0]
    assert "removeprefix('model.')" in finding.remediation


def test_the_same_draft_served_by_sglang_or_an_unknown_engine_is_not_sd705(tmp_path, world):
    root = _wrapped(tmp_path, world, "model.")
    for host in (SGLANG, {}):
        assert "SD705" not in [f.code for f in _configs(root, host)]


def test_the_fix_sd705_gives_makes_the_draft_servable_by_vllm(tmp_path, world):
    import subprocess

    root = _wrapped(tmp_path, world, "model.")
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD705"]
    command = _rename_command(finding.remediation).replace("python ", f"{sys.executable} ", 1)
    subprocess.run(["bash", "-c", command], cwd=root / "draft", check=True, timeout=120)
    assert [f.code for f in _configs(root, VLLM) if f.severity == "error"] == []
