"""A speculators draft whose export cast the whole state dict to one float type (`{k:
v.to(dtype)}`) stores d2t as floats. Round 7 flagged it only when the type rounds the offsets
(bfloat16 above 256); a float32 d2t, or a bfloat16 one over a small vocab gap, passed `drafter
vocab` as sound. vLLM and speculators copy it into int64 and serve it right, but SGLang adds
arange(DV) to it in that float type (hot_token_id, llama_eagle3.py load_weights) and proposes
the sums as token ids. Now an SD302 d2t_float issue names SGLang and says to save d2t as int64;
eval still scores the exact offsets (nothing rebuilt from t2d)."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from spec_debug.eagle3.checkpoint import open_draft, open_target  # noqa: E402
from spec_debug.eagle3.loading import build_draft  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


def _cast_d2t(root: Path, dtype) -> torch.Tensor:
    """Rewrite the draft with d2t in ``dtype``, as a whole-state-dict cast leaves it; returns
    the int64 d2t speculators saved."""
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    saved = tensors["d2t"].clone()
    tensors["d2t"] = saved.to(dtype)
    save_file(tensors, str(path), {"format": "pt"})
    return saved


@pytest.mark.parametrize("dtype, name", [(torch.float32, "F32"), (torch.bfloat16, "BF16")])
def test_a_float_d2t_whose_offsets_are_exact_is_named_for_sglang(tmp_path, dtype, name):
    root = tmp_path / "world"
    save_verifier_and_draft(root)
    assert check_drafter_vocab(root / "draft", root / "target")["ok"]
    saved = _cast_d2t(root, dtype)
    assert int(saved.abs().max()) <= 256  # exact in both types: nothing was rounded

    report = check_drafter_vocab(root / "draft", root / "target")
    assert report["ok"] is False
    issues = [issue for check in report["checks"] for issue in check["issues"]]
    [issue] = issues
    assert (issue["kind"], issue["code"]) == ("d2t_float", "SD302")
    assert issue["facts"]["dtype"] == name and issue["facts"]["rounded"] is False
    assert issue["message"].startswith(f"d2t is stored as {name}, not an integer type")
    assert "SGLang adds arange(DV) to d2t" in issue["message"]
    assert issue["message"].endswith("save d2t as int64 (d2t.long())")

    # the run itself reads the exact offsets, not a map rebuilt from t2d
    loaded = build_draft(open_draft(root / "draft"), target=open_target(root / "target"))
    assert loaded.model.d2t.dtype == torch.int64 and torch.equal(loaded.model.d2t.cpu(), saved)
    assert not any("rebuilt from t2d" in note for note in loaded.notes), loaded.notes
