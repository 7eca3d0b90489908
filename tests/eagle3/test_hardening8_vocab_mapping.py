"""`--vocab-mapping`: the training's vocab map file beside a draft whose checkpoint lost its
maps or carries other ones.

SpecForge writes `torch.save({"d2t", "t2d"})` to `<cache_dir>/vocab_mapping/<key>.pt`
(specforge/data/preprocessing.py generate_vocab_mapping_file); speculators caches
`d2t-<DV>.npy` / `t2d-<DV>.npy` beside its data (src/speculators/train/cli.py). An export
that keeps only `*.weight` tensors drops d2t and t2d; a map regenerated when training resumed
differs from the one the lm_head rows follow (sgl-project/SpecForge#534). The world is saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py) and every test runs the command a user
types.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
from safetensors.torch import load_file, save_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3._world import informative_world
from tests.eagle3.speculators_world import DV, V

runner = CliRunner()


world = informative_world("hardening8", seed=8)


@pytest.fixture(scope="module")
def trained(world) -> dict:
    """The undamaged draft's evaluation: what the right maps give."""
    return _eval(world)


def _run(*args: str):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def _eval(root: Path, *extra: str) -> dict:
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"), *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _copy(world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root


def _take_maps(root: Path, replace: dict | None = None) -> tuple:
    """Remove d2t/t2d from the draft's model.safetensors (or put `replace` there instead);
    returns the maps it held."""
    path = root / "draft" / "model.safetensors"
    state = load_file(path)
    d2t, t2d = state.pop("d2t"), state.pop("t2d")
    state.update(replace or {})
    save_file(state, str(path), metadata={"format": "pt"})
    return d2t, t2d


def _same_scores(got: dict, expected: dict) -> None:
    for key in ("full_accuracy", "target_acceptance", "expected_accept_length"):
        assert got[key] == expected[key], key


def test_specforge_map_beside_a_draft_exported_without_its_maps(world, trained, tmp_path):
    """Before: no way to give the map (`No such option: --vocab-mapping`); the draft scored as
    an engine serves it, draft id i read as target id i. Now the SpecForge cache directory
    gives the trained scores, and SD301 still says the checkpoint itself lacks d2t."""
    root = _copy(world, tmp_path)
    d2t, t2d = _take_maps(root)
    cache = root / "cache" / "vocab_mapping"
    cache.mkdir(parents=True)
    torch.save({"d2t": d2t, "t2d": t2d}, cache / "3f9a2c.pt")

    served = _eval(root)
    assert served["target_acceptance"][0] < trained["target_acceptance"][0] - 0.2
    result = _eval(root, "--vocab-mapping", str(root / "cache"))
    _same_scores(result, trained)
    assert result["vocab_mapping"] == str(cache / "3f9a2c.pt")
    assert [i["code"] for i in result["vocab_issues"]] == ["SD301"]
    assert any("has no d2t: scored with the maps of" in n for n in result["notes"])


def test_speculators_npy_maps_given_by_their_t2d_file(world, trained, tmp_path):
    """speculators' cache pair d2t-<DV>.npy / t2d-<DV>.npy beside the dump: the evaluation
    without the option names it; the t2d file named by mistake finds its d2t beside it."""
    root = _copy(world, tmp_path)
    d2t, t2d = _take_maps(root)
    np.save(root / "data" / f"d2t-{DV}.npy", d2t.numpy())
    np.save(root / "data" / f"t2d-{DV}.npy", t2d.numpy())
    hint = (f"{root / 'data' / f'd2t-{DV}.npy'} looks like the training's vocab map: pass "
            "--vocab-mapping")
    assert any(hint in note for note in _eval(root)["notes"])
    _same_scores(_eval(root, "--vocab-mapping", str(root / "data" / f"t2d-{DV}.npy")), trained)
    _same_scores(_eval(root, "--vocab-mapping", str(root / "data")), trained)


def test_checkpoint_map_regenerated_on_resume_is_named(world, trained, tmp_path):
    """The checkpoint carries a valid but different map (another token selection, as a
    resumed SpecForge run regenerates it): it passes every shape and bijection check, and
    only the draft's frozen lm_head rows (copied from the target rows of the training's map)
    tell it: `vocab` alone fails with SD302 d2t_misaligns_lm_head. With the training's map
    file `vocab` fails with SD302 naming the first differing draft id (that file's map fits
    the rows), and `eval` scores the draft as trained."""
    root = _copy(world, tmp_path)
    generator = torch.Generator().manual_seed(1)
    selected = torch.sort(torch.randperm(V, generator=generator)[:DV]).values
    other_t2d = torch.zeros(V, dtype=torch.bool)
    other_t2d[selected] = True
    d2t, t2d = _take_maps(root, {"d2t": selected - torch.arange(DV), "t2d": other_t2d})
    torch.save({"d2t": d2t, "t2d": t2d}, root / "vocab_mapping.pt")

    alone = _run("vocab", "--model", str(root / "draft"), "--target", str(root / "target"))
    assert alone.exit_code == 1, alone.output
    alone_issues = [i for c in json.loads(alone.output)["checks"] for i in c["issues"]]
    assert [(i["code"], i["kind"]) for i in alone_issues] == [("SD302", "d2t_misaligns_lm_head")]
    checked = _run("vocab", "--model", str(root / "draft"), "--target", str(root / "target"),
                   "--vocab-mapping", str(root / "vocab_mapping.pt"))
    assert checked.exit_code == 1, checked.output
    report = json.loads(checked.output)
    first = int((selected - torch.arange(DV) != d2t).nonzero()[0])
    issues = [i for c in report["checks"] for i in c["issues"]]
    assert [(i["code"], i["kind"]) for i in issues] == [("SD302", "d2t_not_training_map")]
    assert f"first at draft id {first}" in issues[0]["message"]

    served = _eval(root)
    assert served["target_acceptance"][0] < trained["target_acceptance"][0] - 0.2
    result = _eval(root, "--vocab-mapping", str(root / "vocab_mapping.pt"))
    _same_scores(result, trained)
    assert "d2t_not_training_map" in [i["kind"] for i in result["vocab_issues"]]


@pytest.mark.parametrize("damage, message", [
    (lambda d2t, t2d: {"d2t": d2t[: DV // 2], "t2d": t2d},
     (f"d2t has {DV // 2} entries, the draft's lm_head has {DV} rows: a map built for another "
      "draft vocab size")),
    (lambda d2t, t2d: {"d2t": d2t, "t2d": torch.cat([t2d, t2d])},
     f"t2d has {2 * V} entries, the target vocab is {V}: a map built for another target"),
    (lambda d2t, t2d: {"draft_to_target": d2t},
     "not a vocab mapping (expected a dict with d2t and t2d"),
    (None, "cannot read the vocab mapping: truncated"),
], ids=["other-draft-vocab", "other-target", "other-keys", "cut-copy"])
def test_a_map_that_does_not_fit_is_one_line(world, tmp_path, damage, message):
    root = _copy(world, tmp_path)
    d2t, t2d = _take_maps(root)
    path = root / "vocab_mapping.pt"
    torch.save(damage(d2t, t2d) if damage else {"d2t": d2t, "t2d": t2d}, path)
    if damage is None:
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    for command in (["eval", "--data", str(root / "data")], ["vocab"]):
        result = _run(*command, "--model", str(root / "draft"), "--target", str(root / "target"),
                      "--vocab-mapping", str(path))
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split())


def test_a_map_file_of_absolute_ids_is_flagged_itself(world, tmp_path):
    """A map file whose d2t holds the selected target ids, not offsets (verl-project/
    verl-SpeCo#67): scoring with it is no fix, and the checks say why, naming the file."""
    root = _copy(world, tmp_path)
    d2t, t2d = _take_maps(root)
    path = root / "vocab_mapping.pt"
    torch.save({"d2t": d2t + torch.arange(DV), "t2d": t2d}, path)
    result = _eval(root, "--vocab-mapping", str(path))
    kinds = {(i["code"], i["kind"]) for i in result["vocab_issues"]
             if i["message"].startswith(str(path))}
    assert ("SD302", "d2t_not_offsets") in kinds, result["vocab_issues"]
    checked = _run("vocab", "--model", str(root / "draft"), "--target", str(root / "target"),
                   "--vocab-mapping", str(path))
    assert checked.exit_code == 1
    assert "d2t_not_offsets" in {i["kind"] for c in json.loads(checked.output)["checks"]
                                 for i in c["issues"]}
