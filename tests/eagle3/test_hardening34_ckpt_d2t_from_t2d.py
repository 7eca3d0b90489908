"""A speculators 0.9.0 draft exported with t2d but without d2t (a script that kept the mask it
trained with and dropped the offsets). SD301 said engines read draft id i as target id i, but
not that the map it needs is in the file already; now the line says how to rebuild d2t, and
the rebuilt map is the one speculators saved."""

from __future__ import annotations

import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import DV  # noqa: E402
from tests.eagle3.test_hardening34_ckpt_vocab_target import saved  # noqa: E402,F401


def _sd301(report: dict) -> str:
    [check] = [c for c in report["checks"] if c["name"] == "d2t_present"]
    [issue] = check["issues"]
    assert issue["code"] == "SD301"
    return issue["message"]


def test_a_draft_with_t2d_and_no_d2t_is_told_how_to_rebuild_it(saved, tmp_path):
    draft = tmp_path / "draft"
    shutil.copytree(saved / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    d2t = tensors.pop("d2t")
    save_file(tensors, str(draft / "model.safetensors"), {"format": "pt"})
    message = _sd301(check_drafter_vocab(draft, saved / "target"))
    assert message.endswith(f"; the checkpoint's t2d selects the {DV} draft ids: save d2t = "
                            f"t2d.nonzero().squeeze(1) - arange({DV}) (int64) beside it")
    # the recipe gives back the map speculators saved
    t2d = tensors["t2d"]
    assert torch.equal(t2d.nonzero().squeeze(1) - torch.arange(DV), d2t)


def test_without_t2d_either_there_is_nothing_to_rebuild_from(saved, tmp_path):
    draft = tmp_path / "draft"
    shutil.copytree(saved / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    del tensors["d2t"], tensors["t2d"]
    save_file(tensors, str(draft / "model.safetensors"), {"format": "pt"})
    assert "t2d" not in _sd301(check_drafter_vocab(draft, saved / "target"))
