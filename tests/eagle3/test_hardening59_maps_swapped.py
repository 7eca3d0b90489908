"""A speculators draft whose d2t and t2d were saved under each other's names (a hand-written
export): `drafter vocab` said 'd2t has 256 entries, draft vocab is 128 ... save d2t again from
it (d2t = t2d.nonzero() - arange(DV))' (nonsense: that t2d holds offsets), a t2d length fault,
a twice-mapped d2t, and an lm_head_map mismatch, four lines for one fault. It now says, once,
that the two are swapped and how to save them, and judges the maps by what they hold. The
world is saved by transformers and speculators 0.9.0; the two tensors are then renamed."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from tests.eagle3.speculators_world import save_informative_world  # noqa: E402
from tests.ssh.test_fleet_faults import assert_clean_cli  # noqa: E402


def _swapped(root):
    path = root / "draft" / "model.safetensors"
    weights = load_file(str(path))
    weights["d2t"], weights["t2d"] = weights["t2d"], weights["d2t"]
    save_file(weights, str(path), metadata={"format": "pt"})
    return root


def test_swapped_maps_are_one_issue_naming_the_swap(cli, tmp_path):
    root = _swapped(save_informative_world(tmp_path / "w", seed=0))
    result = cli("drafter", "vocab", "--model", str(root / "draft"), "--json")
    assert_clean_cli(result)
    assert result.code == 1
    report = json.loads(result.stdout)
    issues = [issue for check in report["checks"] for issue in check["issues"]]
    assert [(i["kind"], i["code"]) for i in issues] == [("maps_swapped", "SD302")], issues
    assert "saved under each other's names" in issues[0]["message"]
    assert "nonzero" not in issues[0]["message"]


def test_swapped_maps_are_named_by_eval(cli, tmp_path):
    root = _swapped(save_informative_world(tmp_path / "w", seed=0))
    result = cli("drafter", "eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                 "--json")
    assert_clean_cli(result)
    notes = json.loads(result.stdout)["notes"]
    assert any("d2t and t2d are saved under each other's names" in n for n in notes), notes
    assert not any("t2d.nonzero()" in n for n in notes), notes


def test_speculators_own_maps_are_not_called_swapped(cli, tmp_path):
    root = save_informative_world(tmp_path / "w", seed=0)
    result = cli("drafter", "vocab", "--model", str(root / "draft"), "--json")
    assert_clean_cli(result)
    assert result.code == 0, result.stdout


def test_swapped_names_in_a_vocab_mapping_file_are_one_clear_error(cli, tmp_path):
    """--vocab-mapping of a torch.save({"d2t": t2d, "t2d": d2t}) of speculators' own maps was
    refused as 'd2t has 256 entries ...: a map built for another draft vocab size'."""
    import torch

    root = save_informative_world(tmp_path / "w", seed=0)
    weights = load_file(str(root / "draft" / "model.safetensors"))
    mapping = tmp_path / "vocab_mapping.pt"
    torch.save({"d2t": weights["t2d"], "t2d": weights["d2t"]}, mapping)
    result = cli("drafter", "vocab", "--model", str(root / "draft"), "--vocab-mapping", str(mapping))
    assert_clean_cli(result)
    assert result.code == 2
    assert f"{mapping}: d2t and t2d are saved under each other's names" in result.stderr
    assert "another draft vocab size" not in result.stderr
