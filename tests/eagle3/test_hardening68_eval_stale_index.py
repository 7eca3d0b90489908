"""`drafter eval` and `drafter layout` on a draft whose model.safetensors.index.json names no
shard that is there (beside the model.safetensors that holds its weights): `drafter vocab` fails
it as SD710 (vLLM and SGLang load no weights from the folder), while eval and layout said it
only as an uncoded note, beside vocab_issues that name SD301-SD303. Their vocab_issues now carry
the same SD710 issue (beside the note on the files, as `drafter vocab` gives both)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors import safe_open  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()
world = informative_world("hardening68-eval-stale-index", seed=685)


def _stale(tmp_path: Path, world: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(world, root)
    draft = root / "draft"
    with safe_open(str(draft / "model.safetensors"), framework="pt") as handle:
        names = list(handle.keys())
    (draft / "model.safetensors.index.json").write_text(json.dumps({
        "metadata": {}, "weight_map": {n: f"model-0000{1 + i % 2}-of-00002.safetensors"
                                       for i, n in enumerate(names)}}))
    return root


def _run(*args: str) -> dict:
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_eval_names_sd710(world, tmp_path):
    root = _stale(tmp_path, world)
    out = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
               "--target", str(root / "target"))
    index = root / "draft" / "model.safetensors.index.json"
    stale = [i for i in out["vocab_issues"] if i["code"] == "SD710"]
    assert [(i["kind"], i["message"].split(" names ")[0]) for i in stale] == [("stale_index", str(index))]
    said = [n for n in out["notes"] if n.startswith("SD710: ")]
    assert said == [f"SD710: {stale[0]['message']}"], said


def test_eval_of_a_clean_draft_has_no_sd710(world, tmp_path):
    root = tmp_path / "world"
    shutil.copytree(world, root)
    out = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
               "--target", str(root / "target"))
    assert [i for i in out["vocab_issues"] if i["code"] == "SD710"] == []


def test_layout_names_sd710(world, tmp_path):
    root = _stale(tmp_path, world)
    out = _run("layout", "--model", str(root / "draft"), "--data", str(root / "data"),
               "--target", str(root / "target"))
    index = root / "draft" / "model.safetensors.index.json"
    said = [n for n in out["notes"] if n.startswith("SD710: ")]
    assert len(said) == 1 and said[0].startswith(f"SD710: {index} names no weight file"), said
