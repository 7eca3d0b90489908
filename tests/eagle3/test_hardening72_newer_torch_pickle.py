"""A sample torch.save'd by a newer torch than the host's names a global this torch lacks (a
uint16 tensor is pickled as torch._utils._rebuild_tensor_v3 with the dtype global torch.uint16;
a torch without them refuses the file under weights_only as "Unsupported global: GLOBAL
torch.uint16"). `drafter eval` said "not a torch.save of tensors: it pickles other objects
(torch.uint16) ..." with a hint to convert numpy arrays: the file is tensors, and the fix is a
newer torch. The file here is the world's sample saved by this torch, with the dtype global
renamed to one this torch does not have (as an older torch sees a newer one's)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from safetensors.torch import load_file

from spec_debug.eagle3.data import _torch_lacks
from tests.eagle3._world import drafter_error, informative_world, torch

world = informative_world("h72_newer_torch_pickle", seed=72)


def _saved_by_newer_torch(world: Path, out: Path, missing: bytes) -> Path:
    tensors = load_file(str(world / "data" / "hs_0.safetensors"))
    h = tensors["hidden_states"]
    buffer = io.BytesIO()
    torch.save({"input_ids": tensors["token_ids"].to(torch.uint16),
                "aux_hidden_state": h[:, :-1].reshape(h.shape[0], -1), "hidden_state": h[:, -1]},
               buffer)
    saved = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    renamed = io.BytesIO()
    with zipfile.ZipFile(renamed, "w", zipfile.ZIP_STORED) as archive:
        for info in saved.infolist():
            data = saved.read(info.filename)
            if info.filename.endswith("data.pkl"):
                assert b"torch\nuint16\n" in data  # the dtype global this torch writes
                data = data.replace(b"torch\nuint16\n", b"torch\n" + missing + b"\n")
            archive.writestr(info, data)
    out.mkdir()
    (out / "data_0.ckpt").write_bytes(renamed.getvalue())
    return out


def test_a_sample_from_a_newer_torch_is_said_so(world, tmp_path):
    data = _saved_by_newer_torch(world, tmp_path / "newer", b"uint12")
    said = drafter_error(world, data)
    assert (f"data_0.ckpt: it names torch.uint12, which this torch ({torch.__version__}) does "
            "not have: the file was saved by a newer torch") in said, said
    assert ("hint: read it with a torch at least as new as the one that saved it (upgrade torch "
            "where the drafter runs), or save the sample with safetensors") in said, said
    assert "pickles other objects" not in said


@pytest.mark.parametrize(("name", "lacks"), [
    ("torch.uint12", True), ("torch._utils._rebuild_tensor_v9", True),
    ("torch.nosuchmodule.Thing", True),
    ("torch.uint16", False), ("torch._utils._rebuild_tensor_v2", False),
    ("torch.nn.modules.linear.Linear", False),  # a module pickled: other objects, as before
    ("numpy.core.multiarray._reconstruct", False), ("posix.system", False),
])
def test_what_counts_as_missing_from_this_torch(name, lacks):
    assert _torch_lacks(name) is lacks
