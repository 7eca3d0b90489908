"""Two hidden-state dumps that are no dumps were scored as if they were: token ids saved as
bool (a mask under the ids' key) read as ids 0 and 1, and a loss_mask of NaN (a float buffer
saved before it was filled) passed the 0..1 range test (NaN compares false both ways) and
bool(NaN) scored every position. `drafter eval` printed an accept length for either, with no
word. Each sample is now skipped with a line that says what is wrong and how to save it."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from tests.conftest import run_cli  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def _rewrite(root, change) -> None:
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        change(tensors)
        save_file(tensors, str(path))


@pytest.mark.parametrize(("change", "said"), [
    (lambda t: t.__setitem__("token_ids", t["token_ids"] > 100),
     "token_ids is stored as bool (true/false, not token ids): a mask saved under the ids' key"),
    (lambda t: t.__setitem__("loss_mask", torch.full((len(t["token_ids"]),), float("nan"))),
     "loss_mask holds NaN or Inf (14 of 14 entries): it is no mask"),
])
def test_a_sample_that_is_no_sample_is_said_not_scored(tmp_path, change, said):
    root = save_informative_world(tmp_path / "world", seed=3)
    _rewrite(root, change)
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data", str(root / "data"))
    out = " ".join((result.stdout + result.stderr).split())
    assert result.code == 2, out
    assert f"{root / 'data' / 'hs_0.safetensors'}: {said}" in out
    assert "expected accept length" not in out


def test_a_partial_nan_mask_skips_only_its_sample(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=3)
    path = root / "data" / "hs_1.safetensors"
    tensors = load_file(str(path))
    mask = torch.ones(len(tensors["token_ids"]))
    mask[4] = float("nan")
    save_file({**tensors, "loss_mask": mask}, str(path))
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data", str(root / "data"))
    out = " ".join((result.stdout + result.stderr).split())
    assert result.code == 0, out
    assert "samples 2" in out and "loss_mask holds NaN or Inf (1 of 15 entries)" in out
