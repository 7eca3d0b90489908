"""A speculators draft's config flattened by hand into the EAGLE format (transformer_layer_config
moved to the top, speculators_model_type dropped) that keeps speculators' class name in
`architectures` (["Eagle3DraftModel"], what save_pretrained writes; ["Eagle3Speculator"],
Eagle3SpeculatorConfig's default). vLLM's EAGLEConfig keeps a name starting with "Eagle3" as
the draft's class (transformers_utils/configs/eagle.py) and its registry has no such class;
SGLang resolves the name as it is and has none either. The drafter scored it with no word."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()

world = informative_world("hardening68-speculators-class", seed=682)

CLASS_NOTE = "speculators' class, but no speculators_model_type"


def _eval(root: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--target", str(root / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _flatten(draft: Path, architectures: list[str]) -> None:
    """The speculators config as an EAGLE-format one (SpecForge's layout)."""
    saved = json.loads((draft / "config.json").read_text())
    assert saved["architectures"] == ["Eagle3DraftModel"]  # what speculators wrote
    flat = dict(saved["transformer_layer_config"])
    flat.update(architectures=architectures, draft_vocab_size=saved["draft_vocab_size"],
                target_hidden_size=saved.get("target_hidden_size"),
                eagle_config={"eagle_aux_hidden_state_layer_ids":
                              saved["eagle_aux_hidden_state_layer_ids"]})
    if flat["target_hidden_size"] is None:
        del flat["target_hidden_size"]
    for flag in ("norm_before_residual", "norm_before_fc", "fc_norm"):
        if flag in saved:
            flat[flag] = saved[flag]
    (draft / "config.json").write_text(json.dumps(flat, indent=2))


@pytest.mark.parametrize("architectures", [["Eagle3DraftModel"], ["Eagle3Speculator"]])
def test_flattened_config_naming_speculators_class(world, tmp_path, architectures):
    root = tmp_path / "world"
    shutil.copytree(world, root)
    saved = _eval(root)
    assert not [n for n in saved["notes"] if CLASS_NOTE in n]  # speculators' own config: served

    _flatten(root / "draft", architectures)
    out = _eval(root)
    assert out["counts"] == saved["counts"]  # the same draft, read from the flat config
    (note,) = [n for n in out["notes"] if CLASS_NOTE in n]
    assert note.startswith(f"the draft's config.json has architectures {json.dumps(architectures)}")
    assert "vLLM keeps a name starting with Eagle3" in note
    assert note.endswith('write "architectures": ["LlamaForCausalLMEagle3"], or serve the config '
                         'speculators saved (with speculators_model_type "eagle3")')

    _flatten_named = json.loads((root / "draft" / "config.json").read_text())
    _flatten_named["architectures"] = ["LlamaForCausalLMEagle3"]  # the fix the note names
    (root / "draft" / "config.json").write_text(json.dumps(_flatten_named))
    fixed = _eval(root)
    assert not [n for n in fixed["notes"] if CLASS_NOTE in n or "architectures" in n]
    assert fixed["counts"] == saved["counts"]
