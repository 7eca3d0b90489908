"""NaN/Inf in the embedding build_draft copies in from --target (SGLang semantics always
swaps it in, eagle_worker.py set_embed) is a damaged target file, not a draft saved before
load_verifier_weights(): today's per-tensor hint (loading._non_finite_hint) still sent it to
that fix, and a NaN there next to a trained module's would have read "training diverged".
Real library: speculators 0.9.0's draft over a transformers Llama verifier."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import V, save_verifier_and_draft, vllm_style_states  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h22_review_target_nan")
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    ids, hidden = vllm_style_states(verifier, torch.randint(
        0, V, (14,), generator=torch.Generator().manual_seed(5)))
    save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / "hs_0.safetensors"))
    return root


def test_nan_in_the_targets_embedding_says_copy_the_target_again(world, tmp_path):
    target = tmp_path / "target"
    shutil.copytree(world / "target", target)
    tensors = load_file(str(target / "model.safetensors"))
    tensors["model.embed_tokens.weight"][3, 0] = float("nan")  # a half-written shard
    save_file(tensors, str(target / "model.safetensors"), metadata={"format": "pt"})
    result = CliRunner().invoke(drafter_app, [
        "eval", "--model", str(world / "draft"), "--data", str(world / "data"),
        "--target", str(target), "--semantics", "sglang", "--steps", "1"])
    assert result.exit_code == 2, result.output
    assert "NaN or Inf in target" in result.output
    assert "copy (download) the target checkpoint again" in result.output
    assert "load_verifier_weights" not in result.output
    assert "Traceback" not in result.output
