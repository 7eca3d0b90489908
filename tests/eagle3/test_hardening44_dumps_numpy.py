"""Hidden states dumped with numpy (np.save per array, np.savez per sample). A folder of them
got "no hs_*.safetensors or data_*.ckpt files" with the hint "point --data at the
hidden-state dump directory", which it was; one such file passed as --data was called "not a
torch.save of tensors: it pickles other objects" (.npy, no pickle at all) or "cannot read
([enforce fail at inline_container.cc:180] ...)" (.npz). Now both say they are numpy files,
which the drafter does not read, and how to convert them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from safetensors.torch import load_file

from tests.eagle3._world import drafter_error, informative_world

world = informative_world("h44_numpy", seed=44)

CONVERT = "convert each sample: safetensors.torch.save_file({'token_ids': torch.from_numpy(ids)"


def _numpy_dump(world: Path, out: Path, *, savez: bool) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids, states = tensors["token_ids"].numpy(), tensors["hidden_states"].float().numpy()
        if savez:
            np.savez(out / f"hs_{i}.npz", token_ids=ids, hidden_states=states)
        else:
            np.save(out / f"ids_{i}.npy", ids)
            np.save(out / f"hs_{i}.npy", states)
    return out


def test_a_folder_of_npy_files_is_named_with_the_conversion(world, tmp_path):
    message = drafter_error(world, _numpy_dump(world, tmp_path / "npy", savez=False))
    assert "it holds 6 numpy file(s) (e.g. hs_0.npy), which the drafter does not read" in message
    assert CONVERT in message, message
    assert "point --data at the hidden-state dump directory" not in message


def test_one_npz_file_as_data_is_named_a_numpy_file(world, tmp_path):
    data = _numpy_dump(world, tmp_path / "npz", savez=True)
    message = drafter_error(world, data / "hs_1.npz")
    assert "hs_1.npz: a numpy file (np.savez), not a hidden-state sample" in message, message
    assert CONVERT in message and "enforce fail" not in message


def test_one_npy_file_as_data_is_not_called_a_pickle(world, tmp_path):
    data = _numpy_dump(world, tmp_path / "npy", savez=False)
    message = drafter_error(world, data / "hs_0.npy")
    assert "hs_0.npy: a numpy file (np.save), not a hidden-state sample" in message, message
    assert "pickles other objects" not in message
