"""A draft's pytorch_model.bin torch.save'd by a newer torch than the host's names a global this
torch lacks (a rebuild function or dtype a later torch added). `drafter eval` / `layout` said
"not a plain state dict of tensors: it pickles torch._utils._rebuild_tensor_v9 (torch.save of
a whole module or a training object ...)" with a hint to re-save the state dict: the file is
one, and the fix is a newer torch. The draft checkpoint loader now says so, with the helper the
hidden-state reader uses (checkpoint.torch_lacks). The file here is the world's draft saved by
this torch, with the rebuild global renamed to one this torch does not have (as an older
torch sees a newer one's)."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest
from safetensors.torch import load_file

from spec_debug.eagle3.checkpoint import CheckpointError, _load_bin
from spec_debug.eagle3.commands import drafter_app
from tests.eagle3._world import informative_world, runner, torch

world = informative_world("h72_newer_torch_draft_bin", seed=72)

HINT = ("hint: read it with a torch at least as new as the one that saved it (upgrade torch "
        "where spec-debug runs), or save the weights with save_pretrained (safetensors)")


def _bin_draft(world: Path, out: Path, old: bytes, new: bytes) -> Path:
    out.mkdir()
    shutil.copy(world / "draft" / "config.json", out / "config.json")
    buffer = io.BytesIO()
    torch.save(load_file(str(world / "draft" / "model.safetensors")), buffer)
    saved = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    renamed = io.BytesIO()
    with zipfile.ZipFile(renamed, "w", zipfile.ZIP_STORED) as archive:
        for info in saved.infolist():
            data = saved.read(info.filename)
            if info.filename.endswith("data.pkl"):
                assert old in data
                data = data.replace(old, new)
            archive.writestr(info, data)
    (out / "pytorch_model.bin").write_bytes(renamed.getvalue())
    return out


def _said(world: Path, model: Path, command: str) -> str:
    extra = ["--steps", "2"] if command == "eval" else []
    result = runner.invoke(drafter_app, [command, "--model", str(model), "--data",
                                         str(world / "data"), "--target", str(world / "target"),
                                         *extra])
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize("command", ["eval", "layout"])
def test_a_draft_bin_from_a_newer_torch_is_said_so(world, tmp_path, command):
    model = _bin_draft(world, tmp_path / "newer", b"torch._utils\n_rebuild_tensor_v2\n",
                       b"torch._utils\n_rebuild_tensor_v9\n")
    said = _said(world, model, command)
    assert (f"newer/pytorch_model.bin: it names torch._utils._rebuild_tensor_v9, which this "
            f"torch ({torch.__version__}) does not have: the file was saved by a newer torch "
            + HINT) in said, said
    assert "pickles" not in said and "whole module" not in said, said


def test_a_module_pickled_is_still_called_so(tmp_path):
    # a global this torch has (a module class) is other objects, as before
    binary = tmp_path / "pytorch_model.bin"
    torch.save({"fc": torch.nn.Linear(2, 2)}, binary)
    with pytest.raises(CheckpointError) as caught:
        _load_bin(binary)
    assert "it pickles torch.nn.modules.linear.Linear (torch.save of a whole module" \
        in caught.value.message, caught.value.message


def test_the_same_draft_bin_as_saved_is_read(world, tmp_path):
    model = _bin_draft(world, tmp_path / "plain", b"torch._utils\n_rebuild_tensor_v2\n",
                       b"torch._utils\n_rebuild_tensor_v2\n")
    state = _load_bin(model / "pytorch_model.bin")
    assert set(state) == set(load_file(str(world / "draft" / "model.safetensors")))
