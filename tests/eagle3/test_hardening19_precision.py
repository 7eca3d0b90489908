"""`drafter eval --dtype float16` on a bf16 dump whose states pass float16's 65504.

Targets served in bf16 keep activations float16 cannot hold (Qwen2 in float16 turns NaN after
layer 1: https://github.com/QwenLM/Qwen3/issues/826; vLLM Qwen2.5:
https://github.com/vllm-project/vllm/issues/14126), and vLLM's extraction dumps them as bf16.
A user on a card without bf16, or copying SGLang's `--dtype half`, evaluates in float16.
Before: the cast made them Inf, the draft's logits NaN, every accuracy ~0 and the layout
probe's verdict "the draft matches this dump's layout" at 0.000; a final state past 65504
gave NaN targets for its row. Now: the first is one clear error naming the dtype; the
targets are normed from the dump's own values, as the target computed them.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3 import __main__ as probe_main  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from spec_debug.errors import SpecDebugError  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402
from tests.eagle3.speculators_world import AUX  # noqa: E402

_MASSIVE = 1e7  # dims of a few aux states this much larger, and fc's columns for them smaller
_DIM = 7


world = informative_world("hardening19_precision", seed=19)


def _copy(world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "w"
    shutil.copytree(world, root)
    return root


def _rewrite_dump(root: Path, change) -> None:
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        states = tensors["hidden_states"].float()  # [T, aux + 1, H]
        change(states)
        tensors["hidden_states"] = states.to(torch.bfloat16).contiguous()
        save_file(tensors, str(path))


def _massive_aux_states(root: Path) -> None:
    """One hidden dim of every aux state 1e7 times larger (bf16 holds it) and the draft's fc
    columns for it 1e7 times smaller: the same draft in float32, far past float16."""
    def scale(states):
        states[:, : len(AUX), _DIM] *= _MASSIVE
    _rewrite_dump(root, scale)
    weights = root / "draft" / "model.safetensors"
    tensors = load_file(str(weights))
    fc = tensors["fc.weight"].clone()  # [H, A*H]
    H = fc.shape[0]
    for a in range(len(AUX)):
        fc[:, a * H + _DIM] /= _MASSIVE
    tensors["fc.weight"] = fc
    save_file(tensors, str(weights), metadata={"format": "pt"})


def _eval(root: Path, dtype: str) -> dict:
    return evaluate_drafter(root / "draft", root / "data", root / "target", dtype=dtype)


def test_float16_eval_of_states_past_its_range_is_one_clear_error(world, tmp_path):
    root = _copy(world, tmp_path)
    _massive_aux_states(root)
    fp32 = _eval(root, "float32")
    assert fp32["full_accuracy"][0] > 0.3  # the draft still works where the states fit

    with pytest.raises(SpecDebugError) as caught:
        _eval(root, "float16")
    assert "65504" in caught.value.message and "float16" in caught.value.message
    assert "--dtype bfloat16" in caught.value.hint

    # the layout probe said "configured layout ... scores best (0.000): the draft matches"
    with pytest.raises(SpecDebugError, match="65504"):
        probe_layout(root / "draft", root / "data", root / "target", dtype="float16")

    # the probe the playbooks run prints the error as its one JSON document
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = probe_main.main(["eval", "--model", str(root / "draft"), "--data",
                                str(root / "data"), "--target", str(root / "target"),
                                "--dtype", "float16"])
    assert code == 2
    assert "65504" in json.loads(out.getvalue())["error"]


def test_float16_targets_of_a_final_state_past_its_range_are_the_targets_own(world, tmp_path):
    """RMSNorm does not change under scaling, so a final state 1e7 times larger has the same
    target token: float16 must score exactly as it does on the unscaled dump."""
    root = _copy(world, tmp_path)
    plain = _eval(root, "float16")

    def scale(states):
        states[1:, -1, :] *= _MASSIVE  # every scored row's final state (row 0 is never a target)
    _rewrite_dump(root, scale)
    scaled = _eval(root, "float16")
    assert scaled["counts"] == plain["counts"]
    assert scaled["full_accuracy"][0] > 0.3
