"""A draft saved from a training wrapper's state dict (SpecForge's OnlineEagle3Model keeps it
as `draft_model`, DDP adds `module.`, torch.compile `_orig_mod.`) cannot be served: vLLM's
Eagle3LlamaForCausalLM.load_weights adds `model.` to each name and its loader fails on the
unknown module, and SGLang's LlamaForCausalLMEagle3.load_weights drops every name it does not
know and serves weights it never loaded. The drafter reads such a draft from under its prefix
and said so only in the eval's notes; the configs step now raises SD705 from the tensor
headers. A draft with bare names, or SGLang's own `model.` names, gets none. The drafts are
saved by speculators 0.9.0, then re-saved under the prefix."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening40_config_weights_wrapped import _wrapped  # noqa: E402

SGLANG = {"engine": {"name": "sglang", "version": "0.5.6"}}


@pytest.mark.parametrize("prefix", ["draft_model.", "module.", "module.draft_model.", "_orig_mod."])
def test_a_draft_under_a_wrapper_prefix_is_sd705(tmp_path, world, prefix):
    root = _wrapped(tmp_path, world, prefix)
    for host in (VLLM, SGLANG):
        found = _configs(root, host)
        assert [f.code for f in found if f.severity == "error"] == ["SD705"]
        [finding] = [f for f in found if f.code == "SD705"]
        assert finding.facts["stored_prefix"] == prefix
        assert finding.evidence[0].startswith(f"the draft's tensors are stored under {prefix!r} ({prefix}")
        assert "vLLM" in finding.evidence[0] and "SGLang" in finding.evidence[0]
        assert f"removeprefix('{prefix}')" in finding.remediation


def _rename_command(remediation: str) -> str:
    [command] = re.findall(r"`(python -c .*?)`", remediation)
    return command


def test_the_fix_sd705_gives_makes_the_draft_servable(tmp_path, world):
    root = _wrapped(tmp_path, world, "draft_model.")
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD705"]
    command = _rename_command(finding.remediation).replace("python ", f"{sys.executable} ", 1)
    subprocess.run(["bash", "-c", command], cwd=root / "draft", check=True, timeout=120)
    assert [f.code for f in _configs(root, VLLM) if f.severity == "error"] == []


def test_vocab_maps_kept_at_the_top_still_sd705(tmp_path, world):
    from safetensors.torch import load_file, save_file

    root = _wrapped(tmp_path, world, "draft_model.")
    weights = root / "draft" / "model.safetensors"
    tensors = {(n[len("draft_model."):] if n.endswith(("d2t", "t2d")) else n): t
               for n, t in load_file(str(weights)).items()}
    assert "d2t" in tensors
    save_file(tensors, str(weights), metadata={"format": "pt"})
    assert [f.code for f in _configs(root, VLLM) if f.severity == "error"] == ["SD705"]


@pytest.mark.parametrize("prefix", [None, "model."])
def test_bare_and_sglang_names_get_no_sd705(tmp_path, world, prefix):
    # `model.fc.weight` is SGLang's own parameter name: its load_weights takes a name as is
    # or with `model.` added (vLLM fails on it: test_hardening42_model_prefix_vllm.py)
    root = _wrapped(tmp_path, world, prefix) if prefix else world
    for host in ((VLLM, SGLANG) if prefix is None else (SGLANG, {})):
        assert "SD705" not in [f.code for f in _configs(root, host)]


def test_a_wrapped_bin_draft_is_sd705_and_its_fix_says_how(tmp_path, world):
    import torch
    from safetensors.torch import load_file

    root = _wrapped(tmp_path, world, "module.")
    weights = root / "draft" / "model.safetensors"
    torch.save(load_file(str(weights)), root / "draft" / "pytorch_model.bin")
    weights.unlink()
    [finding] = [f for f in _configs(root, VLLM) if f.severity == "error"]
    assert finding.code == "SD705" and finding.facts["stored_prefix"] == "module."
    assert "pytorch_model*.bin weights: the same with torch.load and torch.save" in finding.remediation
