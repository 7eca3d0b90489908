"""--vocab-mapping with a d2t file saved in an integer type too narrow for the target's offsets
(d2t.npy as uint16/int8, a vocab_mapping.pt cast to int16): the file was read as int64 without a
word, its wrapped offsets scored, and `drafter vocab` blamed the checkpoint ("the checkpoint's
d2t differs from the training's map"). The file's own d2t_narrow line (SD302) now names it, as
the checkpoint's d2t gets (vocab.narrow_d2t_issue)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
if not hasattr(torch, "uint16"):
    pytest.skip("torch without uint16", allow_module_level=True)

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from spec_debug.eagle3.vocab import check_vocab_maps  # noqa: E402
from spec_debug.eagle3.vocab_mapping import read_vocab_mapping  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402
from tests.eagle3.speculators_world import DV, V  # noqa: E402

runner = CliRunner()
world = informative_world("hardening68-narrow-map", seed=684)


def _llama3_maps():
    big_v, big_dv = 128256, 32000
    selected = torch.randperm(big_v, generator=torch.Generator().manual_seed(1))[:big_dv].sort().values
    t2d = torch.zeros(big_v, dtype=torch.bool)
    t2d[selected] = True
    return selected - torch.arange(big_dv), t2d, big_v, big_dv


@pytest.mark.parametrize("dtype,name", [(np.uint16, "U16"), (np.int16, "I16")])
def test_a_narrow_npy_map_keeps_its_stored_type(tmp_path, dtype, name):
    d2t, t2d, big_v, big_dv = _llama3_maps()
    np.save(tmp_path / "d2t.npy", d2t.numpy().astype(dtype))
    np.save(tmp_path / "t2d.npy", t2d.numpy())
    mapping = read_vocab_mapping(tmp_path / "d2t.npy", draft_vocab_size=big_dv, vocab_size=big_v)
    assert mapping.d2t_dtype == {"U16": "torch.uint16", "I16": "torch.int16"}[name]
    report = check_vocab_maps(d2t=mapping.d2t, t2d=mapping.t2d, target_vocab_size=big_v,
                              draft_vocab_size=big_dv, d2t_dtype=mapping.d2t_dtype)
    assert [i.facts["dtype"] for i in report.issues if i.kind == "d2t_narrow"] == [name]


def test_an_int64_map_has_its_type_and_no_narrow_line(tmp_path):
    d2t, t2d, big_v, big_dv = _llama3_maps()
    torch.save({"d2t": d2t, "t2d": t2d}, tmp_path / "vocab_mapping.pt")
    mapping = read_vocab_mapping(tmp_path / "vocab_mapping.pt", draft_vocab_size=big_dv, vocab_size=big_v)
    assert mapping.d2t_dtype == "torch.int64"
    report = check_vocab_maps(d2t=mapping.d2t, t2d=mapping.t2d, target_vocab_size=big_v,
                              draft_vocab_size=big_dv, d2t_dtype=mapping.d2t_dtype)
    assert list(report.issues) == []


def _top_ids_map(root: Path, dtype) -> Path:
    """A map of the target's top DV ids (every offset V - DV = 128), saved in ``dtype``."""
    selected = torch.arange(V - DV, V)
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[selected] = True
    folder = root / "map"
    folder.mkdir()
    np.save(folder / "d2t.npy", (selected - torch.arange(DV)).numpy().astype(dtype))
    np.save(folder / "t2d.npy", t2d.numpy())
    return folder / "d2t.npy"


def _vocab(root: Path, mapping: Path) -> dict:
    result = runner.invoke(drafter_app, ["vocab", "--model", str(root / "draft"), "--target",
                                         str(root / "target"), "--vocab-mapping", str(mapping), "--json"])
    assert "Traceback" not in result.output, result.output
    return {"exit": result.exit_code, **json.loads(result.output)}


def test_drafter_vocab_names_the_map_files_narrow_type(world, tmp_path):
    root = tmp_path / "world"
    shutil.copytree(world, root)
    assert V - DV == 128  # past int8's 127: every offset wraps to -128
    path = _top_ids_map(root, np.int8)
    out = _vocab(root, path)
    assert out["exit"] == 1
    (check,) = [c for c in out["checks"] if c["name"] == "vocab_mapping"]
    narrow = [i for i in check["issues"] if i["kind"] == "d2t_narrow"]
    assert [(i["code"], i["message"]) for i in narrow] == [(
        "SD302", f"{path}: d2t is stored as I8, which holds offsets only up to 127; a map of "
        f"{DV} of this target's {V} ids needs offsets up to 128, and those above 127 were wrapped "
        "(kept modulo 256), so draft ids map to wrong target ids (a whole-state-dict dtype cast): "
        "save d2t as int64 (t2d.nonzero() - arange(DV))")]


def test_drafter_vocab_an_int64_map_file_has_no_narrow_line(world, tmp_path):
    root = tmp_path / "world"
    shutil.copytree(world, root)
    out = _vocab(root, _top_ids_map(root, np.int64))
    (check,) = [c for c in out["checks"] if c["name"] == "vocab_mapping"]
    assert "d2t_narrow" not in {i["kind"] for i in check["issues"]}
