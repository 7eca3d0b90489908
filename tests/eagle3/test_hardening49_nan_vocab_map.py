"""A speculators draft whose export cast the whole state dict to floats, and whose d2t then
held NaN (or a value that is no whole number): `drafter eval` and `drafter vocab` stopped with
"unexpected ValueError: cannot convert float NaN to integer" and a plea to report a bug. Each
command now says which map, in which file, holds what, and how to save it again."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from tests.conftest import run_cli  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def _damage(root, name: str, value: float) -> None:
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    damaged = tensors[name].float()
    damaged[5] = value
    tensors[name] = damaged
    save_file(tensors, str(path), {"format": "pt"})


@pytest.mark.parametrize(("name", "value", "said"), [
    ("d2t", math.nan, "d2t is stored as float32 and holds NaN or Inf (1 of 128 entries, first at index 5: nan)"),
    ("d2t", 3.5, "d2t is stored as float32 and holds values that are not whole numbers (1 of 128 entries"),
    ("t2d", math.inf, "t2d is stored as float32 and holds NaN or Inf (1 of 256 entries, first at index 5: inf)"),
])
@pytest.mark.parametrize("command", ["eval", "vocab"])
def test_a_map_that_is_no_map_is_said_not_crashed_on(tmp_path, name, value, said, command):
    root = save_informative_world(tmp_path / "world", seed=3)
    _damage(root, name, value)
    args = ["drafter", command, "--model", str(root / "draft")]
    if command == "eval":
        args += ["--data", str(root / "data")]
    result = run_cli(*args)
    out = result.stdout + result.stderr
    assert result.code == 2, out
    assert "unexpected" not in out and "Traceback" not in out
    assert f"{root / 'draft' / 'model.safetensors'}: {said}" in " ".join(out.split())
    assert f"save {name} again from the training's vocab map, as int64" in " ".join(out.split())


def test_a_float_map_of_whole_numbers_still_evaluates(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=3)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    tensors["d2t"] = tensors["d2t"].float()
    save_file(tensors, str(path), {"format": "pt"})
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data", str(root / "data"), "--json")
    assert result.code == 0, result.stderr
