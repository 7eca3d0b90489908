"""A speculators 0.9.0 draft whose weights are only in model.pt (torch.save(state_dict)):
vLLM 0.34.0 and SGLang 0.5.23 serve it (model_loader default_loader.py / loader.py
_prepare_weights: no *.safetensors, no *.bin, so every *.pt; weight_utils.py
pt_weights_iterator: torch.load(weights_only=True), top-level items as weights), but `drafter
eval` and `drafter vocab` refused the folder because transformers' from_pretrained cannot load
it. The user wants the acceptance of the draft the server runs: it is read now (as safely as the
engines read it: weights_only=True), with a note naming the file. Where the engines would not
serve the file cleanly (a wrapped dict, extra non-tensor entries, several files, a trainer's
state loaded too) the refusal stays and says why."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.eagle3._world import eval_json, informative_world, torch  # skips without torch/speculators

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402

os.environ.setdefault("HF_HUB_OFFLINE", "1")
runner = CliRunner()
world = informative_world("h69_eval_model_pt", seed=5)


def _as_pt(world: Path, out: Path, extra: dict | None = None, name: str = "model.pt") -> Path:
    from safetensors.torch import load_file

    shutil.copytree(world / "draft", out)
    state = load_file(str(out / "model.safetensors"))
    (out / "model.safetensors").unlink()
    torch.save({**state, **(extra or {})}, out / name)
    return out


def test_eval_measures_the_model_pt_the_engines_serve(world, tmp_path):
    draft = _as_pt(world, tmp_path / "draft")
    served = eval_json(world, draft)
    saved = eval_json(world, world / "draft")
    assert served["counts"] == saved["counts"] and served["full_accuracy"] == saved["full_accuracy"]
    (note,) = [n for n in served["notes"] if "weights were read from" in n]
    assert note.startswith(f"the draft's weights were read from {draft / 'model.pt'}"), note


@pytest.mark.parametrize("case", ["extra_entry", "two_files"])
def test_what_the_engines_would_not_serve_cleanly_is_still_refused(world, tmp_path, case):
    if case == "extra_entry":  # {"epoch": 3} reaches load_weights as a weight name
        draft = _as_pt(world, tmp_path / "draft", {"epoch": 3})
    else:  # both loaded, in the file system's order
        draft = _as_pt(world, tmp_path / "draft")
        shutil.copy(draft / "model.pt", draft / "model_ema.pt")
    result = runner.invoke(drafter_app, ["eval", "--model", str(draft), "--data", str(world / "data"),
                                         "--target", str(world / "target"), "--json"])
    assert result.exit_code == 2, result.output
    assert "only torch.save file(s) under other names: model" in " ".join(result.output.split())
