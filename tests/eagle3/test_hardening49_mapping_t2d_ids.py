"""A training's vocab map file (--vocab-mapping) whose t2d holds the selected target ids
(`t2d = selected`, as hand-written exporters store it) rather than the [V] mask: `drafter eval`
and `drafter vocab` said "t2d has 128 entries, the target vocab is 256: a map built for another
target", sending the user after another target. They now say what t2d holds and how to save
it as the mask. (The checkpoint's own t2d of ids is an SD303 line already.)"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file  # noqa: E402

from tests.conftest import run_cli  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.mark.parametrize("command", ["eval", "vocab"])
def test_a_map_file_whose_t2d_holds_ids_is_named_so(tmp_path, command):
    root = save_informative_world(tmp_path / "world", seed=3)
    saved = load_file(str(root / "draft" / "model.safetensors"))
    mapping = tmp_path / "vocab_mapping.pt"
    torch.save({"d2t": saved["d2t"], "t2d": saved["t2d"].nonzero().flatten()}, mapping)
    args = ["drafter", command, "--model", str(root / "draft"), "--vocab-mapping", str(mapping)]
    if command == "eval":
        args += ["--data", str(root / "data")]
    result = run_cli(*args)
    out = " ".join((result.stdout + result.stderr).split())
    assert result.code == 2, out
    assert (f"{mapping}: t2d holds 128 target ids (ascending), not a mask of one entry per target token (256)"
            in out)
    assert "t2d = torch.zeros(256, dtype=torch.bool); t2d[ids] = True" in out
    assert "another target" not in out


def test_a_map_file_of_another_target_is_still_said_so(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=3)
    saved = load_file(str(root / "draft" / "model.safetensors"))
    mapping = tmp_path / "vocab_mapping.pt"
    torch.save({"d2t": saved["d2t"], "t2d": torch.cat([saved["t2d"], torch.zeros(44, dtype=torch.bool)])}, mapping)
    result = run_cli("drafter", "vocab", "--model", str(root / "draft"), "--vocab-mapping", str(mapping))
    assert "t2d has 300 entries, the target vocab is 256: a map built for another target" in " ".join(
        (result.stdout + result.stderr).split())
