"""A plain (EAGLE/SpecForge-format) draft config holding only AngelSlim's key
(aux_hidden_states_layer_ids, output-of: Tencent/AngelSlim angelslim/compressor/speculative/
train/models/target/target_model_wrapper.py captures hidden_states[layer_id + 1]) was read by
the configs step (engines.trained_layer_ids reads the key first), yet `drafter eval` and
`drafter layout` took DraftConfig.aux_layer_ids None as "the config names no ids": with a
depth they said "engines feed it their default layers [1, 3, 5]" about the AngelSlim layers,
without one they fell back to the default layout. Now both read the key as the configs step
does.

World: a Llama verifier and draft saved by speculators 0.9.0 and transformers, the draft as
SpecForge saves it (tests/eagle3/test_hardening59_drafter_nested_embedding_id.py), a dump of
every layer input plus the final pre-norm state, named and unnamed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.test_hardening59_drafter_nested_embedding_id import world  # noqa: E402,F401
from tests.eagle3.test_hardening60_no_target_nested_ids import _unnamed  # noqa: E402

runner = CliRunner()
ANGELSLIM = "aux_hidden_states_layer_ids"


def _angelslim_only(world: Path, ids: list[int], name: str) -> Path:
    draft = world / name
    if not draft.exists():
        shutil.copytree(world / "eagle", draft)
    config = json.loads((draft / "config.json").read_text())
    config[ANGELSLIM] = ids
    (draft / "config.json").write_text(json.dumps(config))
    return draft


def _run(args):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_eval_reads_the_angelslim_ids_without_a_depth(world):
    # [0, 2, 4] output-of = layer-inputs [1, 3, 5]: with no target and a dump that names no
    # layers, eval said nothing of them and fed the first three slots as for a config naming none
    draft = _angelslim_only(world, [0, 2, 4], "angelslim_024")
    report = _run(["eval", "--model", str(draft), "--data", str(_unnamed(world)), "--no-verifier",
                   "--steps", "1"])
    said = [n for n in report["notes"] if "if it holds every layer" in n]
    assert len(said) == 1, report["notes"]
    assert "the configured ids [1, 3, 5] are slots 1,3,5 (with the embedding output first)" in said[0]


def test_layout_scores_the_angelslim_layers_without_a_depth(world):
    draft = _angelslim_only(world, [0, 2, 4], "angelslim_024")
    report = _run(["layout", "--model", str(draft), "--data", str(_unnamed(world)), "--no-verifier"])
    print(report["notes"], [r["layout"] for r in report["ranked"]])
    assert (1, 3, 5) in {tuple(r["layout"]) for r in report["ranked"]}


def test_with_a_depth_the_angelslim_ids_are_not_called_assumed(world):
    draft = _angelslim_only(world, [0, 2, 4], "angelslim_024")
    report = _run(["eval", "--model", str(draft), "--data", str(world / "wide"),
                   "--target", str(world / "target"), "--steps", "1"])
    assert report["layout_layer_ids"] == [1, 3, 5]
    assert not any("names no eagle_aux_hidden_state_layer_ids" in n for n in report["notes"])
