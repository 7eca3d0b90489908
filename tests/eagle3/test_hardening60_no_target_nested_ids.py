"""With no target and a dump that does not name its layers (speculators' hs_connectors writes
no layer_ids), `drafter eval` and `drafter layout` took a plain (EAGLE/SpecForge-format)
draft's ids exactly as written: SpecForge's eagle_config [1, 3, 5] are layer outputs,
layer-inputs [2, 4, 6] (sgl-project/sglang#25454; engines.trained_layer_ids, which every path
with a target uses), yet eval said "the configured ids [1, 3, 5] are slots 1,3,5 (with the
embedding output first)" and layout scored those slots as the config's. Now the config's ids
are read as trained_layer_ids reads them on no named target.

World: a Llama verifier and draft saved by speculators 0.9.0 and transformers, the draft as
SpecForge saves it (tests/eagle3/test_hardening59_drafter_nested_embedding_id.py), and a dump of
every layer input plus the final pre-norm state with no layer_ids metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.test_hardening59_drafter_nested_embedding_id import _with_nested, world  # noqa: E402,F401

runner = CliRunner()


def _unnamed(world: Path) -> Path:
    from safetensors import safe_open
    from safetensors.torch import save_file

    out = world / "unnamed"
    if not out.exists():
        out.mkdir()
        for path in sorted((world / "wide").glob("*.safetensors")):
            with safe_open(str(path), "pt") as f:
                tensors = {k: f.get_tensor(k) for k in f.keys()}
            save_file(tensors, str(out / path.name))
    return out


def test_eval_names_specforge_nested_ids_as_layer_inputs(world):
    draft = _with_nested(world, [1, 3, 5], "specforge_135")
    result = runner.invoke(drafter_app, ["eval", "--model", str(draft), "--data", str(_unnamed(world)),
                                         "--no-verifier", "--steps", "1", "--json"])
    assert result.exit_code == 0, result.output
    said = [n for n in json.loads(result.output)["notes"] if "if it holds every layer" in n]
    assert len(said) == 1, result.output
    assert "the configured ids [2, 4, 6] are slots 2,4,6 (with the embedding output first)" in said[0]
    assert "1,3,5 (without the embedding output)" in said[0]


def test_layout_scores_the_slots_of_the_trained_layer_inputs(world):
    draft = _with_nested(world, [1, 3, 5], "specforge_135")
    result = runner.invoke(drafter_app, ["layout", "--model", str(draft), "--data", str(_unnamed(world)),
                                         "--no-verifier", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    scored = {tuple(r["layout"]) for r in report["ranked"]}
    assert (2, 4, 6) in scored, sorted(scored)
    assert (2, 4, 6) in scored, sorted(scored)


def test_a_nested_first_0_without_target_or_depth_says_the_reading_taken(world):
    # [0, 2, 4] is the embedding first on a DeepSeek-family target and layer-inputs [1, 3, 5]
    # on the Llama path (models/llama.py adds 1): with no target and a dump that names no
    # layers the reading was taken silently; the gpt-oss reading hangs on the depth (a list
    # ending at N is read raw), so it is not claimed
    draft = _with_nested(world, [0, 2, 4], "llama_fix_unnamed")
    for command in (["eval", "--steps", "1"], ["layout"]):
        result = runner.invoke(drafter_app, [command[0], "--model", str(draft), "--data",
                                             str(_unnamed(world)), "--no-verifier", *command[1:], "--json"])
        assert result.exit_code == 0, result.output
        said = [n for n in json.loads(result.output)["notes"] if "architecture is unknown" in n]
        assert len(said) == 1, result.output
        assert "read as layer-inputs [0, 2, 4]" in said[0] and "DeepSeek-family" in said[0]
        assert "Llama-path target SGLang reads them as layer-inputs [1, 3, 5]" in said[0]
        assert "gpt-oss" not in said[0]


def test_ids_from_2_without_target_or_depth_get_no_reading_note(world):
    draft = _with_nested(world, [2, 4, 5], "plain_unnamed")
    result = runner.invoke(drafter_app, ["layout", "--model", str(draft), "--data", str(_unnamed(world)),
                                         "--no-verifier", "--json"])
    assert result.exit_code == 0, result.output
    assert not [n for n in json.loads(result.output)["notes"] if "architecture is unknown" in n]
