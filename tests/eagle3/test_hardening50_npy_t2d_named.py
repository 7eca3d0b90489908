"""speculators saves its maps as a pair, d2t-<DV>.npy and t2d-<DV>.npy. A t2d that does not fit
(another target's, or one holding ids) was reported under the d2t file's name, "d2t-64.npy: t2d
has ... entries", sending the user to the file that was right."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from tests.eagle3.speculators_world import DV, V  # noqa: E402
from tests.eagle3.test_hardening8_vocab_mapping import _copy, _run, _take_maps, world  # noqa: E402,F401


@pytest.mark.parametrize("bad_t2d, message", [
    (lambda t2d: torch.cat([t2d, t2d]), f"t2d has {2 * V} entries, the target vocab is {V}"),
    (lambda t2d: t2d.nonzero().reshape(-1), f"t2d holds {DV} target ids (ascending)"),
], ids=["other-target", "ids"])
def test_a_bad_npy_t2d_is_named_itself(world, tmp_path, bad_t2d, message):
    root = _copy(world, tmp_path)
    d2t, t2d = _take_maps(root)
    d2t_file, t2d_file = root / "data" / f"d2t-{DV}.npy", root / "data" / f"t2d-{DV}.npy"
    np.save(d2t_file, d2t.numpy())
    np.save(t2d_file, bad_t2d(t2d).numpy())
    for given in (d2t_file, t2d_file):
        result = _run("vocab", "--model", str(root / "draft"), "--target", str(root / "target"),
                      "--vocab-mapping", str(given))
        said = " ".join(result.output.split())
        assert result.exit_code == 2, result.output
        assert f"{t2d_file}: {message}" in said
        assert f"{d2t_file}: t2d" not in said
