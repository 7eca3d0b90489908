"""A draft whose fc.weight is stored bare but whose other tensors carry SGLang's `model.`
(fc renamed alone by hand, or two state dicts merged): vLLM's Eagle3LlamaForCausalLM
.load_weights adds `model.` to every name but lm_head and d2t, so `model.layers.0.*` becomes
`model.model.layers.0.*` and the inner LlamaModel's params_dict has no such name (KeyError at
startup; vllm model_executor/models/llama_eagle3.py, commit 00bd1493). The configs step looked
for the prefix on fc.weight alone and said nothing; it now raises SD705 when vLLM serves the
draft, and the fix it gives clears it. The draft is saved by speculators, then re-saved."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening41_wrapped_draft_unservable import SGLANG, _rename_command  # noqa: E402

_KEPT_BARE = ("fc.weight", "lm_head.weight", "d2t", "t2d")


def _mixed(tmp_path, world):
    """A copy of the world whose draft keeps fc, lm_head and the maps bare, the rest under model."""
    from safetensors.torch import load_file, save_file

    root = tmp_path / "mixed"
    shutil.copytree(world, root)
    weights = root / "draft" / "model.safetensors"
    save_file({(name if name in _KEPT_BARE else "model." + name): t
               for name, t in load_file(str(weights)).items()}, str(weights), metadata={"format": "pt"})
    return root


def test_a_bare_fc_beside_model_prefixed_layers_served_by_vllm_is_sd705(tmp_path, world):
    root = _mixed(tmp_path, world)
    found = _configs(root, VLLM)
    assert [f.code for f in found if f.severity == "error"] == ["SD705"]
    [finding] = [f for f in found if f.code == "SD705"]
    assert finding.facts["stored_prefix"] == "model."
    assert finding.facts["bare_fc"] is True
    assert finding.evidence[0].startswith("the draft's tensors are stored as model.* "
                                          "(model.embed_tokens.weight, ... ")
    assert "beside a bare fc.weight: vLLM adds 'model.'" in finding.evidence[0]
    assert "removeprefix('model.')" in finding.remediation


def test_the_mixed_draft_served_by_sglang_is_not_sd705(tmp_path, world):
    root = _mixed(tmp_path, world)
    assert "SD705" not in [f.code for f in _configs(root, SGLANG)]


def test_the_fix_sd705_gives_makes_the_mixed_draft_servable_by_vllm(tmp_path, world):
    root = _mixed(tmp_path, world)
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD705"]
    command = _rename_command(finding.remediation).replace("python ", f"{sys.executable} ", 1)
    subprocess.run(["bash", "-c", command], cwd=root / "draft", check=True, timeout=120)
    assert [f.code for f in _configs(root, VLLM) if f.severity == "error"] == []
